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
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from tables import random_game

from navakankari.engine.presets import preset
from navakankari.firmware.config import Config, PlayerSpec
from navakankari.firmware.daemon import BoardMismatchError, Daemon
from navakankari.firmware.notify import JournalFormatter, Notifier, setup_logging
from navakankari.firmware.store import Store
from navakankari.hal import load_profile, open_board

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
    setup_logging("info", {})
    logging.getLogger("navakankari.test").info("fine")
    assert "INFO navakankari.test: fine" in capsys.readouterr().err


def _log_to(path, env) -> str:
    with open(path, "w") as stream:
        setup_logging("info", env, stream)
        try:
            logging.getLogger("navakankari.test").error("broken")
        finally:
            setup_logging("info", {})
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


def test_the_daemon_plays_a_scripted_game_notifies_systemd_and_goes_dark(tmp_path):
    address = str(tmp_path / "notify")
    listener = Listener(address)
    notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "100000"})
    config = _config(tmp_path)
    board = open_board(load_profile("sim-24"), backend="sim")
    script = "d6 a4 e3 b2 d5 f2".split()
    daemon = Daemon(config, board, notifier=notifier, sim_script=script)

    async def main():
        task = asyncio.create_task(daemon.run())
        for _ in range(400):
            await asyncio.sleep(0.02)
            if daemon.session is not None and len(daemon.session.game.history) == len(script):
                await asyncio.sleep(0.3)
                break
        daemon.stop()
        return await task

    assert asyncio.run(main()) == 0
    assert daemon.session.record() == " ".join(script)
    assert daemon.frames_shown >= len(script)
    leds = board.simulation.leds
    assert leds.closed and leds.frames[-1].colours == {}  # dark at the end
    messages = listener.messages("STOPPING=1")
    assert messages[0].startswith("READY=1")
    assert messages.count("WATCHDOG=1") >= 3
    listener.close()
    store = Store(tmp_path / "games.sqlite3")
    assert store.last_unfinished().actions == tuple(script)
    store.close()


def test_an_idle_daemon_sends_no_frames(tmp_path):
    config = _config(tmp_path)
    board = open_board(load_profile("sim-24"), backend="sim")
    daemon = Daemon(config, board)

    async def main():
        task = asyncio.create_task(daemon.run())
        await asyncio.sleep(0.3)
        shown = daemon.frames_shown
        await asyncio.sleep(0.5)
        idle = daemon.frames_shown - shown
        daemon.stop()
        await task
        return shown, idle

    shown, idle = asyncio.run(main())
    assert shown == 1 and idle == 0


def test_the_computer_moves_in_the_daemon(tmp_path):
    config = _config(tmp_path, game_black=PlayerSpec("computer", 1))
    board = open_board(load_profile("sim-24"), backend="sim")
    daemon = Daemon(config, board, sim_script=["d6"])

    async def main():
        task = asyncio.create_task(daemon.run())
        for _ in range(300):
            await asyncio.sleep(0.02)
            if daemon.session is not None and len(daemon.session.game.history) >= 2:
                break
        daemon.stop()
        await task

    asyncio.run(main())
    # White's d6 by hand, then the computer's reply, carried out by the simulated hands.
    assert len(daemon.session.game.history) == 2
    assert daemon.session.game.history[0].text == "d6"


def test_a_profile_without_the_variants_points_is_refused(tmp_path):
    config = _config(tmp_path, game_variant="nau-keti-keta")
    board = open_board(load_profile("sim-24"), backend="sim")
    daemon = Daemon(config, board)
    with pytest.raises(BoardMismatchError, match="d4"):
        asyncio.run(daemon.run())
    assert board.simulation.leds.closed


# -- real processes --------------------------------------------------------------------------
def _spawn(config_path: Path, script: str | None = None, env_extra=None) -> subprocess.Popen:
    env = {**os.environ, "NAVAKANKARI_BACKEND": "sim", **(env_extra or {})}
    env.pop("NOTIFY_SOCKET", None)
    env.pop("JOURNAL_STREAM", None)
    cmd = [sys.executable, "-m", "navakankari.firmware.cli", "run", "--config", str(config_path)]
    if script is not None:
        cmd += ["--sim-hands", script]
    return subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            env=env)


class Lines:
    """Collects a child's stderr lines in a thread."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(proc,), daemon=True)
        self.thread.start()

    def _read(self, proc) -> None:
        for line in proc.stderr:
            with self.cond:
                self.lines.append(line.rstrip("\n"))
                self.cond.notify_all()

    def wait_for(self, pattern: str, timeout: float = 20.0) -> bool:
        end = time.monotonic() + timeout
        with self.cond:
            while not any(re.search(pattern, ln) for ln in self.lines):
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
        return True

    def stored(self) -> list[tuple[int, str]]:
        with self.cond:
            return [(int(m.group(1)), m.group(2)) for ln in self.lines
                    if (m := re.search(r"stored ply (\d+): (.*)$", ln))]


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
    for attempt in range(12):
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
                assert stored[ply - 1] == text
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
    config = _config(tmp_path, game_white=PlayerSpec("remote"))
    board = open_board(load_profile("sim-24"), backend="sim")
    seen = {}

    async def web(daemon: Daemon) -> None:
        await asyncio.sleep(0.1)
        daemon.session.remote_move("d6", daemon.now())
        await asyncio.sleep(0.2)
        seen["lit"] = dict(board.simulation.leds.lit)
        daemon.stop()

    daemon = Daemon(config, board, services=[web])
    asyncio.run(daemon.run())
    from navakankari.firmware.palette import PALETTE, Role

    assert seen["lit"] == {"d6": PALETTE[Role.COMPUTER_TO].colour}  # shown: set a pebble on d6


def test_nau_keti_keta_on_the_nineteen_point_board_is_set_up_then_played(tmp_path):
    game = random_game(preset("nau-keti-keta"), seed=1, plies=6)
    script = [a.text for a in game.history]
    config = _config(tmp_path, game_variant="nau-keti-keta", board_profile="sim-19")
    board = open_board(load_profile("sim-19"), backend="sim")
    daemon = Daemon(config, board, sim_script=script)

    async def main():
        task = asyncio.create_task(daemon.run())
        for _ in range(600):
            await asyncio.sleep(0.02)
            if daemon.session is not None and len(daemon.session.game.history) == len(script):
                break
        daemon.stop()
        await task

    asyncio.run(main())
    assert daemon.session.record() == " ".join(script)


def test_a_search_for_a_position_taken_back_is_stopped(tmp_path):
    """The computer thinks until told to stop; a takeback tells it."""
    config = _config(tmp_path, game_white=PlayerSpec("computer", 4))
    board = open_board(load_profile("sim-24"), backend="sim")
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

    daemon = Daemon(config, board, player_factory=lambda spec: Slow(), services=[web])
    started = time.monotonic()
    asyncio.run(daemon.run())
    assert stops and stops[0] is True
    assert time.monotonic() - started < 4


def test_run_reports_a_bad_config_or_profile(tmp_path, capsys):
    from navakankari.firmware import cli

    bad = tmp_path / "bad.toml"
    bad.write_text("[tracker]\nsettle = 5\n")
    assert cli.main(["run", "--config", str(bad)]) == 2
    assert "tracker.settle" in capsys.readouterr().err
    missing = tmp_path / "missing-profile.toml"
    missing.write_text('[board]\nprofile = "no-such-profile"\n'
                       f'[store]\npath = "{tmp_path / "g.sqlite3"}"\n')
    assert cli.main(["run", "--config", str(missing)]) == 1
    assert "no-such-profile" in capsys.readouterr().err


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
        snapshots.append(daemon.session.snapshot(daemon.now()))
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
    from navakankari.engine.game import new_game

    return new_game(preset("nine-mens-morris")).legal_actions()[0].text


def test_an_engine_that_answers_illegally_leaves_the_game_as_it_was(tmp_path, caplog):
    with caplog.at_level(logging.ERROR, logger="navakankari.firmware.daemon"):
        daemon, [snapshot] = _engine_daemon(tmp_path, "illegal")
    assert snapshot["actions"] == [] and snapshot["record"] == ""
    assert re.search(r"engine .*/engine: answered \S+, which is illegal here", snapshot["problem"])
    assert "in position " in snapshot["problem"]
    assert snapshot["problem"] in caplog.text
