"""Turns answered off the board: the computer's choice, a remote player's move, advice.

Each is asked for on the game as it stands and answered later (a search in the daemon's
executor, a message from another board, a judgement in a worker process). The broker keeps
the game's `token`, which changes whenever the game moves on (an action, a takeback, a new
game, the menu), so an answer to a question no longer due is dropped; it holds an answer back
until the board matches the game and a blunder's warning has been seen (assist.REPLY_WAITS),
and remembers why a computer turn could not be chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from navakankari.engine.actions import Action
from navakankari.engine.advice import AdviceRequest
from navakankari.engine.game import Game, Side

from navakankari.hal.words import Phrase

from .assist import Teacher
from .players import PlayerSpec
from .status import Status, StatusKind


@dataclass(frozen=True, eq=False)
class ComputerRequest:
    """A computer turn to be chosen: on `game` (a private copy), valid while `token` is."""

    token: int
    game: Game
    side: Side
    level: int
    player: PlayerSpec | None = None  #: who answers (a computer level or an engine)
    seed: int | None = None  #: the game's seed, which the search's choices follow


class Wanted(NamedTuple):
    """What is to be asked now: the computer's turn (None while a failed one waits for the
    game to move on), the advice, and when an answer held back is to be lit."""

    computer: ComputerRequest | None
    advice: AdviceRequest | None
    answer_due: float | None


class TurnBroker:
    """The questions out and the answers in for one board's game."""

    def __init__(self, teacher: Teacher) -> None:
        self.teacher = teacher
        self.token = 0  #: changes whenever the game moves on
        self.seed: int | None = None  #: the seed of the game in play (None: unseeded)
        self._problem: tuple[int, Phrase] | None = None  #: (token, why) of a failed computer turn
        self._request: ComputerRequest | None = None
        self._answer: tuple[int, tuple[Action, ...]] | None = None

    def moved_on(self) -> None:
        """The game moved on: what was asked is no longer due."""
        self._request = None
        self.token += 1

    def forget_problem(self) -> None:
        """A failed computer turn belongs to the game where it failed: it is asked again."""
        self._problem = None

    def wanted(self, game: Game, players: dict[Side, PlayerSpec], status: Status) -> Wanted:
        """Everything to ask or light off the board for the game in play, with `status`
        the tracker's: one answer per turn of the loop."""
        computer = self.computer_request(game, players, status) if self.problem is None \
            else None
        return Wanted(computer, self.advice_request(game, players, status),
                      self.answer_due(game, status))

    # -- the computer ------------------------------------------------------------------------
    def computer_request(self, game: Game, players: dict[Side, PlayerSpec], status: Status
                         ) -> ComputerRequest | None:
        """The computer turn to choose now, if any (the same object until it is answered)."""
        if status.kind != StatusKind.THINKING:
            return None
        side = game.turn
        spec = players[side]
        if not spec.plays_itself:
            return None
        if self._request is None or self._request.token != self.token:
            self._request = ComputerRequest(self.token, game.copy(), side, spec.level, spec,
                                            self.seed)
        return self._request

    def still_due(self, request: ComputerRequest) -> bool:
        """Whether `request` is still the turn to answer (see `Answers.still_due`)."""
        return request.token == self.token

    @property
    def problem(self) -> Phrase | None:
        """Why the computer turn now due could not be chosen, if so (worded where shown)."""
        if self._problem is not None and self._problem[0] == self.token:
            return self._problem[1]
        return None

    def failed(self, request: ComputerRequest, why: Phrase) -> bool:
        """The player behind `request` gave no action; False if it is no longer due."""
        if request.token != self.token:
            return False
        self._problem = (request.token, why)
        return True

    # -- answers -----------------------------------------------------------------------------
    def offer(self, request: ComputerRequest, actions: tuple[Action, ...]) -> bool:
        """The computer's choice for `request`, kept until it can be lit; False if the game
        moved on."""
        if request.token != self.token:
            return False
        self._answer = (request.token, actions)
        return True

    def hold(self, actions: tuple[Action, ...]) -> None:
        """A remote player's move, kept until a blunder's warning has been seen."""
        self._answer = (self.token, actions)

    def drop(self) -> None:
        """The answer kept is not to be lit after all (a remote move withdrawn)."""
        self._answer = None

    def answer(self, game: Game, status: Status, now: float) -> tuple[Action, ...] | None:
        """The answer to light now, if one is kept and may be: the board matches the game
        (`status` THINKING) and any blunder's warning has been shown; it is given once."""
        if (self._answer is not None and self._answer[0] == self.token
                and status.kind == StatusKind.THINKING
                and now >= self.teacher.reply_due(game)):
            actions = self._answer[1]
            self._answer = None
            return actions
        return None

    def answer_due(self, game: Game, status: Status) -> float | None:
        """When an answer held back by a blunder's warning is to be lit (`answer`)."""
        if (self._answer is None or self._answer[0] != self.token
                or status.kind != StatusKind.THINKING):
            return None
        return self.teacher.reply_due(game) or None

    # -- advice ------------------------------------------------------------------------------
    def advice_request(self, game: Game, players: dict[Side, PlayerSpec], status: Status
                       ) -> AdviceRequest | None:
        """The advice to make for the side to act now, if it gets help and none is made."""
        if status.kind == StatusKind.EXECUTING and status.forced:
            # The computer's move is known while the hands carry it out: judge the position
            # after it now, so the help is lit as soon as the move is on the board.
            ahead = game.copy()
            for text in status.forced:  # the computer's own legal actions, in order
                ahead.push(ahead.parse(text))
            request = self.teacher.request(ahead, players)
            if request is not None:
                return request
        return self.teacher.request(game, players)
