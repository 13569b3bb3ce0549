"""The `navakankari` command: one entry point, one module per group of subcommands.

Each module named in COMMAND_MODULES defines `register(subparsers)`, which adds its
subcommands and sets `func` on each parser to a callable taking the parsed arguments and
returning an exit code. Command modules import heavy libraries inside their functions, so
`navakankari perft` never loads a web server or a GPIO library.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from navakankari.engine import native

COMMAND_MODULES: tuple[str, ...] = (
    "navakankari.firmware.cli.engine",
    "navakankari.firmware.cli.hal",
    "navakankari.firmware.cli.run",
    "navakankari.firmware.cli.sim",
    "navakankari.firmware.cli.replay_command",
    "navakankari.firmware.cli.control",
    "navakankari.firmware.cli.online",
    "navakankari.firmware.cli.service",
    "navakankari.firmware.cli.play",
    "navakankari.firmware.cli.records",
    "navakankari.firmware.cli.say",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="navakankari",
        description="Electronic Navakankari / Nine Men's Morris board.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands = _Described(sub)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands)
    return parser


class _Described:
    """The subcommands' action as the modules see it: a command without a longer description
    gets its help line as one, so `navakankari CMD --help` always says what CMD does."""

    def __init__(self, sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
        self._sub = sub

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        if kwargs.get("description") is None and kwargs.get("help"):
            help_line = str(kwargs["help"])
            kwargs["description"] = help_line[0].upper() + help_line[1:] + "."
        return self._sub.add_parser(name, **kwargs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    with logging_kept():
        logging.basicConfig(
            level=logging.DEBUG if args.verbose else logging.INFO,
            format="%(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        if not getattr(args, "rebuilds_engine", False):
            native.warn_if_stale()
        try:
            return int(args.func(args) or 0)
        except BrokenPipeError:  # `navakankari moves | head`: the reader left, nothing is wrong
            sys.stderr.close()
            return 0
        except KeyboardInterrupt:  # Ctrl-C: the user stopped it; what was printed stands
            return interrupted()


@contextmanager
def logging_kept() -> Iterator[None]:
    """Put the logging configuration back as it was: a command quietens the project's logger
    (replay, say, bench) or sets up the root's (run, sim) for itself, and `main` is also called
    within a longer process (the tests), where neither may outlast the command."""
    root, package = logging.getLogger(), logging.getLogger("navakankari")
    levels, handlers = (root.level, package.level), root.handlers[:]
    try:
        yield
    finally:
        root.setLevel(levels[0])
        package.setLevel(levels[1])
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        for handler in handlers:
            if handler not in root.handlers:
                root.addHandler(handler)


EXIT_INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT, as a shell reports it)."""


def interrupted() -> int:
    """End a command stopped by Ctrl-C: no traceback, the line it was on closed, status 130.
    Every command gets this from `main`; one that has more to say (`play`) says it and lets
    the interrupt go on."""
    try:
        sys.stdout.flush()
        if sys.stderr.isatty():  # after the terminal's ^C (and a progress bar's half line)
            sys.stderr.write("\n")
            sys.stderr.flush()
    except (OSError, ValueError):  # a closed or departed stream: nothing more to say
        pass
    return EXIT_INTERRUPTED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
