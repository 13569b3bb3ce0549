"""`navakankari sim` as a person starts it: the game its command line names, a store of its
own per simulated board."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request

from sim_daemon import free_port, until


def _sim(tmp_path, *flags: str) -> tuple[subprocess.Popen, int, str]:
    port = free_port()
    env = {**os.environ, "STATE_DIRECTORY": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "navakankari.firmware.cli", "sim",
                             "--no-browser", "--port", str(port), "--pin", "2468", *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("the simulator is at "), proc.stderr.read() if not line else line
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
        plain, other, line = _sim(tmp_path)
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
    assert proc.returncode == 2
    assert "--store:" in proc.stderr and "there is no folder" in proc.stderr
    assert not (tmp_path / "no").exists()
