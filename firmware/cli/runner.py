"""How often a person who runs a mill gets to run it against a computer level.

The scripted opponent plays as a person who found the pattern: once a mill of its own stands
with a pebble that can step out where no opposing pebble can step (or fly) into the point it
leaves, it steps out, and next turn steps back and takes a pebble, again and again. Otherwise
it plays a shallow search (level 3's best actions to 3 plies by default: a level 2 search
seldom builds a mill it can run), with an evaluation that weighs no runnable mills, so the
person stays the same while the computer's evaluation, depths and margins change. Over N games (colours
alternating, each game opened with two random actions from the seed) it counts its wins,
draws and losses, the running mills it closed (`match.running_mills`), in how many games,
and the most in one game.

`navakankari bench runner` runs 20 games against the default level (`DEFENDER`); run the
module for other counts, defenders and seeds: `python -m navakankari.firmware.cli.runner
--games 60 --seed 11 --defender computer:3`; `python -m navakankari.firmware.cli.runner_check`
plays the runs' positions again with a deeper defender.
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from navakankari.engine.actions import Action, ActionKind
from navakankari.engine.evaluate import MorrisEvaluator, MorrisWeights
from navakankari.engine.game import Game
from navakankari.engine.player import DEFAULT_LEVEL, ChoosesActions, Player, close_player
from navakankari.engine.player_spec import make_player
from navakankari.engine.presets import preset
from navakankari.engine.rules import Rules
from navakankari.engine.search import Searcher
from navakankari.engine.variants import new_game

from .match import GameResult, play_game


def _steps_out(game: Game, action: Action) -> bool:
    """Whether `action` steps a pebble out of a closed mill of the mover to a point from which
    it can step back, and no opposing action next turn fills the point it left."""
    if action.kind is not ActionKind.MOVE or action.origin not in _in_own_mills(game):
        return False
    side = game.turn
    game.push(action)
    try:
        if game.turn == side or game.is_over():
            return False
        return all(a.target != action.origin for a in game.legal_actions())
    finally:
        game.pop()


def _in_own_mills(game: Game) -> set[int]:
    """The points of the side to act's closed mills."""
    own = game.pieces(int(game.turn))
    return {p for m in game.board.mill_masks if (own & m) == m
            for p in range(game.board.size) if m >> p & 1}


def _closes(game: Game, action: Action) -> bool:
    side = game.turn
    game.push(action)
    try:
        return game.turn == side and game.pending_removals > 0
    finally:
        game.pop()


#: The runner's own search weighs no runnable mills: the person stays the same whatever the
#: computer's evaluation learns (its other actions are the search with these weights).
PERSON_WEIGHTS = MorrisWeights(runnable_own=0, runnable_opp=0)

#: The deepest the runner's own search looks: 3 plies, level 3's depth when the runner was
#: first measured, so the person stays the same when the levels' depths change.
PERSON_DEPTH = 3

#: Whom the runner plays unless told: the default opponent, a bare `computer`.
DEFENDER = f"computer:{DEFAULT_LEVEL}"

#: The runner's own search plays one of its best actions (level 3 had no margin when the
#: runner was first measured): the person stays the same when a level's margin changes.
PERSON_MARGIN = 0


class MillRunner:
    """The person who runs a mill: step out of a mill the opponent cannot block, step back
    in and take, repeat; a search at `level` with `weights` (in Python), to the level's depth
    cap or `depth` plies if that is less, choosing among the actions within `margin` of the
    best, for every other action."""

    def __init__(self, level: int = 3, seed: int | None = None,
                 weights: MorrisWeights = PERSON_WEIGHTS, depth: int = PERSON_DEPTH,
                 margin: int = PERSON_MARGIN) -> None:
        self.name = "mill runner"
        self.fallback = Player(level, seed=seed, budget_scale=100.0)  # to its depth cap
        cap = self.fallback.level.max_depth
        self.fallback.level = replace(self.fallback.level, max_depth=min(cap, depth),
                                      margin=margin)
        self.weights = weights
        self._rules: Rules | None = None
        self.rng = random.Random(seed)
        self._out: tuple[int, int, int] | None = None  # (origin, target, actions then)

    def new_game(self) -> None:
        self.fallback.new_game()
        self._out = None

    def choose(self, game: Game, stop: threading.Event | None = None) -> Action:
        if game.rules != self._rules:
            self._rules = game.rules
            self.fallback.searcher = Searcher(MorrisEvaluator(game.rules, self.weights),
                                              native=False)
        out, self._out = self._out, None
        if not game.pending_removals:
            moves = [a for a in game.legal_actions() if a.kind is ActionKind.MOVE]
            if out is not None and out[2] < len(game.history):
                back = [a for a in moves if (a.origin, a.target) == (out[1], out[0])]
                if back and _closes(game, back[0]):
                    return back[0]
            runs = [a for a in moves if _steps_out(game, a)]
            if runs:
                action = self.rng.choice(runs)
                self._out = (action.origin, action.target, len(game.history) + 1)
                return action
        return self.fallback.choose(game, stop)


@dataclass(frozen=True)
class RunnerResult:
    games: tuple[GameResult, ...]
    runner_colours: tuple[int, ...]  #: the runner's colour (0 white) in each game
    seconds: tuple[float, ...]  #: the defender's think times

    def runner_running(self) -> list[int]:
        return [g.running[c] for g, c in zip(self.games, self.runner_colours)]

    def report(self, defender: str) -> list[str]:
        wins = sum(1 for g, c in zip(self.games, self.runner_colours)
                   if g.outcome.winner is not None and int(g.outcome.winner) == c)
        draws = sum(1 for g in self.games if g.outcome.winner is None)
        losses = len(self.games) - wins - draws
        running = self.runner_running()
        secs = sorted(self.seconds)
        p50 = secs[len(secs) // 2] * 1000 if secs else 0.0
        top = secs[-1] * 1000 if secs else 0.0
        return [
            f"mill runner against {defender}, {len(self.games)} games: runner {wins} wins, "
            f"{draws} draws, {losses} losses "
            f"({(wins + draws / 2) / max(1, len(self.games)) * 100:.1f} % for the runner)",
            f"running mills closed by the runner: {sum(running)} in "
            f"{sum(1 for n in running if n)} games, at most {max(running, default=0)} in one",
            f"{defender} think time: median {p50:.1f} ms, max {top:.1f} ms "
            f"({len(secs)} actions)",
        ]


def run_runner(defender: str = DEFENDER, games: int = 20, seed: int = 7,
               variant: str = "navakankari", runner_level: int = 3,
               on_game: Callable[[int, GameResult], None] | None = None) -> RunnerResult:
    """Play `games` games of the mill runner against `defender` (a player spec)."""
    rules = preset(variant)
    rng = random.Random(seed)
    runner = MillRunner(runner_level, seed=rng.getrandbits(32))
    other: ChoosesActions = make_player(defender, seed=rng.getrandbits(32))
    results: list[GameResult] = []
    colours: list[int] = []
    times: tuple[list[float], list[float]] = ([], [])
    try:
        for n in range(games):
            colour = n % 2
            players = (runner, other) if colour == 0 else (other, runner)
            spent: tuple[list[float], list[float]] = ([], [])
            result = play_game(new_game(rules), players[0], players[1],
                               random.Random(rng.getrandbits(32)), times=spent,
                               clock=time.perf_counter)
            times[1].extend(spent[colour ^ 1])
            results.append(result)
            colours.append(colour)
            if on_game is not None:
                on_game(n + 1, result)
    finally:
        close_player(other)
    return RunnerResult(tuple(results), tuple(colours), tuple(times[1]))


def run(out: Callable[[str], None] = print, quick: bool = False) -> None:
    """The bench section: 20 games (6 when quick) against the default level."""
    for line in run_runner(games=6 if quick else 20).report(DEFENDER):
        out(line)


def runner_arguments(description: str) -> argparse.ArgumentParser:
    """The options of a run of the runner's games (this module's and runner_check's)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--defender", default=DEFENDER, help=f"player spec (default {DEFENDER})")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--variant", default="navakankari")
    return p


def main(argv: list[str] | None = None) -> int:
    p = runner_arguments(__doc__.splitlines()[0])
    p.add_argument("--runner-level", type=int, default=3,
                   help="the runner's search level for its other actions (default 3)")
    args = p.parse_args(argv)
    result = run_runner(args.defender, args.games, args.seed, args.variant, args.runner_level)
    for line in result.report(args.defender):
        print(line, flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
