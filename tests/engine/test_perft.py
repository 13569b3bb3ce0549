import pytest
from navakankari.engine.perft import perft
from navakankari.engine.presets import preset
from navakankari.engine.variants import game_from_position, new_game


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


# Positions where mills close, removals are owed, all of a side stands in mills, a side flies
# and removals end the game. Every count was compared with Sanmill 7.4.6 (its legal-action
# list at every node of the tree, read with its `analyze` command) and the first one also with
# an independent reference; from these positions a dropped mill, a lost rule or a wrong flying
# threshold changes the counts, which it cannot do from the empty board before ply 5.
MIDGAME_PERFT = [
    pytest.param("@O*O*@O@/@O*O@**O/O@O@*@O@ w m s 9 0 9 0 0 0 0 0 0 0 0 0 1",
                 [9, 65, 531, 4041], id="crowded-moving"),
    pytest.param("***@@@**/**@***O*/O**@***O w m s 3 0 5 0 0 0 0 0 0 0 0 0 1",
                 [48, 398, 19020, 150870], id="white-flies"),
    pytest.param("***@@@**/**@***O*/O******O b m s 3 0 4 0 0 0 0 0 0 0 0 0 1",
                 [7, 357, 2336, 112416], id="both-nearly-flying"),
    pytest.param("********/@@*****@/O***OO*O w p p 4 2 3 2 0 0 0 0 0 0 0 0 1",
                 [17, 233, 3513, 40782], id="placing-all-in-mills"),
    pytest.param("***@@@**/**@**@O*/OO*@***O w m r 4 0 6 0 1 0 0 0 0 0 0 0 1",
                 [3, 23, 142, 1148], id="removal-owed"),
    pytest.param("@*****@@/****OO**/*OO**@** w p p 4 3 4 3 0 0 0 0 0 0 0 0 1",
                 [16, 218, 2834, 33766], id="placing-four-mills-open"),
]


@pytest.mark.parametrize("fen, counts", MIDGAME_PERFT)
def test_perft_from_positions_with_mills_removals_and_flying(fen, counts):
    game = game_from_position(preset("nine-mens-morris"), fen)
    assert [perft(game, d) for d in range(1, len(counts) + 1)] == counts


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
