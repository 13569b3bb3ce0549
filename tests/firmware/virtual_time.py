"""An asyncio loop on a manual clock: timers fire at once, in order, without real waiting.

When the loop would sleep until its next timer and no socket or thread has anything for it,
the clock jumps to that timer instead; the writes under way of the stores handed to the loop
(`stores`: the daemon's, writing in its own thread) are waited for first, and what their end
hands the loop is run, as a real disk's sync takes no virtual time (unless the test holds one:
`held`). With no timer at all it waits for real (a thread or a socket must wake it). The
daemon, the simulated board and the test share the clock, so a test of a few virtual minutes
runs in milliseconds and every timing is exact.
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
"""Real seconds between looks at a store's writes under way."""
WRITE_WAIT = 30.0
"""Real seconds the clock waits for writes under way before it moves all the same: a store
another test left mid-write (that test failed) must not stop every later one."""


class Writes(Protocol):
    """What the clock waits for: a store writing in a thread of its own (`Store`)."""

    @property
    def writing(self) -> bool:
        """Writes are under way; once it says no, what their end hands the loop is there."""


class _JumpingSelector(selectors.DefaultSelector):
    def __init__(self, clock: ManualClock, stores: Iterable[Writes] = (),
                 held: Callable[[], bool] = lambda: False) -> None:
        super().__init__()
        self.clock = clock
        self.stores = tuple(stores)
        self.held = held

    def _writing(self) -> bool:
        return not self.held() and any(store.writing for store in self.stores)

    def select(self, timeout: float | None = None):  # type: ignore[no-untyped-def]
        ready = super().select(0)
        if ready or timeout is None or timeout <= 0:
            return ready if (ready or timeout is not None) else super().select(None)
        if self._writing():
            give_up = time.monotonic() + WRITE_WAIT
            while self._writing() and time.monotonic() < give_up:
                ready = super().select(WRITE_POLL)
                if ready:
                    return ready
            # The writer hands its end to the loop (call_soon_threadsafe) before it stops
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
        super().__init__(_JumpingSelector(clock, stores, held))
        self.clock = clock

    def time(self) -> float:
        return self.clock()


def run_virtual(main: Coroutine[Any, Any, T], clock: ManualClock, *,
                stores: Iterable[Writes] = (), held: Callable[[], bool] = lambda: False) -> T:
    """`asyncio.run(main)` on a loop whose time is `clock`, which waits for the writes of
    `stores` (a daemon's `store`) before it jumps. `held()`: the test holds a store's write
    (a dying SD card's sync): the clock goes on meanwhile."""
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
