"""Running timed code against a list of events with a simulated clock.

Anything with `feed(event)`, `tick(now)` and `deadline()` (the tracker, the session) is run
the same way the daemon runs it, but with time taken from the events: before each event the
clock stops at every deadline that falls earlier, and after the last event it runs on until
nothing is pending.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from navakankari.hal.sensors import SensorEvent

MAX_STEPS = 100_000
"""A guard: a deadline that never clears would otherwise spin forever."""


class Timed(Protocol):
    def feed(self, event: SensorEvent) -> None: ...

    def tick(self, now: float) -> Any: ...

    def deadline(self) -> float | None: ...


def run_until(target: Timed, until: float | None, now: float) -> float:
    """Tick `target` at each of its deadlines up to `until` (None: until nothing is pending).
    Returns the time reached."""
    for _ in range(MAX_STEPS):
        due = target.deadline()
        if due is None or (until is not None and due > until):
            return now if until is None else max(now, until)
        now = max(now, due)
        target.tick(now)
    raise RuntimeError("deadlines never cleared")


def drive(target: Timed, events: Iterable[SensorEvent], *, now: float = 0.0) -> float:
    """Feed every event at its time, then run until nothing is pending; returns the end time."""
    for event in events:
        now = run_until(target, event.t, now)
        target.feed(event)
        now = max(now, event.t)
        target.tick(now)
    return run_until(target, None, now)
