"""Keeping a long-running online task alive whatever it meets.

The link, the hosting of an invitation and the joining of one read what anyone on the broker
publishes. Every message is checked on one path that cannot raise, but a fault that slips
through must not end the task silently (the board would stop hearing the other one while its
page still looked fine): it is logged once with its traceback, shown on the page as the
problem, and the task starts again after a backoff that grows while it keeps failing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from navakankari.hal.words import N_, Phrase

T = TypeVar("T")

log = logging.getLogger(__name__)

BACKOFF = (0.5, 30.0)  #: the first wait before a restart, and the longest


class SupervisedError(RuntimeError):
    """A task that kept failing on an unexpected error as often as it was allowed to
    (`problem`, the phrase of its last failure)."""

    def __init__(self, problem: Phrase) -> None:
        self.problem = problem
        super().__init__(problem)


async def supervise(name: Phrase, start: Callable[[], Awaitable[T]], *,
                    on_problem: Callable[[str], None],
                    passes: tuple[type[BaseException], ...] = (),
                    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
                    backoff: tuple[float, float] = BACKOFF, tries: int | None = None) -> T:
    """Run `start()` until it returns; an unexpected exception restarts it after a wait.
    `passes`: the task's own, expected failures, handed to the caller as they are.
    `name` says which task it is (a phrase, as the problem that names it is one).
    `on_problem` is told the problem in words on each failure ("" never: the caller clears
    it when the task is well again). `sleep` is injected by tests. `tries`: for a task a
    person waits on (joining a game), the number of starts before its fault is raised as a
    SupervisedError."""
    delay = backoff[0]
    tried = 0
    logged: set[tuple[type[BaseException], str]] = set()
    while True:
        try:
            return await start()
        except asyncio.CancelledError:
            raise
        except passes:
            raise
        except Exception as exc:  # the point: nothing ends the task
            problem = Phrase(N_("{task} stopped on an unexpected error ({error}); starting it "
                                "again"), task=name,
                             error=f"{type(exc).__name__}: {str(exc)[:200]}")
            key = (type(exc), str(exc))
            if key not in logged:
                logged.add(key)
                log.exception("online: %s", problem)
            on_problem(problem)
            tried += 1
            if tries is not None and tried >= tries:
                raise SupervisedError(problem) from exc
        await sleep(delay)
        delay = min(delay * 2, backoff[1])
