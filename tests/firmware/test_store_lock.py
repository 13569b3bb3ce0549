"""One board writes a store: the writer holds a lock beside it, a second writer is refused at
start with the file and the other process named, a killed writer leaves no lock behind, and
readers (`navakankari record`) read while the board runs."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys

import pytest
from navakankari.engine.presets import preset
from navakankari.firmware.cli import sim
from navakankari.firmware.cli.main import main
from navakankari.firmware.i18n.catalogs import translations
from navakankari.firmware.store.database import (Store, StoreInUseError, StoreUnusableError,
                                                 hold_store)
from navakankari.firmware.store.recovery import open_store
from navakankari.firmware.store.writer_lock import PID_BYTES, WriterLock, lock_file
from navakankari.firmware.tools.power_cut_bench import LogLines, spawn_run
from sim_daemon import COMMAND, api, sim_daemon, sim_process
from test_daemon import _write_config

NINE = preset("nine-mens-morris")
PLAYERS = {"white": "hand", "black": "hand"}

HOLDER = """
import sys
from navakankari.engine.presets import preset
from navakankari.firmware.store.database import Store
store = Store(sys.argv[1])
store.write_behind()
store.new_game(preset("nine-mens-morris"), {"white": "hand", "black": "hand"})
store.games()  # once written
print("holding", flush=True)
sys.stdin.read()
"""
"""A board's store in a process of its own: it writes, says so, and waits to be killed."""


def _in_use(path, pid: int) -> str:
    return (f"the game store {path} is in use by another board (process {pid}): stop that one "
            "first, or give this board a store of its own")


def test_a_second_writer_on_one_file_is_refused_and_the_first_writes_on(tmp_path):
    path = tmp_path / "games.sqlite3"
    first = Store(path)
    first.write_behind()
    second = Store(path)
    try:
        with pytest.raises(StoreInUseError) as refused:
            second.write_behind()
        assert str(refused.value) == _in_use(path, os.getpid())
        assert second.lock is None
        game = first.new_game(NINE, PLAYERS)
        first.append(game, 0, ["d2"])
        assert first.load(game).actions == ("d2",)
        # A reader sees what the writer wrote, the writer's lock held all along.
        assert [g.actions for g in second.games()] == [("d2",)]
        assert first.lock is not None and first.lock.held
    finally:
        first.close()
    assert first.lock is not None and not first.lock.held
    second.write_behind()  # the first closed: the next writer starts
    assert second.new_game(NINE, PLAYERS) == game + 1
    second.close()


def test_the_lock_is_beside_the_store_and_never_the_database_file(tmp_path):
    path = tmp_path / "games.sqlite3"
    lock = hold_store(path)
    try:
        assert lock.path == lock_file(path) == tmp_path / "games.sqlite3.lock"
        assert lock.path.read_text() == f"{os.getpid()}\n"
        assert not path.exists()  # the lock does not make (or open) the store
    finally:
        lock.release()
    lock.release()  # twice is safe
    assert lock.path.exists() and lock.path.read_text() == ""  # no pid left to name wrongly


@pytest.mark.parametrize("content", [b"", b"not a pid\n", b"-4\n", b"0\n", b"9" * 5000,
                                     b"\xff\xfe\x00"])
def test_a_lock_file_that_names_no_process_is_refused_without_a_pid(tmp_path, content):
    path = tmp_path / "games.sqlite3"
    held = hold_store(path)
    try:
        fd = os.open(lock_file(path), os.O_WRONLY)
        os.ftruncate(fd, 0)
        os.write(fd, content)
        os.close(fd)
        with pytest.raises(StoreInUseError) as refused:
            hold_store(path)
        assert str(refused.value) == (
            f"the game store {path} is in use by another board: stop that one first, or give "
            "this board a store of its own")
    finally:
        held.release()
    assert len(b"4294967295\n") < PID_BYTES


def test_a_lock_file_that_cannot_be_made_is_named(tmp_path):
    path = tmp_path / "games.sqlite3"
    lock_file(path).mkdir()  # in the way: a folder where the lock file goes
    with pytest.raises(StoreUnusableError) as refused:
        hold_store(path)
    assert str(refused.value).startswith(f"cannot use {path} for the game store: cannot make "
                                         f"its lock file {lock_file(path)}: ")


def test_a_killed_writer_leaves_no_lock_behind(tmp_path):
    path = tmp_path / "games.sqlite3"
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "holding\n"
        with pytest.raises(StoreInUseError) as refused:
            hold_store(path)
        assert str(refused.value) == _in_use(path, child.pid)
        # A reader reads while the other process writes.
        reader = Store(path)
        assert [g.id for g in reader.games()] == [1]
        reader.close()
    finally:
        child.send_signal(signal.SIGKILL)  # as a power cut or the OOM killer ends a board
        child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    assert lock_file(path).read_text() == f"{child.pid}\n"  # what it wrote stays, unheld
    store = Store(path)
    store.write_behind()
    assert store.new_game(NINE, PLAYERS) == 2  # the next id: the killed board's game is kept
    assert lock_file(path).read_text() == f"{os.getpid()}\n"
    store.close()


def test_a_damaged_store_is_set_aside_under_the_writers_lock(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    lock = hold_store(path)
    store, notice = open_store(path, lock=lock, stamp="20260101T000000")
    try:
        assert notice is not None and (tmp_path / "games.sqlite3.damaged-20260101T000000").exists()
        assert store.lock is lock and lock.held
        with pytest.raises(StoreInUseError):
            hold_store(path)
        store.write_behind()  # the lock it holds already: no second one taken
        assert store.lock is lock
    finally:
        store.close()
    assert not lock.held


def test_record_and_replay_read_the_store_while_its_board_writes(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    board = Store(path)
    board.write_behind()
    try:
        game = board.new_game(NINE, PLAYERS)
        board.append(game, 0, ["d2", "a1"], events=[(0.5, "d2", True), (1.5, "a1", True)])
        board.load(game)  # the writes done
        assert main(["record", "--store", str(path)]) == 0
        assert "1. d2 a1" in capsys.readouterr().out
        assert main(["replay", "--export", str(path)]) == 0
        assert [json.loads(line)["point"] for line in capsys.readouterr().out.splitlines()
                if not line.startswith("#")] == ["d2", "a1"]
        assert board.lock is not None and board.lock.held
    finally:
        board.close()


def _second_sim(path, *flags: str) -> list[str]:
    """`sim` started on `path`'s store: its exit status 1, and the lines it said."""
    proc = subprocess.run([*COMMAND, "sim", "--no-browser", "--port", "0", "--store",
                           str(path), *flags], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    return [ln for ln in proc.stderr.splitlines() if ln.startswith("navakankari sim:")]


def test_sim_refuses_a_second_board_on_a_store_another_board_writes(tmp_path):
    with sim_daemon(tmp_path) as running:
        path = running.daemon.config.store_file()
        assert _second_sim(path) == [f"navakankari sim: {_in_use(path, os.getpid())}"]
        # In the player's language: the same refusal from the catalog.
        hindi = translations("hi").gettext(
            "the game store {file} is in use by another board (process {pid}): stop that "
            "one first, or give this board a store of its own")
        said = _second_sim(path, "--language", "hi")
        assert said == [f"navakankari sim: {hindi.format(file=path, pid=os.getpid())}"]
        assert "दूसरा बोर्ड" in said[0] and "in use" not in said[0]
        # The running board is untouched: it still holds its store and serves.
        assert running.call(lambda: running.daemon.store.lock.held)
        assert api(running, "/api/state")["variant"] == "nine-mens-morris"
    # Stopped, it let the store go.
    hold_store(path).release()


def test_run_refuses_a_second_board_and_starts_once_the_first_is_killed(tmp_path):
    config = _write_config(tmp_path)
    path = tmp_path / "games.sqlite3"
    first = spawn_run(config)
    log = LogLines(first)
    try:
        assert log.wait_for(r"\bready\b"), "\n".join(log.lines)
        second = spawn_run(config)
        err = second.communicate(timeout=120)[1]
        assert second.returncode == 1 and "Traceback" not in err, err
        said = [ln for ln in err.splitlines() if ln.startswith("navakankari run:")]
        assert said == [f"navakankari run: {_in_use(path, first.pid)}"]
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(30)
        log.thread.join(10)
    again = spawn_run(config)  # the killed board left no lock behind
    log = LogLines(again)
    try:
        assert log.wait_for(r"\bready\b"), "\n".join(log.lines)
        assert lock_file(path).read_text() == f"{again.pid}\n"
    finally:
        again.send_signal(signal.SIGTERM)
        assert again.wait(30) == 0
        log.thread.join(10)
    assert lock_file(path).read_text() == ""  # stopped: released


def _args(tmp_path, **given: object) -> argparse.Namespace:
    return argparse.Namespace(**{"store": None, "board_name": None, "port": 0, **given})


def test_sims_on_port_0_each_take_the_first_store_no_board_writes(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    first, first_lock = sim._sim_store(_args(tmp_path))
    second, second_lock = sim._sim_store(_args(tmp_path))
    try:
        assert first == str(tmp_path / "simulator-0.sqlite3")
        assert second == str(tmp_path / "simulator-0-2.sqlite3")
        monkeypatch.setattr(sim, "ANY_PORT_STORES", 2)
        with pytest.raises(StoreInUseError):  # all held: the last one's refusal
            sim._sim_store(_args(tmp_path))
    finally:
        for lock in (first_lock, second_lock):
            assert isinstance(lock, WriterLock)
            lock.release()
    # The first free again: a simulator started alone resumes simulator-0's game.
    again, lock = sim._sim_store(_args(tmp_path))
    assert again == first and lock is not None
    lock.release()
    # A board name or a given port names the store; the daemon takes its lock.
    assert sim._sim_store(_args(tmp_path, board_name="Grandma")) == (
        str(tmp_path / "simulator-grandma.sqlite3"), None)
    assert sim._sim_store(_args(tmp_path, port=8123)) == (
        str(tmp_path / "simulator-8123.sqlite3"), None)


def test_two_sims_on_port_0_run_at_once_on_stores_of_their_own(tmp_path):
    env = {**os.environ, "STATE_DIRECTORY": str(tmp_path)}
    running = []
    try:
        for expected in ("simulator-0.sqlite3", "simulator-0-2.sqlite3"):
            proc, port, line = sim_process("--pin", "2468", env=env)
            running.append(proc)
            assert f"games kept in {tmp_path / expected}" in line, line
        assert lock_file(tmp_path / "simulator-0.sqlite3").read_text() == f"{running[0].pid}\n"
        assert lock_file(tmp_path / "simulator-0-2.sqlite3").read_text() == \
            f"{running[1].pid}\n"
    finally:
        for proc in running:
            proc.terminate()
            proc.communicate(timeout=30)
