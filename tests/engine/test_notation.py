"""Notation: parse/format pairs round-trip, and bad input says what is wrong."""

from __future__ import annotations

import pytest
from conftest import make_fen
from navakankari.engine.errors import IllegalActionError, InvalidNotationError, UnknownVariantError
from navakankari.engine.presets import PRESETS, preset
from navakankari.engine.rules import Rules
from navakankari.engine.variants import game_from_position, new_game

NINE = preset("nine-mens-morris")


@pytest.mark.parametrize("text, message", [
    ("z9", "'z9' is not a point of the morris board"),
    ("a1-", "a point name is missing"),
    ("a1-a4-a7", "exactly two points"),
    ("x", "a point name is missing"),
    ("", "empty action"),
])
def test_invalid_actions_say_what_is_wrong(text, message):
    with pytest.raises(InvalidNotationError, match=message):
        new_game(NINE).play(text)


def test_illegal_actions_are_not_invalid_ones():
    game = new_game(NINE)
    game.play("a1")
    with pytest.raises(IllegalActionError,
                       match=r"a1 is not legal here: a1 already holds a white pebble \(black to act"):
        game.play("a1")
    with pytest.raises(IllegalActionError, match="a1-a4 is not legal"):
        game.play("a1-a4")


def test_a_bad_record_token_is_named_by_number():
    with pytest.raises(IllegalActionError, match=r"token 3 \(a7\)"):
        new_game(NINE).play_record("a7 d7 a7")


@pytest.mark.parametrize("fen, message", [
    ("********/********/******** w p p 0 9 0", "expected at least 8"),
    ("********/******** w p p 0 9 0 9", "has 2 rings"),
    ("*******/********/******** w p p 0 9 0 9", "inner ring has 7 points"),
    ("***Q****/********/******** w p p 0 9 0 9", r"'Q' at e3 is not O"),
    ("O*******/********/******** w p p 0 9 0 9", r"field 5 \(white on board\) says 0"),
    ("********/********/******** x p p 0 9 0 9", "side"),
    ("********/********/******** w p p 0 10 0 9", "gives each side 9"),
    ("********/********/******** w p p 0 nine 0 9", "whole number"),
    ("********/********/******** w m s 0 9 0 9", "still in hand"),
    ("********/********/******** w p r 0 9 0 9 0 0", "no pebble is to be taken"),
])
def test_bad_positions_say_what_is_wrong(fen, message):
    with pytest.raises(InvalidNotationError, match=message):
        game_from_position(NINE, fen)


def test_six_mens_morris_has_no_outer_ring():
    fen = make_fen(white="a7", white_hand=5, black_hand=6)
    with pytest.raises(InvalidNotationError, match="a7 is not a point of the six board"):
        game_from_position(preset("six-mens-morris"), fen)


def test_start_position_string_is_sanmills():
    assert new_game(NINE).position() == \
        "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"


def test_unknown_variant_lists_the_names():
    with pytest.raises(UnknownVariantError, match="variants: navakankari,"):
        preset("ninemen")


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_round_trip_through_plain_values(name):
    rules = PRESETS[name]
    assert Rules.from_dict(rules.to_dict()) == rules


def test_rules_from_dict_names_unknown_options():
    with pytest.raises(ValueError, match="unknown rule option"):
        Rules.from_dict({"name": "x", "pices": 9})


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_position_records_round_trip_through_their_strings(name):
    """A game's record, written and read back, is the same record; the string it reads
    back from is the game's own. Random play reaches removals, flying and capture limits."""
    import random

    from navakankari.engine.boards import BOARDS
    from navakankari.engine.notation import (
    jump_from_text,
    jump_to_text,
    morris_from_fen,
    morris_to_fen,
)

    rules = preset(name)
    board = BOARDS[rules.board]
    write, read = ((jump_to_text, jump_from_text) if rules.game == "jump"
                   else (morris_to_fen, morris_from_fen))
    rng = random.Random(name)
    for _ in range(8):
        game = new_game(rules)
        while game.outcome() is None and len(game.history) < 120:
            record = game.position_record()
            text = write(board, record)
            assert text == game.position()
            assert read(rules, text) == record
            assert game_from_position(rules, text).position_record() == record
            game.push(rng.choice(game.legal_actions()))
