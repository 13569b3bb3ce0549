"""Calibration: learn which sensor channel and which LED belong to each point.

For a board wired in any order. Two passes, both fed by sensor events:
1. names: the maker puts a pebble on each point named in turn; the channel that closes is that
   point's sensor (skipped with `keep_sensors` when the profile's sensor wiring is right);
2. LEDs: one LED at a time lights; the maker puts a pebble on the lit point; the sensor that
   closes says which point that LED sits at.
The result is a profile with the same pins and backends and the learned mapping.
"""

from __future__ import annotations

import dataclasses
import enum
import gettext
import logging
import queue
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from ..board import BoardHardware
from ..leds import RGB
from ..profile import (
    GpioSensorConfig,
    LedConfig,
    MatrixSensorConfig,
    Mcp23017SensorConfig,
    Profile,
    SimSensorConfig,
    dump_profile,
    parse_profile,
)
from ..sensors import SensorEvent
from .selftest import ENGLISH

log = logging.getLogger(__name__)

LIT: RGB = (255, 255, 255)
LEARNED: RGB = (0, 96, 0)


class CalibrationError(ValueError):
    """Calibration could not map every point (a point skipped, too few LEDs)."""

    def __init__(self, missing: Sequence[str]) -> None:
        super().__init__(f"not calibrated: {', '.join(missing)}")
        self.missing = tuple(missing)

    def words(self, tr: gettext.NullTranslations = ENGLISH) -> str:
        return tr.ngettext("This point was not calibrated: {points}",
                           "These points were not calibrated: {points}",
                           len(self.missing)).format(points=", ".join(self.missing))


class Stage(enum.Enum):
    NAMES = "names"
    LEDS = "leds"
    DONE = "done"


def _channels(profile: Profile) -> dict[str, Any]:
    """Every sensor channel of the profile, named so the name says where it is wired."""
    s = profile.sensors
    if isinstance(s, GpioSensorConfig):
        return {f"gpio{pin}": pin for pin in s.pins.values()}
    if isinstance(s, MatrixSensorConfig):
        return {f"row{r}_col{c}": (r, c) for r in range(len(s.rows)) for c in range(len(s.columns))}
    if isinstance(s, Mcp23017SensorConfig):
        return {
            f"chip{s.addresses[chip]:02x}_pin{bit}": (chip, bit)
            for chip in range(len(s.addresses))
            for bit in range(16)
        }
    return {f"ch{i}": i for i in range(len(profile.points))}


def led_name(i: int) -> str:
    return f"led{i}"


def channel_profile(profile: Profile) -> tuple[Profile, dict[str, Any]]:
    """The same hardware with every channel and LED named for itself (`gpio4`, `led0`), so the
    backend reports channels and lights LEDs by index; and each channel name's wiring spec."""
    channels = _channels(profile)
    names = tuple(channels)
    s = profile.sensors
    sensors: Any
    if isinstance(s, GpioSensorConfig):
        sensors = GpioSensorConfig(dict(zip(names, channels.values())))
    elif isinstance(s, MatrixSensorConfig):
        sensors = dataclasses.replace(s, cells=dict(channels))
    elif isinstance(s, Mcp23017SensorConfig):
        sensors = dataclasses.replace(s, channels=dict(channels))
    else:
        sensors = SimSensorConfig()
    count = profile.leds.count
    leds = dataclasses.replace(profile.leds, index={led_name(i): i for i in range(count)})
    # Channels and LEDs differ in number, so the raw profile is built without the loader.
    return dataclasses.replace(profile, points=names, sensors=sensors, leds=leds), channels


class Calibration:
    """The state machine: feed it events naming channels; it says what to light and ask."""

    def __init__(
        self,
        points: Sequence[str],
        led_count: int,
        *,
        known_channels: Mapping[str, str] | None = None,
        tr: gettext.NullTranslations = ENGLISH,
    ) -> None:
        self.tr = tr  #: the maker's language (prompts and notes)
        self.points = tuple(points)
        self.led_count = led_count
        self.channel_of: dict[str, str] = dict(known_channels or {})
        self.led_of: dict[str, int] = {}
        self.notes: list[str] = []
        self._present: set[str] = set()
        self._step = 0
        self._waiting_lift: str | None = None
        self.stage = Stage.LEDS if known_channels else Stage.NAMES

    @property
    def done(self) -> bool:
        return self.stage is Stage.DONE

    def prompt(self) -> str:
        tr = self.tr
        if self._waiting_lift:
            return tr.gettext("Take the pebble off")
        if self.stage is Stage.NAMES:
            return tr.gettext("Put a pebble on {point}").format(point=self.points[self._step])
        if self.stage is Stage.LEDS:
            return tr.gettext("Put a pebble on the lit point (LED {led})").format(led=self._step)
        return tr.gettext("Calibration finished")

    def frame(self) -> dict[str, RGB]:
        frame = {led_name(i): LEARNED for i in self.led_of.values()}
        if self.stage is Stage.LEDS and not self._waiting_lift:
            frame[led_name(self._step)] = LIT
        return frame

    def on_event(self, event: SensorEvent) -> None:
        if not event.present:
            self._present.discard(event.point)
            if event.point == self._waiting_lift:
                self._waiting_lift = None
                self._advance()
            return
        self._present.add(event.point)
        if self._waiting_lift or self.stage is Stage.DONE:
            return
        if self.stage is Stage.NAMES:
            taken = {c: p for p, c in self.channel_of.items()}
            if event.point in taken:
                self.notes.append(self.tr.gettext(
                    "{channel} already belongs to {point}: try again").format(
                        channel=event.point, point=taken[event.point]))
                return
            self.channel_of[self.points[self._step]] = event.point
        else:
            point = {c: p for p, c in self.channel_of.items()}.get(event.point)
            if point is None:
                self.notes.append(self.tr.gettext("{channel} belongs to no point: try again")
                                  .format(channel=event.point))
                return
            if point in self.led_of:
                self.notes.append(self.tr.gettext("{point} already has LED {led}: try again")
                                  .format(point=point, led=self.led_of[point]))
                return
            self.led_of[point] = self._step
        self._waiting_lift = event.point

    def skip(self) -> None:
        """Move on without learning the current step (a spare LED, a point to redo later)."""
        self._waiting_lift = None
        self._advance()

    def _advance(self) -> None:
        self._step += 1
        if self.stage is Stage.NAMES and self._step >= len(self.points):
            self.stage, self._step = Stage.LEDS, 0
        if self.stage is Stage.LEDS and (
            self._step >= self.led_count or len(self.led_of) == len(self.points)
        ):
            self.stage = Stage.DONE


def calibrated_profile(
    profile: Profile, channels: Mapping[str, Any], channel_of: Mapping[str, str], led_of: Mapping[str, int]
) -> Profile:
    """The profile with each point's learned sensor channel and LED index; checked by the loader."""
    missing = [p for p in profile.points if p not in channel_of or p not in led_of]
    if missing:
        raise CalibrationError(missing)
    spec = {p: channels[channel_of[p]] for p in profile.points}
    s = profile.sensors
    sensors: Any
    if isinstance(s, GpioSensorConfig):
        sensors = GpioSensorConfig(spec)
    elif isinstance(s, MatrixSensorConfig):
        sensors = dataclasses.replace(s, cells=spec)
    elif isinstance(s, Mcp23017SensorConfig):
        sensors = dataclasses.replace(s, channels=spec)
    else:
        sensors = s
    leds: LedConfig = dataclasses.replace(profile.leds, index={p: led_of[p] for p in profile.points})
    result = dataclasses.replace(profile, sensors=sensors, leds=leds)
    return parse_profile(dump_profile(result), source=profile.source)


def run_calibration(
    profile: Profile,
    open_board: Callable[[Profile], BoardHardware],
    *,
    keep_sensors: bool = False,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    out: TextIO,
    poll: float = 0.02,
    should_skip: Callable[[], bool] = lambda: False,
    tr: gettext.NullTranslations = ENGLISH,
) -> Profile:
    """Calibrate on the hardware `open_board` opens for the channel-named profile."""
    raw, channels = channel_profile(profile)
    known = None
    if keep_sensors:
        by_spec = {repr(spec): name for name, spec in channels.items()}
        current = point_channels(profile)
        known = {p: by_spec[repr(spec)] for p, spec in current.items()}
    calibration = Calibration(profile.points, profile.leds.count, known_channels=known, tr=tr)
    events: queue.SimpleQueue[SensorEvent] = queue.SimpleQueue()
    with open_board(raw) as board:
        board.sensors.start(events.put)
        said, shown, notes = "", None, 0
        while not calibration.done:
            while not events.empty():
                calibration.on_event(events.get())
            if should_skip():
                calibration.skip()
            for note in calibration.notes[notes:]:
                print(f"! {note}", file=out)
            notes = len(calibration.notes)
            if calibration.prompt() != said:
                said = calibration.prompt()
                print(said, file=out)
            if calibration.frame() != shown:
                shown = calibration.frame()
                board.leds.show(shown)
            sleep(poll)
    return calibrated_profile(profile, channels, calibration.channel_of, calibration.led_of)


def point_channels(profile: Profile) -> dict[str, Any]:
    """Each point's sensor wiring spec (pin, [row, column] or [chip, pin])."""
    s = profile.sensors
    if isinstance(s, GpioSensorConfig):
        return dict(s.pins)
    if isinstance(s, MatrixSensorConfig):
        return dict(s.cells)
    if isinstance(s, Mcp23017SensorConfig):
        return dict(s.channels)
    return {p: i for i, p in enumerate(profile.points)}


def write_profile(profile: Profile, path: Path, *, note: str = "") -> None:
    """Write a profile file, with an optional comment line on top."""
    header = f"# {note}\n" if note else ""
    path.write_text(header + dump_profile(profile), encoding="utf-8")
