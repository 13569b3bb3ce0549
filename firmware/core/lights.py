"""What the board shows: a pure function of the game, the tracker's status and the time.

`roles` says which role each point plays (palette.py says what a role looks like);
`render` turns that into colours at one instant; `next_change` says when the frame can
next differ, so the daemon sends a frame only when something changed or an animation is
due, and an idle board costs no CPU.
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence

from navakankari.engine.actions import ActionKind
from navakankari.engine.game import Game, Side

from .menu import STARTERS, toss_index
from .palette import (
    PAIR_PERIOD,
    PALETTE,
    PULSE_FLOOR,
    PULSE_LEVELS,
    QUALITY_ROLES,
    RGB,
    Animation,
    Look,
    Role,
)
from .status import Status, StatusKind

Put = Callable[[Role, Iterable[str]], None]  #: lights `points` in `role`'s colour

Frame = dict[str, RGB]


def roles(game: Game, status: Status, now: float) -> dict[str, Role]:
    """The role of every lit point (later layers win over earlier ones)."""
    board = game.board
    out: dict[str, Role] = {}

    def put(role: Role, points: Iterable[str]) -> None:
        for p in points:
            out[p] = role

    kind = status.kind
    turn = game.turn
    if status.review is not None:  # the page reviews a game: only the move it shows
        put(Role.REVIEW, status.review)
        put(Role.SENSOR_FAULT, status.faulty)
        return out
    if status.asking:  # an opponent's pebble lifted to ask for the best move: no mistake
        put(Role.THREAT, status.threats)
        put(Role.ASKING, status.asking)
    elif kind == StatusKind.IDLE:
        _turn_layer(game, put, dim_free=not status.quality)
        _assist_layer(status, now, put)
    elif kind == StatusKind.THINKING:
        put(Role.THINKING, board.names(game.pieces(turn)))
        if now < status.blunder_until:
            put(Role.BLUNDER, status.blunder)
    elif kind == StatusKind.REMOVAL:
        put(Role.MILL, status.mills)
        put(Role.TAKEABLE, status.takeable)
    elif kind == StatusKind.IN_PROGRESS:
        put(Role.THREAT, status.threats)
        quality = dict(status.quality)
        if status.destinations and all(p in quality for p in status.destinations):
            for p in status.destinations:
                out[p] = QUALITY_ROLES[quality[p]]
        else:
            put(Role.DESTINATION, status.destinations)
        put(Role.CAPTURE, status.captures)
        put(Role.LIFTED, status.lifted)
        put(Role.LIFTED, status.placed)
    elif kind == StatusKind.EXECUTING:
        _forced_layer(status, put)
    elif kind == StatusKind.MISMATCH:
        if status.forced:  # where the given move goes stays shown under what to put right
            _forced_layer(status, put, take=False)
        put(Role.TO_EMPTY, status.to_empty)
        put(Role.TO_FILL, status.to_fill)
        if status.pairs:
            k = int(max(0.0, now - status.since) // PAIR_PERIOD) % len(status.pairs)
            a, b = status.pairs[k]
            out[a] = Role.PAIR_FROM
            out[b] = Role.PAIR_TO
    elif kind == StatusKind.CLEARING:
        # The way back dimly, and where to hold a pebble to end the game instead.
        if not status.holding:
            put(Role.TO_FILL, status.to_fill)
            put(Role.TO_EMPTY, status.to_empty)
        if status.confirm_point:
            out[status.confirm_point] = (Role.CONFIRM_LIFT if status.armed else
                                         Role.CONFIRM_HOLD if status.holding
                                         else Role.CONFIRM_CLEAR)
    elif kind == StatusKind.MENU:
        _menu_layer(status, now, out)
    elif kind == StatusKind.OVER:
        outcome = status.outcome
        if outcome is not None and outcome.winner is not None:
            role = Role.WINNER_WHITE if outcome.winner == Side.WHITE else Role.WINNER_BLACK
            put(role, board.names(game.pieces(outcome.winner)))
        else:
            put(Role.DRAW, board.names(game.occupancy))
    put(Role.SENSOR_FAULT, status.faulty)  # whatever else goes on
    return out


def _assist_layer(status: Status, now: float, put: Put) -> None:
    """The side to act's assistance: the quality of the free points (placing), the
    opponent's threats, the best move asked for, and a blunder's warning while it lasts."""
    for point, quality in status.quality:
        put(QUALITY_ROLES[quality], (point,))
    put(Role.THREAT, status.threats)
    put(Role.HINT, status.hint)
    if now < status.blunder_until:
        put(Role.BLUNDER, status.blunder)


MENU_ROLES = {"same": Role.MENU_SAME, "back": Role.MENU_BACK, "takeback": Role.MENU_TAKEBACK,
              "brightness": Role.MENU_BRIGHTNESS, "brightness-value": Role.MENU_BRIGHTNESS,
              "speech": Role.MENU_BRIGHTNESS, "language": Role.MENU_BRIGHTNESS,
              "speech-step": Role.MENU_BRIGHTNESS, "language-step": Role.MENU_BRIGHTNESS}
"""The menu's fixed points (the settings: brightness, speech and the language, and their
steps' choices) by the kind of their choice."""
STEP_ROLES = {"white": Role.MENU_WHITE, "black": Role.MENU_BLACK,
              "assist-white": Role.MENU_HELP_WHITE, "assist-black": Role.MENU_HELP_BLACK}
"""The choices of a step by its name: each step in its own colour or motion."""
STARTER_ROLES = {"white": Role.MENU_WHITE, "black": Role.MENU_BLACK, "toss": Role.MENU_TOSS}
"""The step "who starts": each side's colour, and the toss."""


def menu_roles(step: str, choices: Sequence[tuple[str, str, str]]) -> dict[str, Role]:
    """The light of each of the menu's lit choices (`Status.choices`: point, kind, words)
    at the step named `step`. The choices of "who starts" come in the order of STARTERS
    (their words may be in any language)."""
    starters = iter(STARTERS)
    return {point: STARTER_ROLES[next(starters)] if kind == "starter" else
            MENU_ROLES.get(kind) or STEP_ROLES.get(step, Role.MENU_CHOICE)
            for point, kind, _ in choices}


def _menu_layer(status: Status, now: float, out: dict[str, Role]) -> None:
    """The menu's choices, the pebble held on one (as the clearing gesture), or the toss."""
    if status.toss_ring:
        k = toss_index(status.toss_start, status.toss_step, status.toss_steps, now)
        ring = status.toss_ring
        out[ring[k % len(ring)]] = Role.TOSS_WHITE if k % 2 == 0 else Role.TOSS_BLACK
        return
    if status.holding and status.confirm_point:
        out[status.confirm_point] = Role.CONFIRM_LIFT if status.armed else Role.CONFIRM_HOLD
        return
    out.update(menu_roles(status.menu_step, status.choices))
    for point in status.current:
        out[point] = Role.MENU_CURRENT


def _forced_layer(status: Status, put: Put,
                  *, take: bool = True) -> None:
    """The given action (the computer's, or a far-away player's in its own colour): the mill
    it closes, then where from, to and (with `take`) what it takes, leaving out what the
    hands have already done."""
    lifted, placed = set(status.lifted), set(status.placed)
    to, frm = (Role.REMOTE_TO, Role.REMOTE_FROM) if status.remote else (
        Role.COMPUTER_TO, Role.COMPUTER_FROM)
    put(Role.MILL, status.mills)
    put(to, (p for p in status.forced_to if p not in placed))
    put(frm, (p for p in status.forced_from if p not in lifted and p not in status.forced_to))
    if take:
        put(Role.COMPUTER_TAKE, (p for p in status.forced_take if p not in lifted))


ASSISTED = (*QUALITY_ROLES.values(), Role.THREAT, Role.HINT, Role.BLUNDER)
"""The assistance roles lit beside the side to act's own (IDLE)."""

SHOWN_TOGETHER: tuple[frozenset[Role], ...] = (
    frozenset({Role.FREE_WHITE, Role.TURN_WHITE, Role.THREAT, Role.HINT, Role.BLUNDER}),  # IDLE
    frozenset({Role.FREE_BLACK, Role.TURN_BLACK, Role.THREAT, Role.HINT, Role.BLUNDER}),
    frozenset({Role.TURN_WHITE, *ASSISTED}),  # IDLE, the free points judged
    frozenset({Role.TURN_BLACK, *ASSISTED}),
    frozenset({Role.THINKING, Role.BLUNDER}),
    frozenset({Role.THREAT, Role.ASKING}),  # IN_PROGRESS or MISMATCH: asking for the best move
    frozenset({Role.MILL, Role.TAKEABLE}),  # REMOVAL
    frozenset({Role.DESTINATION, Role.CAPTURE, Role.LIFTED, Role.THREAT}),  # IN_PROGRESS
    frozenset({*QUALITY_ROLES.values(), Role.CAPTURE, Role.LIFTED, Role.THREAT}),  # ... judged
    frozenset({Role.MILL, Role.COMPUTER_TO, Role.COMPUTER_FROM, Role.COMPUTER_TAKE}),  # EXECUTING
    frozenset({Role.MILL, Role.REMOTE_TO, Role.REMOTE_FROM, Role.COMPUTER_TAKE}),  # ... online
    frozenset({Role.TO_EMPTY, Role.TO_FILL, Role.PAIR_FROM, Role.PAIR_TO}),  # MISMATCH
    frozenset({Role.COMPUTER_TO, Role.COMPUTER_FROM, Role.TO_EMPTY, Role.TO_FILL,
               Role.PAIR_FROM, Role.PAIR_TO}),  # MISMATCH, where a given move goes kept
    frozenset({Role.REMOTE_TO, Role.REMOTE_FROM, Role.TO_EMPTY, Role.TO_FILL,
               Role.PAIR_FROM, Role.PAIR_TO}),  # ... a far-away player's move
    frozenset({Role.TO_FILL, Role.TO_EMPTY, Role.CONFIRM_CLEAR}),  # CLEARING
    frozenset({Role.CONFIRM_HOLD}),  # CLEARING, a pebble held on the confirm point
    frozenset({Role.TO_FILL, Role.TO_EMPTY, Role.CONFIRM_LIFT}),  # CLEARING, armed
    frozenset({Role.WINNER_WHITE}),  # OVER
    frozenset({Role.WINNER_BLACK}),
    frozenset({Role.DRAW}),
    frozenset({Role.MENU_CHOICE, Role.MENU_CURRENT, Role.MENU_SAME, Role.MENU_TAKEBACK,
               Role.MENU_BRIGHTNESS}),  # MENU, the game
    frozenset({Role.MENU_WHITE, Role.MENU_CURRENT, Role.MENU_BACK}),  # MENU, white's player
    frozenset({Role.MENU_BLACK, Role.MENU_CURRENT, Role.MENU_BACK}),
    frozenset({Role.MENU_HELP_WHITE, Role.MENU_CURRENT, Role.MENU_BACK}),  # MENU, the help
    frozenset({Role.MENU_HELP_BLACK, Role.MENU_CURRENT, Role.MENU_BACK}),
    frozenset({Role.MENU_WHITE, Role.MENU_BLACK, Role.MENU_TOSS, Role.MENU_BACK}),  # who starts
    frozenset({Role.MENU_BRIGHTNESS, Role.MENU_BACK}),  # MENU, the brightness, speech
    frozenset({Role.MENU_BRIGHTNESS, Role.MENU_CURRENT, Role.MENU_BACK}),  # MENU, the language
    frozenset({Role.CONFIRM_HOLD}),  # MENU, a pebble held on a choice
    frozenset({Role.CONFIRM_LIFT}),
    frozenset({Role.REVIEW}),  # a review on the page
    frozenset({Role.TOSS_WHITE}),  # MENU, the toss light
    frozenset({Role.TOSS_BLACK}),
)
"""Every set of roles one frame of `roles` can hold; SENSOR_FAULT can join any of them.
The palette must keep the roles of one set apart (tests/firmware/test_palette.py)."""

ANY_TIME = Role.SENSOR_FAULT


def _turn_layer(game: Game, put: Put, dim_free: bool = True) -> None:
    """Side to move: the free points dimly while placing (not where every free point shows
    its quality instead), the pebbles that can move after."""
    board = game.board
    white = game.turn == Side.WHITE
    places = origins = 0
    for a in game.legal_actions():
        if a.kind == ActionKind.PLACE:
            places |= 1 << a.target
        elif a.origin >= 0:
            origins |= 1 << a.origin
    if dim_free:
        put(Role.FREE_WHITE if white else Role.FREE_BLACK, board.names(places))
    put(Role.TURN_WHITE if white else Role.TURN_BLACK, board.names(origins))


EPSILON = 1e-6
"""Seconds: a wave crossing this close ahead of `now` counts as crossed (a loop woken at the
time next_change gave must see the new frame, not wake again for it)."""


@functools.lru_cache(maxsize=None)
def pulse_changes(levels: int = PULSE_LEVELS) -> tuple[float, ...]:
    """Where in a cycle (0..1) a pulse's shown level steps: the cosine wave 1 -> 0 -> 1
    crossing each midpoint between two of its `levels` + 1 levels, going down then up."""
    bounds = [(j + 0.5) / levels for j in range(levels)]
    down = sorted(math.acos(2 * b - 1) / (2 * math.pi) for b in bounds)
    up = sorted(1 - math.acos(2 * b - 1) / (2 * math.pi) for b in bounds)
    return tuple(down + up)


def _pulse_position(look: Look, age: float) -> tuple[float, int]:
    """(the age its cycle began, how many of the cycle's level steps are behind)."""
    cycle = (age // look.period) * look.period
    return cycle, bisect_right(pulse_changes(), (age - cycle + EPSILON) / look.period)


def _level(look: Look, age: float) -> float:
    """Brightness factor 0..1 of an animation `age` seconds after its status began."""
    if look.animation == Animation.STEADY or (look.duration is not None and age >= look.duration):
        return 1.0
    if look.animation == Animation.BLINK:
        return 1.0 if int((age + EPSILON) // (look.period / 2)) % 2 == 0 else 0.0
    _, passed = _pulse_position(look, age)
    step = PULSE_LEVELS - passed if passed <= PULSE_LEVELS else passed - PULSE_LEVELS
    return PULSE_FLOOR + (1 - PULSE_FLOOR) * step / PULSE_LEVELS


class _Kept:
    """The roles of the last frame, kept while the game, the status and the moment of a
    stepped animation (the toss light, the pair shown) stay the same: a pulsing board at
    rest then computes only the colours of a frame."""

    def __init__(self) -> None:
        self.key: tuple[object, ...] = ()
        self.game: Game | None = None
        self.status: Status | None = None
        self.lit: dict[str, Role] = {}

    def of(self, game: Game, status: Status, now: float) -> dict[str, Role]:
        moment = 0
        if status.toss_ring:
            moment = toss_index(status.toss_start, status.toss_step, status.toss_steps, now)
        elif status.kind == StatusKind.MISMATCH and status.pairs:
            moment = int(max(0.0, now - status.since) // PAIR_PERIOD)
        key = (game.key, len(game.history), moment, now < status.blunder_until)
        if game is not self.game or status is not self.status or key != self.key:
            self.game, self.status, self.key = game, status, key
            self.lit = roles(game, status, now)
        return self.lit


_kept = _Kept()


AWAIT_STEP = 0.75
"""Seconds the waiting light stays on each point of its ring: a chase slow enough to read
as calm, and cheap (under 1.5 frames a second)."""


def awaiting(ring: Sequence[str], since: float, now: float,
             palette: Mapping[Role, Look] = PALETTE) -> Frame:
    """An online invitation waits for the other player to join: one light walks round
    `ring` (the menu's ring of points), every other point dark."""
    k = int(max(0.0, now - since) // AWAIT_STEP)
    return {ring[k % len(ring)]: palette[Role.AWAITED].colour}


def next_awaiting_change(since: float, now: float) -> float:
    """When the waiting light moves on to the next point."""
    return since + (int(max(0.0, now - since) // AWAIT_STEP) + 1) * AWAIT_STEP


def render(game: Game, status: Status, now: float,
           palette: Mapping[Role, Look] = PALETTE) -> Frame:
    """Colours of the lit points at time `now` (dark points are left out)."""
    age = max(0.0, now - status.since)
    frame: Frame = {}
    colours: dict[Role, RGB | None] = {}
    for point, role in _kept.of(game, status, now).items():
        if role not in colours:  # each role's level once a frame
            look = palette[role]
            level = _level(look, age)
            r, g, b = look.colour
            colours[role] = (round(r * level), round(g * level), round(b * level)) \
                if level > 0 else None
        colour = colours[role]
        if colour is not None:
            frame[point] = colour
    return frame


def next_change(game: Game, status: Status, now: float,
                palette: Mapping[Role, Look] = PALETTE) -> float | None:
    """The earliest time after `now` at which `render` may return another frame, or None
    when nothing animates (the frame stays as it is until the game or the status change)."""
    age = max(0.0, now - status.since)
    times: list[float] = []
    used = set(_kept.of(game, status, now).values())
    for role in used:
        look = palette[role]
        if look.duration is not None and age >= look.duration:
            continue
        if look.animation == Animation.BLINK:
            half = look.period / 2
            t = status.since + ((age + EPSILON) // half + 1) * half
        elif look.animation == Animation.PULSE:
            cycle, passed = _pulse_position(look, age)
            changes = pulse_changes()
            at = changes[passed] if passed < len(changes) else 1 + changes[0]
            t = status.since + cycle + at * look.period
        else:
            continue
        if look.duration is not None:
            t = min(t, status.since + look.duration)
        times.append(t)
    if status.toss_ring:
        k = toss_index(status.toss_start, status.toss_step, status.toss_steps, now) + 1
        if k <= status.toss_steps:
            times.append(status.toss_start + k * status.toss_step)
    if status.kind == StatusKind.MISMATCH and len(status.pairs) > 1:
        times.append(status.since + (age // PAIR_PERIOD + 1) * PAIR_PERIOD)
    if status.blunder and now < status.blunder_until:
        times.append(status.blunder_until)  # the warning goes out
    return min(times) if times else None
