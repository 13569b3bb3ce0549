"""The family table: which game class plays a rule set, and the factories built on it.

A rule set names its family (`Rules.game`); the classes live in their own modules and know
nothing of each other, so this table is the one place that knows them all.
"""

from __future__ import annotations

from .errors import InvalidRulesError
from .game import Game
from .outcome import Side
from .jump import JumpGame
from .morris import MorrisGame
from .presets import preset
from .rules import Rules
from .translator import N_

FAMILIES: dict[str, type[Game]] = {"morris": MorrisGame, "jump": JumpGame}
"""`Rules.game` -> the class that plays it."""


def family(rules: Rules) -> type[Game]:
    """The game class for a rule set."""
    try:
        return FAMILIES[rules.game]
    except KeyError:
        raise InvalidRulesError(N_("{rules}: no game family {value}; one of {families}"),
                                rules=rules.name, value=repr(rules.game),
                                families=", ".join(FAMILIES)) from None


def new_game(rules: Rules | str) -> Game:
    """A game at the start position of a rule set (or of a preset named by its name)."""
    rules = preset(rules) if isinstance(rules, str) else rules
    return family(rules)(rules)


def game_from_position(rules: Rules | str, text: str) -> Game:
    """A game at the position `text` (as `Game.position()` writes it) under a rule set or
    a preset's name; a position the rules cannot reach raises InvalidNotationError."""
    rules = preset(rules) if isinstance(rules, str) else rules
    return family(rules).from_position(rules, text)


def start_position(rules: Rules | str, first: Side = Side.WHITE) -> str | None:
    """The position a game begins from when `first` acts first: None when white does (the
    rules' own start needs none), else that start with black to act, which a record keeps
    as its FEN tag and Sanmill reads."""
    if first == Side.WHITE:
        return None
    fields = new_game(rules).position().split(" ")
    fields[1] = "b"
    return " ".join(fields)


def start_game(rules: Rules | str, position: str | None = None) -> Game:
    """A game at `position` (`start_position`'s, a record's FEN), else at the rules' start."""
    return new_game(rules) if position is None else game_from_position(rules, position)
