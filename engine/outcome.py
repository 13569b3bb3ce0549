"""How a game stands and how it ended: sides, phases, ending reasons and the outcome.

Kept apart from game.py because these values cross into the store, the daemon and the page,
which build them from plain codes and ints; the compiled build of game.py would hold them
to their exact types.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum


class Side(IntEnum):
    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> "Side":
        return Side(1 - self)

    def __str__(self) -> str:
        return self.name.lower()


class Phase(str, Enum):
    PLACING = "placing"
    MOVING = "moving"
    OVER = "over"


class Reason(str, Enum):
    """Why the rules ended a game. The values are the codes the store keeps, so stored games
    stay readable; a Reason compares equal to its code. Endings that come from the board, not
    the rules (cleared, abandoned), are the store's `BoardEnding`."""

    TOO_FEW_PEBBLES = "too-few-pebbles"  #: a morris side is down to fewer than `lose_below`
    BLOCKED = "blocked"  #: the side to act has no legal action
    BOARD_FULL = "board-full"  #: the board filled up during placement
    REPETITION = "repetition"  #: the same position came up `repetition_draw` times
    QUIET_MOVES = "quiet-moves"  #: `quiet_move_limit` moves in a row without a removal
    ALL_TAKEN = "all-taken"  #: Nau Keti Keta: a side has no pebble left
    NO_CAPTURES = "no-captures"  #: Nau Keti Keta: `quiet_move_limit` moves without a capture
    ACTION_LIMIT = "action-limit"  #: a computer match stopped a game that went on too long

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (None for a draw) and why."""

    winner: Side | None
    reason: Reason

    def __post_init__(self) -> None:
        if not isinstance(self.reason, Reason):  # a plain code, as the store keeps it
            object.__setattr__(self, "reason", Reason(self.reason))

    def __str__(self) -> str:
        """`white wins (blocked)`, `draw (repetition)`."""
        if self.winner is None:
            return f"draw ({self.reason})"
        return f"{self.winner} wins ({self.reason})"

    def to_dict(self) -> dict[str, str | None]:
        return {"winner": str(self.winner) if self.winner is not None else None,
                "reason": self.reason.value}

    @classmethod
    def from_dict(cls, data: dict[str, str | None]) -> "Outcome":
        """The inverse of to_dict (what the store keeps); a bad value raises ValueError."""
        winner = data.get("winner")
        if winner not in (None, "white", "black"):
            raise ValueError(f"outcome winner must be white, black or null, not {winner!r}")
        return cls(None if winner is None else Side[winner.upper()], Reason(data["reason"]))
