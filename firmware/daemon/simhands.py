"""Hands for the simulated board inside a running daemon: play a scripted game on it.

`navakankari run --sim-hands "d6 a1 ..."` (simulated backend only) sets the board up,
carries out each action of the script in real time, carries out the computer's shown
moves, and puts the board right whenever the status asks for it. It exists for demos and
for the power-cut test, which kills the daemon at random moments of such a game and starts
it again on an empty simulated board.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from navakankari.engine.actions import Action, ActionKind
from navakankari.engine.errors import RulesError

from ..core.session import Session
from ..core.status import Status, StatusKind

if TYPE_CHECKING:
    from navakankari.sim.board import SimulatedBoard

log = logging.getLogger(__name__)


class SimHands:
    def __init__(self, simulation: SimulatedBoard, session: Session, script: list[str], *,
                 gap: float = 0.02, pause: float | None = None) -> None:
        self.sim = simulation
        self.session = session
        self.script = script
        self.gap = gap
        self.pause = pause if pause is not None else session.settings.settle * 2 + 0.05

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.pause)
            session = self.session
            status = session.status
            ply = len(session.game.history)
            if status.kind in (StatusKind.MISMATCH, StatusKind.CLEARING):
                await self.put_right(status)
                continue
            if status.kind == StatusKind.MENU:
                if not await self.same_as_last_time(status):
                    return
                continue
            if status.kind == StatusKind.IN_PROGRESS:
                continue
            if status.kind == StatusKind.EXECUTING:
                await self.perform(session.tracker.forced[0])
                continue
            if status.kind == StatusKind.OVER or ply >= len(self.script):
                if status.kind in (StatusKind.IDLE, StatusKind.OVER, StatusKind.REMOVAL):
                    log.info("sim-hands: done after %d actions", ply)
                    return
                continue
            if status.kind in (StatusKind.IDLE, StatusKind.REMOVAL):
                try:
                    action = session.game.parse_action(self.script[ply])
                except RulesError as exc:
                    log.error("sim-hands: script action %d (%s): %s", ply + 1, self.script[ply], exc)
                    return
                await self.perform(action)

    async def put_right(self, status: Status) -> None:
        """Lift and place what the status asks for. A cleared board (a restart on an empty
        simulated board) is put back too."""
        for p in status.to_empty:
            self.sim.lift(p)
            await asyncio.sleep(self.gap)
        for p in status.to_fill:
            self.sim.place(p)
            await asyncio.sleep(self.gap)

    async def same_as_last_time(self, status: Status) -> bool:
        """In the board's menu, choose the configured game: a pebble held on its point,
        then lifted. False (said once) when the menu offers no such choice: the hands stop,
        as at a script action that does not play."""
        point = next((p for p, kind, _ in status.choices if kind == "same"), None)
        if point is None:
            log.error("sim-hands: the menu offers no game to play")
            return False
        self.sim.place(point)
        await asyncio.sleep(status.confirm_hold + self.pause)
        self.sim.lift(point)
        menu = self.session.menu_settings
        await asyncio.sleep(self.session.settings.settle + (menu.lift if menu else 0) + self.pause)
        return True

    async def perform(self, action: Action) -> None:
        """Carry out `action` with pebbles of the colour of the side that plays it, so the
        simulated board's pebbles keep their true colours."""
        game = self.session.game
        names = game.board.points
        if action.kind == ActionKind.PLACE:
            self.sim.place(names[action.target], str(game.turn))
        elif action.kind == ActionKind.REMOVE:
            self.sim.lift(names[action.target])
        else:
            colour = self.sim.lift(names[action.origin])
            await asyncio.sleep(self.gap)
            self.sim.place(names[action.target], colour)
            for j in action.jumped:
                await asyncio.sleep(self.gap)
                self.sim.lift(names[j])


class _Daemon(Protocol):
    """What carrying out needs of the daemon (loop.py imports this module)."""

    board: Any
    session: Session | None

    def now(self) -> float: ...


def carry_out(delay: float, *, poll: float = 0.05) -> Callable[[_Daemon], Awaitable[None]]:
    """The simulator's hands for the moves a person does not make: once the computer's or
    the remote player's move has been lit for `delay` seconds (the lights first, so the
    person sees what is played), the simulated hands carry it out, a removal after its
    move. On a real board the family does this; in the simulator it would double the clicks
    of a game against the computer."""

    async def service(daemon: _Daemon) -> None:
        sim = daemon.board.simulation
        if sim is None:
            raise ValueError("carrying out moves needs the simulated board")
        shown: tuple[object, ...] | None = None  # the forced move being shown, and since when
        since = 0.0
        while True:
            await asyncio.sleep(poll)
            session = daemon.session
            if session is None or session.status.kind != StatusKind.EXECUTING:
                shown = None
                continue
            forced = session.tracker.forced
            key = (session.game_id, len(session.game.history), forced)
            if key != shown:
                shown, since = key, daemon.now()
            elif forced and daemon.now() - since >= delay:
                await SimHands(sim, session, []).perform(forced[0])
                shown = None

    return service
