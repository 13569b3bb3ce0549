"""Commands against the computer: `play` (a game in the terminal) and `match` (strength runs)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from navakankari.engine.errors import PlayerError, RulesError

from .args import Commands, error_words, words

if TYPE_CHECKING:
    from navakankari.firmware.cli.match import GameResult


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


HAND = "hand"
"""The side played at the terminal, in the words of every command's player specs."""


def _sides(args: argparse.Namespace) -> tuple[str, str]:
    """Who plays white and black: one side by hand (white unless said otherwise), the other
    the computer (the default level unless said otherwise). The former `--side`, `--opponent` and
    `--level` are read with a line saying what to write instead."""
    from navakankari.engine.player import DEFAULT_LEVEL

    white, black = args.white, args.black
    if args.side is not None or args.opponent is not None or args.level is not None:
        opponent = args.opponent or (f"computer:{args.level}" if args.level is not None
                                     else "computer")
        white, black = (HAND, opponent) if (args.side or "white") == "white" else (opponent, HAND)
        print(words(args).gettext(
            "navakankari play: --side, --opponent and --level are deprecated and will be "
            "removed; write {options}").format(options=f"--white {white} --black {black}"),
            file=sys.stderr)
    if white is None and black is None:
        white, black = HAND, f"computer:{DEFAULT_LEVEL}"
    elif white is None or black is None:
        given = white if black is None else black
        other = f"computer:{DEFAULT_LEVEL}" if given.strip().lower() == HAND else HAND
        white, black = (white, other) if black is None else (other, black)
    return white.strip().lower(), black.strip().lower()


def cmd_play(args: argparse.Namespace) -> int:
    from navakankari.engine.game import Side
    from navakankari.engine.player import close_player
    from navakankari.engine.player_spec import make_player
    from navakankari.engine.presets import preset
    from navakankari.firmware.cli.terminal import play_terminal

    tr = words(args)
    try:
        rules = preset(args.variant)
        white, black = _sides(args)
        if (white == HAND) == (black == HAND):
            print(tr.gettext("navakankari play: one side is played by hand at the terminal and "
                             "the other by the computer ({one} or {other}), not {white} and "
                             "{black}").format(one="--white hand", other="--black hand",
                                               white=white, black=black),
                  file=sys.stderr)
            return 2
        human = Side.WHITE if white == HAND else Side.BLACK
        computer = make_player(black if human is Side.WHITE else white, seed=args.seed)
    except (RulesError, ValueError) as exc:
        print(f"navakankari play: {error_words(exc, tr)}", file=sys.stderr)
        return 2
    try:
        play_terminal(rules, computer, human, _read_line, lambda s: print(s, flush=True))
    except KeyboardInterrupt:  # Ctrl-C: the player left; `main` ends it quietly
        print("\ngame abandoned", flush=True)
        raise
    except (RulesError, PlayerError) as exc:  # a player that failed: the game so far was printed
        print(f"navakankari play: {error_words(exc, tr)}", file=sys.stderr)
        return 1
    finally:
        close_player(computer)
    return 0  # over, or the player quit: both are what was asked for


def game_line(n: int, result: "GameResult", white: str, black: str) -> str:
    """One game of a match: who had which colour, how it ended and after how many plies."""
    if result.swapped:
        white, black = black, white
    winner = result.outcome.winner
    ending = "draw" if winner is None else f"{winner} wins"
    views = "".join(f"; {view}" + ("" if result.engines_agree else " (DIFFERS)")
                    for view in result.engine_views)
    return (f"game {n}: {white} (white) against {black} (black): {ending} "
            f"({result.outcome.reason}) after {result.actions} plies, "
            f"{result.opening} random at the start{views}")


class _Progress:
    """A line per game on stdout (with its record if asked) and a tally bar on stderr."""

    def __init__(self, white: str, black: str, records: bool, bar: TextIO | None,
                 width: int = 30) -> None:
        self.white, self.black, self.records = white, black, records
        self.stream = bar
        self.width = width
        self.tally = [0, 0, 0]

    def __call__(self, done: int, total: int, result: "GameResult") -> None:
        if self.stream is not None and self.stream.isatty():
            self.stream.write("\r\x1b[K")  # the bar gives way to the game's line
        print(game_line(done, result, self.white, self.black), flush=True)
        if self.records:
            print(f"  record: {result.record}", flush=True)
        if self.stream is None:
            return
        w = result.winner_player()
        self.tally[0 if w == 0 else 2 if w == 1 else 1] += 1
        filled = self.width * done // total
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} "
                          f"white {self.tally[0]} draws {self.tally[1]} black {self.tally[2]}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def cmd_match(args: argparse.Namespace) -> int:
    from navakankari.engine.game import Side
    from navakankari.engine.player_spec import make_player
    from navakankari.engine.presets import preset
    from navakankari.firmware.cli.match import run_match

    try:
        preset(args.variant)
        for spec in (args.white, args.black):
            make_player(spec, movetime=args.movetime)
    except (RulesError, ValueError) as exc:
        print(f"navakankari match: {error_words(exc, words(args))}", file=sys.stderr)
        return 2
    try:
        result = run_match(args.variant, args.white, args.black, args.games, seed=args.seed,
                           opening_actions=args.opening, budget_scale=args.budget_scale,
                           movetime=args.movetime, swap=args.swap,
                           on_game=_Progress(args.white, args.black, args.records,
                                             None if args.quiet else sys.stderr))
    except (RulesError, PlayerError) as exc:
        print(f"navakankari match: stopped: {error_words(exc, words(args))}", file=sys.stderr)
        return 1
    pace = f"{args.movetime:g} s per action" if args.movetime is not None else \
        f"budget scale {args.budget_scale:g}"
    print(f"{args.variant}: {args.white} (white) against {args.black} (black), "
          f"{args.games} games{', colours swapped every game' if args.swap else ''}, "
          f"seed {args.seed}, {pace}")
    print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(result.reasons.items())))
    checked = [g for g in result.games if g.engine_views]
    if checked:
        print(f"endings the engine agrees with: {sum(g.engines_agree for g in checked)} "
              f"of {len(checked)}")
    for player, (name, spec, times) in enumerate((("white", args.white, result.times[0]),
                                                  ("black", args.black, result.times[1]))):
        colours = "; ".join(
            f"as {colour} won {w} drew {d} lost {lost}"
            for colour in (Side.WHITE, Side.BLACK)
            for w, d, lost in [result.by_colour(player, colour)] if w + d + lost)
        print(f"{name} {spec}: {colours}")
        closed, games = result.running(player)
        print(f"{name} {spec}: {closed} running mills closed (a pebble stepped out of a mill "
              f"and back) in {games} games")
        print(f"{name} {spec}: {len(times.samples)} actions, seconds per action "
              f"mean {times.mean:.3f} median {times.median:.3f} max {times.max:.3f}")
    w, d, b = result.white_wins, result.draws, result.black_wins
    if args.games:
        print(f"points: white {(w + d / 2) / args.games:.1%}, black {(b + d / 2) / args.games:.1%}")
    print(result.summary())
    return 0


def register(sub: Commands) -> None:
    from navakankari.engine.player import DEFAULT_LEVEL, MAX_LEVEL

    from .args import whole

    p = sub.add_parser("play", help="play a game against the computer in the terminal")
    p.add_argument("--variant", default="navakankari", help="a preset name (see variants)")
    p.add_argument("--white", metavar="SPEC",
                   help=f"who plays white (white moves first): hand (you, at the terminal; the "
                        f"default) or the computer: computer[:1..{MAX_LEVEL}|:max|:adaptive], "
                        "engine:PATH[?KEY=VALUE&...], greedy or random")
    p.add_argument("--black", metavar="SPEC",
                   help=f"who plays black: as --white (default computer:{DEFAULT_LEVEL}, or hand "
                        "when white is the computer)")
    p.add_argument("--seed", type=int, default=None, help="seed of the computer's random choices")
    # The former spellings, read with a line saying what to write instead.
    p.add_argument("--side", choices=("white", "black"), help=argparse.SUPPRESS)
    p.add_argument("--opponent", metavar="SPEC", help=argparse.SUPPRESS)
    p.add_argument("--level", type=int, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("match", help="play computer players against each other")
    p.add_argument("--variant", default="navakankari", help="a preset name")
    p.add_argument("--white", required=True,
                   help=f"computer[:1..{MAX_LEVEL}|:max|:adaptive], engine:PATH[?KEY=VALUE&...], greedy "
                        "or random")
    p.add_argument("--black", required=True, help="as --white")
    p.add_argument("--games", type=whole(1), default=10, help="games to play (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed of the openings and random choices")
    p.add_argument("--opening", type=int, default=2,
                   help="random actions at the start of each game (variety between games)")
    p.add_argument("--budget-scale", type=float, default=1.0,
                   help="multiply every level's time budget (e.g. 0.25 for quick runs)")
    p.add_argument("--movetime", type=float, metavar="S",
                   help="seconds per action for both players: a level's whole budget, an "
                        "engine's thinking time (instead of --budget-scale)")
    p.add_argument("--swap", action=argparse.BooleanOptionalAction, default=True,
                   help="play each opening twice, the players changing colours (default on); "
                        "white and black in the tally are the players as named")
    p.add_argument("--records", action="store_true", help="print each game's record")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_match)
