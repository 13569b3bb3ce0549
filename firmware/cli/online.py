"""Online play from the command line: `invite` and `join` on the running daemon, the
browser player's page (`online-page`) and a broker on this machine (`broker`)."""

from __future__ import annotations

import argparse
import gettext
import sys
from typing import TYPE_CHECKING

from navakankari.hal.words import N_, Nn_, Phrase

from .args import Commands, error_words, words
from .control import ask, ask_daemon

if TYPE_CHECKING:
    from ..tools.local_broker import LocalBroker


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

    tr = words(args)
    try:
        written = write_page(Path(args.folder))
    except OSError as exc:
        print("navakankari online-page: " + tr.gettext("cannot write {file}: {problem}").format(
            file=exc.filename or args.folder, problem=exc.strerror or exc), file=sys.stderr)
        return 1
    print(Phrase.counted(Nn_(
        "wrote {count} file to {folder}: serve it as it is (a static host, or Mosquitto's "
        "websockets listener with http_dir); the page asks for the game code, the broker's "
        "ws:// or wss:// address and a login",
        "wrote {count} files to {folder}: serve them as they are (a static host, or "
        "Mosquitto's websockets listener with http_dir); the page asks for the game code, the "
        "broker's ws:// or wss:// address and a login"), len(written), count=len(written),
        folder=args.folder).words(tr))
    return 0


def cmd_broker(args: argparse.Namespace) -> int:
    """Run the club's broker configuration on this machine until Ctrl-C (or SIGTERM): online
    play on one laptop, or a first try before a club sets up its own."""
    import secrets
    from pathlib import Path

    from ..online.club import ClubConfigError, Ports
    from ..online.player_page import write_page
    from ..tools.local_broker import BrokerMissingError, BrokerStartError, LocalBroker

    tr = words(args)
    users: dict[str, str] = {}
    for given in args.user or [f"player:{secrets.token_urlsafe(9)}"]:
        name, sep, password = given.partition(":")
        if not sep or not name or not password:
            print("navakankari broker: " + tr.gettext("--user {given}: give NAME:PASSWORD")
                  .format(given=repr(given)), file=sys.stderr)
            return 2
        users[name] = password
    folder = Path(args.folder).resolve()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_page(folder / "page")
        broker = LocalBroker(folder, users=users, http_dir=folder / "page",
                             ports=Ports(args.mqtt_port, args.tls_port, args.web_port))
        broker.start()
    except (BrokerMissingError, BrokerStartError, ClubConfigError) as exc:
        print(f"navakankari broker: {error_words(exc, tr)}", file=sys.stderr)
        return 1
    except OSError as exc:
        print("navakankari broker: " + tr.gettext("cannot write {file}: {problem}").format(
            file=exc.filename or folder, problem=exc.strerror or exc), file=sys.stderr)
        return 1
    print("\n".join(_broker_lines(broker, users, shown=not args.user, tr=tr)), flush=True)
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
        print("navakankari broker: " + tr.gettext("mosquitto stopped ({status}); see {file}")
              .format(status=code, file=folder / "mosquitto.log"), file=sys.stderr)
    return 1 if code else 0


def _broker_lines(broker: LocalBroker, users: dict[str, str], *, shown: bool,
                  tr: gettext.NullTranslations) -> list[str]:
    """What `broker` prints once Mosquitto runs: where, the logins (and the passwords made
    here, when `shown`), and what the boards and the browsers give it; the commands and
    addresses as typed, the prose in `tr`'s language, the labels padded to one width."""
    first = next(iter(users))
    lines = [tr.gettext("the broker runs in {folder} (Ctrl-C stops it); logins: {logins}")
             .format(folder=broker.folder, logins=", ".join(users))]
    if shown:
        lines += ["  " + tr.gettext("{name}'s password: {password}").format(
            name=name, password=password) for name, password in users.items()]
    # Translators: labels on what `navakankari broker` prints once it runs:
    # the command a board runs, and the address a browser opens.
    boards, browsers = tr.gettext("boards:"), tr.gettext("browsers:")
    width = max(len(boards), len(browsers)) + 1
    lines += [f"  {boards:<{width}}navakankari sim --broker mqtt://{first}:PASSWORD@127.0.0.1:"
              f"{broker.port} --board-name NAME",
              " " * (2 + width) + tr.gettext("(or {url} with ca_file {file})").format(
                  url=f"mqtts://...:{broker.tls_port}", file=broker.ca_file),
              f"  {browsers:<{width}}" + tr.gettext("{page} (broker {url})").format(
                  page=f"http://127.0.0.1:{broker.ws_port}/index.html",
                  url=f"ws://127.0.0.1:{broker.ws_port}")]
    return lines


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
