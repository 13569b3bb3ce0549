"""A short game a person places against a seeded computer, for the tests of records whose
computer turns are played again from their seed."""

from __future__ import annotations

from navakankari.engine.game import Game
from navakankari.engine.player import Player
from navakankari.engine.variants import new_game
from navakankari.firmware.core.players import computer_turn

#: The person's placements, in order of preference: the first one free is played.
PLACES = ("d6", "f4", "d2", "b4", "a1", "g7", "a7", "g1", "c5", "e3")


def answered_placements(variant: str, player: Player, seed: int, turns: int = 4) -> Game:
    """`turns` placements of the person's (white), each answered by `player` following
    `seed`, whatever points its answers take."""
    game = new_game(variant)
    for _ in range(turns):
        free = {a.text for a in game.legal_actions()}
        game.play(next(p for p in PLACES if p in free))
        for action in computer_turn(player, game, seed=seed):
            game.push(action)
    return game
