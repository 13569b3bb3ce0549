"""The loop's realtime priority, not inherited by the processes it starts, and taken by the
threads that read the sensors (hal/scheduling.py)."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable

import pytest
from gpiozero.pins.mock import MockFactory

from hal_fakes import MatrixGPIO
from navakankari.hal import load_profile
from navakankari.hal.backends.gpiozero_sensors import GpioZeroSensors
from navakankari.hal.backends.matrix_sensors import SETTLE_S, MatrixSensors
from navakankari.hal.scheduling import (
    LOOP_REALTIME,
    Scheduling,
    describe,
    share_with_threads,
    take_realtime,
)

REFUSED = "this system gives no realtime priority (needs root or RLIMIT_RTPRIO)"


def _in_a_realtime_thread(body: Callable[[], object]) -> object:
    """Run `body` in a thread of its own at the loop's realtime priority (only that thread:
    the test process stays as it is); skip where this system refuses realtime."""
    result: queue.Queue[tuple[bool, object]] = queue.Queue()

    def run() -> None:
        if not take_realtime():
            result.put((False, None))
            return
        try:
            result.put((True, body()))
        except (queue.Empty, OSError, RuntimeError) as exc:  # handed to the test's thread
            result.put((True, exc))

    threading.Thread(target=run).start()
    took, value = result.get(timeout=30)
    if not took:
        pytest.skip(REFUSED)
    if isinstance(value, (queue.Empty, OSError, RuntimeError)):
        raise value
    return value


def _in_a_realtime_process(body: str) -> list[str]:
    """Run `body` in a Python process of its own once it holds the loop's realtime priority;
    the words it prints. Skip where this system refuses realtime."""
    code = ("from navakankari.hal.scheduling import take_realtime\n"
            "if not take_realtime():\n    print('refused')\n    raise SystemExit\n"
            + textwrap.dedent(body))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    if out == ["refused"]:
        pytest.skip(REFUSED)
    return out


def test_the_gpio_poll_thread_takes_its_creators_realtime_priority(
        mock_factory: MockFactory) -> None:
    seen: queue.Queue[Scheduling] = queue.Queue()

    def wait(seconds: float) -> bool:
        seen.put(Scheduling.current())
        return True  # one look, then the thread ends

    def start() -> None:
        sensors = GpioZeroSensors({"a7": 4}, wait=wait)
        sensors.start(lambda event: None)
        try:
            return seen.get(timeout=30)
        finally:
            sensors.close()

    assert _in_a_realtime_thread(start) == Scheduling(os.SCHED_FIFO, LOOP_REALTIME)


def test_the_matrix_scan_thread_takes_its_creators_realtime_priority() -> None:
    s = load_profile("matrix-24").sensors
    seen: queue.Queue[Scheduling] = queue.Queue()

    done = threading.Event()

    def sleep(seconds: float) -> None:
        if threading.current_thread().name == "matrix-scan":  # not the first scan, at start
            seen.put(Scheduling.current())
            if seconds > SETTLE_S:  # between scans, not inside one (it holds the bus)
                done.wait(30)  # (a realtime thread must not spin)

    def start() -> Scheduling:
        sensors = MatrixSensors(s.rows, s.columns, s.cells, gpio=MatrixGPIO(s.rows, s.columns),
                                sleep=sleep)
        sensors.start(lambda event: None)
        try:
            return seen.get(timeout=30)
        finally:
            done.set()
            sensors.close()

    assert _in_a_realtime_thread(start) == Scheduling(os.SCHED_FIFO, LOOP_REALTIME)


def test_the_processes_the_loop_starts_are_ordinary() -> None:
    """Reset on fork: a search started by a realtime loop must not compete with it."""
    out = _in_a_realtime_process("""
        import os, subprocess, sys
        from navakankari.hal.scheduling import Scheduling
        child = subprocess.run([sys.executable, "-c",
                                "import os; print(os.sched_getscheduler(0), os.nice(0))"],
                               capture_output=True, text=True, check=True).stdout.split()
        print(Scheduling.current().policy, Scheduling.current().priority, *child)
    """)
    assert out == [str(os.SCHED_FIFO), str(LOOP_REALTIME), str(os.SCHED_OTHER), "0"]


def test_a_refused_priority_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    before = Scheduling.current()

    def refuse(*args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "sched_setscheduler", refuse)
    assert take_realtime() is False
    assert Scheduling.current() == before
    assert describe() == f"nice {os.getpriority(os.PRIO_PROCESS, 0)}"


def test_describe_names_a_realtime_priority() -> None:
    assert describe(Scheduling(os.SCHED_FIFO, 1)) == "realtime 1"
    assert not Scheduling(os.SCHED_BATCH).realtime


def test_a_realtime_loop_shares_its_priority_with_the_threads_libraries_started() -> None:
    """Threads a library starts take no scheduling themselves (reset on fork: ordinary);
    the loop gives them its own once the board is open. In a process of its own."""
    out = _in_a_realtime_process("""
        import os, threading
        from navakankari.hal.scheduling import share_with_threads
        done = threading.Event()
        library = threading.Thread(target=done.wait)  # as gpiozero's or lgpio's
        library.start()
        before = os.sched_getscheduler(library.native_id)
        changed = share_with_threads()
        after = os.sched_getscheduler(library.native_id) & ~os.SCHED_RESET_ON_FORK
        done.set()
        print(before, changed, after, share_with_threads())
    """)
    assert out == [str(os.SCHED_OTHER), "1", str(os.SCHED_FIFO), "0"]


def test_an_ordinary_loop_leaves_the_threads_alone() -> None:
    assert not Scheduling.current().realtime
    assert share_with_threads() == 0


def test_threads_started_later_take_the_loops_priority_at_its_next_turn() -> None:
    """The search's reader thread starts when the computer first thinks, long after the board
    opened: the loop's next turn gives it the loop's priority, and a turn that sees no new
    thread looks at nothing. In a process of its own."""
    out = _in_a_realtime_process("""
        import os, threading
        from navakankari.hal.scheduling import LateThreads
        late = LateThreads()
        first = late.share()  # the board opened: nothing started yet
        done = threading.Event()
        reader = threading.Thread(target=done.wait)
        reader.start()
        before = os.sched_getscheduler(reader.native_id)
        changed = late.share()
        after = os.sched_getscheduler(reader.native_id) & ~os.SCHED_RESET_ON_FORK
        again = late.share()
        done.set()
        reader.join()
        print(first, before, changed, after, again, late.share())
    """)
    assert out == ["0", str(os.SCHED_OTHER), "1", str(os.SCHED_FIFO), "0", "0"]
