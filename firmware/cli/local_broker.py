"""A throwaway Mosquitto on free local ports, for the online drill and the tests.

Debian's `mosquitto` with a generated configuration, as a club would run one: a password file
and no anonymous clients, an ACL that gives the accounts the game topics only, a plain
listener, a TLS listener with a certificate from a CA made here (openssl), and a websockets
listener; TCP_NODELAY (a move is one small packet; without it the broker holds it back for
tens of milliseconds), and nothing kept on disk.
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

    def __init__(self, folder: Path, *, http_dir: Path | None = None) -> None:
        """`http_dir`: a folder the websockets listener also serves over HTTP (the browser
        player's page, as a club can serve it from its broker)."""
        self.exe = mosquitto()
        self.folder = folder
        self.port = free_port()
        passwords = folder / "passwords"
        passwd = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
        for i, (user, password) in enumerate(USERS.items()):
            subprocess.run([passwd, "-b", *(["-c"] if i == 0 else []), str(passwords), user,
                            password], check=True, capture_output=True)
        acl = folder / "acl"
        acl.write_text("pattern readwrite navakankari/v1/#\n")
        self.tls_port, self.ws_port = free_port(), free_port()
        self.ca_file = str(folder / "ca.crt")
        _certificates(folder)
        self.config = folder / "mosquitto.conf"
        self.config.write_text(
            "per_listener_settings false\n"
            "allow_anonymous false\n"
            f"password_file {passwords}\n"
            f"acl_file {acl}\n"
            "persistence false\n"
            "set_tcp_nodelay true\n"
            f"user {getpass.getuser()}\n"
            f"log_dest file {folder / 'mosquitto.log'}\n"
            f"listener {self.port} 127.0.0.1\n"
            f"listener {self.tls_port} 127.0.0.1\n"
            f"cafile {self.ca_file}\n"
            f"certfile {folder / 'server.crt'}\n"
            f"keyfile {folder / 'server.key'}\n"
            f"listener {self.ws_port} 127.0.0.1\n"
            "protocol websockets\n"
            + (f"http_dir {http_dir}\n" if http_dir is not None else ""))
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, user: str = "grandma", password: str | None = None,
            scheme: str = "mqtt") -> str:
        secret = USERS[user] if password is None else password
        port = {"mqtt": self.port, "mqtts": self.tls_port, "ws": self.ws_port}[scheme]
        return f"{scheme}://{user}:{secret}@127.0.0.1:{port}"

    def start(self) -> None:
        self.proc = subprocess.Popen([self.exe, "-c", str(self.config)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"mosquitto exited: {err}")
            if self.ports_open():
                return
            time.sleep(0.02)
        raise RuntimeError("mosquitto did not open its port within 10 s")

    def ports_open(self) -> bool:
        for port in (self.port, self.tls_port, self.ws_port):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    pass
            except OSError:
                return False
        return True

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None


def _certificates(folder: Path) -> None:
    """A CA, and a certificate it signs for 127.0.0.1, made with openssl."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise BrokerMissingError("openssl is not installed (Debian: sudo apt-get install openssl)")

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], check=True, capture_output=True, cwd=folder)

    key = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    run("req", "-x509", *key, "-days", "2", "-subj", "/CN=navakankari test CA",
        "-keyout", "ca.key", "-out", "ca.crt")
    run("req", *key, "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.crt")
