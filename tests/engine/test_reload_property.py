"""A position string carries the whole state: saved and reloaded anywhere in a game, it
plays on exactly as the live game does.

A position string holds no history, as a chess FEN holds none: the repetition count is the
one thing the reloaded game cannot know, so a draw by repetition is the one outcome the two
may differ in (the loaded game then plays on).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from navakankari.engine import PRESETS, Game, Reason, game_from_position, new_game


def _texts(game: Game) -> list[str]:
    return sorted(a.text for a in game.legal_actions())


def _same_play(live: Game, loaded: Game) -> None:
    """Same legal actions and outcome, unless the live game has just drawn by repetition."""
    expected = live.outcome()
    if expected is not None and expected.reason is Reason.REPETITION:
        return
    assert loaded.outcome() == expected, (live.record(), loaded.position())
    assert _texts(loaded) == _texts(live), (live.record(), loaded.position())


def _check_reload(live: Game) -> None:
    loaded = game_from_position(live.rules, live.position())
    assert loaded.position() == live.position()
    assert loaded.key == live.key
    _same_play(live, loaded)
    for action in loaded.legal_actions():
        if live.is_over():  # over by repetition, which the string does not carry
            break
        live.push(live.parse(action.text))
        loaded.push(action)
        assert loaded.key == live.key
        _same_play(live, loaded)
        live.pop()
        loaded.pop()


@pytest.mark.parametrize("name", list(PRESETS))
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 160),
       checks=st.lists(st.integers(0, 160), min_size=1, max_size=4, unique=True))
def test_a_reloaded_position_plays_on_as_the_live_game(name, seed, plies, checks):
    rnd = random.Random(seed)
    live = new_game(PRESETS[name])
    for ply in range(plies + 1):
        if ply in checks:
            _check_reload(live)
        actions = live.legal_actions()
        if not actions:
            break
        live.push(rnd.choice(actions))
    _check_reload(live)
