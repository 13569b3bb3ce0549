"""What the tracker believes the board is doing, as one frozen value, and how it is built.

The lights and the web page read it; nothing else about the tracker is public to them.
Point names (not bit masks) so a web page needs no board tables to show it. The tracker's
statuses are built here from the game and the settled board (`matching_status`,
`progress_status`, `clearing_status`, `mismatch_status`); the menu's host adds the menu's,
the Teacher (assist.py) the side to act's help.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from navakankari.engine.actions import Action, ActionKind
from navakankari.engine.game import Game, Outcome, Side
from navakankari.engine.player_spec import PlayerSpec

from .wayback import restore_steps


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
    #: REMOVAL: the pebbles the side still takes this turn (two mills closed at once owe two
    #: where the rules take one per mill), and those it has taken since the mill
    owed: int = 0
    taken: int = 0
    forced: tuple[str, ...] = ()  #: the given action(s) to carry out (notation)
    forced_from: tuple[str, ...] = ()
    forced_to: tuple[str, ...] = ()
    forced_take: tuple[str, ...] = ()
    remote: bool = False  #: the given action is a far-away player's, not the computer's
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
    #: A review on the page: the points of the move it shows (the board lights only them,
    #: until the review moves on or ends); empty at the review's start position.
    review: tuple[str, ...] | None = None

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


def adaptive_level(players: Mapping[Side, PlayerSpec], turn: Side) -> int | None:
    """The level the side to act plays at where it is the computer adapting its level to the
    person (the status words and speech name it: "white (the computer, adapting, now level
    4) is thinking"), else None."""
    player = players.get(turn)
    return player.level if player is not None and player.adaptive else None


# -- the tracker's statuses, built from the game and the settled board ------------------------
def plain_status(game: Game, forced: tuple[Action, ...], kind: StatusKind,
                 **extra: Any) -> Status:
    """A status of `kind` for `game`, with the given actions (`forced`) to carry out."""
    return Status(kind, str(game.turn), 0.0, outcome=game.outcome(),
                  **_forced_fields(game, forced), **extra)


def matching_status(game: Game, forced: tuple[Action, ...], hands: Iterable[Side]) -> Status:
    """The board matches the game: what is to be done next, and by whom."""
    names = game.board.names
    if forced:
        return plain_status(game, forced, StatusKind.EXECUTING,
                            mills=names(_forced_mills(game, forced)))
    if game.turn not in hands:
        return plain_status(game, forced, StatusKind.THINKING)
    if game.pending_removals:
        takeable = game.takeable()
        mills = 0
        for m in game.last_mills():
            mills |= m
        taken = 0
        while taken < len(game.history) and \
                game.history[-1 - taken].kind is ActionKind.REMOVE:
            taken += 1
        return plain_status(game, forced, StatusKind.REMOVAL, takeable=names(takeable),
                            mills=names(mills), owed=game.pending_removals, taken=taken)
    return plain_status(game, forced, StatusKind.IDLE)


def progress_status(game: Game, forced: tuple[Action, ...], settled: int,
                    units: Sequence[tuple[Action, ...]], lifted: int, placed: int) -> Status:
    """Part of an action is done: `units`, the actions (or given sequences) the board is
    consistent with; `lifted` and `placed`, the points changed so far."""
    names = game.board.names
    dest = captures = 0
    for actions in units:
        for a in actions:
            dest |= 1 << a.target if a.kind != ActionKind.REMOVE else 0
            for j in a.jumped:
                captures |= 1 << j
    kind = StatusKind.EXECUTING if forced else StatusKind.IN_PROGRESS
    return plain_status(
        game, forced, kind,
        lifted=names(lifted),
        placed=names(placed),
        destinations=names(dest & ~settled),
        captures=names(captures & settled),
        candidates=tuple(sorted({" ".join(a.text for a in actions) for actions in units})),
    )


def clearing_status(game: Game, forced: tuple[Action, ...], settled: int, confirm: int,
                    hold: float, armed: bool) -> Status:
    """Every pebble was taken off the game in play: `confirm`, the confirm point's bit."""
    board = game.board
    expected = game.occupancy
    return plain_status(
        game, forced, StatusKind.CLEARING, to_empty=board.names(settled & ~expected),
        to_fill=board.names(expected & ~settled),
        confirm_point=board.points[confirm.bit_length() - 1], confirm_hold=hold,
        holding=settled == confirm, armed=armed)


def mismatch_status(game: Game, forced: tuple[Action, ...], settled: int,
                    believed: Mapping[str, str], reason: MismatchReason) -> Status:
    """The board must be put right: the way back, naming the colours `believed` of the
    pebbles on the board (belief.py)."""
    board = game.board
    expected = game.occupancy
    wanted = {board.points[i]: str(game.colour_at(i)) for i in board.bits(expected)}
    steps = restore_steps(board, wanted, believed)
    return plain_status(game, forced, StatusKind.MISMATCH,
                        to_empty=board.names(settled & ~expected),
                        to_fill=board.names(expected & ~settled),
                        pairs=tuple((a, b) for kind, _, a, b in steps if kind == "move"),
                        steps=steps, reason=reason)


def _forced_fields(game: Game, forced: tuple[Action, ...]) -> dict[str, Any]:
    if not forced:
        return {}
    names = game.board.names
    frm = to = take = 0
    for a in forced:
        if a.kind == ActionKind.REMOVE:
            take |= 1 << a.target
            continue
        if a.origin >= 0:
            frm |= 1 << a.origin
        to |= 1 << a.target
        for j in a.jumped:
            take |= 1 << j
    return {"forced": tuple(a.text for a in forced), "forced_from": names(frm),
            "forced_to": names(to), "forced_take": names(take)}


def _forced_mills(game: Game, forced: tuple[Action, ...]) -> int:
    """The mills the given actions close (lit as a hand's mill is), as a mask."""
    if not any(a.kind == ActionKind.REMOVE for a in forced):
        return 0
    pushed = 0
    try:
        for a in forced:
            if a.kind == ActionKind.REMOVE:
                break
            game.push(a)
            pushed += 1
        mills = 0
        for m in game.last_mills():
            mills |= m
        return mills
    finally:
        for _ in range(pushed):
            game.pop()
