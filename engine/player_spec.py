"""Who plays a side, as every command and the configuration write it: the one grammar.

    hand, hand:N          pebbles moved by hand, with assistance N (0..MAX_ASSIST)
    computer, computer:N  the built-in search at level N (1..MAX_LEVEL, or max)
    computer:adaptive     the search at a level that follows the person's results (adaptive.py)
    engine:PATH[?K=V&...] an installed engine (external.py)
    remote                moves typed on the board's web page
    online                a player at another board, through a broker
    random, greedy        the weak opponents of strength runs

`level:N`, the former spelling of `computer:N`, is read with a FutureWarning. The board's
daemon, `sim`, `new-game`, `replay`, `play` and `match` all read player specs here; each says
which kinds it takes (`play` and `match` the ones the computer plays).
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass

from .player import (
    DEFAULT_LEVEL,
    MAX_LEVEL,
    ChoosesActions,
    GreedyPlayer,
    Player,
    RandomPlayer,
    level_info,
)
from .errors import WordedError, Wording
from .translator import ENGLISH, N_, Translator

PLAYER_KINDS = ("hand", "computer", "engine", "remote", "online", "random", "greedy")
COMPUTER_KINDS = ("computer", "engine", "random", "greedy")
ADAPTIVE = "adaptive"
"""What follows `computer:` for the adaptive computer."""
"""The kinds the computer plays itself (a search, an installed engine, a weak opponent)."""

DEFAULT_ASSIST = 1  #: a hand side's assistance unless it says otherwise: the legal moves
MAX_ASSIST = 4  #: the most assistance a hand side gets: the best move on request

SPEC_WORDS = (f"hand (pebbles moved by hand), hand:N (with assistance 0..{MAX_ASSIST}), "
              f"computer (level {DEFAULT_LEVEL}), computer:N (level 1..{MAX_LEVEL}), "
              "computer:max, computer:adaptive (a level that follows the person's results), "
              "engine:PATH[?KEY=VALUE&...] (an installed engine), remote (moves typed on the "
              "web page), online (a player at another board: a game that starts from an "
              "invitation), random or greedy (weak opponents)")
"""Every player spec `PlayerSpec.parse` reads, for the commands' help."""


class PlayerSpecError(WordedError, ValueError):
    """Text that is not a player spec; names the setting or option it was given as (`key`).
    The problem is a `Wording` (a catalog message and its places, see errors.py), so the
    firmware says it in the player's language (`words`); `problem` is its English."""

    def __init__(self, key: str, message: str | Wording, /, **places: object) -> None:
        self.key = key
        super().__init__(message, **places)
        self.problem = self.problem_words(ENGLISH)

    def again(self, key: str) -> PlayerSpecError:
        """The same problem, named by another setting or option."""
        return PlayerSpecError(key, self.wording)

    def problem_words(self, tr: Translator) -> str:
        """The problem alone, in `tr`'s language."""
        return self.wording.words(tr)

    def words(self, tr: Translator) -> str:
        """The whole error in `tr`'s language: the setting or option, then the problem."""
        return f"{self.key}: {self.problem_words(tr)}"


class PlayerKindError(WordedError, ValueError):
    """A player the computer cannot run here (a hand, a remote or online side), or a time
    per action that is not one; worded like every engine error (errors.py)."""


@dataclass(frozen=True)
class PlayerSpec:
    """Who plays a side (`kind`, one of PLAYER_KINDS): a computer has a `level`, an installed
    engine what follows `engine:` (`engine`), a hand side an assistance level (`assist`),
    written "hand:N" unless it is the default; no other side has one. An `adaptive` computer
    is written "computer:adaptive" whatever its `level`, the level it plays at in this game
    (decided from its results when the game starts, see adaptive.py)."""

    kind: str = "hand"
    level: int = DEFAULT_LEVEL
    engine: str = ""
    assist: int = DEFAULT_ASSIST
    adaptive: bool = False

    def __str__(self) -> str:
        if self.adaptive:
            return f"computer:{ADAPTIVE}"
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
        """The computer chooses this side's actions (a search, an engine, a weak opponent)."""
        return self.kind in COMPUTER_KINDS

    @property
    def moves_arrive(self) -> bool:
        """This side's moves arrive from elsewhere and the board shows them: typed on the
        web page (remote) or sent by another board (online)."""
        return self.kind in ("remote", "online")

    @classmethod
    def parse(cls, text: object, key: str = "player") -> PlayerSpec:
        """The spec `text` writes (see the module); PlayerSpecError naming `key` else."""
        if not isinstance(text, str):
            raise PlayerSpecError(key, N_("must be a string like \"hand\" or \"computer:3\", not "
                                          "{value}"), value=repr(text))
        kind, colon, level = text.strip().partition(":")
        kind = kind.lower()
        if kind == "level" and colon:
            warnings.warn(f"player {text!r}: the spelling level:N is deprecated and will be "
                          f"removed; write computer:{level}", FutureWarning, stacklevel=2)
            kind = "computer"
        if kind not in PLAYER_KINDS:
            raise PlayerSpecError(key, N_("unknown player {value}; one of {choices}"),
                                  value=repr(kind), choices=", ".join(PLAYER_KINDS))
        if kind == "engine":
            from .external import EngineSpec, EngineSpecError  # its own grammar after `engine:`

            try:
                EngineSpec.parse(text.strip())
            except EngineSpecError as exc:
                raise PlayerSpecError(key, exc.wording) from None
            return cls(kind, engine=level)
        if kind == "hand" and level:
            if not level.isdigit() or not 0 <= int(level) <= MAX_ASSIST:
                raise PlayerSpecError(key, N_("a hand's assistance must be 0..{high}, not {value}"),
                                      high=MAX_ASSIST, value=repr(level))
            return cls(kind, assist=int(level))
        if kind != "computer":
            if colon:
                raise PlayerSpecError(key, N_("only a computer player has a level ({value})"),
                                      value=repr(text))
            return cls(kind)
        if not level:
            return cls(kind)
        if level.lower() == "max":
            return cls(kind, MAX_LEVEL)
        if level.lower() == ADAPTIVE:
            return cls(kind, adaptive=True)
        if not level.isdigit() or not 1 <= int(level) <= MAX_LEVEL:
            raise PlayerSpecError(key, N_("computer level must be 1..{high}, max or adaptive, not "
                                          "{value}"), high=MAX_LEVEL, value=repr(level))
        return cls(kind, int(level))


HAND = PlayerSpec("hand")
ADAPTIVE_COMPUTER = PlayerSpec("computer", adaptive=True)


def at_level(spec: PlayerSpec, level: int) -> PlayerSpec:
    """An adaptive computer playing at `level` (1..MAX_LEVEL) in the game about to start;
    any other side as it is."""
    level_info(level)
    return dataclasses.replace(spec, level=level) if spec.adaptive else spec


def make_player(spec: str | PlayerSpec, seed: int | None = None, budget_scale: float = 1.0,
                movetime: float | None = None) -> ChoosesActions:
    """The player the computer runs in this process for a side it plays (COMPUTER_KINDS): the
    search at a level, an installed engine, random or greedy. `movetime`, if given, is the
    thinking time per action in seconds for a computer level (its budget, in place of
    `budget_scale`) and for an engine alike. A side the computer does not play (hand,
    remote, online) is a PlayerKindError, as is a time that is not one; text that is not a
    player spec a PlayerSpecError (both are ValueErrors)."""
    if movetime is not None and not (0 < movetime < float("inf")):
        raise PlayerKindError(N_("the time per action must be a positive number of seconds, "
                                 "not {value}"), value=movetime)
    parsed = spec if isinstance(spec, PlayerSpec) else PlayerSpec.parse(spec)
    if parsed.kind == "engine":
        from .external import EnginePlayer, EngineSpec

        engine = EngineSpec.parse(str(parsed))
        if movetime is not None:
            engine = dataclasses.replace(engine, seconds=movetime)
        return EnginePlayer(engine)
    if parsed.kind == "random":
        return RandomPlayer(seed)
    if parsed.kind == "greedy":
        return GreedyPlayer(seed)
    if parsed.kind == "computer":
        if movetime is not None:
            budget_scale = movetime / level_info(parsed.level).budget
        return Player(parsed.level, seed=seed, budget_scale=budget_scale)
    raise PlayerKindError(N_("{player} is not a player the computer plays; use "
                             "computer:1..computer:{high}, computer:max, computer:adaptive, "
                             "engine:PATH, greedy or random"), player=parsed, high=MAX_LEVEL)
