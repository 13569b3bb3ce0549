"""A game's seed: the same seed and the same person's moves meet the same computer moves,
in this process and in the board's search process, and a record's seed plays them again."""

from __future__ import annotations

import random

from navakankari.engine.game import Game
from navakankari.engine.player import Player
from navakankari.engine.record import parse_record, format_record, record_of
from navakankari.engine.repeat import repeat_computer, repeatable_level
from navakankari.engine.search_process import SearchProcessPlayer
from navakankari.engine.variants import new_game
from navakankari.firmware.core.players import computer_turn


def play(player, seed: int, person: int, plies: int = 24, variant: str = "navakankari") -> Game:
    """A game of a person (white: their moves from the seed `person`) against `player`
    (black), whose turns follow the game's `seed`."""
    game = new_game(variant)
    choose = random.Random(person)
    while len(game.history) < plies and game.outcome() is None:
        if game.turn.name == "WHITE":
            game.push(choose.choice(game.legal_actions()))
        else:
            for action in computer_turn(player, game, seed=seed):
                game.push(action)
    return game


def moves(game: Game) -> list[str]:
    return [a.text for a in game.history]


def test_the_same_seed_and_moves_meet_the_same_computer_moves() -> None:
    frozen = lambda: 0.0  # noqa: E731  the depth cap, never the clock, ends each search
    for level in (1, 2, 3):  # slips, a margin, and only the best actions
        player = Player(level, clock=frozen)  # one player for every game, as on the board
        first = play(player, seed=11, person=4)
        assert moves(play(player, seed=11, person=4)) == moves(first)
        assert moves(play(Player(level, clock=frozen), seed=11, person=4)) == moves(first)
    player = Player(1, clock=frozen)  # level 1 plays at random often: another seed, another game
    assert moves(play(player, seed=12, person=4)) != moves(play(player, seed=11, person=4))


def test_the_board_s_search_process_follows_the_seed_as_this_process_does() -> None:
    child = SearchProcessPlayer(2)
    try:
        first = play(child, seed=2026, person=9, plies=30)
        again = play(child, seed=2026, person=9, plies=30)
    finally:
        child.close()
    assert moves(again) == moves(first)
    record = parse_record(format_record(record_of(first, white="hand", black="computer:2",
                                                  seed=2026)))
    assert record.seed == 2026
    repeated = repeat_computer(record)
    assert repeated.repeats and repeated.checked >= 10
    other = repeat_computer(parse_record(format_record(record_of(
        play(Player(1), seed=5, person=9, plies=30), white="hand", black="computer:1",
        seed=6))))
    assert not other.repeats and other.differs is not None and other.differs[1] == "black"


def test_only_the_levels_that_end_at_their_depth_cap_are_played_again() -> None:
    assert [repeatable_level(n) for n in ("computer:1", "computer:4", "computer:5", "computer:6",
                                          "hand", "computer:adaptive", "engine:/bin/x", "??")] == \
        [1, 4, None, None, None, None, None, None]
    assert repeatable_level("computer:adaptive", "4") == 4
    assert [repeatable_level("computer:adaptive", t) for t in ("5", "6", "0", "x", "٣")] == \
        [None, None, None, None, None]
