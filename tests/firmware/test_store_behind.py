"""A synced store write runs off the daemon's loop: the board goes on meanwhile (sensors,
the page, online play), and what the write acknowledges (the frame, the updates, the page's
state) waits for it. The store's write is held on an Event the test controls."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aiohttp import ClientTimeout
from aiohttp.test_utils import TestClient, TestServer
from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.firmware.companion.backend import DaemonBackend
from navakankari.firmware.core.clockwork import drive
from navakankari.firmware.core.players import HAND
from navakankari.firmware.core.session import Session, Update
from navakankari.firmware.companion.server import Companion
from navakankari.firmware.daemon.loop import WRITE_STUCK, Daemon
from navakankari.firmware.daemon.notify import Notifier
from navakankari.firmware.store.database import Store
from navakankari.hal import load_profile, open_board
from navakankari.sim.clock import ManualClock
from navakankari.sim.hands import ScriptedHands
from test_companion_guard import PIN
from test_daemon import Listener, _config
from virtual_time import run_virtual

NINE = preset("nine-mens-morris")
WAIT = 10.0
"""Real seconds a test waits for the writer thread before it fails (never reached when green)."""


#: The client's timeouts would run on the virtual clock, which runs on while the test holds a
#: write (and while the loop waits on a thread the clock does not wait for): a request
#: waiting for the write could time out however long it may take in real time.
NO_TIMEOUT = ClientTimeout(total=None, sock_read=None, sock_connect=None)


class GatedStore(Store):
    """A store whose writes of actions wait for `gate` (set: they go through), and can be
    made to fail there (`fail`: every write from then on is refused, as a disk gone
    read-only refuses it) or to end its writer thread (`die`)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gate = threading.Event()
        self.gate.set()
        self.waiting = threading.Event()  #: a write waits at the gate
        self.fail = False
        self.die = False  #: the writer thread ends once its write is done, before telling it
        self.plies: list[int] = []  #: the first ply of each action write, in the order written
        self.writer: threading.Thread | None = None  #: the thread the last write ran in

    def _one_written(self, future: Any) -> None:
        if self.die and threading.current_thread() is self.writer:
            # The pool keeps what a write raises for its future; what the telling of its end
            # raises past Exception ends the pool's thread: the write stays under way.
            raise SystemExit("the store's writer thread ends")
        super()._one_written(future)

    def _write(self, statements: list[tuple[str, Sequence[Any]]], synced: bool) -> Any:
        self.writer = threading.current_thread()
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
            await backend.stored()  # what the page's server awaits before any state
            answered.append(backend.snapshot()["actions"])

    daemon = _daemon(tmp_path, clock, store, services=[page])
    updates: list[Update] = []

    async def main() -> None:
        task = await _started(daemon, clock)
        session, sim = daemon.session, daemon.board.simulation
        session.subscribe(updates.append)
        backend = backends[0]
        assert backend.snapshot()["actions"] == []
        store.gate.clear()
        sim.place("d6", "white")
        await _until(clock, store.waiting.is_set)  # committed; its write waits at the gate
        assert session.record() == "d6" and store.writing
        frames = daemon.frames_shown
        # The loop runs on: a sensor edge is read and queued for the next turn ...
        sim.place("d2", "black")
        for _ in range(5):
            await asyncio.sleep(0)
        assert [(e.point, e.present) for e in daemon._edges] == [("d2", True)]
        assert "d2" not in session.state.raw  # ... which waits for the write
        # ... and a service asking the page's state waits for the write.
        asked.set()
        for _ in range(5):
            await asyncio.sleep(0)
        assert answered == []
        # Nothing acknowledges d6: no frame, no update.
        assert daemon.frames_shown == frames
        assert not [u for u in updates if u.actions]
        store.gate.set()
        await _until(clock, lambda: answered)
        assert answered[0][0] == "d6"
        await _until(clock, lambda: session.record() == "d6 d2")
        await _until(clock, lambda: len([u for u in updates if u.actions]) == 2)
        assert session.record() == "d6 d2"
        assert [u.actions for u in updates if u.actions] == [("d6",), ("d2",)]
        assert daemon.frames_shown > frames
        assert backend.snapshot()["actions"] == ["d6", "d2"]
        daemon.stop()
        await task

    run_virtual(main(), clock, stores=[store], held=store.waiting.is_set)
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
        task = await _started(daemon, clock)
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

    run_virtual(main(), clock, stores=[daemon.store])
    assert store.failure is not None and "readonly" in str(store.failure)
    assert len(errors) == 1 and "no longer recorded" in errors[0]
    assert store.plies == [0]  # the later write is skipped, as a store that failed skips it


class Pings(Notifier):
    """systemd's notify socket (the tests' Listener) fed by the daemon; each watchdog ping's
    time on the daemon's clock is kept too."""

    def __init__(self, address: str, clock: ManualClock, interval_usec: int) -> None:
        super().__init__({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": str(interval_usec)})
        self.clock = clock
        self.times: list[float] = []

    def watchdog(self) -> bool:
        self.times.append(self.clock())
        return super().watchdog()


MILL = "a7 b6 d7 b4 g7".split()
"""White closes the top mill: the board asks which black pebble goes (they blink)."""


def _pinged(tmp_path: Path, clock: ManualClock
            ) -> tuple[GatedStore, Pings, Daemon, Listener]:
    """A daemon on a gated store, feeding systemd's watchdog (its socket: the Listener)
    every second."""
    store = GatedStore(tmp_path / "games.sqlite3")
    listener = Listener(str(tmp_path / "notify"))
    pings = Pings(str(tmp_path / "notify"), clock, 2_000_000)  # WatchdogSec=2: every 1 s
    return store, pings, _daemon(tmp_path, clock, store, notifier=pings), listener


async def _started(daemon: Daemon, clock: ManualClock) -> asyncio.Task[int]:
    """The daemon's task, once its session is there."""
    task = asyncio.create_task(daemon.run())
    await _until(clock, lambda: daemon.session is not None)
    return task


async def _removal_held(daemon: Daemon, store: GatedStore, clock: ManualClock) -> float:
    """Play to the mill, then lift b6: the removal is committed and its write held. Returns
    when it was committed (its write began)."""
    session, sim = daemon.session, daemon.board.simulation
    assert session is not None
    for n, point in enumerate(MILL):
        sim.place(point, "white" if n % 2 == 0 else "black")
        await _until(clock, lambda: len(session.game.history) == n + 1 and not store.writing)
    began: list[float] = []
    session.subscribe(lambda u: began.append(clock()) if u.actions == ("xb6",) else None,
                      at_once=True)  # told at once: before the write is done
    store.gate.clear()
    sim.lift("b6")
    # (looked at from the loop: the clock waits for the write until it is at the gate)
    await _until(clock, store.waiting.is_set)
    return began[0]


def test_during_a_slow_write_the_lights_blink_on_and_the_watchdog_is_fed(tmp_path):
    """A write held 30 virtual seconds (a dying SD card's sync): the loop waits for it
    without stopping. The lights go on animating the state last stored (the blinking
    pebbles to take, the mill), never the removal not yet stored, and systemd's watchdog is
    fed every half period, so the board is not killed mid-write."""
    clock = ManualClock(1000.0)
    store, pings, daemon, listener = _pinged(tmp_path, clock)
    held: list[Any] = []

    async def main() -> None:
        task = await _started(daemon, clock)
        await _removal_held(daemon, store, clock)
        leds = daemon.board.simulation.leds
        start, shown = clock(), len(leds.frames)
        await asyncio.sleep(30.0)  # the write is held all along
        assert store.writing and daemon.session.record() == "a7 b6 d7 b4 g7 xb6"
        held.extend(f for f in leds.frames if f.t >= start)
        held.append(start)
        assert len(leds.frames) > shown
        store.gate.set()
        await _until(clock, lambda: not store.writing and "a7" not in leds.frames[-1].colours)
        daemon.stop()
        await task

    run_virtual(main(), clock, stores=[store], held=store.waiting.is_set)
    start = held.pop()
    assert len(held) >= 70  # a blink of 0.8 s: a frame every 0.4 s of the 30
    assert all({"a7", "d7", "g7"} <= f.colours.keys() for f in held)  # the mill, still
    assert {"b6" in f.colours for f in held} == {True, False}  # b6 blinks: not yet taken
    during = [t for t in pings.times if start <= t <= start + 30.0]
    assert len(during) >= 29 and all(b - a <= 1.0 + 1e-9 for a, b in zip(during, during[1:]))
    # (sent as fast as virtual time runs, some find the socket's queue full: never more)
    assert 10 <= listener.messages("STOPPING=1").count("WATCHDOG=1") <= len(pings.times)
    listener.close()
    assert Store(tmp_path / "games.sqlite3").last_unfinished().actions[-1] == "xb6"


def test_a_writer_stuck_past_write_stuck_leaves_the_watchdog_unfed(tmp_path):
    """Past WRITE_STUCK a write under way will not end: the loop stops feeding the watchdog,
    so systemd restarts the board."""
    clock = ManualClock(1000.0)
    store, pings, daemon, listener = _pinged(tmp_path, clock)
    marks: dict[str, float] = {}

    async def main() -> None:
        task = await _started(daemon, clock)
        marks["write"] = await _removal_held(daemon, store, clock)
        await asyncio.sleep(WRITE_STUCK + 60.0)
        marks["end"] = clock()
        store.gate.set()
        await _until(clock, lambda: not store.writing)
        await asyncio.sleep(1.5)
        daemon.stop()
        await task

    run_virtual(main(), clock, stores=[store], held=store.waiting.is_set)
    write, end = marks["write"], marks["end"]
    during = [t for t in pings.times if write < t < end]
    # fed until the write is WRITE_STUCK old, then no more
    assert write + WRITE_STUCK - 1.0 <= max(during) < write + WRITE_STUCK
    assert [t for t in pings.times if t > end]  # fed again once the write ended
    listener.close()


def test_a_writer_thread_that_ends_mid_write_leaves_the_watchdog_unfed(tmp_path):
    """The watchdog is fed while the writer thread is alive, however long its write takes;
    once that thread has ended, the write under way will never be done: the loop feeds the
    watchdog no more (systemd restarts the board), long before WRITE_STUCK."""
    clock = ManualClock(1000.0)
    store, pings, daemon, listener = _pinged(tmp_path, clock)
    marks: dict[str, float] = {}
    dead = threading.Event()

    async def main() -> None:
        task = await _started(daemon, clock)
        marks["write"] = await _removal_held(daemon, store, clock)
        await asyncio.sleep(10.0)  # a slow write: fed meanwhile
        writer = store.writer
        assert writer is not None and writer.is_alive()
        store.die = True
        let_go = clock()
        store.waiting.clear()  # no longer held: the clock waits for the write under way ...
        store.gate.set()  # ... which is stored, and its thread ends before telling it
        await asyncio.to_thread(writer.join, WAIT)
        assert not writer.is_alive() and store.writing
        marks["gone"] = clock()
        assert marks["gone"] == let_go  # (the clock stood still until the thread ended)
        dead.set()  # the write will never end: the clock goes on from now
        await asyncio.sleep(30.0)
        assert store.writing and daemon.session.record() == "a7 b6 d7 b4 g7 xb6"
        daemon.stop()
        await task

    run_virtual(main(), clock, stores=[store],
                held=lambda: store.waiting.is_set() or dead.is_set())
    write, gone = marks["write"], marks["gone"]
    alive = [t for t in pings.times if write < t <= gone]
    assert len(alive) >= 10 and all(b - a <= 1.0 + 1e-9 for a, b in zip(alive, alive[1:]))
    assert gone - max(alive) <= 1.0  # fed up to the end of the writer thread ...
    assert not [t for t in pings.times if t > gone]  # ... and never after it
    listener.close()
    assert Store(tmp_path / "games.sqlite3").last_unfinished().actions[-1] == "xb6"


def test_every_state_the_page_shows_waits_for_the_write_under_way(tmp_path):
    """Asked mid-write, the page's state (with the PIN and without), the state pushed to a
    viewer, the online game's code, the record, the games and the review answer only once
    the write is done: no path shows a move the store does not hold."""
    clock = ManualClock(1000.0)
    store = GatedStore(tmp_path / "games.sqlite3")
    daemon = _daemon(tmp_path, clock, store)
    backend = DaemonBackend(daemon)
    pushed: list[tuple[int, dict[str, Any]]] = []  #: writes done when each came, the state
    answered: dict[str, tuple[int, Any]] = {}
    removal: list[int] = []  #: the writes asked for once the removal's was

    async def main() -> None:
        task = await _started(daemon, clock)
        companion = Companion(backend, PIN)
        async with TestClient(TestServer(companion.app(), host="127.0.0.1"),
                              timeout=NO_TIMEOUT) as client:
            ws = await client.ws_connect("/ws")

            async def viewer() -> None:
                while True:
                    state = await ws.receive_json()
                    pushed.append((store.written, state))

            watching = asyncio.create_task(viewer())
            await _removal_held(daemon, store, clock)
            removal.append(store.queued)
            seen = len(pushed)
            daemon.changed()  # something else to push: the viewer's state waits too

            async def ask(path: str, pin: bool = False) -> None:
                r = await client.get(path, headers={"X-Pin": PIN} if pin else {})
                body = await (r.json() if "state" in path or "games" in path
                              or "review" in path else r.text())
                answered[path + ("+pin" if pin else "")] = (store.written, body)

            paths = [("/api/state", False), ("/api/state", True), ("/api/online/qr.svg", True),
                     ("/api/record.pgn", False), ("/api/games", False), ("/api/review", False)]
            asking = [asyncio.create_task(ask(p, pin)) for p, pin in paths]
            await asyncio.sleep(5.0)  # virtual: the clock runs while the write is held
            assert store.writing and answered == {} and len(pushed) == seen
            store.gate.set()
            await asyncio.gather(*asking)
            await _until(clock, lambda: len(pushed) > seen)
            watching.cancel()
            await ws.close()
        daemon.stop()
        await task

    run_virtual(main(), clock, stores=[store], held=store.waiting.is_set)
    stored = removal[0]
    assert len(answered) == 6
    for path, (written, _) in answered.items():
        assert written >= stored, path  # answered once the removal was stored
    assert any("xb6" in state["actions"] for _, state in pushed)
    for written, state in pushed:  # a viewer never sees the removal before it is stored
        assert "xb6" not in state["actions"] or written >= stored
    assert answered["/api/state"][1]["actions"][-1] == "xb6"
    assert answered["/api/state+pin"][1]["actions"][-1] == "xb6"
    assert "xb6" in answered["/api/record.pgn"][1]


def test_a_new_game_asked_mid_write_waits_for_it_off_the_loop(tmp_path):
    """A new game against the adaptive computer reads its level from the store, which waits
    for the write under way: asked on the page mid-write, the request waits for the write
    (awaited), so the loop is never held up by that read (its clock and lights go on)."""
    clock = ManualClock(1000.0)
    store = GatedStore(tmp_path / "games.sqlite3")
    daemon = _daemon(tmp_path, clock, store)
    answers: list[int] = []

    async def main() -> None:
        task = await _started(daemon, clock)
        companion = Companion(DaemonBackend(daemon), PIN)
        async with TestClient(TestServer(companion.app(), host="127.0.0.1"),
                              timeout=NO_TIMEOUT) as client:
            await _removal_held(daemon, store, clock)

            async def new_game() -> None:
                r = await client.post("/api/new-game", headers={"X-Pin": PIN}, json={
                    "variant": "nine-mens-morris", "white": "hand",
                    "black": "computer:adaptive"})
                answers.append(r.status)

            asking = asyncio.create_task(new_game())
            start = clock()
            await asyncio.sleep(5.0)  # a loop held up by a read would never get here
            # (a read on the loop would hold it until the gate gave up: the write failed)
            assert store.failure is None and store.writing
            assert clock() - start == 5.0 and answers == []
            store.gate.set()
            await asking
        daemon.stop()
        await task

    run_virtual(main(), clock, stores=[store], held=store.waiting.is_set)
    assert answers == [200]
    assert store.failure is None and daemon.session.players[Side.BLACK].adaptive


def test_a_writer_thread_that_cannot_start_leaves_the_board_going_unrecorded(tmp_path):
    """The writer's start failing (the daemon's scheduling refused) ends the write as one
    that failed, and a write asked before that failure was seen is refused by the broken
    writer: the store says why and nothing raises into the loop."""
    store = Store(tmp_path / "games.sqlite3")

    def refused() -> None:
        raise PermissionError("no realtime priority here")

    store.write_behind(refused)
    store.set_setting("brightness", "0.5")
    done = store.settled()
    if done is not None:
        done.result(WAIT)
    thread = store._writer_thread
    assert thread is not None
    thread.join(WAIT)
    assert not store.writer_alive and store.failure is not None
    store.failure = None  # a write asked before the failure was seen: the writer is broken
    store.set_setting("language", "ta")
    assert store.failure is not None and "no longer recorded" in str(store.failure)
    assert not store.writing
    store.close()
