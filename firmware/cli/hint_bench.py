"""Hint benchmark: the time from a lift to the quality light, per variant, and the Pi 4
estimate.

A lift is judged cold (a fresh search table, nothing computed ahead): the destinations of one
movable pebble, or every placement (or removal) while placing. The board gives a judgement
BOARD_BUDGET seconds of wall time; to see what a Raspberry Pi 4 reaches in that time the
laptop runs with the budget divided by PI4_FACTOR, so the depths printed are the Pi's and
the Pi's time is the laptop's times the factor. The factor is an assumption, not a
measurement on a Pi: the README's "a Raspberry Pi 4 searches about 3 to 5 times fewer
positions per second than a laptop", taken at its slow end.

The judge's clock and the figures are the process's CPU time: on the board the judging has a
core of its own (a worker process), while a laptop shared with other work would otherwise
count their turns as the judge's. The wall time is printed beside it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from statistics import median

from navakankari.engine.game import Game
from navakankari.engine.hint import BOARD_BUDGET, Judge
from navakankari.engine.presets import PRESETS
from navakankari.engine.variants import new_game

from .bench import _percentile

#: How many times slower a Raspberry Pi 4 is than this laptop, per core (see the docstring).
PI4_FACTOR = 5.0
#: The goal: the quality light within this many seconds of the lift on a Pi 4.
PI4_GOAL = 0.3


def lifts(variant: str, n: int, seed: int = 1) -> list[tuple[Game, str | None]]:
    """`n` positions of random games of `variant` with the origin a hand lifts (None: judge
    every action, as while placing or removing)."""
    rng = random.Random(seed)
    out: list[tuple[Game, str | None]] = []
    while len(out) < n:
        game = new_game(PRESETS[variant])
        for _ in range(rng.randrange(0, 60)):
            actions = game.legal_actions()
            if not actions:
                break
            game.push(rng.choice(actions))
        actions = game.legal_actions()
        if not actions:
            continue
        origins = sorted({a.origin_name for a in actions if a.origin_name is not None})
        out.append((game, rng.choice(origins) if origins else None))
    return out


def run(out: Callable[[str], None] = print, quick: bool = False, n: int | None = None) -> None:
    """Judge `n` lifts of every variant (40; 10 when quick) with the Pi's share of the
    budget; print p50/p99."""
    n = n or (10 if quick else 40)
    budget = BOARD_BUDGET / PI4_FACTOR
    out(f"Pi 4 estimate: laptop time x {PI4_FACTOR:g} (assumed, the README's 3-5x at its slow "
        f"end); board budget {BOARD_BUDGET:g} s, so {budget * 1000:.0f} ms here; "
        f"goal {PI4_GOAL:g} s on a Pi 4")
    worst = 0.0
    for variant in PRESETS:
        times, walls, depths = [], [], []
        exact = 0
        positions = lifts(variant, n + 1)
        game, origin = positions.pop()  # untimed: the first judgement builds the tables
        Judge().judge(game, origin=origin, budget=budget)
        for game, origin in positions:
            start, wall = time.process_time(), time.perf_counter()
            judgement = Judge().judge(game, origin=origin, budget=budget,
                                      clock=time.process_time)
            times.append(time.process_time() - start)
            walls.append(time.perf_counter() - wall)
            depths.append(judgement.depth)
            exact += judgement.exact
        p50, p99 = _percentile(times, 50), _percentile(times, 99)
        worst = max(worst, p99)
        out(f"{variant}: lift -> quality p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms CPU "
            f"(wall p99 {_percentile(walls, 99) * 1000:.1f} ms); "
            f"Pi 4 estimate p50 {p50 * PI4_FACTOR * 1000:.0f} ms, p99 "
            f"{p99 * PI4_FACTOR * 1000:.0f} ms; depth median {median(depths):g}, "
            f"min {min(depths)} ({n} lifts{f', {exact} exact' if exact else ''})")
    verdict = "within" if worst * PI4_FACTOR <= PI4_GOAL else "OVER"
    out(f"worst p99 on a Pi 4 (estimate): {worst * PI4_FACTOR * 1000:.0f} ms, {verdict} the "
        f"{PI4_GOAL:g} s goal")
