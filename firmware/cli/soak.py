"""The soak runs of `navakankari bench`: long, sized by arguments, not part of "all".

`fuzz` feeds random sensor events through the session (fuzz_bench.py); `power-cut` kills the
real daemon at random moments and starts it again (power_cut_bench.py). Each prints its
figures, with a progress bar on stderr.
"""

from __future__ import annotations

import argparse

# name -> "module:function"; each function takes `out`, `quick` and the command's arguments.
SOAK_SECTIONS: dict[str, str] = {
    "fuzz": "navakankari.firmware.cli.fuzz_bench:soak",
    "power-cut": "navakankari.firmware.cli.power_cut_bench:soak",
}


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--events", type=positive,
                   help="fuzz: sensor events to feed (default 1,000,000; --quick 20,000)")
    p.add_argument("--variants", help="fuzz: comma-separated preset names (default: the morris "
                                      "variants, flying, six and twelve men's morris, Nau Keti Keta)")
    p.add_argument("--cuts", type=positive,
                   help="power-cut: times the daemon is killed (default 100; --quick 5)")
    p.add_argument("--seed", type=int, default=0, help="fuzz, power-cut: the random seed")
