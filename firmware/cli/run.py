"""`navakankari run`: the board daemon on the wired board, as systemd starts it; and the
daemon's run on an open board, which `sim` shares."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TYPE_CHECKING, Any

from .args import Commands, error_words, words

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from navakankari.hal import BoardHardware

    from ..daemon.config import Config


def cmd_run(args: argparse.Namespace) -> int:
    from navakankari.hal import BackendError, ProfileError, load_profile, open_board

    from ..core.errors import ConfigError
    from ..daemon.config import EXIT_CONFIG, load_config
    from ..daemon.notify import setup_logging

    # A configuration that cannot work exits EXIT_CONFIG, which the unit does not restart.
    try:
        config = load_config(args.config)
        profile = load_profile(config.profile)
    except (ConfigError, ProfileError) as exc:
        print(f"navakankari run: {error_words(exc, words(args))}", file=sys.stderr)
        return EXIT_CONFIG
    tr = words(args, config.board_language)
    mismatch = config.board_mismatch(profile.points, tr)
    if mismatch:
        print(f"navakankari run: {mismatch}", file=sys.stderr)
        return EXIT_CONFIG
    setup_logging("debug" if args.verbose else config.log_level)
    if args.realtime:
        loop_priority()
    script = args.sim_hands.split() if args.sim_hands is not None else None
    try:
        board = open_board(profile, backend="sim" if script is not None else None)
    except (BackendError, OSError, ImportError, RuntimeError) as exc:
        print(tr.gettext("navakankari run: cannot open the board ({profile}): {problem}")
              .format(profile=config.profile, problem=error_words(exc, tr)), file=sys.stderr)
        if "NAVAKANKARI_BACKEND" not in str(exc):
            print(tr.gettext("(on a computer without the hardware, set "
                             "NAVAKANKARI_BACKEND=sim)"), file=sys.stderr)
        return 1
    from ..companion.backend import companion_service

    services = [companion_service(config.web_pin, config.web_address, config.web_port)] \
        if config.web_port else []
    try:
        services += online_services(config)
    except ConfigError as exc:
        board.close()
        print(f"navakankari run: {exc}", file=sys.stderr)
        return 2
    services.append(announcements(config, aloud=True))
    return run_daemon("run", config, board, sim_script=script, services=services)


def loop_priority() -> None:
    """Before the board opens (its reading threads take the loop's scheduling): the lowest
    realtime priority where the system gives it, else the unit's Nice= stays."""
    from navakankari.hal.scheduling import describe, take_realtime

    took = take_realtime()
    log.info("the loop runs at %s%s", describe(),
             "" if took else " (realtime priority refused: LimitRTPRIO= or CAP_SYS_NICE needed)")


def announcements(config: "Config", *, aloud: bool) -> Any:
    """Spoken announcements: aloud through espeak-ng and ALSA on a board, by the page in the
    simulator; off until the configuration, the menu or the page turns them on."""
    from pathlib import Path

    from navakankari.firmware.i18n.catalogs import translations

    from ..daemon.speech_service import speech_service
    from ..daemon.voice import Voice
    from ..system.audio import sound_cards

    return speech_service(Voice(config.speech_rate, config.speech_device),
                          default=config.speech_enabled, aloud=aloud, translate=translations,
                          way_in=aloud and bool(sound_cards(Path("/"))))


def online_services(config: "Config") -> list[Any]:
    """Online play as a daemon service, when the configuration names a broker."""
    from ..daemon.online_service import online_service

    address = config.online_address()
    return [] if address is None else [online_service(address, config.board_name,
                                                      config.online_player_page)]


def run_daemon(command: str, config: "Config", board: "BoardHardware", **options: Any) -> int:
    """Run the daemon on an open board until it stops; a store that cannot be opened, a
    board that does not match the game, and bad values are one line and an exit status."""
    from ..daemon import event_loop
    from ..daemon.config import EXIT_CONFIG
    from ..daemon.loop import BoardMismatchError, Daemon
    from ..store.database import EXIT_STORE_UNUSABLE, StoreError, StoreUnusableError

    try:
        daemon = Daemon(config, board, freeze_heap=True, **options)
    except StoreError as exc:
        board.close()
        print(f"navakankari {command}: {error_words(exc, words(argparse.Namespace(), config.board_language))}",
              file=sys.stderr)
        return EXIT_STORE_UNUSABLE if isinstance(exc, StoreUnusableError) else 1
    try:
        return event_loop.run(daemon.run())
    except BoardMismatchError as exc:
        print(f"navakankari {command}: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except ValueError as exc:
        print(f"navakankari {command}: {exc}", file=sys.stderr)
        return 1


def register(sub: Commands) -> None:
    p = sub.add_parser("run", help="run the board daemon (what systemd starts)",
                       description="Run the board daemon: follow the hands on the board's "
                                   "sensors, light its LEDs, store every action, play the "
                                   "computer's side and serve the web page, as the "
                                   "configuration says. `navakankari service install` has "
                                   "systemd start it at boot.")
    p.add_argument("--config", help="TOML configuration file (default: $NAVAKANKARI_CONFIG or "
                                    "/etc/navakankari/navakankari.toml, else built-in defaults)")
    p.add_argument("--sim-hands", metavar="RECORD",
                   help="on the simulated board, play this game record by simulated hands "
                        "(demos and tests)")
    p.add_argument("--realtime", action="store_true",
                   help="read the sensors at the lowest realtime priority, so a busy Pi cannot "
                        "delay them (the unit passes it; needs LimitRTPRIO= or root)")
    p.set_defaults(func=cmd_run)
