"""What the parts of one board's session share: the game in play (its keeper), what the
sensors read (sensing) and the tracker following the game on it, the last status told, the
review's lights, the menu's host, and the subscribers told of every change.

The session (session.py) runs the board's turn over it; its game starts and takebacks
(game_start.py) and the menu's dispatch (menu_dispatch.py) put the board on a game or on the
menu through it. None of them owns the others' state: each holds this one object.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from navakankari.engine.game import Side
from navakankari.hal.words import Phrase

from .assist import Teacher
from .broker import TurnBroker
from .game_keeper import GameKeeper
from .menu import Menu
from .menu_host import MenuHost
from .sensing import Sensing
from .status import Status
from .tracker import Tracker, TrackerSettings
from .update import Update

log = logging.getLogger(__name__)

REVIEW_SECONDS = 120.0
"""The board lights a review's move this long after the page's last step, then the game's."""


class BoardState:
    """One board's game as its hands and sensors follow it, shared by the session's parts."""

    def __init__(self, settings: TrackerSettings, keeper: GameKeeper, teacher: Teacher,
                 broker: TurnBroker, host: MenuHost, occupied: Iterable[str]) -> None:
        """`occupied`: the points the sensors read a pebble on at start-up."""
        self.settings = settings
        self.keeper = keeper  #: the game in play and its stored copy (game_keeper.py)
        self.teacher = teacher  #: each hand side's assistance (assist.py)
        self.broker = broker  #: the computer's, remote and advice turns (broker.py)
        self.host = host  #: the menu, while it is lit (menu_host.py)
        self.raw: set[str] = set(occupied)  #: what the sensors read, unsettled
        self.sensing: Sensing  #: set by `follow`
        self.tracker: Tracker  #: set by `follow`
        self.last_status: Status | None = None  #: the tracker's status last told
        #: A review on the page: the points its move lights, and until when (`show_review`)
        self.review: tuple[tuple[str, ...], float] | None = None
        self._listeners: list[Callable[[Update], None]] = []
        self._at_once: list[Callable[[Update], None]] = []  #: told even before the store
        #: updates waiting for the store's writes, each with the write it waits for
        self._held: list[tuple[int, Update]] = []

    def follow(self, now: float, colours: Mapping[str, Side | None] | None = None) -> None:
        """Sensing and a tracker for the game now in play, from what the sensors read now."""
        self.sensing = Sensing(self.keeper.game.board, self.settings, occupied=self.raw, now=now)
        self.tracker = Tracker(self.keeper.game, self.sensing.reading(), settings=self.settings,
                               hands=self.hands(), now=now, colours=colours)

    @property
    def menu(self) -> Menu | None:
        """The board's menu, while it is lit (no game in play then)."""
        return self.host.menu

    @property
    def problem(self) -> Phrase | None:
        """Why the computer turn now due could not be chosen (an engine that failed), if so;
        gone once the game moves on (a takeback, a new game, other players)."""
        return self.broker.problem

    @property
    def settled(self) -> frozenset[str]:
        """The points the board reads a pebble on, settled (the menu's as the game's)."""
        return self.sensing.names(self.sensing.settled)

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

    # -- the status shown --------------------------------------------------------------------
    @property
    def status(self) -> Status:
        """The tracker's status, with the side to act's assistance added (or the menu's)."""
        if self.menu is not None and self.host.status is not None:
            return self.reviewed(self.host.status)
        return self.compose(self.tracker.status)

    def compose(self, tracked: Status) -> Status:
        """The status shown, from the tracker's: the one place where the parts meet (the
        menu's status while it is lit is its host's)."""
        if self.menu is not None:
            return tracked
        if tracked.forced and self.keeper.players[self.keeper.game.turn].kind == "online":
            tracked = replace(tracked, remote=True)  # lit in the far-away player's colour
        return self.reviewed(self.teacher.decorate(tracked, self.keeper.game, self.keeper.players))

    def reviewed(self, status: Status) -> Status:
        """`status` with the review's move while the page reviews a game (`show_review`)."""
        return status if self.review is None else replace(status, review=self.review[0])

    def show_review(self, now: float, points: Sequence[str] | None) -> None:
        """The page steps through a game: the board lights only `points` (the move the
        review shows, on this board; none at the start), for REVIEW_SECONDS after each step;
        None ends it. A hand on the board ends it too, so play never meets its lights."""
        board = self.keeper.game.board
        shown = None if points is None else tuple(p for p in points if p in board.points)
        review = None if shown is None else (shown, now + REVIEW_SECONDS)
        if (self.review is None) != (review is None) or (
                review is not None and self.review is not None and self.review[0] != shown):
            log.info("review lights: %s", "off" if shown is None else " ".join(shown) or "none")
            self.review = review
            self.notify(Update("status", self.status, len(self.keeper.game.history)))
        self.review = review

    def deadline(self, answer_due: float | None) -> float | None:
        """When the board next has something to do by itself, with `answer_due` the
        broker's (`TurnBroker.answer_due`); None: nothing pending."""
        if self.menu is not None:
            times = [t for t in (self.sensing.deadline(), self.host.deadline()) if t is not None]
        else:
            times = [t for t in (self.sensing.deadline(), self.tracker.deadline(), answer_due,
                                 self.teacher.deadline()) if t is not None]
        if self.review is not None:
            times.append(self.review[1])
        return min(times) if times else None

    # -- the subscribers ---------------------------------------------------------------------
    def subscribe(self, callback: Callable[[Update], None], *, at_once: bool = False
                  ) -> Callable[[], None]:
        """Call `callback(update)` after every change; returns a function that unsubscribes.
        Callbacks run in the loop's thread and must not block. A change is told once the
        store has written it (a store writing behind: `release`), so no one acknowledges an
        action a power cut could still lose; `at_once`: told at once (the loop's wake-up,
        which acknowledges nothing)."""
        listeners = self._at_once if at_once else self._listeners
        listeners.append(callback)
        return lambda: listeners.remove(callback) if callback in listeners else None

    def notify(self, update: Update) -> None:
        """Tell every subscriber (`subscribe`) of a change, once the writes asked for so far
        are done."""
        self._tell(update, self._at_once)
        self.release()
        store = self.keeper.store
        if store is not None and store.writing:
            self._held.append((store.queued, update))
        else:
            self._tell(update, self._listeners)

    def release(self) -> None:
        """Tell the subscribers the changes whose writes are done, in order."""
        store = self.keeper.store
        while self._held and (store is None or self._held[0][0] <= store.written):
            self._tell(self._held.pop(0)[1], self._listeners)

    @staticmethod
    def _tell(update: Update, listeners: list[Callable[[Update], None]]) -> None:
        for callback in list(listeners):
            try:
                callback(update)
            except Exception:  # one bad subscriber must not stop the board
                log.exception("subscriber failed")
