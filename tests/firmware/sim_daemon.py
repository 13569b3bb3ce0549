"""A daemon on the simulated board with its web companion, running in a thread (tests), and
`navakankari sim` and `run` in processes of their own, each serving its page on a port no
other program can take first: port 0 where the command takes it, else a port picked free and
a fresh one when another program took it before the child bound it (the broker's retry)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from navakankari.firmware.tools.local_broker import PortTakenError, free_port, on_fresh_ports
from navakankari.firmware.tools.power_cut_bench import LogLines
from navakankari.firmware.companion.backend import companion_service
from navakankari.firmware.core.players import PlayerSpec
from navakankari.firmware.daemon.config import Config
from navakankari.firmware.daemon import simhands
from navakankari.firmware.daemon.loop import Daemon
from navakankari.firmware.daemon.online_service import online_service
from navakankari.firmware.daemon.speech_service import speech_service
from navakankari.firmware.daemon.voice import Voice
from navakankari.hal import load_profile, open_board

PIN = "2468"

__all__ = ["COMMAND", "PIN", "RunningDaemon", "api", "carry_out", "free_port", "linked", "on_a_free_port",
           "online", "quick_choice", "run_process", "sim_daemon", "sim_process", "until"]

T = TypeVar("T")
COMMAND = [sys.executable, "-m", "navakankari.firmware.cli"]
SERVED = re.compile(r"http://[^/\s]+:(\d+)/")
"""The page's address in the line `sim` prints once it serves, in any language."""


def on_a_free_port(start: Callable[[int], T]) -> T:
    """`start(port)` on a port picked free; when another program took it before the child
    bound it (`start` raises PortTakenError), again on a fresh one."""
    port = [free_port()]
    return on_fresh_ports(lambda: start(port[0]), lambda: port.__setitem__(0, free_port()))


def sim_process(*flags: str, port: int = 0, env: dict[str, str] | None = None,
                stderr: int = subprocess.PIPE) -> tuple[subprocess.Popen, int, str]:
    """`navakankari sim --no-browser FLAGS` in its own process, serving on `port` (0: one
    the system chooses as it binds, so no other program can take it first): the process,
    the port its page is on, and the line it printed once serving. A given port another
    program took is PortTakenError (`on_a_free_port` starts it again)."""
    proc = subprocess.Popen([*COMMAND, "sim", "--no-browser", "--port", str(port), *flags],
                            stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    served = SERVED.search(line)
    if served is None:
        proc.kill()
        err = proc.communicate(timeout=30)[1] or ""
        if "cannot serve the web companion" in err and "in use" in err:
            raise PortTakenError(err.strip())
        raise AssertionError(line or err)
    return proc, int(served[1]), line


def run_process(command: Callable[[int], list[str]], env: dict[str, str]
                ) -> tuple[subprocess.Popen, int, LogLines]:
    """The command line `command(port)` gives (`navakankari run`, whose port 0 means no
    page, as COMMAND starts it or under a sandbox) in its own process, until its log says
    its page serves on that port (a port picked free; a fresh one when another program took
    it first): the process, the port, and its log as it comes."""

    def start(port: int) -> tuple[subprocess.Popen, int, LogLines]:
        proc = subprocess.Popen(command(port), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, env=env)
        log = LogLines(proc)
        # Serving at all is the point; the bound only tells a hang apart, at any load.
        said = log.wait_for("web companion on|cannot serve the web companion", timeout=60)
        if said and any("cannot serve the web companion" in ln and "in use" in ln
                        for ln in log.lines):
            proc.kill()
            proc.wait(timeout=30)
            raise PortTakenError("\n".join(log.lines))
        assert said, "\n".join(log.lines)
        return proc, port, log

    return on_a_free_port(start)


def api(running: "RunningDaemon", path: str, body: dict | None = None,
        timeout: float = 20.0) -> dict:
    """A request to a running daemon's page, as the page (or a script) makes it, with its
    PIN: GET without a body, POST with one; the JSON answer ({} for none)."""
    request = urllib.request.Request(
        f"{running.url}{path}", data=None if body is None else json.dumps(body).encode(),
        method="GET" if body is None else "POST",
        headers={"Content-Type": "application/json", "X-Pin": running.pin})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read().decode() or "{}")


def online(running: "RunningDaemon") -> dict:
    """The `online` part of a running daemon's page state ({} with nothing online)."""
    return api(running, "/api/state")["online"] or {}


def linked(a: "RunningDaemon", b: "RunningDaemon") -> str:
    """`a` invites (white, nine men's morris, white first) and `b` joins, through the broker
    both were started with, until each knows the other and sees it online: the game's code."""
    code = api(a, "/api/online/invite", {"variant": "nine-mens-morris", "side": "white",
                                          "starts": "white"})["code"]
    api(b, "/api/online/join", {"code": code})
    until("both linked", lambda: all(online(r).get("opponent") and online(r).get("opponent_online")
                                     for r in (a, b)))
    return str(code)


def carry_out(hand: Callable[[dict], object], action: str, colour: str,
              chatter: int = 0) -> None:
    """A simulated board's hands do `action` of `colour`'s pebbles through `/api/hand`
    (`hand` posts one request), each sensor bouncing `chatter` times."""
    if action.startswith("x"):
        hand({"op": "lift", "point": action[1:], "chatter": chatter})
        hand({"op": "drop"})
    elif "-" in action:
        start, end = action.split("-")
        hand({"op": "lift", "point": start, "chatter": chatter})
        hand({"op": "put", "point": end, "chatter": chatter})
    else:
        hand({"op": "place", "point": action, "colour": colour, "chatter": chatter})


def quick_choice(game, rnd: random.Random) -> str:  # type: ignore[no-untyped-def]
    """An action for a short whole game: one that closes a mill when there is one (and so
    takes), else one at random."""
    actions = [a.text for a in game.legal_actions()]
    for action in actions:
        game.play(action)
        closes = game.pending_removals > 0
        game.pop()
        if closes:
            return action
    return rnd.choice(actions)


def until(what: str, condition, within: float = 20.0):  # type: ignore[no-untyped-def]
    """The first true value of `condition()`, polled on the real clock (another process or
    thread is at work), or a failure naming `what`."""
    deadline = time.monotonic() + within
    while True:
        found = condition()
        if found:
            return found
        assert time.monotonic() < deadline, f"waited {within} s for {what}"
        time.sleep(0.03)


@dataclass
class RunningDaemon:
    daemon: Daemon
    url: str
    pin: str
    loop: asyncio.AbstractEventLoop

    def call(self, func, *args):  # type: ignore[no-untyped-def]
        """Run `func(*args)` in the daemon's loop and return its result."""
        done = threading.Event()
        box: list[object] = []

        def run() -> None:
            box.append(func(*args))
            done.set()

        self.loop.call_soon_threadsafe(run)
        assert done.wait(10), "the daemon's loop did not answer"
        return box[0]

    def wait_for_plies(self, plies: int, within: float = 10.0) -> None:
        """Until the game has `plies` actions: the daemon settles on its own (real) clock."""
        until(f"{plies} actions", lambda: self.call(
            lambda: len(self.daemon.session.game.history)) >= plies, within)


@contextmanager
def sim_daemon(tmp_path: Path, *, variant: str = "nine-mens-morris", white: str = "hand",
               black: str = "hand", pin: str = PIN, settle: float = 0.05, menu: bool = False,
               menu_hold: float = 1.0, seed: int = 0, broker: str = "",
               board_name: str = "", player_page: str = "",
               carry_out_after: float | None = None) -> Iterator[RunningDaemon]:
    """`broker`: online play through this broker URL, as `sim --broker` gives it;
    `carry_out_after`: the simulator's hands carry out the other side's moves after this
    delay, as `sim --carry-out` has them."""
    config = Config(game_variant=variant, game_white=PlayerSpec.parse(white),
                    game_black=PlayerSpec.parse(black), tracker_settle=settle,
                    tracker_grow=0.1, tracker_grace=0.3, board_profile="sim-25",
                    store_path=str(tmp_path / "games.sqlite3"), web_port=0, web_pin=pin,
                    game_menu=menu, game_menu_hold=menu_hold, online_broker=broker,
                    online_board_name=board_name, online_player_page=player_page)
    ready = threading.Event()
    loop = asyncio.new_event_loop()
    made: list[Daemon] = []
    served: list[int] = []  # the port the system chose as the page bound it

    def serving(port: int) -> None:
        served.append(port)
        ready.set()

    def run() -> None:  # the store belongs to the thread that opens it: the loop's
        board = open_board(load_profile("sim-25"), backend="sim")
        services = [companion_service(pin, "127.0.0.1", 0, required=True, on_ready=serving)]
        address = config.online_address()
        if address is not None:
            services.append(online_service(address, config.board_name, config.online_player_page))
        if carry_out_after is not None:
            services.append(simhands.carry_out(carry_out_after))
        # Speech as `sim` has it: off until the page turns it on, said by the page.
        services.append(speech_service(Voice(), default=False, aloud=False))
        made.append(Daemon(config, board, seed=seed, services=services))
        loop.run_until_complete(made[0].run())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        assert ready.wait(15), "the web companion did not start"
        yield RunningDaemon(made[0], f"http://127.0.0.1:{served[0]}", pin, loop)
    finally:
        if made:
            loop.call_soon_threadsafe(made[0].stop)
        thread.join(15)
        loop.close()
