"""The search's principal-variation windows, reductions, stop rule and use of an unfinished
iteration, on positions with known answers."""

import random

import pytest
from navakankari.engine.evaluate import evaluate
from navakankari.engine.game import Game
from navakankari.engine.presets import preset
from navakankari.engine.search import INF, WIN, Searcher, worth_starting
from navakankari.engine.variants import game_from_position, new_game
from search_helpers import morris_position, random_playout

# Depth 1 places on d1; depth 2 sees that a7 is better.
DISAGREE = "@@**O**@/**O***@O/OO@**@** w p p 5 3 6 3 0 0 0 0 0 0 0 0 7"


def _minimax(game: Game, depth: int, ply: int) -> int:
    """Plain negamax without pruning or table: the value the search must reproduce."""
    done = game.ended_by_rule()
    if done is None and depth > 0 and not game.legal_actions():
        done = game.outcome()
    if done is not None:
        if done.winner is None:
            return 0
        return WIN - ply if done.winner == game.turn else -(WIN - ply)
    if depth <= 0:
        return evaluate(game)
    best = -INF
    turn = game.turn
    for a in game.legal_actions():
        game.push(a)
        if game.turn == turn:
            score = _minimax(game, depth, ply + 1)
        else:
            score = -_minimax(game, depth - 1, ply + 1)
        game.pop()
        best = max(best, score)
    return best


def _random_games(count: int, seed: int, low: int, high: int):
    rules = preset("nine-mens-morris")
    rng = random.Random(seed)
    while count:
        game = random_playout(new_game(rules), rng, rng.randrange(low, high))
        if game.legal_actions():
            count -= 1
            yield game


@pytest.mark.parametrize("low, high", [(6, 16), (30, 80)])
def test_null_windows_give_the_minimax_value(low, high):
    # Without reductions, principal variation search is exact: the same score as a plain
    # negamax over every action (placing and moving positions, removals included).
    for game in _random_games(6, seed=low, low=low, high=high):
        searcher = Searcher()
        searcher.lmr_after = 0
        for depth in (1, 2, 3):
            info = searcher.search(game, max_depth=depth)
            assert info.score == _minimax(game, depth, 0), (game.position(), depth)


def test_reductions_keep_the_forced_mills():
    # White can close a mill now (d7-d6) or lose a pebble; reduced late moves do not hide it.
    game = morris_position("nine-mens-morris", "b6 f6 d7 g1 b2", "d5 c3 e3 a4 g4 f2")
    for depth in (3, 4, 5):
        assert Searcher().search(game, max_depth=depth).action.text == "d7-d6"


class _StopWhen:
    def __init__(self, test) -> None:
        self.test = test

    def is_set(self) -> bool:
        return self.test()


def _stopped_in_second_iteration(partial_text: str | None) -> tuple[Searcher, object]:
    game = game_from_position(preset("nine-mens-morris"), DISAGREE)
    # The Python search: its table and partial answer are read between two nodes.
    searcher = Searcher(check_every=1, native=False)
    root = game.key

    def test() -> bool:
        entry = searcher.tt.get(root)
        if entry is None or entry[0] != 1:
            return False  # the first iteration has not finished
        partial = searcher._partial
        if partial_text is None:
            return partial is None
        return partial is not None and partial[0].text == partial_text

    return searcher, searcher.search(game, stop=_StopWhen(test))


def test_the_depths_disagree_on_the_example():
    game = game_from_position(preset("nine-mens-morris"), DISAGREE)
    assert Searcher().search(game, max_depth=1).action.text == "d1"
    assert Searcher().search(game, max_depth=2).action.text == "a7"


def test_an_unfinished_iteration_that_found_a_better_action_answers_with_it():
    _, info = _stopped_in_second_iteration("a7")
    assert info.stopped and info.depth == 1
    assert info.action.text == "a7"


def test_an_iteration_stopped_before_its_first_action_keeps_the_last_answer():
    _, info = _stopped_in_second_iteration(None)
    assert info.stopped and info.depth == 1
    assert info.action.text == "d1"


def test_a_new_iteration_starts_when_its_first_part_fits_the_budget():
    # The last iteration took 0.1 s, four times the one before: the next is predicted at
    # 0.4 s, of which the first 20 % must end before 95 % of the budget.
    assert worth_starting(0.86, 1.0, 0.1, 0.025)
    assert not worth_starting(0.88, 1.0, 0.1, 0.025)
    # A cheap last step does not promise a cheap next one: growth counts at least 1.5.
    assert worth_starting(0.91, 1.0, 0.1, 0.1)
    assert not worth_starting(0.93, 1.0, 0.1, 0.1)
    # Unknown growth (one iteration timed) counts as 4.
    assert worth_starting(0.86, 1.0, 0.1, 0.0)
    assert not worth_starting(0.88, 1.0, 0.1, 0.0)
