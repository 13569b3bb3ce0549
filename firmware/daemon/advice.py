"""The daemon's assistance: advice made in a worker process, off the loop.

A judgement is a search of some tenths of a second on a Pi; in a thread it would hold the
interpreter's lock against the loop that reads the sensors, so it runs in a process of its
own (started on the first request: a board where nobody asks for help never starts it).
The loop hands over the position as its string, and at most one request waits behind the one
being made: positions passed by meanwhile are never judged.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from navakankari.engine.search_process import lower_priority

from navakankari.engine.advice import AdviceRequest, advise_position
from ..core.players import CHILD_NICE
from ..core.session import Session

log = logging.getLogger(__name__)


class AdviceService:
    """Makes the advice the session wants (`ask`, each turn of the loop) in a worker
    process and hands it back; `close` on shutdown."""

    def __init__(self, loop: asyncio.AbstractEventLoop, session: Session, clock: Callable[[], float],
                 wake: Callable[[], None], budget: int | None = None,
                 nice: int = CHILD_NICE) -> None:
        self._loop = loop
        self.nice = nice  #: levels the worker runs below the loop
        self._session = session
        self._clock = clock
        self._wake = wake
        self.budget = budget
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._busy = False
        self._next: AdviceRequest | None = None

    def ask(self, request: AdviceRequest | None) -> None:
        """`request`: the advice the session wants made now (`Turn.advice`), if any."""
        if request is not None:
            self._next = request
        if self._busy or self._next is None:
            return
        request, self._next = self._next, None
        if self._executor is None:
            # spawn: a fork of a process with threads (the sensors', the web server's) may
            # inherit a lock held at the fork.
            self._executor = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"),
                initializer=lower_priority, initargs=(self.nice,))
        game = request.game
        try:
            future = self._loop.run_in_executor(
                self._executor, advise_position, game.rules, game.position(), request.ply,
                request.key, request.level, self.budget)
        except (BrokenProcessPool, RuntimeError) as exc:  # a worker that died: start afresh
            log.error("the assistance's worker failed (%s); a new one starts next time", exc)
            self._drop()
            return
        self._busy = True
        future.add_done_callback(self._done)

    def _drop(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None

    def _done(self, future: asyncio.Future[Any]) -> None:
        self._busy = False
        if future.cancelled():
            return
        exc = future.exception()
        if exc is not None:
            log.error("advice failed: %s", exc)
            if isinstance(exc, BrokenProcessPool):
                self._drop()
        else:
            self._session.answers.advise(future.result(), self._clock())
        self._wake()

    def close(self) -> None:
        self._drop()
