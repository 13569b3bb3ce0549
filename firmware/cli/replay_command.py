"""`navakankari replay`: a recording of raw sensor events run through the daemon's own
session (replay.py), or (`--export`) the raw events of a stored game printed as one."""

from __future__ import annotations

import argparse
import sys

from .args import Commands, error_words, words


def cmd_replay(args: argparse.Namespace) -> int:
    import logging

    from navakankari.engine.errors import RulesError
    from navakankari.engine.game import Side
    from navakankari.engine.presets import preset
    from navakankari.sim.recording import RecordingError

    from ..core.errors import ConfigError
    from ..core.players import PlayerSpec
    from ..core.tracker import TrackerSettings
    from .replay import read_any, run_replay, summary_json, summary_text, unmatched

    if not args.verbose:
        logging.getLogger("navakankari").setLevel(logging.WARNING)
    if args.export:
        return _export(args)
    tr = words(args)
    if not args.file:
        print(tr.gettext("navakankari replay: a recording FILE (or --export STORE) is needed"),
              file=sys.stderr)
        return 2
    try:
        if args.file == "-":
            recording = read_any(sys.stdin, "<stdin>")
        else:
            with open(args.file, encoding="utf-8") as stream:
                recording = read_any(stream, args.file)
        # The recording's first line names its game, or how the menu stood ("the same as last
        # time"); what is given on the command line wins.
        start = recording.menu
        named = start.last if start is not None else recording.game
        rules = preset(args.variant or (named.variant if named else "navakankari"))
        players = {Side.WHITE: PlayerSpec.parse(args.white or (named.white if named else "hand"),
                                                "--white"),
                   Side.BLACK: PlayerSpec.parse(args.black or (named.black if named else "hand"),
                                                "--black")}
        settings = TrackerSettings(args.settle, args.grow, args.grace)
        for name in start.variants if start is not None else ():
            preset(name)  # the menu line names only presets this version has
    except (RulesError, ConfigError, RecordingError, ValueError) as exc:
        print(f"navakankari replay: {error_words(exc, tr)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(tr.gettext("navakankari replay: cannot read {file}: {problem}").format(
            file=args.file, problem=exc.strerror), file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else (start.seed if start is not None else 0)
    menu = variants = None
    if args.menu or start is not None:
        from dataclasses import replace

        from navakankari.hal import load_profile
        from navakankari.hal.profile import ProfileError

        from ..core.menu import MenuSettings, playable
        from ..daemon.config import Config

        try:
            # A recording without the menu line comes from a board older than the line,
            # and so older than the menu's help step, its adaptive computer and its speech
            # and language steps.
            menu = start.settings if start is not None else \
                MenuSettings(assist=False, adaptive=False, speech_step=False)
            if args.menu_hold is not None:
                menu = replace(menu, hold=args.menu_hold)
            if args.profile is None and start is not None:
                variants = start.variants
            else:
                variants = playable(load_profile(
                    args.profile or Config(game_variant=rules.name).profile).points)
        except (ProfileError, ValueError) as exc:
            print(f"navakankari replay: {error_words(exc, tr)}", file=sys.stderr)
            return 2
    result = run_replay(recording.events, rules, players=players, settings=settings, seed=seed,
                        menu=menu, variants=variants,
                        online=start.online if start is not None else False)
    print(summary_json(result.session) if args.json else summary_text(result.session))
    problem = unmatched(result)
    if problem is None:
        return 0
    if args.variant or named:
        print(f"navakankari replay: {args.file}: {problem}", file=sys.stderr)
    else:
        print(tr.gettext("navakankari replay: {file}: {problem} (the recording names no game: "
                         "is it another variant? --variant NAME)").format(
                             file=args.file, problem=problem), file=sys.stderr)
    return 1


def _export(args: argparse.Namespace) -> int:
    """`replay --export STORE`: the raw events of a stored game, as a recording."""
    from pathlib import Path

    from ..store.database import Store, StoreError

    tr = words(args)
    if not Path(args.export).is_file():
        print(tr.gettext("navakankari replay: --export {store}: no game store there").format(
            store=args.export), file=sys.stderr)
        return 1
    try:
        store = Store(args.export)
    except StoreError as exc:
        print(f"navakankari replay: {error_words(exc, tr)}", file=sys.stderr)
        return 1
    try:
        games = store.games(limit=1) if args.game is None else [store.load(args.game)]
        text = store.events_jsonl(games[0].id) if games else ""
    except StoreError as exc:
        print(f"navakankari replay: {error_words(exc, tr)}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if not text:
        if games:
            print(tr.gettext("navakankari replay: game {game} in {store} has no raw sensor "
                             "events (they are kept for the latest game only)").format(
                                 game=games[0].id, store=args.export), file=sys.stderr)
        else:
            print(tr.gettext("navakankari replay: {store} holds no game").format(
                store=args.export), file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


def register(sub: Commands) -> None:
    from ..core.menu import MenuSettings
    from ..core.players import SPEC_WORDS
    from ..core.tracker import TrackerSettings
    from .args import seconds

    p = sub.add_parser("replay", help="run a recording of raw sensor events through the tracker",
                       description="Run a recording of raw sensor events (JSON Lines, "
                                   "downloadable from the page, or --export from a game store) "
                                   "through the daemon's own session and print the game it "
                                   "makes. Exit status 1 when some events never matched the "
                                   "game (another variant?), with a line saying which.")
    p.add_argument("file", nargs="?", help='JSON Lines {"t", "point", "present"}; - for stdin')
    p.add_argument("--variant", help="a preset name (default: navakankari, or the one a "
                                     "recording that starts in the menu names)")
    p.add_argument("--white", metavar="SPEC", help=f"{SPEC_WORDS} (default: the recording's, "
                                                   "else hand)")
    p.add_argument("--black", metavar="SPEC", help="as --white")
    timing = TrackerSettings.SECONDS
    p.add_argument("--settle", type=seconds(*timing["settle"]), default=TrackerSettings.settle,
                   help="settle time in seconds (the configuration's tracker.settle)")
    p.add_argument("--grow", type=seconds(*timing["grow"]), default=TrackerSettings.grow,
                   help="extra wait for growing actions")
    p.add_argument("--grace", type=seconds(*timing["grace"]), default=TrackerSettings.grace,
                   help="seconds before a mistake is shown")
    p.add_argument("--seed", type=int,
                   help="seed of the random computer player and of the menu's tosses "
                        "(default: the recording's, else 0)")
    p.add_argument("--menu", action="store_true",
                   help="the recording starts in the board's menu (--variant, --white and "
                        "--black are then \"the same as last time\"); a recording of a game "
                        "chosen on the board says so itself")
    p.add_argument("--menu-hold", type=seconds(*MenuSettings.SECONDS["hold"]),
                   help="in the menu: the daemon's game.menu_hold (default: the recording's, "
                        "else 1)")
    p.add_argument("--profile", help="in the menu: the wiring profile (its variants are offered; "
                                     "default: the recording's, else the variant's board, "
                                     "direct-24 or direct-19)")
    p.add_argument("--export", metavar="STORE",
                   help="instead, print the raw events of the last game in this SQLite store")
    p.add_argument("--game", type=int, help="with --export: the game id")
    p.add_argument("--json", action="store_true",
                   help='print the result as one JSON line for scripts: {"actions", "position", '
                        '"outcome", "variant", "white", "black"}')
    p.set_defaults(func=cmd_replay)
