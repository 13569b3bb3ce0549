"""Each preset's distinctive rule, from a position where it changes what happens."""

from __future__ import annotations

import random

import pytest
from conftest import make_fen
from navakankari.engine.game import Outcome, Side
from navakankari.engine.presets import preset
from navakankari.engine.rules import BoardFull, Flying
from navakankari.engine.variants import game_from_position, new_game


def texts(game):
    return sorted(a.text for a in game.legal_actions())


def at(variant: str, **kw):
    return game_from_position(preset(variant), make_fen(**kw))


# -- removals ---------------------------------------------------------------------------
def test_a_mill_leaves_the_same_side_to_remove():
    game = at("nine-mens-morris", white="a7 d7", black="b6 f6", white_hand=7, black_hand=7)
    game.play("g7")
    assert game.turn == Side.WHITE and game.pending_removals == 1
    assert texts(game) == ["xb6", "xf6"]
    game.play("xb6")
    assert game.turn == Side.BLACK and game.pending_removals == 0


@pytest.mark.parametrize("variant, removals", [("navakankari", 2), ("nine-mens-morris", 1)])
def test_two_mills_closed_at_once(variant, removals):
    game = at(variant, white="a7 d7 g4 g1", black="b6 f6 b2", white_hand=5, black_hand=6)
    game.play("g7")
    assert game.pending_removals == removals
    game.play("xb6")
    assert game.turn == (Side.WHITE if removals == 2 else Side.BLACK)
    if removals == 2:
        game.play("xf6")
        assert game.turn == Side.BLACK
    assert game.captured(Side.BLACK) == removals


def test_combined_notation_plays_move_and_removal():
    game = at("nine-mens-morris", white="a7 d7 g4", black="b6 f6 b2 d2")
    assert [a.text for a in game.play("g4-g7xb2")] == ["g4-g7", "xb2"]
    assert game.turn == Side.BLACK


def test_all_opposing_pebbles_in_mills_none_may_be_taken_in_navakankari():
    game = at("navakankari", white="a7 d7 g4", black="b6 b4 b2", side="w")
    game.play("g4-g7")
    assert game.turn == Side.BLACK and game.pending_removals == 0
    assert texts(game) == ["b2-d2", "b4-a4", "b4-c4", "b6-d6"]


@pytest.mark.parametrize("moves", [False, True])
def test_all_opposing_pebbles_in_mills_any_may_be_taken_in_the_standard_game(moves):
    if moves:
        game = at("nine-mens-morris", white="a7 d7 g4", black="b6 b4 b2 e3", side="w")
        game.play("g4-g7")  # e3 is free: only it may be taken
        assert texts(game) == ["xe3"]
        game = at("nine-mens-morris", white="a7 d7 g4", black="b6 b4 b2", side="w")
        game.play("g4-g7")
    else:  # the same during placement
        game = at("nine-mens-morris", white="a7 d7", black="b6 b4 b2", white_hand=3,
                  black_hand=3)
        game.play("g7")
    assert game.turn == Side.WHITE and game.pending_removals == 1
    assert texts(game) == ["xb2", "xb4", "xb6"]
    game.play("xb4")
    assert game.turn == Side.BLACK
    assert sorted(game.board.names(game.pieces(Side.BLACK))) == ["b2", "b6"]


def test_pebbles_in_a_mill_are_safe_while_others_are_not():
    game = at("nine-mens-morris", white="a7 d7 g4", black="b6 b4 b2 d2")
    game.play("g4-g7")
    assert texts(game) == ["xd2"]


# -- re-forming a mill -------------------------------------------------------------------
def _reform(game, times: int) -> list[int]:
    """White opens and closes a7-d7-g7 `times` times while black shuffles d1-d2; returns how
    many removals each closing allowed."""
    d1 = 1 << game.board.index("d1")

    def shuffle() -> None:
        game.play("d1-d2" if game.pieces(Side.BLACK) & d1 else "d2-d1")

    pending = []
    for _ in range(times):
        game.play("g7-g4")
        shuffle()
        game.play("g4-g7")
        pending.append(game.pending_removals)
        if game.pending_removals:
            game.push(next(a for a in game.legal_actions() if a.text not in ("xd1", "xd2")))
        shuffle()
    return pending


BLACK_SEVEN = "c3 e3 b4 f4 b6 f6 d1"


def test_navakankari_mill_captures_at_most_three_times():
    game = at("navakankari", white="a7 d7 g7", black=BLACK_SEVEN)
    assert _reform(game, 4) == [1, 1, 1, 0]


def test_navakankari_strict_mill_captures_once():
    game = at("navakankari-strict", white="a7 d7 g7", black=BLACK_SEVEN)
    assert _reform(game, 2) == [1, 0]


def test_standard_mill_captures_every_time():
    game = at("nine-mens-morris", white="a7 d7 g7 a1", black=BLACK_SEVEN)
    assert _reform(game, 4) == [1, 1, 1, 1]


def test_morabaraba_mill_not_re_formed_at_once_by_the_same_pebble():
    white, black = "a7 d7 g7 a1", BLACK_SEVEN
    game = at("morabaraba", white=white, black=black)
    game.play("g7-g4")
    game.play("d1-d2")
    game.play("g4-g7")
    assert game.pending_removals == 0 and game.turn == Side.BLACK
    # After a move in between, the same mill captures again.
    game.play("d2-d1")
    game.play("g7-g4")
    game.play("d1-d2")
    game.play("a1-a4")
    game.play("d2-d1")
    game.play("g4-g7")
    assert game.pending_removals == 1
    standard = at("twelve-mens-morris", white=white, black=black)
    standard.play("g7-g4")
    standard.play("d1-d2")
    standard.play("g4-g7")
    assert standard.pending_removals == 1


# -- flying, moving during placement ---------------------------------------------------------
def test_flying_at_three_in_the_standard_game_only():
    kw = dict(white="a7 d7 d1", black="c3 e3 b4 f4 b2")
    flying = at("nine-mens-morris", **kw)
    walking = at("navakankari", **kw)
    assert "a7-g1" in texts(flying) and len(texts(flying)) == 3 * 16
    assert texts(walking) == ["a7-a4", "d1-a1", "d1-d2", "d1-g1", "d7-d6", "d7-g7"]


def test_phase_three_lets_both_sides_fly():
    rules = preset("nine-mens-morris").replace(flying=Flying.BOTH)
    fen = make_fen(white="a7 d7 d1 b6 f6", black="c3 e3 b4", side="w")
    both = game_from_position(rules, fen)
    assert "a7-g1" in texts(both)
    assert "a7-g1" not in texts(game_from_position(preset("nine-mens-morris"), fen))


def test_lasker_moves_during_placement():
    lasker = new_game(preset("lasker"))
    standard = new_game(preset("nine-mens-morris"))
    for game in (lasker, standard):
        game.play("a7")
        game.play("d1")
    assert "a7-a4" in texts(lasker) and "a7-a4" not in texts(standard)
    lasker.play("a7-a4")
    assert lasker.in_hand(Side.WHITE) == 9 and lasker.turn == Side.BLACK


# -- six men's morris --------------------------------------------------------------------------
def test_six_mens_morris_uses_the_inner_sixteen_points():
    game = new_game(preset("six-mens-morris"))
    assert len(game.legal_actions()) == 16 and game.board.size == 16
    assert game.in_hand(Side.WHITE) == 6
    with pytest.raises(Exception, match="not a point"):
        game.play("a7")


def test_six_mens_morris_spokes_are_lines_but_not_mills():
    game = at("six-mens-morris", white="d6 d5", black="b6 f6 b2", white_hand=4, black_hand=3)
    assert "d6" not in texts(game)  # occupied
    game = at("six-mens-morris", white="d5 b4", black="b6 f6", white_hand=4, black_hand=4)
    game.play("c4")  # b4-c4 is a spoke, c5-c4-c3 needs c5 and c3: no mill
    assert game.pending_removals == 0


# -- the end of the game ------------------------------------------------------------------------
def test_fewer_than_three_pebbles_loses():
    game = at("nine-mens-morris", white="a7 d7 g4", black="b6 f6 b2")
    game.play("g4-g7")
    game.play("xb6")
    assert game.outcome() == Outcome(Side.WHITE, "too-few-pebbles")
    assert game.legal_actions() == []


def test_no_legal_move_loses():
    game = at("navakankari", white="d7 g4 d1 a4 d5 b4 c4 e4", black="g7 a7 g1 a1", side="b")
    assert game.legal_actions() == []
    assert game.outcome() == Outcome(Side.WHITE, "blocked")


FULL_RECORD = ("f2 f4 b6 c5 d3 g4 f6 d7 d1 b4 a4 d6 e3 e5 e4 g1 c4 b2 a1 c3 d5 d2 g7 a7")


@pytest.mark.parametrize("board_full, expected", [
    (BoardFull.DRAW, Outcome(None, "board-full")),
    (BoardFull.FIRST_LOSES, Outcome(Side.BLACK, "board-full")),
])
def test_twelve_a_side_full_board(board_full, expected):
    game = new_game(preset("twelve-mens-morris").replace(board_full=board_full))
    game.play_record(FULL_RECORD)
    assert game.occupancy == game.board.full
    assert game.outcome() == expected


def test_a_full_board_loses_for_the_side_that_placed_first_whichever_began():
    """Black begins (the toss chose it): the board fills after black's and white's twelve
    pebbles with black to act, and under FIRST_LOSES black, who placed first, loses."""
    rules = preset("twelve-mens-morris").replace(board_full=BoardFull.FIRST_LOSES)
    start = new_game(rules).position().replace(" w ", " b ", 1)
    game = game_from_position(rules, start)
    game.play_record(FULL_RECORD)
    assert game.occupancy == game.board.full and game.turn == Side.BLACK
    assert game.outcome() == Outcome(Side.WHITE, "board-full")


def test_threefold_repetition_draws():
    # Only positions reached by moves count (as in Sanmill): the loaded position does not,
    # so the third occurrence is the position after a7-a4 in the third round.
    game = at("nine-mens-morris", white="a7 d7 g4 b2", black="c3 e3 b4 f4 f2 d1")
    for _ in range(2):
        for text in ("a7-a4", "d1-d2", "a4-a7", "d2-d1"):
            assert game.outcome() is None
            game.play(text)
    assert game.outcome() is None
    game.play("a7-a4")
    assert game.outcome() == Outcome(None, "repetition")


def test_moves_without_a_removal_draw():
    rules = preset("nine-mens-morris").replace(quiet_move_limit=4, repetition_draw=None)
    game = game_from_position(rules, make_fen(white="a7 d7 g4 b2", black="c3 e3 b4 f4 f2 d1"))
    game.play_record("a7-a4 d1-d2 a4-a7")
    assert game.outcome() is None
    game.play("d2-d1")
    assert game.outcome() == Outcome(None, "quiet-moves")


def test_a_removal_resets_the_quiet_count():
    game = at("nine-mens-morris", white="a7 d7 g4", black="c3 e3 b4 f4 f2 d1", quiet=40)
    game.play("g4-g7")
    game.play("xd1")
    assert game.quiet_moves == 0


# -- what the rules tests above left open (found by tests/mutation/run.py) -----------------------
def test_phase_three_lets_black_fly_when_white_is_down_to_three():
    rules = preset("nine-mens-morris").replace(flying=Flying.BOTH)
    fen = make_fen(white="a7 d7 d1", black="c3 e3 b4 f4 b2", side="b")
    assert "b2-g1" in texts(game_from_position(rules, fen))
    assert "b2-g1" not in texts(game_from_position(preset("nine-mens-morris"), fen))


def test_phase_three_waits_until_the_other_side_has_placed_every_pebble():
    rules = preset("nine-mens-morris").replace(flying=Flying.BOTH)
    # White has placed all nine and has four left; black, three on the board, still has one
    # to place: white walks.
    game = game_from_position(rules, make_fen(white="a7 d7 d1 b6", black="c3 e3 b4",
                                              black_hand=1, side="w"))
    assert "a7-g1" not in texts(game) and "a7-a4" in texts(game)


def test_a_side_not_to_move_with_two_pebbles_has_lost():
    game = at("nine-mens-morris", white="a7 d7", black="c3 e3 b4", side="b")
    assert game.outcome() == Outcome(Side.BLACK, "too-few-pebbles")
    assert game.legal_actions() == []


def test_a_second_removal_with_nothing_left_to_take_is_dropped():
    # Two mills at once under navakankari owe two removals; black has one pebble out of a
    # mill (b2), the rest stand in the mill c3 d3 e3, which navakankari protects.
    game = at("navakankari", white="a7 d7 g4 g1", black="c3 d3 e3 b2", white_hand=5,
              black_hand=5)
    game.play("g7")
    assert game.pending_removals == 2 and texts(game) == ["xb2"]
    game.play("xb2")
    assert game.turn == Side.BLACK and game.pending_removals == 0
    assert "a1" in texts(game)


def test_the_mills_just_closed_are_reported():
    game = at("nine-mens-morris", white="a7 d7 g4 g1", black="b6 f6 b2", white_hand=5,
              black_hand=6)
    game.play("g7")
    names = sorted(tuple(sorted(game.board.names(m))) for m in game.last_mills())
    assert names == [("a7", "d7", "g7"), ("g1", "g4", "g7")]
    game.play("xb6")
    game.play("b6")
    assert game.last_mills() == ()


def test_a_placement_ends_a_run_of_quiet_moves():
    game = at("nine-mens-morris", white="a7 d7", black="b6 f6", white_hand=2, black_hand=2,
              quiet=5)
    assert game.quiet_moves == 5
    game.play("a1")
    assert game.quiet_moves == 0


@pytest.mark.parametrize("variant", ["nine-mens-morris", "lasker", "navakankari"])
def test_a_position_has_one_key_however_it_was_reached(variant):
    rules = preset(variant)
    for seed in range(4):
        game, rng = new_game(rules), random.Random(seed)
        while game.outcome() is None and len(game.history) < 120:
            game.push(rng.choice(game.legal_actions()))
            assert game.key == game_from_position(rules, game.position()).key


def test_black_closing_a_mill_when_all_white_stands_in_mills_in_navakankari():
    game = at("navakankari", white="a7 d7 g7", black="b6 b4 f2", white_hand=2, black_hand=2,
              side="b")
    game.play("b2")  # black's own f2 stands free, white's pebbles do not: nothing to take
    assert game.turn == Side.WHITE and game.pending_removals == 0
    assert "a1" in texts(game)


def test_the_move_number_counts_black_actions():
    game = at("nine-mens-morris", white="a7", black="d7", white_hand=8, black_hand=8)
    number = lambda: int(game.position().split()[-1])  # noqa: E731
    assert number() == 1
    game.play("g7")
    assert number() == 1
    game.play("b6")
    assert number() == 2


def test_navakankari_counts_each_sides_mills_apart():
    # Black re-forms a1-d1-g1 (not the first mill of the board) while white shuffles d7-d6.
    game = at("navakankari", white="a7 d7 g7 c5 e5 b4 f4", black="a1 d1 g1 b2", side="b")
    pending = []
    for _ in range(4):
        game.play("g1-g4")
        game.play("d7-d6" if "d7" in game.board.names(game.pieces(Side.WHITE)) else "d6-d7")
        game.play("g4-g1")
        pending.append(game.pending_removals)
        if pending[-1]:
            game.play(next(t for t in texts(game) if t not in ("xd7", "xd6")))
        game.play("d7-d6" if "d7" in game.board.names(game.pieces(Side.WHITE)) else "d6-d7")
    assert pending == [1, 1, 1, 0]


def test_taking_back_an_action_restores_both_hands():
    game = new_game(preset("nine-mens-morris"))
    game.play("a7")  # white 8 in hand, black 9: the hands differ
    before = game.position()
    game.push(game.legal_actions()[0])
    game.pop()
    assert (game.in_hand(Side.WHITE), game.in_hand(Side.BLACK)) == (8, 9)
    assert game.position() == before
