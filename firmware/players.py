"""Computer players behind one small interface, so the engine's search can be swapped in.

A player is anything with `choose(game, stop) -> Action`. The daemon runs a whole computer
turn (a move and the removals its mills earn) in an executor on a copy of the game, and
hands the result to the session, which shows it on the board.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import TYPE_CHECKING, Protocol

from navakankari.engine.actions import Action
from navakankari.engine.game import Game

if TYPE_CHECKING:
    from .config import PlayerSpec

log = logging.getLogger(__name__)


class Chooser(Protocol):
    def choose(self, game: Game, stop: threading.Event | None = None) -> Action: ...


class RandomPlayer:
    """Picks a legal action at random: the stand-in until the search is available."""

    def __init__(self, level: int = 0, seed: int | None = None) -> None:
        self.level = level
        self._rng = random.Random(seed)

    def choose(self, game: Game, stop: threading.Event | None = None) -> Action:
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        return self._rng.choice(actions)


def computer_player(level: int, *, seed: int | None = None) -> Chooser:
    """The engine's search player at `level` (1..MAX_LEVEL)."""
    from navakankari.engine.player import Player

    log.info("computer player: level %d", level)
    return Player(level, seed=seed)


def player_for(spec: "PlayerSpec") -> Chooser:
    """The player behind a side the daemon plays: the search at a level, or an installed
    engine (`engine:PATH`)."""
    if spec.kind == "engine":
        from navakankari.engine.external import EnginePlayer

        log.info("engine player: %s", spec)
        return EnginePlayer(str(spec))
    return computer_player(spec.level)


def computer_turn(player: Chooser, game: Game, stop: threading.Event | None = None
                  ) -> tuple[Action, ...]:
    """The computer's whole turn on a copy of `game`: its action, then each removal it
    earns (a removal is a separate action of the same side)."""
    probe = game.copy()
    side = probe.turn
    out: list[Action] = []
    while probe.outcome() is None and probe.turn == side and (not out or probe.pending_removals):
        if stop is not None and stop.is_set():
            break
        action = player.choose(probe.copy(), stop)
        if action not in probe.legal_actions():
            raise ValueError(f"computer player chose an illegal action {action.text}")
        probe.push(action)
        out.append(action)
    return tuple(out)
