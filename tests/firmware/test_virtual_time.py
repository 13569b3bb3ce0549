"""The manual-clock loop the daemon tests run on."""

from __future__ import annotations

import asyncio
import threading
import time

from navakankari.sim.clock import ManualClock
from virtual_time import run_virtual


def test_timers_fire_in_order_at_their_virtual_times_at_once():
    clock = ManualClock(5.0)
    fired: list[tuple[str, float]] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(30.0, lambda: fired.append(("late", clock())))
        loop.call_later(0.25, lambda: fired.append(("early", clock())))
        await asyncio.sleep(3600)
        fired.append(("slept", clock()))

    started = time.monotonic()
    run_virtual(main(), clock)
    assert fired == [("early", 5.25), ("late", 35.0), ("slept", 3605.0)]
    assert time.monotonic() - started < 1.0


def test_with_no_timer_the_loop_waits_for_a_thread_for_real():
    clock = ManualClock()

    async def main() -> str:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str] = loop.create_future()
        threading.Timer(0.05, lambda: loop.call_soon_threadsafe(future.set_result, "woken")).start()
        return await future

    assert run_virtual(main(), clock) == "woken"
    assert clock() == 0.0  # nothing to jump to: virtual time stood still


def test_a_write_that_ends_between_the_clocks_looks_is_run_before_the_clock_moves(monkeypatch):
    """A store's writer hands its end to the loop, then stops counting as writing: a write
    that ends just after the loop's last look at the selector is still run before the clock
    jumps to the next timer (the daemon's turn after a write ran late under load)."""
    import virtual_time

    clock = ManualClock(10.0)
    ended: list[float] = []
    looks = 0

    async def main() -> None:
        loop = asyncio.get_running_loop()

        def writing_anywhere() -> bool:
            nonlocal looks
            looks += 1
            if looks < 3:
                return True
            if looks == 3:  # the write ends now, between two looks
                loop.call_soon_threadsafe(lambda: ended.append(clock()))
            return False

        monkeypatch.setattr(virtual_time, "writing_anywhere", writing_anywhere)
        await asyncio.sleep(5.0)

    run_virtual(main(), clock)
    assert looks >= 3 and ended == [10.0]
    assert clock() == 15.0
