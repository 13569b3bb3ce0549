"""The tests' boards serve their pages on ports no other program takes first: `sim` on port 0
(the system chooses as it binds; the address printed names it), and a port picked free
started again on a fresh one when another program took it before the child bound it, for
`sim --port` and for `run` (whose port 0 means no page)."""

from __future__ import annotations

import json
import os
import socket
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sim_daemon
from navakankari.firmware.tools import local_broker
from sim_daemon import COMMAND, on_a_free_port, run_process, sim_process, until


def _state(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as response:
        return json.loads(response.read().decode())


@contextmanager
def _taken_first(monkeypatch) -> Iterator[int]:  # type: ignore[no-untyped-def]
    """A port another program listens on, which the next port picked free will be."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        picks = iter([busy])
        monkeypatch.setattr(sim_daemon, "free_port",
                            lambda: next(picks, None) or local_broker.free_port())
        yield busy


def _serves(started: tuple) -> str:  # type: ignore[type-arg]
    """The line a started `sim` printed, once its page answers on the port it names; the
    process is ended."""
    proc, port, line = started
    try:
        assert port != 0 and f"http://127.0.0.1:{port}/#pin=2468" in line
        assert until("the page", lambda: _state(port))["menu"]
        return str(line)
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_sim_on_port_0_serves_where_the_address_it_prints_says(tmp_path):
    _serves(sim_process("--pin", "2468", "--store", str(tmp_path / "s.sqlite3")))


def test_sim_on_a_picked_port_another_program_took_first_starts_on_a_fresh_one(
        tmp_path, monkeypatch):
    with _taken_first(monkeypatch) as busy:
        with pytest.raises(local_broker.PortTakenError, match="in use"):
            sim_process("--store", str(tmp_path / "s.sqlite3"), port=busy)
        line = _serves(on_a_free_port(lambda port: sim_process(
            "--pin", "2468", "--store", str(tmp_path / "s.sqlite3"), port=port)))
        assert f":{busy}/" not in line


def test_run_on_a_picked_port_another_program_took_first_starts_on_a_fresh_one(
        tmp_path, monkeypatch):
    tried: list[int] = []

    def command(port: int) -> list[str]:
        tried.append(port)
        config = tmp_path / f"navakankari-{port}.toml"
        config.write_text(f'[board]\nprofile = "sim-24"\n[store]\npath = '
                          f'"{tmp_path / f"games-{port}.sqlite3"}"\n[web]\nport = {port}\n'
                          'pin = "1234"\n')
        return [*COMMAND, "run", "--config", str(config)]

    with _taken_first(monkeypatch) as busy:
        proc, port, log = run_process(command, dict(os.environ, NAVAKANKARI_BACKEND="sim"))
        try:
            assert tried == [busy, port] and port != busy
            assert until("the page", lambda: _state(port))["menu"] is not None
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    assert not any("cannot serve the web companion" in ln for ln in log.lines)
