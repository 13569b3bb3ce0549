"""A synced store write runs off the daemon's loop: the board goes on meanwhile (sensors,
the page, online play), and what the write acknowledges (the frame, the updates, the page's
state) waits for it. The store's write is held on an Event the test controls."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.firmware.companion.backend import DaemonBackend
from navakankari.firmware.core.clockwork import drive
from navakankari.firmware.core.players import HAND
from navakankari.firmware.core.session import Session, Update
from navakankari.firmware.daemon.loop import Daemon
from navakankari.firmware.store.database import Store
from navakankari.hal import load_profile, open_board
from navakankari.sim.clock import ManualClock
from navakankari.sim.hands import ScriptedHands
from test_daemon import _config
from virtual_time import run_virtual

NINE = preset("nine-mens-morris")
WAIT = 10.0
"""Real seconds a test waits for the writer thread before it fails (never reached when green)."""


class GatedStore(Store):
    """A store whose writes of actions wait for `gate` (set: they go through), and can be
    made to fail there (`fail`: every write from then on is refused, as a disk gone
    read-only refuses it)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gate = threading.Event()
        self.gate.set()
        self.waiting = threading.Event()  #: a write waits at the gate
        self.fail = False
        self.plies: list[int] = []  #: the first ply of each action write, in the order written

    def _write(self, statements: list[tuple[str, Sequence[Any]]], synced: bool) -> Any:
        actions = [params for sql, params in statements if "INTO actions" in sql]
        if actions:
            self.waiting.set()
            assert self.gate.wait(WAIT)
            self.waiting.clear()
            if self.fail:
                self._open.execute("PRAGMA query_only = ON")
            self.plies.append(actions[0][1])
        return super()._write(statements, synced)


def _daemon(tmp_path: Path, clock: ManualClock, store: Store, **kw: Any) -> Daemon:
    board = open_board(load_profile("sim-24"), backend="sim", clock=clock)
    return Daemon(_config(tmp_path), board, clock=clock, store=store, **kw)


async def _until(clock: ManualClock, done: Any, within: float = 30.0) -> None:
    start = clock()
    while not done():
        assert clock() - start < within, f"not done after {within} virtual seconds"
        await asyncio.sleep(0.01)


async def _thread_wait(event: threading.Event) -> None:
    """Wait for `event` without holding the loop (the writer thread sets it)."""
    assert await asyncio.to_thread(event.wait, WAIT)


def test_a_write_under_way_stops_nothing_and_acknowledges_nothing_until_done(tmp_path):
    clock = ManualClock(1000.0)
    store = GatedStore(tmp_path / "games.sqlite3")
    asked, answered = asyncio.Event(), []
    backends: list[DaemonBackend] = []

    async def page(daemon: Daemon) -> None:  # a service: answers while the write waits
        backend = DaemonBackend(daemon)  # the page's, as companion_service makes it
        backends.append(backend)
        while True:
            await asked.wait()
            asked.clear()
            answered.append(backend.snapshot()["actions"])

    daemon = _daemon(tmp_path, clock, store, services=[page])
    updates: list[Update] = []

    async def main() -> None:
        task = asyncio.create_task(daemon.run())
        await _until(clock, lambda: daemon.session is not None)
        session, sim = daemon.session, daemon.board.simulation
        session.subscribe(updates.append)
        backend = backends[0]
        assert backend.snapshot()["actions"] == []
        store.gate.clear()
        sim.place("d6", "white")
        await _thread_wait(store.waiting)  # committed; its write waits at the gate
        assert session.record() == "d6" and store.writing
        frames = daemon.frames_shown
        # The loop runs on: a sensor edge is read and queued for the next turn ...
        sim.place("d2", "black")
        for _ in range(5):
            await asyncio.sleep(0)
        assert [(e.point, e.present) for e in daemon._edges] == [("d2", True)]
        assert "d2" not in session.state.raw  # ... which waits for the write
        # ... and a service answers the page, which shows no new action yet.
        asked.set()
        while not answered:
            await asyncio.sleep(0)
        assert answered == [[]] and backend.snapshot()["actions"] == []
        # Nothing acknowledges d6: no frame, no update.
        assert daemon.frames_shown == frames
        assert not [u for u in updates if u.actions]
        store.gate.set()
        await _until(clock, lambda: session.record() == "d6 d2")
        await _until(clock, lambda: len([u for u in updates if u.actions]) == 2)
        assert session.record() == "d6 d2"
        assert [u.actions for u in updates if u.actions] == [("d6",), ("d2",)]
        assert daemon.frames_shown > frames
        assert backend.snapshot()["actions"] == ["d6", "d2"]
        daemon.stop()
        await task

    run_virtual(main(), clock)
    assert store.plies == [0, 1] and store.failure is None
    assert Store(tmp_path / "games.sqlite3").last_unfinished().actions == ("d6", "d2")


def test_two_quick_commits_are_written_and_told_in_order(tmp_path):
    store = GatedStore(tmp_path / "games.sqlite3")
    store.write_behind()
    session = Session(NINE, {Side.WHITE: HAND, Side.BLACK: HAND}, store=store)
    told: list[tuple[str, ...]] = []
    session.subscribe(lambda u: told.append(u.actions) if u.actions else None)
    store.gate.clear()
    hands = ScriptedHands(())
    for action in ("d6", "d2"):
        hands.perform(session.game.board, session.game.parse_action(action))
    drive(session, hands.events)  # two commits, the second while the first's write waits
    assert session.record() == "d6 d2" and told == []  # both committed, neither told
    store.gate.set()
    done = store.settled()
    assert done is not None
    done.result(WAIT)
    session.state.release()
    assert told == [("d6",), ("d2",)] and store.plies == [0, 1]
    store.close()
    assert Store(tmp_path / "games.sqlite3").last_unfinished().actions == ("d6", "d2")


def test_a_write_that_fails_off_the_loop_leaves_the_game_going_unrecorded(tmp_path, caplog):
    clock = ManualClock(1000.0)
    store = GatedStore(tmp_path / "games.sqlite3")
    store.fail = True  # the disk refuses the first action's write
    daemon = _daemon(tmp_path, clock, store)
    updates: list[Update] = []
    errors: list[str] = []

    async def main() -> None:
        task = asyncio.create_task(daemon.run())
        await _until(clock, lambda: daemon.session is not None)
        session, sim = daemon.session, daemon.board.simulation
        session.subscribe(updates.append)
        sim.place("d6", "white")
        await _until(clock, lambda: any(u.actions for u in updates))
        sim.place("d2", "black")
        await _until(clock, lambda: [u.actions for u in updates if u.actions] == [("d6",), ("d2",)])
        assert "no longer recorded" in DaemonBackend(daemon).snapshot()["notice"]
        errors.extend(r.getMessage() for r in caplog.records if r.levelname == "ERROR")
        daemon.stop()
        await task

    run_virtual(main(), clock)
    assert store.failure is not None and "readonly" in str(store.failure)
    assert len(errors) == 1 and "no longer recorded" in errors[0]
    assert store.plies == [0]  # the later write is skipped, as a store that failed skips it
