"""The daemon loop on the simulated board, sd_notify over a real socket, signals, power cuts."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import signal
import socket
import sqlite3
import sys
import threading
import time
from pathlib import Path

import pytest
from navakankari.engine.presets import preset
from navakankari.firmware.tools.power_cut_bench import LogLines as Lines
from navakankari.firmware.tools.power_cut_bench import spawn_run as _spawn
from navakankari.firmware.core.players import PlayerSpec
from navakankari.firmware.daemon.config import Config
from navakankari.firmware.companion.backend import DaemonBackend
from navakankari.firmware.cli.main import logging_kept
from navakankari.firmware.daemon.config import EXIT_CONFIG
from navakankari.firmware.daemon.loop import BoardMismatchError, Daemon
from navakankari.firmware.daemon.notify import JournalFormatter, Notifier, setup_logging
from navakankari.firmware.store.database import Store
from navakankari.hal import load_profile, open_board
from navakankari.sim.clock import ManualClock
from tables import random_game
from virtual_time import run_virtual

FAST = dict(tracker_settle=0.05, tracker_grow=0.1, tracker_grace=0.3)


def _config(tmp_path: Path, **changes) -> Config:
    base = dict(game_variant="nine-mens-morris", game_white=PlayerSpec("hand"),
                game_black=PlayerSpec("hand"), board_profile="sim-24",
                store_path=str(tmp_path / "games.sqlite3"), game_menu=False, **FAST)
    base.update(changes)
    return Config(**base)


class Listener:
    """A unix datagram socket playing systemd's notify socket."""

    def __init__(self, address: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(5)
        self.received: list[str] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                self.received.append(self.sock.recv(4096).decode())
        except OSError:
            return

    def messages(self, until: str) -> list[str]:
        end = time.monotonic() + 5
        while time.monotonic() < end and not any(until in m for m in self.received):
            time.sleep(0.01)
        return list(self.received)

    def close(self) -> None:
        self.sock.close()


def test_notifier_sends_to_a_path_socket(tmp_path):
    listener = Listener(str(tmp_path / "notify"))
    n = Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "2000000"})
    assert n.enabled and n.watchdog_interval == 1.0
    assert n.ready() and n.watchdog() and n.stopping()
    assert listener.messages("STOPPING=1") == ["READY=1", "WATCHDOG=1", "STOPPING=1"]
    n.close()
    listener.close()


def test_notifier_sends_to_an_abstract_socket():
    name = f"navakankari-test-{os.getpid()}"
    listener = Listener("\0" + name)
    n = Notifier({"NOTIFY_SOCKET": "@" + name})
    assert n.ready("watching")
    assert listener.messages("READY") == ["READY=1\nSTATUS=watching"]
    n.close()
    listener.close()


def test_notifier_is_harmless_without_systemd():
    n = Notifier({})
    assert not n.enabled and not n.ready() and not n.watchdog()
    assert n.watchdog_interval is None
    assert Notifier({"WATCHDOG_USEC": "100", "WATCHDOG_PID": "1"}).watchdog_interval is None


def test_journal_lines_carry_priorities(capsys):
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "careful\nsecond", (), None)
    assert JournalFormatter("%(name)s: %(message)s").format(record) == "<4>x: careful\n<4>second"
    with logging_kept():
        setup_logging("info", {})
        logging.getLogger("navakankari.test").info("fine")
    assert "INFO navakankari.test: fine" in capsys.readouterr().err


def _log_to(path, env) -> str:
    with open(path, "w") as stream, logging_kept():
        setup_logging("info", env, stream)
        logging.getLogger("navakankari.test").error("broken")
    return path.read_text()


def test_priorities_only_on_the_stream_journal_stream_names(tmp_path):
    journal, other = tmp_path / "journal", tmp_path / "other"
    journal.touch()
    st = os.stat(journal)
    env = {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"}
    assert _log_to(journal, env) == "<3>navakankari.test: broken\n"
    # The variable inherited by a process whose stderr goes elsewhere: plain lines.
    text = _log_to(other, env)
    assert not text.startswith("<") and "ERROR navakankari.test: broken" in text
    assert "ERROR" in _log_to(journal, {"JOURNAL_STREAM": "garbage"})


def _sim_daemon(tmp_path: Path, clock: ManualClock, profile: str = "sim-24", **kw) -> Daemon:
    """A daemon and its simulated board on the test's manual clock."""
    board = open_board(load_profile(profile), backend="sim", clock=clock)
    return Daemon(_config(tmp_path, board_profile=profile, **kw.pop("config", {})), board,
                  clock=clock, **kw)


async def _until(clock: ManualClock, done, within: float, step: float = 0.01) -> float:  # type: ignore[no-untyped-def]
    """Virtual seconds until `done()`; fails after `within` virtual seconds."""
    start = clock()
    while not done():
        assert clock() - start < within, f"not done after {within} virtual seconds"
        await asyncio.sleep(step)
    return clock() - start


def test_the_daemon_plays_a_scripted_game_notifies_systemd_and_goes_dark(tmp_path):
    address = str(tmp_path / "notify")
    listener = Listener(address)
    notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "100000"})
    clock = ManualClock(1000.0)
    script = "d6 a4 e3 b2 d5 f2".split()
    daemon = _sim_daemon(tmp_path, clock, notifier=notifier, sim_script=script)

    async def main():
        task = asyncio.create_task(daemon.run())
        took = await _until(clock, lambda: daemon.session is not None and len(
            daemon.session.game.history) == len(script), within=30)
        await asyncio.sleep(0.3)
        daemon.stop()
        return await task, took

    code, took = run_virtual(main(), clock, stores=[daemon.store])
    assert code == 0
    assert daemon.session.record() == " ".join(script)
    # The hands act after a pause of 2 x settle + 0.05 s each; the last one commits after
    # the settle time (within the 0.01 s step of the wait above).
    settle = daemon.config.tracker_settle
    assert took == pytest.approx(len(script) * (2 * settle + 0.05) + settle, abs=0.011)
    assert daemon.frames_shown >= len(script)
    leds = daemon.board.simulation.leds
    assert leds.closed and leds.frames[-1].colours == {}  # dark at the end
    assert leds.frames[-1].t == clock()  # written on the shared clock
    messages = listener.messages("STOPPING=1")
    assert messages[0].startswith("READY=1") and messages[-1] == "STOPPING=1"
    # A watchdog message every 0.05 s (half of WATCHDOG_USEC) of the run, none missed.
    assert messages.count("WATCHDOG=1") >= int((took + 0.3) / 0.05)
    listener.close()
    store = Store(tmp_path / "games.sqlite3")
    assert store.last_unfinished().actions == tuple(script)
    store.close()


def test_a_thread_started_after_the_board_opened_is_given_the_loops_scheduling(
        tmp_path, monkeypatch):
    """The search's reader thread starts when the computer first thinks: the loop's next turn
    shares its scheduling with it (hal/scheduling.py LateThreads)."""
    from navakankari.hal import scheduling

    shared: list[frozenset[int | None]] = []
    monkeypatch.setattr(scheduling, "share_with_threads", lambda: shared.append(
        frozenset(t.native_id for t in threading.enumerate())) or 0)
    clock = ManualClock()
    daemon = _sim_daemon(tmp_path, clock)
    done = threading.Event()
    late = threading.Thread(target=done.wait)

    async def main():
        task = asyncio.create_task(daemon.run())
        await _until(clock, lambda: daemon.session is not None and shared, within=5)
        at_start = len(shared)
        daemon.changed()
        await asyncio.sleep(0.1)
        late.start()
        daemon.changed()
        await asyncio.sleep(0.1)
        daemon.stop()
        await task
        return at_start

    try:
        at_start = run_virtual(main(), clock, stores=[daemon.store])
    finally:
        done.set()
    assert at_start == 1  # the board's own threads, at start
    assert late.native_id in shared[-1] and late.native_id not in shared[0]


def test_an_idle_daemon_sends_no_frames(tmp_path):
    clock = ManualClock()
    daemon = _sim_daemon(tmp_path, clock)

    async def main():
        task = asyncio.create_task(daemon.run())
        await asyncio.sleep(0.3)
        shown = daemon.frames_shown
        await asyncio.sleep(3600)  # an hour with nothing on the board
        idle = daemon.frames_shown - shown
        daemon.stop()
        await task
        return shown, idle

    shown, idle = run_virtual(main(), clock, stores=[daemon.store])
    assert shown == 1 and idle == 0
    assert clock() == pytest.approx(3600.3)


def test_a_failing_led_write_is_retried_reported_and_never_ends_the_daemon(tmp_path, caplog):
    """neopixel_spi raised an ioctl timeout from show() once on an emulated Pi, which ended
    the daemon: now the game goes on, the page and the log say why, and the frame is sent
    again every LED_RETRY seconds until the LEDs take it."""
    from navakankari.firmware.daemon.loop import LED_RETRY

    clock = ManualClock()
    daemon = _sim_daemon(tmp_path, clock)
    leds = daemon.board.leds
    real_write, failing = leds._write, {"on": False}
    tries: list[float] = []

    def write(pixels):  # the hardware below LedStrip.show
        if failing["on"]:
            tries.append(clock())
            raise OSError(110, "ioctl timeout")
        real_write(pixels)

    leds._write = write
    board = daemon.board.simulation

    async def main():
        task = asyncio.create_task(daemon.run())
        await _until(clock, lambda: daemon.frames_shown >= 1, within=1)
        failing["on"] = True
        board.place("d6")
        await _until(clock, lambda: daemon.led_failure is not None, within=2)
        notice = daemon.led_failure
        assert DaemonBackend(daemon).snapshot()["notice"] == str(notice)  # on the page
        await asyncio.sleep(3 * LED_RETRY)
        assert not task.done() and daemon.session.tracker.settled == {"d6"}
        failing["on"] = False
        await _until(clock, lambda: daemon.led_failure is None, within=2 * LED_RETRY)
        shown = (dict(board.leds.lit), dict(daemon.session.frame(clock())))
        daemon.stop()
        await task
        return notice, shown

    notice, (lit, wanted) = run_virtual(main(), clock, stores=[daemon.store])
    assert "ioctl timeout" in str(notice)
    assert len(tries) >= 3 and all(b - a >= LED_RETRY - 1e-9 for a, b in zip(tries, tries[1:]))
    # The frame the failures held back is on the LEDs at last.
    assert lit == {p: c for p, c in wanted.items() if c != (0, 0, 0)} and lit
    logged = [r.getMessage() for r in caplog.records if r.name.endswith("daemon.loop")]
    assert sum("could not be written" in m for m in logged) == 1  # once, not per retry
    assert any("written again" in m for m in logged)


def test_the_computer_moves_in_the_daemon(tmp_path):
    clock = ManualClock()
    daemon = _sim_daemon(tmp_path, clock, sim_script=["d6"],
                         config=dict(game_black=PlayerSpec("computer", 1)))

    async def main():
        task = asyncio.create_task(daemon.run())
        # The search runs in a child process on real time, while the virtual clock races
        # on through the hands' polls: a bound of virtual time far beyond its start-up.
        await _until(clock, lambda: daemon.session is not None and len(
            daemon.session.game.history) >= 2, within=10**7, step=0.5)
        daemon.stop()
        await task

    run_virtual(main(), clock, stores=[daemon.store])
    # White's d6 by hand, then the computer's reply, carried out by the simulated hands.
    assert len(daemon.session.game.history) == 2
    assert daemon.session.game.history[0].text == "d6"


def test_a_profile_without_the_variants_points_is_refused(tmp_path):
    clock = ManualClock()
    daemon = _sim_daemon(tmp_path, clock, config=dict(game_variant="nau-keti-keta"))
    with pytest.raises(BoardMismatchError, match="d4"):
        run_virtual(daemon.run(), clock, stores=[daemon.store])
    assert daemon.board.simulation.leds.closed


# -- real processes --------------------------------------------------------------------------
def _write_config(tmp_path: Path) -> Path:
    path = tmp_path / "navakankari.toml"
    path.write_text(f"""
[game]
variant = "nine-mens-morris"
white = "hand"
black = "hand"
menu = false
[tracker]
settle = 0.05
grow = 0.1
grace = 0.3
[board]
profile = "sim-24"
[store]
path = "{tmp_path / 'games.sqlite3'}"
""")
    return path


def test_sigterm_turns_the_lights_off_and_closes_the_store(tmp_path):
    config = _write_config(tmp_path)
    proc = _spawn(config, "d6 a4")
    lines = Lines(proc)
    assert lines.wait_for("sim-hands: done")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(10) == 0
    lines.thread.join(5)
    text = "\n".join(lines.lines)
    assert "stopping" in text and "stopped" in text
    # Closed cleanly: the WAL was checkpointed into the database file.
    assert not (tmp_path / "games.sqlite3-wal").exists() or \
        (tmp_path / "games.sqlite3-wal").stat().st_size == 0


def test_sigkill_at_random_moments_never_loses_a_committed_action(tmp_path):
    rules = preset("nine-mens-morris")
    game = random_game(rules, seed=21, plies=30)
    assert game.outcome() is None
    script = [a.text for a in game.history]
    config = _write_config(tmp_path)
    rng = random.Random(5)
    db = tmp_path / "games.sqlite3"
    kills = 0
    for _attempt in range(12):
        proc = _spawn(config, " ".join(script))
        lines = Lines(proc)
        assert lines.wait_for(r"\bready\b"), "\n".join(lines.lines)
        if kills < 3:
            finished = lines.wait_for("sim-hands: done", timeout=rng.uniform(0.3, 1.5))
            proc.kill()
            proc.wait(10)
            lines.thread.join(5)
            acknowledged = lines.stored()
            con = sqlite3.connect(str(db))
            stored = [r[0] for r in con.execute(
                "SELECT text FROM actions WHERE game = (SELECT MAX(id) FROM games) ORDER BY ply")]
            con.close()
            for ply, text in acknowledged:  # every acknowledged action survived the kill
                actions = text.split()  # one commit may hold several (a move and its removal)
                assert stored[ply - 1:ply - 1 + len(actions)] == actions
            assert stored == script[:len(stored)]
            kills += 1
            if finished:
                break
            continue
        assert lines.wait_for("sim-hands: done", timeout=30), "\n".join(lines.lines[-20:])
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        lines.thread.join(5)
        assert "resumed game" in "\n".join(lines.lines)
        break
    con = sqlite3.connect(str(db))
    games = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    stored = [r[0] for r in con.execute("SELECT text FROM actions ORDER BY game, ply")]
    con.close()
    assert games == 1, "the game was resumed each time, never restarted"
    assert stored == script
    assert kills == 3


def test_services_run_in_the_loop_and_their_changes_are_lit(tmp_path):
    clock = ManualClock()
    seen = {}

    async def web(daemon: Daemon) -> None:
        await asyncio.sleep(0.1)
        daemon.session.answers.remote_move("d6", daemon.now())
        await asyncio.sleep(0)  # the loop's next turn lights it
        seen["lit"] = dict(daemon.board.simulation.leds.lit)
        daemon.stop()

    daemon = _sim_daemon(tmp_path, clock, services=[web],
                         config=dict(game_white=PlayerSpec("remote")))
    run_virtual(daemon.run(), clock, stores=[daemon.store])
    from navakankari.firmware.core.palette import PALETTE, Role

    assert seen["lit"] == {"d6": PALETTE[Role.COMPUTER_TO].colour}  # shown: set a pebble on d6


def test_nau_keti_keta_on_the_nineteen_point_board_is_set_up_then_played(tmp_path):
    game = random_game(preset("nau-keti-keta"), seed=1, plies=6)
    script = [a.text for a in game.history]
    clock = ManualClock()
    daemon = _sim_daemon(tmp_path, clock, "sim-19", sim_script=script,
                         config=dict(game_variant="nau-keti-keta"))

    async def main():
        task = asyncio.create_task(daemon.run())
        await _until(clock, lambda: daemon.session is not None and len(
            daemon.session.game.history) == len(script), within=60)
        daemon.stop()
        await task

    run_virtual(main(), clock, stores=[daemon.store])
    assert daemon.session.record() == " ".join(script)


def test_a_search_for_a_position_taken_back_is_stopped(tmp_path):
    """The computer thinks until told to stop; a takeback tells it."""
    clock = ManualClock()
    stops: list[bool] = []

    class Slow:
        def choose(self, game, stop=None):
            stopped = stop.wait(5)
            stops.append(stopped)
            return game.legal_actions()[0]

    async def web(daemon: Daemon) -> None:
        await asyncio.sleep(0.2)  # white (the computer) is thinking
        daemon.session.new_game(daemon.now())
        daemon.wake()
        await asyncio.sleep(0.2)
        daemon.stop()

    daemon = _sim_daemon(tmp_path, clock, player_factory=lambda spec: Slow(), services=[web],
                         config=dict(game_white=PlayerSpec("computer", 4)))
    started = time.monotonic()
    run_virtual(daemon.run(), clock, stores=[daemon.store])
    assert stops and stops[0] is True
    assert time.monotonic() - started < 4


def test_run_reports_a_bad_config_or_profile(tmp_path, capsys):
    from navakankari.firmware.cli import main as cli

    bad = tmp_path / "bad.toml"
    bad.write_text("[tracker]\nsettle = 5\n")
    assert cli.main(["run", "--config", str(bad)]) == EXIT_CONFIG
    assert "tracker.settle" in capsys.readouterr().err
    missing = tmp_path / "missing-profile.toml"
    missing.write_text('[board]\nprofile = "no-such-profile"\n'
                       f'[store]\npath = "{tmp_path / "g.sqlite3"}"\n')
    assert cli.main(["run", "--config", str(missing)]) == EXIT_CONFIG
    assert "no-such-profile" in capsys.readouterr().err


def test_run_exits_with_the_configuration_status_for_a_variant_the_profile_cannot_play(
        tmp_path, capsys):
    """The unit's RestartPreventExitStatus= names EXIT_CONFIG: such a start is not retried."""
    from navakankari.firmware.cli import main as cli

    config = tmp_path / "c.toml"
    config.write_text('[game]\nvariant = "nau-keti-keta"\n[board]\nprofile = "sim-24"\n'
                      f'[store]\npath = "{tmp_path / "g.sqlite3"}"\n[web]\nport = 0\n')
    assert cli.main(["run", "--config", str(config)]) == EXIT_CONFIG
    assert "no sensors for" in capsys.readouterr().err


def _engine_daemon(tmp_path: Path, mode: str) -> tuple[Daemon, list]:
    """White is the fake engine in `mode`; the daemon runs until white has answered or
    failed, then stops."""
    fake = Path(__file__).parents[1] / "engine" / "fake_engine.py"
    script = tmp_path / "engine"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {fake} --mode {mode}\n")
    script.chmod(0o755)
    config = _config(tmp_path, game_white=PlayerSpec.parse(f"engine:{script}?seconds=0.05"))
    board = open_board(load_profile("sim-24"), backend="sim")
    snapshots: list = []

    async def watch(daemon: Daemon) -> None:
        end = time.monotonic() + 10
        while time.monotonic() < end:
            await asyncio.sleep(0.05)
            session = daemon.session
            if session.problem or session.status.kind.value == "executing":
                break
        snapshots.append(DaemonBackend(daemon).snapshot())  # what the page shows
        daemon.stop()

    daemon = Daemon(config, board, services=[watch])
    asyncio.run(daemon.run())
    return daemon, snapshots


def test_an_engine_plays_a_side_on_the_board(tmp_path):
    daemon, [snapshot] = _engine_daemon(tmp_path, "legal")
    assert snapshot["problem"] is None
    assert snapshot["status"]["kind"] == "executing"
    assert snapshot["status"]["forced"] == [new_game_first_action()]
    assert snapshot["players"]["white"].startswith("engine:")
    assert all(p._proc is None for p in daemon._players.values())  # ended on shutdown


def new_game_first_action() -> str:
    from navakankari.engine.variants import new_game

    return new_game(preset("nine-mens-morris")).legal_actions()[0].text


def test_an_engine_that_answers_illegally_leaves_the_game_as_it_was(tmp_path, caplog):
    with caplog.at_level(logging.ERROR, logger="navakankari.firmware.daemon.loop"):
        daemon, [snapshot] = _engine_daemon(tmp_path, "illegal")
    assert snapshot["actions"] == [] and daemon.session.record() == ""
    assert re.search(r"engine .*/engine: answered \S+, which is illegal here", snapshot["problem"])
    assert "in position " in snapshot["problem"]
    assert snapshot["problem"] in caplog.text


def test_a_board_at_rest_after_a_commit_does_not_spin(tmp_path):
    # A commit writes the raw events pending before it; the loop then kept waiting for a
    # flush already past, with a zero timeout: thousands of turns a second, until the next
    # sensor edge. A guard thread stops a spinning daemon (its virtual clock stands still).
    clock = ManualClock()
    script = "d6 a4".split()
    daemon = _sim_daemon(tmp_path, clock, sim_script=script)
    loop_box = []

    async def main():
        loop_box.append(asyncio.get_running_loop())
        task = asyncio.create_task(daemon.run())
        await _until(clock, lambda: daemon.session is not None and len(
            daemon.session.game.history) == len(script), within=30)
        await asyncio.sleep(1.0)  # the hands are done
        start = daemon.wakeups
        await asyncio.sleep(60)
        turns = daemon.wakeups - start
        daemon.stop()
        await task
        return turns

    guard = threading.Timer(20, lambda: loop_box[0].call_soon_threadsafe(daemon.stop))
    guard.start()
    try:
        turns = run_virtual(main(), clock, stores=[daemon.store])
    finally:
        guard.cancel()
    # A minute of rest: a flush of the events written after the last commit, nothing more.
    assert turns <= 3, turns


@pytest.mark.parametrize("state", ["menu", "waiting for a hand", "game over"])
def test_bench_daemon_rests_in_each_state(state):
    from navakankari.firmware.tools.bench import idle_cpu

    cpu, frames = idle_cpu(0.3, state)  # raises unless the daemon rested in `state` throughout
    assert cpu >= 0 and frames >= 0
    if state == "waiting for a hand":
        assert frames == 0  # nothing animates
