import pytest

from navakankari.engine.game import game_from_position, new_game
from navakankari.engine.perft import perft
from navakankari.engine.presets import preset


@pytest.mark.parametrize(
    "variant, counts",
    [
        ("nine-mens-morris", [24, 552, 12144, 255024]),
        ("lasker", [24, 552, 13552]),
    ],
)
def test_perft_from_the_empty_board(variant, counts):
    game = new_game(preset(variant))
    assert [perft(game, d) for d in range(1, len(counts) + 1)] == counts
    assert game.history == []


def test_perft_leaves_the_position_unchanged():
    rules = preset("nine-mens-morris")
    fen = "**O@O*@*/*@@*O@@O/O@O*@O@O w m s 8 0 9 0 0 0 0 0 0 0 0 0 1"
    game = game_from_position(rules, fen)
    key = game.key
    assert perft(game, 4) == 1399
    assert game.position() == fen and game.key == key


def test_a_finished_game_counts_as_one_leaf():
    # White to move has three pebbles but black has just two left: the game is over.
    game = game_from_position(
        preset("nine-mens-morris"), "O*O*****/********/@******@ w m s 2 0 2 0 0 0 0 0 0 0 0 0 9")
    assert game.legal_actions() == []
    assert perft(game, 1) == 1
    assert perft(game, 3) == 1
