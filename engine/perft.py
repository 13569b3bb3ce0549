"""Perft: counting leaves of the game tree, the standard check of a move generator.

A removal is its own ply and a finished game counts as one leaf, as in Sanmill.
"""

from __future__ import annotations

from .game import Game


def perft(game: Game, depth: int) -> int:
    """Leaves at `depth` plies below the game's position (the game is left as it was)."""
    if depth <= 0:
        return 1
    actions = game.legal_actions()
    if not actions:
        return 1
    if depth == 1:
        return len(actions)
    total = 0
    push, pop = game.push, game.pop
    for action in actions:
        push(action)
        total += perft(game, depth - 1)
        pop()
    return total
