"""A throwaway Mosquitto on a free local port, for the online drill and the tests.

Debian's `mosquitto` with a generated configuration: a password file, no anonymous clients,
TCP_NODELAY (a move is one small packet; without it the broker holds it back for tens of
milliseconds), and nothing kept on disk.
"""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

USERS = {"grandma": "knitting-42", "ravi": "cricket-7", "mallory": "sneaky-1"}


class BrokerMissingError(RuntimeError):
    """Mosquitto is not installed here."""


def mosquitto() -> str:
    exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(exe).exists():
        raise BrokerMissingError("mosquitto is not installed (Debian: sudo apt-get install "
                                 "mosquitto)")
    return exe


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalBroker:
    """Start, stop and restart one broker on one port, in `folder`."""

    def __init__(self, folder: Path) -> None:
        self.exe = mosquitto()
        self.folder = folder
        self.port = free_port()
        passwords = folder / "passwords"
        passwd = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
        for i, (user, password) in enumerate(USERS.items()):
            subprocess.run([passwd, "-b", *(["-c"] if i == 0 else []), str(passwords), user,
                            password], check=True, capture_output=True)
        self.config = folder / "mosquitto.conf"
        self.config.write_text(
            f"listener {self.port} 127.0.0.1\n"
            "allow_anonymous false\n"
            f"password_file {passwords}\n"
            "persistence false\n"
            "set_tcp_nodelay true\n"
            f"user {getpass.getuser()}\n"
            f"log_dest file {folder / 'mosquitto.log'}\n")
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, user: str = "grandma", password: str | None = None) -> str:
        secret = USERS[user] if password is None else password
        return f"mqtt://{user}:{secret}@127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen([self.exe, "-c", str(self.config)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"mosquitto exited: {err}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not open its port within 10 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None
