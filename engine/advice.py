"""Advice on one position for the side to act, made off the board's loop.

The judging (hint.py) takes a search's time, so the board's software asks for advice on a
position (`AdviceRequest`), has an `Advisor` make it elsewhere (a worker process), and takes
the answer if the game is still there. What it holds grows with the assistance `level`: the
opponent's threats, and from QUALITY up every action judged, with the reason for each
blunder.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import GameOverError
from .game import Game, Side
from .hint import MAX_DEPTH, Blunder, Judge, Judgement, Threats, blunder, threats
from .hint_words import blunder_words
from .rules import Rules
from .translator import ENGLISH, Translator
from .variants import game_from_position

QUALITY = 3
"""The assistance level from which every action is judged (and the threats searched deep)."""


@dataclass(frozen=True)
class Advice:
    """What the board can show about one position (`ply`, `key`) for the side to act."""

    ply: int
    key: int
    side: Side
    level: int
    judgement: Judgement | None = None  #: level 3 and up
    threats: Threats | None = None  #: level 2 and up (deep from level 3)
    reasons: tuple[tuple[str, Blunder], ...] = ()  #: (action, why it is a blunder), level 3 up

    def reason(self, action: str, tr: Translator = ENGLISH) -> str | None:
        """Why `action` is a blunder, in words (in `tr`'s language); None when it is not."""
        b = dict(self.reasons).get(action)
        return None if b is None else blunder_words(b.action, b.cause, b.quality, b.better, tr)


@dataclass(frozen=True, eq=False)
class AdviceRequest:
    """Advice to make on `game` (a private copy) for a side at assistance `level`."""

    ply: int
    key: int
    game: Game
    level: int


class Advisor:
    """Makes advice (in the daemon's executor) with the judgement `navakankari hint` makes:
    the same budget in search nodes and a table cleared for each position, so the advice on a
    position is the same however busy the machine and whatever was judged before. One
    request at a time."""

    def __init__(self, budget: int | None = None, max_depth: int = MAX_DEPTH) -> None:
        self.budget = budget
        self.max_depth = max_depth
        self.judge = Judge()

    def advise(self, request: AdviceRequest) -> Advice:
        game = request.game
        side = game.turn
        if game.outcome() is not None:
            return Advice(request.ply, request.key, side, request.level)
        seen = threats(game, deep=request.level >= QUALITY)
        if request.level < QUALITY:
            return Advice(request.ply, request.key, side, request.level, threats=seen)
        try:
            judgement = self.judge.judge(game, budget=self.budget, max_depth=self.max_depth)
        except GameOverError:
            return Advice(request.ply, request.key, side, request.level, threats=seen)
        reasons = []
        for v in judgement.verdicts:
            warning = blunder(game, v.action, judgement)
            if warning is not None:
                reasons.append((v.action, warning))
        return Advice(request.ply, request.key, side, request.level, judgement, seen,
                      tuple(reasons))


def advise(request: AdviceRequest, budget: int | None = None,
           max_depth: int = MAX_DEPTH) -> Advice:
    """Advice with a fresh advisor (tests, replays): the same as any advisor's."""
    return Advisor(budget, max_depth).advise(request)


_worker: Advisor | None = None


def advise_position(rules: Rules, position: str, ply: int, key: int, level: int,
                    budget: int | None = None) -> Advice:
    """Advice on a position given as its string: what a worker process runs (plain,
    picklable arguments), with one advisor per process (only its engine is kept: each
    judgement clears the table)."""
    global _worker
    if _worker is None or _worker.budget != budget:
        _worker = Advisor(budget)
    game = game_from_position(rules, position)
    return _worker.advise(AdviceRequest(ply, key, game, level))
