"""Nau Keti Keta: setup, the forced first move, jump chains, compulsory capture, the end."""

from __future__ import annotations

import pytest
from navakankari.engine.actions import ActionKind
from navakankari.engine.game import Outcome, Side
from navakankari.engine.presets import preset
from navakankari.engine.variants import game_from_position, new_game

RULES = preset("nau-keti-keta")


def texts(game):
    return sorted(a.text for a in game.legal_actions())


def position(rows: str, side: str = "w") -> str:
    return f"{rows} {side} 0 1"


def test_setup_fills_both_triangles_and_leaves_the_apex():
    game = new_game(RULES)
    board = game.board
    assert board.size == 19
    assert game.on_board(Side.WHITE) == game.on_board(Side.BLACK) == 9
    assert board.names(game.occupancy ^ board.full) == ("d4",)
    assert game.position() == "@@@/@@@/@@@/*/OOO/OOO/OOO w 0 1"


def test_the_first_move_must_go_into_the_apex():
    game = new_game(RULES)
    assert texts(game) == ["c3-d4", "d3-d4", "e3-d4"]


def test_capture_is_compulsory():
    game = new_game(RULES)
    game.play("d3-d4")
    assert texts(game) == ["d5xd3"]
    rows = position("@**/***/***/*/@**/O**/***")
    assert texts(game_from_position(RULES, rows)) == ["b2xd4"]
    relaxed = game_from_position(RULES.replace(capture_compulsory=False), rows)
    assert texts(relaxed) == ["b2-a1", "b2-d2", "b2xd4"]


def test_a_jump_goes_straight_over_a_neighbour():
    game = game_from_position(RULES, position("***/***/***/*/@**/O**/***"))
    # b2 jumps over c3 along the long diagonal to d4, never sideways to d3.
    assert texts(game) == ["b2xd4"]
    action = game.legal_actions()[0]
    assert action.kind == ActionKind.JUMP
    assert game.board.names(action.empties) == ("c3", "b2")
    assert game.board.names(action.fills) == ("d4",)


def test_a_chain_may_turn_between_jumps_and_must_be_finished():
    # b2 over c3 to d4 (diagonal), then over d5 to d6 (turning up the centre line).
    game = game_from_position(RULES, position("@**/***/*@*/*/@**/O**/***"))
    assert texts(game) == ["b2xd4xd6"]
    game.play("b2xd4xd6")
    assert game.board.names(game.pieces(Side.WHITE)) == ("d6",)
    assert game.board.names(game.pieces(Side.BLACK)) == ("a7",)


def test_chains_may_stop_early_when_capture_is_optional():
    rules = RULES.replace(capture_compulsory=False)
    game = game_from_position(rules, position("@**/***/*@*/*/@**/O**/***"))
    assert {"b2xd4", "b2xd4xd6"} <= set(texts(game))


def test_single_jumps_only_without_multi_jump():
    rules = RULES.replace(multi_jump=False)
    game = game_from_position(rules, position("@**/***/*@*/*/@**/O**/***"))
    assert texts(game) == ["b2xd4"]


def test_capturing_every_pebble_wins():
    game = game_from_position(RULES, position("***/***/***/*/@**/O**/***"))
    game.play("b2xd4")
    assert game.outcome() == Outcome(Side.WHITE, "all-taken")


def test_a_blocked_side_loses():
    # Black's only pebble a7 has neighbours d7 and b6 (white) and cannot jump: g7, c5 held.
    game = game_from_position(RULES, position("@OO/O**/O**/*/***/***/***", side="b"))
    assert game.legal_actions() == []
    assert game.outcome() == Outcome(Side.WHITE, "blocked")


def test_huffing_removes_a_pebble_that_could_have_captured():
    rules = RULES.replace(capture_compulsory=False, huffing=True)
    game = game_from_position(rules, position("@**/***/***/*/@**/O**/***"))
    game.play("b2-a1")  # declines b2xd4; the pebble moved on to a1
    assert game.board.names(game.huffable()) == ("a1",)
    assert "xa1" in texts(game)
    game.play("xa1")
    assert game.turn == Side.BLACK and game.on_board(Side.WHITE) == 0
    assert game.outcome() == Outcome(Side.BLACK, "all-taken")


@pytest.mark.parametrize("text", ["d4", "d3xd4xd5x", "z9-d4"])
def test_bad_actions_are_explained(text):
    game = new_game(RULES)
    with pytest.raises(ValueError) as err:
        game.play(text)
    assert text.split("x")[0][:2] in str(err.value) or "no placements" in str(err.value)


def test_position_string_round_trips():
    game = new_game(RULES)
    game.play_record("d3-d4 d5xd3")
    again = game_from_position(RULES, game.position())
    assert again.position() == game.position()
    assert texts(again) == texts(game)


def test_a_chain_cannot_land_where_it_took_a_pebble():
    # f6 over d6 to b6, over c5 to d4; d6 still holds its taken pebble until the chain
    # ends, so d4 cannot go on over d5 to d6.
    game = game_from_position(RULES, position("***/*@O/@@*/*/***/***/***"))
    assert texts(game) == ["f6xb6xd4"]
    action = game.legal_actions()[0]
    assert set(game.board.names(action.empties)) == {"f6", "d6", "c5"}
    assert game.board.names(action.fills) == ("d4",)
