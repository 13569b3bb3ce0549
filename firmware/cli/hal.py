"""`navakankari selftest` and `navakankari calibrate`: the maker's tools for a new board.

Only argument parsing lives here; the tools themselves are in navakankari.hal.
"""

from __future__ import annotations

import argparse
import gettext
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .args import Commands, error_words, language_option, words

if TYPE_CHECKING:
    from navakankari.hal import Profile

DEFAULT_PROFILE = "direct-24"


def register(subparsers: Commands) -> None:
    selftest = subparsers.add_parser(
        "selftest",
        help="light every LED and check every sensor of the board",
        description="Lights every LED in red, green and blue, then lights each point in turn: put a "
        "pebble on it and take it off. Reports stuck, dead and crossed sensors. Press Enter to "
        "skip a step.",
    )
    _profile_argument(selftest)
    language_option(selftest)
    selftest.add_argument(
        "--touch-timeout",
        type=float,
        default=20.0,
        metavar="S",
        help="seconds to wait for a pebble on each lit point (default 20)",
    )
    selftest.add_argument("--no-led-check", action="store_true", help="go straight to the sensors")
    selftest.set_defaults(func=run_selftest)

    calibrate = subparsers.add_parser(
        "calibrate",
        help="learn which sensor and LED belong to each point; write a profile",
        description="Asks for a pebble on each point by name (to learn the sensors), then lights "
        "one LED at a time (put a pebble on the lit point) and writes a profile with the same pins "
        "and the learned order. Press Enter to skip a step (a spare LED).",
    )
    _profile_argument(calibrate)
    language_option(calibrate)
    calibrate.add_argument("--out", required=True, type=Path, metavar="FILE", help="profile file to write")
    calibrate.add_argument(
        "--keep-sensors",
        action="store_true",
        help="trust the profile's sensor wiring and learn only the LED order",
    )
    calibrate.set_defaults(func=run_calibrate)


def _profile_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        default=DEFAULT_PROFILE,
        metavar="P",
        help=f"wiring profile: a shipped name or a TOML file (default {DEFAULT_PROFILE})",
    )


def _enter_pressed() -> Callable[[], bool]:
    """A flag set each time the maker presses Enter (read by a daemon thread)."""
    pressed = threading.Event()

    def read() -> None:
        for _ in sys.stdin:
            pressed.set()

    threading.Thread(target=read, name="stdin", daemon=True).start()

    def check() -> bool:
        if pressed.is_set():
            pressed.clear()
            return True
        return False

    return check


class Stopped(RuntimeError):
    """What stops a maker's tool opening the board on this Pi, in the maker's words."""


def _profile_to_open(name: str, command: str, tr: gettext.NullTranslations) -> "Profile":
    """The profile, once nothing on this Pi stops `command` from opening its board (the
    service holding the pins, LEDs that need root): else Stopped saying what to do."""
    from navakankari.hal import load_profile

    from ..system.doctor import preflight

    profile = load_profile(name)
    stop = preflight(profile, command, tr=tr)
    if stop:
        raise Stopped(stop)
    return profile


def run_selftest(args: argparse.Namespace) -> int:
    from navakankari.hal import BackendError, ProfileError, open_board
    from navakankari.hal.tools.selftest import run_selftest as run

    tr = words(args)
    try:
        profile = _profile_to_open(args.profile, "selftest", tr)
        board = open_board(profile)
    except (ProfileError, BackendError, ImportError, OSError, RuntimeError, ValueError) as exc:
        print(cannot_open("selftest", exc, tr), file=sys.stderr)
        return 2
    try:
        report = run(
            board,
            out=sys.stdout,
            touch_timeout=args.touch_timeout,
            check_leds=not args.no_led_check,
            should_skip=_enter_pressed(),
            tr=tr,
        )
    finally:  # Ctrl-C goes on to `main`, which ends the command quietly
        board.close()
    return 0 if report.ok else 1


def run_calibrate(args: argparse.Namespace) -> int:
    from navakankari.hal import BackendError, ProfileError, open_board
    from navakankari.hal.tools.calibrate import CalibrationError, run_calibration, write_profile

    tr = words(args)
    try:
        profile = _profile_to_open(args.profile, "calibrate", tr)
        learned = run_calibration(
            profile, open_board, keep_sensors=args.keep_sensors, out=sys.stdout,
            should_skip=_enter_pressed(), tr=tr,
        )
    except CalibrationError as exc:
        print(tr.gettext("navakankari calibrate: {problem}").format(problem=exc.words(tr)),
              file=sys.stderr)
        return 2
    except (ProfileError, BackendError, ImportError, OSError, RuntimeError, ValueError) as exc:
        print(cannot_open("calibrate", exc, tr), file=sys.stderr)
        return 2
    write_profile(learned, args.out, note=f"calibrated from {profile.source}")
    print(tr.gettext("The calibrated profile is written to {file}.").format(file=args.out))
    return 0


def cannot_open(command: str, exc: Exception, tr: gettext.NullTranslations) -> str:
    """A maker's tool's one line when the board cannot be opened: the reason is the
    profile's, the backend's or the system's own words."""
    if isinstance(exc, Stopped):  # the preflight's sentence, already in `tr`
        return f"navakankari {command}: {exc}"
    return tr.gettext("navakankari {command}: the board could not be opened: {problem}").format(
        command=command, problem=error_words(exc, tr))
