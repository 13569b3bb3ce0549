"""Perft: counting leaves of the game tree, the standard check of a move generator.

A removal is its own ply and a finished game counts as one leaf, as in Sanmill.
"""

from __future__ import annotations

from .core import core_for
from .game import Game


def perft(game: Game, depth: int, made: list[int] | None = None, native: bool = True) -> int:
    """Leaves at `depth` plies below the game's position (the game is left as it was).

    The last ply is counted without being made. `made`, when given, has its first item
    increased by the number of positions made (pushed and popped). With `native`, the C
    core counts where it is built and serves the rules (core.py).
    """
    core = core_for(game, tt_bits=1) if native else None  # perft reads no table
    if core is not None:
        core.set_position(game)
        leaves, pushed = core.perft(depth)
        if made is not None:
            made[0] += pushed
        return leaves
    return _perft(game, depth, made)


def _perft(game: Game, depth: int, made: list[int] | None) -> int:
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
        total += _perft(game, depth - 1, made)
        pop()
    return total
