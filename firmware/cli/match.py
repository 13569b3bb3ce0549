"""Matches between players: N games, seeded so a run repeats, with think-time figures.

Each game starts with a few random actions (from the match's seed) so that two players
that never choose at random still play different games; with `swap`, each opening is
played twice, the players changing colours, so neither gets the better openings.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from navakankari.engine.actions import Action, ActionKind
from navakankari.engine.external import start_and_moves
from navakankari.engine.game import Game, Outcome, Reason, Side
from navakankari.engine.player import ChoosesActions, close_player
from navakankari.engine.player_spec import make_player
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game, start_game

log = logging.getLogger(__name__)

#: A game still running after this many actions is scored a draw (the rules' own draw
#: rules end real games long before).
MAX_ACTIONS = 1000


@dataclass(frozen=True)
class GameResult:
    outcome: Outcome
    actions: int
    record: str
    swapped: bool = False  #: the match's black player had white in this game
    opening: int = 0  #: how many of the first actions were random
    #: How each engine player sees the end ("engine:PATH over"), see EnginePlayer.ending.
    engine_views: tuple[str, ...] = ()
    #: Running mills closed by white and by black (`running_mills`).
    running: tuple[int, int] = (0, 0)

    @property
    def engines_agree(self) -> bool:
        """Every engine player sees the game over as our rules do (a win: it sees the game
        over; a draw: over, or it claims the draw)."""
        ok = ("over",) if self.outcome.winner is not None else ("over", "draw")
        return all(view.rpartition(" ")[2] in ok for view in self.engine_views)

    def winner_player(self) -> int | None:
        """0 for the match's white player, 1 for its black player, None for a draw."""
        winner = self.outcome.winner
        return None if winner is None else int(winner) ^ int(self.swapped)

    def running_of(self, player: int) -> int:
        """Running mills closed by the match's white (0) or black (1) player in this game."""
        return self.running[player ^ int(self.swapped)]


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

    def count(self, player: int | None) -> int:
        """Wins of the match's white (0) or black (1) player, whatever colour they had;
        None counts draws."""
        return sum(1 for g in self.games if g.winner_player() == player)

    def by_colour(self, player: int, colour: Side) -> tuple[int, int, int]:
        """Wins, draws and losses of a player in the games it played with `colour`."""
        games = [g for g in self.games if int(colour) == player ^ int(g.swapped)]
        wins = sum(1 for g in games if g.winner_player() == player)
        draws = sum(1 for g in games if g.outcome.winner is None)
        return wins, draws, len(games) - wins - draws

    @property
    def white_wins(self) -> int:
        return self.count(0)

    @property
    def black_wins(self) -> int:
        return self.count(1)

    @property
    def draws(self) -> int:
        return self.count(None)

    def running(self, player: int) -> tuple[int, int]:
        """Running mills the match's white (0) or black (1) player closed, and in how many
        games."""
        counts = [g.running_of(player) for g in self.games]
        return sum(counts), sum(1 for n in counts if n)

    def summary(self) -> str:
        """The last line of a match report, always in this form (white and black are the
        match's players, who change colours between games when the match swaps them)."""
        return f"white {self.white_wins} draws {self.draws} black {self.black_wins}"


@dataclass(frozen=True)
class RunningMill:
    """One running mill closed in a game: the action's index in the history, the side that
    closed it and the mill (its board mask)."""

    ply: int
    side: int
    mill: int


def closed_running_mill(game: Game, action: Action, side: int,
                        before: tuple[int, int] | None) -> int | None:
    """The mill `action`, a move `side` has just played in `game`, closed by stepping back to
    the point its move `before` (origin, target) left, or None: a running mill, the opponent
    having no pebble next to that point to stop it."""
    if before != (action.target, action.origin) or not game.pending_removals \
            or int(game.turn) != side:
        return None
    own = game.pieces(side)
    return next(m for m in game.board.mill_masks if m >> action.target & 1 and own & m == m)


def running_mill_closes(game: Game) -> list[RunningMill]:
    """Every running mill closed in `game` (`closed_running_mill`)."""
    replay = start_game(game.rules, start_and_moves(game)[0])
    last: list[tuple[int, int] | None] = [None, None]
    closes: list[RunningMill] = []
    for ply, action in enumerate(game.history):
        side = int(replay.turn)
        replay.push(action)
        if action.kind is ActionKind.MOVE:
            mill = closed_running_mill(replay, action, side, last[side])
            if mill is not None:
                closes.append(RunningMill(ply, side, mill))
            last[side] = (action.origin, action.target)
    return closes


def running_mills(game: Game) -> tuple[int, int]:
    """How often white and black closed a running mill in `game` (`running_mill_closes`)."""
    closes = running_mill_closes(game)
    return (sum(1 for c in closes if c.side == 0), sum(1 for c in closes if c.side == 1))


def start_players(players: Iterable[object]) -> None:
    """A new game for each player that keeps something between actions (`new_game`)."""
    for p in players:
        reset = getattr(p, "new_game", None)
        if reset is not None:
            reset()


def play_game(game: Game, white: ChoosesActions, black: ChoosesActions,
              rng: random.Random, opening_actions: int = 2,
              clock: Callable[[], float] = time.perf_counter,
              times: tuple[list[float], list[float]] | None = None) -> GameResult:
    """Play one game to its end (the game is changed); think times go into `times`."""
    players = (white, black)
    start_players(players)
    for _ in range(opening_actions):
        actions = game.legal_actions()
        if not actions:
            break
        game.push(rng.choice(actions))
    opening = len(game.history)
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
    views = tuple(f"{p.name} {p.ending(game)}" for p in players  # type: ignore[attr-defined]
                  if getattr(p, "ending", None) is not None
                  and outcome.reason is not Reason.ACTION_LIMIT)
    return GameResult(outcome, len(game.history), game.record(), opening=opening,
                      engine_views=views, running=running_mills(game))


def run_match(variant: str, white: str, black: str, games: int, seed: int = 0,
              opening_actions: int = 2, budget_scale: float = 1.0,
              on_game: Callable[[int, int, GameResult], None] | None = None,
              movetime: float | None = None, swap: bool = False) -> MatchResult:
    """Play `games` games of `variant` between two player specs (see make_player).

    `movetime` gives both players the same seconds per action; with `swap` every second
    game repeats the previous game's opening with the players' colours exchanged. Think
    times are per player. A player with a `close()` (an engine process) is closed at the
    end, also when an error stops the match.
    """
    rules = preset(variant)
    rng = random.Random(seed)
    players = [make_player(spec, seed=rng.getrandbits(32), budget_scale=budget_scale,
                           movetime=movetime) for spec in (white, black)]
    times: tuple[list[float], list[float]] = ([], [])
    results: list[GameResult] = []
    reasons: dict[str, int] = {}
    opening_seed = 0
    try:
        for n in range(games):
            swapped = swap and n % 2 == 1
            if not swapped:
                opening_seed = rng.getrandbits(32)
            w, b = players[::-1] if swapped else players
            colour_times = times[::-1] if swapped else times
            result = play_game(new_game(rules), w, b, random.Random(opening_seed),
                               opening_actions, times=colour_times)
            result = dataclasses.replace(result, swapped=swapped)
            results.append(result)
            reasons[result.outcome.reason.value] = reasons.get(result.outcome.reason.value, 0) + 1
            log.debug("game %d: %s after %d actions", n + 1, result.outcome, result.actions)
            if on_game is not None:
                on_game(n + 1, games, result)
    finally:
        for player in players:
            close_player(player)
    return MatchResult(variant, white, black, tuple(results),
                       (ThinkTimes(tuple(times[0])), ThinkTimes(tuple(times[1]))), reasons)
