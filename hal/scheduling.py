"""How the threads that read the board are scheduled.

On a busy Pi an ordinary process, however nice, can wait a scheduler slice or more for a core
(tens of milliseconds with every core busy), which a player sees as a late light. The board's
loop therefore asks for the lowest realtime priority: above every ordinary process, below the
kernel's own threads and the audio servers. It asks with SCHED_RESET_ON_FORK, so the processes
it starts (the search, advice, speech) begin as ordinary processes and lower themselves as
before. Threads are reset too, so a thread that reads sensors takes its creator's scheduling
explicitly (`Scheduling.current()` in the creator, `apply()` in the thread).

Where the system refuses (no CAP_SYS_NICE and no RLIMIT_RTPRIO, a kernel with realtime group
scheduling), nothing changes and the caller is told: the unit's Nice= still puts the loop first
among ordinary processes.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass

log = logging.getLogger(__name__)

LOOP_REALTIME = 1
"""SCHED_FIFO priority of the loop: the lowest realtime one (the unit's LimitRTPRIO=)."""

_RESET_ON_FORK = getattr(os, "SCHED_RESET_ON_FORK", 0)
_REALTIME = {getattr(os, "SCHED_FIFO", -1), getattr(os, "SCHED_RR", -1)}


@dataclass(frozen=True)
class Scheduling:
    """A thread's scheduling policy (os.SCHED_*) and its static priority (0 unless realtime)."""

    policy: int
    priority: int = 0

    @classmethod
    def current(cls, thread: int = 0) -> "Scheduling":
        """The calling thread's, or that of `thread` (a thread id of this process)."""
        if not hasattr(os, "sched_getscheduler"):  # not Linux
            return cls(0)
        return cls(os.sched_getscheduler(thread) & ~_RESET_ON_FORK,
                   os.sched_getparam(thread).sched_priority)

    @property
    def realtime(self) -> bool:
        return self.policy in _REALTIME

    def apply(self, thread: int = 0) -> bool:
        """Give the calling thread (or `thread`) this scheduling, a realtime one reset on
        fork; False where the system refuses it or the thread has ended."""
        flags = _RESET_ON_FORK if self.realtime else 0
        try:
            if self == Scheduling.current(thread):
                return True
            os.sched_setscheduler(thread, self.policy | flags, os.sched_param(self.priority))
        except (OSError, AttributeError) as exc:  # EPERM, ESRCH, or no sched_* here
            log.debug("scheduling %s refused: %s", self, exc)
            return False
        return True


def take_realtime(priority: int = LOOP_REALTIME) -> bool:
    """Put the calling thread at SCHED_FIFO `priority`, reset on fork; False if refused."""
    if not hasattr(os, "SCHED_FIFO"):
        return False
    return Scheduling(os.SCHED_FIFO, priority).apply()


def share_with_threads() -> int:
    """Give every other thread of this process the calling thread's realtime scheduling:
    those a library started (gpiozero's and lgpio's callback threads take none themselves),
    which could otherwise hold the interpreter's lock while the loop waits. How many
    changed; none where the caller is not realtime."""
    mine = Scheduling.current()
    if not mine.realtime:
        return 0
    try:
        threads = [int(entry.name) for entry in os.scandir("/proc/self/task")]
    except OSError:  # no /proc
        return 0
    changed = 0
    for thread in threads:
        try:
            if Scheduling.current(thread) == mine:
                continue
        except OSError:  # ended meanwhile
            continue
        changed += mine.apply(thread)
    return changed


class LateThreads:
    """Gives the caller's realtime scheduling to threads started after the board opened
    (the search process's reader, a library's late callback thread): ordinary threads that
    would hold the interpreter's lock while the loop waits for it, a late light each time a
    busy core preempts them. Asked once a turn of the loop; it looks at /proc only when the
    set of Python threads changed, which a turn at rest never sees."""

    def __init__(self) -> None:
        self._seen: frozenset[int | None] = frozenset()

    def share(self) -> int:
        """share_with_threads() if a Python thread started since the last call; how many
        threads changed."""
        threads = frozenset(thread.native_id for thread in threading.enumerate())
        new, self._seen = threads - self._seen, threads
        return share_with_threads() if new else 0


def describe(scheduling: Scheduling | None = None) -> str:
    """'realtime 1' or 'nice -5': the calling thread's, for a log line or a benchmark."""
    s = scheduling or Scheduling.current()
    return f"realtime {s.priority}" if s.realtime else f"nice {os.getpriority(os.PRIO_PROCESS, 0)}"
