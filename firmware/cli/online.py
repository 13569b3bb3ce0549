"""Online play from the command line: `invite` and `join` on the running daemon, the
browser player's page (`online-page`) and a broker on this machine (`broker`)."""

from __future__ import annotations

import argparse
import sys

from navakankari.hal.words import N_, Phrase

from .args import Commands, error_words, words
from .control import ask, ask_daemon


def cmd_invite(args: argparse.Namespace) -> int:
    """Offer an online game on the running daemon and print the code to read out."""
    asked = ask(args, "/api/online/invite", lambda config: {
        "variant": args.variant or config.game_variant, "side": args.side,
        "starts": args.starts})
    if asked is None:
        return 1
    answer, tr = asked
    print(Phrase(N_("game code: {code}  (the other player joins with it; the game starts on "
                    "the board once they do)"), code=answer["code"]).words(tr))
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    """Join, on the running daemon, the online game offered under a code."""
    from ..online.code import GameCode, InvalidCodeError

    try:
        code = GameCode.parse(args.code)
    except InvalidCodeError as exc:
        print(f"navakankari join: {error_words(exc, words(args))}", file=sys.stderr)
        return 2
    return ask_daemon(args, "/api/online/join", lambda config: {"code": str(code)})


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

    from ..tools.local_broker import BrokerMissingError, LocalBroker

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
        print(f"navakankari broker: {error_words(exc, words(args))}", file=sys.stderr)
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


def register(sub: Commands) -> None:
    p = sub.add_parser("invite", help="offer an online game on the running daemon; prints its code",
                       description="Offer a game to a player at another board, through the "
                                   "broker the configuration's [online] names. Prints the game "
                                   "code to read out; the other player joins with it "
                                   "(navakankari join CODE, or the page).")
    p.add_argument("--config", help="the daemon's configuration (for its web address and PIN)")
    p.add_argument("--variant", help="a preset name (default: the configured one)")
    p.add_argument("--side", choices=("white", "black"), default="white",
                   help="the colour this board plays, whoever starts (default white)")
    p.add_argument("--starts", choices=("white", "black", "toss"), default="white",
                   help="which colour moves first: white, black, or a toss neither board "
                   "can bias (each player keeps its colour)")
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
