"""The turns answered off the board, as the daemon, the page and a far-away board hand them
in: the computer's choice, a remote player's move, the advice made for a hand side, the best
move asked for on the page.

The broker (`broker.py`) decides whether an answer still belongs to the game in play; this
module takes the answers in and puts them on the board through the session (`Board`): lit
for the hands to carry out, or shown with the status. The session holds one `Answers`
(`Session.answers`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from navakankari.engine.actions import Action
from navakankari.engine.advice import Advice, AdviceRequest
from navakankari.engine.game import Game, Side
from navakankari.hal.words import N_, Phrase

from .assist import Teacher
from .broker import ComputerRequest, TurnBroker
from .menu import Menu
from .players import PlayerSpec
from .status import Status
from .tracker import Tracker
from .update import Update
from .wording import side_phrase


class Board(Protocol):
    """What the answers need of the session: the game in play as the board follows it."""

    teacher: Teacher

    @property
    def tracker(self) -> Tracker: ...

    @property
    def menu(self) -> Menu | None: ...

    @property
    def game(self) -> Game: ...

    @property
    def players(self) -> dict[Side, PlayerSpec]: ...

    @property
    def status(self) -> Status: ...

    def hands(self) -> list[Side]: ...

    def notify(self, update: Update) -> None: ...

    def force(self, actions: tuple[Action, ...], now: float) -> None: ...

    def show_answer(self, now: float) -> bool: ...


class Answers:
    """The answers to one board's turns played off it, handed to its session."""

    def __init__(self, board: Board, broker: TurnBroker) -> None:
        self._board = board
        self._broker = broker

    # -- the computer's turn -----------------------------------------------------------------
    def computer_request(self) -> ComputerRequest | None:
        """The computer turn to choose now, if any (the same object until it is answered)."""
        board = self._board
        if board.menu is not None:
            return None
        return self._broker.computer_request(board.game, board.players, board.tracker.status)

    def still_due(self, request: ComputerRequest) -> bool:
        """Whether `request` is still the turn to answer: no action, takeback, new game or
        menu since. A board being put right meanwhile does not end it (its answer waits
        for the board to match)."""
        return self._broker.still_due(request)

    def offer(self, request: ComputerRequest, actions: Iterable[Action], now: float) -> bool:
        """The computer's choice for `request`; ignored (False) if the game moved on. If the
        board is being put right just then, the choice is shown once it matches again."""
        if not self._broker.offer(request, tuple(actions)):
            return False
        self._board.show_answer(now)
        return True

    def computer_failed(self, request: ComputerRequest, why: Phrase, now: float) -> None:
        """The player behind `request` gave no action: the problem is shown and the hands
        play that turn, as for a hand side (nothing of the game is lost); the computer is
        asked again for its next turn."""
        if not self._broker.failed(request, why):
            return
        board = self._board
        board.tracker.set_hands(board.hands(), now)
        board.notify(Update("problem", board.tracker.status, len(board.game.history)))

    # -- a remote player's move --------------------------------------------------------------
    def remote_move(self, text: str, now: float) -> tuple[Action, ...]:
        """A move from a remote player (notation, `a1-a4xd7` allowed): the board shows it
        and accepts only it (after a blunder's warning has been shown, as the computer's)."""
        board = self._board
        side = board.game.turn
        if board.menu is not None:
            raise ValueError(Phrase(N_("no game in play: the board shows its menu")))
        if not board.players[side].moves_arrive:
            raise ValueError(Phrase(N_("{side} is not a remote player"), side=side_phrase(side)))
        actions = tuple(board.game.parse_actions(text))
        if now < board.teacher.reply_due(board.game):
            self._broker.hold(actions)  # lit once the warning has been seen
            return actions
        board.force(actions, now)
        return actions

    def withdraw_remote(self, now: float) -> None:
        """The remote player's move lit (or kept behind a blunder's warning) is withdrawn:
        the two boards' games differ, so the hands here are shown nothing to carry out until
        the players agree how to go on (a takeback, or the end of the game)."""
        board = self._board
        if board.menu is not None or not board.players[board.game.turn].moves_arrive:
            return
        self._broker.drop()
        if board.tracker.forced:
            board.force((), now)

    # -- assistance (assist.py) --------------------------------------------------------------
    def advice_request(self) -> AdviceRequest | None:
        """The advice to make for the side to act now, if it gets help and none is made (the
        daemon makes it off its loop and hands it to `advise`)."""
        board = self._board
        if board.menu is not None:
            return None
        return self._broker.advice_request(board.game, board.players, board.tracker.status)

    def advise(self, advice: Advice, now: float) -> bool:
        """Advice made for a request; ignored (False) if the game moved on."""
        board = self._board
        if board.menu is not None or not board.teacher.take(advice, board.game):
            return False
        board.notify(Update("advice", board.status, len(board.game.history)))
        return True

    def request_hint(self, now: float) -> str:
        """The best move for the side to act, asked for on the page (assistance 4, a limited
        number each turn): lit on the board; the words say it, or why not."""
        board = self._board
        if board.menu is not None:
            return "no game in play: the board shows its menu"
        words = board.teacher.ask_hint(board.game, board.players)
        board.notify(Update("advice", board.status, len(board.game.history)))
        return words
