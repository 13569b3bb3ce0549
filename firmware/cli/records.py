"""`navakankari record`: a game record a person keeps (engine/record.py), read back and
checked, or written from the game store."""

from __future__ import annotations

import argparse
import gettext
import sys
from typing import TYPE_CHECKING

from .args import Commands, error_words, words

if TYPE_CHECKING:
    from navakankari.engine.record import GameRecord


def cmd_record(args: argparse.Namespace) -> int:
    if args.store is not None or args.file is None:
        return _write(args)
    return _read(args)


def _read(args: argparse.Namespace) -> int:
    """Read a record, play every move, and print it as this board writes it, with the board
    at the end and how the game stands."""
    from navakankari.engine.record import (
        MAX_RECORD_CHARS,
        InvalidRecordError,
        format_record,
        parse_record,
        replay_record,
    )

    from .terminal import draw, status

    try:
        if args.file == "-":
            text = sys.stdin.read(MAX_RECORD_CHARS + 1)
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read(MAX_RECORD_CHARS + 1)
        record = parse_record(text)
        game = replay_record(record)
    except (OSError, UnicodeDecodeError) as exc:
        print(words(args).gettext("navakankari record: {file}: cannot read it: {problem}").format(
            file=args.file, problem=exc), file=sys.stderr)
        return 1
    except InvalidRecordError as exc:
        print(f"navakankari record: {args.file}: {error_words(exc, words(args))}",
              file=sys.stderr)
        return 1
    sys.stdout.write(format_record(record))
    if not args.moves_only:
        outcome = game.outcome()
        print()
        print(draw(game))
        print(f"{outcome}" if outcome is not None else status(game))
        print(f"position: {game.position()}")
    if args.repeat:
        return _repeat(args.file, record, words(args))
    return 0


def _repeat(name: str, record: GameRecord, tr: gettext.NullTranslations) -> int:
    """Say whether the record's computer turns repeat from its seed (engine/repeat.py)."""
    from navakankari.engine.record import InvalidRecordError
    from navakankari.engine.repeat import repeat_computer

    try:
        repeated = repeat_computer(record)
    except InvalidRecordError as exc:
        print(f"navakankari record: {name}: {error_words(exc, tr)}", file=sys.stderr)
        return 1
    if repeated.differs is not None:
        number, side, recorded, chosen = repeated.differs
        print(f"seed {record.seed}: {side}'s turn {recorded} (move {number}) comes out "
              f"{chosen} when played again")
        return 1
    print(f"seed {record.seed}: the computer's {repeated.checked} turns repeat")
    return 0


def _write(args: argparse.Namespace) -> int:
    """The record of a stored game (the latest, or --game N)."""
    from pathlib import Path

    from navakankari.engine.record import format_record

    from ..daemon.config import Config
    from ..store.database import Store, StoreError
    from ..store.records import game_record

    config = Config()
    path = Path(args.store) if args.store else config.store_file()
    tr = words(args)
    if not path.is_file():
        print(tr.gettext("navakankari record: {store}: no game store there").format(store=path),
              file=sys.stderr)
        return 1
    try:
        store = Store(path)
    except StoreError as exc:
        print(f"navakankari record: {error_words(exc, tr)}", file=sys.stderr)
        return 1
    try:
        games = store.games(limit=1) if args.game is None else [store.load(args.game)]
        if not games:
            print(tr.gettext("navakankari record: {store} holds no game").format(store=path),
                  file=sys.stderr)
            return 1
        sys.stdout.write(format_record(game_record(games[0], args.site or config.board_name)))
    except StoreError as exc:
        print(f"navakankari record: {error_words(exc, tr)}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


def register(sub: Commands) -> None:
    p = sub.add_parser(
        "record", help="read a game record back, or write one from the game store",
        description="With a FILE (a record downloaded from the page or written by this "
                    "command, or a PGN-style record from Sanmill; - for standard input): "
                    "play every move, then print the record as this board writes it, the "
                    "board at the end and how the game stands; exit status 1 with the line "
                    "or move that is wrong. Without one: print the record of the latest game "
                    "in the game store (--store, --game).")
    p.add_argument("file", nargs="?", help="a game record; - for standard input")
    p.add_argument("--moves-only", action="store_true",
                   help="with FILE: print the record alone, not the board after it")
    p.add_argument("--repeat", action="store_true",
                   help="with FILE: play the turns of computer levels 1-5 (and the adaptive one at its "
                        "Level) again from the "
                        "record's Seed and say whether they repeat (exit status 1 if one "
                        "does not)")
    p.add_argument("--store", metavar="STORE",
                   help="the SQLite game store to write a record from (default: the daemon's)")
    p.add_argument("--game", type=int, help="with --store: the game id (default: the latest)")
    p.add_argument("--site", help="the board's name in the record (default: the "
                                  "configuration's, else this machine's)")
    p.set_defaults(func=cmd_record)
