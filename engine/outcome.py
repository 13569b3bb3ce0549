"""How a game stands and how it ended: sides, phases, ending reasons and the outcome.

Kept apart from game.py because these values cross into the store, the daemon and the page,
which build them from plain codes and ints; the compiled build of game.py would hold them
to their exact types.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

from .errors import GameOverError, Wording
from .translator import N_


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


REASONS: dict[Reason, str] = {
    Reason.TOO_FEW_PEBBLES: N_("{loser} has fewer than three pebbles"),
    Reason.BLOCKED: N_("{loser} cannot move"),
    Reason.BOARD_FULL: N_("the board is full"),
    Reason.REPETITION: N_("the same position came up three times"),
    Reason.QUIET_MOVES: N_("too many moves without a pebble taken"),
    Reason.ALL_TAKEN: N_("{loser} has no pebbles left"),
    Reason.NO_CAPTURES: N_("too many moves without a pebble taken"),
    Reason.ACTION_LIMIT: N_("the game went on too long"),
}
"""Why a game ended, in the words a player reads (`loser`: the side that lost)."""


def side_wording(side: Side) -> Wording:
    """`white` or `black` as a player is named in a sentence."""
    return Wording.of(N_("white") if side is Side.WHITE else N_("black"))


def outcome_wording(outcome: Outcome) -> Wording:
    """`white wins: black has fewer than three pebbles`, `draw: the board is full`."""
    loser = "" if outcome.winner is None else side_wording(outcome.winner.other)
    why = Wording.of(REASONS[outcome.reason], loser=loser)
    if outcome.winner is None:
        return Wording.of(N_("draw: {reason}"), reason=why)
    return Wording.of(N_("{side} wins: {reason}"), side=side_wording(outcome.winner), reason=why)


NO_CHOICE = N_("the game is over ({outcome}); there is no action to choose")
"""What a player asked to act in an ended game says (`game_over`)."""


def game_over(outcome: Outcome | None, message: str = NO_CHOICE) -> GameOverError:
    """The error of an action asked in a game that ended so (`message`, marked N_, names
    the `outcome`)."""
    return GameOverError(message, outcome=outcome_wording(outcome) if outcome else "")


PHASES: dict[Phase, str] = {Phase.PLACING: N_("placing"), Phase.MOVING: N_("moving"),
                            Phase.OVER: N_("over")}
"""A game's phase as an error names it ("white to act, placing")."""
