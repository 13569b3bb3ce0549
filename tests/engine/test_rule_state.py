"""The rule state a position string and the key carry, and the edge rules fixed with them.

Each rule test starts from a position where the fix changes what happens next.
"""

from __future__ import annotations

import pytest
from conftest import make_fen
from navakankari.engine import (
    InvalidNotationError,
    Outcome,
    Reason,
    Side,
    game_from_position,
    new_game,
    preset,
)
from navakankari.engine.notation import SANMILL_SQUARES, format_mill_counts, parse_mill_counts

# -- navakankari: the mill capture counts --------------------------------------------------
NAVA_START = "***@@@@@/******O*/O*O****O w m s 4 0 5 0 0 0 0 0 0 0 0 0 1"
NAVA_RECORD = ("g4-g7 e3-e4 g7-g4 e4-e5 g4-g7 xd3 e5-e4 g7-g4 e4-e5 g4-g7 xe5 c5-d5 g7-g4 "
               "d5-e5")
WITHOUT_COUNTS = "*@***@@*/******O*/O*O****O w m s 4 0 3 0 0 0 0 0 0 0 0 3 7"


def test_a_reloaded_navakankari_game_keeps_its_mill_counts():
    live = game_from_position("navakankari", NAVA_START)
    live.play_record(NAVA_RECORD)
    assert live.mill_count(Side.WHITE, "a7-d7-g7") == 3
    loaded = game_from_position("navakankari", live.position())
    assert loaded.position() == live.position()
    assert loaded.key == live.key
    # The string without the counts is another position: its mill still captures.
    bare = game_from_position("navakankari", WITHOUT_COUNTS)
    assert bare.key != live.key
    for game in (live, loaded, bare):
        game.play("g4-g7")
    assert [a.text for a in bare.legal_actions()] == ["xe5", "xc4", "xc3"]
    assert live.turn == loaded.turn == Side.BLACK and live.pending_removals == 0
    assert loaded.legal_actions() == live.legal_actions()


def test_a_formation_that_took_nothing_counts_towards_the_limit():
    # White's a7-d7-g7 has been made twice. Made a third time while every black pebble
    # stands in a mill (safe in navakankari), it takes nothing, yet it counts: made a
    # fourth time, with black pebbles free, it takes nothing either.
    fen = make_fen(white="a7 d7 g4 a1", black="b6 d6 f6 b2 d2 f2") + " mills:a7-d7-g7=w2"
    game = game_from_position("navakankari", fen)
    game.play("g4-g7")
    assert game.turn == Side.BLACK and game.mill_count(Side.WHITE, "a7-d7-g7") == 3
    game.play_record("f2-f4 g7-g4 f4-e4 g4-g7")
    assert game.takeable() == 0 and game.turn == Side.BLACK
    # Under the other reading (count only formations that took a pebble) it would take:
    fewer = game_from_position("navakankari", fen.replace("w2", "w1"))
    fewer.play_record("g4-g7 f2-f4 g7-g4 f4-e4 g4-g7")
    assert fewer.pending_removals == 1


def test_the_strict_count_is_read_from_sanmills_mills_field():
    # navakankari-strict writes Sanmill's formed-mills mask (field 15); a string with only
    # that field (as Sanmill's one-time mill writes it) reloads the same count.
    game = game_from_position("navakankari-strict", make_fen(white="a7 d7 g4", black="b6 d6 c3"))
    game.play("g4-g7")
    game.play("xc3")
    fields = game.position().split()
    mask = (1 << SANMILL_SQUARES["a7"] | 1 << SANMILL_SQUARES["d7"]
            | 1 << SANMILL_SQUARES["g7"]) << 32
    assert int(fields[14]) == mask and fields[17] == "mills:a7-d7-g7=w1"
    sanmill_only = game_from_position("navakankari-strict", " ".join(fields[:17]))
    assert sanmill_only.key == game.key


@pytest.mark.parametrize("counts", [{}, {("a7", "d7", "g7"): (2, 0)},
                                    {("a7", "d7", "g7"): (3, 1), ("d1", "d2", "d3"): (0, 2)}])
def test_mill_counts_round_trip(counts):
    board = new_game("navakankari").board
    token = format_mill_counts(board, counts)
    if not counts:
        assert token == ""
        return
    mills = [board.mask(m) for m in board.mills]
    assert parse_mill_counts(board, token) == {
        mills.index(board.mask(names)): pair for names, pair in counts.items()}


@pytest.mark.parametrize("extension, message", [
    ("mills:a7-d7-g6=w1", "not a mill and its counts"),
    ("mills:a7-d7-d6=w1", "not a mill of the morris board"),
    ("mills:a7-d7-g7=x1", "needs counts"),
    ("mills:a7-d7-g7=", "needs counts"),
    ("mills:a7-d7-g7=w1,g7-d7-a7=b1", "once a mill"),
    ("moves:a1", "not a known extension"),
])
def test_bad_extensions_say_what_is_wrong(extension, message):
    with pytest.raises(InvalidNotationError, match=message):
        game_from_position("navakankari", make_fen(white="a7 d7 g7") + " " + extension)


def test_counts_under_rules_without_a_limit_are_refused():
    with pytest.raises(InvalidNotationError, match="does not limit the pebbles a mill takes"):
        game_from_position("nine-mens-morris", make_fen(white="a7 d7 g7") + " mills:a7-d7-g7=w1")


# -- morabaraba: the move that may not be undone to capture --------------------------------
def test_morabaraba_keeps_the_mill_breaking_move_in_fields_11_to_14():
    rules = preset("morabaraba")
    game = game_from_position(rules, make_fen(white="a7 d7 g7 b2", black="c3 e3 b4 e4 f2 d1"))
    game.play("g7-g4")
    assert game.remembered_move(Side.WHITE) == (game.board.index("g7"), game.board.index("g4"))
    fields = game.position().split()
    assert fields[10:14] == [str(SANMILL_SQUARES["g7"]), str(SANMILL_SQUARES["g4"]), "0", "0"]
    loaded = game_from_position(rules, game.position())
    assert loaded.key == game.key
    forgetful = game_from_position(rules, " ".join(fields[:10] + ["0"] * 4 + fields[14:]))
    assert forgetful.key != game.key
    for g in (game, loaded, forgetful):
        g.play_record("d1-d2 g4-g7")
    assert game.turn == loaded.turn == Side.BLACK  # re-formed straight back: takes nothing
    assert forgetful.pending_removals == 1


def test_a_remembered_pebble_taken_off_is_forgotten():
    rules = preset("morabaraba")
    game = game_from_position(rules, make_fen(white="a7 d7 g7 b2", black="c3 e3 b4 e4 f2 d2"))
    game.play_record("g7-g4 d2-d3 xg4")
    assert game.remembered_move(Side.WHITE) is None
    assert game.position().split()[10:14] == ["0"] * 4
    loaded = game_from_position(rules, game.position())
    assert loaded.key == game.key
    game.pop()
    assert game.remembered_move(Side.WHITE) == (game.board.index("g7"), game.board.index("g4"))


def test_a_move_that_breaks_no_mill_is_not_remembered():
    game = game_from_position("morabaraba", make_fen(white="a7 d7 g4 b2", black="c3 e3 b4 f2 d1"))
    game.play("b2-d2")
    assert game.remembered_move(Side.WHITE) is None
    assert game.position().split()[10:14] == ["0"] * 4


@pytest.mark.parametrize("fields, message", [
    ("5 6 0 0", "must be 0 or a Sanmill square"),
    ("31 28 0 0", "ends on a point without a white pebble"),
])
def test_bad_remembered_moves_say_what_is_wrong(fields, message):
    base = make_fen(white="a7 d7 g4 b2", black="c3 e3 b4 f2 d1").split()
    with pytest.raises(InvalidNotationError, match=message):
        game_from_position("morabaraba", " ".join(base[:10] + fields.split() + base[14:]))


def test_a_remembered_move_under_rules_without_the_rule_is_refused():
    base = make_fen(white="a7 d7 g4 b2", black="c3 e3 b4 f2 d1").split()
    with pytest.raises(InvalidNotationError, match="has no such rule"):
        game_from_position("nine-mens-morris", " ".join(base[:10] + "31 26 0 0".split() + base[14:]))


# -- removals owed ---------------------------------------------------------------------------
def test_a_loaded_removal_with_nothing_to_take_is_dropped():
    # Every black pebble stands in a mill (safe in navakankari): the removal white is owed
    # is dropped and black plays on, as in a game that reached it; before, white lost.
    game = game_from_position("navakankari",
                              "*****O**/@@*****@/OO*****O w p r 4 5 3 6 1 0 0 0 0 0 0 0 1")
    assert game.outcome() is None
    assert game.turn == Side.BLACK and game.pending_removals == 0
    assert game.position() == "*****O**/@@*****@/OO*****O b p p 4 5 3 6 0 0 0 0 0 0 0 0 1"


def test_a_mill_closed_while_placing_with_no_opposing_pebble_passes_the_turn():
    # Sanmill (position.cpp put_piece) owes the removal and then offers no action and no
    # end ("bestmove none"): the game cannot go on. The position cannot arise in
    # nine-mens-morris play (white would have taken four pebbles in five placements), so
    # the removal is dropped here as whenever nothing can be taken.
    game = game_from_position("nine-mens-morris",
                              "********/***O*O**/O******O w p p 4 4 0 5 0 0 0 0 0 0 0 0 1")
    game.play("g7")
    assert game.outcome() is None and game.turn == Side.BLACK
    assert len(game.legal_actions()) == 24 - 5


def test_two_pending_removals_are_refused_where_one_action_earns_one():
    fen = make_fen(white="a7 d7 g7 a4 a1", black="c3 e3 b4 f4 f2 d1", pending=2)
    with pytest.raises(InvalidNotationError, match="2 pebbles to take: under nine-mens-morris"):
        game_from_position("nine-mens-morris", fen)
    assert game_from_position("navakankari", fen).pending_removals == 2
    with pytest.raises(InvalidNotationError, match="at most 2"):
        game_from_position("navakankari", fen.replace(" 2 0 0 0 0 0 ", " 3 0 0 0 0 0 "))


# -- repetition --------------------------------------------------------------------------------
SANMILL_GAME = ("e4 g4 d3 b4 e3 d6 d1 d2 c5 c3 e5 xc3 d5 c3 xd5 c4 d5 xc4 c4 b6 f4 d1-a1 g4-g1 "
                "a1-d1 g1-g4 d1-a1 g4-g1 a1-d1 g1-g4")


def test_repetition_counts_positions_reached_by_moves_as_sanmill_does():
    # The position after the last placement (f4) comes back after g1-g4 twice, but it was
    # reached by a placement: Sanmill plays on, and so do we; d1-a1 then brings a position
    # reached by moves for the third time.
    game = new_game("nine-mens-morris")
    game.play_record(SANMILL_GAME)
    assert game.outcome() is None
    game.play("d1-a1")
    assert game.outcome() == Outcome(None, Reason.REPETITION)


# -- both fly --------------------------------------------------------------------------------
def test_navakankari_flying_lets_both_sides_fly_once_one_is_down_to_three():
    fen = make_fen(white="a7 d7 g4 b2 f2", black="c3 e3 d1")
    flying = game_from_position("navakankari-flying", fen)
    walking = game_from_position("navakankari", fen)
    assert "a7-e5" in {a.text for a in flying.legal_actions()}
    assert "a7-e5" not in {a.text for a in walking.legal_actions()}
    assert flying.can_fly(Side.WHITE) and flying.can_fly(Side.BLACK)
