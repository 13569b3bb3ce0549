"""The maker's hand that drives the self-test on the simulated board (tests of hal and i18n)."""

from __future__ import annotations

from collections.abc import Callable

from navakankari.hal.board import BoardHardware
from navakankari.sim import ManualClock


def touching_hand(board: BoardHardware, clock: ManualClock) -> Callable[[float], None]:
    """The self-test's `sleep`: time passes on `clock`, and a maker puts a pebble on each
    point when it lights white and takes it off again."""
    sim, touched = board.simulation, {"point": None}
    assert sim is not None, "the self-test's hand needs the simulated board"

    def sleep(dt: float) -> None:
        clock.advance(dt)
        point = next((p for p, c in sim.leds.lit.items() if c == (255, 255, 255)), None)
        if point and touched["point"] != point and point not in sim.pebbles:
            touched["point"] = point
            sim.place(point)
        elif point and point in sim.pebbles:
            sim.lift(point)

    return sleep
