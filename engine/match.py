"""Matches between players: N games, seeded so a run repeats, with think-time figures.

Each game starts with a few random actions (from the match's seed) so that two players
that never choose at random still play different games.
"""

from __future__ import annotations

import logging
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .game import Game, Outcome, Reason, Side, new_game
from .player import ChoosesActions, make_player
from .presets import preset

log = logging.getLogger(__name__)

#: A game still running after this many actions is scored a draw (the rules' own draw
#: rules end real games long before).
MAX_ACTIONS = 1000


@dataclass(frozen=True)
class GameResult:
    outcome: Outcome
    actions: int
    record: str


@dataclass(frozen=True)
class ThinkTimes:
    """Seconds per action of one side over a match."""

    samples: tuple[float, ...]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.samples) if self.samples else 0.0

    @property
    def median(self) -> float:
        return statistics.median(self.samples) if self.samples else 0.0

    @property
    def max(self) -> float:
        return max(self.samples, default=0.0)


@dataclass(frozen=True)
class MatchResult:
    variant: str
    white: str
    black: str
    games: tuple[GameResult, ...]
    times: tuple[ThinkTimes, ThinkTimes]
    reasons: dict[str, int] = field(default_factory=dict)

    def count(self, winner: Side | None) -> int:
        return sum(1 for g in self.games if g.outcome.winner == winner)

    @property
    def white_wins(self) -> int:
        return self.count(Side.WHITE)

    @property
    def black_wins(self) -> int:
        return self.count(Side.BLACK)

    @property
    def draws(self) -> int:
        return self.count(None)

    def summary(self) -> str:
        """The last line of a match report, always in this form."""
        return f"white {self.white_wins} draws {self.draws} black {self.black_wins}"


def play_game(game: Game, white: ChoosesActions, black: ChoosesActions,
              rng: random.Random, opening_actions: int = 2,
              clock: Callable[[], float] = time.perf_counter,
              times: tuple[list[float], list[float]] | None = None) -> GameResult:
    """Play one game to its end (the game is changed); think times go into `times`."""
    players = (white, black)
    for p in players:
        reset = getattr(p, "new_game", None)
        if reset is not None:
            reset()
    for _ in range(opening_actions):
        actions = game.legal_actions()
        if not actions:
            break
        game.push(rng.choice(actions))
    while len(game.history) < MAX_ACTIONS:
        if not game.legal_actions():
            break
        side = game.turn
        start = clock()
        action = players[side].choose(game)
        if times is not None:
            times[side].append(clock() - start)
        game.push(action)
    outcome = game.outcome() or Outcome(None, Reason.ACTION_LIMIT)
    return GameResult(outcome, len(game.history), game.record())


def run_match(variant: str, white: str, black: str, games: int, seed: int = 0,
              opening_actions: int = 2, budget_scale: float = 1.0,
              on_game: Callable[[int, int, GameResult], None] | None = None) -> MatchResult:
    """Play `games` games of `variant` between two player specs (see make_player)."""
    rules = preset(variant)
    rng = random.Random(seed)
    w = make_player(white, seed=rng.getrandbits(32), budget_scale=budget_scale)
    b = make_player(black, seed=rng.getrandbits(32), budget_scale=budget_scale)
    times: tuple[list[float], list[float]] = ([], [])
    results: list[GameResult] = []
    reasons: dict[str, int] = {}
    for n in range(games):
        result = play_game(new_game(rules), w, b, random.Random(rng.getrandbits(32)),
                           opening_actions, times=times)
        results.append(result)
        reasons[result.outcome.reason] = reasons.get(result.outcome.reason, 0) + 1
        log.debug("game %d: %s after %d actions", n + 1, result.outcome, result.actions)
        if on_game is not None:
            on_game(n + 1, games, result)
    return MatchResult(variant, white, black, tuple(results),
                       (ThinkTimes(tuple(times[0])), ThinkTimes(tuple(times[1]))), reasons)
