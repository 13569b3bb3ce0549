"""`navakankari bench thinking`: the daemon's time from a settled sensor change to the new
LED frame, while the computer thinks and while it does not.

The real daemon loop runs on the simulated board, in real time: white is a simulated hand
playing random legal actions, black the computer at LEVEL. Once in each turn, at a random
moment (in the computer's turn while it thinks, in the hand's before it moves; not when it
is to take a pebble), the hand fidgets: lifts a pebble and puts it back, as a player
straightening the board does. Every tick of the loop that meets a tracker deadline (a
change that settled, a mistake's grace) and sends a new frame to the LEDs is one figure:
from the deadline to the frame sent. A tick that waited for a synced store write (an action
or a new game stored: SQLite's fsync) counts apart; the others are sorted by whether a
search was running. The figures include the loop waking late, which is what a busy
interpreter costs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from navakankari.engine.actions import Action
from navakankari.engine.player import level_info
from navakankari.hal.scheduling import Scheduling, describe, take_realtime

from ..core.players import CHILD_NICE, HAND, PlayerSpec, computer_player
from ..core.status import StatusKind
from ..daemon.config import Config
from ..daemon.simhands import SimHands
from .bench import _spread

if TYPE_CHECKING:
    from ..daemon.loop import Daemon

LEVEL = 6
"""The computer's level: a 2 s budget and no depth cap, so it searches the whole budget."""


@dataclass
class Latencies:
    """Seconds from a deadline to its frame, sorted by a search running at the deadline."""

    idle: list[float] = field(default_factory=list)
    thinking: list[float] = field(default_factory=list)
    commits: list[float] = field(default_factory=list)  #: ticks that waited for a synced write
    turns: int = 0  #: computer turns seen
    games: int = 0  #: games played to their end


def _instrument(daemon: "Daemon", figures: Latencies) -> None:
    """Time each deadline the loop's tick meets to the frame the same turn sends."""
    session, leds = daemon.session, daemon.board.leds
    assert session is not None
    tick, show = session.tick, leds.show
    due: list[tuple[float, list[float]]] = []

    def timed_tick(now: float) -> list[Action]:
        due.clear()  # a deadline whose tick changed no frame is not a figure
        deadline = session.deadline()
        writes = daemon.store.synced_writes
        committed = tick(now)
        if deadline is not None and deadline <= now:  # (an action, or a new game, stored)
            due.append((deadline, figures.commits if daemon.store.synced_writes != writes else
                        figures.thinking if daemon.computer_busy else figures.idle))
        return committed

    def timed_show(colours: Mapping[str, tuple[int, int, int]]) -> None:
        show(colours)
        if due:
            deadline, into = due.pop()
            into.append(time.monotonic() - deadline)

    session.tick = timed_tick  # type: ignore[method-assign]
    leds.show = timed_show  # type: ignore[method-assign]


class _Hands(SimHands):
    """The hand's side at random, the computer's moves carried out, one fidget a turn."""

    def __init__(self, daemon: "Daemon", rng: random.Random, figures: Latencies) -> None:
        assert daemon.session is not None and daemon.board.simulation is not None
        super().__init__(daemon.board.simulation, daemon.session, [])
        self.rng = rng
        self.figures = figures
        self.budget = level_info(LEVEL).budget

    async def run(self) -> None:
        session = self.session
        fidgeted = -1  # the ply of the last fidget
        while True:
            await asyncio.sleep(self.pause)
            status, game = session.status, session.game
            ply = len(game.history)
            if status.kind in (StatusKind.MISMATCH, StatusKind.CLEARING):
                await self.put_right(status)
            elif status.kind == StatusKind.EXECUTING:
                await self.perform(session.tracker.forced[0])
            elif status.kind == StatusKind.OVER:
                self.figures.games += 1
                for point in game.board.names(game.occupancy):  # cleared: a new game starts
                    self.sim.lift(point)
                    await asyncio.sleep(self.gap)
                await asyncio.sleep(session.settings.settle * 2)
            elif status.kind == StatusKind.THINKING and fidgeted != ply:
                fidgeted = ply
                self.figures.turns += 1
                await self.fidget(StatusKind.THINKING, ply)
            elif status.kind == StatusKind.IDLE and fidgeted != ply:
                fidgeted = ply  # (not when a pebble is to be taken: a lift would take it)
                await self.fidget(status.kind, ply)
            elif status.kind in (StatusKind.IDLE, StatusKind.REMOVAL):
                await self.perform(self.rng.choice(game.legal_actions()))

    async def fidget(self, kind: StatusKind, ply: int) -> None:
        """At a random moment of a turn (the computer's, or the hand's before it moves), lift
        a pebble and put it back, unless the turn has moved on."""
        session = self.session
        thinking = kind == StatusKind.THINKING
        await asyncio.sleep(self.rng.uniform(0.05, self.budget * 0.6 if thinking else 0.5))
        occupied = session.game.board.names(session.game.occupancy)
        if session.status.kind != kind or len(session.game.history) != ply or not occupied:
            return
        point = self.rng.choice(sorted(occupied))
        colour = self.sim.lift(point)
        await asyncio.sleep(session.settings.settle + 0.1)
        self.sim.place(point, colour)


LOOP_NICE = -5
"""The unit's Nice= (firmware/system/navakankari.service): the loop's priority on a Pi."""


def busy_processes(count: int, seconds: float) -> list[subprocess.Popen[bytes]]:
    """`count` other processes, each keeping a core busy for `seconds` and then ending by
    itself (so none outlives the benchmark, even if it is killed)."""
    code = f"import time\nend = time.monotonic() + {seconds:.1f}\nwhile time.monotonic() < end:\n    pass\n"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]


_FLOOR = """\
import json, os, sys, time
if sys.argv[2] == "1":
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    except OSError:
        pass
end, late = time.monotonic() + float(sys.argv[1]), []
while time.monotonic() < end:
    t = time.monotonic()
    time.sleep(0.005)
    late.append(time.monotonic() - t - 0.005)
print(json.dumps(late))
"""


def timer_floor(seconds: float, realtime: bool) -> subprocess.Popen[str]:
    """A process that only sleeps 5 ms at a time for `seconds`, at the loop's priority, and
    prints how late each wake was: what this machine's timers and scheduler (and, in a
    virtual machine, its host taking the CPU away) cost any loop, the board's included."""
    return subprocess.Popen([sys.executable, "-c", _FLOOR, f"{seconds:.1f}",
                             "1" if realtime else "0"], stdout=subprocess.PIPE, text=True)


def floor_figures(process: subprocess.Popen[str]) -> list[float]:
    """The lateness of each of the floor process's wakes, in seconds."""
    out, _ = process.communicate()
    figures: list[float] = json.loads(out)
    return figures


def measure(seconds: float, seed: int = 0, child_nice: int = CHILD_NICE, *,
            black: PlayerSpec | None = None,
            services: Sequence[Callable[["Daemon"], Coroutine[Any, Any, None]]] = ()) -> Latencies:
    """Play for `seconds` of real time; the figures. The search runs `child_nice` levels
    below the loop, as in the daemon. `black`: another player than the computer at LEVEL
    (a hand: `bench daemon --speech`); `services`: more of the daemon's services (speech)."""
    from navakankari.hal import load_profile, open_board

    from ..daemon import event_loop
    from ..daemon.loop import Daemon
    from ..daemon.notify import Notifier

    figures = Latencies()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(game_variant="nine-mens-morris", game_white=HAND,
                        game_black=black or PlayerSpec("computer", LEVEL), board_profile="sim-24",
                        store_path=str(Path(tmp) / "thinking.sqlite3"), game_menu=False)
        board = open_board(load_profile("sim-24"), backend="sim")

        async def hands(daemon: "Daemon") -> None:
            _instrument(daemon, figures)
            await _Hands(daemon, rng, figures).run()

        daemon = Daemon(config, board, notifier=Notifier({}), services=[hands, *services],
                        freeze_heap=True,
                        player_factory=lambda spec: computer_player(spec.level, nice=child_nice))

        async def main() -> None:
            task = asyncio.create_task(daemon.run())
            done, _ = await asyncio.wait([task], timeout=seconds)
            if task in done:
                task.result()  # the daemon ended early: its error
                # Ended without one: stopped by Ctrl-C (or SIGTERM), which the command ends
                # quietly, as it would any interrupted command.
                raise KeyboardInterrupt
            daemon.stop()
            await task

        event_loop.run(main())
    return figures


def run(out: Callable[[str], None] = print, quick: bool = False,
        args: argparse.Namespace | None = None) -> Latencies:
    """With `--busy`, every core is kept busy by other processes meanwhile; the loop runs at
    the unit's priority (realtime 1 where this process may take it: root, or nice -5) and the
    search below it, or with `--same-priority` both as they start (the board before it set
    priorities)."""
    seconds = float(getattr(args, "duration", None) or (20.0 if quick else 60.0))
    busy = bool(getattr(args, "busy", False))
    same = bool(getattr(args, "same_priority", False))
    hogs = busy_processes(os.cpu_count() or 1, seconds + 15) if busy else []
    children: list[subprocess.Popen[Any]] = [*hogs]  # ended with the run, whatever happens
    before = Scheduling.current()
    try:
        base = os.getpriority(os.PRIO_PROCESS, 0)
        if not same:
            try:  # the unit's Nice=, which stays where realtime is refused
                os.setpriority(os.PRIO_PROCESS, 0, max(-20, base + LOOP_NICE))
            except OSError:
                out(f"(the loop stays at nice {base}: raising it to the unit's Nice={LOOP_NICE} "
                    "needs root)")
            if not take_realtime():  # as `run --realtime` does
                out("(no realtime priority for the loop: it needs root or LimitRTPRIO=)")
        loop = describe()
        child = 0 if same else CHILD_NICE
        search = min(19, (base if Scheduling.current().realtime else
                          os.getpriority(os.PRIO_PROCESS, 0)) + child)
        if busy:
            out(f"every core busy: {len(hogs)} other processes at nice {base}; the loop at "
                f"{loop}, the search at nice {search}")
        floor = timer_floor(seconds, Scheduling.current().realtime)
        children.append(floor)
        figures = measure(seconds, child_nice=child)
        floor_late = floor_figures(floor)
    finally:
        before.apply()
        for process in children:
            process.kill()
            process.wait()
    out(f"hand vs computer:{LEVEL}, {seconds:.0f} s real time: {figures.turns} computer turns, "
        f"{figures.games} games ended")
    out(f"settled change -> LED frame, idle: {_spread(figures.idle, 'frames', with_max=True)}")
    out(f"settled change -> LED frame, while the computer thinks: "
        f"{_spread(figures.thinking, 'frames', with_max=True)}")
    out(f"settled change -> LED frame, a tick that stored an action or a new game (SQLite's "
        "synced write): "
        f"{_spread(figures.commits, 'frames', with_max=True)}")
    out(f"this machine's floor, a process only sleeping 5 ms at a time at the loop's priority, "
        f"woke late by: {_spread(floor_late, 'wakes', with_max=True)}")
    stolen = [late for late in floor_late if late > 0.002]
    out(f"  {len(stolen)} of its wakes late by over 2 ms, {sum(stolen):.2f} s in all: "
        f"{sum(stolen) / seconds:.1%} of the time, so about that share of the frames above "
        "would be over 2 ms late whatever the loop did")
    return figures
