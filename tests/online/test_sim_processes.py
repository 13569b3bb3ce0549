"""Two `navakankari sim` processes, as two laptops would run them, play a whole game through
the broker: invited and joined over HTTP, each board's moves made and carried out by noisy
simulated hands through `/api/hand`; both stores end with the same actions and outcome."""

from __future__ import annotations

import json
import random
import sqlite3
import urllib.request

from navakankari.engine.variants import new_game
from sim_daemon import carry_out, quick_choice, sim_process, until

PIN = "1357"
WAIT = 20.0


class Sim:
    def __init__(self, tmp_path, broker_url: str, name: str) -> None:
        self.store = tmp_path / f"{name}.sqlite3"
        self.proc, self.port, line = sim_process(
            "--variant", "nine-mens-morris", "--white", "hand", "--black", "hand",
            "--pin", PIN, "--store", str(self.store), "--broker", broker_url,
            "--board-name", name,
            "--carry-out", "0")  # the test's hands carry out the other board's moves
        assert line.startswith("the simulator is at ")

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


def test_two_simulator_processes_play_a_whole_game_through_the_broker(broker, tmp_path):
    grandma = Sim(tmp_path, broker.url("grandma"), "Grandma")
    ravi = Sim(tmp_path, broker.url("ravi"), "Ravi")
    try:
        code = grandma.api("/api/online/invite", {"variant": "six-mens-morris",
                                                  "side": "white", "starts": "white"})["code"]
        ravi.api("/api/online/join", {"code": code})
        until("both boards in the game", lambda: all(
            (s.api("/api/state").get("online") or {}).get("opponent") for s in (grandma, ravi)))
        boards = {s.api("/api/state")["online"]["side"]: s for s in (grandma, ravi)}
        # The board waiting for the other speaks of it by its name, never of a computer.
        waiting = until("the other board's turn", lambda: (lambda st: st if st["status"][
            "kind"] == "thinking" else None)(boards["black"].api("/api/state")))
        assert waiting["status"]["text"] == f"{waiting['online']['opponent']} (white) is to play"
        assert waiting["online"]["opponent"] in ("Grandma", "Ravi")
        game = new_game("six-mens-morris")
        rng = random.Random(4)
        while game.outcome() is None:
            action = quick_choice(game, rng)
            side = str(game.turn)
            game.play(action)
            n = len(game.history)
            here, there = boards[side], boards["black" if side == "white" else "white"]
            carry_out(lambda body: here.api("/api/hand", body), action, side, chatter=2)
            until(f"{action} committed", lambda: len(here.api("/api/state")["actions"]) >= n)
            # lit on the other board as a move for its hands: they carry it out
            until(f"{action} received there",
                  lambda: there.api("/api/state")["online"]["sequence"] >= n)
            carry_out(lambda body: there.api("/api/hand", body), action, side, chatter=1)
            until(f"{action} carried out there",
                  lambda: len(there.api("/api/state")["actions"]) >= n)
        states = [s.api("/api/state") for s in (grandma, ravi)]
        played = [a.text for a in game.history]
        assert states[0]["actions"] == states[1]["actions"] == played
        assert states[0]["outcome"] == states[1]["outcome"] is not None
    finally:
        errs = [s.stop() for s in (grandma, ravi)]
    for store in (grandma.store, ravi.store):
        with sqlite3.connect(store) as db:
            stored = [r[0] for r in db.execute("SELECT text FROM actions ORDER BY game, ply")]
        assert stored == played
    assert all("knitting" not in e and "cricket" not in e for e in errs)  # passwords never logged
