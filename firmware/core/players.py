"""Computer players behind one small interface, so the engine's search can be swapped in.

A player is anything with `choose(game, stop) -> Action` (the engine's `ChoosesActions`).
The daemon runs a whole computer turn (a move and the removals its mills earn) in an
executor on a copy of the game, and hands the result to the session, which shows it on the
board. The search itself runs in a child process (the engine's `SearchProcessPlayer`), so
the executor's thread only waits and the daemon's loop never competes with it for the
interpreter.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from navakankari.engine.actions import Action
from navakankari.engine.external import EngineSpec
from navakankari.engine.game import Game
from navakankari.engine.player import DEFAULT_LEVEL, MAX_LEVEL, ChoosesActions
from navakankari.engine.translator import ENGLISH, Translator

from .errors import ConfigError

log = logging.getLogger(__name__)

PLAYER_KINDS = ("hand", "computer", "remote", "engine", "online")

ASSIST_LEVELS = ("none", "legal moves", "threats", "move quality", "best move on request")
"""The help a hand side gets, by level (each includes the ones below it): 0 shows only mistakes
to fix, 1 the legal moves (the default), 2 the opponent's threats, 3 each destination's quality
on lifting a pebble and a warning after a blunder, 4 the best move on request."""
DEFAULT_ASSIST = 1
MAX_ASSIST = len(ASSIST_LEVELS) - 1


def assist_words(level: int, tr: Translator = ENGLISH) -> str:
    """An assistance level in the players' language (`ASSIST_LEVELS` in English)."""
    words = (tr.gettext("none"), tr.gettext("legal moves"), tr.gettext("threats"),
             tr.gettext("move quality"), tr.gettext("best move on request"))
    return words[level]


@dataclass(frozen=True)
class PlayerSpec:
    """Who plays a side: "hand" (on the board), "computer" at a level, "remote" (moves
    arrive from the web companion and the board shows them), "online" (a player at another
    board, through the broker: the board shows their moves too; such a game starts from an
    invitation), or "engine" (an installed engine: `engine` holds what follows `engine:`,
    see navakankari.engine.external). A hand side has an assistance level (`assist`,
    ASSIST_LEVELS), written "hand:N" unless it is the default; no other side has one."""

    kind: str = "hand"
    level: int = DEFAULT_LEVEL
    engine: str = ""
    assist: int = DEFAULT_ASSIST

    def __str__(self) -> str:
        if self.kind == "computer":
            return f"computer:{self.level}"
        if self.kind == "engine":
            return f"engine:{self.engine}"
        if self.kind == "hand" and self.assist != DEFAULT_ASSIST:
            return f"hand:{self.assist}"
        return self.kind

    @property
    def assistance(self) -> int:
        """The help this side gets on the board: its level for a hand, none otherwise."""
        return self.assist if self.kind == "hand" else 0

    @property
    def plays_itself(self) -> bool:
        """The daemon chooses this side's actions (the computer or an engine)."""
        return self.kind in ("computer", "engine")

    @classmethod
    def parse(cls, text: object, key: str = "player") -> "PlayerSpec":
        """"hand", "hand:ASSIST" (0..MAX_ASSIST), "remote", "computer", "computer:LEVEL"
        (level 1..MAX_LEVEL, or max) or "engine:PATH[?KEY=VALUE&...]"."""
        if not isinstance(text, str):
            raise ConfigError(key, f"must be a string like \"hand\" or \"computer:3\", not {text!r}")
        kind, _, level = text.strip().partition(":")
        if kind not in PLAYER_KINDS:
            raise ConfigError(key, f"unknown player {kind!r}; one of {', '.join(PLAYER_KINDS)}")
        if kind == "engine":
            try:
                EngineSpec.parse(text)
            except ValueError as exc:
                raise ConfigError(key, str(exc)) from None
            return cls(kind, engine=level)
        if kind == "hand" and level:
            if not level.isdigit() or not 0 <= int(level) <= MAX_ASSIST:
                raise ConfigError(key, f"a hand's assistance must be 0..{MAX_ASSIST}, not {level!r}")
            return cls(kind, assist=int(level))
        if kind != "computer":
            if level:
                raise ConfigError(key, f"only a computer player has a level ({text!r})")
            return cls(kind)
        if not level:
            return cls(kind)
        if level == "max":
            return cls(kind, MAX_LEVEL)
        if not level.isdigit() or not 1 <= int(level) <= MAX_LEVEL:
            raise ConfigError(key, f"computer level must be 1..{MAX_LEVEL}, not {level!r}")
        return cls(kind, int(level))


HAND = PlayerSpec("hand")

SPEC_WORDS = (f"hand (pebbles moved by hand), hand:N (with assistance 0..{MAX_ASSIST}), "
              f"computer (level {DEFAULT_LEVEL}), computer:N "
              f"(level 1..{MAX_LEVEL}), computer:max, engine:PATH[?KEY=VALUE&...] (an installed "
              "engine) or remote (moves from the web page)")
"""Every player spec `PlayerSpec.parse` reads, for the commands' help."""


CHILD_NICE = 10
"""Nice levels the search and advice processes run below the loop that reads the sensors:
on a busy Pi the loop goes first, and a search only uses what the loop leaves."""


def computer_player(level: int, *, seed: int | None = None, nice: int = CHILD_NICE
                    ) -> ChoosesActions:
    """The engine's search player at `level` (1..MAX_LEVEL), searching in a child process
    (started on the first request; a fresh one after a failure) `nice` levels below this one."""
    from navakankari.engine.search_process import SearchProcessPlayer

    log.info("computer player: level %d", level)
    return SearchProcessPlayer(level, seed=seed, nice=nice)


def player_for(spec: PlayerSpec) -> ChoosesActions:
    """The player behind a side the daemon plays: the search at a level, or an installed
    engine (`engine:PATH`)."""
    if spec.kind == "engine":
        from navakankari.engine.external import EnginePlayer

        log.info("engine player: %s", spec)
        return EnginePlayer(str(spec))
    return computer_player(spec.level)


def computer_turn(player: ChoosesActions, game: Game, stop: threading.Event | None = None
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
