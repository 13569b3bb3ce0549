import random
import threading

import pytest
from navakankari.engine import core
from navakankari.engine.actions import ActionKind
from navakankari.engine.errors import GameOverError
from navakankari.engine.evaluate import PIECE, evaluate
from navakankari.engine.player import MAX_LEVEL, Player
from navakankari.engine.presets import PRESETS, preset
from navakankari.engine.search import MATE_BOUND, WIN, Searcher
from navakankari.engine.variants import game_from_position, new_game
from search_helpers import morris_position


class StepClock:
    """A clock that moves on by `step` seconds every time it is read."""

    def __init__(self, step: float = 0.01) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def max_player(seed: int = 0) -> Player:
    # Two seconds of budget at 10 ms a clock read: about 100 checks of 128 nodes each.
    return Player(MAX_LEVEL, seed=seed, clock=StepClock(0.01))


# -- tactics -------------------------------------------------------------------------------
def test_closes_a_mill_in_one_when_moving():
    # White b6 f6 and d7: d7-d6 closes the row, and black's d5-d6 would block it next.
    game = morris_position("nine-mens-morris", "b6 f6 d7 g1 b2", "d5 c3 e3 a4 g4 f2")
    info = max_player().think(game)
    assert info.action.text == "d7-d6"
    assert info.score > 0
    assert info.pv[1].kind == ActionKind.REMOVE  # the removal is the same side's next action


def test_closes_a_mill_in_one_when_placing():
    game = morris_position("navakankari", "d6 d5 a1", "b2 f4 c3", hands=(6, 6))
    info = Searcher().search(game, max_depth=1)
    assert info.action.text == "d7"
    assert info.score > PIECE // 2


def test_finds_the_fork_that_forces_a_mill_in_three_plies():
    # Placing a7 threatens a7-d7-g7 and a7-a4-a1; black can block only one. At depth 3
    # (place, block, close and remove) and 5 the gain is proven. (Deeper, the pebble won
    # on the corners is weighed against the mobility given up, and other placements come
    # close: mobility weighs a fifth of a pebble a step.)
    game = morris_position("nine-mens-morris", "d7 a4", "b2 f6", hands=(7, 7))
    for depth in (3, 5):
        info = Searcher().search(game, max_depth=depth)
        assert info.action.text == "a7"
        assert info.score > PIECE // 2
        assert info.pv[3].kind == ActionKind.REMOVE  # a7, a block, the other mill, its removal


def test_blocks_a_mill_it_can_prevent_when_moving():
    # Black threatens b6-d6 closing d7-d6-d5; only f6-d6 stops it.
    game = morris_position("nine-mens-morris", "f6 g1 c3 d2", "d7 d5 b6 a1")
    assert max_player().choose(game).text == "f6-d6"
    assert Searcher().search(game, max_depth=2).action.text == "f6-d6"


def test_blocks_a_mill_it_can_prevent_when_placing():
    # Black threatens a7; white has nothing to answer with.
    game = morris_position("nine-mens-morris", "b4 e4", "d7 g7 e3", hands=(7, 6))
    assert max_player().choose(game).text == "a7"
    assert Searcher().search(game, max_depth=2).action.text == "a7"


def test_never_lets_a_mill_in_one_through_on_random_positions():
    """Wherever the opponent threatens one mill that an action of ours can block, material
    is level and we have no mill of our own to close, the chosen action either blocks or
    answers with a mill threat of its own (a trade, not a blunder)."""
    rules = preset("nine-mens-morris")
    rng = random.Random(7)
    checked = 0
    for _ in range(150):
        game = new_game(rules)
        for _ in range(rng.randrange(6, 40)):
            actions = game.legal_actions()
            if not actions:
                break
            game.push(rng.choice(actions))
        if game.outcome() is not None or game.pending_removals:
            continue
        if _mill_in_one(game) or len(_closing_points(_flipped(game))) != 1:
            continue
        s, o = game.turn, game.turn.other
        if game.on_board(s) + game.in_hand(s) != game.on_board(o) + game.in_hand(o):
            continue
        safe = [a for a in game.legal_actions() if not _after_lets_mill(game, a)]
        if not safe or len(safe) == len(game.legal_actions()):
            continue
        action = Searcher().search(game, max_depth=3).action
        if _after_lets_mill(game, action):
            game.push(action)
            assert _closing_points(_flipped(game)), (game.position(), action)
            game.pop()
        checked += 1
    assert checked >= 5


def _flipped(game):
    """The position with the other side to act (to ask what it threatens)."""
    fields = game.position().split()
    fields[1] = "b" if fields[1] == "w" else "w"
    return game_from_position(game.rules, " ".join(fields))


def _closing_points(game) -> set[int]:
    """Points where the side to act can close a mill now."""
    turn = game.turn
    points = set()
    for a in game.legal_actions():
        game.push(a)
        if game.turn == turn and game.pending_removals:
            points.add(a.target)
        game.pop()
    return points


def _mill_in_one(game) -> bool:
    return bool(_closing_points(game))


def _after_lets_mill(game, action) -> bool:
    game.push(action)
    try:
        return game.outcome() is None and _mill_in_one(game)
    finally:
        game.pop()


# -- the removal keeps the sign ------------------------------------------------------------
def test_a_removal_does_not_flip_the_sign():
    # White places d7 (closing d7-d6-d5), then removes. Depth 1 is one ply for white: the
    # placement and its removal; a sign flipped at the removal would shun the mill.
    game = morris_position("nine-mens-morris", "d6 d5 a1", "b2 f4 c3", hands=(6, 6))
    info = Searcher().search(game, max_depth=1)
    assert info.action.text == "d7"
    assert info.score > PIECE // 2
    game.push(info.action)
    assert game.turn == 0 and game.pending_removals == 1
    at_removal = Searcher().search(game, max_depth=1)
    assert at_removal.action.kind == ActionKind.REMOVE
    assert at_removal.score > PIECE // 2
    # The removal's score is the static score after it, seen from black, negated.
    game.push(at_removal.action)
    assert -evaluate(game) == at_removal.score


def test_pending_removal_position_is_scored_for_the_remover():
    # White takes a pebble and leads by one: the score is white's, the remover's.
    game = morris_position("nine-mens-morris", "a7 d7 g7 b2 g1", "c3 e3 f6 a1 b6", pending=1)
    info = Searcher().search(game, max_depth=2)
    assert info.action.kind == ActionKind.REMOVE
    assert info.score > 0
    # With four against four, the removal leads into three against four, which the endgame
    # database holds: there black, flying, holds the draw whatever white takes.
    game = morris_position("nine-mens-morris", "a7 d7 g7 b2", "c3 e3 f6 a1", pending=1)
    info = Searcher().search(game, max_depth=2)
    assert info.action.kind == ActionKind.REMOVE and info.score == 0


def test_prefers_the_quicker_win():
    # Black has three pebbles (flying) and white can win at once by closing a mill: the
    # removal leaves black with two.
    game = morris_position("nine-mens-morris", "a7 d7 g4 b2 d2", "c3 e3 f6")
    info = Searcher().search(game, max_depth=4)
    assert info.action.text == "g4-g7"
    assert info.score == WIN - 2  # the move, then the removal
    assert info.score >= MATE_BOUND


# -- always a legal action -------------------------------------------------------------------
def _random_positions(name: str, count: int, seed: int):
    rules = preset(name)
    rng = random.Random(seed)
    for _ in range(count):
        game = new_game(rules)
        for _ in range(rng.randrange(0, 80)):
            actions = game.legal_actions()
            if not actions:
                break
            game.push(rng.choice(actions))
        if game.legal_actions():
            yield game


@pytest.mark.parametrize("name", list(PRESETS))
def test_always_answers_a_legal_action(name):
    for n, game in enumerate(_random_positions(name, 6, seed=len(name))):
        before = game.position()
        player = Player(1 + n % MAX_LEVEL, seed=n, clock=StepClock(0.05))
        action = player.choose(game)
        assert action in game.legal_actions()
        assert game.position() == before  # the caller's game is untouched


def test_a_finished_game_raises_a_narrow_error():
    game = morris_position("nine-mens-morris", "a7 d7 g7", "c3 e3")
    assert game.outcome() is not None
    with pytest.raises(GameOverError):
        Player(1).choose(game)
    with pytest.raises(GameOverError):
        Searcher().search(game)


# -- stopping --------------------------------------------------------------------------------
def test_a_set_stop_event_still_gets_a_legal_action():
    game = new_game(preset("nine-mens-morris"))
    stop = threading.Event()
    stop.set()
    info = Player(MAX_LEVEL, clock=lambda: 0.0).think(game, stop)
    assert info.action in game.legal_actions()
    assert info.stopped and info.depth == 0
    assert info.nodes <= 128


@pytest.mark.parametrize("native", [False, True])
def test_stop_mid_search_ends_at_the_next_check(native):
    # The Python search looks at the clock every 128 nodes, the C core every CHECK_EVERY.
    every = core.CHECK_EVERY if native and core.available() else 128
    game = new_game(preset("nine-mens-morris"))
    stop = threading.Event()
    reads = []

    def clock() -> float:  # time stands still; the stop comes on the 20th read
        reads.append(1)
        if len(reads) == 20:
            stop.set()
        return 0.0

    info = Searcher(native=native).search(game, clock=clock, stop=stop)
    assert info.stopped and info.depth >= 1
    assert len(reads) <= 22
    assert info.nodes <= 22 * every
    assert info.action in game.legal_actions()


def test_player_stop_method_ends_the_search():
    game = new_game(preset("navakankari"))
    player = Player(MAX_LEVEL)

    def clock() -> float:
        player.stop()
        return 0.0

    player.clock = clock
    info = player.think(game)
    assert info.stopped and info.nodes <= 128


@pytest.mark.parametrize("number", range(1, MAX_LEVEL + 1))
def test_each_level_keeps_its_budget(number):
    game = game_from_position(preset("nine-mens-morris"),
                              "**O@O*@*/*@@*O@@O/O@O*@O@O w m s 8 0 9 0 0 0 0 0 0 0 0 0 1")
    clock = StepClock(0.002)
    player = Player(number, seed=1, clock=clock)
    info = player.think(game)
    assert info.seconds <= player.budget


@pytest.mark.parametrize("quiescence", [False, True])
def test_morris_quiescence_option_keeps_the_tactics(quiescence):
    game = morris_position("nine-mens-morris", "b6 f6 d7 g1 b2", "d5 c3 e3 a4 g4 f2")
    searcher = Searcher(morris_quiescence=quiescence)
    assert searcher.search(game, max_depth=3).action.text == "d7-d6"
    game = morris_position("nine-mens-morris", "f6 g1 c3 d2", "d7 d5 b6 a1")
    assert searcher.search(game, max_depth=3).action.text == "f6-d6"


# -- odd and even depths -------------------------------------------------------------------
def test_an_even_depth_sees_a_threat_made_on_its_last_ply():
    # White's g4-g1 lets black answer with a threat white cannot block. Depth 4 ends on
    # black's answer: when the static score took that threat for a mere tempo, the even
    # depths chose g4-g1 while the odd ones did not; now every depth from 4 to 6 agrees.
    # (Depths 2 and 3 prefer g4-g1 for its mobility, before the threat is in reach.)
    game = game_from_position(preset("navakankari"),
                              "@OOO@O@O/**@***O*/O@O*@O@@ w m s 9 0 8 0 0 0 0 0 0 0 0 2 11")
    for depth in range(4, 7):
        assert Searcher().search(game, max_depth=depth).action.text == "b4-b2", depth


# -- the table and the game's history ------------------------------------------------------
def test_a_repetition_draw_is_seen_past_a_table_entry():
    # White is a pebble up. The searcher has scored the start position in an earlier search;
    # after two rounds of shuffling, black's d1-g1 brings it back a third time: a draw,
    # whatever the table remembers of that position. (Only positions reached by moves
    # count, so the start position is reached by d1-g1 too.)
    game = morris_position("nine-mens-morris", "a7 d7 b4 f4 d2 e3", "g7 d1 c5 d5", side="b")
    game.play("d1-g1")
    searcher = Searcher()
    assert searcher.search(game, max_depth=4).score > PIECE // 2
    game.play_record("b4-b6 g1-d1 b6-b4 d1-g1 b4-b6 g1-d1 b6-b4")
    info = searcher.search(game, max_depth=2, all_root_scores=True)
    scores = {a.text: s for a, s in info.root_scores}
    assert scores["d1-g1"] == 0
    assert info.action.text == "d1-g1"  # a pebble down, black takes the draw
