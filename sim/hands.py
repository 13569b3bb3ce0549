"""Scripted hands: the raw sensor edges real hands make when they carry out actions.

Used by the tests, the benchmark and `navakankari run --sim-hands` (a demo and the
power-cut test drive the simulated board with it). Pebbles chatter when set down, a slid
pebble closes the sensors it passes, and a capture chain can be done in any order; every
edge is stamped with this object's own clock, so nothing here sleeps.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Protocol

from navakankari.hal.sensors import SensorEvent

from .gestures import HAND, Timing, bounces, passes

JUMP_ORDERS = ("hop", "take-first", "land-first")


class PointNames(Protocol):
    """A board as the hands need it: its point names, by index."""

    @property
    def points(self) -> Sequence[str]: ...


class HandAction(Protocol):
    """An action as a rules engine gives it: a kind named PLACE, MOVE, REMOVE or JUMP, and
    point indices into the board's names. The hands need nothing else of the game, so the
    simulated board stays free of any rules."""

    @property
    def kind(self) -> Enum: ...
    @property
    def origin(self) -> int: ...
    @property
    def target(self) -> int: ...
    @property
    def path(self) -> Sequence[int]: ...
    @property
    def jumped(self) -> Sequence[int]: ...


class ScriptedHands:
    """Builds a list of `SensorEvent`s from hand gestures, starting at time `t`."""

    def __init__(self, occupied: Iterable[str] = (), *, t: float = 0.0,
                 rng: random.Random | None = None, chatter: int = 0,
                 pause: float = 0.5, timing: Timing = HAND) -> None:
        self.occupied: set[str] = set(occupied)
        self.timing = timing
        self.t = t
        self.events: list[SensorEvent] = []
        self.rng = rng
        self.chatter = chatter
        self.pause = pause

    # -- gestures ----------------------------------------------------------------------------
    def wait(self, dt: float) -> "ScriptedHands":
        self.t += dt
        return self

    def edge(self, point: str, present: bool) -> None:
        self.events.append(SensorEvent(point, present, round(self.t, 6)))

    def bounce(self, point: str, n: int) -> None:
        """`n` quick flips of one sensor, ending where it was."""
        state = point in self.occupied
        for wait, flipped in bounces(n, self.timing):
            self.t += wait
            self.edge(point, state != flipped)

    def place(self, point: str, *, chatter: int | None = None) -> "ScriptedHands":
        if point in self.occupied:
            raise ValueError(f"{point} already holds a pebble")
        self.occupied.add(point)
        self.edge(point, True)
        self.bounce(point, self._chatter(chatter))
        return self

    def lift(self, point: str, *, chatter: int | None = None) -> "ScriptedHands":
        if point not in self.occupied:
            raise ValueError(f"no pebble on {point}")
        self.occupied.discard(point)
        self.edge(point, False)
        self.bounce(point, self._chatter(chatter))
        return self

    def slide(self, path: Sequence[str], *, step: float | None = None,
              dwell: float | None = None) -> "ScriptedHands":
        """Slide a pebble from path[0] over the points between (closing their sensors
        briefly; one that holds a pebble stays closed) to path[-1]."""
        timing = self.timing.slide(step, dwell)
        steps = list(passes(path, timing))
        self.lift(path[0], chatter=0)
        for wait, point, closed in steps:
            self.t += wait
            if point not in self.occupied:
                self.edge(point, closed)
        self.t += timing.step
        return self.place(path[-1])

    def _chatter(self, n: int | None) -> int:
        if n is not None:
            return n
        if self.rng is not None and self.chatter:
            return self.rng.randint(0, self.chatter)
        return self.chatter

    # -- actions -----------------------------------------------------------------------------
    def perform(self, board: PointNames, action: HandAction, *, order: str = "hop",
                gap: float = 0.12) -> "ScriptedHands":
        """Carry out one action by hand, then pause long enough for it to settle."""
        names = board.points
        kind = action.kind.name
        if kind == "PLACE":
            self.place(names[action.target])
        elif kind == "REMOVE":
            self.lift(names[action.target])
        elif kind == "MOVE":
            self.lift(names[action.origin]).wait(gap).place(names[action.target])
        elif kind == "JUMP":
            self._jump(board, action, order, gap)
        else:  # pragma: no cover - every kind is handled above
            raise ValueError(f"unknown action kind {kind}")
        return self.wait(self.pause)

    def _jump(self, board: PointNames, action: HandAction, order: str, gap: float) -> None:
        names = board.points
        origin = names[action.origin]
        landings = [names[p] for p in action.path]
        jumped = [names[p] for p in action.jumped]
        if order == "take-first":
            for j in jumped:
                self.lift(j).wait(gap)
            self.lift(origin).wait(gap)
            if origin != landings[-1]:
                self.place(landings[-1])
            else:
                self.place(origin)
        elif order == "land-first":
            self.lift(origin).wait(gap).place(landings[-1]).wait(gap)
            for j in jumped:
                self.lift(j).wait(gap)
        elif order == "hop":  # set down on every landing, taking each jumped pebble there
            self.lift(origin).wait(gap)
            for k, (land, j) in enumerate(zip(landings, jumped)):
                self.place(land).wait(gap)
                self.lift(j).wait(gap)
                if k < len(landings) - 1:
                    self.lift(land).wait(gap)
        else:
            raise ValueError(f"jump order must be one of {JUMP_ORDERS}, not {order!r}")

    def setup(self, points: Iterable[str], *, gap: float = 0.15) -> "ScriptedHands":
        """Set pebbles down one by one (a start position)."""
        for p in points:
            self.place(p).wait(gap)
        return self.wait(self.pause)

