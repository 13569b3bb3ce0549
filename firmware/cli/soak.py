"""The soak runs of `navakankari bench`: long, sized by arguments, not part of "all".

`fuzz` feeds random sensor events through the session (fuzz_bench.py); `power-cut` kills the
real daemon at random moments and starts it again (power_cut_bench.py); `online` plays games
between two boards' links through a local Mosquitto, restarting the broker and killing boards
(online_bench.py). Each prints its figures.
"""

from __future__ import annotations

import argparse

from .args import whole

positive = whole(1)

# name -> "module:function"; each function takes `out`, `quick` and the command's arguments.
SOAK_SECTIONS: dict[str, str] = {
    "fuzz": "navakankari.firmware.tools.fuzz_bench:soak",
    "power-cut": "navakankari.firmware.tools.power_cut_bench:soak",
    "online": "navakankari.firmware.tools.online_bench:soak",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--events", type=positive,
                   help="fuzz: sensor events to feed (default 1,000,000; --quick 20,000)")
    p.add_argument("--variants", help="fuzz: comma-separated preset names (default: the morris "
                                      "variants, flying, six and twelve men's morris, Nau Keti Keta)")
    p.add_argument("--cuts", type=positive,
                   help="power-cut: times the daemon is killed (default 100; --quick 5)")
    p.add_argument("--games", type=positive,
                   help="online: games through a local Mosquitto (default 20; --quick 3)")
    p.add_argument("--broker-restarts", type=whole(0), default=3,
                   help="online: times the broker is restarted during the run (default 3)")
    p.add_argument("--kills", type=whole(0), default=2,
                   help="online: times a board is killed and rebuilt from its store (default 2)")
    p.add_argument("--attack", action="store_true",
                   help="online: an outsider with a club login floods, poisons, deletes the "
                        "retained messages and replays what it saw, every move")
    p.add_argument("--seed", type=int, default=0,
                   help="fuzz, power-cut, online: the random seed")
