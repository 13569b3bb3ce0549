"""The engine adapter against a fake engine that speaks Sanmill's console protocol."""

from __future__ import annotations

import os
import random
import re
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from navakankari.engine.external import (
    DEFAULT_GRACE,
    EnginePlayer,
    EngineSpec,
    ExternalEngineError,
    _same_position,
)
from navakankari.engine.player_spec import make_player
from navakankari.engine.presets import preset
from navakankari.engine.variants import game_from_position, new_game
from navakankari.firmware.cli.match import run_match

FAKE = Path(__file__).with_name("fake_engine.py")
NINE = preset("nine-mens-morris")


def fake(tmp_path: Path, mode: str = "legal") -> tuple[str, Path]:
    """An executable that runs the fake engine in `mode`, and the file it logs to."""
    log = tmp_path / f"{mode}.log"
    script = tmp_path / f"fake-{mode}"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} --mode {mode} --log {log}\n")
    script.chmod(0o755)
    return str(script), log


def player(tmp_path: Path, mode: str = "legal", query: str = "seconds=0.05"
           ) -> tuple[EnginePlayer, Path]:
    path, log = fake(tmp_path, mode)
    return EnginePlayer(f"engine:{path}?{query}"), log


def sent(log: Path) -> list[str]:
    return log.read_text().splitlines()


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# -- the spec --------------------------------------------------------------------------------
def test_spec_reads_settings_and_sends_sanmills_defaults():
    spec = EngineSpec.parse("engine:/opt/sanmill?seconds=0.5&Move%20Overhead=20")
    assert spec.path == "/opt/sanmill" and spec.seconds == 0.5 and spec.grace == DEFAULT_GRACE
    assert spec.setoptions() == [("SkillLevel", "30"), ("DeveloperMode", "false"),
                                 ("MoveTime", "1"), ("Move Overhead", "20")]
    own = EngineSpec.parse("engine:sanmill?SkillLevel=12&movetime=3&seconds=2.5")
    assert own.setoptions() == [("DeveloperMode", "false"), ("SkillLevel", "12"),
                                ("movetime", "3")]
    assert EngineSpec.parse("engine:x?seconds=2.5").setoptions()[-1] == ("MoveTime", "3")


@pytest.mark.parametrize("text", ["engine:", "engine:?SkillLevel=3", "engine:x?seconds=0",
                                  "engine:x?seconds=soon", "engine:x?grace=-1",
                                  "engine:x?SkillLevel", "engine:x?=3", "engine:x?a=1%0Ab"])
def test_spec_rejects_bad_text(text):
    with pytest.raises(ValueError, match=re.escape(repr(text))):
        EngineSpec.parse(text)


_names = st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)),
                 min_size=1).filter(lambda s: s.strip() != "" and s not in ("seconds", "grace"))
_values = st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)))


@given(path=st.text(st.characters(blacklist_characters="?\r\n", blacklist_categories=("Cs",)),
                    min_size=1).filter(lambda s: s.strip() == s),
       options=st.lists(st.tuples(_names, _values), max_size=4),
       seconds=st.floats(0.01, 60), grace=st.floats(0.01, 60))
def test_spec_text_round_trips(path, options, seconds, grace):
    spec = EngineSpec(path, tuple(options), float(f"{seconds:g}"), float(f"{grace:g}"))
    assert EngineSpec.parse(str(spec)) == spec


def test_missing_program_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="not a program that can be run"):
        make_player(f"engine:{tmp_path}/no-such-engine")
    with pytest.raises(ValueError, match="no such program is installed"):
        make_player("engine:no-such-engine-on-path")


def test_position_comparison_ignores_only_sanmills_own_fields():
    ours = "@*******/O*******/******** w p p 1 8 1 8 0 0 0 0 0 0 0 0 2"
    assert _same_position(ours, "@*******/O*******/******** w p p 1 8 1 8 0 0 0 0 0 0 0 0 3")
    # a removal pending after the last placement: Sanmill still says phase p
    done = "OO@*****/OO@*****/OO@*@*@* w m r 6 0 6 0 1 0 0 0 0 0 0 0 10"
    assert _same_position(done, done.replace(" m r ", " p r "))
    assert not _same_position(ours, ours.replace(" w ", " b "))
    assert not _same_position(ours, ours.replace("@*******/", "*@******/"))
    assert not _same_position(ours, ours.replace(" 1 8 1 8 ", " 1 8 1 7 "))


# -- playing ---------------------------------------------------------------------------------
def test_plays_a_game_with_the_protocol(tmp_path):
    engine, log = player(tmp_path)
    game = new_game(NINE)
    engine.new_game()
    while game.outcome() is None and len(game.history) < 60:
        game.push(engine.choose(game))  # both sides: every answer checked legal
    engine.close()
    lines = sent(log)
    assert lines[:5] == ["uci", "setoption name SkillLevel value 30",
                         "setoption name DeveloperMode value false",
                         "setoption name MoveTime value 1", "isready"]
    assert lines.count("ucinewgame") == 1  # the moves sent always extend the last list
    assert "position startpos" in lines
    last = [line for line in lines if line.startswith("position")][-1]
    assert last == "position startpos moves " + " ".join(a.text for a in game.history[:-1])
    assert lines.count("d") == lines.count("go") == len(game.history)
    assert lines[-1] == "quit"


def test_a_new_game_or_another_game_sends_ucinewgame(tmp_path):
    engine, log = player(tmp_path)
    game = new_game(NINE)
    game.play("d6")
    engine.choose(game)
    other = new_game(NINE)
    other.play("a1")
    engine.choose(other)  # not a continuation of the last game
    engine.new_game()
    engine.choose(other)
    engine.close()
    assert sent(log).count("ucinewgame") == 3


def test_a_game_from_a_position_is_sent_as_fen(tmp_path):
    engine, log = player(tmp_path)
    start = game_from_position(NINE, "OO******/@@******/******** w p p 2 7 2 7 0 0 0 0 0 0 0 0 3")
    start.play("a1")
    action = engine.choose(start)
    engine.close()
    assert action in start.legal_actions()
    first = [line for line in sent(log) if line.startswith("position")][0]
    assert first == ("position fen OO******/@@******/******** w p p 2 7 2 7 0 0 0 0 0 0 0 0 3"
                     " moves a1")


def test_a_stopped_search_answers_at_once(tmp_path):
    """`stop` set by the caller: the engine is told to stop and its answer is taken."""
    engine, log = player(tmp_path, "slow", "seconds=60")
    stop = threading.Event()
    stop.set()
    game = new_game(NINE)
    assert engine.choose(game, stop) in game.legal_actions()
    engine.close()
    assert sent(log)[-3:] == ["go", "stop", "quit"]


def test_stop_is_sent_after_the_thinking_time(tmp_path):
    engine, log = player(tmp_path, "slow", "seconds=0.05")
    game = new_game(NINE)
    assert engine.choose(game) in game.legal_actions()
    engine.close()
    assert sent(log)[-3:] == ["go", "stop", "quit"]


def test_a_draw_by_its_own_rules_is_asked_again_from_the_position(tmp_path):
    engine, log = player(tmp_path, "draw")
    game = new_game(NINE)
    game.play("d6")
    assert engine.choose(game) in game.legal_actions()
    engine.close()
    positions = [line for line in sent(log) if line.startswith("position")]
    assert positions == ["position startpos moves d6", f"position fen {game.position()}"]


def test_a_garbled_position_line_is_asked_again(tmp_path, caplog):
    engine, log = player(tmp_path, "garbled")
    game = new_game(NINE)
    game.play_record("d6 d5")
    engine.new_game()
    with caplog.at_level("WARNING", logger="navakankari.engine.external"):
        action = engine.choose(game)
    engine.close()
    assert action in game.legal_actions()
    assert sent(log).count("d") == 2
    assert "0.00% : 0.00% : 0.00% is not ours" in caplog.text


# -- failures: a clear error, the process ended, the game untouched ----------------------------
@pytest.mark.parametrize("mode, message", [
    ("illegal", r"answered \S+, which is illegal here \(legal: "),
    ("garbage", r"answered 'zz9', which is not an action"),
    ("hang", r"no bestmove within 0.3 s of stop: it did not answer in time"),
    ("die", r"has ended \(exit code 3\)"),
    ("drift", r"has another position: .*it did not follow every move"),
    ("mute", r"has another position: nothing \(no Fen: line after d\)"),
])
def test_a_bad_answer_is_an_error_naming_engine_and_position(tmp_path, mode, message):
    engine, _ = player(tmp_path, mode, "seconds=0.05&grace=0.3" if mode == "hang" else "seconds=0.05")
    game = new_game(NINE)
    game.play_record("d6 d5")
    before = (game.position(), game.record())
    engine.new_game()
    pid = engine._proc.pid  # type: ignore[union-attr]
    with pytest.raises(ExternalEngineError) as info:
        engine.choose(game)
    text = str(info.value)
    assert text.startswith(f"engine {engine.spec.path}: ")
    assert re.search(message, text), text
    assert f"in position {before[0]} (after 2 actions)" in text
    assert (game.position(), game.record()) == before
    assert engine._proc is None and gone(pid)


def test_after_a_failure_the_next_request_starts_a_fresh_engine(tmp_path):
    engine, log = player(tmp_path)
    game = new_game(NINE)
    engine.new_game()
    first = engine._proc.pid  # type: ignore[union-attr]
    os.kill(first, 9)
    with pytest.raises(ExternalEngineError, match="has ended"):
        engine.choose(game)
    assert engine.choose(game) in game.legal_actions()
    assert engine._proc is not None and engine._proc.pid != first
    engine.close()
    assert sent(log).count("uci") == 2


def _random_game(won: bool):  # type: ignore[no-untyped-def]
    """A finished random game of nine men's morris: won by a side, or drawn."""
    for seed in range(500):
        rng = random.Random(seed)
        game = new_game(NINE)
        while game.outcome() is None:
            game.push(rng.choice(game.legal_actions()))
        if (game.outcome().winner is not None) == won:
            return game
    raise AssertionError("no such game")


def test_the_engine_is_asked_how_it_sees_the_end(tmp_path):
    engine, _ = player(tmp_path)
    won = _random_game(won=True)
    assert engine.ending(won) == "over"
    won.pop()
    assert engine.ending(won) == f"plays {won.legal_actions()[0].text}"  # it would play on
    drawn = _random_game(won=False)
    assert engine.ending(drawn) == "draw"
    engine.close()


def test_the_game_must_be_on_a_morris_board(tmp_path):
    engine, _ = player(tmp_path)
    with pytest.raises(ExternalEngineError, match="morris boards only"):
        engine.choose(new_game(preset("nau-keti-keta")))


# -- matches ---------------------------------------------------------------------------------
def test_a_match_against_an_engine_swaps_colours_and_ends_the_process(tmp_path):
    path, log = fake(tmp_path)
    result = run_match("nine-mens-morris", "greedy", f"engine:{path}", 4, seed=3,
                       movetime=0.05, swap=True)
    assert [g.swapped for g in result.games] == [False, True, False, True]
    assert [g.record.split()[:2] for g in result.games[0::2]] == \
        [g.record.split()[:2] for g in result.games[1::2]]  # each opening twice
    assert result.white_wins + result.draws + result.black_wins == 4
    for g in result.games:  # replay: every action legal, the ending the one recorded
        game = new_game(NINE)
        game.play_record(g.record)
        assert (game.outcome() or g.outcome) == g.outcome
        assert g.engine_views == (f"engine:{path} over",) and g.engines_agree
    assert sent(log)[-1] == "quit" and sent(log).count("ucinewgame") == 4
    assert "setoption name MoveTime value 1" in sent(log)


def test_movetime_gives_a_level_exactly_that_budget():
    for spec in ("computer:1", "computer:max"):
        assert make_player(spec, movetime=0.5).budget == pytest.approx(0.5)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="positive"):
        make_player("computer:3", movetime=0)


def test_a_failing_engine_stops_the_match_with_its_error(tmp_path, capsys):
    from navakankari.firmware.cli import main as cli

    path, _ = fake(tmp_path, "garbage")
    code = cli.main(["match", "--variant", "nine-mens-morris", "--white", "greedy",
                     "--black", f"engine:{path}", "--movetime", "0.05", "--games", "2",
                     "--quiet"])
    assert code == 1
    err = capsys.readouterr().err
    assert f"navakankari match: stopped: engine {path}: answered 'zz9'" in err
    assert "in position " in err


def test_match_cli_reports_each_game(tmp_path, capsys):
    from navakankari.firmware.cli import main as cli

    path, _ = fake(tmp_path)
    code = cli.main(["match", "--variant", "nine-mens-morris", "--white", "computer:1",
                     "--black", f"engine:{path}", "--movetime", "0.05", "--games", "2",
                     "--records", "--quiet"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert re.fullmatch(rf"game 1: computer:1 \(white\) against engine:{path} \(black\): "
                        r"(white wins|black wins|draw) \(\S+\) after \d+ plies, 2 random at the start"
                        rf"; engine:{path} (over|draw)",
                        out[0]), out[0]
    assert out[1].startswith("  record: ")
    assert out[2].startswith(f"game 2: engine:{path} (white) against computer:1 (black): ")
    assert "0.05 s per action" in "\n".join(out)
    assert "endings the engine agrees with: 2 of 2" in out
    assert re.fullmatch(r"white (\d+) draws (\d+) black (\d+)", out[-1])


def test_an_engine_that_sees_another_ending_is_reported():
    from navakankari.engine.game import Outcome, Side
    from navakankari.firmware.cli.match import GameResult
    from navakankari.firmware.cli.play import game_line

    def result(winner, view):  # type: ignore[no-untyped-def]
        return GameResult(Outcome(winner, "blocked" if winner is not None else "repetition"),
                          30, "", engine_views=(f"engine:x {view}",))

    assert result(Side.WHITE, "over").engines_agree and result(None, "draw").engines_agree
    assert result(None, "over").engines_agree
    for bad in (result(Side.WHITE, "plays d6"), result(Side.BLACK, "draw"), result(None, "plays d6")):
        assert not bad.engines_agree
        assert game_line(1, bad, "a", "b").endswith(" (DIFFERS)")


@pytest.mark.parametrize("mode", ["legal", "garbage"])
def test_play_against_an_engine_in_the_terminal(tmp_path, capsys, monkeypatch, mode):
    import io

    from navakankari.firmware.cli import main as cli

    path, log = fake(tmp_path, mode)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code = cli.main(["play", "--variant", "nine-mens-morris",
                     "--white", f"engine:{path}?seconds=0.05"])
    captured = capsys.readouterr()
    assert code == (0 if mode == "legal" else 1)  # quit as asked, or stopped by the engine
    if mode == "legal":
        assert "computer plays a7" in captured.out and "game abandoned" in captured.out
    else:
        assert f"navakankari play: engine {path}: answered 'zz9'" in captured.err
    assert sent(log)[-1] == "quit" or mode == "garbage"
