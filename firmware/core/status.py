"""What the tracker believes the board is doing, as one frozen value.

The lights and the web page read it; nothing else about the tracker is public to them.
Point names (not bit masks) so a web page needs no board tables to show it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from navakankari.engine.game import Outcome


class StatusKind(str, Enum):
    IDLE = "idle"  #: the board matches; a hand side is to act
    THINKING = "thinking"  #: the board matches; waiting for the computer (or a remote player)
    IN_PROGRESS = "in-progress"  #: part of a legal action is done (a pebble lifted, ...)
    REMOVAL = "removal"  #: the board matches; the side to act must take a pebble
    EXECUTING = "executing"  #: a given action (the computer's) is shown and is all that is accepted
    MISMATCH = "mismatch"  #: the board must be put right: points to empty, points to fill
    CLEARING = "clearing"  #: every pebble was taken off a game in play: confirm, or put them back
    OVER = "over"  #: the game has ended
    MENU = "menu"  #: no game in play: the board's menu is lit (menu.py)


class MismatchReason(str, Enum):
    NONE = ""
    MISTAKE = "mistake"  #: the hands did something no legal action explains
    RESTORE = "restore"  #: a new game, a takeback or a restart: the board must match first


@dataclass(frozen=True)
class Status:
    """One snapshot of the tracker. `since` is when this status began (for animations)."""

    kind: StatusKind
    turn: str
    since: float = 0.0
    lifted: tuple[str, ...] = ()  #: expected pebbles not on the board (part of an action)
    placed: tuple[str, ...] = ()  #: pebbles on points expected empty (part of an action)
    destinations: tuple[str, ...] = ()  #: where the action in progress may still go
    captures: tuple[str, ...] = ()  #: pebbles the action in progress still has to take off
    candidates: tuple[str, ...] = ()  #: legal actions consistent with the board (notation)
    takeable: tuple[str, ...] = ()  #: pebbles the side to act may take
    mills: tuple[str, ...] = ()  #: points of the mills just closed
    forced: tuple[str, ...] = ()  #: the given action(s) to carry out (notation)
    forced_from: tuple[str, ...] = ()
    forced_to: tuple[str, ...] = ()
    forced_take: tuple[str, ...] = ()
    to_empty: tuple[str, ...] = ()  #: points that must be emptied to match the game
    to_fill: tuple[str, ...] = ()  #: points that must be filled to match the game
    pairs: tuple[tuple[str, str], ...] = ()  #: pebbles to move back, colours agreeing
    #: MISMATCH: the way back in order, naming colours (wayback.restore_steps):
    #: ("move", colour, from, to), ("lift", colour, point, ""), ("set", colour, "", point);
    #: colour "" where the board cannot tell.
    steps: tuple[tuple[str, str, str, str], ...] = ()
    reason: MismatchReason = MismatchReason.NONE
    outcome: Outcome | None = None
    #: CLEARING: a pebble held alone on `confirm_point` for `confirm_hold` seconds, then
    #: lifted, ends the game (a new one starts); putting the pebbles back (`to_fill`, and
    #: `to_empty` if some went astray) lets it go on.
    confirm_point: str = ""
    confirm_hold: float = 0.0
    holding: bool = False  #: a pebble is alone on the confirm point; the hold is timed
    armed: bool = False  #: ... for long enough: lifting it now ends the game
    faulty: tuple[str, ...] = ()  #: sensors that chatter without end, ignored until quiet
    #: MENU: the step, the lit choices as (point, kind, words), the points of last time's
    #: values, the choices made so far (words); `confirm_point`, `confirm_hold`, `holding`
    #: and `armed` say the same of a pebble held on a choice as of the clearing gesture.
    #: A toss: the light runs round `toss_ring` from `toss_start`, one point per
    #: `toss_step` seconds for `toss_steps` steps, and stops on `toss_result`'s colour.
    menu_step: str = ""
    choices: tuple[tuple[str, str, str], ...] = ()
    current: tuple[str, ...] = ()
    picked: tuple[str, ...] = ()
    toss_ring: tuple[str, ...] = ()
    toss_start: float = 0.0
    toss_step: float = 0.0
    toss_steps: int = 0
    toss_result: str = ""
    #: Assistance (assist.py), for the side to act: each point's quality class (the free
    #: points while placing, the destinations of a lifted pebble), the opponent's threats,
    #: the best move asked for (its points), and after a blunder the pebble's point until
    #: `blunder_until`; `advice` says it in words.
    quality: tuple[tuple[str, str], ...] = ()
    threats: tuple[str, ...] = ()
    hint: tuple[str, ...] = ()
    blunder: tuple[str, ...] = ()
    blunder_until: float = 0.0
    advice: str = ""
    #: The opponent's pebble lifted to ask for the best move (assistance 4), while setting
    #: it back still asks: the board acknowledges the request there instead of a mistake.
    asking: tuple[str, ...] = ()

    def same_as(self, other: "Status") -> bool:
        """Equal apart from `since` (a status that did not change keeps its start time)."""
        return replace(self, since=other.since) == other

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values, for the store's log and the web page."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, Enum):
                v = v.value
            elif isinstance(v, Outcome):
                v = v.to_dict()
            elif isinstance(v, tuple):
                v = [list(x) if isinstance(x, tuple) else x for x in v]
            out[f.name] = v
        return out
