"""One writer per game store: an exclusive advisory lock on a file beside it.

The store gives a new game's id before writing it and resumes the last unfinished game, so a
second board writing the same file would resume that game too, give out the same ids and play
both sides of it. The board that writes a store holds `flock` on `<store>.lock` until it
closes the store; the kernel drops the lock when the process ends however it ends (killed,
power cut), so no stale lock ever blocks the next start. The SQLite file itself is never
locked or opened here: closing another descriptor of it would drop SQLite's own locks.
Readers (`navakankari record`) do not lock.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

PID_BYTES = 32
"""How much of a lock file is read for its holder's pid: a pid is at most 10 digits."""


class HeldElsewhereError(Exception):
    """Another open of the lock file (another process, or another store in this one) holds it;
    `pid` is the process that wrote its id there, when the file says one."""

    def __init__(self, path: Path, pid: int | None) -> None:
        self.path = path
        self.pid = pid
        super().__init__(f"{path} is held" + ("" if pid is None else f" by process {pid}"))


def lock_file(store: Path) -> Path:
    """The lock file of the store at `store`, beside it."""
    return store.with_name(store.name + ".lock")


class WriterLock:
    """The lock on one store's lock file, held from `__init__` (OSError when the file cannot
    be made; HeldElsewhereError when it is held) until `release`."""

    def __init__(self, store: Path) -> None:
        self.path = lock_file(store)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            pid = _holder(fd)
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise HeldElsewhereError(self.path, pid) from None
            raise
        self._fd: int | None = fd
        try:  # who holds it, for the next one's refusal; the lock does not depend on it
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as exc:
            log.warning("cannot write this process's id into %s: %s", self.path, exc)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Let the next writer in; safe to call twice. The file stays (removing it would let
        one process lock the removed file while another locks a new one)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            os.ftruncate(fd, 0)  # no pid left behind for a refusal to name wrongly
        except OSError:
            pass
        os.close(fd)  # the lock goes with the last descriptor of this open


def _holder(fd: int) -> int | None:
    """The pid a lock file names, read from its start and bounded; None for anything else
    (empty, being written, not a number)."""
    try:
        text = os.pread(fd, PID_BYTES, 0)
    except OSError:
        return None
    digits = text.strip()
    if not digits.isdigit() or len(digits) > 10:
        return None
    pid = int(digits)
    return pid if pid > 0 else None
