"""A game session: the board's game followed once a turn, its parts coordinated.

The session is pure (no threads, no I/O but the store, time passed in), so the daemon, the
replay command and the web companion drive the same object. The daemon hands it the sensor
events and the time once a turn (`turn`) and gets back everything it must do (`Turn`): the
computer's and the advice's requests (answered through `answers`, answers.py), the frame for
the LEDs, the next deadline; the web companion reads the game and the status, subscribes to
updates, and calls `new_game`, `takeback`, `answers.remote_move`. Its parts share one
`BoardState` (board_state.py: sensing, the tracker, the last status, the game's keeper):
game starts and takebacks are `starts`' (game_start.py), the menu and the board's settings
`dispatch`'s (menu_dispatch.py); the session runs the turn between them.

Ordering that a power cut must not break: committed actions are written to the store (and
synced) before anyone is told, and the daemon renders the lights only after. A store writing
behind (the daemon's) writes in its own thread: the subscribers are told once it has
(`BoardState.release`), and the daemon waits for it before it lights the turn.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from navakankari.engine.actions import Action
from navakankari.engine.game import Game, Side
from navakankari.engine.rules import Rules
from navakankari.hal.sensors import SensorEvent
from navakankari.hal.words import Phrase
from navakankari.firmware.i18n.catalogs import SOURCE

from ..store.database import BoardEnding, Store
from . import lights
from .answers import Answers
from .assist import HINTS_PER_TURN, Teacher
from .board_state import REVIEW_SECONDS as REVIEW_SECONDS  # (the tests read it here)
from .board_state import BoardState
from .broker import TurnBroker, Wanted
from .game_keeper import GameKeeper
from .game_start import GameStart
from .menu import Menu, MenuSettings
from .menu_dispatch import MenuDispatch
from .menu_host import MenuHost, start_points
from .players import PlayerSpec
from .status import Status
from .tracker import Tracker, TrackerSettings
from .turn import Turn
from .update import Update as Update  # the subscribers' news (online/play.py reads it here)

log = logging.getLogger(__name__)

CLEARED = BoardEnding.CLEARED.value
"""The stored outcome's reason of a game ended by clearing the board."""


class Session:
    """One board's game: follow the hands, ask the computer, keep the record."""

    def __init__(
        self,
        rules: Rules,
        players: Mapping[Side, PlayerSpec] | None = None,
        *,
        settings: TrackerSettings = TrackerSettings(),
        store: Store | None = None,
        occupied: Iterable[str] = (),
        now: float = 0.0,
        auto_new_game: bool = True,
        resume: bool = True,
        menu: MenuSettings | None = None,
        variants: Sequence[str] | None = None,
        seed: int = 0,
        online: bool = False,
        hints_per_turn: int = HINTS_PER_TURN,
        start_named: bool = False,
        language: str = SOURCE,
        game_seeds: Callable[[], int] | None = None,
    ) -> None:
        """`menu`: show the board's menu whenever no game is in play (at start-up with
        nothing to resume, after a game ends and the board is emptied, after the clear-board
        gesture); `variants` are the ones it offers (default: those played on the start
        variant's board). A toss is decided by `seed` and the time of the last sensor edge
        since the menu opened, so a recording replays to the same toss. `start_named`: the
        game `rules` and `players` name was asked for by name (the simulator's command
        line): it starts at once, without the menu, unless the unfinished game in the store
        is that game, which is resumed. `language`: the one spoken unless another was
        chosen on the board or the page (kept in the store). `game_seeds` gives each new
        game the seed its search follows, kept in the store and its record (default: at
        random)."""
        self.settings = settings
        self.store = store
        self.teacher = Teacher(hints_per_turn)  #: each hand side's assistance (assist.py)
        self.menu_settings = menu
        host = MenuHost(menu, variants, online=online, seed=seed)  #: (menu_host.py)
        #: the game in play and its stored copy (game_keeper.py)
        self.keeper = GameKeeper(store, offered=host.offered, game_seeds=game_seeds)
        self._broker = TurnBroker(self.teacher)  #: the computer's, remote and advice turns
        #: what the parts share: sensing, the tracker, the last status (board_state.py)
        self.state = BoardState(settings, self.keeper, self.teacher, self._broker, host, occupied)
        self.starts = GameStart(self.state)  #: new games and takebacks (game_start.py)
        #: the menu, its choices and the board's settings (menu_dispatch.py)
        self.dispatch = MenuDispatch(self.state, self.starts, store, settings=menu,
                                     auto_new_game=auto_new_game, language=language)
        #: the answers to them, handed in by the daemon, the page, a far-away board
        self.answers = Answers(self, self._broker)
        if self.starts.at_start_up(rules, players, now, resume=resume, menu=menu is not None,
                                   start_named=start_named):
            self.dispatch.open(now)
        self.state.last_status = self.status

    # the game in play, as the keeper holds it
    @property
    def game(self) -> Game:
        return self.keeper.game

    @property
    def rules(self) -> Rules:
        return self.keeper.rules

    @property
    def players(self) -> dict[Side, PlayerSpec]:
        return self.keeper.players

    @property
    def start(self) -> str | None:
        """The game's start position (None: the variant's own)."""
        return self.keeper.start

    @property
    def game_seed(self) -> int | None:
        """The seed the game in play's search follows."""
        return self.keeper.game_seed

    @property
    def adaptive_level(self) -> int | None:
        """The level the adaptive computer plays at in the game in play; None without one."""
        return self.keeper.adaptive_level

    @property
    def first(self) -> Side:
        """The side that moved first in the game in play."""
        return self.keeper.first

    @property
    def tracker(self) -> Tracker:
        """The tracker following the game in play on the board (the state's)."""
        return self.state.tracker

    def hands(self, failed: bool | None = None) -> list[Side]:
        """The sides the hands play now (`BoardState.hands`)."""
        return self.state.hands(failed)

    # -- the board ---------------------------------------------------------------------------
    def feed(self, event: SensorEvent) -> None:
        """A raw sensor edge (in the loop's thread)."""
        state = self.state
        (state.raw.add if event.present else state.raw.discard)(event.point)
        if state.review is not None:  # a hand on the board: the board is the game's again
            state.show_review(event.t, None)
        edge = state.sensing.feed(event)
        if edge is not None and self.menu is None:
            state.tracker.sensed(edge, event.t, state.sensing.reading())
        if state.host.events is not None:
            events = state.host.events
            events.pending.append((round(event.t - events.t0, 6), event.point, event.present))
        else:
            self.keeper.record(event)

    def turn(self, events: Iterable[SensorEvent], now: float) -> Turn:
        """One turn of the daemon's loop: the raw sensor edges since the last one, then the
        time; returns everything the loop must do (`Turn`)."""
        for event in events:
            self.feed(event)
        committed = self.tick(now)
        if self.menu is None:
            tracked = self.state.tracker.status
            wanted = self._broker.wanted(self.keeper.game, self.keeper.players, tracked)
            status = self.state.compose(tracked)
        else:
            wanted = Wanted(None, None, None)
            status = self.status
        return Turn(
            committed=tuple(a.text for a in committed),
            token=self._broker.token,
            computer=wanted.computer,
            advice=wanted.advice,
            frame=lights.render(self.keeper.game, status, now),
            status=status,
            game=self.keeper.game,
            frame_change=lights.next_change(self.keeper.game, status, now),
            brightness=self.dispatch.brightness,
            deadline=self.state.deadline(wanted.answer_due),
            unwritten=self.keeper.pending,
        )

    def tick(self, now: float) -> list[Action]:
        """Let time pass; returns the actions committed (already stored).

        One way through: sensing settles the raw edges first, and its reading goes to
        whichever is active, the menu or the tracker (which follows the game and the clearing
        gesture); the session then stores what the tracker committed, and the status and
        lights are computed from the result."""
        state = self.state
        sensed = state.sensing.tick(now)
        if state.review is not None and now >= state.review[1]:
            state.show_review(now, None)
        if self.menu is not None:
            self.dispatch.tick(now, any(sensed))
            return []
        committed = state.tracker.step(now, *sensed, state.sensing.reading())
        if committed:
            self._committed(committed, now)
        if state.tracker.cleared:
            self._end_cleared(now)
            return committed
        self._after(now)
        return committed

    def _end_cleared(self, now: float) -> None:
        """The board was cleared and the hands confirmed: the game ends."""
        self.end_game(now, BoardEnding.CLEARED.outcome(), "the board was cleared")

    def end_game(self, now: float, outcome: dict[str, Any], why: str,
                 players: Mapping[Side, PlayerSpec] | None = None) -> None:
        """End the game in play by something outside its rules (the board cleared, a player
        far away resigned): stored as such, so a restart does not resume it. The menu opens;
        without one a new game with the same rules (and `players`, else the same) starts,
        played once its start position is set up (at once on an empty morris board)."""
        log.info("game %s ended: %s", self.game_id, why)
        self.keeper.finish(outcome)
        if self.menu_settings is not None:
            self.dispatch.open(now)
        else:
            self.new_game(now, players=players)

    def deadline(self) -> float | None:
        """When the session next has something to do by itself (None: nothing pending)."""
        return self.state.deadline(None if self.menu is not None else self._broker.answer_due(
            self.keeper.game, self.state.tracker.status))

    def show_review(self, now: float, points: Sequence[str] | None) -> None:
        """The page steps through a game (`BoardState.show_review`)."""
        self.state.show_review(now, points)

    def _committed(self, actions: list[Action], now: float) -> None:
        tracker = self.state.tracker
        self.teacher.committed(self.keeper.game, actions, self.keeper.players, now)
        self.keeper.committed(actions)
        self._broker.moved_on()
        if self._broker.problem is None:
            hands = self.state.hands(failed=False)
            if set(tracker.hands) != set(hands):
                tracker.set_hands(hands, now)  # a failed computer's turn is played
        self.state.notify(Update("actions", tracker.status, len(self.keeper.game.history),
                                 tuple(a.text for a in actions)))

    def _after(self, now: float) -> None:
        """New game by setting up the start position once a game is over; tell the
        subscribers when the status changed."""
        state = self.state
        if (self.menu_settings is not None and self.keeper.game.outcome() is not None
                and not state.sensing.settled):
            self.dispatch.open(now)
            return
        if (self.dispatch.auto_new_game and self.keeper.game.outcome() is not None
                and state.settled == start_points(self.keeper.rules)):
            self.new_game(now)
            return
        undo = self.teacher.undo_wanted(state.settled, self.keeper.game)
        if undo is not None:  # a blunder's pebbles put back as they were: take it back
            log.info("the blunder's pebbles are back: taken back to ply %d", undo)
            self.takeback_to(now, undo)
            return
        tracked = state.tracker.status
        if self.show_answer(now, tracked):
            tracked = state.tracker.status
        if tracked is not state.last_status:
            state.last_status = tracked
            self.teacher.watch(tracked, self.keeper.game, self.keeper.players, now)
            state.notify(Update("status", state.compose(tracked), len(self.keeper.game.history)))
        elif self.teacher.expire(now):  # a pebble lifted to ask, kept up too long
            state.notify(Update("status", state.compose(tracked), len(self.keeper.game.history)))

    # -- the menu and the board's settings (menu_dispatch.py) --------------------------------
    @property
    def menu(self) -> Menu | None:
        """The board's menu, while it is lit (no game in play then)."""
        return self.state.host.menu

    @property
    def brightness(self) -> float:
        """LED brightness chosen on the board (a fraction of the cap), kept in the store."""
        return self.dispatch.brightness

    @property
    def speech(self) -> bool | None:
        """Speech turned on or off on the board or the page (None: as configured), kept."""
        return self.dispatch.speech

    @property
    def language(self) -> str:
        """The board's language (language.py)."""
        return self.dispatch.language

    # -- control (the web companion, the CLI; game_start.py) ---------------------------------
    def new_game(self, now: float, rules: Rules | None = None,
                 players: Mapping[Side, PlayerSpec] | None = None,
                 first: Side | None = None) -> None:
        """Start a game; the board is guided to the start position first (`GameStart`)."""
        self.starts.new_game(now, rules, players, first)

    def takeback(self, now: float, plies: int = 1) -> None:
        """Take back the last `plies` actions; the board is guided back."""
        self.starts.takeback(now, plies)

    def takeback_turn(self, now: float) -> None:
        """Back to where a hand was last to act (`GameStart.takeback_turn`)."""
        self.starts.takeback_turn(now)

    def hand_turn_start(self) -> int:
        """The ply where a hand side last began its turn (0 if none has played)."""
        return self.keeper.hand_turn_start()

    def takeback_to(self, now: float, ply: int) -> None:
        """Go back to the position after `ply` actions (0: the start)."""
        self.starts.takeback_to(now, ply)

    def set_players(self, now: float, players: Mapping[Side, PlayerSpec]) -> None:
        """Other players for the game in play."""
        self.starts.set_players(now, players)

    # -- the answers (answers.py) -----------------------------------------------------------
    @property
    def problem(self) -> Phrase | None:
        """Why the computer turn now due could not be chosen (an engine that failed), if so;
        gone once the game moves on (a takeback, a new game, other players)."""
        return self._broker.problem

    def show_answer(self, now: float, tracked: Status | None = None) -> bool:
        """The answer (the computer's, a remote player's) is lit once the board matches the
        game, and not before a blunder's warning has been shown (assist.REPLY_WAITS): the
        warning and the reply never light the board together. `tracked`: the tracker's
        status, when the caller has it. Returns whether it was lit."""
        actions = self._broker.answer(self.keeper.game, tracked or self.state.tracker.status,
                                      now)
        if actions is None:
            return False
        self.force(actions, now)
        return True

    def force(self, actions: tuple[Action, ...], now: float) -> None:
        """Light `actions` (the computer's, a remote player's; none: nothing) as the only
        ones the hands may carry out; committed at once if the board already shows them."""
        tracker = self.state.tracker
        committed = tracker.set_forced(actions, now)
        self.state.notify(Update("forced", tracker.status, len(self.keeper.game.history),
                                 tuple(a.text for a in actions)))
        if committed:
            self._committed(committed, now)
        self._after(now)

    # -- reading -----------------------------------------------------------------------------
    @property
    def status(self) -> Status:
        """The tracker's status, with the side to act's assistance added (or the menu's)."""
        return self.state.status

    @property
    def settled(self) -> frozenset[str]:
        """The points the board reads a pebble on, settled (the menu's as the game's)."""
        return self.state.settled

    @property
    def game_id(self) -> int | None:
        """The stored game in play (None: not kept, or the menu's default before a choice)."""
        return self.keeper.game_id

    def record(self) -> str:
        return self.keeper.game.record()

    def frame(self, now: float) -> dict[str, tuple[int, int, int]]:
        return lights.render(self.keeper.game, self.status, now)

    def next_frame_change(self, now: float) -> float | None:
        return lights.next_change(self.keeper.game, self.status, now)

    def subscribe(self, callback: Callable[[Update], None], *, at_once: bool = False
                  ) -> Callable[[], None]:
        """Call `callback(update)` after every change, once stored (`BoardState.subscribe`)."""
        return self.state.subscribe(callback, at_once=at_once)

    def notify(self, update: Update) -> None:
        """Tell every subscriber (`subscribe`) of a change."""
        self.state.notify(update)

    # -- housekeeping ------------------------------------------------------------------------
    def flush_events(self) -> None:
        """Write buffered raw events (the daemon calls this every few seconds and on exit)."""
        self.keeper.flush()

    def close(self) -> None:
        self.flush_events()
