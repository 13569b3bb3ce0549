"""Daemon commands: `run`, `sim`, `replay`, `service`, and `takeback` / `new-game` on a running daemon."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .args import Commands

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
        mismatch = config.board_mismatch(profile.points)
    except (ConfigError, ProfileError) as exc:
        print(f"navakankari run: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if mismatch:
        print(f"navakankari run: {mismatch}", file=sys.stderr)
        return EXIT_CONFIG
    setup_logging("debug" if args.verbose else config.log_level)
    script = args.sim_hands.split() if args.sim_hands is not None else None
    try:
        board = open_board(profile, backend="sim" if script is not None else None)
    except (BackendError, OSError, ImportError, RuntimeError) as exc:
        hint = "" if "NAVAKANKARI_BACKEND" in str(exc) else \
            "\n(on a computer without the hardware, set NAVAKANKARI_BACKEND=sim)"
        print(f"navakankari run: cannot open the board ({config.profile}): {exc}{hint}",
              file=sys.stderr)
        return 1
    from ..companion.backend import companion_service

    services = [companion_service(config.web_pin, config.web_address, config.web_port)] \
        if config.web_port else []
    try:
        services += _online_services(config)
    except ConfigError as exc:
        board.close()
        print(f"navakankari run: {exc}", file=sys.stderr)
        return 2
    services.append(_speech_service(config, aloud=True))
    return _run_daemon("run", config, board, sim_script=script, services=services)


def _speech_service(config: "Config", *, aloud: bool) -> Any:
    """Spoken announcements: aloud through espeak-ng and ALSA on a board, by the page in the
    simulator; off until the configuration, the menu or the page turns them on."""
    from navakankari.i18n.catalogs import translations

    from ..daemon.speech_service import speech_service
    from ..daemon.voice import Voice

    return speech_service(Voice(config.speech_rate, config.speech_device),
                          default=config.speech_enabled, aloud=aloud, translate=translations)


def _online_services(config: "Config") -> list[Any]:
    """Online play as a daemon service, when the configuration names a broker."""
    from ..daemon.online_service import online_service

    address = config.online_address()
    return [] if address is None else [online_service(address, config.board_name,
                                                      config.online_page)]


def _run_daemon(command: str, config: "Config", board: "BoardHardware", **options: Any) -> int:
    """Run the daemon on an open board until it stops; a store that cannot be opened, a
    board that does not match the game, and bad values are one line and an exit status."""
    import asyncio

    from ..daemon.config import EXIT_CONFIG
    from ..daemon.loop import BoardMismatchError, Daemon
    from ..store.database import EXIT_STORE_UNUSABLE, StoreError, StoreUnusableError

    try:
        daemon = Daemon(config, board, **options)
    except StoreError as exc:
        board.close()
        print(f"navakankari {command}: {exc}", file=sys.stderr)
        return EXIT_STORE_UNUSABLE if isinstance(exc, StoreUnusableError) else 1
    try:
        return asyncio.run(daemon.run())
    except BoardMismatchError as exc:
        print(f"navakankari {command}: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except ValueError as exc:
        print(f"navakankari {command}: {exc}", file=sys.stderr)
        return 1


#: The configuration keys `sim` sets from its options.
SIM_FLAGS = {"game.variant": "--variant", "web.address": "--host", "web.port": "--port",
             "web.pin": "--pin", "store.path": "--store", "online.broker": "--broker",
             "online.password_file": "--broker", "online.page": "--player-page"}


#: The simulator's game when its command line names none (the menu's "the same as last time").
SIM_DEFAULTS = {"variant": "navakankari", "white": "hand", "black": "computer:3"}
SIM_PORT = 8080


def _sim_store(args: argparse.Namespace) -> str:
    """The simulator's game store: `--store`, else one per simulated board, named by its
    board name or, on another port than the first simulator's, by its port; so two
    simulators side by side (two homes playing online) never share a game."""
    import re
    from pathlib import Path

    from ..daemon.config import Config
    from ..store.database import StoreUnusableError

    if args.store:
        folder = Path(args.store).expanduser().parent
        if not folder.exists():  # a mistyped path is not made; a file in the way, the store says
            raise StoreUnusableError(f"cannot use {args.store} for the game store: there is "
                                     f"no folder {folder}")
        return str(args.store)
    name = "simulator"
    if args.board_name:
        name += "-" + (re.sub(r"[^A-Za-z0-9]+", "-", args.board_name).strip("-").lower()
                       or "board")
    elif args.port != SIM_PORT:
        name += f"-{args.port}"
    return str(Config().store_file().with_name(name + ".sqlite3"))


def cmd_sim(args: argparse.Namespace) -> int:
    """The daemon on a simulated board with every point of both boards, and its page."""
    import secrets
    import threading
    import webbrowser

    from navakankari.hal import load_profile, open_board

    from ..companion.backend import companion_service
    from ..core.players import PlayerSpec
    from ..core.errors import ConfigError
    from ..daemon.config import Config
    from ..daemon.notify import setup_logging
    from ..store.database import EXIT_STORE_UNUSABLE, StoreUnusableError

    named = any(value is not None for value in (args.variant, args.white, args.black))
    try:
        config = Config(
            game_variant=args.variant or SIM_DEFAULTS["variant"],
            game_white=PlayerSpec.parse(args.white or SIM_DEFAULTS["white"], "--white"),
            game_black=PlayerSpec.parse(args.black or SIM_DEFAULTS["black"], "--black"),
            board_profile="sim-25",
            store_path=_sim_store(args),
            web_address=args.host,
            web_port=args.port,
            web_pin=args.pin or f"{secrets.randbelow(10**6):06d}",
            online_broker=args.broker or "",
            online_board_name=args.board_name or "",
            online_page=args.player_page or "",
        )
        online = _online_services(config)
    except StoreUnusableError as exc:
        print(f"navakankari sim: {exc}", file=sys.stderr)
        return EXIT_STORE_UNUSABLE
    except ConfigError as exc:  # named as typed: --pin, not the configuration's web.pin
        flag = SIM_FLAGS.get(exc.key)
        print(f"navakankari sim: {f'{flag}: {exc.problem}' if flag else exc}", file=sys.stderr)
        return 2
    setup_logging("debug" if args.verbose else config.log_level)
    from ..companion.names import local_url

    url = local_url(config.web_address, config.web_port, f"/#pin={config.web_pin}")
    board = open_board(load_profile(config.profile), backend="sim")

    def ready() -> None:
        print(f"the simulator is at {url}  (PIN {config.web_pin}; games kept in "
              f"{config.store_file()}; Ctrl-C ends it)", flush=True)
        if not args.no_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    from ..daemon.simhands import carry_out

    hands = [carry_out(args.carry_out)] if args.carry_out > 0 else []
    return _run_daemon("sim", config, board, start_named=named, services=[companion_service(
        config.web_pin, config.web_address, config.web_port, required=True, on_ready=ready),
        *online, *hands, _speech_service(config, aloud=False)])


def _control(args: argparse.Namespace, path: str,
             body: Callable[["Config"], dict[str, Any]]) -> int:
    """POST to the running daemon what `body(config)` makes of its configuration."""
    from ..companion.client import ControlError, post
    from ..core.errors import ConfigError
    from ..daemon.config import load_config

    try:
        config = load_config(args.config)
        post(config, path, body(config))
    except (ConfigError, ControlError) as exc:
        print(f"navakankari {args.command}: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_takeback(args: argparse.Namespace) -> int:
    body = {"count": args.plies} if args.plies is not None else \
        {"to": args.to} if args.to is not None else {}
    return _control(args, "/api/takeback", lambda config: body)


def cmd_new_game(args: argparse.Namespace) -> int:
    from navakankari.engine.errors import UnknownVariantError
    from navakankari.engine.presets import preset

    from ..core.errors import ConfigError
    from ..core.players import PlayerSpec

    try:  # what can be checked here is checked before any daemon is asked
        if args.variant:
            preset(args.variant)
        for key in ("white", "black"):
            if getattr(args, key):
                PlayerSpec.parse(getattr(args, key), f"--{key}")
    except UnknownVariantError as exc:
        print(f"navakankari new-game: --variant: {exc.args[0]}", file=sys.stderr)
        return 2
    except ConfigError as exc:
        print(f"navakankari new-game: {exc}", file=sys.stderr)
        return 2
    return _control(args, "/api/new-game", lambda config: {
        "variant": args.variant or config.game_variant,
        "white": args.white or str(config.game_white),
        "black": args.black or str(config.game_black)})


def cmd_invite(args: argparse.Namespace) -> int:
    """Offer an online game on the running daemon and print the code to read out."""
    from ..companion.client import ControlError, post
    from ..core.errors import ConfigError
    from ..daemon.config import load_config

    try:
        config = load_config(args.config)
        answer = post(config, "/api/online/invite", {
            "variant": args.variant or config.game_variant, "side": args.side,
            "starts": args.starts})
    except (ConfigError, ControlError) as exc:
        print(f"navakankari invite: {exc}", file=sys.stderr)
        return 1
    print(f"game code: {answer['code']}  (the other player joins with it; the game starts on "
          "the board once they do)")
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    """Join, on the running daemon, the online game offered under a code."""
    from ..online.code import GameCode, InvalidCodeError

    try:
        code = GameCode.parse(args.code)
    except InvalidCodeError as exc:
        print(f"navakankari join: {exc}", file=sys.stderr)
        return 2
    return _control(args, "/api/online/join", lambda config: {"code": str(code)})


def cmd_online_page(args: argparse.Namespace) -> int:
    """Write the browser player's page into a folder, for a static host or the broker's
    `http_dir`."""
    from pathlib import Path

    from ..online.player_page import write_page

    try:
        written = write_page(Path(args.folder))
    except OSError as exc:
        print(f"navakankari online-page: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {len(written)} files to {args.folder}: serve them as they are (a static "
          "host, or Mosquitto's websockets listener with http_dir); the page asks for the "
          "game code, the broker's ws:// or wss:// address and a login")
    return 0


def cmd_broker(args: argparse.Namespace) -> int:
    """Run the club's broker configuration on this machine until Ctrl-C (or SIGTERM): online
    play on one laptop, or a first try before a club sets up its own."""
    import secrets
    from pathlib import Path

    from ..online.club import Ports
    from ..online.player_page import write_page
    import subprocess

    from .local_broker import BrokerMissingError, LocalBroker

    users: dict[str, str] = {}
    for given in args.user or [f"player:{secrets.token_urlsafe(9)}"]:
        name, sep, password = given.partition(":")
        if not sep or not name or not password:
            print(f"navakankari broker: --user {given!r}: give NAME:PASSWORD", file=sys.stderr)
            return 2
        users[name] = password
    folder = Path(args.folder).resolve()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_page(folder / "page")
        broker = LocalBroker(folder, users=users, http_dir=folder / "page",
                             ports=Ports(args.mqtt_port, args.tls_port, args.web_port))
        broker.start()
    except (BrokerMissingError, OSError, RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"navakankari broker: {exc}", file=sys.stderr)
        return 1
    first = next(iter(users))
    print(f"the broker runs in {folder} (Ctrl-C stops it); logins: {', '.join(users)}")
    for name, password in users.items():
        if not args.user:
            print(f"  {name}'s password: {password}")
    print(f"  boards:   navakankari sim --broker mqtt://{first}:PASSWORD@127.0.0.1:{broker.port}"
          " --board-name NAME\n"
          f"            (or mqtts://...:{broker.tls_port} with ca_file {broker.ca_file})\n"
          f"  browsers: http://127.0.0.1:{broker.ws_port}/index.html "
          f"(broker ws://127.0.0.1:{broker.ws_port})", flush=True)
    import signal

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # stopped as by Ctrl-C: Mosquitto goes too, its ports free

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        assert broker.proc is not None
        code = broker.proc.wait()
    except KeyboardInterrupt:
        code = 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        broker.stop()
    if code:
        print(f"navakankari broker: mosquitto stopped ({code}); see {folder}/mosquitto.log",
              file=sys.stderr)
    return 1 if code else 0


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
    if not args.file:
        print("navakankari replay: a recording FILE (or --export STORE) is needed", file=sys.stderr)
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
        print(f"navakankari replay: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"navakankari replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
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
            # and so older than the menu's help step.
            menu = start.settings if start is not None else MenuSettings(assist=False)
            if args.menu_hold is not None:
                menu = replace(menu, hold=args.menu_hold)
            if args.profile is None and start is not None:
                variants = start.variants
            else:
                variants = playable(load_profile(
                    args.profile or Config(game_variant=rules.name).profile).points)
        except (ProfileError, ValueError) as exc:
            print(f"navakankari replay: {exc}", file=sys.stderr)
            return 2
    result = run_replay(recording.events, rules, players=players, settings=settings, seed=seed,
                        menu=menu, variants=variants,
                        online=start.online if start is not None else False)
    print(summary_json(result.session) if args.json else summary_text(result.session))
    problem = unmatched(result)
    if problem is None:
        return 0
    hint = "" if args.variant or named else \
        " (the recording names no game: is it another variant? --variant NAME)"
    print(f"navakankari replay: {args.file}: {problem}{hint}", file=sys.stderr)
    return 1


def _export(args: argparse.Namespace) -> int:
    """`replay --export STORE`: the raw events of a stored game, as a recording."""
    from pathlib import Path

    from ..store.database import Store, StoreError

    if not Path(args.export).is_file():
        print(f"navakankari replay: --export {args.export}: no game store there",
              file=sys.stderr)
        return 1
    try:
        store = Store(args.export)
    except StoreError as exc:
        print(f"navakankari replay: {exc}", file=sys.stderr)
        return 1
    try:
        games = store.games(limit=1) if args.game is None else [store.load(args.game)]
        text = store.events_jsonl(games[0].id) if games else ""
    except StoreError as exc:
        print(f"navakankari replay: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if not text:
        which = f"game {games[0].id}" if games else "the store"
        print(f"navakankari replay: {which} in {args.export} has no raw sensor events "
              "(they are kept for the latest game only)", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


def cmd_service(args: argparse.Namespace) -> int:
    import subprocess
    from pathlib import Path

    from navakankari.hal.profile import ProfileError, load_profile

    from ..core.errors import ConfigError
    from ..daemon.config import Config, load_config
    from ..system.service import (
    CONFIG_DIR,
    UNIT_NAME,
    Network,
    before_install,
    install_steps,
    run_steps,
    uninstall_steps,
    unit_needs_of,
)

    if args.action == "status":
        if args.dry_run:
            print(f"systemctl status {UNIT_NAME} --no-pager")
            return 0
        return subprocess.run(["systemctl", "status", UNIT_NAME, "--no-pager"], check=False).returncode
    if args.action == "uninstall":
        return run_steps(uninstall_steps(), dry_run=args.dry_run)
    # The unit runs the configuration it was installed with: --config, else the default.
    config_path = Path(args.config).resolve() if args.config else CONFIG_DIR / "navakankari.toml"
    try:
        config = load_config(config_path) if config_path.exists() else Config()
        needs = unit_needs_of(config.profile)
        mismatch = config.board_mismatch(load_profile(config.profile).points)
    except (ConfigError, ProfileError) as exc:
        print(f"navakankari service: {exc}", file=sys.stderr)
        return 2
    if mismatch:  # the unit would fail at every start
        print(f"navakankari service: {config_path}: {mismatch}", file=sys.stderr)
        return 2
    said, go_on = before_install(config_path, dry_run=args.dry_run,
                                 groups=() if args.root or needs.root else needs.groups)
    for line in said:
        print(f"navakankari service: {line}", file=sys.stderr)
    if not go_on:
        return 2
    return run_steps(install_steps(needs=needs, root=args.root, config=config_path,
                                   network=Network(config.web_address, config.web_port,
                                                   bool(config.online_broker))),
                     dry_run=args.dry_run)


def cmd_doctor(args: argparse.Namespace) -> int:
    from pathlib import Path

    from navakankari.hal.profile import ProfileError, load_profile

    from ..core.errors import ConfigError
    from ..daemon.config import Config, load_config
    from ..system.audio import SpeechSetting
    from ..system.doctor import Doctor, report, report_fix_lines
    from ..system.service import CONFIG_DIR

    root = Path(args.root)
    config_file = Path(args.config) if args.config else CONFIG_DIR / "navakankari.toml"
    on_disk = config_file if args.config else root / config_file.relative_to("/")
    try:
        config = load_config(on_disk) if args.config or on_disk.exists() else Config()
        profile = load_profile(args.profile or config.profile)
    except (ConfigError, ProfileError) as exc:
        print(f"navakankari doctor: {exc}", file=sys.stderr)
        return 2
    findings = Doctor(root, profile, config_file,
                      variant_problem=config.board_mismatch(profile.points),
                      speech=SpeechSetting(config.speech_enabled, config.speech_device,
                                           config.board_language)).run()
    if args.fix_lines:
        report_fix_lines(findings, say=lambda line: print(line, file=sys.stderr))
    else:
        absent = "" if args.config or on_disk.exists() else " (absent: the built-in defaults)"
        print(f"navakankari doctor: profile {args.profile or config.profile} ({profile.name}), "
              f"config {config_file}{absent}")
        report(findings)
    return 1 if any(f.blocking for f in findings) else 0


def register(sub: Commands) -> None:
    from ..core.menu import MenuSettings
    from ..core.tracker import TrackerSettings
    from ..core.players import SPEC_WORDS
    from .args import seconds

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
    p.set_defaults(func=cmd_run)

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
                   help="who plays black (default computer:3)")
    p.add_argument("--host", default="127.0.0.1", help="address to serve the page on")
    p.add_argument("--port", type=int, default=SIM_PORT, help="port to serve the page on")
    p.add_argument("--pin", help="PIN for changes from the page (default: a random one, "
                                 "passed to the page opened here)")
    p.add_argument("--store", help="SQLite file for the simulator's games, in a folder that "
                                   "exists (default: one per simulated board in the state "
                                   "directory: simulator.sqlite3, simulator-NAME.sqlite3 with "
                                   "--board-name, else simulator-PORT.sqlite3 on another "
                                   "--port)")
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
    p.set_defaults(func=cmd_sim)

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

    p = sub.add_parser("invite", help="offer an online game on the running daemon; prints its code",
                       description="Offer a game to a player at another board, through the "
                                   "broker the configuration's [online] names. Prints the game "
                                   "code to read out; the other player joins with it "
                                   "(navakankari join CODE, or the page).")
    p.add_argument("--config", help="the daemon's configuration (for its web address and PIN)")
    p.add_argument("--variant", help="a preset name (default: the configured one)")
    p.add_argument("--side", choices=("white", "black"), default="white",
                   help="the side this board plays (default white)")
    p.add_argument("--starts", choices=("white", "black", "toss"), default="white",
                   help="who moves first: white, black, or a toss neither board can bias")
    p.set_defaults(func=cmd_invite)

    p = sub.add_parser("join", help="join an online game on the running daemon with its code",
                       description="Join the game another board offered; it starts on this "
                                   "board at once.")
    p.add_argument("code", help="the game code, as K7M-2P9-QRT-AX4-B8C-D3F-GH5")
    p.add_argument("--config", help="the daemon's configuration (for its web address and PIN)")
    p.set_defaults(func=cmd_join)

    p = sub.add_parser("online-page", help="write the browser player's page (a player "
                                           "without a board) into a folder",
                       description="Write the static page that plays an online game against "
                                   "a board from a browser, over MQTT over WebSockets. Serve "
                                   "the folder from any static host or from Mosquitto's "
                                   "websockets listener (http_dir).")
    p.add_argument("folder", help="where to write it (made if missing)")
    p.set_defaults(func=cmd_online_page)

    p = sub.add_parser("broker", help="run a broker for online play on this machine "
                                      "(Mosquitto with the club's configuration)",
                       description="Start Debian's mosquitto with the club configuration "
                                   "shipped in firmware/online/club/ on local ports: logins, "
                                   "an ACL, TLS with a CA made here, retained messages kept "
                                   "in the folder, and the browser player's page. Ctrl-C "
                                   "stops it.")
    p.add_argument("--folder", default="navakankari-broker",
                   help="where its configuration, certificates and data go "
                        "(default ./navakankari-broker)")
    p.add_argument("--user", action="append", metavar="NAME:PASSWORD",
                   help="a login that may play (repeatable; default one login 'player' with "
                        "a fresh password, printed)")
    p.add_argument("--mqtt-port", type=int, default=1883, help="MQTT (default 1883)")
    p.add_argument("--tls-port", type=int, default=8883, help="MQTT over TLS (default 8883)")
    p.add_argument("--web-port", type=int, default=9001,
                   help="MQTT over WebSockets and the browser page (default 9001)")
    p.set_defaults(func=cmd_broker)

    p = sub.add_parser("service", help="install, remove or inspect the systemd service",
                       description="Install, remove or inspect the systemd service that runs "
                                   "the board daemon at boot with a configuration file "
                                   "(install and uninstall need root; --dry-run prints the "
                                   "steps instead).")
    p.add_argument("action", choices=("install", "uninstall", "status"))
    p.add_argument("--dry-run", action="store_true", help="print what would be done")
    p.add_argument("--config", help="config to read the wiring profile from")
    p.add_argument("--root", action="store_true",
                   help="run as root (NeoPixels on GPIO18 of a Pi 1-4; chosen from the profile)")
    p.set_defaults(func=cmd_service)

    p = sub.add_parser("doctor", help="check this Pi against the board's wiring profile and say "
                                      "what to change")
    p.add_argument("--config", help="the daemon's configuration (default: "
                                    "/etc/navakankari/navakankari.toml under --root)")
    p.add_argument("--profile", help="check this wiring profile instead of the configured one")
    p.add_argument("--root", default="/", help="where the Pi's files are (default /)")
    p.add_argument("--fix-lines", action="store_true",
                   help="print only the config.txt lines to add (under [all])")
    p.set_defaults(func=cmd_doctor)
