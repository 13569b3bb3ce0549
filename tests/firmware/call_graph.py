"""The call graph of one settled sensor change through the daemon's real loop.

A daemon on the simulated board (white by hand, black the computer) runs on a virtual clock;
a hand sets a pebble on d6, and the turn of the loop in which that change settles (and is
committed, stored and answered by asking the computer) is traced with `sys.setprofile`,
restricted to the firmware's loop, core and store. Printed: the functions visited, in order
and indented by depth, and how many times control climbs back up to a caller that then calls
down again (for each traced frame, the traced calls it makes less one). Comprehensions,
lambdas and dunder methods are not counted as functions of their own: their calls count
as their caller's. Then the same between modules only: a call counts when it goes to another
module than its caller's (one part asking another); calls within a module are merged into
the call that entered it.

Run from the repository: `.venv/bin/python tests/firmware/call_graph.py [--graph]`.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from navakankari.engine.player import ChoosesActions
from navakankari.firmware.core.players import PlayerSpec, player_for
from navakankari.firmware.daemon.config import Config
from navakankari.firmware.daemon.loop import Daemon
from navakankari.hal import load_profile, open_board
from navakankari.sim.clock import ManualClock
from virtual_time import run_virtual

TRACED = ("navakankari.firmware.core.", "navakankari.firmware.daemon.",
          "navakankari.firmware.store.")
LOOP = "Daemon._serve"


@dataclass
class _Frame:
    name: str
    counted: bool
    part: str = ""  #: the module the function belongs to
    crossed: bool = False  #: entered from another module
    calls: int = 0
    crossings: int = 0


@dataclass
class Turn:
    """One traced turn of the loop: (depth, function) in order, and the climbs."""

    visits: list[tuple[int, str]] = field(default_factory=list)
    climbs: int = 0
    crossings: list[tuple[int, str]] = field(default_factory=list)  #: between modules
    climbs_between: int = 0

    def names(self) -> list[str]:
        return [name for _, name in self.visits]


def _counted(name: str) -> bool:
    short = name.rsplit(".", 1)[-1]
    return not (short.startswith("<") or short.startswith("__"))


class _Tracer:
    """Keeps every turn of the loop (a resumption of `Daemon._serve` up to its next await)."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self._stack: list[_Frame] = []
        self._turn: Turn | None = None

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith(TRACED):
            return
        name = frame.f_code.co_qualname
        if event == "call":
            if name == LOOP and self._turn is None:
                self._turn = Turn()
                self._stack = []
            if self._turn is None:
                return
            counted = _counted(name)
            me = _Frame(name, counted, module)
            if counted:
                parent = next((f for f in reversed(self._stack) if f.counted), None)
                if parent is not None:
                    parent.calls += 1
                depth = sum(1 for f in self._stack if f.counted)
                self._turn.visits.append((depth, name))
                entry = next((f for f in reversed(self._stack) if f.crossed), None)
                me.crossed = entry is None or entry.part != me.part
                if me.crossed:
                    if entry is not None:
                        entry.crossings += 1
                    self._turn.crossings.append(
                        (sum(1 for f in self._stack if f.crossed), name))
            self._stack.append(me)
            return
        if self._turn is None or not self._stack:
            return
        done = self._stack.pop()
        if done.counted:
            self._turn.climbs += max(0, done.calls - 1)
        if done.crossed:
            self._turn.climbs_between += max(0, done.crossings - 1)
        if not self._stack:  # the loop awaits: its turn is over
            self.turns.append(self._turn)
            self._turn = None


def settled_change(tmp: Path, player_factory: Callable[[PlayerSpec], ChoosesActions] = player_for
                   ) -> Turn:
    """The turn of the loop in which a hand's pebble on d6 settles and is committed;
    `player_factory` makes the computer's player (the daemon's own by default)."""
    clock = ManualClock(1000.0)
    board = open_board(load_profile("sim-24"), backend="sim", clock=clock)
    config = Config(game_variant="nine-mens-morris", game_white=PlayerSpec("hand"),
                    game_black=PlayerSpec("computer", 1), board_profile="sim-24",
                    store_path=str(tmp / "games.sqlite3"), game_menu=False)
    daemon = Daemon(config, board, clock=clock, player_factory=player_factory)
    tracer = _Tracer()

    async def main() -> None:
        task = asyncio.create_task(daemon.run())
        await asyncio.sleep(1.0)  # started, resting
        assert daemon.session is not None and board.simulation is not None
        sys.setprofile(tracer)
        try:
            board.simulation.place("d6")
            await asyncio.sleep(config.tracker_settle * 2)
        finally:
            sys.setprofile(None)
        assert daemon.session.game.history, "the pebble was not committed"
        daemon.stop()
        await task

    run_virtual(main(), clock, stores=[daemon.store])
    for turn in tracer.turns:
        if any(name.endswith("Store.append") for name in turn.names()):
            return turn
    raise AssertionError("no turn of the loop stored the action")


def main(argv: list[str]) -> int:
    logging.disable(logging.CRITICAL)  # the search process stopped with the daemon, said
    with tempfile.TemporaryDirectory() as tmp:
        turn = settled_change(Path(tmp))
    if "--graph" in argv:
        for depth, name in turn.visits:
            print(f"{'  ' * depth}{name}")
        print()
        print("between modules:")
        for depth, name in turn.crossings:
            print(f"{'  ' * depth}{name}")
        print()
    print(f"functions visited: {len(turn.visits)}")
    print(f"climbs back up to a caller that calls down again: {turn.climbs}")
    print(f"calls between modules: {len(turn.crossings)}")
    print(f"climbs between modules: {turn.climbs_between}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
