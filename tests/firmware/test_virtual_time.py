"""The manual-clock loop the daemon tests run on."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time

from navakankari.firmware.store.database import Store
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


def test_a_write_that_ends_between_the_clocks_looks_is_run_before_the_clock_moves():
    """A store's writer hands its end to the loop, then stops counting as writing: a write
    that ends just after the loop's last look at the selector is still run before the clock
    jumps to the next timer (the daemon's turn after a write ran late under load)."""
    clock = ManualClock(10.0)
    ended: list[float] = []

    class Ending:
        """A store whose write ends at the clock's third look."""

        looks = 0
        loop: asyncio.AbstractEventLoop | None = None

        @property
        def writing(self) -> bool:
            self.looks += 1
            if self.looks < 3:
                return True
            if self.looks == 3 and self.loop is not None:  # the write ends now
                self.loop.call_soon_threadsafe(lambda: ended.append(clock()))
            return False

    store = Ending()

    async def main() -> None:
        store.loop = asyncio.get_running_loop()
        await asyncio.sleep(5.0)

    run_virtual(main(), clock, stores=[store])
    assert store.looks >= 3 and ended == [10.0]
    assert clock() == 15.0


def test_the_clock_waits_for_the_writes_of_the_stores_it_is_handed_only(tmp_path):
    """Another store writing (one a failed test left mid-write) does not hold this clock;
    the store handed to it does: its write's end runs before the clock moves."""
    clock = ManualClock()
    gates = {name: threading.Event() for name in ("mine", "other")}
    stores = {name: Store(tmp_path / f"{name}.sqlite3") for name in gates}
    for name, store in stores.items():
        # (a write is under way until its store's gate opens: the writer's start waits)
        store.write_behind(lambda name=name: gates[name].wait(10.0))  # type: ignore[misc]
    stores["other"].set_setting("brightness", "0.5")
    ended: list[float] = []

    async def main() -> None:
        started = time.monotonic()
        await asyncio.sleep(5.0)  # the other store's write is under way all along
        assert clock() == 5.0 and stores["other"].writing
        assert time.monotonic() - started < 1.0
        stores["mine"].set_setting("brightness", "0.5")
        settled = stores["mine"].settled()
        assert settled is not None
        asyncio.wrap_future(settled).add_done_callback(lambda _: ended.append(clock()))
        threading.Timer(0.05, gates["mine"].set).start()  # the disk's sync, on real time
        await asyncio.sleep(1.0)

    try:
        run_virtual(main(), clock, stores=[stores["mine"]])
    finally:
        for gate in gates.values():
            gate.set()
        for store in stores.values():
            store.close()
    assert ended == [5.0] and clock() == 6.0


def test_a_job_of_the_loops_executor_takes_no_virtual_time_another_thread_does():
    """What the loop hands its default executor (`asyncio.to_thread`) is waited for before
    the clock jumps, as the store's writes are; a thread of any other executor (the
    computer's search, which waits for the board) is not."""
    clock = ManualClock()
    fired: list[float] = []
    job, search = threading.Event(), threading.Event()

    async def main() -> tuple[float, float]:
        loop = asyncio.get_running_loop()
        loop.call_later(0.5, lambda: fired.append(clock()))
        threading.Timer(0.05, job.set).start()  # the job's work, on real time
        ended = await asyncio.to_thread(lambda: job.wait(10.0) and clock())
        with concurrent.futures.ThreadPoolExecutor(1) as other:
            searching = loop.run_in_executor(other, search.wait, 10.0)
            started = time.monotonic()
            await asyncio.sleep(5.0)  # the clock runs on while the search waits
            assert time.monotonic() - started < 1.0 and not searching.done()
            search.set()
            await searching
        return ended, clock()

    try:
        ended, now = run_virtual(main(), clock)
    finally:
        job.set()
        search.set()
    assert ended == 0.0 and fired == [0.5] and now == 5.0
