"""The hold-then-lift gesture: how a board with only pebbles and lights is told "this one".

A pebble set down alone on a point that counts, and left still for `hold` seconds, arms that
point; lifting it (the board then empty for `lift` seconds) chooses it. Anything else set
down after arming disarms, so a knocked pebble or one slid across the board chooses nothing.
The menu chooses its points with it and the tracker confirms the end of a cleared game with
it: one reader of the gesture, fed the settled occupancy, time passed in.
"""

from __future__ import annotations

from collections.abc import Callable

Counts = Callable[[str], bool]
"""Whether a pebble held on this point would mean something now."""


class HoldGesture:
    """Fed with `see` whenever the settled occupancy changes; `tick` and `deadline` as every
    timed part of the core."""

    def __init__(self, hold: float, lift: float = 0.0, *,
                 occupied: frozenset[str] = frozenset(), now: float = 0.0) -> None:
        self.hold = hold
        self.lift = lift
        self.occupied = occupied
        self.since = now  #: when the settled occupancy became what it is
        self.armed = ""  #: the point held long enough, waiting for its pebble to be lifted

    @property
    def held(self) -> str:
        """The point a lone pebble stands on, else ""."""
        return next(iter(self.occupied)) if len(self.occupied) == 1 else ""

    def see(self, occupied: frozenset[str], now: float, since: float | None = None) -> None:
        """The settled occupancy changed at `now`; `since`, when the caller knows it, is when
        the last sensor edge came, from which the pebble has been still."""
        if occupied == self.occupied:
            return
        self.occupied = occupied
        self.since = now if since is None else since
        if self.armed and occupied:
            self.armed = ""  # set down again (or slid to another point): not a lift

    def stir(self, t: float) -> None:
        """A sensor moved at `t` without changing the settled occupancy (a bounce, a nudge):
        a pebble not yet held long enough has not been still since."""
        if not self.armed:
            self.since = max(self.since, t)

    def tick(self, now: float, counts: Counts) -> tuple[bool, str]:
        """(whether it armed just now, the point chosen or "")."""
        due = self._hold_due(counts)
        if due is not None and now >= due:
            self.armed = self.held
            return True, ""
        if self.armed and not self.occupied and now >= self.since + self.lift:
            point, self.armed = self.armed, ""
            return False, point
        return False, ""

    def deadline(self, counts: Counts) -> float | None:
        due = self._hold_due(counts)
        if due is not None:
            return due
        if self.armed and not self.occupied:
            return self.since + self.lift
        return None

    def _hold_due(self, counts: Counts) -> float | None:
        point = self.held
        if self.armed or not point or not counts(point):
            return None
        return self.since + self.hold
