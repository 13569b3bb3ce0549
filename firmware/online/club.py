"""The club's broker: the Mosquitto configuration shipped in `club/`, and the same
configuration made for one machine.

A club copies `club/navakankari.conf` and `club/acl` into /etc/mosquitto as they are. The
tests, the drill and `navakankari broker` run that same file, its paths moved into a folder of
their own, its listeners on local ports, and its browser listener without TLS (a browser
trusts only a public CA's certificate, which a laptop has none of): what they check is what a
club runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from navakankari.hal.words import N_, Phrase

FOLDER = Path(__file__).resolve().parent / "club"
CONF = FOLDER / "navakankari.conf"
ACL = FOLDER / "acl"
SHIPPED_DIR = "/etc/mosquitto/navakankari/"
GAME_TOPICS = ("navakankari/v2/#", "navakankari/v1/#")
"""The game topics of protocol 2, and of protocol 1: boards not yet updated still play each
other, and a board that is updated names an old one instead of waiting on it in silence."""


class ClubConfigError(RuntimeError):
    """The shipped configuration no longer reads as this module expects: `problem` names the
    line it no longer has, a phrase the command words in the maker's language."""

    def __init__(self, message: str, /, **places: object) -> None:
        self.problem = Phrase(message, **places)
        super().__init__(self.problem)


@dataclass(frozen=True)
class Ports:
    plain: int  #: MQTT on 127.0.0.1
    tls: int  #: MQTT over TLS
    web: int  #: MQTT over WebSockets, and the browser player's page


def acl_text(users: Iterable[str]) -> str:
    """The ACL for these members: the shipped file's explanation, then each member's lines."""
    head = [line for line in ACL.read_text().splitlines() if line.startswith("#")]
    lines = head + ["\n".join([f"user {user}"] + [f"topic readwrite {t}" for t in GAME_TOPICS])
                    for user in users]
    return "\n".join(lines) + "\n"


def local_config(folder: Path, ports: Ports, *, run_as: str, http_dir: Path | None = None
                 ) -> str:
    """The shipped configuration for a broker on this machine, its files in `folder`."""
    text = CONF.read_text()
    here = f"{folder}/"
    changes = [  # each line as shipped, so a problem names the line as the file has it
        ("listener 1883 127.0.0.1\n", f"listener {ports.plain} 127.0.0.1\n"),
        ("listener 8883\n", f"listener {ports.tls} 127.0.0.1\n"),
        ("listener 9001\n", f"listener {ports.web} 127.0.0.1\n"),
        (f"certfile {SHIPPED_DIR}web.crt\n", ""),
        (f"keyfile {SHIPPED_DIR}web.key\n", ""),
        ("http_dir /var/www/navakankari-player\n",
         f"http_dir {http_dir}\n" if http_dir is not None else ""),
        (SHIPPED_DIR, here),
    ]
    for old, new in changes:
        if old not in text:  # (the folder is in the lines above: they are named first)
            raise ClubConfigError(N_("{file} no longer has the line {line}"), file=CONF,
                                  line=repr(old.strip()))
        text = text.replace(old, new)
    # What Debian's own mosquitto.conf adds around the drop-in, here in the folder.
    head = (f"# {CONF.name}, made for one machine (navakankari broker)\n"
            "persistence true\n"
            f"persistence_location {here}\n"
            f"user {run_as}\n"
            f"log_dest file {here}mosquitto.log\n")
    return head + text
