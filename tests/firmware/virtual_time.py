"""An asyncio loop on a manual clock: timers fire at once, in order, without real waiting.

When the loop would sleep until its next timer and no socket or thread has anything for it,
the clock jumps to that timer instead. Work that takes no virtual time is waited for first,
and what its end hands the loop is run: the writes under way of the stores handed to the loop
(`stores`: the daemon's, writing in its own thread), as a real disk's sync takes no virtual
time (unless the test holds one: `held`), and the loop's own jobs in its default executor
(`asyncio.to_thread`, a name looked up, a page's sentence spoken to a WAV). Other threads are
not waited for: the computer's search waits for the board (its stop comes when the game moves
on, on the virtual clock), and a thread of its own (speech, MQTT, a sensor's) cannot be told
from one at rest. With no timer at all the loop waits for real (a thread or a socket must wake
it). The daemon, the simulated board and the test share the clock, so a test of a few virtual
minutes runs in milliseconds and every timing is exact.
"""

from __future__ import annotations

import asyncio
import selectors
import time
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, Protocol, TypeVar

from navakankari.sim.clock import ManualClock

T = TypeVar("T")

WRITE_POLL = 0.005
"""Real seconds between looks at the work under way."""
WRITE_WAIT = 30.0
"""Real seconds the clock waits for work under way before it moves all the same: a store
a failed test left mid-write, or a job that waits for virtual time, must not hang the test."""


class Writes(Protocol):
    """What the clock waits for: a store writing in a thread of its own (`Store`)."""

    @property
    def writing(self) -> bool:
        """Writes are under way; once it says no, what their end hands the loop is there."""


class _JumpingSelector(selectors.DefaultSelector):
    def __init__(self, clock: ManualClock, busy: Callable[[], bool]) -> None:
        super().__init__()
        self.clock = clock
        self.busy = busy

    def select(self, timeout: float | None = None):  # type: ignore[no-untyped-def]
        ready = super().select(0)
        if ready or timeout is None or timeout <= 0:
            return ready if (ready or timeout is not None) else super().select(None)
        if self.busy():
            give_up = time.monotonic() + WRITE_WAIT
            while self.busy() and time.monotonic() < give_up:
                ready = super().select(WRITE_POLL)
                if ready:
                    return ready
            # A writer hands its end to the loop (call_soon_threadsafe) before it stops
            # counting as writing: a write that ended after the last look is run now, so
            # the clock only moves with the loop idle.
            ready = super().select(0)
            if ready:
                return ready
        self.clock.advance(timeout)
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self, clock: ManualClock, stores: Iterable[Writes] = (),
                 held: Callable[[], bool] = lambda: False) -> None:
        self.clock = clock
        self.stores = tuple(stores)
        self.held = held
        #: the default executor's jobs: each counts until its end is run on the loop
        self.jobs: set[asyncio.Future[Any]] = set()
        super().__init__(_JumpingSelector(clock, self._busy))

    def time(self) -> float:
        return self.clock()

    def run_in_executor(self, executor: Any, func: Callable[..., T], *args: Any
                        ) -> asyncio.Future[T]:
        future = super().run_in_executor(executor, func, *args)
        if executor is None:
            self.jobs.add(future)
            future.add_done_callback(self.jobs.discard)
        return future

    def _busy(self) -> bool:
        """Work under way that takes no virtual time (the test holds none)."""
        if self.held():
            return False
        return (any(not job.done() for job in list(self.jobs))
                or any(store.writing for store in self.stores))


def run_virtual(main: Coroutine[Any, Any, T], clock: ManualClock, *,
                stores: Iterable[Writes] = (), held: Callable[[], bool] = lambda: False) -> T:
    """`asyncio.run(main)` on a loop whose time is `clock`, which waits for the writes of
    `stores` (a daemon's `store`) and for its default executor's jobs before it jumps.
    `held()`: the test holds a store's write (a dying SD card's sync): the clock goes on
    meanwhile, whatever is under way."""
    loop = VirtualTimeLoop(clock, stores, held)
    try:
        asyncio.set_event_loop(loop)
        return loop.run_until_complete(main)
    finally:
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            loop.close()
