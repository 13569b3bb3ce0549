"""Running timed code against recorded events: deadlines and events in the board's order."""

from __future__ import annotations

from navakankari.firmware.core.clockwork import drive
from navakankari.hal.sensors import SensorEvent


class Recorder:
    def __init__(self, due: float) -> None:
        self.due: float | None = due
        self.seen: list[str] = []

    def feed(self, event: SensorEvent) -> None:
        self.seen.append(f"event {event.point}")

    def tick(self, now: float) -> None:
        if self.due is not None and now >= self.due:
            self.seen.append("deadline")
            self.due = None

    def deadline(self) -> float | None:
        return self.due


def test_a_deadline_that_ties_with_an_event_is_met_first() -> None:
    """Events are kept to the microsecond: a deadline a rounding after an event's written
    time came first on the board (a sum of seconds: 18.5973 + 5.9 is 24.497300000000003)."""
    target = Recorder(18.5973 + 5.9)
    drive(target, [SensorEvent("e4", True, 24.4973)])
    assert target.seen == ["deadline", "event e4"]


def test_a_deadline_after_an_event_waits_for_it() -> None:
    target = Recorder(24.4974)
    drive(target, [SensorEvent("e4", True, 24.4973)])
    assert target.seen == ["event e4", "deadline"]
