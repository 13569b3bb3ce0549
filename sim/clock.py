"""A clock that moves only when told, so timing rules are tested without sleeping."""

from __future__ import annotations


class ManualClock:
    """Call it for the time; `advance(dt)` (also usable as a `sleep`) moves it forward."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def __call__(self) -> float:
        return self._now

    def advance(self, dt: float) -> None:
        if dt < 0:
            raise ValueError(f"time does not run backwards ({dt})")
        self._now += dt

    def set(self, t: float) -> None:
        """Jump to time `t` (not earlier than now)."""
        self.advance(t - self._now)

    def __repr__(self) -> str:
        return f"ManualClock({self._now})"
