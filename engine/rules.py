"""A rule set: every option the seed variants differ in, as one frozen dataclass.

Presets (see presets.py) are named instances. The options are orthogonal where the sources
allow it, so a family can play "navakankari, but with flying" by changing one field.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any


class Flying(str, Enum):
    """When a side may move a pebble to any empty point instead of a neighbour."""

    NONE = "none"  #: never
    SELF = "self"  #: the side down to the threshold flies (standard)
    BOTH = "both"  #: once either side is down to the threshold, both fly ("phase 3")


class Removals(str, Enum):
    """How many pebbles a move that closes mills takes."""

    ONE_PER_MOVE = "one-per-move"  #: one, even when two mills close at once (standard)
    ONE_PER_MILL = "one-per-mill"  #: one for every mill closed


class AllInMills(str, Enum):
    """What may be taken when every opposing pebble stands in a mill."""

    ANY = "any"  #: any of them
    NONE = "none"  #: none; the removal is lost


class BoardFull(str, Enum):
    """The result when the board fills up during placement and nobody can move."""

    DRAW = "draw"
    FIRST_LOSES = "first-loses"


class NoCaptureEnd(str, Enum):
    """Nau Keti Keta: the result when the game ends because captures ran out."""

    DRAW = "draw"
    MOST_PEBBLES = "most-pebbles"


@dataclass(frozen=True)
class Rules:
    """Every rule of a game. `board` names a board in boards.BOARDS; `game` picks the family."""

    name: str
    board: str = "morris"
    game: str = "morris"  #: "morris" (place, move, mill, remove) or "jump" (Nau Keti Keta)
    pieces: int = 9
    flying: Flying = Flying.SELF
    fly_threshold: int = 3
    removals: Removals = Removals.ONE_PER_MOVE
    all_in_mills: AllInMills = AllInMills.ANY
    mill_capture_limit: int | None = None  #: times one mill may capture for one side
    no_immediate_reform: bool = False  #: a pebble moved out of a mill and straight back takes nothing
    move_in_placement: bool = False  #: a side with pebbles in hand may move instead of placing
    lose_below: int = 3  #: a side with fewer pebbles (board + hand) loses
    blocked_loses: bool = True  #: a side with no legal action loses (else draw)
    board_full: BoardFull = BoardFull.DRAW
    repetition_draw: int | None = 3  #: the n-th occurrence of a moving-phase position draws
    quiet_move_limit: int | None = 100  #: this many moves in a row without a removal draw
    # Nau Keti Keta
    capture_compulsory: bool = True  #: a side that can capture must, and must finish the chain
    multi_jump: bool = True  #: a capturing pebble may go on jumping
    huffing: bool = False  #: a capture not taken lets the opponent remove the pebble that could
    no_capture_end: NoCaptureEnd = NoCaptureEnd.DRAW

    def __post_init__(self) -> None:
        if self.game not in ("morris", "jump"):
            raise ValueError(f"rules {self.name}: game must be 'morris' or 'jump', not {self.game!r}")
        if self.pieces < 1:
            raise ValueError(f"rules {self.name}: pieces must be at least 1")
        if self.mill_capture_limit is not None and self.mill_capture_limit < 0:
            raise ValueError(f"rules {self.name}: mill_capture_limit must be >= 0")

    def replace(self, **changes: Any) -> "Rules":
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain values (enums as their strings), for the store and the web page."""
        return {
            f.name: (v.value if isinstance(v, Enum) else v)
            for f in dataclasses.fields(self)
            for v in [getattr(self, f.name)]
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        """The inverse of to_dict; unknown keys are an error that names them."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(unknown)}")
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            ftype = fields[key].type
            enum = {"Flying": Flying, "Removals": Removals, "AllInMills": AllInMills,
                    "BoardFull": BoardFull, "NoCaptureEnd": NoCaptureEnd}.get(str(ftype))
            kwargs[key] = enum(value) if enum else value
        return cls(**kwargs)
