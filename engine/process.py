"""A child process that talks in lines: start it, write lines, read lines by a deadline,
and make sure it is gone afterwards.

A reader thread moves the child's output (stdout and stderr together) into a queue, so a
read never blocks past its deadline, whatever the child does: hang, crash or flood.
"""

from __future__ import annotations

import logging
import queue
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

from .errors import WordedError, Wording
from .translator import N_

log = logging.getLogger(__name__)

_EOF = None
#: Seconds a child gets to leave after its quit line, and again after SIGTERM.
QUIT_WAIT = 1.0


class ProcessError(WordedError, OSError):
    """The child cannot be started, has gone, or did not answer in time."""


class ProcessTimeout(ProcessError):
    """No line came before the deadline."""


class ProcessGone(ProcessError):
    """The child closed its output (it ended or crashed)."""


class LineProcess:
    """One running child. `tail` keeps its last output lines for error messages."""

    def __init__(self, argv: Sequence[str], clock: Callable[[], float] = time.monotonic) -> None:
        self.argv = tuple(argv)
        self.clock = clock
        self.tail: deque[str] = deque(maxlen=8)
        self._lines: queue.Queue[str | None] = queue.Queue()
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True, bufsize=1, errors="replace")
        except OSError as exc:
            raise ProcessError(N_("cannot start {program}: {problem}"), program=self.argv[0],
                               problem=exc.strerror or exc) from None
        self._reader = threading.Thread(target=self._read, name=f"read {self.argv[0]}",
                                        daemon=True)
        self._reader.start()

    def _read(self) -> None:
        stream = self._proc.stdout
        assert stream is not None
        try:
            for line in stream:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):  # closed under us by close()
            pass
        self._lines.put(_EOF)

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    @property
    def returncode(self) -> int | None:
        return self._proc.poll()

    def send(self, line: str) -> None:
        """Write one line; a child that has gone is a ProcessGone."""
        log.debug("%s < %s", self.argv[0], line)
        stdin = self._proc.stdin
        try:
            assert stdin is not None
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError):
            raise ProcessGone(self._ended()) from None

    def readline(self, deadline: float, stop: Callable[[], bool] | None = None,
                 poll: float = 0.05) -> str | None:
        """The next line, waiting until `deadline` (on `clock`). Returns None early when
        `stop()` turns true (checked every `poll` seconds); raises ProcessTimeout at the
        deadline and ProcessGone at the end of the output."""
        while True:
            left = deadline - self.clock()
            if stop is not None and stop():
                return None
            if left <= 0:
                try:
                    line = self._lines.get_nowait()
                except queue.Empty:
                    raise ProcessTimeout(N_("{program} did not answer in time"),
                                         program=self.argv[0]) from None
            else:
                try:
                    line = self._lines.get(timeout=min(left, poll) if stop else left)
                except queue.Empty:
                    continue
            if line is _EOF:
                self._lines.put(_EOF)  # every later read sees the end too
                _reaped(self._proc)
                raise ProcessGone(self._ended())
            log.debug("%s > %s", self.argv[0], line)
            self.tail.append(line)
            return line

    def _ended(self) -> Wording:
        """That the child has ended: its exit code and last output lines where known."""
        code, said = self._proc.poll(), " | ".join(self.tail)
        if code is None:
            return (Wording.of(N_("{program} has ended; its last output: {output}"),
                               program=self.argv[0], output=said) if said
                    else Wording.of(N_("{program} has ended"), program=self.argv[0]))
        if said:
            return Wording.of(N_("{program} has ended (exit code {code}); its last output: "
                                 "{output}"), program=self.argv[0], code=code, output=said)
        return Wording.of(N_("{program} has ended (exit code {code})"), program=self.argv[0],
                          code=code)

    def kill(self) -> None:
        """Kill the child without touching its pipes (safe while the interpreter exits)."""
        if self._proc.poll() is None:
            self._proc.kill()
            _reaped(self._proc)

    def close(self, quit_line: str | None = "quit") -> None:
        """Ask the child to leave, then terminate, then kill it; always reaps it."""
        proc = self._proc
        if proc.poll() is None and quit_line is not None:
            try:
                self.send(quit_line)
            except ProcessGone:
                pass
        steps = (None, proc.terminate, proc.kill) if quit_line is not None else \
            (proc.terminate, proc.kill)
        for step in steps:
            if step is not None and proc.poll() is None:
                step()
            if _reaped(proc):
                break
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        self._reader.join(QUIT_WAIT)  # the child has gone: its output ends
        if proc.stdout is not None and not self._reader.is_alive():
            proc.stdout.close()


def _reaped(proc: subprocess.Popen[str]) -> bool:
    """Wait up to QUIT_WAIT for the child to end; whether it has."""
    try:
        proc.wait(QUIT_WAIT)
    except subprocess.TimeoutExpired:
        return False
    return True
