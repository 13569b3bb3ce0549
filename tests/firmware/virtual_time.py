"""An asyncio loop on a manual clock: timers fire at once, in order, without real waiting.

When the loop would sleep until its next timer and no socket or thread has anything for it,
the clock jumps to that timer instead; a store's writes under way (its writer thread) are
waited for first, and what their end hands the loop is run, as a real disk's sync takes no
virtual time (unless the test holds one: `held`). With no timer at all it waits for real (a thread or a
socket must wake it). The daemon, the simulated board and the test share the clock, so a test
of a few virtual minutes runs in milliseconds and every timing is exact.
"""

from __future__ import annotations

import asyncio
import selectors
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from navakankari.firmware.store.database import writing_anywhere
from navakankari.sim.clock import ManualClock

T = TypeVar("T")

WRITE_POLL = 0.005
"""Real seconds between looks at a store's writes under way."""
WRITE_WAIT = 30.0
"""Real seconds the clock waits for writes under way before it moves all the same: a store
another test left mid-write (that test failed) must not stop every later one."""


class _JumpingSelector(selectors.DefaultSelector):
    def __init__(self, clock: ManualClock, held: Callable[[], bool] = lambda: False) -> None:
        super().__init__()
        self.clock = clock
        self.held = held

    def select(self, timeout: float | None = None):  # type: ignore[no-untyped-def]
        ready = super().select(0)
        if ready or timeout is None or timeout <= 0:
            return ready if (ready or timeout is not None) else super().select(None)
        if writing_anywhere() and not self.held():
            give_up = time.monotonic() + WRITE_WAIT
            while writing_anywhere() and not self.held() and time.monotonic() < give_up:
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
    def __init__(self, clock: ManualClock, held: Callable[[], bool] = lambda: False) -> None:
        super().__init__(_JumpingSelector(clock, held))
        self.clock = clock

    def time(self) -> float:
        return self.clock()


def run_virtual(main: Coroutine[Any, Any, T], clock: ManualClock, *,
                held: Callable[[], bool] = lambda: False) -> T:
    """`asyncio.run(main)` on a loop whose time is `clock`. `held()`: the test holds a
    store's write (a dying SD card's sync): the clock goes on meanwhile."""
    loop = VirtualTimeLoop(clock, held)
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
