"""A Mosquitto on local ports, for the online drill, the tests and `navakankari broker`.

Debian's `mosquitto` runs the club's shipped configuration (online/club.py): a password file
and no anonymous clients, an ACL that gives the members the game topics only, retained
messages kept on disk, a message size limit, TCP_NODELAY, a plain listener, a TLS listener with
a certificate from a CA made here (openssl), and a websockets listener.
"""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from navakankari.hal.words import N_, Phrase

from ..online.club import Ports, acl_text, local_config

USERS = {"grandma": "knitting-42", "ravi": "cricket-7", "mallory": "sneaky-1",
         "visitor": "just-looking-3"}
MEMBERS = ("grandma", "ravi", "mallory")
"""The tests' logins that may play; `visitor` may log in but is not in the ACL."""


PORT_TRIES = 3
START_SECONDS = 10
"""How long a started Mosquitto has to open its ports."""
PROBLEM_CHARS = 500
"""The most of a program's own output a problem keeps (the rest is in its log)."""
DEBIAN_DIRS: tuple[str, ...] = ("/usr/sbin", "/usr/bin")
"""Where Debian installs mosquitto and mosquitto_passwd, looked in after the PATH (a user's
PATH has no /usr/sbin)."""
T = TypeVar("T")


class BrokerMissingError(RuntimeError):
    """A program the broker needs (mosquitto, mosquitto_passwd, openssl) is not installed
    here; its phrase names the Debian package that brings it."""


class BrokerStartError(RuntimeError):
    """The broker could not be made ready or started: a program that sets it up failed,
    Mosquitto stopped as it started or did not open its ports. Its phrase keeps the
    program's own words as a place."""


class PortTakenError(BrokerStartError):
    """A port the broker was to listen on was taken by another program."""


def installed(program: str, package: str) -> str:
    """The path of `program`, on the PATH or where Debian puts it; else BrokerMissingError
    naming `package`."""
    path = os.pathsep.join([os.environ.get("PATH", os.defpath), *DEBIAN_DIRS])
    exe = shutil.which(program, path=path)
    if exe is None:
        raise BrokerMissingError(Phrase(N_("{program} is not installed (Debian: sudo apt-get "
                                           "install {package})"),
                                        program=program, package=package))
    return exe


def mosquitto() -> str:
    return installed("mosquitto", "mosquitto")


def _run(argv: list[str], cwd: Path | None = None) -> None:
    """Run a program that sets the broker up; its failure is a BrokerStartError with the
    end of what it wrote."""
    done = subprocess.run(argv, capture_output=True, cwd=cwd)
    if done.returncode:
        said = " ".join((done.stderr or done.stdout).decode(errors="replace").split())
        raise BrokerStartError(Phrase(N_("{program} failed ({status}): {problem}"),
                                      program=Path(argv[0]).name, status=done.returncode,
                                      problem=said[-PROBLEM_CHARS:]))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def on_fresh_ports(start: Callable[[], T], repick: Callable[[], object],
                   tries: int = PORT_TRIES) -> T:
    """`start()` on ports picked free beforehand: when another program took one before it
    was bound (`start` raises PortTakenError), `repick()` fresh ones and start again, up to
    `tries` starts in all (the broker here, and the tests' boards and pages)."""
    for _ in range(tries - 1):
        try:
            return start()
        except PortTakenError:
            repick()
    return start()


def _free_ports() -> Ports:
    return Ports(free_port(), free_port(), free_port())


class LocalBroker:
    """Start, stop and restart one broker on local ports, in `folder`: the club's shipped
    configuration (online/club.py), with these members."""

    def __init__(self, folder: Path, *, users: dict[str, str] | None = None,
                 members: Iterable[str] | None = None, ports: Ports | None = None,
                 http_dir: Path | None = None) -> None:
        """`users`: logins and passwords (the tests' by default); `members`: those the ACL
        lets play (all by default); `http_dir`: a folder the websockets listener also
        serves over HTTP (the browser player's page, as a club serves it from its broker)."""
        self.exe = mosquitto()
        self.folder = folder
        self.users = dict(USERS if users is None else users)
        #: ports picked here may be taken by another program before the broker binds them:
        #: its first start then tries fresh ones (a restart keeps them: clients know them)
        self._may_repick = ports is None
        self._http_dir = http_dir
        ports = ports or _free_ports()
        passwords = folder / "passwords"
        passwd = installed("mosquitto_passwd", "mosquitto")
        for i, (user, password) in enumerate(self.users.items()):
            _run([passwd, "-b", *(["-c"] if i == 0 else []), str(passwords), user, password])
        if members is None:
            members = MEMBERS if users is None else self.users
        (folder / "acl").write_text(acl_text(members))
        self.ca_file = str(folder / "ca.crt")
        _certificates(folder)
        self.config = folder / "mosquitto.conf"
        self._configure(ports)
        self.proc: subprocess.Popen[bytes] | None = None

    def _configure(self, ports: Ports) -> None:
        self.port, self.tls_port, self.ws_port = ports.plain, ports.tls, ports.web
        self.config.write_text(local_config(self.folder, ports, run_as=getpass.getuser(),
                                            http_dir=self._http_dir))

    def url(self, user: str = "grandma", password: str | None = None,
            scheme: str = "mqtt") -> str:
        secret = self.users[user] if password is None else password
        port = {"mqtt": self.port, "mqtts": self.tls_port, "ws": self.ws_port}[scheme]
        return f"{scheme}://{user}:{secret}@127.0.0.1:{port}"

    def start(self) -> None:
        """Start the broker and wait for its ports; on a first start whose ports another
        program took meanwhile, again on fresh ones (a few times)."""
        if not self._may_repick:
            return self._start()
        on_fresh_ports(self._start, lambda: self._configure(_free_ports()))

    def _start(self) -> None:
        self.proc = subprocess.Popen([self.exe, "-c", str(self.config)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                logged = self.folder / "mosquitto.log"
                if logged.exists():  # its own log says why (a port in use, a bad file)
                    err += "".join(logged.read_text().splitlines(keepends=True)[-2:])
                said = " ".join(err.split())
                stopped = Phrase(N_("mosquitto stopped as it started: {problem}"),
                                 problem=said[-PROBLEM_CHARS:])
                if "Address already in use" in said:
                    raise PortTakenError(stopped)
                raise BrokerStartError(stopped)
            if self.ports_open():
                self._may_repick = False  # clients now know these ports
                return
            time.sleep(0.02)
        self.stop()  # not left running on ports no client was told of
        raise BrokerStartError(Phrase(N_("mosquitto did not open its ports within {seconds} s"),
                                      seconds=START_SECONDS))

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
    openssl = installed("openssl", "openssl")

    def run(*args: str) -> None:
        _run([openssl, *args], cwd=folder)

    key = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    run("req", "-x509", *key, "-days", "2", "-subj", "/CN=navakankari test CA",
        "-keyout", "ca.key", "-out", "ca.crt")
    run("req", *key, "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.crt")
