"""Search benchmark: nodes per second and the depth reached in a fixed time, printed."""

from __future__ import annotations

import time
from collections.abc import Callable

from navakankari.engine import core
from navakankari.engine.game import Game
from navakankari.engine.presets import preset
from navakankari.engine.search import Searcher, format_score
from navakankari.engine.variants import game_from_position, new_game

from .engine_bench import MOVING_POSITION

# Nine Men's Morris after ten placements (d6 d2 f4 b4 d5 d3 e4 c4 g7 a1), white to place.
MIDGAME_POSITION = "O*O*@*@*/O*O*@*@*/*O***@** w p p 5 4 5 4 0 0 0 0 0 0 0 0 6"


def positions() -> list[tuple[str, Game]]:
    nmm = preset("nine-mens-morris")
    return [
        ("nine-mens-morris opening", new_game(nmm)),
        ("nine-mens-morris midgame (placing)", game_from_position(nmm, MIDGAME_POSITION)),
        ("nine-mens-morris moving phase", game_from_position(nmm, MOVING_POSITION)),
        ("navakankari opening", new_game(preset("navakankari"))),
        ("nau-keti-keta start", new_game(preset("nau-keti-keta"))),
    ]


#: The fixed-depth searches timed in CPU seconds: the three nine men's morris positions above
#: and the depth each is searched to (the quick run two plies less).
FIXED_DEPTHS = (8, 8, 10)


def _searches(quick: bool) -> list[tuple[str, Game, int]]:
    return [(label, game, depth - 2 * quick)
            for (label, game), depth in zip(positions(), FIXED_DEPTHS)]


def run(out: Callable[[str], None] = print, quick: bool = False) -> None:
    """Search each position for 1 s (0.25 s when quick) from an empty table, in the C core
    where it serves the rules and in Python beside it; then the nine men's morris positions
    to a fixed depth, best of three in CPU seconds (the same nodes and action in both: a
    change that speeds the search without changing what it finds shows here)."""
    budget = 0.25 if quick else 1.0
    for label, game in positions():
        for by, native in _engines(game):
            info = Searcher(native=native).search(game, budget=budget, clock=time.perf_counter)
            out(f"{label} ({by}): depth {info.depth} in {budget:g} s, {info.nodes} nodes, "
                f"{info.nps:,.0f} nodes/s, best {info.action} ({format_score(info.score)})")
    for by, native in _engines(positions()[0][1]):
        total = 0.0
        for label, game, depth in _searches(quick):
            best = float("inf")
            for _ in range(1 if quick else 3):
                started = time.process_time()
                info = Searcher(native=native).search(game, max_depth=depth)
                best = min(best, time.process_time() - started)
            total += best
            out(f"{label} ({by}) to depth {depth}: {best:.3f} s CPU, {info.nodes} nodes, "
                f"best {info.action} ({format_score(info.score)})")
        out(f"fixed-depth searches ({by}): {total:.3f} s CPU in all")


def _engines(game: Game) -> list[tuple[str, bool]]:
    """The searches to time for `game`: the C core where it serves the rules, and Python."""
    fast = [("C core", True)] if core.serves(game.rules) else []
    return fast + [("Python", False)]
