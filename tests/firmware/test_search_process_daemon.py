"""The daemon's computer searches in a child process: killed, it shows the problem and a
fresh child plays on; the daemon's stop (SIGTERM, Ctrl-C, a kill) leaves no child behind."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from navakankari.engine.search_process import SearchProcessPlayer
from navakankari.firmware.companion.backend import DaemonBackend
from navakankari.firmware.tools.power_cut_bench import LogLines, spawn_run
from navakankari.firmware.tools.power_cut_bench import _config as run_config
from navakankari.firmware.core.players import PlayerSpec, player_for
from navakankari.firmware.daemon.config import Config
from navakankari.firmware.daemon.loop import Daemon
from navakankari.hal import load_profile, open_board
from navakankari.sim.clock import ManualClock
from virtual_time import run_virtual

FAST = dict(tracker_settle=0.05, tracker_grow=0.1, tracker_grace=0.3)
#: A child that takes the request and never answers: a search that runs until it is killed.
HANGS = [sys.executable, "-c",
         "import sys; print('ready', flush=True); sys.stdin.readline(); sys.stdin.read()"]


def _config(tmp_path: Path, white: str) -> Config:
    return Config(game_variant="nine-mens-morris", game_white=PlayerSpec.parse(white),
                  game_black=PlayerSpec("hand"), board_profile="sim-24",
                  store_path=str(tmp_path / "games.sqlite3"), game_menu=False, **FAST)


async def _until(done, within: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    """Until `done()`; fails after `within` real seconds. The daemon runs on virtual time,
    the child process on real time: the bound is real."""
    end = time.monotonic() + within
    while not done():
        assert time.monotonic() < end, "not done in time"
        await asyncio.sleep(0.02)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/stat").exists() and \
        Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"


def test_player_for_a_computer_searches_in_a_child_process():
    player = player_for(PlayerSpec("computer", 2))
    assert isinstance(player, SearchProcessPlayer) and player.name == "computer:2"
    assert player.pid is None  # started on the first request


def test_a_killed_search_shows_the_problem_the_hands_play_on_and_a_fresh_process_after(
        tmp_path):
    """The search process dies: the problem is shown and the hands play the computer's turn
    (nothing of the game is lost); its next turn goes to a fresh process."""
    players: list[SearchProcessPlayer] = []

    def factory(spec: PlayerSpec) -> SearchProcessPlayer:
        players.append(SearchProcessPlayer(spec.level, argv=HANGS))
        return players[-1]

    seen: dict[str, object] = {}

    async def scenario(daemon: Daemon) -> None:
        session, sim = daemon.session, daemon.board.simulation
        await _until(lambda: players and players[0].pid is not None)
        seen["first"] = pid = players[0].pid
        os.kill(pid, signal.SIGKILL)
        await _until(lambda: session.problem is not None)
        seen["problem"] = session.problem
        seen["status"] = session.status.kind.value
        seen["snapshot"] = DaemonBackend(daemon).snapshot()["problem"]
        players[0].argv = SearchProcessPlayer(1).argv  # the next child searches for real
        sim.place("d6")  # the hands play white's turn for the computer
        await _until(lambda: [a.text for a in session.game.history] == ["d6"])
        seen["after"] = session.problem
        sim.place("d2")  # black, a hand side
        daemon.wake()
        await _until(lambda: session.status.kind.value == "executing")
        seen["second"] = players[0].pid
        seen["forced"] = session.status.forced
        daemon.stop()

    clock = ManualClock()
    board = open_board(load_profile("sim-24"), backend="sim", clock=clock)
    daemon = Daemon(_config(tmp_path, "computer:1"), board, player_factory=factory,
                    services=[scenario], clock=clock)
    run_virtual(daemon.run(), clock, stores=[daemon.store])
    assert "computer:1: the search process failed" in seen["problem"]
    assert "exit code -9" in seen["problem"]
    assert seen["snapshot"] == seen["problem"]  # the web page shows it too
    assert seen["status"] == "idle"  # the hands are asked for white's turn
    assert seen["after"] is None  # played: the problem is gone with the turn
    assert seen["second"] not in (None, seen["first"]) and len(players) == 1
    assert len(seen["forced"]) == 1
    assert players[0].pid is None  # ended on shutdown
    assert _gone(seen["second"])


#: A child that answers a request only when told to stop it, and notes every line it reads.
WAITS_FOR_STOP = r"""
import sys
print("ready", flush=True)
log = open(sys.argv[1], "a")
for line in sys.stdin:
    word, ident = line.split()[:2]
    log.write(word + " " + ident + "\n")
    log.flush()
    if word == "stop":
        print("bestmove " + ident + " d6", flush=True)
"""


def test_a_new_game_stops_the_search_in_progress_and_the_child_serves_the_next(tmp_path):
    notes = tmp_path / "lines"
    notes.touch()
    players: list[SearchProcessPlayer] = []

    def factory(spec: PlayerSpec) -> SearchProcessPlayer:
        players.append(SearchProcessPlayer(
            spec.level, argv=[sys.executable, "-c", WAITS_FOR_STOP, str(notes)]))
        return players[-1]

    pids: list[int] = []

    async def new_game_while_thinking(daemon: Daemon) -> None:
        await _until(lambda: "go 1" in notes.read_text())
        pids.append(players[0].pid)
        daemon.session.new_game(daemon.now())
        daemon.wake()
        await _until(lambda: "go 2" in notes.read_text())
        pids.append(players[0].pid)
        daemon.stop()

    clock = ManualClock()
    board = open_board(load_profile("sim-24"), backend="sim", clock=clock)
    daemon = Daemon(_config(tmp_path, "computer:6"), board, player_factory=factory,
                    services=[new_game_while_thinking], clock=clock)
    run_virtual(daemon.run(), clock, stores=[daemon.store])
    # The first search was told to stop, answered, and the same child took the next one.
    assert notes.read_text().splitlines()[:3] == ["go 1", "stop 1", "go 2"]
    assert pids[0] == pids[1] and len(players) == 1
    # The new game is still at its first turn (stopping the daemon may stop the second
    # search too, whose answer is then shown for the hands: no action is played).
    assert daemon.session.game.history == []


def test_a_pebble_moved_while_the_computer_thinks_does_not_stop_its_search(tmp_path):
    """The board nudged and put right: the search runs on; the game moving on stops it."""
    notes = tmp_path / "lines"
    notes.touch()

    def factory(spec: PlayerSpec) -> SearchProcessPlayer:
        return SearchProcessPlayer(spec.level,
                                   argv=[sys.executable, "-c", WAITS_FOR_STOP, str(notes)])

    seen: list[str] = []

    async def nudge(daemon: Daemon) -> None:
        session, sim = daemon.session, daemon.board.simulation
        await _until(lambda: "go 1" in notes.read_text())
        sim.place("d6")  # white (the computer) to move on an empty board: a stray pebble
        await _until(lambda: session.status.kind.value != "thinking")
        seen.append(session.status.kind.value)
        sim.lift("d6")
        await _until(lambda: session.status.kind.value == "thinking")
        seen.append(notes.read_text())
        session.takeback(daemon.now())  # nothing to take back: the game stays, the search runs
        session.new_game(daemon.now())  # the game moves on: the search is stopped
        daemon.wake()
        await _until(lambda: "go 2" in notes.read_text())
        daemon.stop()

    clock = ManualClock()
    board = open_board(load_profile("sim-24"), backend="sim", clock=clock)
    daemon = Daemon(_config(tmp_path, "computer:6"), board, player_factory=factory,
                    services=[nudge], clock=clock)
    run_virtual(daemon.run(), clock, stores=[daemon.store])
    assert seen[0] in ("in-progress", "mismatch")
    assert seen[1] == "go 1\n"  # no stop while the board was put right
    assert notes.read_text().splitlines()[:3] == ["go 1", "stop 1", "go 2"]


def test_a_request_is_due_until_the_game_moves_on():
    from navakankari.engine.game import Side
    from navakankari.engine.presets import preset
    from navakankari.firmware.core.session import Session

    session = Session(preset("nine-mens-morris"),
                      {Side.WHITE: PlayerSpec("computer", 1), Side.BLACK: PlayerSpec("hand")},
                      occupied=(), now=0.0, auto_new_game=False, resume=False)
    request = session.answers.computer_request()
    assert request is not None and session.answers.still_due(request)
    session.new_game(0.0)
    assert not session.answers.still_due(request)
    assert session.answers.still_due(session.answers.computer_request())


def test_the_daemons_stop_ends_a_search_in_progress(tmp_path):
    players: list[SearchProcessPlayer] = []

    def factory(spec: PlayerSpec) -> SearchProcessPlayer:
        players.append(SearchProcessPlayer(spec.level))
        return players[-1]

    pids: list[int] = []

    async def stop_while_thinking(daemon: Daemon) -> None:
        await _until(lambda: players and players[0].pid is not None)
        pids.append(players[0].pid)
        daemon.stop()

    clock = ManualClock()
    board = open_board(load_profile("sim-24"), backend="sim", clock=clock)
    daemon = Daemon(_config(tmp_path, "computer:6"), board, player_factory=factory,
                    services=[stop_while_thinking], clock=clock)
    run_virtual(daemon.run(), clock, stores=[daemon.store])
    assert pids and _gone(pids[0])


def _children(pid: int) -> list[int]:
    """Children of any of the process's threads (the executor's thread starts the search)."""
    found: list[int] = []
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(p) for p in path.read_text().split()]
        except OSError:  # the thread ended meanwhile
            pass
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_no_search_process_outlives_the_daemon(tmp_path, how):
    config = run_config(tmp_path, tmp_path / "g.sqlite3", white="computer:6")
    lines = LogLines(spawn_run(config))
    proc = lines.proc
    try:
        assert lines.wait_for(r"\bready\b", 60), lines.lines
        end = time.monotonic() + 20
        while not (children := _children(proc.pid)) and time.monotonic() < end:
            time.sleep(0.02)
        assert children, "no search process started"
        proc.send_signal(how)
        proc.wait(20)
        end = time.monotonic() + 20  # after a kill the child sees its input end, and leaves
        while not all(_gone(c) for c in children) and time.monotonic() < end:
            time.sleep(0.02)
        assert all(_gone(c) for c in children)
        if how != signal.SIGKILL:
            assert proc.returncode == 0, lines.lines
            assert not any("Traceback" in ln for ln in lines.lines), lines.lines
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_bench_thinking_times_the_frames_of_a_game_against_the_computer():
    from navakankari.firmware.tools.thinking_bench import measure

    figures = measure(6.0)  # real time: the hand's first moves and a computer turn, loaded or not
    assert figures.turns >= 1
    assert figures.commits and (figures.idle or figures.thinking)
    # Only what does not depend on the machine's load: a synced write took 3.5 s on a busy disk.
    assert all(0 <= s < float("inf") for s in figures.idle + figures.thinking + figures.commits)


def test_bench_thinkings_busy_processes_end_by_themselves():
    """`bench thinking --busy` keeps every core busy with processes bounded in time, so none
    outlives the benchmark even if it is killed."""
    from navakankari.firmware.tools.thinking_bench import busy_processes

    hogs = busy_processes(2, 0.0)
    assert [h.wait(timeout=30) for h in hogs] == [0, 0]


def test_bench_thinkings_floor_process_reports_each_wake_and_ends_by_itself():
    """The machine's floor (a process that only sleeps) is a bounded process whose figures
    come back as seconds late, one a wake."""
    from navakankari.firmware.tools.thinking_bench import floor_figures, timer_floor

    late = floor_figures(timer_floor(0.05, realtime=False))
    assert late and all(isinstance(x, float) and x > -1e-6 for x in late)
