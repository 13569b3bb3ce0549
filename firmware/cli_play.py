"""Commands against the computer: `play` (a game in the terminal) and `match` (strength runs)."""

from __future__ import annotations

import argparse
import sys

from navakankari.engine.errors import EngineError


def _read_line(prompt: str) -> str | None:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.stdout.write("\n")
        return None
    if not sys.stdin.isatty():
        sys.stdout.write(line if line.endswith("\n") else line + "\n")  # a readable transcript
    return line


def cmd_play(args: argparse.Namespace) -> int:
    from navakankari.engine.game import Side
    from navakankari.engine.player import Player
    from navakankari.engine.presets import preset
    from navakankari.engine.terminal import play_terminal

    try:
        rules = preset(args.variant)
        computer = Player(args.level, seed=args.seed)
    except (EngineError, ValueError) as exc:
        print(f"navakankari play: {exc}", file=sys.stderr)
        return 2
    human = Side.WHITE if args.side == "white" else Side.BLACK
    try:
        play_terminal(rules, computer, human, _read_line, lambda s: print(s, flush=True))
    except KeyboardInterrupt:  # Ctrl-C: the player left; no traceback
        print("\ngame abandoned", flush=True)
        return 130
    return 0  # over, or the player quit: both are what was asked for


class _ProgressBar:
    def __init__(self, stream, width: int = 30) -> None:  # type: ignore[no-untyped-def]
        self.stream = stream
        self.width = width
        self.tally = [0, 0, 0]

    def __call__(self, done: int, total: int, result) -> None:  # type: ignore[no-untyped-def]
        w = result.outcome.winner
        self.tally[0 if w == 0 else 2 if w == 1 else 1] += 1
        filled = self.width * done // total
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} "
                          f"white {self.tally[0]} draws {self.tally[1]} black {self.tally[2]}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def cmd_match(args: argparse.Namespace) -> int:
    from navakankari.engine.match import run_match
    from navakankari.engine.player import make_player
    from navakankari.engine.presets import preset

    try:
        preset(args.variant)
        for spec in (args.white, args.black):
            make_player(spec)
    except (EngineError, ValueError) as exc:
        print(f"navakankari match: {exc}", file=sys.stderr)
        return 2
    result = run_match(args.variant, args.white, args.black, args.games, seed=args.seed,
                       opening_actions=args.opening, budget_scale=args.budget_scale,
                       on_game=None if args.quiet else _ProgressBar(sys.stderr))
    print(f"{args.variant}: {args.white} (white) against {args.black} (black), "
          f"{args.games} games, seed {args.seed}, budget scale {args.budget_scale:g}")
    print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(result.reasons.items())))
    for name, spec, times in (("white", args.white, result.times[0]),
                              ("black", args.black, result.times[1])):
        print(f"{name} {spec}: {len(times.samples)} actions, seconds per action "
              f"mean {times.mean:.3f} median {times.median:.3f} max {times.max:.3f}")
    w, d, b = result.white_wins, result.draws, result.black_wins
    if args.games:
        print(f"points: white {(w + d / 2) / args.games:.1%}, black {(b + d / 2) / args.games:.1%}")
    print(result.summary())
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from navakankari.engine.player import MAX_LEVEL

    p = sub.add_parser("play", help="play a game against the computer in the terminal")
    p.add_argument("--variant", default="navakankari", help="a preset name (see variants)")
    p.add_argument("--level", type=int, default=3, help=f"computer strength 1..{MAX_LEVEL}")
    p.add_argument("--side", choices=("white", "black"), default="white",
                   help="the side you play (white moves first)")
    p.add_argument("--seed", type=int, default=None, help="seed of the computer's random choices")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("match", help="play computer players against each other")
    p.add_argument("--variant", default="navakankari", help="a preset name")
    p.add_argument("--white", required=True,
                   help="random, greedy, level:N or level:max")
    p.add_argument("--black", required=True, help="as --white")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0, help="seed of the openings and random choices")
    p.add_argument("--opening", type=int, default=2,
                   help="random actions at the start of each game (variety between games)")
    p.add_argument("--budget-scale", type=float, default=1.0,
                   help="multiply every level's time budget (e.g. 0.25 for quick runs)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_match)
