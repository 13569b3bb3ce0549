"""Would a deeper search have kept the mill runner from its running mills?

An independent check of a level's play against the mill runner (runner.py). Two kinds of
position from the runner's games are played again, each against fresh runners (one per
runner seed), once with a defender searching `depth` plies without a time limit and once with
the level itself:

- every mill the runner runs a second time in a game, from the defender's turn after the
  first run's take: when the deeper defender runs into the same mill again too, the repeat
  was forced by then and no better reply at that point would have stopped it;
- each game's first running mill, from the defender's turn `back` of its moves before the
  close: when the deeper defender keeps every running mill away from there and the level
  does not, the level's play lost what a deeper search would have kept.

`python -m navakankari.firmware.cli.runner_check --games 60 --seed 11 --depth 8` prints both
after the runner's report.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from navakankari.engine.actions import Action, ActionKind
from navakankari.engine.game import Game
from navakankari.engine.player import MAX_LEVEL, ChoosesActions, Player, close_player
from navakankari.engine.player_spec import make_player
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game

from .match import RunningMill, closed_running_mill, running_mill_closes, start_players
from .runner import DEFENDER, MillRunner, RunnerResult, runner_arguments, run_runner

#: Actions played on from each position: long enough for a step out and back in twice.
PLIES = 12
#: The runner seeds each position is played with (the runner chooses among its step outs).
RUNNER_SEEDS = 3


@dataclass(frozen=True)
class Replays:
    """How many of one check's positions let a running mill through for all, some or none
    of the runner seeds."""

    all: int = 0
    some: int = 0
    none: int = 0

    def add(self, through: int, seeds: int) -> Replays:
        if through == seeds:
            return dataclasses.replace(self, all=self.all + 1)
        if through:
            return dataclasses.replace(self, some=self.some + 1)
        return dataclasses.replace(self, none=self.none + 1)

    @property
    def positions(self) -> int:
        return self.all + self.some + self.none

    def text(self) -> str:
        return (f"through for every runner seed in {self.all}, for some in {self.some}, "
                f"for none in {self.none}")


@dataclass(frozen=True)
class CheckResult:
    repeats_deep: Replays
    repeats_level: Replays
    firsts_deep: Replays
    firsts_level: Replays

    def report(self, depth: int, defender: str, back: int) -> list[str]:
        return [
            f"second runs of one mill: {self.repeats_deep.positions}, played again from the "
            f"defender's turn after the first run's take ({PLIES} actions, "
            f"{RUNNER_SEEDS} runner seeds)",
            f"  a {depth}-ply defender: {self.repeats_deep.text()}",
            f"  {defender}: {self.repeats_level.text()}",
            f"first running mills: {self.firsts_deep.positions}, played again from the "
            f"defender's turn {back} of its moves before the close (any running mill counts)",
            f"  a {depth}-ply defender: {self.firsts_deep.text()}",
            f"  {defender}: {self.firsts_level.text()}",
        ]


def deep_defender(depth: int, seed: int) -> Player:
    """A defender searching `depth` plies whatever the time: the top level, capped."""
    player = Player(MAX_LEVEL, seed=seed, budget_scale=1e6)
    player.level = dataclasses.replace(player.level, max_depth=depth)
    return player


def runs_again(game: Game, runner_side: int, defender: ChoosesActions, runner: MillRunner,
               mill: int | None, plies: int = PLIES) -> bool:
    """Play `plies` actions on from `game` (changed): whether the runner closes a running
    mill (`mill`, or any when None)."""
    start_players((defender, runner))
    start = len(game.history)
    last: tuple[int, int] | None = None
    while len(game.history) < start + plies and not game.is_over():
        side = int(game.turn)
        action = (runner if side == runner_side else defender).choose(game)
        game.push(action)
        if side != runner_side or action.kind is not ActionKind.MOVE:
            continue
        if closed_running_mill(game, action, side, last) is not None \
                and (mill is None or _closes_mill(game, action, side, mill)):
            return True
        last = (action.origin, action.target)
    return False


def _closes_mill(game: Game, action: Action, side: int, mill: int) -> bool:
    """Whether `action`, just played by `side`, closed `mill` (another mill closing while
    `mill` merely stands is not it)."""
    return bool(mill >> action.target & 1) and game.pieces(side) & mill == mill


def _position(game: Game, upto: int) -> Game:
    copy = new_game(game.rules)
    for action in game.history[:upto]:
        copy.push(action)
    return copy


def _played(variant: str, record: str) -> Game:
    game = new_game(preset(variant))
    game.play_record(record)
    return game


def seeds_through(game: Game, upto: int, runner_side: int, mill: int | None,
             make_defender: Callable[[int], ChoosesActions]) -> int:
    """For how many of `RUNNER_SEEDS` fresh runners the runner closes a running mill (`mill`,
    or any) within `PLIES` actions from `game`'s action `upto` on, against a defender made
    for each seed by `make_defender`."""
    through = 0
    for seed in range(RUNNER_SEEDS):
        defender = make_defender(seed)
        try:
            through += runs_again(_position(game, upto), runner_side, defender,
                                  MillRunner(seed=seed), mill)
        finally:
            close_player(defender)
    return through


def _defenders_turn(game: Game, ply: int, runner_side: int) -> int:
    """The first ply from `ply` on which the defender acts (after the runner's takes)."""
    replay = _position(game, ply)
    while ply < len(game.history) and int(replay.turn) == runner_side:
        replay.push(game.history[ply])
        ply += 1
    return ply


def _defender_turns(game: Game, before: int, runner_side: int) -> list[int]:
    """The plies before `before` on which the defender acted (a removal counts with its
    move, so only its first action of a turn is a turn)."""
    replay = new_game(game.rules)
    turns: list[int] = []
    previous = None
    for ply, action in enumerate(game.history[:before]):
        side = int(replay.turn)
        if side != runner_side and previous != side:
            turns.append(ply)
        previous = side
        replay.push(action)
    return turns


def check(result: RunnerResult, depth: int, defender: str = DEFENDER,
          variant: str = "navakankari", back: int = 3) -> CheckResult:
    """Play the positions of `result`'s games again with a `depth`-ply defender and with
    `defender` (a player spec) against fresh runners."""
    deep = Replays()
    level = Replays()
    first_deep = Replays()
    first_level = Replays()

    def make_deep(seed: int) -> ChoosesActions:
        return deep_defender(depth, seed)

    def make_level(seed: int) -> ChoosesActions:
        return make_player(defender, seed=seed)

    for played, side in zip(result.games, result.runner_colours):
        game = _played(variant, played.record)
        closes = [c for c in running_mill_closes(game) if c.side == side]
        for close in _second_runs(closes):
            previous = max(c.ply for c in closes if c.mill == close.mill and c.ply < close.ply)
            after_take = _defenders_turn(game, previous + 1, side)
            deep = deep.add(seeds_through(game, after_take, side, close.mill, make_deep),
                            RUNNER_SEEDS)
            level = level.add(seeds_through(game, after_take, side, close.mill, make_level),
                              RUNNER_SEEDS)
        if closes:
            turns = _defender_turns(game, closes[0].ply, side)
            if len(turns) >= back:
                at = turns[-back]
                first_deep = first_deep.add(seeds_through(game, at, side, None, make_deep),
                                            RUNNER_SEEDS)
                first_level = first_level.add(seeds_through(game, at, side, None, make_level),
                                              RUNNER_SEEDS)
    return CheckResult(deep, level, first_deep, first_level)


def _second_runs(closes: Sequence[RunningMill]) -> list[RunningMill]:
    """The closes of a mill the same side ran before in the game."""
    seen: set[int] = set()
    again: list[RunningMill] = []
    for close in closes:
        if close.mill in seen:
            again.append(close)
        seen.add(close.mill)
    return again


def main(argv: list[str] | None = None) -> int:
    p = runner_arguments(__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=8,
                   help="the deeper defender's plies (default 8)")
    p.add_argument("--back", type=int, default=3,
                   help="first runs are played again from this many of the defender's turns "
                   "before the close (default 3)")
    args = p.parse_args(argv)
    result = run_runner(args.defender, args.games, args.seed, args.variant)
    for line in result.report(args.defender):
        print(line, flush=True)
    checked = check(result, args.depth, args.defender, args.variant, args.back)
    for line in checked.report(args.depth, args.defender, args.back):
        print(line, flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
