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
EVENT_RESOLUTION = 1e-6
"""Events are kept to the microsecond (a recording's `t`, the store's events), so a deadline
up to half of that after an event may have come first when the event happened."""


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
    """Feed every event at its time, then run until nothing is pending; returns the end time.
    A deadline that ties with an event (within the events' rounding) is met first, as the
    board met it: the hands that acted then acted after it."""
    for event in events:
        now = run_until(target, event.t + EVENT_RESOLUTION / 2, now)
        target.feed(event)
        now = max(now, event.t)
        target.tick(now)
    return run_until(target, None, now)
