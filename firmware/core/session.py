"""A game session: the game, its players, the tracker that follows the board, the store.

The session is pure (no threads, no I/O but the store, time passed in), so the daemon, the
replay command and the web companion drive the same object. The daemon hands it the sensor
events and the time once a turn (`turn`) and gets back everything it must do (`Turn`): the
computer's and the advice's requests (answered through `answers`, answers.py), the frame for
the LEDs, the next deadline; the web companion reads the game and the status, subscribes to
updates, and calls `new_game`, `takeback`, `answers.remote_move`. The game in play and its
stored copy are its keeper's (game_keeper.py).

Ordering that a power cut must not break: committed actions are written to the store (and
synced) inside `tick` before anyone is told, and the daemon renders the lights only after.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from navakankari.engine.actions import Action
from navakankari.engine.game import Game, Side
from navakankari.engine.presets import preset
from navakankari.engine.rules import Rules
from navakankari.engine.translator import Translator
from navakankari.hal.sensors import SensorEvent
from navakankari.firmware.i18n.catalogs import SOURCE, translations

from ..store.database import BoardEnding, Store, StoredGame
from . import lights, wording
from .assist import HINTS_PER_TURN, Teacher
from .board_settings import keep_brightness, keep_speech, kept_brightness, kept_speech
from .answers import Answers
from .broker import TurnBroker, Wanted
from .game_keeper import GameKeeper, default_players
from .language import keep_language, kept_language
from .menu import Chosen, GameChoice, Kind, Menu, MenuSettings
from .menu_host import MenuHost, start_points
from .players import PlayerSpec
from .sensing import Sensing
from .status import Status
from .tracker import Tracker, TrackerSettings
from .turn import Turn
from .update import Update as Update  # the subscribers' news (online/play.py reads it here)

log = logging.getLogger(__name__)

CLEARED = BoardEnding.CLEARED.value
"""The stored outcome's reason of a game ended by clearing the board."""

REVIEW_SECONDS = 120.0
"""The board lights a review's move this long after the page's last step, then the game's."""


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
        self.auto_new_game = auto_new_game
        self.menu_settings = menu
        self.online = online  #: the menu offers a player at another board
        self._host = MenuHost(menu, variants, online=online, seed=seed)  #: (menu_host.py)
        self.language = kept_language(store, language)  #: the board's language (language.py)
        self._speak(self.language)
        #: LED brightness chosen on the board (a fraction of the cap), kept in the store
        self.brightness = kept_brightness(store)
        #: spoken announcements turned on or off on the board or the page, kept in the store
        #: (None: never, the configuration decides)
        self.speech: bool | None = kept_speech(store)
        #: the game in play and its stored copy (game_keeper.py)
        self.keeper = GameKeeper(store, offered=self._host.offered, game_seeds=game_seeds)
        self._raw: set[str] = set(occupied)
        self._listeners: list[Callable[[Update], None]] = []
        self._broker = TurnBroker(self.teacher)  #: the computer's, remote and advice turns
        #: the answers to them, handed in by the daemon, the page, a far-away board
        self.answers = Answers(self, self._broker)
        #: A review on the page: the points its move lights, and until when (`show_review`)
        self._review: tuple[tuple[str, ...], float] | None = None
        stored = self.keeper.unfinished(rules, players, resume=resume, start_named=start_named)
        if stored is not None:
            self._resume(stored, now)
        elif menu is not None and not start_named:
            # "The same as last time" is the last game stored, if this board plays it; it is
            # loaded as it ended, so the menu's "take back" reopens it after a restart too.
            last = self.keeper.last_played(rules)
            if last is not None:
                self._load(last, now)
                log.info("game %d (%s), the last stored, is loaded as it stands: the menu's "
                         "take back reopens it", last.id, last.rules.name)
            else:
                self._start(rules, dict(players or default_players()), now, record=False)
            self._open_menu(now)
        else:
            self._start(rules, dict(players or default_players()), now)
        self._last_status = self.status

    # -- setting up --------------------------------------------------------------------------
    def _start(self, rules: Rules, players: dict[Side, PlayerSpec], now: float, *,
               record: bool = True, on_board: bool = False, first: Side = Side.WHITE,
               colours: Mapping[str, Side | None] | None = None) -> None:
        """A new game (`record`: kept in the store and logged; at start-up the menu's
        default is neither, as no game starts until the menu chooses one). `on_board`: chosen
        on the board's menu, so its recording starts with the menu's. `first`: the side that
        moves first (each side keeps its players; a game black begins starts from a position,
        which the store and the record keep). `colours`: the pebbles on the board, as
        `Tracker` takes them."""
        self.keeper.begin(rules, players, first)
        self._broker.seed = self.keeper.game_seed
        self._broker.forget_problem()  # a failed computer turn belongs to its game
        self.teacher.reset()
        menu_events, menu_start = self._host.events, self._host.start
        self._host.menu = None
        self._follow(now, colours)
        self._broker.moved_on()
        self.keeper.keep(now, record=record, menu_events=menu_events if on_board else None,
                         menu_start=menu_start if on_board else None, raw=self._raw)
        self._host.events = None
        if record:
            log.info("new game: %s, white %s, black %s, %s moves first", rules.name,
                     self.keeper.players[Side.WHITE], self.keeper.players[Side.BLACK], first)

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
    def choice(self) -> GameChoice:
        """The game in play as the menu chooses one: its variant, players and first side."""
        return self.keeper.choice

    def _follow(self, now: float, colours: Mapping[str, Side | None] | None = None) -> None:
        """Sensing and a tracker for the game now in play, from what the sensors read now."""
        self.sensing = Sensing(self.keeper.game.board, self.settings, occupied=self._raw, now=now)
        self.tracker = Tracker(self.keeper.game, self.sensing.reading(), settings=self.settings,
                               hands=self.hands(), now=now, colours=colours)

    def _resume(self, stored: StoredGame, now: float) -> None:
        self._load(stored, now)
        log.info("resumed game %d (%s) after %d actions", stored.id, stored.rules.name,
                 len(stored.actions))

    def _load(self, stored: StoredGame, now: float) -> None:
        """The stored game as it stands, its recording continued after its last event."""
        self.keeper.load(stored, now, self._raw)
        self._broker.seed = self.keeper.game_seed
        self.teacher.reset()
        self._follow(now)
        self._broker.moved_on()

    def hands(self, failed: bool | None = None) -> list[Side]:
        """The sides the hands play now: the hand sides, and a computer's side whose turn
        `failed` (None: whether it did; its player shows the problem; the hands play that
        turn, the computer the next)."""
        hands = [s for s, p in self.keeper.players.items() if p.kind == "hand"]
        if failed is None:
            failed = self.problem is not None
        if failed and self.keeper.game.turn not in hands:
            hands.append(self.keeper.game.turn)
        return hands

    # -- the board ---------------------------------------------------------------------------
    def feed(self, event: SensorEvent) -> None:
        """A raw sensor edge (in the loop's thread)."""
        (self._raw.add if event.present else self._raw.discard)(event.point)
        if self._review is not None:  # a hand on the board: the board is the game's again
            self.show_review(event.t, None)
        edge = self.sensing.feed(event)
        if edge is not None and self.menu is None:
            self.tracker.sensed(edge, event.t, self.sensing.reading())
        if self._host.events is not None:
            events = self._host.events
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
            tracked = self.tracker.status
            wanted = self._broker.wanted(self.keeper.game, self.keeper.players, tracked)
            status = self._compose(tracked)
        else:
            wanted = Wanted(None, None, None)
            status = self.status
        return Turn(
            committed=tuple(a.text for a in committed),
            token=self._broker.token,
            computer=wanted.computer,
            advice=wanted.advice,
            frame=lights.render(self.keeper.game, status, now),
            frame_change=lights.next_change(self.keeper.game, status, now),
            brightness=self.brightness,
            deadline=self._deadline(wanted.answer_due),
            unwritten=self.events_pending,
        )

    def tick(self, now: float) -> list[Action]:
        """Let time pass; returns the actions committed (already stored).

        One way through: sensing settles the raw edges first, and its reading goes to
        whichever is active, the menu or the tracker (which follows the game and the clearing
        gesture); the session then stores what the tracker committed, and the status and
        lights are computed from the result."""
        sensed = self.sensing.tick(now)
        if self._review is not None and now >= self._review[1]:
            self.show_review(now, None)
        if self.menu is not None:
            self._menu_tick(now, any(sensed))
            return []
        committed = self.tracker.step(now, *sensed, self.sensing.reading())
        if committed:
            self._committed(committed, now)
        if self.tracker.cleared:
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
            self._open_menu(now)
        else:
            self.new_game(now, players=players)

    def deadline(self) -> float | None:
        """When the session next has something to do by itself (None: nothing pending)."""
        if self.menu is not None:
            return self._deadline(None)
        return self._deadline(self._broker.answer_due(self.keeper.game, self.tracker.status))

    def _deadline(self, answer_due: float | None) -> float | None:
        """`deadline`, with `answer_due` the broker's (`TurnBroker.answer_due`)."""
        if self.menu is not None:
            times = [t for t in (self.sensing.deadline(), self._host.deadline()) if t is not None]
        else:
            times = [t for t in (self.sensing.deadline(), self.tracker.deadline(), answer_due,
                                 self.teacher.deadline()) if t is not None]
        if self._review is not None:
            times.append(self._review[1])
        return min(times) if times else None

    def show_review(self, now: float, points: Sequence[str] | None) -> None:
        """The page steps through a game: the board lights only `points` (the move the
        review shows, on this board; none at the start), for REVIEW_SECONDS after each step;
        None ends it. A hand on the board ends it too, so play never meets its lights."""
        board = self.keeper.game.board
        shown = None if points is None else tuple(p for p in points if p in board.points)
        review = None if shown is None else (shown, now + REVIEW_SECONDS)
        if (self._review is None) != (review is None) or (
                review is not None and self._review is not None and self._review[0] != shown):
            log.info("review lights: %s", "off" if shown is None else " ".join(shown) or "none")
            self._review = review
            self.notify(Update("status", self.status, len(self.keeper.game.history)))
        self._review = review

    # -- the menu ----------------------------------------------------------------------------
    @property
    def menu(self) -> Menu | None:
        """The board's menu, while it is lit (no game in play then)."""
        return self._host.menu

    def variants(self) -> tuple[str, ...]:
        """The variants the menu offers."""
        return self._host.variants(self.keeper.game)

    def _open_menu(self, now: float) -> None:
        """No game in play: the board shows the menu and the tracker accepts nothing."""
        assert self.menu_settings is not None
        self.flush_events()  # the last game's recording ends here
        self.tracker.set_hands((), now)
        self._host.open(self.keeper.game, self.keeper.choice,
                        self.sensing.names(self.sensing.settled), self._raw, now)
        self._broker.moved_on()
        self._menu_changed(now, "menu")

    def _menu_tick(self, now: float, sensed: bool = True) -> None:
        """`sensed`: the settled reading changed (or a faulty sensor is read again)."""
        if self._host.still(now, sensed):
            return
        chosen = self._host.read(self.sensing.names(self.sensing.settled),
                                 self.sensing.last_change, now, auto_new_game=self.auto_new_game)
        if chosen is None:
            self._menu_changed(now, "status")
            return
        self._carry_out(chosen, now)

    def _carry_out(self, chosen: Chosen, now: float) -> None:
        if chosen.kind == Kind.BRIGHTNESS_VALUE:
            self.brightness = keep_brightness(self.store, chosen.brightness)
            self._menu_changed(now, "brightness")
        elif chosen.kind == Kind.SPEECH:
            self._keep_speech(chosen.speech)
            self._menu_changed(now, "speech")
        elif chosen.kind == Kind.LANGUAGE:
            self.set_language(chosen.language, now)
        elif chosen.kind == Kind.TAKEBACK:
            self.takeback_turn(now)
        else:
            game = chosen.game
            assert game is not None
            self._new_game(now, preset(game.variant),
                           {Side.WHITE: PlayerSpec.parse(game.white, "white"),
                            Side.BLACK: PlayerSpec.parse(game.black, "black")}, on_board=True,
                           first=Side.BLACK if game.first == "black" else Side.WHITE)

    def set_speech(self, on: bool) -> None:
        """Turn spoken announcements on or off (the page; the menu has its own choice)."""
        self._keep_speech(on)
        self.notify(Update("speech", self.status, len(self.keeper.game.history)))

    def _keep_speech(self, on: bool) -> None:
        self.speech = keep_speech(self.store, on)

    @property
    def tr(self) -> Translator:
        """The board's language's words (the catalogs')."""
        return translations(self.language)

    def _speak(self, code: str) -> None:
        self.language = code
        self.teacher.tr = self._host.tr = self.tr
        self._host.language = code
        if self.menu is not None:
            self.menu.tr, self.menu.language = self.tr, code

    def set_language(self, code: str, now: float) -> None:
        """Speak `code` from now on, and keep it (UnknownLanguage if the board does not)."""
        self._speak(keep_language(self.store, code))
        log.info("language %s", code)
        if self.menu is not None:
            self._menu_changed(now, "language")
        else:
            self.notify(Update("language", self.status, len(self.keeper.game.history)))

    def _menu_changed(self, now: float, reason: str) -> None:
        status = self._host.changed(now, str(self.keeper.game.turn),
                                    self.keeper.game.board.names(self.sensing.faulty))
        if status is not None:
            self.notify(Update(reason, status, len(self.keeper.game.history)))

    def _committed(self, actions: list[Action], now: float) -> None:
        self.teacher.committed(self.keeper.game, actions, self.keeper.players, now)
        self.keeper.committed(actions)
        self._broker.moved_on()
        if self.problem is None:
            hands = self.hands(failed=False)
            if set(self.tracker.hands) != set(hands):
                self.tracker.set_hands(hands, now)  # a failed computer's turn is played
        self.notify(Update("actions", self.tracker.status, len(self.keeper.game.history),
                           tuple(a.text for a in actions)))

    def _after(self, now: float) -> None:
        """New game by setting up the start position once a game is over; tell the
        subscribers when the status changed."""
        if (self.menu_settings is not None and self.keeper.game.outcome() is not None
                and not self.sensing.settled):
            self._open_menu(now)
            return
        if (self.auto_new_game and self.keeper.game.outcome() is not None
                and self.sensing.names(self.sensing.settled) == self._start_points()):
            self.new_game(now)
            return
        undo = self.teacher.undo_wanted(self.sensing.names(self.sensing.settled), self.keeper.game)
        if undo is not None:  # a blunder's pebbles put back as they were: take it back
            log.info("the blunder's pebbles are back: taken back to ply %d", undo)
            self.takeback_to(now, undo)
            return
        tracked = self.tracker.status
        if self.show_answer(now, tracked):
            tracked = self.tracker.status
        if tracked is not self._last_status:
            self._last_status = tracked
            self.teacher.watch(tracked, self.keeper.game, self.keeper.players, now)
            self.notify(Update("status", self._compose(tracked), len(self.keeper.game.history)))
        elif self.teacher.expire(now):  # a pebble lifted to ask, kept up too long
            self.notify(Update("status", self._compose(tracked), len(self.keeper.game.history)))

    def _start_points(self) -> frozenset[str]:
        return start_points(self.keeper.rules)

    # -- control (the web companion, the CLI) ------------------------------------------------
    def new_game(self, now: float, rules: Rules | None = None,
                 players: Mapping[Side, PlayerSpec] | None = None,
                 first: Side | None = None) -> None:
        """Start a game; the board is guided to the start position first. `first`: the side
        that moves first; by default white, or for the same game again (neither `rules` nor
        `players` given) the side that moved first in the game in play."""
        if first is None:
            first = self.keeper.first if rules is None and players is None else Side.WHITE
        self._new_game(now, rules or self.keeper.rules, dict(players or self.keeper.players), first=first)

    def _new_game(self, now: float, rules: Rules, players: Mapping[Side, PlayerSpec], *,
                  on_board: bool = False, first: Side = Side.WHITE) -> None:
        if self.store is not None and self.game_id is not None:
            self.flush_events()
        # The pebbles of a game in play stay where they stood: the new game's way to its start
        # names their colours (not after the end of a game or the menu, when hands moved
        # pebbles the way back never asked for).
        playing = self.menu is None and self.keeper.game.outcome() is None
        colours = self.tracker.colours if playing else None
        self._start(rules, dict(players), now, on_board=on_board, first=first, colours=colours)
        self._last_status = self.tracker.status
        self.notify(Update("new-game", self.tracker.status, 0))

    def takeback(self, now: float, plies: int = 1) -> None:
        """Take back the last `plies` actions; the board is guided back."""
        self.takeback_to(now, max(0, len(self.keeper.game.history) - plies))

    def takeback_turn(self, now: float) -> None:
        """Undo the last turn a hand side played, and whatever the computer (or a remote
        player) answered since: back to where a hand was last to act."""
        self.takeback_to(now, self.hand_turn_start())

    def hand_turn_start(self) -> int:
        """The ply where a hand side last began its turn (0 if none has played)."""
        return self.keeper.hand_turn_start()

    def takeback_to(self, now: float, ply: int) -> None:
        """Go back to the position after `ply` actions (0: the start)."""
        if not 0 <= ply <= len(self.keeper.game.history):
            raise ValueError(f"ply must be 0..{len(self.keeper.game.history)}, not {ply}")
        if self.menu is not None:  # the last game, reopened
            self._host.close()
            self.tracker.see(self.sensing.reading())
            self.tracker.set_hands(self.hands(), now)
        self._broker.forget_problem()  # the game moves on: the computer is asked again
        self.keeper.takeback_to(ply)
        self.teacher.reset()
        self.tracker.sync(now, clearable=False)
        self._broker.moved_on()
        self._last_status = self.tracker.status
        self.notify(Update("takeback", self.tracker.status, ply))

    def set_players(self, now: float, players: Mapping[Side, PlayerSpec]) -> None:
        self._broker.forget_problem()
        self.keeper.set_players(players)
        if self.menu is None:
            self.tracker.set_hands(self.hands(), now)
        self._broker.moved_on()
        self.notify(Update("players", self.tracker.status, len(self.keeper.game.history)))

    # -- the answers (answers.py) -----------------------------------------------------------
    @property
    def problem(self) -> str | None:
        """Why the computer turn now due could not be chosen (an engine that failed), if so;
        gone once the game moves on (a takeback, a new game, other players)."""
        return self._broker.problem

    def show_answer(self, now: float, tracked: Status | None = None) -> bool:
        """The answer (the computer's, a remote player's) is lit once the board matches the
        game, and not before a blunder's warning has been shown (assist.REPLY_WAITS): the
        warning and the reply never light the board together. `tracked`: the tracker's
        status, when the caller has it. Returns whether it was lit."""
        actions = self._broker.answer(self.keeper.game, tracked or self.tracker.status, now)
        if actions is None:
            return False
        self.force(actions, now)
        return True

    def force(self, actions: tuple[Action, ...], now: float) -> None:
        """Light `actions` (the computer's, a remote player's; none: nothing) as the only
        ones the hands may carry out; committed at once if the board already shows them."""
        committed = self.tracker.set_forced(actions, now)
        self.notify(Update("forced", self.tracker.status, len(self.keeper.game.history),
                           tuple(a.text for a in actions)))
        if committed:
            self._committed(committed, now)
        self._after(now)

    # -- reading -----------------------------------------------------------------------------
    @property
    def status(self) -> Status:
        """The tracker's status, with the side to act's assistance added (or the menu's)."""
        if self.menu is not None and self._host.status is not None:
            return self._reviewed(self._host.status)
        return self._compose(self.tracker.status)

    def _compose(self, tracked: Status) -> Status:
        """The status shown, from the tracker's: the one place where the parts meet (the
        menu's status while it is lit is its host's)."""
        if self.menu is not None:
            return tracked
        if tracked.forced and self.keeper.players[self.keeper.game.turn].kind == "online":
            tracked = replace(tracked, remote=True)  # lit in the far-away player's colour
        return self._reviewed(self.teacher.decorate(tracked, self.keeper.game, self.keeper.players))

    def _reviewed(self, status: Status) -> Status:
        """`status` with the review's move while the page reviews a game (`show_review`)."""
        return status if self._review is None else replace(status, review=self._review[0])

    @property
    def settled(self) -> frozenset[str]:
        """The points the board reads a pebble on, settled (the menu's as the game's)."""
        return self.sensing.names(self.sensing.settled)

    @property
    def game_id(self) -> int | None:
        """The stored game in play (None: not kept, or the menu's default before a choice)."""
        return self.keeper.game_id

    def record(self) -> str:
        return self.keeper.game.record()

    def menu_facts(self, tr: Translator | None = None) -> dict[str, str] | None:
        """While the menu is lit, no game is in play: its step and the choices made so far,
        in words (`tr`'s, else the board's language), for a page to show instead of the last
        game's variant and players."""
        if self.menu is None:
            return None
        return wording.menu_facts(self.menu.step_name, self.menu.so_far(), tr or self.tr)

    def frame(self, now: float) -> dict[str, tuple[int, int, int]]:
        return lights.render(self.keeper.game, self.status, now)

    def next_frame_change(self, now: float) -> float | None:
        return lights.next_change(self.keeper.game, self.status, now)

    def subscribe(self, callback: Callable[[Update], None]) -> Callable[[], None]:
        """Call `callback(update)` after every change; returns a function that unsubscribes.
        Callbacks run in the loop's thread and must not block."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def notify(self, update: Update) -> None:
        """Tell every subscriber (`subscribe`) of a change."""
        for callback in list(self._listeners):
            try:
                callback(update)
            except Exception:  # one bad subscriber must not stop the board
                log.exception("subscriber failed")

    # -- housekeeping ------------------------------------------------------------------------
    @property
    def events_pending(self) -> bool:
        """Raw events wait to be written (the daemon flushes them every few seconds)."""
        return self.keeper.pending

    def flush_events(self) -> None:
        """Write buffered raw events (the daemon calls this every few seconds and on exit)."""
        self.keeper.flush()

    def close(self) -> None:
        self.flush_events()
