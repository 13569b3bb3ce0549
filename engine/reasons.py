"""The values a teaching verdict is made of: an action's quality class and the concrete reason
behind a red one (hint.py finds them, hint_words.py says them)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .game import Side


class Quality(str, Enum):
    """What an action does to the game's value for the side that plays it (best first)."""

    KEEPS = "keeps"
    WORSE = "worse"
    DROPS = "drops"
    LOSES = "loses"

    def __str__(self) -> str:
        return self.value


class ReasonKind(str, Enum):
    """What the opponent does after a red action, as the search found it."""

    MILL = "mill"  #: closes `mill` with `action` (on `point`) and takes the pebble on `taken`
    CAPTURE = "capture"  #: Nau Keti Keta: jumps with `action` and takes the pebbles `taken`
    DOUBLE = "double"  #: `action` threatens the two mills in `mill` at once
    BLOCKADE = "blockade"  #: `action` shuts every pebble of the mover in: the game is lost
    LOST = "lost"  #: wins whatever the mover does (the search's or the database's proof)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Reason:
    """Why an action is red, concretely: what the opponent (`by`) does and when (`turns`: 1
    its next turn). `broken` is the mover's own mill the action takes a pebble out of."""

    kind: ReasonKind
    by: Side
    action: str | None = None
    point: str | None = None
    mill: str | None = None
    taken: str | None = None
    turns: int = 1
    broken: str | None = None
    exact: bool = False  #: LOST by the endgame database
