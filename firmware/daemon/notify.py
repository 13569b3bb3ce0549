"""systemd notifications (sd_notify) without a dependency, and journal-friendly logging.

Under systemd, `NOTIFY_SOCKET` names a datagram socket (a leading `@` means an abstract
one); the daemon sends `READY=1` once it watches the board and `WATCHDOG=1` every half of
`WATCHDOG_USEC`. Anywhere else there is no socket and every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from collections.abc import Mapping
from typing import TextIO

log = logging.getLogger(__name__)


class Notifier:
    """Sends sd_notify messages; harmless when not run by systemd."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        self.address: str | None = None
        if address.startswith("@"):
            self.address = "\0" + address[1:]
        elif address.startswith("/"):
            self.address = address
        self.watchdog_interval: float | None = None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.watchdog_interval = int(usec) / 2 / 1_000_000
        self._sock: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *lines: str) -> bool:
        """Send `KEY=value` lines in one datagram; False if there is no socket or it failed."""
        if self.address is None:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                self._sock.setblocking(False)  # never stall the board on a busy manager
            self._sock.sendto("\n".join(lines).encode(), self.address)
            return True
        except BlockingIOError:
            log.debug("sd_notify socket busy; dropped %s", lines)
            return False
        except OSError as exc:
            log.warning("sd_notify to %r failed: %s", self.address, exc)
            return False

    def ready(self, status: str = "") -> bool:
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


JOURNAL_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3,
                    logging.CRITICAL: 2}


class JournalFormatter(logging.Formatter):
    """`<N>name: message`: the journal reads N as the line's priority (sd-daemon(3))."""

    def format(self, record: logging.LogRecord) -> str:
        prio = JOURNAL_PRIORITY.get(record.levelno, 6)
        text = super().format(record)
        return "\n".join(f"<{prio}>{line}" for line in text.splitlines())


def journal_stream(env: Mapping[str, str], stream: TextIO) -> bool:
    """`stream` is the journal's own stream: systemd sets `JOURNAL_STREAM` to its
    "device:inode" (systemd.exec(5)). A child that inherited the variable but writes
    elsewhere (a shell, a pipe, a file) must not get `<N>` prefixes."""
    value = env.get("JOURNAL_STREAM", "")
    dev, sep, ino = value.partition(":")
    if not sep or not dev.isdigit() or not ino.isdigit():
        return False
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):  # no real descriptor (closed, captured)
        return False
    return (st.st_dev, st.st_ino) == (int(dev), int(ino))


def setup_logging(level: str = "info", env: Mapping[str, str] | None = None,
                  stream: TextIO | None = None) -> None:
    """Log to `stream` (stderr): with `<N>` priorities when it is the journal's stream,
    with times otherwise."""
    env = os.environ if env is None else env
    stream = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(stream)
    if journal_stream(env, stream):
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=getattr(logging, level.upper(), logging.INFO), handlers=[handler],
                        force=True)
    # The level is the root's alone, whatever the package logger's own was set to.
    logging.getLogger("navakankari").setLevel(logging.NOTSET)
