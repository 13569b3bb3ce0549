"""The daemon's event loop, woken at its timers to the microsecond.

asyncio's selector on Linux is epoll, whose timeout is whole milliseconds rounded up: every
frame due at a tracker deadline left the loop up to a millisecond late (0.8-1.1 ms of the
1.5-1.9 ms from a settled change to its frame in `bench thinking`). Here the loop waits on
the epoll instance's own descriptor with select(), whose timeout is in microseconds, and then
collects the ready events from epoll without waiting. Everything else is asyncio's own loop;
where epoll is missing (a laptop that is not Linux) it is asyncio's default loop.
"""

from __future__ import annotations

import asyncio
import select
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

FD_SETSIZE = 1024
"""select() takes descriptors below this only; an epoll descriptor above it waits as epoll."""

if hasattr(selectors, "EpollSelector"):

    class FineEpollSelector(selectors.EpollSelector):
        """An epoll selector whose waits end at their timeout, not at the next millisecond."""

        def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
            fd = self.fileno()
            if timeout is not None and timeout > 0 and fd < FD_SETSIZE:
                # The epoll descriptor is readable once any registered one is ready: wait on
                # it alone, then take the events without waiting. A signal reaches asyncio
                # through its wake-up descriptor, which is registered, so it ends this wait.
                select.select([fd], [], [], timeout)
                timeout = 0
            return super().select(timeout)


def new_event_loop() -> asyncio.AbstractEventLoop:
    """The loop the daemon runs on: asyncio's selector loop over the fine epoll selector."""
    if hasattr(selectors, "EpollSelector"):
        return asyncio.SelectorEventLoop(FineEpollSelector())
    return asyncio.new_event_loop()


def run(main: Coroutine[Any, Any, T]) -> T:
    """asyncio.run on the daemon's loop."""
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(main)
