"""`navakankari sim`: the daemon on a simulated board with every point of both boards, and
its page in the browser."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from navakankari.hal.words import N_

from .args import Commands, error_words, language_option, words
from .run import announcements, online_services, run_daemon

if TYPE_CHECKING:
    from ..store.writer_lock import WriterLock


#: The configuration keys `sim` sets from its options.
SIM_FLAGS = {"game.variant": "--variant", "web.address": "--address", "web.port": "--port",
             "web.pin": "--pin", "store.path": "--store", "online.broker": "--broker",
             "online.password_file": "--broker", "online.player_page": "--player-page"}


#: The simulator's game when its command line names none (the menu's "the same as last time"):
#: a bare `computer` plays at the default level.
SIM_DEFAULTS = {"variant": "navakankari", "white": "hand", "black": "computer"}
SIM_PORT = 8080
ANY_PORT_STORES = 100
"""How many stores simulators on `--port 0` try: `simulator-0.sqlite3`, then
`simulator-0-2.sqlite3` and on, the first that no running board writes."""


def _sim_store(args: argparse.Namespace) -> tuple[str, "WriterLock | None"]:
    """The simulator's game store: `--store`, else one per simulated board, named by its
    board name or, on another port than the first simulator's, by its port; so two
    simulators side by side (two homes playing online) never share a game. On `--port 0`
    (a port the system chooses, another each time) the first of the port-0 stores that no
    other board writes, with its writer's lock (else the daemon takes it, and refuses a
    store another board writes): the simulator started alone resumes its game, and those
    started beside it play on stores of their own."""
    import contextlib
    import re
    from pathlib import Path

    from ..daemon.config import Config
    from ..store.database import StoreInUseError, StoreUnusableError, hold_store

    if args.store:
        folder = Path(args.store).expanduser().parent
        if not folder.exists():  # a mistyped path is not made; a file in the way, the store says
            raise StoreUnusableError(N_("cannot use {file} for the game store: there is no "
                                        "folder {folder}"), file=args.store, folder=folder)
        return str(args.store), None
    name = "simulator"
    if args.board_name:
        name += "-" + (re.sub(r"[^A-Za-z0-9]+", "-", args.board_name).strip("-").lower()
                       or "board")
    elif args.port != SIM_PORT:
        name += f"-{args.port}"
    first = Config().store_file().with_name(name + ".sqlite3")
    if args.board_name or args.port != 0:
        return str(first), None
    stores = [first, *(first.with_name(f"{name}-{n}.sqlite3")
                       for n in range(2, ANY_PORT_STORES + 1))]
    for path in stores[:-1]:
        with contextlib.suppress(StoreInUseError):
            return str(path), hold_store(path)
    return str(stores[-1]), hold_store(stores[-1])  # all held: the last one's refusal


def cmd_sim(args: argparse.Namespace) -> int:
    """The daemon on a simulated board with every point of both boards, and its page."""
    import secrets
    import threading
    import webbrowser

    from navakankari.hal import load_profile, open_board

    from ..companion.backend import companion_service
    from ..core.players import PlayerSpec, PlayerSpecError
    from ..core.errors import ConfigError
    from ..daemon.config import Config
    from ..daemon.notify import setup_logging
    from ..store.database import EXIT_STORE_UNUSABLE, StoreError, StoreUnusableError

    named = any(value is not None for value in (args.variant, args.white, args.black))
    tr = words(args)
    lock = None
    try:
        store_path, lock = _sim_store(args)
        config = Config(
            game_variant=args.variant or SIM_DEFAULTS["variant"],
            game_white=PlayerSpec.parse(args.white or SIM_DEFAULTS["white"], "--white"),
            game_black=PlayerSpec.parse(args.black or SIM_DEFAULTS["black"], "--black"),
            board_profile="sim-25",
            store_path=store_path,
            web_address=args.address,
            web_port=args.port,
            web_pin=args.pin or f"{secrets.randbelow(10**6):06d}",
            online_broker=args.broker or "",
            online_board_name=args.board_name or "",
            online_player_page=args.player_page or "",
            board_language=args.language or "",
        )
        online = online_services(config)
    except StoreError as exc:
        print(f"navakankari sim: {exc.words(tr)}", file=sys.stderr)
        return EXIT_STORE_UNUSABLE if isinstance(exc, StoreUnusableError) else 1
    except (ConfigError, PlayerSpecError) as exc:  # named as typed: --pin, not web.pin
        if lock is not None:
            lock.release()
        flag = SIM_FLAGS.get(exc.key)
        problem = exc.problem_words(tr)
        print(f"navakankari sim: {f'{flag}: {problem}' if flag else error_words(exc, tr)}",
              file=sys.stderr)
        return 2
    setup_logging("debug" if args.verbose else config.log_level)
    from ..companion.names import local_url

    board = open_board(load_profile(config.profile), backend="sim")

    def ready(port: int) -> None:  # the port served on (--port 0: the one the system chose)
        url = local_url(config.web_address, port, f"/#pin={config.web_pin}")
        print(tr.gettext("the simulator is at {url}  (PIN {pin}; games kept in {store}; "
                         "Ctrl-C ends it)").format(url=url, pin=config.web_pin,
                                                   store=config.store_file()), flush=True)
        if not args.no_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    from ..daemon.simhands import carry_out

    hands = [carry_out(args.carry_out)] if args.carry_out > 0 else []
    return run_daemon("sim", config, board, start_named=named, store_lock=lock,
                      services=[companion_service(config.web_pin, config.web_address,
                                                  config.web_port, required=True,
                                                  on_ready=ready),
                                *online, *hands, announcements(config, aloud=False)])


def register(sub: Commands) -> None:
    from navakankari.engine.player import DEFAULT_LEVEL

    from ..core.players import SPEC_WORDS
    from .args import renamed, seconds

    p = sub.add_parser("sim", help="the simulator: the daemon on a simulated board, in the browser",
                       description="The simulator: the board daemon on a simulated board with "
                                   "every point of both boards, and its web page opened in the "
                                   "browser, where clicks and drags move pebbles as hands "
                                   f"would. Players: {SPEC_WORDS}. Ctrl-C ends it.")
    p.add_argument("--variant", help="a preset name (navakankari variants); with --white or "
                                     "--black, the game starts at once, without the menu "
                                     "(default: the menu, navakankari)")
    p.add_argument("--white", metavar="SPEC",
                   help="who plays white (default hand): a player spec as above")
    p.add_argument("--black", metavar="SPEC",
                   help=f"who plays black (default computer:{DEFAULT_LEVEL})")
    p.add_argument("--address", default="127.0.0.1",
                   help="address to serve the page on (the configuration's web.address)")
    p.add_argument("--port", type=int, default=SIM_PORT, help="port to serve the page on (0: a free one the "
                                                         "system chooses, in the address printed)")
    p.add_argument("--pin", help="PIN for changes from the page (default: a random one, "
                                 "passed to the page opened here)")
    p.add_argument("--store", help="SQLite file for the simulator's games, in a folder that "
                                   "exists (default: one per simulated board in the state "
                                   "directory: simulator.sqlite3, simulator-NAME.sqlite3 with "
                                   "--board-name, else simulator-PORT.sqlite3 on another "
                                   "--port; on --port 0, simulator-0.sqlite3 or, while "
                                   "another simulator writes it, simulator-0-2.sqlite3 and "
                                   "on)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--carry-out", type=seconds(0, 60), default=1.0, metavar="SECONDS",
                   help="the simulated hands carry out the computer's and the remote "
                        "player's moves once they have been lit this long (default 1; 0: "
                        "the person carries them out, as on a board)")
    p.add_argument("--broker", metavar="URL",
                   help="online play through this MQTT broker: mqtt://, mqtts://, ws:// or "
                        "wss://, with user:password@ before the host to try it out (a board "
                        "reads its password from a file)")
    p.add_argument("--board-name", help="the name the other player sees (default: this "
                                        "machine's)")
    p.add_argument("--player-page", metavar="URL",
                   help="the browser player's page (as navakankari broker prints it): a game "
                        "code is shown with a link and a QR code that open it")
    language_option(p)
    renamed(p, "--host", "--address")
    p.set_defaults(func=cmd_sim)
