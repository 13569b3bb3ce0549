"""Engine benchmark: perft speed in leaves per second, printed as figures."""

from __future__ import annotations

import time
from collections.abc import Callable

from .game import game_from_position, new_game
from .perft import perft
from .presets import preset

# A moving-phase position from a Sanmill game (both sides with all nine pebbles, white to move).
MOVING_POSITION = "**O@O*@*/*@@*O@@O/O@O*@O@O w m s 8 0 9 0 0 0 0 0 0 0 0 0 1"


def _measure(label: str, run: Callable[[], int], out: Callable[[str], None]) -> None:
    start = time.perf_counter()
    leaves = run()
    seconds = time.perf_counter() - start
    out(f"{label}: {leaves} leaves in {seconds:.2f} s = {leaves / seconds:,.0f} leaves/s")


def run(out: Callable[[str], None] = print, quick: bool = False) -> None:
    """Perft from the empty board (depth 5, or 4 when quick) and from a moving position."""
    rules = preset("nine-mens-morris")
    depth = 4 if quick else 5
    _measure(f"perft nine-mens-morris empty board depth {depth}",
             lambda: perft(new_game(rules), depth), out)
    moving = game_from_position(rules, MOVING_POSITION)
    _measure(f"perft nine-mens-morris moving phase depth {5 if quick else 7}",
             lambda: perft(moving, 5 if quick else 7), out)
    nkk = new_game(preset("nau-keti-keta"))
    _measure(f"perft nau-keti-keta start depth {6 if quick else 8}",
             lambda: perft(nkk, 6 if quick else 8), out)
