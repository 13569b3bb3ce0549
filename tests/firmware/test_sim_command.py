"""`navakankari sim` as a person starts it: the game its command line names, a store of its
own per simulated board."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request

from navakankari.firmware.store.database import EXIT_STORE_UNUSABLE
from sim_daemon import on_a_free_port, sim_process, until


def _sim(tmp_path, *flags: str, port: int = 0) -> tuple[subprocess.Popen, int, str]:
    env = {**os.environ, "STATE_DIRECTORY": str(tmp_path)}
    proc, port, line = sim_process("--pin", "2468", *flags, port=port, env=env)
    assert line.startswith("the simulator is at "), line
    return proc, port, line


def _state(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as response:
        return json.loads(response.read().decode())


def test_a_named_game_starts_at_once_and_each_board_keeps_its_own_store(tmp_path):
    named, port, line = _sim(tmp_path, "--variant", "lasker", "--white", "computer:6",
                             "--black", "hand", "--board-name", "Grandma")
    plain = None
    try:
        assert f"games kept in {tmp_path / 'simulator-grandma.sqlite3'}" in line
        state = until("the named game", lambda: _state(port))
        assert state["menu"] is None and state["variant"] == "lasker"
        assert state["players"] == {"white": "computer:6", "black": "hand"}
        # A port of its own (not 0, which the system chooses): its store is named by it.
        plain, other, line = on_a_free_port(lambda port: _sim(tmp_path, port=port))
        assert f"games kept in {tmp_path / f'simulator-{other}.sqlite3'}" in line
        assert until("the menu", lambda: _state(other)["menu"]), "nothing named: the menu"
    finally:
        for proc in (named, plain):
            if proc is not None:
                proc.terminate()
                proc.communicate(timeout=20)


def test_a_store_in_a_folder_that_does_not_exist_is_refused(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "navakankari.firmware.cli", "sim",
                           "--no-browser", "--store", str(tmp_path / "no" / "dir" / "x.sqlite3")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == EXIT_STORE_UNUSABLE
    assert "navakankari sim: cannot use" in proc.stderr and "there is no folder" in proc.stderr
    assert not (tmp_path / "no").exists()


def test_the_simulators_hands_carry_out_the_computers_moves_after_showing_them(tmp_path):
    """The person only plays their own moves: each computer move is lit first (the status
    asks for it), then the simulated hands carry it out."""
    from sim_daemon import sim_daemon
    from test_companion import request

    with sim_daemon(tmp_path, white="hand", black="computer:1", carry_out_after=0.3) as running:
        for ply, point in ((1, "d6"), (3, "b4"), (5, "f2")):
            occupied = running.call(lambda: set(running.daemon.board.simulation.pebbles))
            free = next(p for p in (point, "a1", "g1", "a7", "g7") if p not in occupied)
            assert request(running.url + "/api/hand", {"op": "place", "point": free,
                                                       "colour": "white"})[0] == 200
            running.wait_for_plies(ply)
            # Lit first, for the person to see, and carried out only after that.
            until("the computer's move lit", lambda: running.call(
                lambda: running.daemon.session.status.kind.value == "executing"), 30)
            assert running.call(lambda: len(running.daemon.session.game.history)) == ply
            running.wait_for_plies(ply + 1, within=30)
        game = running.call(lambda: running.daemon.session.game)
        assert len(game.history) == 6
        pebbles = running.call(lambda: dict(running.daemon.board.simulation.pebbles))
        assert sorted(p for p, c in pebbles.items() if c == "black") == sorted(
            game.board.names(game.pieces(1)))

