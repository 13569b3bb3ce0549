"""Properties that hold in every game of every preset, checked on random playouts."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from navakankari.engine.actions import ActionKind
from navakankari.engine.game import Side
from navakankari.engine.presets import PRESETS
from navakankari.engine.variants import game_from_position, new_game
from search_helpers import random_playout

variants = st.sampled_from(sorted(PRESETS))
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def playout(name: str, seed: int, limit: int = 400):
    return random_playout(new_game(PRESETS[name]), random.Random(seed), limit)


def check_state(game) -> None:
    rules = game.rules
    white, black = game.pieces(Side.WHITE), game.pieces(Side.BLACK)
    assert white & black == 0
    assert (white | black) & ~game.board.full == 0
    for side in Side:
        assert 0 <= game.in_hand(side) <= rules.pieces
        assert game.on_board(side) + game.in_hand(side) <= rules.pieces
    assert game.pending_removals >= 0
    occupancy = game.occupancy
    for action in game.legal_actions():
        assert action.empties & ~occupancy == 0, action
        assert action.fills & occupancy == 0, action
        if action.kind == ActionKind.REMOVE:
            assert action.empties & game.pieces(game.turn.other)


@settings(max_examples=200, deadline=None)
@given(variants, seeds)
def test_random_playouts_stay_legal(name, seed):
    game = new_game(PRESETS[name])
    rng = random.Random(seed)
    for _ in range(300):
        check_state(game)
        actions = game.legal_actions()
        if not actions:
            assert game.outcome() is not None
            break
        assert game.outcome() is None
        game.push(rng.choice(actions))


@settings(max_examples=40, deadline=None)
@given(variants, seeds)
def test_pop_restores_the_exact_position(name, seed):
    game = new_game(PRESETS[name])
    rng = random.Random(seed)
    seen = []
    for _ in range(250):
        actions = game.legal_actions()
        if not actions:
            break
        seen.append((game.position(), game.key, [a.text for a in actions], game.outcome()))
        game.push(rng.choice(actions))
    while seen:
        game.pop()
        assert (game.position(), game.key, [a.text for a in game.legal_actions()],
                game.outcome()) == seen.pop()
    assert game.history == []


@settings(max_examples=40, deadline=None)
@given(variants, seeds)
def test_notation_round_trips(name, seed):
    game = playout(name, seed, limit=random.Random(seed).randrange(1, 200))
    for action in game.legal_actions():
        assert game.parse_action(str(action)) == action
    # Positions: format, parse, format again; the legal actions agree.
    again = game_from_position(game.rules, game.position())
    assert again.position() == game.position()
    outcome = game.outcome()
    if outcome is None or outcome.reason != "repetition":  # repetition lives in the history
        assert [a.text for a in again.legal_actions()] == [a.text for a in game.legal_actions()]
    # Records: replaying the record gives the same position.
    replayed = new_game(game.rules)
    replayed.play_record(game.record())
    assert replayed.position() == game.position()
    assert replayed.record() == game.record()


@settings(max_examples=30, deadline=None)
@given(variants, seeds)
def test_copy_is_independent(name, seed):
    game = playout(name, seed, limit=60)
    twin = game.copy()
    assert twin.position() == game.position() and twin.key == game.key
    actions = twin.legal_actions()
    if actions:
        twin.push(actions[0])
        assert twin.position() != game.position()
        twin.pop()
    assert twin.position() == game.position()
