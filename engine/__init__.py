"""The rules engine: boards, rule sets, games, notation and the computer player.

Pure Python, standard library only: the engine knows no hardware. Its hot modules can also
be compiled from the same sources (`navakankari build-engine`, see native.py). The names
below are the public surface (see engine/README.md for an example):

    from navakankari.engine import new_game
    game = new_game("nine-mens-morris")
    game.push(game.parse("d6"))
"""

from . import native as _native

_native.activate(__path__)  # the compiled hot modules, when built for these sources

from .actions import Action, ActionKind
from .boards import BOARDS, Board
from .errors import (
    GameOverError,
    IllegalActionError,
    InvalidNotationError,
    InvalidRulesError,
    PlayerError,
    RulesError,
    UnknownVariantError,
    WordedError,
    Wording,
)
from .game import Game, Outcome, Phase, Reason, Side
from .notation import (
    JumpPosition,
    MorrisPosition,
    ParsedAction,
    format_mill_counts,
    jump_from_text,
    jump_to_text,
    morris_from_fen,
    morris_to_fen,
    parse_jump_action,
    parse_mill_counts,
    parse_morris_action,
)
from .presets import PRESETS, describe, preset
from .rules import AllInMills, BoardFull, Flying, NoCaptureEnd, Removals, Rules
from .variants import game_from_position, new_game

__all__ = [
    "Action", "ActionKind", "AllInMills", "BOARDS", "Board", "BoardFull", "PlayerError", "RulesError",
    "JumpPosition", "MorrisPosition",
    "Flying", "Game", "GameOverError", "IllegalActionError", "InvalidNotationError", "InvalidRulesError",
    "NoCaptureEnd", "Outcome", "PRESETS", "ParsedAction", "Phase", "Reason", "Removals",
    "Rules", "Side", "UnknownVariantError", "WordedError", "Wording", "describe", "format_mill_counts",
    "game_from_position", "jump_from_text", "jump_to_text", "morris_from_fen", "morris_to_fen",
    "new_game", "parse_jump_action", "parse_mill_counts", "parse_morris_action", "preset",
]
