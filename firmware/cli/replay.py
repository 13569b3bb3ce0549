"""Replay a recording of raw sensor events through the same session the daemon runs.

A recording is JSON Lines, `{"t": 0.25, "point": "d6", "present": true}` a line, `t` in
seconds from the start; the board starts empty (for Nau Keti Keta the recording first sets
the pebbles up, and the game starts once the start position is complete). The clock is
simulated: it stops at every deadline between events and runs on after the last one until
nothing is pending. Computer sides answer at once with a seeded random mover.

With `menu`, the recording starts in the board's menu (as a daemon with nothing to resume
does, and as a game chosen on the board is recorded): the variant and players given are
"the same as last time", and the choices made on the board decide the game. A recording of
a game chosen on the board says so in its first line (`menu_recording`), with all of these.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

from navakankari.engine.game import Side
from navakankari.engine.player import RandomPlayer
from navakankari.engine.rules import Rules
from navakankari.hal.sensors import SensorEvent
from navakankari.sim.recording import iter_events

from ..core.clockwork import drive
from ..core.menu import MenuSettings
from ..core.players import HAND, PlayerSpec, computer_turn
from ..core.recording import MenuStart, find
from ..core.session import Session
from ..core.tracker import TrackerSettings


class _Replayer:
    """A session whose computer turns are answered synchronously."""

    def __init__(self, session: Session, seed: int) -> None:
        self.session = session
        self.seed = seed
        self.players: dict[tuple[Side, int], RandomPlayer] = {}

    def feed(self, event: SensorEvent) -> None:
        self.session.feed(event)

    def tick(self, now: float) -> None:
        self.session.tick(now)
        for _ in range(4):
            request = self.session.computer_request()
            if request is None:
                return
            key = (request.side, request.level)
            if key not in self.players:  # the players may be chosen on the board
                self.players[key] = RandomPlayer(self.seed + int(request.side))
            actions = computer_turn(self.players[key], request.game)
            self.session.offer(request, actions, now)
            self.session.tick(now)

    def deadline(self) -> float | None:
        return self.session.deadline()


def read_recording(stream: IO[str], name: str = "<recording>") -> list[SensorEvent]:
    return list(iter_events(stream, name))


def read_menu_recording(stream: IO[str], name: str = "<recording>"
                        ) -> tuple[list[SensorEvent], MenuStart | None]:
    """The events, and how the board's menu stood if the recording starts in it (its first
    line says so: a game chosen on the board is recorded that way)."""
    text = stream.read()
    return read_recording(io.StringIO(text), name), find(text.splitlines(), name)


def replay(events: Iterable[SensorEvent], rules: Rules, *,
           players: Mapping[Side, PlayerSpec] | None = None,
           settings: TrackerSettings = TrackerSettings(), seed: int = 0,
           menu: MenuSettings | None = None, variants: Sequence[str] | None = None) -> Session:
    """Run the events through a fresh session (no store); returns it at the end. `menu`
    and `variants` as the daemon's (its `game.menu_hold`, its profile's variants); `seed`
    also decides the menu's tosses, as the daemon's own (0)."""
    session = Session(rules, players or {Side.WHITE: HAND, Side.BLACK: HAND}, settings=settings,
                      occupied=(), now=0.0, auto_new_game=False, menu=menu, variants=variants,
                      seed=seed)
    runner = _Replayer(session, seed)
    runner.tick(0.0)
    drive(runner, events)
    return session


def summary(session: Session) -> dict[str, Any]:
    """The replay's result: {"actions": [...], "position": "...", "outcome": null | {...},
    "variant": NAME, "white": SPEC, "black": SPEC} (the game played, chosen on the board or
    given)."""
    game = session.game
    outcome = game.outcome()
    return {"actions": [a.text for a in game.history], "position": game.position(),
            "outcome": outcome.to_dict() if outcome else None, "variant": session.rules.name,
            "white": str(session.players[Side.WHITE]), "black": str(session.players[Side.BLACK])}


def summary_json(session: Session) -> str:
    return json.dumps(summary(session))
