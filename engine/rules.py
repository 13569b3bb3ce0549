"""A rule set: every option the traditional variants differ in, as one frozen dataclass.

Presets (see presets.py) are named instances. The options are orthogonal where the sources
allow it, so a family can play "navakankari, but with flying" by changing one field.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .errors import InvalidRulesError
from .translator import N_, Nn_


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
    #: How many times one side's mill may be formed with the right to capture: the first
    #: formation and the re-formations up to this number (None: no limit). Every formation
    #: counts, also one that took nothing because nothing could be taken. The rule text reads
    #: "a mill can capture at most 3 times: made once, remade twice": it counts the makings,
    #: and a family at the board can count makings, which they see, where they could not
    #: recall whether each one could take; Sanmill's one-time mill (the strict variant's
    #: reference) marks a mill used when it is formed (position.cpp, mills_count).
    mill_capture_limit: int | None = None
    no_immediate_reform: bool = False  #: a pebble moved out of a mill and straight back takes nothing
    move_in_placement: bool = False  #: a side with pebbles in hand may move instead of placing
    lose_below: int = 3  #: a side with fewer pebbles (board + hand) loses
    blocked_loses: bool = True  #: a side with no legal action loses (else draw)
    board_full: BoardFull = BoardFull.DRAW
    #: The n-th occurrence of a position draws. Morris games count, as Sanmill does, only the
    #: positions reached by a move (not by a placement or a removal, nor a loaded position);
    #: Nau Keti Keta counts the position after every action and the start position.
    repetition_draw: int | None = 3
    quiet_move_limit: int | None = 100  #: this many moves in a row without a removal draw
    # Nau Keti Keta
    capture_compulsory: bool = True  #: a side that can capture must, and must finish the chain
    multi_jump: bool = True  #: a capturing pebble may go on jumping
    huffing: bool = False  #: a capture not taken lets the opponent remove the pebble that could
    no_capture_end: NoCaptureEnd = NoCaptureEnd.DRAW

    def __post_init__(self) -> None:
        if self.game not in ("morris", "jump"):
            raise InvalidRulesError(N_("rules {rules}: game must be 'morris' or 'jump', not {value}"),
                                    rules=self.name, value=repr(self.game))
        if self.pieces < 1:
            raise InvalidRulesError(N_("rules {rules}: pieces must be at least 1"), rules=self.name)
        if self.mill_capture_limit is not None and self.mill_capture_limit < 0:
            raise InvalidRulesError(N_("rules {rules}: mill_capture_limit must be >= 0"),
                                    rules=self.name)

    def replace(self, **changes: Any) -> "Rules":
        return dataclasses.replace(self, **changes)

    def summary(self) -> list[str]:
        """The rules in short lines, for `navakankari variants --rules`: what a side takes
        and when it draws first, the questions players ask (a player's word for a removal
        is "take", whatever the option names say)."""
        if self.game == "jump":
            return [
                f"{self.pieces} pebbles a side on the {self.board} board; a pebble jumped over "
                "is taken"
                + (", compulsory" if self.capture_compulsory else "")
                + (", chains of jumps" if self.multi_jump else ", one jump a turn")
                + (", huffing" if self.huffing else ""),
                ("loses: a side with no pebble left" if self.lose_below == 1 else
                 f"loses: a side left with fewer than {self.lose_below} pebbles")
                + (" or without a move" if self.blocked_loses else ""),
                "draws: " + _draws(self, "every position, the start included")
                + ("" if self.no_capture_end is NoCaptureEnd.DRAW
                   else "; then the side with more pebbles wins"),
            ]
        flying = {Flying.NONE: "no flying",
                  Flying.SELF: f"a side down to {self.fly_threshold} flies",
                  Flying.BOTH: f"once a side is down to {self.fly_threshold}, both fly"}[self.flying]
        taking = ("one pebble for every mill closed" if self.removals is Removals.ONE_PER_MILL
                  else "one pebble per move, even when two mills close")
        safe = ("pebbles in mills are safe, even when all are" if self.all_in_mills is AllInMills.NONE
                else "pebbles in mills are safe unless all are")
        if self.mill_capture_limit is None:
            limit = "a mill takes every time it is formed"
        else:
            times = {1: "once", 2: "twice"}.get(self.mill_capture_limit,
                                                f"{self.mill_capture_limit} times")
            limit = (f"a mill takes at most {times} per side: every formation counts, also "
                     "one that could take nothing")
        if self.no_immediate_reform:
            limit += "; moving a pebble out of a mill and straight back takes nothing"
        return [
            f"{self.pieces} pebbles a side on the {self.board} board; {flying}"
            + ("; a side may move instead of placing" if self.move_in_placement else ""),
            f"taking: {taking}; {safe}; {limit}",
            f"loses: fewer than {self.lose_below} pebbles"
            + (", or no legal action" if self.blocked_loses else "; no legal action draws")
            + ("; a board filled while placing: first player loses"
               if self.board_full is BoardFull.FIRST_LOSES else
               "; a board filled while placing draws"),
            "draws: " + _draws(self, "positions reached by a move; not by a placement, a "
                                     "pebble taken or loading"),
        ]

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
            raise InvalidRulesError.counted(Nn_("unknown rule option: {options}",
                                                "unknown rule options: {options}"), len(unknown),
                                            options=", ".join(unknown))
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            ftype = fields[key].type
            enum = {"Flying": Flying, "Removals": Removals, "AllInMills": AllInMills,
                    "BoardFull": BoardFull, "NoCaptureEnd": NoCaptureEnd}.get(str(ftype))
            kwargs[key] = enum(value) if enum else value
        return cls(**kwargs)


def _draws(rules: Rules, counted: str) -> str:
    parts = []
    if rules.repetition_draw is not None:
        parts.append(f"a position's {_ordinal(rules.repetition_draw)} occurrence (counted: {counted})")
    if rules.quiet_move_limit is not None:
        parts.append(f"{rules.quiet_move_limit} moves in a row without a pebble taken")
    return " or ".join(parts) if parts else "none"


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")
