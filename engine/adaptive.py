"""The adaptive computer's rule: the level it plays at next, from its last results.

It starts at the default level. Two games in a row won by the person against it raise it one
level, two lost lower it one, each up to the top level or down to level 1; a draw breaks a
run, and a game that ended without a result (cleared, abandoned) does not count. A change
starts a new run, so the level moves at most one step every two games and settles where the
person wins about as often as they lose. The store keeps the level of each game; this module
only reads those results and knows nothing of where they are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .player import DEFAULT_LEVEL, MAX_LEVEL

RUN = 2
"""Results in a row at one level that move the level a step."""


class Result(str, Enum):
    """A finished game against the adaptive computer, as the person saw it."""

    WON = "won"
    LOST = "lost"
    DRAWN = "drawn"


@dataclass(frozen=True)
class Played:
    """One game against the adaptive computer: the level it played at and how it ended."""

    level: int
    result: Result


def next_level(games: Sequence[Played]) -> int:
    """The level of the next game after `games` (oldest first): the last game's level, a step
    up after RUN wins in a row at that level, a step down after RUN losses."""
    if not games:
        return DEFAULT_LEVEL
    level = min(max(games[-1].level, 1), MAX_LEVEL)
    run: list[Result] = []
    for game in reversed(games):
        if game.level != level or len(run) == RUN:
            break
        run.append(game.result)
    if len(run) == RUN and all(r is Result.WON for r in run):
        return min(level + 1, MAX_LEVEL)
    if len(run) == RUN and all(r is Result.LOST for r in run):
        return max(level - 1, 1)
    return level
