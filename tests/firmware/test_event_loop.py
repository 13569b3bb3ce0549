"""The daemon's event loop waits to the microsecond, and still sees its descriptors and signals."""

from __future__ import annotations

import asyncio
import os
import select
import selectors
import signal
import socket
import threading

import pytest

from navakankari.firmware.daemon import event_loop

pytestmark = pytest.mark.skipif(not hasattr(selectors, "EpollSelector"), reason="Linux's epoll")


def test_a_wait_shorter_than_a_millisecond_is_not_rounded_up(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []
    real = select.select

    def recorded(r: list[int], w: list[int], x: list[int], timeout: float) -> object:
        waits.append(timeout)
        return real(r, w, x, timeout)

    monkeypatch.setattr(event_loop.select, "select", recorded)
    with event_loop.FineEpollSelector() as selector:
        assert selector.select(0.0003) == []
    assert waits == [0.0003]  # epoll itself would have waited 1 ms


def test_a_ready_descriptor_ends_the_wait_and_is_returned() -> None:
    a, b = socket.socketpair()
    with a, b, event_loop.FineEpollSelector() as selector:
        selector.register(a, selectors.EVENT_READ, "mine")
        b.send(b"x")
        ready = selector.select(60.0)
    assert [(key.data, events) for key, events in ready] == [("mine", selectors.EVENT_READ)]


def test_an_epoll_descriptor_select_cannot_take_waits_as_epoll(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object) -> object:
        raise AssertionError("select() called with a descriptor above FD_SETSIZE")

    monkeypatch.setattr(event_loop.select, "select", refused)
    monkeypatch.setattr(event_loop, "FD_SETSIZE", 0)
    a, b = socket.socketpair()
    with a, b, event_loop.FineEpollSelector() as selector:
        selector.register(a, selectors.EVENT_READ)
        assert selector.select(0.0003) == []
        b.send(b"x")
        assert len(selector.select(60.0)) == 1


def test_the_daemon_runs_on_the_fine_loop_and_its_timers_fire() -> None:
    async def main() -> str:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(0.0002)
        return type(loop._selector).__name__  # type: ignore[attr-defined]

    assert event_loop.run(main()) == "FineEpollSelector"


def test_a_signal_ends_a_timed_wait() -> None:
    async def main() -> bool:
        got = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR1, got.set)
        try:
            threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGUSR1)).start()
            await asyncio.wait_for(got.wait(), 60)  # the selector waits in select()
        finally:
            loop.remove_signal_handler(signal.SIGUSR1)
        return got.is_set()

    assert event_loop.run(main())
