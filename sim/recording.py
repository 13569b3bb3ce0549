"""Recorded sessions: raw sensor events as JSON Lines, one `{"t", "point", "present"}` a line.

`t` is seconds from the start of the recording, rounded to the microsecond. A session recorded
on a real board replays on a laptop (`SimulatedBoard.replay`) to reproduce what happened.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO

from navakankari.hal.sensors import SensorEvent
from navakankari.hal.words import N_, Phrase, Words, words_of


class RecordingError(ValueError):
    """A line of a recording is not a sensor event; the message names the line. The problem
    is a `Phrase`, so a command says it in the player's language (`words`)."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(problem)

    def words(self, tr: Words) -> str:
        """The problem in `tr`'s language (the file, line and values as they are)."""
        return words_of(self.problem, tr)


def event_to_line(event: SensorEvent, t0: float = 0.0) -> str:
    t = round(event.t - t0, 6)
    return json.dumps({"t": t, "point": event.point, "present": event.present})


MAX_T = 1e7
"""Latest event time accepted, in seconds (about four months: no game runs longer)."""


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a time")


def event_from_line(line: str, where: str = "<line>") -> SensorEvent:
    try:
        data = json.loads(line, parse_constant=_no_constant)
        t, point, present = data["t"], data["point"], data["present"]
    except RecursionError:
        raise RecordingError(Phrase(N_("{where}: not a sensor event: nested too deeply"),
                                    where=where)) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise RecordingError(Phrase(N_("{where}: not a sensor event: {problem}"), where=where,
                                    problem=exc)) from None
    if (
        not isinstance(t, (int, float))
        or isinstance(t, bool)
        or not isinstance(point, str)
        or not isinstance(present, bool)
    ):
        raise RecordingError(Phrase(N_("{where}: want t (number), point (string), present "
                                       "(true/false)"), where=where))
    if not 0 <= t <= MAX_T:  # also refuses 1e999, which JSON reads as infinity
        raise RecordingError(Phrase(N_("{where}: t must be seconds from 0 to {most}, not {value}"),
                                    where=where, most=f"{MAX_T:g}", value=repr(t)))
    return SensorEvent(point, present, float(t))


def iter_events(stream: IO[str], name: str = "<stream>") -> Iterator[SensorEvent]:
    """Events from an open text stream; blank lines and lines starting with # are skipped.
    Times must not go backwards."""
    last = 0.0
    for number, line in enumerate(stream, start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            event = event_from_line(line, f"{name}:{number}")
            if event.t < last:
                raise RecordingError(Phrase(
                    N_("{where}: t={t} is before the line above (t={last}): times must not go "
                       "backwards"), where=f"{name}:{number}", t=f"{event.t:g}",
                    last=f"{last:g}"))
            last = event.t
            yield event


def read_events(path: str | Path) -> list[SensorEvent]:
    """All events of a recording file."""
    with open(path, encoding="utf-8") as stream:
        return list(iter_events(stream, str(path)))


def write_events(path: str | Path, events: Iterable[SensorEvent], *, t0: float | None = None) -> int:
    """Write events with times relative to `t0` (default: the first event's); returns the count."""
    count = 0
    with open(path, "w", encoding="utf-8") as stream:
        recorder = Recorder(stream, t0=t0)
        for event in events:
            recorder(event)
            count += 1
    return count


class Recorder:
    """A sensor callback that appends each event to a stream as it arrives (then hands it on)."""

    def __init__(
        self,
        stream: IO[str],
        *,
        t0: float | None = None,
        then: Callable[[SensorEvent], None] | None = None,
    ) -> None:
        self._stream = stream
        self._t0 = t0
        self._then = then

    def __call__(self, event: SensorEvent) -> None:
        if self._t0 is None:
            self._t0 = event.t
        self._stream.write(event_to_line(event, self._t0) + "\n")
        self._stream.flush()
        if self._then is not None:
            self._then(event)
