"""Two `navakankari sim` processes, as two laptops would run them, play through the broker:
invited and joined over HTTP, each board's moves carried out by the other's simulated hands
through `/api/hand`; both stores end with the same actions."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import urllib.request

from sim_daemon import free_port, until

PIN = "1357"
WAIT = 20.0


class Sim:
    def __init__(self, tmp_path, broker_url: str, name: str) -> None:
        self.port = free_port()
        self.store = tmp_path / f"{name}.sqlite3"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "navakankari.firmware.cli", "sim", "--no-browser",
             "--variant", "nine-mens-morris", "--white", "hand", "--black", "hand",
             "--port", str(self.port), "--pin", PIN, "--store", str(self.store),
             "--broker", broker_url, "--board-name", name],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().startswith("the simulator is at ")

    def api(self, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=None if body is None else json.dumps(body).encode(),
            method="GET" if body is None else "POST",
            headers={"Content-Type": "application/json", "X-Pin": PIN})
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return json.loads(response.read().decode())

    def stop(self) -> str:
        self.proc.terminate()
        return self.proc.communicate(timeout=15)[1]


def place(sim: Sim, point: str, colour: str) -> None:
    sim.api("/api/hand", {"op": "place", "point": point, "colour": colour})


def test_two_simulator_processes_play_through_the_broker(broker, tmp_path):
    grandma = Sim(tmp_path, broker.url("grandma"), "Grandma")
    ravi = Sim(tmp_path, broker.url("ravi"), "Ravi")
    try:
        code = grandma.api("/api/online/invite", {"variant": "nine-mens-morris",
                                                  "side": "white", "starts": "white"})["code"]
        ravi.api("/api/online/join", {"code": code})
        until("both boards in the game", lambda: all(
            (s.api("/api/state").get("online") or {}).get("opponent") for s in (grandma, ravi)))
        rng = random.Random(4)
        free = [p["name"] for p in grandma.api("/api/state")["board"]["points"]]
        rng.shuffle(free)
        boards = {"white": grandma, "black": ravi}
        for ply in range(6):  # placements only: neither side closes a mill in 6 plies here
            side = "white" if ply % 2 == 0 else "black"
            here, there = boards[side], boards["black" if side == "white" else "white"]
            state = there.api("/api/state")
            point = next(p for p in free if p not in state["pebbles"])
            place(here, point, side)
            until("the move committed", lambda: len(here.api("/api/state")["actions"]) > ply)
            # lit on the other board as a move for its hands: they carry it out
            until("the move shown there", lambda: point in json.dumps(
                there.api("/api/state")["status"]))
            place(there, point, side)
            until("carried out there", lambda: len(there.api("/api/state")["actions"]) > ply)
        moves = [s.api("/api/state")["actions"] for s in (grandma, ravi)]
        assert moves[0] == moves[1] and len(moves[0]) == 6
    finally:
        errs = [s.stop() for s in (grandma, ravi)]
    for store in (grandma.store, ravi.store):
        with sqlite3.connect(store) as db:
            count = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        assert count == 6
    assert all("knitting" not in e and "cricket" not in e for e in errs)  # passwords never logged
