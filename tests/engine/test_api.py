"""The package's public surface, used as a python-chess user would use it."""

from __future__ import annotations

import random
import re
from importlib import resources

import navakankari.engine as engine
import pytest
from conftest import make_fen
from hypothesis import given, settings
from hypothesis import strategies as st
from navakankari.engine import (
    PRESETS,
    Action,
    ActionKind,
    Game,
    GameOverError,
    IllegalActionError,
    InvalidNotationError,
    Outcome,
    Phase,
    Reason,
    Side,
    game_from_position,
    new_game,
    preset,
)
from navakankari.engine.morris import MorrisGame
from test_properties import playout

# Through the package, so the test runs against an installed copy as well as the source tree.
README = resources.files("navakankari.engine").joinpath("README.md")


def test_the_readme_example_runs():
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    assert len(code.strip().splitlines()) <= 11
    exec(compile(code, str(README), "exec"), {})


def test_everything_listed_is_exported():
    for name in engine.__all__:
        assert hasattr(engine, name), name
    assert isinstance(new_game(preset("navakankari")), Game)
    assert new_game("navakankari").rules == preset("navakankari")


def test_parse_returns_the_games_own_action_with_point_names():
    game = new_game("nine-mens-morris")
    game.play_record("a1 d1 a4 d2 a7")
    place = new_game("nine-mens-morris").parse("d6")
    assert place in new_game("nine-mens-morris").legal_actions()
    assert (place.kind, place.origin_name, place.target_name) == (ActionKind.PLACE, None, "d6")
    removal = game.parse("xd2")
    assert any(removal is a for a in game.legal_actions())
    assert (removal.kind, removal.target_name) == (ActionKind.REMOVE, "d2")
    moving = game_from_position("nine-mens-morris", make_fen(white="a1 d7 g7", black="c3 e3 b4"))
    move = moving.parse("a1-a4")
    assert (move.origin_name, move.target_name) == ("a1", "a4")
    assert move.origin == moving.board.index("a1")


def test_a_jump_names_the_pebbles_it_takes():
    game = game_from_position("nau-keti-keta", "***/***/***/*/*O*/*@*/*** w 0 1")
    chain = game.parse("d3xd1")
    assert (chain.origin_name, chain.target_name, chain.jumped_names) == ("d3", "d1", ("d2",))


@pytest.mark.parametrize("text, error", [("z9", InvalidNotationError),
                                         ("a1-a4", IllegalActionError)])
def test_parse_tells_bad_text_from_an_illegal_action(text, error):
    with pytest.raises(error):
        new_game("nine-mens-morris").parse(text)


def finished() -> Game:
    game = game_from_position("nine-mens-morris", make_fen(white="a7 d7 g4", black="c3 e3 b4"))
    game.play("g4-g7")
    game.play("xc3")
    assert game.outcome() == Outcome(Side.WHITE, Reason.TOO_FEW_PEBBLES)
    return game


@pytest.mark.parametrize("play", [
    lambda g: g.play("e3-e4"),
    lambda g: g.parse("e3-e4"),
    lambda g: g.play(g.actions_table.move[g.board.index("e3")][g.board.index("e4")]),
    lambda g: g.play_record("e3-e4"),
])
def test_a_finished_game_raises_game_over(play):
    with pytest.raises(GameOverError, match=r"the game is over \(white wins: black has fewer than three pebbles\)"):
        play(finished())


def test_notation_errors_come_first_on_a_finished_game():
    with pytest.raises(InvalidNotationError):
        finished().parse("z9")


def test_reasons_keep_the_stored_codes():
    for reason in Reason:
        outcome = Outcome(None, reason)
        assert Outcome.from_dict(outcome.to_dict()) == outcome
        assert outcome.to_dict()["reason"] == reason.value == str(reason) == f"{reason}"
    assert Outcome(Side.BLACK, "blocked").reason is Reason.BLOCKED  # a stored code reads back
    assert Outcome.from_dict({"winner": "black", "reason": "blocked"}) == \
        Outcome(Side.BLACK, Reason.BLOCKED)
    with pytest.raises(ValueError):  # the board's endings are not the rules'
        Outcome.from_dict({"winner": None, "reason": "cleared"})
    with pytest.raises(ValueError):
        Outcome.from_dict({"winner": "red", "reason": "blocked"})
    with pytest.raises(ValueError):
        Outcome.from_dict({"winner": None, "reason": "tired"})


def test_the_combined_record_joins_removals_to_their_move():
    game = game_from_position("navakankari",
                              make_fen(white="a7 d7 g4 a1 a4", black="c3 e3 b4 f4 f2 d1"))
    game.play("g4-g7xc3")
    game.play("d1-g1")
    assert game.record() == "g4-g7 xc3 d1-g1"
    assert game.record(combined=True) == "g4-g7xc3 d1-g1"


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32 - 1))
def test_both_record_forms_round_trip(name, seed):
    game = playout(name, seed, limit=random.Random(seed).randrange(0, 120))
    for combined in (False, True):
        replayed = new_game(name)
        replayed.play_record(game.record(combined=combined))
        assert replayed.history == game.history


def test_phase_and_is_over_do_not_list_every_action(monkeypatch):
    def listing(self):
        raise AssertionError("listed every action")

    games = [new_game("nine-mens-morris"),
             game_from_position("nine-mens-morris", make_fen(white="a1 d7 g7", black="c3 e3 b4")),
             game_from_position("nine-mens-morris",
                                make_fen(white="a7 d7 g7 a1", black="c3 e3 b4 f4", pending=1))]
    monkeypatch.setattr(MorrisGame, "_generate", listing)
    for game in games:
        assert not game.is_over() and game.phase in (Phase.PLACING, Phase.MOVING)


def test_a_blocked_side_is_found_without_listing():
    game = game_from_position("nine-mens-morris",
                              make_fen(white="d7 b4 d2 f4", black="a7 a4 a1 d1 g1 g4 g7",
                                       side="b"))
    assert [a.text for a in game.legal_actions()] == []
    assert game.is_over() and game.outcome() == Outcome(Side.WHITE, Reason.BLOCKED)
    assert game.phase is Phase.OVER


def test_mill_count_takes_points_or_a_number():
    game = game_from_position("navakankari", make_fen(white="a7 d7 g7") + " mills:a7-d7-g7=w2")
    number = game.mill_index(("g7", "a7", "d7"))
    assert game.mill_count(Side.WHITE, "a7-d7-g7") == game.mill_count(Side.WHITE, number) == 2
    assert game.mill_count(Side.BLACK, ("a7", "d7", "g7")) == 0
    assert game.mill_counts() == {("a7", "d7", "g7"): (2, 0)}
    with pytest.raises(InvalidNotationError, match="a7-d7-d6 is not a mill"):
        game.mill_count(Side.WHITE, "a7-d7-d6")


def test_actions_are_values():
    a = new_game("nine-mens-morris").parse("d6")
    assert isinstance(a, Action) and str(a) == "d6" and repr(a) == "Action(d6)"
    with pytest.raises(AttributeError):
        a.target_name = "d7"  # type: ignore[misc]
