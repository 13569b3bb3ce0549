"""The argument types the commands share (one wording for a bad number wherever it is typed),
the former spellings of renamed options, and the language a command speaks."""

from __future__ import annotations

import argparse
import gettext
import sys
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from navakankari.firmware.i18n.catalogs import LANGUAGES, choose_language, translations
from navakankari.hal.words import phrase_of, words_of


class Commands(Protocol):
    """What each command module's `register` is handed to add its subcommands to."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def whole(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `least` (`--depth`, `--games`)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return parse


def seconds(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: seconds in low..high, checked and worded as the configuration's
    timings are (`check_seconds`; NaN and infinity are in no range)."""
    from ..core.errors import ConfigError, check_seconds

    def parse(text: str) -> float:
        value: object
        try:
            value = float(text)
        except ValueError:
            value = text
        try:
            return check_seconds("", value, low, high)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(exc.problem) from None

    return parse


def renamed(parser: argparse.ArgumentParser, old: str, new: str) -> None:
    """Accept `old`, the former spelling of the option `new`, for the same value, with a line
    on standard error saying to write `new`; it is left out of the help."""
    action = next(a for a in parser._actions if new in a.option_strings)

    class Renamed(argparse.Action):
        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                     values: Any, option_string: str | None = None) -> None:
            print(f"{parser.prog}: {old} is deprecated and will be removed; write {new}",
                  file=sys.stderr)
            setattr(namespace, action.dest, values)

    added = parser.add_argument(old, dest=f"_renamed_{action.dest}", action=Renamed,
                                choices=action.choices, metavar=action.metavar,
                                help=argparse.SUPPRESS)
    added.type = action.type  # converted and checked as the option itself is


def language_option(parser: argparse.ArgumentParser) -> None:
    """`--language CODE`: the language of what the command says to the maker or player."""
    parser.add_argument("--language", choices=list(LANGUAGES), default=None,
                        help="the language of what it says (default: the configuration's "
                        "[board] language, else the environment's LANG, else English)")


def words(args: argparse.Namespace, configured: str = "") -> gettext.NullTranslations:
    """The catalog a command speaks through (a `gettext` translations object): its
    `--language`, else `configured` (the configuration's `[board] language`), else the
    environment's, else English, chosen as the daemon chooses (`choose_language`)."""
    return translations(choose_language(getattr(args, "language", None) or configured or None))


@runtime_checkable
class Worded(Protocol):
    """An error that keeps its meaning as data and words itself in a language: a bad setting
    (ConfigError), player spec (PlayerSpecError), wiring profile (ProfileError), backend
    (BackendError), store (StoreError), broker address (BrokerAddressError)."""

    def words(self, tr: gettext.NullTranslations, /) -> str: ...


def error_words(exc: BaseException, tr: gettext.NullTranslations) -> str:
    """A command's error in `tr`'s language where it words itself (`Worded`) or keeps its
    meaning as a phrase (`phrase_of`: made from one, or a message and its places); any other
    error (a library's own) as it is worded."""
    return exc.words(tr) if isinstance(exc, Worded) else words_of(phrase_of(exc), tr)
