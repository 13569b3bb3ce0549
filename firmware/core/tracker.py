"""Sensor changes to engine actions: settled occupancy matched against the legal actions.

The sensors see occupancy only. With C the occupancy the game expects and O the settled
observed one, every legal action is judged by its diff (points it empties, points it fills):

- O equals C after one legal action (or a given sequence): commit it;
- O lies between C and some actions' results: in progress;
- otherwise a mismatch, shown after a grace period as points to empty and to fill.

The tracker reads the board as the session's sensing settled it (sensing.py: chatter and
a pebble slid across other points never become moves); an action that could still grow (a
jump chain that may go on, a flying pebble) waits `grow` seconds more. Time comes only from
the edges' stamps and `step(now)`; `deadline()` says when the tracker next needs a step, so
nothing polls.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from navakankari.engine.actions import Action, ActionKind
from navakankari.engine.boards import Board
from navakankari.engine.game import Game, Side

from .belief import ColourBelief
from .errors import check_count, check_seconds
from .gesture import HoldGesture
from .sensing import Edge, Reading
from .status import (
    MismatchReason,
    Status,
    StatusKind,
    clearing_status,
    matching_status,
    mismatch_status,
    plain_status,
    progress_status,
)

log = logging.getLogger(__name__)

BOTH_SIDES: frozenset[Side] = frozenset((Side.WHITE, Side.BLACK))


@dataclass(frozen=True)
class TrackerSettings:
    """Timing of the tracker, in seconds."""

    settle: float = 0.2  #: stable this long before a change counts
    grow: float = 0.35  #: extra wait when the action could still grow
    grace: float = 0.8  #: a mistake is shown after this long
    clear_hold: float = 3.0  #: a pebble held this long alone on the confirm point, then
    #: lifted, ends a cleared game
    #: A sensor that has not kept still for `settle` seconds for `fault_window` seconds, with
    #: more than `fault_edges` edges (a set-down's bounces are over in a fraction of a
    #: second; a chattering sensor would keep the whole board from settling), is faulty:
    #: ignored (its last settled reading kept) until quiet for `fault_quiet`.
    fault_edges: int = 20
    fault_window: float = 2.0
    fault_quiet: float = 5.0

    #: The range of each timing, stated once: the configuration's [tracker] table is checked
    #: against it too. Below 0.05 s a reed's bounce would count as a change.
    SECONDS: ClassVar[dict[str, tuple[float, float]]] = {
        "settle": (0.05, 2.0), "grow": (0.0, 10.0), "grace": (0.0, 10.0),
        "clear_hold": (0.0, 10.0), "fault_window": (0.0, 10.0), "fault_quiet": (0.0, 10.0)}

    def __post_init__(self) -> None:
        for name, (low, high) in self.SECONDS.items():
            check_seconds(name, getattr(self, name), low, high)
        check_count("fault_edges", self.fault_edges, 1)


def confirm_point(board: Board) -> str:
    """Where a pebble held alone on a cleared board, then lifted, confirms the end of the
    game: the point nearest the board's centre, the top one of a tie. d5 on the morris
    boards (the inner square's top middle, just above the centre), d4 on Nau Keti Keta (the
    apex). Hands find it without looking anything up."""
    xs = [x for x, _ in board.coordinates]
    ys = [y for _, y in board.coordinates]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return min(zip(board.points, board.coordinates),
               key=lambda pc: ((pc[1][0] - cx) ** 2 + (pc[1][1] - cy) ** 2, -pc[1][1], pc[1][0]))[0]


@dataclass(frozen=True)
class _Unit:
    """What the hands may be doing: one or more actions (a given sequence) and their diff."""

    actions: tuple[Action, ...]
    result: int  #: occupancy once done
    lift: int  #: points that may be empty while it is under way
    reach: int  #: points that may be filled while it is under way
    key: int  #: the game's position key once done


class Tracker:
    """Turns raw sensor events into committed actions of `game` (which it pushes).

    The owner (the session) keeps the sensing: it hands the tracker each edge (`sensed`)
    and each tick (`step`) with the board's reading then (`sensing.Reading`). It changes the
    game from outside only through `sync` (new game, takeback, resume) and `set_forced` (the
    computer's or a remote move).
    """

    def __init__(
        self,
        game: Game,
        reading: Reading,
        *,
        settings: TrackerSettings = TrackerSettings(),
        hands: Iterable[Side] = BOTH_SIDES,
        now: float = 0.0,
        colours: Mapping[str, Side | None] | None = None,
    ) -> None:
        """`reading`: what the board reads now. `colours`: what the pebbles on the board
        are believed to be (the `colours` of a tracker of the game before); else those on
        the game's points are taken to be the game's."""
        self.settings = settings
        self.hands = frozenset(hands)
        self.game = game
        board = game.board
        self._seen = reading  #: the board's reading, as last handed in
        self._forced: tuple[Action, ...] = ()
        self._restore = False
        self._grow_until: float | None = None
        self._grow_points = 0
        self._early: list[Action] = []
        self._mismatch_since: float | None = None
        self._mismatch_shown = False
        self._clearing = False  #: every pebble was taken off a game in play
        self._restore_only = False  #: restoring after a takeback: an empty board is no clearing
        self._gesture: HoldGesture | None = None  #: ... reading the confirmation gesture
        self._cleared = False  #: ... and a pebble held on the confirm point, then lifted
        self._confirm = 1 << board.index(confirm_point(board))
        self._belief = ColourBelief(game, reading.settled, colours)  #: (belief.py)
        self._status = Status(StatusKind.IDLE, str(game.turn), now)
        self.sync(now)

    # -- inputs ----------------------------------------------------------------------------
    def see(self, reading: Reading) -> None:
        """What the board reads now, when it changed while the tracker was not told (the
        menu was lit)."""
        self._seen = reading

    def sensed(self, edge: Edge, t: float, reading: Reading) -> None:
        """What one raw edge at `t` did to the sensing: `edge`, and the reading after it."""
        self._seen = reading
        if edge.faulty_now:
            self._set_status(self._status, t)
        if not edge.bit:
            return  # a faulty sensor: nothing waits on it
        if self._grow_until is not None and not edge.bit & self._grow_points:
            # The action waiting to grow did not: this is the next one beginning.
            self._grow_until = None
            self._early += self._evaluate(t, allow_grow=True)
        self._grow_until = None
        if self._gesture is not None:
            self._gesture.stir(reading.last_change)

    def step(self, now: float, changed: bool, recovered: bool, reading: Reading
             ) -> list[Action]:
        """Follow the game after sensing's tick at `now`: `changed`, the settled occupancy
        changed; `recovered`, a faulty sensor is read again; `reading`, the board's reading
        after it. Returns the actions committed (already pushed)."""
        self._seen = reading
        committed, self._early = self._early, []
        if recovered:
            self._set_status(self._status, now)
        if changed:
            committed += self._evaluate(now, allow_grow=False)
        if self._grow_until is not None and now >= self._grow_until:
            self._grow_until = None
            committed += self._evaluate(now, allow_grow=True)
        if (self._mismatch_since is not None and not self._mismatch_shown
                and now >= self._mismatch_since + self.settings.grace):
            self._mismatch_shown = True
            self._set_status(self._mismatch_status(MismatchReason.MISTAKE), now)
        if self._gesture is not None:
            armed, _ = self._gesture.tick(now, self._confirms)
            if armed:
                log.info("clearing: held long enough; lifting the pebble ends the game")
                self._set_status(self._clearing_status(), now)
        return committed

    def deadline(self) -> float | None:
        """When `step` next has something to do, or None when nothing is pending (the
        sensing's own deadline aside)."""
        times = []
        if self._grow_until is not None:
            times.append(self._grow_until)
        if self._mismatch_since is not None and not self._mismatch_shown:
            times.append(self._mismatch_since + self.settings.grace)
        due = self._gesture.deadline(self._confirms) if self._gesture is not None else None
        if due is not None:
            times.append(due)
        return min(times) if times else None

    def _confirms(self, point: str) -> bool:
        """A pebble held on `point` would confirm the clearing: it is the confirm point, its
        sensor is sound and nothing is still moving on the board."""
        return (point == self.game.board.points[self._confirm.bit_length() - 1]
                and not self._seen.faulty & self._confirm and self._seen.still)

    def sync(self, now: float, *, restore: bool = True, clearable: bool = True) -> None:
        """The game changed from outside (new game, takeback, resume): until the board
        matches it again, show what to fix and accept nothing. Not `clearable`: an empty
        board on the way is part of putting it right (a takeback asked for), not a
        clearing."""
        self._forced = ()
        self._restore = restore and self._seen.settled != self.game.occupancy
        self._restore_only = not clearable
        self._clearing = self._cleared = False
        self._gesture = None
        self._mismatch_since = None
        self._mismatch_shown = False
        self._grow_until = None
        self._evaluate(now, allow_grow=False, commit=False)

    def set_forced(self, actions: Sequence[Action], now: float) -> list[Action]:
        """Show these actions (the computer's turn) and accept nothing else until done.

        Returns actions committed at once (the hands may already have done them)."""
        actions = tuple(actions)
        if actions:
            probe = self.game.copy()
            for a in actions:
                if a not in probe.legal_actions():
                    raise ValueError(f"forced action {a.text} is not legal here")
                probe.push(a)
        self._forced = actions
        self._grow_until = None
        return self._evaluate(now, allow_grow=False)

    def set_hands(self, hands: Iterable[Side], now: float) -> None:
        self.hands = frozenset(hands)
        self._evaluate(now, allow_grow=False, commit=False)

    # -- outputs ---------------------------------------------------------------------------
    @property
    def status(self) -> Status:
        return self._status

    @property
    def colours(self) -> dict[str, Side | None]:
        """The colour each pebble on the board is believed to be (None: cannot tell)."""
        return self._belief.colours()

    @property
    def forced(self) -> tuple[Action, ...]:
        return self._forced

    @property
    def settled(self) -> frozenset[str]:
        """The settled observed occupancy, as point names."""
        return frozenset(self.game.board.names(self._seen.settled))

    @property
    def faulty(self) -> frozenset[str]:
        """Sensors ignored for chattering without end."""
        return frozenset(self.game.board.names(self._seen.faulty))

    @property
    def cleared(self) -> bool:
        """The board was cleared and the end of the game confirmed (a pebble held on the
        confirm point, then lifted): the owner ends the game; the tracker accepts nothing
        more for it."""
        return self._cleared

    def matches(self) -> bool:
        """The settled board equals the game's position."""
        return self._seen.settled == self.game.occupancy

    # -- matching --------------------------------------------------------------------------
    def _units(self) -> tuple[list[_Unit], list[_Unit]]:
        """(units that may complete now, units the board may be part-way through)."""
        game = self.game
        if game.outcome() is not None:
            return [], []
        if self._forced:
            exact = []
            probe = game.copy()
            done: list[Action] = []
            lift = reach = 0
            for a in self._forced:
                lift |= _lift(a)
                reach |= _reach(a)
                probe.push(a)
                done.append(a)
                exact.append(_Unit(tuple(done), probe.occupancy, lift, reach, probe.key))
            return exact, [exact[-1]]
        if game.turn not in self.hands:
            return [], []
        units = []
        occ = game.occupancy
        for a in game.legal_actions():
            game.push(a)
            key = game.key
            game.pop()
            units.append(_Unit((a,), (occ & ~a.empties) | a.fills, _lift(a), _reach(a), key))
        return units, units

    def _evaluate(self, now: float, *, allow_grow: bool, commit: bool = True) -> list[Action]:
        committed: list[Action] = []
        game = self.game
        while True:
            expected = game.occupancy
            observed = self._seen.settled
            self._belief.follow(observed)
            if game.outcome() is not None:
                self._clear_mismatch()
                self._set_status(plain_status(self.game, self._forced, StatusKind.OVER), now)
                break
            if self._clearing:
                assert self._gesture is not None
                self._gesture.see(frozenset(game.board.names(observed)), now, self._seen.last_change)
                if self._gesture.tick(now, self._confirms)[1] and not self._cleared:
                    log.info("clearing confirmed: the game ends")
                    self._cleared = True
                if observed != expected or self._cleared:
                    self._set_status(self._clearing_status(), now)
                    break
                self._clearing = False
                self._gesture = None
                log.info("the pebbles are back: the game goes on")
            elif (not observed and expected & (expected - 1) and game.history
                    and not (self._restore and self._restore_only)
                    and not self._mid_action(expected)):
                # Every pebble (two or more: one knocked off is a mishap) taken off a game
                # in play, and not as part of an action (a lone pebble's capture of the
                # last opposing ones, carried take-first): not a mistake to fix but maybe
                # the end of the game; ask for the confirmation gesture.
                self._clearing = True
                self._gesture = HoldGesture(self.settings.clear_hold, now=self._seen.last_change)
                self._restore = False
                self._grow_until = None
                self._clear_mismatch()
                log.info("the board was cleared")
                self._set_status(self._clearing_status(), now)
                break
            if self._restore:
                if observed == expected:
                    self._restore = False
                else:
                    self._set_status(self._mismatch_status(MismatchReason.RESTORE), now)
                    break
            if observed == expected:
                self._clear_mismatch()
                self._belief.matched(observed)
                self._set_status(self._matching_status(), now)
                break
            exact_units, partial_units = self._units()
            lifted = expected & ~observed
            placed = observed & ~expected
            consistent = [u for u in partial_units
                          if not lifted & ~u.lift and not placed & ~u.reach]
            exact = [u for u in exact_units if u.result == observed]
            if exact and commit:
                unit = exact[0]
                if len({u.key for u in exact}) > 1:
                    log.info("ambiguous: %s", " / ".join(_texts(u.actions) for u in exact))
                    self._set_status(self._progress_status(consistent, lifted, placed), now)
                    break
                grow_mask = self._grow_mask(unit, consistent)
                if grow_mask and not allow_grow:
                    self._grow_until = (self._seen.last_change + self.settings.settle
                                        + self.settings.grow)
                    self._grow_points = grow_mask
                    self._clear_mismatch()
                    self._set_status(self._progress_status(consistent, lifted, placed), now)
                    break
                self._push(unit.actions)
                committed += unit.actions
                continue
            if consistent:
                self._clear_mismatch()
                self._set_status(self._progress_status(consistent, lifted, placed), now)
                break
            prefix = self._prefix(exact_units, lifted, placed) if commit else None
            if prefix is not None:
                self._push(prefix)
                committed += prefix
                continue
            self._mismatch(now, lifted, placed)
            break
        if committed:
            log.info("committed %s", _texts(committed))
        return committed

    def _mid_action(self, expected: int) -> bool:
        """An empty board is part-way through an action the hands may do now: every
        pebble on the board is one the action lifts or takes."""
        return any(not expected & ~u.lift for u in self._units()[1])

    def _grow_mask(self, unit: _Unit, consistent: list[_Unit]) -> int:
        """Points whose change would show the action growing (0: it cannot grow): a
        flying pebble may be lifted again from where it landed; a capture chain that may
        go on has more pebbles to take and points to land on."""
        first = unit.actions[0]
        if len(unit.actions) != 1:
            return 0
        if _is_flight(self.game, first):
            return 1 << first.target
        mask = 0
        if first.kind == ActionKind.JUMP:
            for u in consistent:
                a = u.actions[0]
                if (len(u.actions) == 1 and a != first and a.kind == ActionKind.JUMP
                        and a.origin == first.origin and _diff_within(first, u)):
                    mask |= (a.empties | _reach(a)) & ~(first.empties | first.fills)
            if mask:
                mask |= 1 << first.target
        return mask

    def _prefix(self, units: list[_Unit], lifted: int, placed: int) -> tuple[Action, ...] | None:
        """An action the board shows done, with more going on after it that the next
        action explains: a placement that closed a mill and the taking already begun, or
        the computer's move done and the hand's own reply begun. Two sides' actions at once
        are a mistake unless the first was given (forced)."""
        game = self.game
        found: dict[int, tuple[Action, ...]] = {}
        for unit in units:
            empties = fills = 0
            for a in unit.actions:
                empties |= a.empties
                fills |= a.fills
            if not (empties or fills) or empties & ~lifted or fills & ~placed:
                continue
            forced = bool(self._forced)
            turn = game.turn
            for a in unit.actions:
                game.push(a)
            try:
                if not forced and game.turn != turn:
                    continue
                saved = self._forced
                self._forced = self._forced[len(unit.actions):] if forced else ()
                try:
                    exact, partial = self._units()
                finally:
                    self._forced = saved
                exp = game.occupancy
                lf, pl = exp & ~self._seen.settled, self._seen.settled & ~exp
                if any(u.result == self._seen.settled for u in exact) or any(
                        not lf & ~u.lift and not pl & ~u.reach for u in partial):
                    found.setdefault(game.key, unit.actions)
            finally:
                for _ in unit.actions:
                    game.pop()
        if len(found) == 1:
            return next(iter(found.values()))
        return None

    def _push(self, actions: tuple[Action, ...]) -> None:
        for a in actions:
            self.game.push(a)
        if self._forced:
            n = len(actions)
            if self._forced[:n] == actions:
                self._forced = self._forced[n:]
            else:
                self._forced = ()

    # -- statuses --------------------------------------------------------------------------
    def _set_status(self, status: Status, now: float) -> None:
        status = replace(status, faulty=self.game.board.names(self._seen.faulty))
        if not status.same_as(self._status):
            self._status = replace(status, since=now)

    def _clear_mismatch(self) -> None:
        self._mismatch_since = None
        self._mismatch_shown = False

    def _mismatch(self, now: float, lifted: int, placed: int) -> None:
        if self._mismatch_shown:
            self._set_status(self._mismatch_status(MismatchReason.MISTAKE), now)
            return
        if self._mismatch_since is None:
            self._mismatch_since = now
        # Within the grace period: show what is lifted and placed, nothing to fix yet.
        self._set_status(self._progress_status([], lifted, placed), now)

    def _matching_status(self) -> Status:
        return matching_status(self.game, self._forced, self.hands)

    def _progress_status(self, units: list[_Unit], lifted: int, placed: int) -> Status:
        return progress_status(self.game, self._forced, self._seen.settled,
                               [u.actions for u in units], lifted, placed)

    def _clearing_status(self) -> Status:
        return clearing_status(self.game, self._forced, self._seen.settled, self._confirm,
                               self.settings.clear_hold,
                               self._gesture is not None and bool(self._gesture.armed))

    def _mismatch_status(self, reason: MismatchReason) -> Status:
        return mismatch_status(self.game, self._forced, self._seen.settled,
                               self._belief.words(), reason)


def _lift(a: Action) -> int:
    """Points that may be empty while `a` is under way (the jumper's start included)."""
    return a.empties | (1 << a.origin if a.origin >= 0 else 0)


def _reach(a: Action) -> int:
    """Points that may be filled while `a` is under way (a chain's landings included)."""
    reach = a.fills
    for p in a.path:
        reach |= 1 << p
    return reach


def _diff_within(a: Action, bigger: _Unit) -> bool:
    """`a`'s change is part of a bigger action's (a chain that may go on)."""
    return not _lift(a) & ~bigger.lift and not _reach(a) & ~bigger.reach


def _is_flight(game: Game, a: Action) -> bool:
    return (a.kind == ActionKind.MOVE
            and not game.board.adjacency[a.origin] >> a.target & 1)


def _texts(actions: Sequence[Action]) -> str:
    return " ".join(a.text for a in actions)
