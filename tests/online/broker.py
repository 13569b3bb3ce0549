"""A real Mosquitto for the tests: Debian's broker on a free port, with a password file."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

USERS = {"grandma": "knitting-42", "ravi": "cricket-7", "mallory": "sneaky-1"}


def mosquitto() -> str:
    exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(exe).exists():
        pytest.skip("mosquitto is not installed (tests/run.sh installs Debian's through "
                    "tests/debian-deps.sh)")
    return exe


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """Start, stop and restart one broker on one port."""

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
        return f"mqtt://{user}:{USERS[user] if password is None else password}@127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen([self.exe, "-c", str(self.config)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.proc.stderr.read().decode()}")
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
