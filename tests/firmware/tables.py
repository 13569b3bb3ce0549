"""Test helpers: a game with a tracker and scripted hands on one simulated clock."""

from __future__ import annotations

import random

from navakankari.engine.actions import ActionKind
from navakankari.engine.game import Game, Side
from navakankari.engine.rules import Rules
from navakankari.engine.variants import new_game
from navakankari.firmware.core.clockwork import run_until
from navakankari.firmware.core.sensing import Sensing
from navakankari.firmware.core.tracker import BOTH_SIDES, Tracker, TrackerSettings
from navakankari.hal.sensors import SensorEvent
from navakankari.sim.hands import ScriptedHands

SETTINGS = TrackerSettings(settle=0.2, grow=0.35, grace=0.8)


class Following:
    """The board's sensing and a tracker following `game`, wired as the session wires them
    (Session.feed, Session.tick): each raw edge goes to the sensing, and what it did to the
    tracker with the reading after it; each tick likewise. The tracker's own methods and
    properties are reached through it."""

    def __init__(self, game: Game, *, settings: TrackerSettings = TrackerSettings(),
                 hands=BOTH_SIDES, occupied=(), now: float = 0.0,
                 colours: dict[str, Side | None] | None = None) -> None:
        self.sensing = Sensing(game.board, settings, occupied=occupied, now=now)
        self.tracker = Tracker(game, self.sensing.reading(), settings=settings, hands=hands,
                               now=now, colours=colours)

    def feed(self, event: SensorEvent) -> None:
        edge = self.sensing.feed(event)
        if edge is not None:
            self.tracker.sensed(edge, event.t, self.sensing.reading())

    def tick(self, now: float) -> list:
        return self.tracker.step(now, *self.sensing.tick(now), self.sensing.reading())

    def deadline(self) -> float | None:
        times = [t for t in (self.sensing.deadline(), self.tracker.deadline()) if t is not None]
        return min(times) if times else None

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.tracker, name)


class Table:
    """A game, a tracker following it, and hands acting on the board, on one clock."""

    def __init__(self, rules: Rules, record: str = "", *, hands=BOTH_SIDES,
                 occupied: list[str] | None = None, settings: TrackerSettings = SETTINGS) -> None:
        self.game: Game = new_game(rules)
        if record:
            self.game.play_record(record)
        board = self.game.board
        start = board.names(self.game.occupancy) if occupied is None else occupied
        self.tracker = Following(self.game, settings=settings, hands=hands, occupied=start)
        self.hands = ScriptedHands(start, pause=0.0)
        self.now = 0.0
        self.sent = 0

    def run(self, until: float | None = None) -> "Table":
        """Feed the gestures made so far; run the clock to `until` (None: until idle)."""
        events = self.hands.events[self.sent:]
        self.sent = len(self.hands.events)
        for event in events:
            self.now = run_until(self.tracker, event.t, self.now)
            self.tracker.feed(event)
            self.now = max(self.now, event.t)
            self.tracker.tick(self.now)
        if until is None:
            self.now = run_until(self.tracker, None, self.now)
            self.hands.t = max(self.hands.t, self.now)
        else:
            self.now = run_until(self.tracker, until, self.now)
        return self

    def at(self, dt: float) -> "Table":
        """Run to `dt` seconds after the last gesture."""
        return self.run(self.hands.t + dt)

    @property
    def status(self):
        return self.tracker.status

    @property
    def record(self) -> str:
        return self.game.record()




def random_game(rules: Rules, seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    game = new_game(rules)
    while game.outcome() is None and len(game.history) < plies:
        game.push(rng.choice(game.legal_actions()))
    return game


def find_chain_record(rules: Rules, hops: int = 2) -> tuple[str, str]:
    """A record after which a capture chain of at least `hops` jumps is legal, and that chain."""
    for seed in range(500):
        rng = random.Random(seed)
        game = new_game(rules)
        while game.outcome() is None and len(game.history) < 80:
            acts = game.legal_actions()
            chains = [a for a in acts if a.kind == ActionKind.JUMP and len(a.path) >= hops]
            if chains:
                return game.record(), chains[0].text
            game.push(rng.choice(acts))
    raise AssertionError("no chain found")

