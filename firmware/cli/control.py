"""`navakankari takeback` and `new-game`: asking the running daemon, through its companion's
API with the configuration's address and PIN."""

from __future__ import annotations

import argparse
import gettext
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from navakankari.firmware.i18n.catalogs import choose_language, translations

from .args import Commands, error_words, words

if TYPE_CHECKING:
    from ..daemon.config import Config


def ask_daemon(args: argparse.Namespace, path: str,
             body: Callable[["Config"], dict[str, Any]]) -> int:
    """POST to the running daemon what `body(config)` makes of its configuration."""
    return 0 if ask(args, path, body) is not None else 1


def ask(args: argparse.Namespace, path: str, body: Callable[["Config"], dict[str, Any]]
        ) -> tuple[dict[str, Any], gettext.NullTranslations] | None:
    """The running daemon's answer to what `body(config)` makes of its configuration and the
    command's language (its `--language`, else the configuration's, else the
    environment's); None once why not is printed in that language, the daemon's refusal
    too."""
    from ..companion.client import ControlError, post
    from ..core.errors import ConfigError
    from ..daemon.config import load_config

    language = choose_language(getattr(args, "language", None))
    try:
        config = load_config(args.config)
        language = choose_language(getattr(args, "language", None) or config.board_language
                                   or None)
        return post(config, path, body(config), language=language), translations(language)
    except (ConfigError, ControlError) as exc:
        print(f"navakankari {args.command}: {error_words(exc, translations(language))}",
              file=sys.stderr)
        return None


def cmd_takeback(args: argparse.Namespace) -> int:
    body = {"count": args.plies} if args.plies is not None else \
        {"to": args.to} if args.to is not None else {}
    return ask_daemon(args, "/api/takeback", lambda config: body)


def cmd_new_game(args: argparse.Namespace) -> int:
    from navakankari.engine.errors import UnknownVariantError
    from navakankari.engine.presets import preset

    from ..core.players import PlayerSpec, PlayerSpecError

    try:  # what can be checked here is checked before any daemon is asked
        if args.variant:
            preset(args.variant)
        for key in ("white", "black"):
            if getattr(args, key):
                PlayerSpec.parse(getattr(args, key), f"--{key}")
    except UnknownVariantError as exc:
        print(f"navakankari new-game: --variant: {error_words(exc, words(args))}",
              file=sys.stderr)
        return 2
    except PlayerSpecError as exc:
        print(f"navakankari new-game: {exc.words(words(args))}", file=sys.stderr)
        return 2
    return ask_daemon(args, "/api/new-game", lambda config: {
        "variant": args.variant or config.game_variant,
        "white": args.white or str(config.game_white),
        "black": args.black or str(config.game_black)})


def register(sub: Commands) -> None:
    from ..core.players import SPEC_WORDS

    p = sub.add_parser("takeback", help="take back on the running daemon (its last hand turn "
                                        "and the answer, by default)")
    p.add_argument("--config", help="the daemon's configuration (for its web address and PIN)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--plies", type=int, help="take back this many actions")
    group.add_argument("--to", type=int, metavar="PLY",
                       help="back to the position after this many actions (0: the start)")
    p.set_defaults(func=cmd_takeback)

    p = sub.add_parser("new-game", help="start a new game on the running daemon")
    p.add_argument("--config", help="the daemon's configuration (for its web address and PIN)")
    p.add_argument("--variant", help="a preset name (default: the configured one)")
    p.add_argument("--white", metavar="SPEC", help=f"{SPEC_WORDS} (default: the configured one)")
    p.add_argument("--black", metavar="SPEC", help="as --white")
    p.set_defaults(func=cmd_new_game)
