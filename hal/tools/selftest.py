"""The maker's self-test: every LED in every primary colour, then every sensor by touch.

`Selftest` is a state machine fed with sensor events and the time; it says what to light and
collects findings: a sensor that reads a pebble at start (stuck on, or a pebble left there), a
sensor that never changes while its point is lit and touched, and a point whose pebble is read
by another point's sensor (crossed wires). `run_selftest` drives it with a real board.
"""

from __future__ import annotations

import enum
import gettext
import logging
import queue
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

from ..board import BoardHardware
from ..leds import RGB
from ..sensors import SensorEvent

log = logging.getLogger(__name__)

ENGLISH = gettext.NullTranslations()
"""The maker's words as written; the commands pass the catalog of the maker's language (a
`gettext` translations object: this layer knows no catalog)."""

PRIMARIES: tuple[tuple[str, RGB], ...] = (("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255)))
TOUCH = (255, 255, 255)
PASSED = (0, 96, 0)
FAULT = (255, 0, 0)


class Phase(enum.Enum):
    LEDS = "leds"
    TOUCH = "touch"
    DONE = "done"


@dataclass(frozen=True)
class Finding:
    """One fault: `kind` is "stuck", "silent" or "crossed" (pebble on `point` read at `other`)."""

    kind: str
    point: str
    other: str | None = None

    def words(self, tr: gettext.NullTranslations = ENGLISH) -> str:
        if self.kind == "stuck":
            return tr.gettext("{point}: reads a pebble at start (take it off; if none is there, "
                              "the sensor is stuck on)").format(point=self.point)
        if self.kind == "silent":
            return tr.gettext("{point}: never changed while lit and touched (dead sensor, loose "
                              "wire or weak magnet)").format(point=self.point)
        return tr.gettext("{point}: its pebble is read at {other} (sensor wires of {point} and "
                          "{other} crossed?)").format(point=self.point, other=self.other)

    def __str__(self) -> str:
        return self.words()


@dataclass(frozen=True)
class SelftestReport:
    findings: tuple[Finding, ...]
    passed: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.findings


class Selftest:
    """The self-test as a state machine: call `on_event` for sensor events, `tick` with the time."""

    def __init__(
        self,
        points: Sequence[str],
        initial: Iterable[str],
        now: float,
        *,
        led_step: float = 0.15,
        touch_timeout: float = 20.0,
        check_leds: bool = True,
        tr: gettext.NullTranslations = ENGLISH,
    ) -> None:
        self.tr = tr  #: the maker's language (the prompts)
        self.points = tuple(points)
        self.present: set[str] = set(initial)
        self.led_step = led_step
        self.touch_timeout = touch_timeout
        self.findings: list[Finding] = [Finding("stuck", p) for p in self.points if p in self.present]
        self.passed: list[str] = []
        self._stuck = {f.point for f in self.findings}
        self._to_touch = [p for p in self.points if p not in self._stuck]
        self._led_steps = [(c, p) for _, c in PRIMARIES for p in self.points] if check_leds else []
        self._phase_start = now
        self._step = 0
        self._seen_here = False
        self._crossed: str | None = None
        self.phase = Phase.LEDS if self._led_steps else Phase.TOUCH
        if self.phase is Phase.TOUCH:
            self._begin_touch(now, 0)

    # --- inputs -------------------------------------------------------------------------

    def on_event(self, event: SensorEvent) -> None:
        if event.present:
            self.present.add(event.point)
        else:
            self.present.discard(event.point)
        if self.phase is not Phase.TOUCH:
            return
        target = self.current_point
        if event.point == target and event.present:
            self._seen_here = True
        elif (
            event.present and event.point not in self._stuck and self._crossed is None and not self._seen_here
        ):
            self._crossed = event.point
        if not event.present and event.point in (target, self._crossed) and self._pebble_off():
            self._finish_point(event.t)

    def tick(self, now: float) -> None:
        if self.phase is Phase.LEDS:
            self._step = int((now - self._phase_start) / self.led_step + 1e-9)  # float sums
            if self._step >= len(self._led_steps):
                self._begin_touch(now, 0)
        elif self.phase is Phase.TOUCH and now - self._phase_start >= self.touch_timeout:
            self._finish_point(now)

    def skip(self, now: float) -> None:
        """The maker moves on from the current step (an LED check or a point)."""
        if self.phase is Phase.LEDS:
            self._begin_touch(now, 0)
        elif self.phase is Phase.TOUCH:
            self._finish_point(now)

    # --- outputs ------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def current_point(self) -> str | None:
        if self.phase is Phase.LEDS:
            return self._led_steps[self._step][1]
        if self.phase is Phase.TOUCH:
            return self._to_touch[self._step]
        return None

    def frame(self) -> dict[str, RGB]:
        """What the LEDs should show now."""
        faulty = {f.point for f in self.findings}
        if self.phase is Phase.LEDS:
            colour, point = self._led_steps[self._step]
            return {point: colour}
        frame = {p: PASSED for p in self.passed}
        frame.update({p: FAULT for p in faulty})
        if self.phase is Phase.TOUCH:
            frame[self._to_touch[self._step]] = TOUCH
        return frame

    def prompt(self) -> str:
        tr = self.tr
        if self.phase is Phase.LEDS:
            colour, point = self._led_steps[self._step]
            if colour == PRIMARIES[0][1]:
                return tr.gettext("LED check: {point} should be red").format(point=point)
            if colour == PRIMARIES[1][1]:
                return tr.gettext("LED check: {point} should be green").format(point=point)
            return tr.gettext("LED check: {point} should be blue").format(point=point)
        if self.phase is Phase.TOUCH:
            return tr.gettext("Put a pebble on the lit point {point}, then take it off").format(
                point=self.current_point)
        return tr.gettext("Self-test finished")

    def report(self) -> SelftestReport:
        return SelftestReport(tuple(self.findings), tuple(self.passed))

    # --- internals ----------------------------------------------------------------------

    def _pebble_off(self) -> bool:
        return self.current_point not in self.present and (
            self._crossed is None or self._crossed not in self.present
        )

    def _begin_touch(self, now: float, step: int) -> None:
        self._phase_start = now
        self._step = step
        self._seen_here = False
        self._crossed = None
        self.phase = Phase.TOUCH if step < len(self._to_touch) else Phase.DONE

    def _finish_point(self, now: float) -> None:
        point = self._to_touch[self._step]
        if self._seen_here:
            self.passed.append(point)
        elif self._crossed is not None:
            self.findings.append(Finding("crossed", point, self._crossed))
        else:
            self.findings.append(Finding("silent", point))
        self._begin_touch(now, self._step + 1)


_GRID_NAME = re.compile(r"([a-z])([1-9])")


def render_occupancy(points: Sequence[str], present: Iterable[str],
                     tr: gettext.NullTranslations = ENGLISH) -> str:
    """The live view: a grid when point names are column letter + row digit, else a list."""
    present = set(present)
    cells = [_GRID_NAME.fullmatch(p) for p in points]
    if not all(cells):
        on = [p for p in points if p in present]
        return (tr.gettext("pebbles on: {points}").format(points=" ".join(on)) if on
                else tr.gettext("no pebble on the board"))
    cols = sorted({m.group(1) for m in cells if m})
    rows = sorted({int(m.group(2)) for m in cells if m}, reverse=True)
    lines = []
    for row in rows:
        marks = []
        for col in cols:
            name = f"{col}{row}"
            marks.append(("@" if name in present else "+") if name in points else " ")
        lines.append(f"{row} " + " ".join(marks))
    lines.append("  " + " ".join(cols))
    return "\n".join(lines)


def run_selftest(
    board: BoardHardware,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    out: TextIO,
    touch_timeout: float = 20.0,
    check_leds: bool = True,
    poll: float = 0.02,
    should_skip: Callable[[], bool] = lambda: False,
    tr: gettext.NullTranslations = ENGLISH,
) -> SelftestReport:
    """Run the self-test on an opened board, printing prompts and the live occupancy to `out`."""
    events: queue.SimpleQueue[SensorEvent] = queue.SimpleQueue()
    board.sensors.start(events.put)
    try:
        test = Selftest(
            board.sensors.points,
            board.sensors.read(),
            clock(),
            touch_timeout=touch_timeout,
            check_leds=check_leds,
            tr=tr,
        )
        for finding in test.findings:
            print(f"! {finding.words(tr)}", file=out)
        shown: Mapping[str, RGB] | None = None
        said = ""
        view = ""
        while not test.done:
            while not events.empty():
                test.on_event(events.get())
            if should_skip():
                test.skip(clock())
            test.tick(clock())
            if test.done:
                break
            frame = test.frame()
            if frame != shown:
                board.leds.show(frame)
                shown = frame
            if test.prompt() != said:
                said = test.prompt()
                print(said, file=out)
            now_view = render_occupancy(board.sensors.points, test.present, tr)
            if now_view != view and test.phase is Phase.TOUCH:
                view = now_view
                print(view, file=out)
            sleep(poll)
        report = test.report()
        board.leds.show(test.frame())
        for finding in report.findings:
            print(f"! {finding.words(tr)}", file=out)
        total = len(board.sensors.points)
        print(tr.ngettext("{passed} of {total} sensor passed", "{passed} of {total} sensors passed",
                          total).format(passed=len(report.passed), total=total), file=out)
        return report
    finally:
        board.sensors.stop()
