import io
import re
import subprocess
import sys

import pytest

from navakankari.engine.game import Side
from navakankari.engine.player import Player
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.firmware.cli import main as cli
from navakankari.firmware.cli.terminal import play_terminal


def test_play_reads_actions_from_stdin_and_explains_bad_ones(monkeypatch, capsys):
    moves = "zz9\nd9\nd6\nd6\nmoves\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(moves))
    code = cli.main(["play", "--variant", "nine-mens-morris", "--black", "computer:1", "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0  # quit before the end: what the player asked for
    assert "not played: 'zz9' is not a point of the morris board" in out
    assert "not played: d6 is not legal here" in out
    assert out.count("not played:") == 3  # zz9, d9, and d6 again (occupied)
    assert "computer plays" in out
    assert "7  O-----------" not in out  # d6 is not a corner: the drawing follows the game
    assert re.search(r"6  \|   \.-------O-------\.   \|", out)
    assert "game abandoned" in out


def test_play_through_a_pipe_in_a_subprocess():
    script = "b4\nzz\nquit\n"
    proc = subprocess.run(
        [sys.executable, "-m", "navakankari.firmware.cli", "play", "--variant",
         "six-mens-morris", "--white", "computer:2", "--seed", "1"],
        input=script, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    assert proc.stdout.count("\ncomputer plays ") == 2  # before b4 and after it
    assert "not played: 'zz' is not a point of the six board" in proc.stdout


def test_a_terminal_game_runs_to_its_outcome():
    rules = preset("six-mens-morris")
    game = new_game(rules)
    out: list[str] = []

    def read(prompt: str) -> str:  # the human plays the first legal action, combined forms
        first = game.legal_actions()[0]
        return first.text

    outcome = play_terminal(rules, Player(1, seed=4), Side.WHITE, read, out.append, game)
    assert outcome is not None and outcome == game.outcome()
    assert out[-2].startswith("game over: ")
    assert out[-1] == f"record: {game.record()}"


def test_match_prints_times_and_ends_with_the_tally(capsys):
    code = cli.main(["match", "--variant", "six-mens-morris", "--white", "greedy",
                     "--black", "computer:1", "--games", "2", "--seed", "5",
                     "--budget-scale", "0.2"])
    captured = capsys.readouterr()
    assert code == 0
    lines = captured.out.strip().splitlines()
    m = re.fullmatch(r"white (\d+) draws (\d+) black (\d+)", lines[-1])
    assert m and sum(map(int, m.groups())) == 2
    assert "median" in captured.out and "max" in captured.out
    assert "2/2" in captured.err  # the progress bar
    assert re.search(r"^black computer:1: \d+ running mills closed .* in \d+ games$",
                     captured.out, re.M)


def test_match_rejects_an_unknown_player(capsys):
    assert cli.main(["match", "--white", "genius", "--black", "random"]) == 2
    assert "unknown player" in capsys.readouterr().err


@pytest.mark.parametrize("given, white, black", [
    (["--level", "1"], "hand", "computer:1"),
    (["--opponent", "random"], "hand", "random"),
    (["--side", "black", "--opponent", "computer:2"], "computer:2", "hand"),
    (["--side", "black"], "computer", "hand"),
])
def test_play_reads_the_former_side_opponent_and_level_and_says_what_to_write(
        monkeypatch, capsys, given, white, black):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "--variant", "six-mens-morris", *given, "--seed", "1"]) == 0
    captured = capsys.readouterr()
    assert "--side, --opponent and --level are deprecated and will be removed; write " \
        f"--white {white} --black {black}" in captured.err
    assert f"you play {'white' if white == 'hand' else 'black'}" in captured.out


@pytest.mark.parametrize("given, problem", [
    (["--white", "hand", "--black", "hand"], "not hand and hand"),
    (["--white", "computer:1", "--black", "random"], "not computer:1 and random"),
])
def test_play_needs_one_side_by_hand_and_one_for_the_computer(capsys, given, problem):
    assert cli.main(["play", *given]) == 2
    err = capsys.readouterr().err
    assert "one side is played by hand at the terminal" in err and problem in err


def test_a_running_mill_is_counted_for_the_side_that_closed_it():
    from navakankari.engine.variants import new_game
    from navakankari.firmware.cli.match import running_mills

    game = new_game("nine-mens-morris")
    for text in ("a7 b2 d7 f2 g7 xf2 f2 g1 d1 a1 b4 d2 e4 b6 c5 c4 c3 d3 e3 "
                 "d7-d6").split():  # white's mill a7 d7 g7 opens; no black pebble reaches d7
        game.play(text)
    assert running_mills(game) == (0, 0)
    game.push(game.legal_actions()[0])  # black moves
    game.play("d6-d7")  # and the same pebble closes the mill again
    assert running_mills(game) == (1, 0)
    game.push(game.legal_actions()[0])  # the pebble it takes
    assert running_mills(game) == (1, 0)
    assert running_mills(new_game("nine-mens-morris")) == (0, 0)
