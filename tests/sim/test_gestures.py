"""The scripted hands and the simulated board make the same gestures, edge for edge."""

from __future__ import annotations

import pytest

from navakankari.hal.sensors import SensorEvent
from navakankari.sim.board import SimulatedBoard
from navakankari.sim.clock import ManualClock
from navakankari.sim.gestures import HAND, Timing, bounces, passes
from navakankari.sim.hands import ScriptedHands

POINTS = ("a7", "d7", "g7", "d6", "f6")


def _board_edges(act) -> list[tuple[str, bool, float]]:
    clock = ManualClock(0.0)
    board = SimulatedBoard(POINTS, clock=clock)
    board.place("d6")
    board.place("a7")
    events: list[SensorEvent] = []
    board.sensors.start(events.append)
    t0 = clock()
    act(board)
    return [(e.point, e.present, round(e.t - t0, 6)) for e in events]


def _hand_edges(act) -> list[tuple[str, bool, float]]:
    hands = ScriptedHands({"d6", "a7"})
    act(hands)
    return [(e.point, e.present, round(e.t, 6)) for e in hands.events]


@pytest.mark.parametrize("path", [["a7", "d7", "g7"], ["a7", "d7", "d6", "f6"]])
def test_a_slide_is_the_same_on_both(path):
    assert _board_edges(lambda b: b.slide(path)) == _hand_edges(lambda h: h.slide(path))


def test_bounces_are_the_same_on_both():
    assert (_board_edges(lambda b: b.place("g7", chatter=3))
            == _hand_edges(lambda h: h.place("g7", chatter=3)))


def test_the_steps_of_a_slide_and_of_bounces():
    assert list(passes(["a", "b", "c"], Timing(0.1, 0.04))) == [(pytest.approx(0.06), "b", True),
                                                               (0.04, "b", False)]
    assert list(bounces(1)) == [(HAND.bounce, True), (HAND.bounce, False)]
    with pytest.raises(ValueError):
        list(passes(["a"]))
    with pytest.raises(ValueError):
        Timing(step=0.01, dwell=0.02)
