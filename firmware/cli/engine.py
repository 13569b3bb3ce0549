"""Engine commands: variants, perft, moves, hint, and the benchmark."""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path

from navakankari.engine.errors import RulesError
from navakankari.engine.game import Game
from navakankari.engine.perft import perft
from navakankari.engine.presets import PRESETS, describe, preset
from navakankari.engine.variants import game_from_position, new_game

from .args import Commands, error_words, language_option, seconds, words
from .soak import SOAK_SECTIONS, add_arguments

#: A nine-mens-morris position in the moving phase, black to move (the README's example):
#: the placements d6 d2 b4 f4 d7 a7 g4 g7 d3 d5 e3 c5 b2 f2 a4 b6 e5 g1, then d6-f6.
EXAMPLE_POSITION = "@O*OO**@/*O@@@OO@/O@O@**O@ b m s 9 0 9 0 0 0 0 0 0 0 0 1 10"

# Benchmark sections: name -> "module:function"; each function takes `out` and `quick`.
BENCH_SECTIONS: dict[str, str] = {
    "engine": "navakankari.firmware.tools.engine_bench:run",
    "search": "navakankari.firmware.tools.search_bench:run",
    "hint": "navakankari.firmware.tools.hint_bench:run",
    "daemon": "navakankari.firmware.tools.bench:run",
    "thinking": "navakankari.firmware.tools.thinking_bench:run",
    "poll": "navakankari.firmware.tools.poll_bench:run",
    "runner": "navakankari.firmware.cli.runner:run",
}


def _game(args: argparse.Namespace) -> Game:
    rules = preset(args.variant)
    if args.position:
        return game_from_position(rules, args.position)
    return new_game(rules)


def cmd_variants(args: argparse.Namespace) -> int:
    for name, rules in PRESETS.items():
        if not args.verbose_rules:
            print(f"{name}: {rules.pieces} pebbles a side on the {rules.board} board")
            continue
        head, *lines = rules.summary()
        print(f"{name}: {head}")
        for line in lines:
            print(f"    {line}")
        print(f"    source: {describe(name)}")
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    game = _game(args)
    for depth in range(1, args.depth + 1):
        print(f"{depth} {perft(game, depth)}", flush=True)
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    for action in _game(args).legal_actions():
        print(action)
    return 0


#: `hint --position -`: the most positions and the longest line read from standard input
#: (a position string is under 100 characters).
HINT_MAX_POSITIONS = 100_000
HINT_MAX_LINE = 1000


def _hint_positions(args: argparse.Namespace) -> list[str | None]:
    """The positions to judge, in order: each --position, `-` read one a line from standard
    input (blank lines skipped); none given is the start."""
    given: list[str] = args.position or []
    out: list[str | None] = []
    for text in given:
        if text != "-":
            out.append(text)
            continue
        for n, line in enumerate(sys.stdin):
            if n >= HINT_MAX_POSITIONS:
                raise RulesError(f"more than {HINT_MAX_POSITIONS} positions on standard input")
            if len(line) > HINT_MAX_LINE:
                raise RulesError(f"line {n + 1} of standard input is longer than "
                                 f"{HINT_MAX_LINE} characters: not a position")
            if line.strip():
                out.append(line.strip())
    return out or [None]


def cmd_hint(args: argparse.Namespace) -> int:
    from navakankari.engine.hint import Judge, describe, threats

    judge = Judge()  # one judge one position after another: what the board's worker does
    rules = preset(args.variant)
    positions = _hint_positions(args)
    failed = 0
    for text in positions:
        if args.json:
            try:
                game = game_from_position(rules, text) if text else new_game(rules)
                judgement = judge.judge(game, budget=args.budget)
            except RulesError as exc:  # one bad line is answered and the rest judged
                failed += 1
                print(json.dumps({"position": text, "error": str(exc)}), flush=True)
                continue
            print(json.dumps(judgement.to_dict()), flush=True)
            continue
        game = game_from_position(rules, text) if text else new_game(rules)
        judgement = judge.judge(game, budget=args.budget)
        if len(positions) > 1:
            print(f"== {judgement.position}")
        for line in describe(judgement, tr=words(args)):
            print(line)
        print(f"best {judgement.best}")
        if judgement.exact:
            print("judged by the endgame database (exact)")
        else:
            print(f"searched {judgement.depth} plies after each action ({judgement.nodes} "
                  f"nodes of {judgement.budget}) in {judgement.seconds:.2f} s")
        seen = threats(game, deep=True)
        if not seen.applies:
            print(f"threats: none ({game.rules.name} has no mills)")
        else:
            print("threats: " + (", ".join(f"{t.kind} {t.action}" for t in seen.items)
                                 or "none"))
    return 2 if failed else 0


def cmd_bench(args: argparse.Namespace) -> int:
    names = args.sections or list(BENCH_SECTIONS)
    unknown = [n for n in names if n not in BENCH_SECTIONS and n not in SOAK_SECTIONS]
    if unknown:
        print(words(args).ngettext(
            "navakankari bench: unknown section {names}; sections: {sections}",
            "navakankari bench: unknown sections {names}; sections: {sections}", len(unknown)
        ).format(names=", ".join(unknown), sections=", ".join([*BENCH_SECTIONS, *SOAK_SECTIONS])),
            file=sys.stderr)
        return 2
    if not args.verbose:  # figures only: the daemon's own log lines would drown them
        logging.getLogger("navakankari").setLevel(logging.WARNING)
    from navakankari.engine import native

    print(native.describe(), flush=True)
    for name in names:
        module, _, func = (BENCH_SECTIONS.get(name) or SOAK_SECTIONS[name]).partition(":")
        print(f"== {name}", flush=True)
        getattr(importlib.import_module(module), func)(
            out=lambda s: print(s, flush=True), quick=args.quick,
            **({"args": args} if name in SOAK_SECTIONS or name == "thinking" else {}))
        if name == "daemon" and args.speech:
            from ..tools.speech_bench import run as speech_run

            speech_run(out=lambda s: print(s, flush=True), quick=args.quick)
    return 0


def cmd_build_engine(args: argparse.Namespace) -> int:
    from navakankari.engine import native

    try:
        current = native.built_state()
    except OSError:  # an unreadable stamp: build afresh
        current = native.NativeState(False, "unreadable")
    if current.active and not args.force:
        print(f"the compiled engine is up to date ({native.NATIVE_DIR}); --force rebuilds it")
        return 0
    try:
        native.build()
    except native.NativeBuildError as exc:
        print(f"navakankari build-engine: {error_words(exc, words(args))}", file=sys.stderr)
        if args.optional:
            print(words(args).gettext("navakankari build-engine: the pure-Python engine plays "
                                      "instead"), file=sys.stderr)
            return 0
        return 1
    return 0


def cmd_build_endgame(args: argparse.Namespace) -> int:

    from navakankari.engine import endgame
    from navakankari.engine.endgame_solve import build

    if args.three_four:
        return _build_three_four(args, Path(args.out) if args.out
                                 else endgame.data_path(endgame.FILENAME34))
    path = Path(args.out) if args.out else endgame.data_path()
    try:
        solution, size = build(path)
    except OSError as exc:
        print(_cannot_write(args, path, exc), file=sys.stderr)
        return 1
    print(f"three against three, flying: {endgame.POSITIONS:,} positions with the side to move: "
          f"{solution.wins:,} wins, {solution.losses:,} losses, {solution.draws:,} draws; "
          f"longest {solution.levels} actions")
    print(f"solved in {solution.seconds:.2f} s; wrote {path} ({size:,} bytes)")
    return 0


def _cannot_write(args: argparse.Namespace, path: Path, exc: OSError) -> str:
    return words(args).gettext("navakankari build-endgame: cannot write {file}: {problem}"
                               ).format(file=path, problem=exc.strerror or exc)


def _build_three_four(args: argparse.Namespace, path: Path) -> int:
    from navakankari.engine import endgame
    from navakankari.engine.endgame_solve34 import build

    def progress(level: int, decided: int) -> None:
        print(f"  level {level}: {decided:,} positions decided", flush=True)

    print("three against four (the side of three flies, the side of four steps), from the "
          "three-against-three database; a level at a time:", flush=True)
    try:
        solution, size = build(path, progress=progress)
    except OSError as exc:
        print(_cannot_write(args, path, exc), file=sys.stderr)
        return 1
    except endgame.EndgameDataError as exc:
        print(f"navakankari build-endgame: {error_words(exc, words(args))}", file=sys.stderr)
        return 1
    for name, (wins, losses, draws) in solution.counts.items():
        side = "three" if name == "3v4" else "four"
        print(f"{name}, the side with {side} to move: {wins:,} wins, {losses:,} losses, "
              f"{draws:,} draws")
    print(f"solved in {solution.seconds:.1f} s ({solution.levels} levels); wrote {path} "
          f"({size:,} bytes)")
    return 0


def _guard(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Bad input (an unknown variant, a bad position) is one clear line and exit code 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except RulesError as exc:
            print(f"navakankari: {error_words(exc, words(args))}", file=sys.stderr)
            return 2

    return run


def register(sub: Commands) -> None:
    from .args import whole

    p = sub.add_parser("variants", help="list the rule presets")
    p.add_argument("--rules", dest="verbose_rules", action="store_true",
                   help="say what each preset's mills take, when it draws, and where its rules "
                        "come from")
    p.set_defaults(func=cmd_variants)

    for name, func, text, more in (
            ("perft", cmd_perft, "count leaves of the game tree",
             "Count the leaves of the game tree at each depth up to --depth, from the start or "
             "from --position: the move generator's check against known counts."),
            ("moves", cmd_moves, "list the legal actions",
             "List the legal actions of the side to act, one a line in the notation `play` "
             "takes, at the start or in --position.")):
        p = sub.add_parser(name, help=text, description=more)
        p.add_argument("--variant", default="nine-mens-morris", help="a preset name")
        p.add_argument("--position", metavar="POSITION",
                       help="a position string (Sanmill's FEN for morris boards), as "
                            "`navakankari replay` prints it; e.g. "
                            f"'{EXAMPLE_POSITION}' (nine-mens-morris)")
        if name == "perft":
            p.add_argument("--depth", type=whole(1), required=True, help="plies, at least 1")
        p.set_defaults(func=_guard(func))

    from navakankari.engine.hint import BOARD_BUDGETS, NODE_STEP

    p = sub.add_parser(
        "hint", help="judge every legal action: keeps, worse, drops or loses",
        description="Judge every legal action of the side to act by what it does to the "
                    "game's value for that side: keeps (the result), worse, drops (loses a "
                    "pebble: the reason found is named), loses (the game); exact in three "
                    "against three or four where the endgame database holds, else searched "
                    "within --budget nodes, the same verdicts on every machine and after any "
                    "other position. Prints each action with its class, the best action and "
                    "the opponent's threats.")
    p.add_argument("--variant", default="nine-mens-morris", help="a preset name")
    p.add_argument("--position", metavar="POSITION", action="append",
                   help="a position string, as for moves (default: the start); repeat it to "
                        "judge several one after another, or `-` to read one a line from "
                        "standard input")
    p.add_argument("--json", action="store_true",
                   help='print one line a position: {"position": ..., "best": ACTION, '
                        '"actions": {ACTION: CLASS, ...}, "reasons": {ACTION: WORDS, ...}, '
                        '...} (or {"position": ..., "error": ...} for a bad one)')
    language_option(p)
    p.add_argument("--budget", type=whole(1), default=None,
                   help=f"search nodes (rounded up to a multiple of {NODE_STEP}; default the "
                        f"board's: {BOARD_BUDGETS['morris']}, {BOARD_BUDGETS['jump']} for "
                        "nau-keti-keta): more for a deeper judgement")
    p.set_defaults(func=_guard(cmd_hint))

    p = sub.add_parser("build-engine", help="compile the engine's C core and hot modules "
                                            "(optional, faster)",
                       description="Compile the morris search in C (engine/core.c) and, where "
                                   "mypy is installed, the engine's hot modules with mypyc "
                                   "into engine/_native (about half a minute); nothing to do "
                                   "when the build there matches the sources.")
    p.add_argument("--optional", action="store_true",
                   help="exit 0 when it cannot be built: the pure-Python engine then plays")
    p.add_argument("--force", action="store_true",
                   help="compile even when the build matches the sources")
    p.set_defaults(func=cmd_build_engine, rebuilds_engine=True)

    p = sub.add_parser("build-endgame",
                       help="solve three against three (flying) and write the endgame database")
    p.add_argument("--out", help="where to write it (default: the engine's shipped file)")
    p.add_argument("--three-four", action="store_true",
                   help="solve three against four instead (the side of three flying, the side "
                        "of four stepping), from the three-against-three database")
    p.set_defaults(func=cmd_build_endgame)

    p = sub.add_parser("bench", help="print speed figures")
    p.add_argument("sections", nargs="*", help=f"sections to run (default all: {', '.join(BENCH_SECTIONS)}; "
                                               f"soak runs when named: {', '.join(SOAK_SECTIONS)})")
    p.add_argument("--quick", action="store_true", help="smaller runs")
    add_arguments(p)  # the soak runs' sizes: fuzz, power-cut
    p.add_argument("--busy", action="store_true",
                   help="thinking: keep every core busy with other processes meanwhile")
    p.add_argument("--duration", type=seconds(5, 3600), metavar="SECONDS",
                   help="thinking: how long to play (default 60, 20 with --quick)")
    p.add_argument("--same-priority", action="store_true",
                   help="thinking: run the loop and the search at one priority (for comparison)")
    p.add_argument("--speech", action="store_true",
                   help="daemon: also the daemon loop's latency with speech off and on "
                        "(espeak-ng into aplay on ALSA's null device)")
    p.set_defaults(func=cmd_bench)
