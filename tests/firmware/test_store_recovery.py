"""A damaged store never stops the board: it is set aside (kept) and a fresh one started; a
path that cannot hold a store is one clear line and an exit status systemd will not retry."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from navakankari.engine.presets import preset
from navakankari.firmware.tools.local_broker import free_port
from navakankari.firmware.store.database import EXIT_STORE_UNUSABLE, Store, StoreUnusableError
from navakankari.firmware.store.recovery import open_store
from navakankari.firmware.system.service import shipped_unit
from sim_daemon import COMMAND, run_process

NINE = preset("nine-mens-morris")


def stored_game(path: Path, actions: tuple[str, ...] = ("d6", "d2", "f4")) -> None:
    store = Store(path)
    game = store.new_game(NINE, {"white": "hand", "black": "hand"})
    store.append(game, 0, actions)
    store.add_events(game, [(0.1 * k, "a7", k % 2 == 0) for k in range(2000)])  # many pages
    store.close()


def garbage_in_the_middle(path: Path) -> None:
    size = path.stat().st_size
    assert size > 6 * 4096
    with open(path, "r+b") as f:
        f.seek(size // 2 // 4096 * 4096)
        f.write(os.urandom(8192))


def edit(path: Path, sql: str, *params: object) -> None:
    con = sqlite3.connect(path)
    con.execute(sql, params)
    con.commit()
    con.close()


DAMAGE = {
    "garbage in the middle": garbage_in_the_middle,
    "emptied": lambda p: p.write_bytes(b""),
    "not a database": lambda p: p.write_bytes(b"this is not SQLite" * 400),
    "rules unreadable": lambda p: edit(p, "UPDATE games SET rules = '{not json'"),
    "players not a table": lambda p: edit(p, "UPDATE games SET players = '[1, 2]'"),
    "an action that does not play": lambda p: edit(p, "UPDATE actions SET text = 'zz9' WHERE ply = 1"),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_store_is_set_aside_and_a_fresh_one_started(tmp_path, damage, caplog):
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    DAMAGE[damage](path)
    before = path.read_bytes()
    store, notice = open_store(path, stamp="20260101T000000")
    kept = tmp_path / "games.sqlite3.damaged-20260101T000000"
    assert kept.read_bytes() == before  # kept exactly as it was
    assert store.last_unfinished() is None and store.games() == []
    store.close()
    assert notice is not None and str(notice).startswith("the previous game could not be resumed")
    assert str(kept) in str(notice) and str(path) in str(notice)
    assert any(r.levelname == "WARNING" and str(kept) in r.getMessage() for r in caplog.records)


def test_a_second_damaged_store_gets_its_own_name(tmp_path):
    path = tmp_path / "games.sqlite3"
    for _ in range(2):
        path.write_bytes(b"junk" * 1000)
        open_store(path, stamp="T")[0].close()
    assert {p.name for p in tmp_path.iterdir() if "damaged" in p.name} == {
        "games.sqlite3.damaged-T", "games.sqlite3.damaged-T-2"}


def test_a_sound_store_opens_with_no_notice(tmp_path):
    path = tmp_path / "games.sqlite3"
    stored_game(path)
    store, notice = open_store(path)
    assert notice is None and store.last_unfinished().actions == ("d6", "d2", "f4")
    store.close()


@pytest.mark.parametrize("where", ["under a file", "a folder", "/proc"])
def test_a_path_that_cannot_hold_a_store_is_one_clear_line(tmp_path, where):
    (tmp_path / "plain").write_text("x")
    (tmp_path / "folder").mkdir()
    path = {"under a file": tmp_path / "plain" / "games.sqlite3",
            "a folder": tmp_path / "folder",
            "/proc": Path("/proc/navakankari/games.sqlite3")}[where]
    with pytest.raises(StoreUnusableError) as info:
        open_store(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and "game store" in message


def test_the_unit_does_not_restart_on_an_unusable_store():
    lines = [ln for ln in shipped_unit().splitlines() if ln.startswith("RestartPreventExitStatus=")]
    assert lines and str(EXIT_STORE_UNUSABLE) in lines[0].split("=", 1)[1].split()


def _serves(port: int, proc: subprocess.Popen, within: float = 15.0) -> dict:
    deadline = time.monotonic() + within
    while True:
        assert proc.poll() is None, "the board ended"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
                return json.loads(r.read())
        except OSError:
            assert time.monotonic() < deadline, "the companion did not serve"
            time.sleep(0.1)


def _command(tmp_path: Path, which: str, store: Path, port: int) -> list[str]:
    if which == "sim":
        return ["sim", "--no-browser", "--variant", "nine-mens-morris", "--port", str(port),
                "--pin", "1234", "--store", str(store)]
    config = tmp_path / "navakankari.toml"
    config.write_text(f'[game]\nvariant = "nine-mens-morris"\n[board]\nprofile = "sim-24"\n'
                      f'[store]\npath = "{store}"\n[web]\nport = {port}\npin = "1234"\n')
    return ["run", "--config", str(config)]


@pytest.mark.parametrize("which", ["sim", "run"])
def test_the_board_serves_on_a_store_with_garbage_in_its_middle(tmp_path, which):
    store = tmp_path / "games.sqlite3"
    stored_game(store)
    garbage_in_the_middle(store)
    env = dict(os.environ, NAVAKANKARI_BACKEND="sim")
    proc, port, log = run_process(lambda port: [*COMMAND, *_command(tmp_path, which, store,
                                                                     port)], env)
    try:
        state = _serves(port, proc)
        assert state["notice"].startswith("the previous game could not be resumed")
        kept = [p for p in tmp_path.iterdir() if p.name.startswith("games.sqlite3.damaged-")]
        assert len(kept) == 1 and store.exists()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.thread.join(10)
    err = "\n".join(log.lines)
    assert "could not be resumed" in err and "Traceback" not in err


@pytest.mark.parametrize("which", ["sim", "run"])
def test_an_unusable_store_path_exits_with_the_status_systemd_knows(tmp_path, which):
    (tmp_path / "plain").write_text("x")
    proc = subprocess.run([sys.executable, "-m", "navakankari.firmware.cli",
                           *_command(tmp_path, which, tmp_path / "plain" / "g.sqlite3",
                                     free_port())],
                          capture_output=True, text=True, timeout=30,
                          env=dict(os.environ, NAVAKANKARI_BACKEND="sim"))
    assert proc.returncode == EXIT_STORE_UNUSABLE
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith(f"navakankari {which}:")]
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert lines[0].endswith("for the game store: " + str(tmp_path / "plain") + " is a file, not a folder")


def test_a_store_that_can_no_longer_be_written_does_not_stop_the_game(tmp_path, caplog):
    from navakankari.engine.game import Side
    from navakankari.firmware.core.clockwork import drive
    from navakankari.firmware.core.players import HAND
    from navakankari.firmware.core.session import Session
    from navakankari.sim.hands import ScriptedHands

    store = Store(tmp_path / "games.sqlite3")
    session = Session(NINE, {Side.WHITE: HAND, Side.BLACK: HAND}, store=store)
    store._db.execute("PRAGMA query_only = ON")  # every write fails from now on
    hands = ScriptedHands(())
    for action in ("d6", "d2", "f4"):
        hands.perform(session.game.board, session.game.parse_action(action))
    drive(session, hands.events, now=0.0)
    assert session.record() == "d6 d2 f4"  # played on, unrecorded
    assert store.failure is not None and "readonly" in str(store.failure)
    assert str(store.path) in str(store.failure)
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "no longer recorded" in errors[0].getMessage()
    store.close()


def test_raw_events_do_not_wait_for_the_disk_and_actions_do(tmp_path: Path) -> None:
    """The loop writes raw events every few seconds; a synced write there (20-100 ms with
    every core busy) made a late light. Actions stay synced, and the events kept anyway."""
    store = Store(tmp_path / "games.sqlite3")
    game = store.new_game(preset("nine-mens-morris"), {"white": "hand", "black": "hand"})
    said: list[str] = []
    store._open.set_trace_callback(said.append)
    synced = store.synced_writes
    store.add_events(game, [(0.1, "a7", True), (0.2, "a7", False)])
    assert store.synced_writes == synced  # what `bench thinking` sorts its ticks by
    store.append(game, 0, ("d6",))
    assert store.synced_writes == synced + 1
    store._open.set_trace_callback(None)
    events_at = next(i for i, s in enumerate(said) if s.startswith("INSERT INTO events"))
    action_at = next(i for i, s in enumerate(said) if "INTO actions" in s)
    syncs = [(i, s) for i, s in enumerate(said) if s.startswith("PRAGMA synchronous")]
    assert [s for i, s in syncs if i < events_at][-1:] == ["PRAGMA synchronous=NORMAL"]
    assert [s for i, s in syncs if i < action_at][-1:] == ["PRAGMA synchronous=FULL"]
    assert store._open.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again
    store.close()
    assert [e.point for e in Store(tmp_path / "games.sqlite3").events(game)] == ["a7", "a7"]
