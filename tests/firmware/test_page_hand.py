"""The page's hand on the simulated board: what it may do, and what it refuses."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from navakankari.engine.boards import MORRIS
from navakankari.engine.variants import start_game
from navakankari.firmware.companion.page_hand import MAX_CHATTER, PageHand, slide_path
from navakankari.firmware.companion.server import RequestError
from navakankari.sim.board import SimulatedBoard
from navakankari.sim.clock import ManualClock


def _hand_on_board(variant: str = "nine-mens-morris"):
    game = start_game(variant)
    board = SimulatedBoard(game.board.points, clock=ManualClock(0.0))
    hand = PageHand()

    def act(**request: Any) -> None:
        asyncio.run(hand.act(board, lambda: game, request))

    return game, board, hand, act


def test_a_lifted_pebble_is_held_until_put_down_elsewhere():
    _, board, hand, act = _hand_on_board()
    act(op="place", point="d6", colour="black")
    act(op="lift", point="d6", chatter=2)
    assert hand.holding == "black" and "d6" not in board.pebbles
    with pytest.raises(RequestError, match="already holds a pebble"):
        act(op="lift", point="d6")
    act(op="put", point="a1")
    assert hand.holding is None and board.pebbles == {"a1": "black"}
    with pytest.raises(RequestError, match="holds no pebble"):
        act(op="put", point="a4")


def test_slides_follow_the_line_between_two_points():
    assert slide_path(MORRIS, "a1", "a7") == ["a1", "a4", "a7"]
    assert slide_path(MORRIS, "g4", "e4") == ["g4", "f4", "e4"]
    assert slide_path(MORRIS, "a1", "d6") == ["a1", "d6"]


def test_a_slide_passes_over_the_points_of_its_line():
    _, board, _, act = _hand_on_board()
    act(op="place", point="a1", colour="white")
    seen: list[str] = []
    board.sensors.start(lambda event: seen.append(event.point))
    act(op="move", **{"from": "a1", "to": "a7"})
    assert board.pebbles == {"a7": "white"} and "a4" in seen  # it crossed a4's sensor
    with pytest.raises(RequestError, match="there is no pebble on a1"):
        act(op="move", **{"from": "a1", "to": "a4"})


def test_set_up_puts_the_pebbles_where_the_game_has_them():
    game, board, hand, act = _hand_on_board()
    for text in ("d6", "d2", "f4"):
        game.play(text)
    act(op="place", point="a1", colour="black")  # a stray pebble
    act(op="place", point="d2", colour="white")  # the wrong colour
    act(op="lift", point="a1")
    act(op="setup")
    assert board.pebbles == {"d6": "white", "d2": "black", "f4": "white"}
    act(op="drop")  # the held pebble is set aside
    assert hand.holding is None
    act(op="clear")
    assert board.pebbles == {}


@pytest.mark.parametrize("request_, words", [
    ({"op": "juggle"}, "op must be one of"),
    ({"op": "place", "point": "z9", "colour": "white"}, "point must be a point of the board"),
    ({"op": "place", "point": "d6", "colour": "red"}, "colour must be white or black"),
    ({"op": "place", "point": "d6", "colour": "white", "chatter": MAX_CHATTER + 1},
     "chatter must be a whole number"),
    ({"op": "place", "point": "d6", "colour": "white", "chatter": True},
     "chatter must be a whole number"),
    ({"op": "lift", "point": "d6"}, "there is no pebble on d6"),
    ({"op": "drop"}, "holds no pebble"),
])
def test_a_bad_request_is_refused_with_its_reason(request_, words):
    _, board, hand, act = _hand_on_board()
    with pytest.raises(RequestError, match=words):
        act(**request_)
    assert board.pebbles == {} and hand.holding is None
