"""Engine figures that must be the same on every machine: perft counts and fixed-depth
searches (best line, score, nodes), through the C core where it is built and in pure Python.

    python engine_reference.py > figures.json

tests/pi/run.sh runs it on the emulated Pi and compares with x86-reference.json, made on
x86-64 by this same script.
"""

from __future__ import annotations

import json

from navakankari.engine import core, new_game, preset
from navakankari.engine.perft import perft
from navakankari.engine.search import Searcher
from navakankari.engine.variants import game_from_position

# A nine-mens-morris position in the moving phase, black to move (the README's example).
MIDDLE = "@O*OO**@/*O@@@OO@/O@O@**O@ b m s 9 0 9 0 0 0 0 0 0 0 0 1 10"


def figures() -> dict[str, object]:
    out: dict[str, object] = {"core": core.available()}
    # Python is slow under emulation: shallower there than in the C core.
    for native, (plies, search) in ((True, (4, 5)), (False, (3, 4))):
        kind = "core" if native else "python"
        for variant, depth in (("nine-mens-morris", plies), ("lasker", plies - 1),
                               ("nau-keti-keta", 4)):
            out[f"perft {kind} {variant} {depth}"] = perft(new_game(preset(variant)), depth,
                                                          native=native)
        if native:
            out["perft core nine-mens-morris 5"] = perft(new_game(preset("nine-mens-morris")), 5)
        for name, game, depth in (("start", new_game(preset("nine-mens-morris")), search),
                                  ("middle", game_from_position("nine-mens-morris", MIDDLE),
                                   search - 1)):
            info = Searcher(native=native).search(game, max_depth=depth)
            out[f"search {kind} {name} {depth}"] = {
                "depth": info.depth, "nodes": info.nodes, "score": info.score,
                "pv": " ".join(a.text for a in info.pv)}
    return out


if __name__ == "__main__":
    print(json.dumps(figures(), sort_keys=True))
