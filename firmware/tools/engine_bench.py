"""Engine benchmark: perft speed, printed as figures.

Perft counts the last ply in bulk (the number of legal actions, without making them), as
the mill and chess engines' perft does; the figures also give the positions actually made
(push and pop) per second, the cost a search pays per node.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from collections.abc import Callable

from navakankari.engine import endgame
from navakankari.engine import core
from navakankari.engine.game import Game
from navakankari.engine.perft import perft
from navakankari.engine.presets import preset
from navakankari.engine.variants import game_from_position, new_game

# A moving-phase position from a Sanmill game (eight white and nine black pebbles, white to move).
MOVING_POSITION = "**O@O*@*/*@@*O@@O/O@O*@O@O w m s 8 0 9 0 0 0 0 0 0 0 0 0 1"


def _measure(label: str, game: Game, depth: int, out: Callable[[str], None],
             native: bool = True) -> None:
    made = [0]
    by = "C core" if native and core.serves(game.rules) else "Python"
    start = time.perf_counter()
    leaves = perft(game, depth, made, native=native)
    seconds = time.perf_counter() - start
    out(f"{label} depth {depth} ({by}): {leaves} leaves in {seconds:.2f} s = "
        f"{leaves / seconds:,.0f} leaves/s; {made[0]} positions made = "
        f"{made[0] / seconds:,.0f} push+pop/s")


def measure_endgame(out: Callable[[str], None], quick: bool) -> None:
    """The three-against-three database: solving it (skipped when quick), its file, reading
    it (time and memory) and lookups per second."""
    if not quick:
        from navakankari.engine.endgame_solve import solve

        out(f"endgame 3v3 solved in {solve().seconds:.2f} s (pure Python)")
    path = endgame.data_path()
    tracemalloc.start()
    start = time.perf_counter()
    table = endgame.EndgameTable(path)
    size = len(table.table)
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rng = random.Random(3)
    pairs = []
    for _ in range(20_000):
        points = rng.sample(range(24), 6)
        pairs.append((sum(1 << p for p in points[:3]), sum(1 << p for p in points[3:])))
    start = time.perf_counter()
    for mover, opponent in pairs:
        table.distance(mover, opponent)
    lookups = len(pairs) / (time.perf_counter() - start)
    out(f"endgame 3v3 file {path.stat().st_size:,} bytes; loaded in {seconds * 1000:.1f} ms, "
        f"{size:,} bytes held (peak {peak / 1e6:.1f} MB while loading); "
        f"{lookups:,.0f} lookups/s")


def run(out: Callable[[str], None] = print, quick: bool = False) -> None:
    """Perft from the empty board, from a moving position, and from Nau Keti Keta's start;
    the endgame database's figures."""
    rules = preset("nine-mens-morris")
    empty, moving = new_game(rules), game_from_position(rules, MOVING_POSITION)
    # The C core where it is built (two plies deeper: it is that much faster), and the
    # Python move generator (compiled or pure) beside it.
    if core.serves(rules):
        _measure("perft nine-mens-morris empty board", empty, 6 if quick else 7, out)
        _measure("perft nine-mens-morris moving phase", moving, 7 if quick else 9, out)
    _measure("perft nine-mens-morris empty board", empty, 4 if quick else 5, out, native=False)
    _measure("perft nine-mens-morris moving phase", moving, 5 if quick else 7, out, native=False)
    _measure("perft nau-keti-keta start", new_game(preset("nau-keti-keta")),
             8 if quick else 12, out)
    measure_endgame(out, quick)
