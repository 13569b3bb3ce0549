"""Hint benchmark: the time the board's judgement takes, with the Pi 4 estimate, and how far
its verdicts hold against a judgement ten times deeper.

Positions come from real games: the engine's own players at levels 2 and 3 (seeded, their
time budgets scaled up so that each reaches its depth cap: the same games on any machine),
every variant, several points of each game (placing, moving, the end), `POSITIONS_PER_GAME`
a game.

Timing: each position gets the board's whole advice (engine/hint.py's judgement with the
board's budget of search nodes, the reason of each red verdict, the threats:
`Advisor.advise`), timed TIMINGS times (the median counts) in the process's CPU time (on the
board the judging has a core of its own, a worker process, and a laptop shared with other
work would otherwise count their turns as the judge's). The
budget is search nodes, so a Pi 4 does the same work as the laptop and takes longer: the Pi 4
estimate is the laptop's CPU time times PI4_FACTOR, an assumption, not a measurement on a Pi
(the README's "a Raspberry Pi 4 searches about 3 to 5 times fewer positions per second than
a laptop", taken at its slow end).

Calibration: each position is judged twice (by two judges, other positions judged between:
`unstable` counts actions whose class differed) and once with DEEPER times the nodes (and no
depth cap) as the reference. Of the actions judged: `false alarms` are drops or loses where
the reference says keeps, `misses` keeps where it says drops or loses. The goals:
FALSE_ALARM_GOAL and MISS_GOAL of the actions judged.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from statistics import median

from navakankari.engine.game import Game
from navakankari.engine.hint import BOARD_BUDGETS, Judge, Judgement, board_budget
from navakankari.engine.player import Player
from navakankari.engine.presets import PRESETS
from navakankari.engine.reasons import Quality
from navakankari.engine.variants import new_game

from navakankari.engine.advice import QUALITY, AdviceRequest, Advisor
from .bench import _percentile

#: How many times slower a Raspberry Pi 4 is than this laptop, per core (see the docstring).
PI4_FACTOR = 5.0
#: The goal: the quality light within this many seconds of the lift on a Pi 4.
PI4_GOAL = 0.3
#: The reference judgement's budget, as a multiple of the board's.
DEEPER = 10
#: The reference's depth cap (plies after each action): out of reach, the budget decides.
DEEPER_MAX_DEPTH = 64
#: How many times each position's advice is timed: its median counts (a collection of the
#: bench's own garbage or a page fault would otherwise stand for the position's cost).
TIMINGS = 3
#: Where in each game (as a share of its length) a position is taken.
POSITIONS_PER_GAME = (0.1, 0.3, 0.5, 0.7, 0.9)
FALSE_ALARM_GOAL = 0.01
MISS_GOAL = 0.03
RED = (Quality.DROPS, Quality.LOSES)


def game_positions(variant: str, games: int, seed: int = 1,
                   shares: tuple[float, ...] = POSITIONS_PER_GAME) -> list[Game]:
    """Positions of `games` games of `variant` between the levels 2 and 3 (colours swapped
    every game), taken at `shares` of each game's length (ended positions skipped)."""
    out: list[Game] = []
    for g in range(games):
        players = [Player(2, seed=seed + 2 * g, budget_scale=10.0),
                   Player(3, seed=seed + 2 * g + 1, budget_scale=10.0)]
        if g % 2:
            players.reverse()
        game = new_game(PRESETS[variant])
        seen: list[Game] = []
        for _ in range(400):
            if game.outcome() is not None:
                break
            seen.append(game.copy())
            game.push(players[game._side].choose(game))
        picked = sorted({min(int(s * len(seen)), len(seen) - 1) for s in shares})
        out += [seen[i] for i in picked if seen]
    return out


@dataclass
class Tally:
    """The calibration's counts over the actions judged."""

    positions: int = 0
    actions: int = 0
    unstable: int = 0
    false_alarms: int = 0
    misses: int = 0

    def add(self, first: dict[str, Quality], again: dict[str, Quality],
            deeper: dict[str, Quality]) -> None:
        self.positions += 1
        for action, q in first.items():
            self.actions += 1
            self.unstable += again.get(action) is not q
            ref = deeper[action]
            self.false_alarms += q in RED and ref is Quality.KEEPS
            self.misses += q is Quality.KEEPS and ref in RED

    def line(self) -> str:
        n = max(self.actions, 1)
        return (f"{self.positions} positions, {self.actions} actions, {self.unstable} unstable, "
                f"{self.false_alarms} false alarms ({100 * self.false_alarms / n:.1f} %), "
                f"{self.misses} misses ({100 * self.misses / n:.1f} %)")


Judging = Callable[[Game], Judgement]


def phase(game: Game) -> str:
    """placing (pebbles in hand), the end (a side down to three) or moving."""
    if game.in_hand(0) or game.in_hand(1):
        return "placing"
    if min(game.pieces(0).bit_count(), game.pieces(1).bit_count()) <= 3:
        return "end"
    return "moving"


def calibrate(positions: list[Game], quick: Judging, again: Judging, deep: Judging,
              tally: Tally, phases: dict[str, Tally] | None = None) -> None:
    """Judge each position with `quick`, then all again in the other order with `again` (what
    came before differs), and once with `deep`; count into `tally` (and by phase)."""
    first = [quick(g).classes() for g in positions]
    second = [again(g).classes() for g in reversed(positions)][::-1]
    for g, a, b in zip(positions, first, second):
        d = deep(g).classes()
        tally.add(a, b, d)
        if phases is not None:
            phases.setdefault(phase(g), Tally()).add(a, b, d)


def run(out: Callable[[str], None] = print, quick: bool = False, n: int | None = None,
        shares: tuple[float, ...] = POSITIONS_PER_GAME) -> None:
    """Time the board's advice and calibrate its verdicts on the positions (at `shares` of
    each game) of `n` games of every variant (2; 1 when quick)."""
    games = n or (1 if quick else 2)
    budgets = ", ".join(f"{n} for {family}" for family, n in BOARD_BUDGETS.items())
    out(f"board budget in search nodes: {budgets}; reference {DEEPER}x that, no depth cap; "
        f"Pi 4 estimate: laptop CPU time x {PI4_FACTOR:g} (assumed, the README's 3-5x at its "
        f"slow end), goal {PI4_GOAL:g} s at p99")
    worst = 0.0
    total = Tally()
    phases: dict[str, Tally] = {}
    advisor = Advisor()
    judge_a, judge_b = Judge(), Judge()
    for variant in PRESETS:
        positions = game_positions(variant, games, shares=shares)
        advisor.advise(AdviceRequest(0, 0, positions[0].copy(), QUALITY))  # builds tables
        times, depths, nodes = [], [], []
        for game in positions:
            spent = []
            for _ in range(TIMINGS):
                start = time.process_time()
                advice = advisor.advise(AdviceRequest(0, game.key, game.copy(), QUALITY))
                spent.append(time.process_time() - start)
            times.append(median(spent))
            if advice.judgement is not None:
                depths.append(advice.judgement.depth)
                nodes.append(advice.judgement.nodes)
        p50, p99 = _percentile(times, 50), _percentile(times, 99)
        worst = max(worst, p99)
        tally = Tally()
        calibrate(positions, judge_a.judge, judge_b.judge,
                  lambda g: judge_a.judge(g, budget=board_budget(g.rules) * DEEPER,
                                          max_depth=DEEPER_MAX_DEPTH), tally, phases)
        for name in ("positions", "actions", "unstable", "false_alarms", "misses"):
            setattr(total, name, getattr(total, name) + getattr(tally, name))
        out(f"{variant}: advice p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms CPU; Pi 4 "
            f"estimate p99 {p99 * PI4_FACTOR * 1000:.0f} ms; depth median "
            f"{median(depths) if depths else 0:g}, nodes median "
            f"{median(nodes) if nodes else 0:g}; {tally.line()}")
    verdict = "within" if worst * PI4_FACTOR <= PI4_GOAL else "OVER"
    out(f"worst p99 on a Pi 4 (estimate): {worst * PI4_FACTOR * 1000:.0f} ms, {verdict} the "
        f"{PI4_GOAL:g} s goal")
    for name in ("placing", "moving", "end"):
        if name in phases:
            out(f"{name}: {phases[name].line()}")
    n_actions = max(total.actions, 1)
    ok = (total.unstable == 0 and total.false_alarms <= FALSE_ALARM_GOAL * n_actions
          and total.misses <= MISS_GOAL * n_actions)
    out(f"all: {total.line()}; goals 0 unstable, false alarms <= {FALSE_ALARM_GOAL:.0%}, "
        f"misses <= {MISS_GOAL:.0%}: {'met' if ok else 'NOT met'}")
