"""The C core searches exactly as the Python search does: the same action, score, depth,
nodes and principal variation to a fixed depth, from every phase of every rule set it
serves (capture counts and remembered moves included), with repetitions, the endgame
databases and a searcher kept from move to move."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from navakankari.engine import core, endgame
from navakankari.engine.evaluate import evaluate
from navakankari.engine.game import Game
from navakankari.engine.perft import perft
from navakankari.engine.presets import PRESETS, preset
from navakankari.engine.rules import AllInMills, BoardFull, Flying, Removals
from navakankari.engine.search import Searcher
from navakankari.engine.variants import game_from_position, new_game
from search_helpers import random_playout

pytestmark = pytest.mark.skipif(
    not core.available() and not os.environ.get("CI"),
    reason="the C core is not built here (navakankari build-engine)")

SERVED = [name for name, rules in PRESETS.items() if core.why_not(rules) is None]
#: Rule sets beyond the presets that mix their options: remembered moves while placing,
#: capture counts with flying and per-move removals, both at once.
MIXED = {
    "lasker-reform": preset("lasker").replace(name="lasker-reform", no_immediate_reform=True),
    "twelve-limited": preset("twelve-mens-morris").replace(
        name="twelve-limited", mill_capture_limit=2, removals=Removals.ONE_PER_MILL),
    "nine-both": preset("nine-mens-morris").replace(
        name="nine-both", mill_capture_limit=1, no_immediate_reform=True, flying=Flying.BOTH,
        all_in_mills=AllInMills.NONE),
}
#: Where the moving phase is long enough for repetitions and the quiet-move count.
MOVING = "**O@O*@*/*@@*O@@O/O@O*@O@O w m s 8 0 9 0 0 0 0 0 0 0 0 0 1"


def test_the_core_is_built_where_the_suite_runs():
    assert core.available(), "the C core was not loaded: navakankari build-engine"


def test_it_serves_every_rule_set_of_the_morris_family():
    assert set(SERVED) == {name for name, rules in PRESETS.items() if rules.game == "morris"}
    assert "morris family" in core.why_not(preset("nau-keti-keta"))
    assert core.core_for(new_game(preset("nau-keti-keta"))) is None
    assert core.serves(preset("navakankari")) and not core.serves(preset("nau-keti-keta"))
    assert "up to 15" in core.why_not(preset("navakankari").replace(mill_capture_limit=16))


def _played(name: str, seed: int, plies: int) -> Game:
    """A game after `plies` random actions (fewer if it ends)."""
    return random_playout(new_game(MIXED.get(name) or preset(name)), random.Random(seed), plies)


def _same_search(game: Game, depth: int, all_root_scores: bool = False) -> None:
    fast = Searcher().search(game.copy(), max_depth=depth, all_root_scores=all_root_scores)
    slow = Searcher(native=False).search(game.copy(), max_depth=depth,
                                         all_root_scores=all_root_scores)
    assert (fast.action, fast.score, fast.depth, fast.nodes, fast.pv) == \
        (slow.action, slow.score, slow.depth, slow.nodes, slow.pv), game.position()
    assert fast.root_scores == slow.root_scores


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(SERVED + list(MIXED)), seed=st.integers(0, 10**6),
       plies=st.integers(0, 160), depth=st.integers(1, 4))
def test_a_fixed_depth_search_is_the_python_search(name, seed, plies, depth):
    game = _played(name, seed, plies)
    if game.legal_actions():
        _same_search(game, depth)


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(SERVED), seed=st.integers(0, 10**6), plies=st.integers(0, 120))
def test_every_root_score_is_the_python_one(name, seed, plies):
    game = _played(name, seed, plies)
    if game.legal_actions():
        _same_search(game, 2, all_root_scores=True)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(SERVED + list(MIXED)), seed=st.integers(0, 10**6),
       plies=st.integers(0, 200))
def test_perft_the_static_score_and_the_databases_agree(name, seed, plies):
    game = _played(name, seed, plies)
    assert perft(game, 3) == perft(game, 3, native=False)
    c = core.core_for(game)
    assert c is not None
    c.set_position(game)
    assert [a.text for a in c.legal()] == [a.text for a in game.legal_actions()]
    assert c.evaluate() == evaluate(game)
    table = endgame.table_for(game.rules)
    bb = game._bb
    if table is not None and bb[0].bit_count() >= 3 and bb[1].bit_count() >= 3 \
            and not game.in_hand(0) and not game.in_hand(1):
        assert c.db_result() == table.result(game)


@pytest.mark.parametrize("name", SERVED + list(MIXED))
def test_every_action_keeps_the_key_the_python_game_has(name):
    # The key covers the whole rule state: pebbles, hands, removals owed, capture counts and
    # remembered moves. Whole random games, the same actions in both engines.
    for seed in range(25):
        rng = random.Random(seed)
        game = new_game(MIXED.get(name) or preset(name))
        c = core.core_for(game, tt_bits=1)
        c.set_position(game)
        for _ in range(400):
            actions = game.legal_actions()
            assert [a.text for a in c.legal()] == [a.text for a in actions], game.position()
            if not actions:
                break
            action = rng.choice(actions)
            game.push(action)
            assert c.push(action) == game.key, (name, seed, game.record())


@pytest.mark.parametrize("seed", range(6))
def test_three_against_three_and_four_are_looked_up_alike(seed):
    rng = random.Random(seed)
    rules = preset("nine-mens-morris")
    for _ in range(30):
        points = rng.sample(range(24), 7)
        mine = 3 if rng.random() < 0.5 else 4
        white, black = points[:mine], points[mine:]
        if rng.random() < 0.5:
            black = black[:3]  # three against three
        game = new_game(rules)
        game._bb[0] = sum(1 << p for p in white)
        game._bb[1] = sum(1 << p for p in black)
        game._hand[0] = game._hand[1] = 0
        game._side = rng.randrange(2)
        # Near the quiet-move limit a database win may not be reached in time.
        game._quiet = rng.choice([0, rng.randrange(70, 100)])
        game._key = game._full_key()
        if game.outcome() is not None:
            continue
        game = game_from_position(rules, game.position())
        c = core.core_for(game)
        c.set_position(game)
        assert c.db_result() == endgame.table_for(rules).result(game)
        _same_search(game, 3)


def test_repetitions_draw_in_the_core_as_in_python():
    # Step back and forth until the position has occurred twice: the search must see the
    # third occurrence as a draw exactly where Python does.
    rules = preset("nine-mens-morris")
    game = game_from_position(rules, MOVING)
    rng = random.Random(5)
    for _ in range(40):
        game.push(rng.choice(game.legal_actions()))
        if not game.legal_actions():
            break
        assert game._rep, "no move was counted"
        _same_search(game, 3)


@pytest.mark.parametrize("side", ["w", "b"])
def test_the_core_scores_a_full_board_as_the_rules_do_whichever_side_began(side):
    """Under FIRST_LOSES, one placement before the board fills: the core and the Python
    search see the same loss for the side that placed first, white or black."""
    rules = preset("twelve-mens-morris").replace(board_full=BoardFull.FIRST_LOSES)
    start = new_game(rules).position().replace(" w ", f" {side} ", 1)
    game = game_from_position(rules, start)
    game.play_record("f2 f4 b6 c5 d3 g4 f6 d7 d1 b4 a4 d6 e3 e5 e4 g1 c4 b2 a1 c3 d5 d2 g7")
    _same_search(game, 2)
    info = Searcher().search(game.copy(), max_depth=2)
    game.push(info.action)
    assert game.outcome() is not None and game.outcome().winner != game.turn


def test_a_searcher_kept_from_move_to_move_plays_the_same_game():
    # The table, the history and the killers carry over: a whole game at depth 3.
    rules = preset("nine-mens-morris")
    game = new_game(rules)
    fast, slow = Searcher(), Searcher(native=False)
    for _ in range(70):
        if not game.legal_actions():
            break
        a = fast.search(game.copy(), max_depth=3)
        b = slow.search(game.copy(), max_depth=3)
        assert (a.action, a.score, a.nodes) == (b.action, b.score, b.nodes)
        game.push(a.action)


def test_a_stopped_search_answers_with_a_legal_action():
    game = game_from_position(preset("nine-mens-morris"), MOVING)
    now = [0.0]

    def clock() -> float:
        now[0] += 0.001  # each look at the clock is a millisecond later
        return now[0]

    info = Searcher().search(game, budget=0.5, clock=clock)
    assert info.stopped
    assert info.action in game.legal_actions()
    assert info.depth >= 1


def test_a_stop_request_ends_the_core_search():
    game = game_from_position(preset("nine-mens-morris"), MOVING)

    class StopAfter:
        def __init__(self) -> None:
            self.asked = 0

        def is_set(self) -> bool:
            self.asked += 1
            return self.asked > 20

    stop = StopAfter()
    info = Searcher().search(game, stop=stop)
    assert info.stopped and info.action in game.legal_actions()
    assert stop.asked == 21  # no look after the stop was seen


def test_an_interrupt_while_the_core_searches_reaches_the_caller():
    # Ctrl-C arrives as KeyboardInterrupt in the clock or stop look, inside a C callback.
    game = game_from_position(preset("nine-mens-morris"), MOVING)
    reads = [0]

    def clock() -> float:
        reads[0] += 1
        if reads[0] == 50:
            raise KeyboardInterrupt
        return 0.0

    searcher = Searcher()
    with pytest.raises(KeyboardInterrupt):
        searcher.search(game, budget=10.0, clock=clock)
    assert searcher.search(game, max_depth=2).depth == 2  # the core is ready again


def test_a_missing_database_is_logged_and_the_core_searches_on(monkeypatch, caplog):
    class Broken:
        """Tables whose file cannot be read (the root's own lookup, in Python, says nothing)."""

        three_four = True

        @property
        def table(self) -> bytes:
            raise endgame.EndgameDataError("cannot read the endgame database here")

        def result(self, game: Game) -> None:
            return None

    monkeypatch.setattr(endgame, "shared", lambda three_four=False: Broken())
    core._config.cache_clear()
    try:
        game = game_from_position(
            preset("nine-mens-morris"),
            "O****O**/*O*@*@**/*O*****@ b m s 4 0 3 0 0 0 0 0 0 0 0 0 1")
        with caplog.at_level("ERROR", logger="navakankari.engine.core"):
            info = Searcher().search(game, max_depth=4)
        assert info.action in game.legal_actions()
        assert "without the endgame databases" in caplog.text
    finally:
        core._config.cache_clear()


SIGNALLED = r"""
import os, signal, sys, threading, time
from navakankari.engine import core, new_game, preset
from navakankari.engine.search import Searcher
assert core.available(), "no core"
# Python's own Ctrl-C, even where this runs in the background of a shell, which ignores it.
signal.signal(signal.SIGINT, signal.default_int_handler)
threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
started = time.monotonic()
try:
    Searcher().search(new_game(preset("nine-mens-morris")), budget=20.0)
except KeyboardInterrupt:
    print(f"interrupted after {time.monotonic() - started:.2f}")
    sys.exit(0)
print("not interrupted")
sys.exit(1)
"""


def test_ctrl_c_ends_a_core_search_at_once():
    # A real SIGINT: Python raises it as the core's callback starts, before any line of it
    # runs, and ctypes would drop it; the search must still end with KeyboardInterrupt.
    proc = subprocess.run([sys.executable, "-c", SIGNALLED], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert float(proc.stdout.split()[-1]) < 5
    assert "Exception ignored" not in proc.stderr
