"""Perft: counting leaves of the game tree, the standard check of a move generator.

A removal is its own ply and a finished game counts as one leaf, as in Sanmill.
"""

from __future__ import annotations

from .game import Game


def perft(game: Game, depth: int, made: list[int] | None = None) -> int:
    """Leaves at `depth` plies below the game's position (the game is left as it was).

    The last ply is counted without being made. `made`, when given, has its first item
    increased by the number of positions made (pushed and popped).
    """
    if depth <= 0:
        return 1
    actions = game.legal_actions()
    if not actions:
        return 1
    if depth == 1:
        return len(actions)
    if made is not None:
        made[0] += len(actions)
    total = 0
    push, pop = game.push, game.pop
    for action in actions:
        push(action)
        total += perft(game, depth - 1, made)
        pop()
    return total
