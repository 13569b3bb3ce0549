"""The searching player in a child process: the request line, the child's loop, the player."""

from __future__ import annotations

import io
import itertools
import sys
import threading

import pytest
from navakankari.engine.player import Player
from navakankari.engine.presets import preset
from navakankari.engine.search_process import (
    SearchProcessError,
    SearchProcessPlayer,
    format_request,
    main,
    parse_request,
    serve,
)
from navakankari.engine.variants import game_from_position, new_game

# Nine Men's Morris, white to move in the moving phase (see tests/engine/test_external.py).
MOVING = "@O*OO**@/*O@@@OO@/O@O@**O@ b m s 9 0 9 0 0 0 0 0 0 0 0 1 10"


def _played(game, texts):
    for text in texts:
        game.push(game.parse_action(text))
    return game


@pytest.mark.parametrize("start, moves", [
    (None, "d6 d2 f4 b4 d5 d3 e4".split()),  # e4 closes a mill: a removal is due
    (MOVING, []),
])
def test_a_request_reads_back_as_the_same_game(start, moves):
    rules = preset("nine-mens-morris")
    game = _played(new_game(rules) if start is None else game_from_position(rules, start), moves)
    for seed in (None, 0, 2 ** 63 - 1):
        ident, back, seed_back = parse_request(format_request(7, game, seed))
        assert ident == 7 and seed_back == seed
        assert back.position() == game.position()
        assert [a.text for a in back.history] == [a.text for a in game.history]
        assert back.rules == game.rules
        assert format_request(7, back, seed) == format_request(7, game, seed)


@pytest.mark.parametrize("line", ["bestmove 1 d6", "go x {}", "go 1 {not json", 'go 1 {"rules": {}}',
                                  "go 1 []"])
def test_a_bad_request_is_one_clear_error(line):
    with pytest.raises(SearchProcessError, match="request|not a request"):
        parse_request(line)


@pytest.mark.parametrize("seed", ["-1", '"7"', "true", str(2 ** 63), "1.5"])
def test_a_request_s_seed_is_a_whole_number_in_range(seed):
    line = format_request(3, new_game("nine-mens-morris"), 5).replace('"seed":5', f'"seed":{seed}')
    with pytest.raises(SearchProcessError, match="request 3: the seed must be a whole number"):
        parse_request(line)


def test_the_child_answers_each_request_and_leaves_at_the_end_of_its_input():
    game = new_game("nine-mens-morris")
    lines = io.StringIO(f"{format_request(1, game)}\ngo 2 nonsense\ngo\n")
    out = io.StringIO()
    serve(1, lines, out, seed=3)  # returns: the input ended
    ready, first, second, third = out.getvalue().splitlines()
    assert ready == "ready"
    word, ident, text = first.split()
    assert (word, ident) == ("bestmove", "1") and game.parse_action(text)
    assert second.startswith("error 2 request 2: unreadable")
    assert third.startswith("error ? not a request")


def test_a_stopped_request_is_answered_at_once_with_a_legal_action():
    game = new_game("nine-mens-morris")
    lines = io.StringIO(f"{format_request(1, game)}\nstop 1\nquit\ngo 9 never read\n")
    out = io.StringIO()
    serve(6, lines, out)  # level 6 would think 2 s; the stop (or the quit) ends it
    ready, word, ident, text = out.getvalue().split()
    assert ready == "ready"
    assert (word, ident) == ("bestmove", "1") and game.parse_action(text)


def test_the_child_refuses_bad_arguments(capsys):
    assert main(["nine"]) == 2
    assert main(["7"]) == 2
    assert "usage:" in capsys.readouterr().err


def test_the_player_searches_in_a_child_and_ends_it_on_close():
    player = SearchProcessPlayer(1, seed=1)
    game = new_game("nine-mens-morris")
    try:
        action = player.choose(game)
        pid = player.pid
        assert pid is not None and action in game.legal_actions()
        game.push(action)
        assert player.choose(game) in game.legal_actions()
        assert player.pid == pid  # one child for the whole game
        assert len(game.history) == 1  # the game passed in is never changed
    finally:
        player.close()
    assert player.pid is None


def test_the_child_runs_below_its_parent_when_asked():
    """A board's daemon asks for its search to run below the loop that reads the sensors."""
    import os

    player = SearchProcessPlayer(1, seed=1, nice=7)
    try:
        player.choose(new_game("nine-mens-morris"))
        parent = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, player.pid) == min(19, parent + 7)
    finally:
        player.close()
    assert main(["1", "--nice=x"]) == 2


def test_a_stop_ends_the_childs_search():
    player = SearchProcessPlayer(6)
    stop = threading.Event()
    stop.set()  # before the answer: the child is told to stop at once
    game = new_game("nine-mens-morris")
    try:
        assert player.choose(game, stop) in game.legal_actions()
    finally:
        player.close()


def _child(code: str, ready: bool = True) -> list[str]:
    """A stand-in child running `code` (after saying `ready`, as the real one does)."""
    return [sys.executable, "-c", ("print('ready', flush=True)\n" if ready else "") + code]


def test_a_child_that_dies_is_an_error_and_the_next_request_starts_a_fresh_one():
    player = SearchProcessPlayer(1, argv=_child("import sys; sys.stdin.readline(); sys.exit(3)"))
    game = new_game("nine-mens-morris")
    with pytest.raises(SearchProcessError, match=r"computer:1: the search process failed .*"
                                                 r"exit code 3.* in position "):
        player.choose(game)
    assert player.pid is None
    player.argv = SearchProcessPlayer(1).argv  # the real child, started afresh
    try:
        assert player.choose(game) in game.legal_actions()
    finally:
        player.close()


def test_a_child_that_answers_an_illegal_action_is_ended():
    code = "import sys; sys.stdin.readline(); print('bestmove 1 a1-a4', flush=True); sys.stdin.readline()"
    player = SearchProcessPlayer(1, argv=_child(code))
    with pytest.raises(SearchProcessError, match="answered 'a1-a4'"):
        player.choose(new_game("nine-mens-morris"))
    assert player.pid is None


def test_a_child_that_does_not_answer_in_time_is_ended():
    clock = itertools.count(0.0, 100.0).__next__  # every reading is 100 s on: no real wait
    player = SearchProcessPlayer(1, argv=_child("import sys; sys.stdin.read()"), clock=clock)
    with pytest.raises(SearchProcessError, match="did not answer in time"):
        player.choose(new_game("nine-mens-morris"))
    assert player.pid is None


def test_a_child_that_never_says_ready_is_ended():
    clock = itertools.count(0.0, 100.0).__next__  # every reading is 100 s on: no real wait
    player = SearchProcessPlayer(1, argv=_child("import sys; sys.stdin.read()", ready=False),
                                 clock=clock, start_timeout=50)
    with pytest.raises(SearchProcessError, match="computer:1: the search process did not start"):
        player.choose(new_game("nine-mens-morris"))
    assert player.pid is None


def test_the_budget_counts_from_the_childs_ready_not_from_its_start(tmp_path):
    """On a slow machine (an emulated Pi) the child's start alone outlasts a level's budget
    and grace: here the clock reads 1000 s on as soon as the child runs, and the search is
    still asked for and answered."""
    started = tmp_path / "started"
    code = (f"import pathlib, runpy, sys; pathlib.Path({str(started)!r}).touch(); "
            "sys.argv = ['search_process', '1']; "
            "runpy.run_module('navakankari.engine.search_process', run_name='__main__')")
    player = SearchProcessPlayer(1, argv=[sys.executable, "-c", code], start_timeout=10_000,
                                 clock=lambda: 1000.0 if started.exists() else 0.0)
    game = new_game("nine-mens-morris")
    try:  # with a stop event, as the daemon asks: the deadline is read every 50 ms
        assert player.choose(game, threading.Event()) in game.legal_actions()
    finally:
        player.close()


def test_the_childs_error_keeps_the_child(caplog):
    code = ("import sys\nfor line in sys.stdin:\n"
            "    print('error ' + line.split()[1] + ' no such thing', flush=True)\n")
    player = SearchProcessPlayer(1, argv=_child(code))
    try:
        with pytest.raises(SearchProcessError, match="computer:1: the search process refused "
                                                     "the request$"):
            player.choose(new_game("nine-mens-morris"))
        assert "no such thing" in caplog.text  # the child's own words, for the log only
        assert player.pid is not None
    finally:
        player.close()


def test_same_choice_as_the_player_in_process():
    """The child is the same player: at a fixed depth and seed it chooses the same."""
    game = _played(new_game("nine-mens-morris"), "d6 d2 f4".split())
    player = SearchProcessPlayer(3, seed=5)
    try:
        assert player.choose(game) == Player(3, seed=5).choose(game)
    finally:
        player.close()
