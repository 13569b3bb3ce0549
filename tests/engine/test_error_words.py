"""The engine's errors keep their English text (logs and tests compare it) while each keeps
its meaning as a catalog message and its places (errors.py), worded in any language: one
table of every kind of rule text, and the wording's own behaviour."""

from __future__ import annotations

import gettext
import pickle
from pathlib import Path

import pytest

from navakankari.engine import endgame
from navakankari.engine.errors import (GameOverError, IllegalActionError, InvalidNotationError,
                                       InvalidRulesError, RulesError, UnknownVariantError, WordedError,
                                       Wording)
from navakankari.engine.endgame import EndgameDataError
from navakankari.engine.errors import PlayerError
from navakankari.engine.external import ExternalEngineError
from navakankari.engine.jump import JumpGame
from navakankari.engine.native import NativeBuildError
from navakankari.engine.player_spec import PlayerKindError, PlayerSpec, PlayerSpecError, make_player
from navakankari.engine.presets import preset
from navakankari.engine.process import ProcessError
from navakankari.engine.record import GameRecord, InvalidRecordError, parse_record, replay_record
from navakankari.engine.repeat import repeat_computer
from navakankari.engine.rules import Rules
from navakankari.engine.search_process import SearchProcessError
from navakankari.engine.translator import Nn_
from navakankari.engine.variants import game_from_position, new_game

NAV, NMM, NKK = preset("navakankari"), preset("nine-mens-morris"), preset("nau-keti-keta")
NKK_ROWS = new_game(NKK).position().split()[0]
OVER = "OOO*****/********/@@****** b m s 3 0 2 0 0 0 0 0 0 0 0 0 1"
"""White a7 d7 g7 and black a1 d1 (two pebbles): black has lost."""


def play(rules, text):
    new_game(rules).play_record(text)


# Each error as the engine words it in English. Some texts were improved on purpose when they
# became catalog messages: a count of one is singular ("1 field", "1 white pebble", "1 pebble
# to take" for "1 pebble(s) to take"); an ended game names how it ended in the words the board
# says it ("white wins: black has fewer than three pebbles", for "white wins
# (too-few-pebbles)"); and a pebble is taken, as everywhere a player reads it, never removed
# or captured ("pebbles are to be taken by the side not to act" for "removals are pending for
# the side not to act", "a jump axbxc" for "a capture axbxc", "a jumping game" for "a
# jump-capture game"); "unknown rule option: bogus" counts its options.
TEXTS = [
    (lambda: new_game(NAV).play("x"),
     InvalidNotationError, "'x': a point name is missing"),
    (lambda: new_game(NAV).play("z9"),
     InvalidNotationError, "'z9' is not a point of the morris board"),
    (lambda: new_game(NAV).play("D6"),
     InvalidNotationError, "'D6' is not a point of the morris board (point names are lower case: d6)"),
    (lambda: new_game(NAV).play("a1-a4-a7"),
     InvalidNotationError, "'a1-a4-a7': a move names exactly two points, a-b"),
    (lambda: new_game(NKK).play("dx"),
     InvalidNotationError, "'dx': 'd' is not a point of the lau-kata-kati board"),
    (lambda: new_game(NKK).play("d4"),
     InvalidNotationError, "'d4': Nau Keti Keta has no placements; write a step a-b or a jump axbxc"),
    (lambda: game_from_position(NMM, "nonsense"),
     InvalidNotationError, 'position has 1 field; expected at least 8: rings, side, phase, action, white on '
                           'board, white in hand, black on board, black in hand'),
    (lambda: game_from_position(NMM, "*/* w p p 0 9 0 9"),
     InvalidNotationError, "position field 1 (board) has 2 rings separated by '/'; expected 3"),
    (lambda: game_from_position(NMM, "***/********/******** w p p 0 9 0 9"),
     InvalidNotationError, 'position field 1 (board): the inner ring has 3 points; expected 8'),
    (lambda: game_from_position(NMM, "X*******/********/******** w p p 0 9 0 9"),
     InvalidNotationError, "position field 1 (board): 'X' at d5 is not O (white), @ (black) or * (empty)"),
    (lambda: game_from_position(NMM, "********/********/******** x p p 0 9 0 9"),
     InvalidNotationError, "position field 2 (side) must be w or b, not 'x'"),
    (lambda: game_from_position(NMM, "********/********/******** w q p 0 9 0 9"),
     InvalidNotationError, "position field 3 (phase) must be p (placing) or m (moving), not 'q'"),
    (lambda: game_from_position(NMM, "********/********/******** w p q 0 9 0 9"),
     InvalidNotationError, "position field 4 (action) must be p, s or r, not 'q'"),
    (lambda: game_from_position(NMM, "********/********/******** w p p z 9 0 9"),
     InvalidNotationError, "position field 5 (white on board) must be a whole number, not 'z'"),
    (lambda: game_from_position(NMM, "********/********/******** w p p 0 -1 0 9"),
     InvalidNotationError, 'position field 6 (white in hand) must not be negative'),
    (lambda: game_from_position(NMM, "O*******/********/******** w p p 0 9 0 9"),
     InvalidNotationError, 'position field 5 (white on board) says 0 but the board shows 1 white pebble'),
    (lambda: game_from_position(NMM, "********/********/******** w p p 0 10 0 9"),
     InvalidNotationError, 'white has 10 pebbles on board and in hand; nine-mens-morris gives each side 9'),
    (lambda: game_from_position(NMM, "********/********/******** w m s 0 9 0 9"),
     InvalidNotationError, 'position field 3 says moving but pebbles are still in hand'),
    (lambda: game_from_position(NMM, "********/********/******** w p p 0 9 0 9 5 0"),
     InvalidNotationError, 'position field 9 (pebbles to take) must be 0..3, not 5'),
    (lambda: game_from_position(NMM, "********/********/******** w p p 0 9 0 9 0 1"),
     InvalidNotationError, 'pebbles are to be taken by the side not to act'),
    (lambda: game_from_position(NMM, "********/********/******** w p r 0 9 0 9 0 0"),
     InvalidNotationError, 'position field 4 (action) says r (take) but no pebble is to be taken'),
    (lambda: game_from_position(NMM, "O*******/********/******** w p p 1 8 0 9 1 0"),
     InvalidNotationError, 'a pebble is to be taken but position field 4 (action) is not r'),
    (lambda: game_from_position(NMM, "********/********/******** w p p 0 9 0 9 0 0 99 1 0 0"),
     InvalidNotationError, "position field 11 (white's last mill origin) must be 0 or a Sanmill square number of "
                           'the morris board, not 99'),
    (lambda: game_from_position(NMM, "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 x"),
     InvalidNotationError, "position field 15 (mills) must be a whole number, not 'x'"),
    (lambda: game_from_position(NMM, "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 bogus"),
     InvalidNotationError, "position: 'bogus' after field 17 is not a known extension (mills:...)"),
    (lambda: game_from_position(NMM, "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 mills:a7-d7=w1"),
     InvalidNotationError, "'mills:a7-d7=w1': 'a7-d7=w1' is not a mill and its counts, as a7-d7-g7=w2b1"),
    (lambda: game_from_position(NKK, "x"),
     InvalidNotationError, 'position needs at least the rows and the side (w or b)'),
    (lambda: game_from_position(NKK, "***/*** w"),
     InvalidNotationError, 'position field 1 has 2 rows; the lau-kata-kati board has 7'),
    (lambda: game_from_position(NKK, NKK_ROWS + " w 0 1 q"),
     InvalidNotationError, "position field 5 must be h:points, not 'q'"),
    (lambda: new_game(NAV).play(" "),
     InvalidNotationError, 'empty action'),
    (lambda: play(NAV, "d6 d6"),
     IllegalActionError, 'token 2 (d6): d6 is not legal here: d6 already holds a white pebble (black to act, '
                         'placing); legal: a7 d7 g7 b6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1'),
    (lambda: play(NAV, "d6 d7 d6-d5"),
     IllegalActionError, 'token 3 (d6-d5): d6-d5 is not legal here: white still has pebbles in hand: place one '
                         'first (white to act, placing); legal: a7 g7 b6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 '
                         'e3 b2 d2 f2 a1 d1 g1'),
    (lambda: new_game(NAV).play("d6xd7"),
     IllegalActionError, 'd6xd7: d6 closes no mill, so it takes no pebble (xd7 is not part of it)'),
    (lambda: new_game(NAV).play_record("d6 zz"),
     InvalidNotationError, "token 2 (zz): 'zz' is not a point of the morris board"),
    (lambda: preset("nosuch"),
     UnknownVariantError, "unknown variant 'nosuch'; variants: navakankari, navakankari-strict, "
                          'navakankari-flying, nine-mens-morris, twelve-mens-morris, morabaraba, lasker, '
                          'six-mens-morris, nau-keti-keta'),
    (lambda: make_player("hand"),
     PlayerKindError, 'hand is not a player the computer plays; use computer:1..computer:6, computer:max, '
                      'computer:adaptive, engine:PATH, greedy or random'),
    (lambda: make_player("computer:1", movetime=-1),
     PlayerKindError, 'the time per action must be a positive number of seconds, not -1'),
    (lambda: parse_record(""),
     InvalidRecordError, 'the record is empty: no tag pair and no move'),
    (lambda: parse_record('[Event "a"]\n[Event "b"]\n'),
     InvalidRecordError, 'line 2: the tag Event is given twice'),
    (lambda: parse_record('[Event a]\n'),
     InvalidRecordError, 'line 1: a tag pair is written [Name "value"], not \'[Event a]\''),
    (lambda: parse_record('1. d6 ZZ\n'),
     InvalidRecordError, "line 1: 'ZZ' is not a move"),
    (lambda: parse_record('[Result "2-0"]\n'),
     InvalidRecordError, "the Result tag must be one of 1-0, 0-1, 1/2-1/2, *, not '2-0'"),
    (lambda: parse_record('[Result "1-0"]\n1. d6 0-1\n'),
     InvalidRecordError, 'the moves end in 0-1 but the Result tag says 1-0'),
    (lambda: parse_record('[Variant "nosuch"]\n1. d6\n'),
     InvalidRecordError, "the Variant tag names 'nosuch', which is no variant here (there are navakankari, "
                         'navakankari-strict, navakankari-flying, nine-mens-morris, twelve-mens-morris, '
                         'morabaraba, lasker, six-mens-morris, nau-keti-keta), and no Rules tag says its rules'),
    (lambda: parse_record('[Rules "bogus"]\n1. d6\n'),
     InvalidRecordError, "the Rules tag: 'bogus' is not option=value with an option of board, game, pieces, "
                         'flying, fly_threshold, removals, all_in_mills, mill_capture_limit, '
                         'no_immediate_reform, move_in_placement, lose_below, blocked_loses, board_full, '
                         'repetition_draw, quiet_move_limit, capture_compulsory, multi_jump, huffing, '
                         'no_capture_end'),
    (lambda: parse_record('[Variant "navakankari"]\n[Rules "flying=maybe"]\n1. d6\n'),
     InvalidRecordError, "the Rules tag: flying=maybe is not a value of flying ('maybe' is not a valid Flying)"),
    (lambda: parse_record('[Seed "x"]\n1. d6\n'),
     InvalidRecordError, "the Seed tag must be a whole number 0..9223372036854775807, not 'x'"),
    (lambda: parse_record('1. d6 ' + '(' * 40 + '\n'),
     InvalidRecordError, 'line 1: variations nest more than 16 deep'),
    (lambda: parse_record('1. d6 )\n'),
     InvalidRecordError, "line 1: ')' closes no variation"),
    (lambda: parse_record('1. d6 {\n'),
     InvalidRecordError, 'the record ends inside a comment or a variation'),
    (lambda: parse_record('1. d6 1-0 d7\n'),
     InvalidRecordError, "line 1: 'd7' follows the result 1-0"),
    (lambda: parse_record('[FEN "nonsense"]\n[SetUp "1"]\n'),
     InvalidRecordError, 'the FEN tag: position has 1 field; expected at least 8: rings, side, phase, action, '
                         'white on board, white in hand, black on board, black in hand'),
    (lambda: parse_record("x" * 2_000_000),
     InvalidRecordError, 'a record is at most 1,000,000 characters; this one has 2,000,000'),
    (lambda: replay_record(parse_record("1. d6 d6\n")),
     InvalidRecordError, 'move 1 (black, d6): d6 is not legal here: d6 already holds a white pebble (black to '
                         'act, placing); legal: a7 d7 g7 b6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 '
                         'd1 g1'),
    (lambda: GameRecord(rules=NAV, result="2-0"),
     InvalidRecordError, "result must be one of 1-0, 0-1, 1/2-1/2, *, not '2-0'"),
    (lambda: GameRecord(rules=NAV, seed=-1),
     InvalidRecordError, 'a seed is a whole number 0..9223372036854775807, not -1'),
    (lambda: endgame.decode(b"junk"),
     EndgameDataError, 'not a three-against-three endgame file (its header is wrong)'),
    (lambda: endgame.load(Path("/nonexistent/x.bin")),
     EndgameDataError, 'cannot read the endgame database /nonexistent/x.bin: [Errno 2] No such file or '
                       "directory: '/nonexistent/x.bin' (navakankari build-endgame makes it)"),
    (lambda: parse_record('[Variant "navakankari"]\n[Rules "blocked_loses=maybe"]\n1. d6\n'),
     InvalidRecordError, "the Rules tag: blocked_loses=maybe is not a value of blocked_loses (true or false)"),
    (lambda: new_game(NAV).play("d6-d5"),
     IllegalActionError, "d6-d5 is not legal here: white still has pebbles in hand: place one first (white to act, "
                         "placing); legal: a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1"),
    (lambda: play(NAV, "a7 a1 d7 d1 g7 d6"),
     IllegalActionError, "token 6 (d6): d6 is not legal here: white first takes a pebble for the mill just closed "
                         "(x<point>) (white to act, 1 pebble to take); legal: xa1 xd1"),
    (lambda: play(NAV, "a7 a1 d7 d1 g7 xd7"),
     IllegalActionError, "token 6 (xd7): xd7 is not legal here: d7 holds no black pebble (white to act, 1 pebble to "
                         "take); legal: xa1 xd1"),
    (lambda: game_from_position(NMM, OVER).play("a7-a4"),
     GameOverError, "the game is over (white wins: black has fewer than three pebbles); no action can be played"),
    (lambda: parse_record('[Variant "navakankari"]\n[Rules "pieces=0"]\n1. d6\n'),
     InvalidRecordError, "the Rules tag: rules navakankari: pieces must be at least 1"),
    (lambda: parse_record('[Variant "navakankari"]\n[Rules "game=chess"]\n1. d6\n'),
     InvalidRecordError, "the Rules tag: rules navakankari: game must be 'morris' or 'jump', not 'chess'"),
    (lambda: Rules.from_dict({"bogus": 1, "zap": 2}),
     InvalidRulesError, "unknown rule options: bogus, zap"),
    (lambda: Rules.from_dict({"bogus": 1}),
     InvalidRulesError, "unknown rule option: bogus"),
    (lambda: JumpGame(NMM),
     InvalidRulesError, "nine-mens-morris is not a jumping game"),
    (lambda: JumpGame(NKK.replace(pieces=3)),
     InvalidRulesError, "nau-keti-keta: the lau-kata-kati board starts with more pebbles than 3 a side"),
    (lambda: replay_record(GameRecord(rules=NAV, moves=("d6",), result="1-0", seed=None)) and repeat_computer(
        GameRecord(rules=NAV, moves=("d6",))),
     InvalidRecordError, "the record keeps no Seed tag: its computer turns cannot be played again"),
]


@pytest.mark.parametrize("make, kind, english", TEXTS)
def test_each_error_keeps_its_english_text(make, kind, english):
    with pytest.raises(kind) as info:
        make()
    assert type(info.value) is kind and str(info.value) == english
    assert info.value.words(gettext.NullTranslations()) == english


class Shouting(gettext.NullTranslations):
    """A language whose every message is the English in capitals, places left as they are."""

    def gettext(self, message):
        return _upper_outside_places(message)

    def ngettext(self, singular, plural, n):
        return _upper_outside_places(singular if n == 1 else plural)


def _upper_outside_places(text):
    parts = text.split("{")
    return "{".join([parts[0].upper()] + [p.split("}", 1)[0] + "}" + p.split("}", 1)[1].upper()
                                          for p in parts[1:]])


@pytest.mark.parametrize("make, kind, english", TEXTS)
def test_each_error_is_worded_in_a_language_and_keeps_its_names_and_numbers(make, kind, english):
    with pytest.raises(kind) as info:
        make()
    said = info.value.words(Shouting())
    assert said != english and said.upper() == english.upper(), said
    error = info.value
    places = [v for k, v in error.places if isinstance(v, str) and f"{{{k}}}" in error.message + error.plural]
    assert all(p in said for p in places), (places, said)


def test_a_wording_inside_a_wording_is_worded_in_the_same_language():
    with pytest.raises(InvalidRecordError) as info:
        replay_record(parse_record("1. d6 d6\n"))
    said = info.value.words(Shouting())
    assert said.startswith("MOVE 1 (BLACK, d6): d6 IS NOT LEGAL HERE: d6 ALREADY HOLDS A WHITE PEBBLE (BLACK TO ACT")
    assert said.endswith("LEGAL: a7 d7 g7 b6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1")


def test_a_counted_message_takes_each_languages_form_for_its_number():
    forms = Nn_("{count} pebble to take", "{count} pebbles to take")
    assert str(Wording.counted(forms, 1)) == "1 pebble to take"
    assert str(Wording.counted(forms, 2)) == "2 pebbles to take"
    assert Wording.counted(forms, 2).words(Shouting()) == "2 PEBBLES TO TAKE"
    with pytest.raises(InvalidNotationError, match="position has 3 fields;"):
        game_from_position(NMM, "a b c")


def test_a_text_without_places_is_kept_as_written():
    assert str(RulesError("a position holds {braces}")) == "a position holds {braces}"
    assert RulesError("a position holds {braces}").words(Shouting()) == "A POSITION HOLDS {braces}"


def test_every_engine_error_is_one_kind_of_worded_error():
    for kind in (RulesError, InvalidNotationError, IllegalActionError, UnknownVariantError, GameOverError,
                 InvalidRulesError, InvalidRecordError, EndgameDataError, NativeBuildError, PlayerSpecError,
                 PlayerKindError, PlayerError, ExternalEngineError, SearchProcessError, ProcessError):
        assert issubclass(kind, WordedError), kind
    assert issubclass(ProcessError, OSError)
    assert issubclass(UnknownVariantError, KeyError) and issubclass(PlayerKindError, ValueError)
    assert str(UnknownVariantError("unknown variant {name}; variants: {variants}", name="'x'", variants="a")) \
        == "unknown variant 'x'; variants: a"  # not quoted as a KeyError would be


def test_an_error_crosses_to_another_process_with_its_wording():
    with pytest.raises(InvalidRecordError) as info:
        replay_record(parse_record("1. d6 d6\n"))
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is InvalidRecordError and str(again) == str(info.value)
    assert again.wording == info.value.wording
    with pytest.raises(PlayerSpecError) as spec:
        PlayerSpec.parse("computer:9", "--white")
    back = pickle.loads(pickle.dumps(spec.value))
    assert back.key == "--white" and str(back) == str(spec.value) == (
        "--white: computer level must be 1..6, max or adaptive, not '9'")


def test_a_player_spec_error_named_by_another_option_keeps_its_wording():
    with pytest.raises(PlayerSpecError) as info:
        PlayerSpec.parse("engine:x?seconds=0", "game.white")
    again = info.value.again("--white")
    assert again.wording == info.value.wording and str(again).startswith("--white: 'engine:x?seconds=0': ")
    assert again.words(Shouting()).startswith("--white: 'engine:x?seconds=0': seconds MUST BE")
    with pytest.raises(PlayerKindError):
        make_player("remote")
