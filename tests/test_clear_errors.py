"""Bad input anywhere in the commands is one line that names the input and what is wrong
(or the right behaviour), never a traceback and never a silent exit 0."""

from __future__ import annotations

import io
import random
import signal
import subprocess
import sys

import pytest
from navakankari.engine.actions import ActionKind
from navakankari.engine.errors import IllegalActionError, InvalidNotationError
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.firmware.cli import main as cli
from navakankari.firmware.tools.bench import _spread
from navakankari.firmware.cli.replay import read_recording
from navakankari.firmware.daemon.config import ConfigError, load_config
from navakankari.hal import ProfileError, load_profile
from navakankari.sim.recording import RecordingError

NINE = preset("nine-mens-morris")


def one_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


def test_a_variant_that_is_not_a_string(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[game]\nvariant = ["navakankari"]\n')
    with pytest.raises(ConfigError, match=r"game.variant: must be a string .* not \['navakankari'\]"):
        load_config(path)


def test_a_config_that_is_not_utf8(tmp_path):
    path = tmp_path / "c.toml"
    path.write_bytes(b'[game]\nvariant = "nav\xe9"\n')
    with pytest.raises(ConfigError, match=r"c.toml: file: is not UTF-8 text \(byte 0xe9 on line 2\)"):
        load_config(path)


def test_a_wiring_profile_that_is_not_utf8(tmp_path):
    path = tmp_path / "p.toml"
    path.write_bytes(b'[board]\n\nname = "\xe9"\n')
    with pytest.raises(ProfileError, match=r"p.toml:3: file: is not UTF-8 text \(byte 0xe9\)"):
        load_profile(path)


def test_a_position_with_too_many_pending_removals(capsys):
    code = cli.main(["moves", "--variant", "nine-mens-morris", "--position",
                     "O*******/********/******** w p r 1 8 0 9 99 0 0 0 0 0 0 0 2"])
    assert code == 2
    assert one_line(capsys.readouterr().err).endswith(
        "position field 9 (pebbles to take) must be 0..3, not 99")


@pytest.mark.parametrize("text, problem", [
    ("[" * 100_000, "nested too deeply"),
    ('{"t": NaN, "point": "d6", "present": true}', "NaN is not a time"),
    ('{"t": Infinity, "point": "d6", "present": true}', "Infinity is not a time"),
    ('{"t": -1, "point": "d6", "present": true}', "t must be seconds from 0 to 1e+07, not -1"),
    ('{"t": 1e308, "point": "d6", "present": true}', "not 1e+308"),
    ('{"t": 1e999, "point": "d6", "present": true}', "not inf"),
])
def test_replay_lines_that_are_not_events(text, problem):
    stream = io.StringIO('{"t": 0, "point": "a7", "present": true}\n' + text + "\n")
    with pytest.raises(RecordingError) as info:
        read_recording(stream, "rec.jsonl")
    assert str(info.value).startswith("rec.jsonl:2: ") and problem in str(info.value)


def test_times_going_backwards_name_the_line():
    stream = io.StringIO('{"t": 2, "point": "a7", "present": true}\n\n'
                         '{"t": 1, "point": "a7", "present": false}\n')
    with pytest.raises(RecordingError, match=r"^rec.jsonl:3: t=1 is before the line above"):
        read_recording(stream, "rec.jsonl")


@pytest.mark.parametrize("flag, value", [("--settle", "nan"), ("--grow", "inf"),
                                         ("--grace", "-1"), ("--settle", "0")])
def test_replay_timings_out_of_range(tmp_path, capsys, flag, value):
    rec = tmp_path / "r.jsonl"
    rec.write_text('{"t": 0, "point": "a7", "present": true}\n')
    with pytest.raises(SystemExit) as info:
        cli.main(["replay", str(rec), flag, value])
    assert info.value.code == 2
    assert f"argument {flag}: must be" in capsys.readouterr().err


def test_perft_depth_below_one(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["perft", "--depth", "-1"])
    assert info.value.code == 2
    assert "argument --depth: must be at least 1, not -1" in capsys.readouterr().err


def test_export_from_a_store_that_is_not_there(tmp_path, capsys):
    target = tmp_path / "missing" / "games.sqlite3"
    assert cli.main(["replay", "--export", str(target)]) == 1
    assert one_line(capsys.readouterr().err).endswith(f"--export {target}: no game store there")
    assert not target.parent.exists()


def test_export_of_a_game_without_raw_events(tmp_path, capsys):
    from navakankari.firmware.store.database import Store

    path = tmp_path / "g.sqlite3"
    store = Store(path, events_kept=0)
    game = store.new_game(NINE, {"white": "hand", "black": "hand"})
    store.close()
    assert cli.main(["replay", "--export", str(path), "--game", str(game)]) == 1
    assert one_line(capsys.readouterr().err).endswith(
        f"game {game} in {path} has no raw sensor events (they are kept for the latest game only)")


def test_new_game_with_an_unknown_variant_blames_the_variant(capsys):
    assert cli.main(["new-game", "--variant", "nope"]) == 2
    err = one_line(capsys.readouterr().err)
    assert "--variant: unknown variant 'nope'" in err and "daemon" not in err


def test_bench_spread_of_nothing():
    assert _spread([], "settles") == "none (0 settles)"
    assert _spread([0.001, 0.002], "actions", with_max=True).endswith("max 2.00 ms (2 actions)")


@pytest.mark.parametrize("host, port_taken", [("nosuch.invalid", False), ("127.0.0.1", True)])
def test_sim_that_cannot_serve_exits_non_zero(tmp_path, host, port_taken):
    import socket

    blocker = socket.socket()
    blocker.bind(("127.0.0.1", 0))
    blocker.listen()
    port = blocker.getsockname()[1]
    if not port_taken:
        blocker.close()
    try:
        proc = subprocess.run([sys.executable, "-m", "navakankari.firmware.cli", "sim",
                               "--no-browser", "--address", host, "--port", str(port),
                               "--store", str(tmp_path / "s.sqlite3")],
                              capture_output=True, text=True, timeout=60)
    finally:
        blocker.close()
    assert proc.returncode == 1
    assert f"cannot serve the web companion on {host}:{port}" in proc.stderr


def test_quit_in_play_exits_zero(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "--variant", "nine-mens-morris", "--black", "computer:1", "--seed", "1"]) == 0


def test_ctrl_c_in_play_ends_it_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "navakankari.firmware.cli", "play",
                             "--variant", "nine-mens-morris", "--black", "computer:1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().startswith("nine-mens-morris: you play white")
    proc.send_signal(signal.SIGINT)  # waiting for the first action
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "game abandoned" in out and "Traceback" not in err


@pytest.mark.parametrize("args, ready", [
    (["perft", "--depth", "9"], "1 24"),
    (["match", "--variant", "nine-mens-morris", "--white", "random", "--black", "random",
      "--games", "100000", "--quiet"], "game 1:"),
    (["bench", "search"], "== search"),
], ids=["perft", "match", "bench"])
def test_ctrl_c_ends_a_long_command_quietly(args, ready):
    proc = subprocess.Popen([sys.executable, "-m", "navakankari.firmware.cli", *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        while not (line := proc.stdout.readline()).startswith(ready):
            assert line, "the command ended before it got going"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert (proc.returncode, err) == (130, "")


def test_ctrl_c_while_replay_reads_stdin(monkeypatch, capsys):
    class Typing(io.StringIO):
        def read(self, *args):
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Typing())
    assert cli.main(["replay", "-"]) == 130
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err


def test_every_command_ends_quietly_on_ctrl_c(monkeypatch, capsys):
    """One way for all: `main` turns Ctrl-C into status 130, whichever command ran."""
    import argparse

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))

    def interrupted(args):
        raise KeyboardInterrupt

    for command in sub.choices.values():
        monkeypatch.setattr(command, "_defaults", {**command._defaults, "func": interrupted})
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    for argv in (["variants"], ["perft", "--depth", "2"], ["replay", "-"], ["run"],
                 ["selftest"], ["bench"]):
        assert cli.main(argv) == 130, argv
    assert "Traceback" not in capsys.readouterr().err


def _moving_game():
    game, rng = new_game(NINE), random.Random(3)
    while game.phase.value != "moving" or game.pending_removals:
        game.push(rng.choice(game.legal_actions()))
    return game


def test_an_occupied_point_says_why():
    game = new_game(NINE)
    game.play("d6")
    with pytest.raises(IllegalActionError, match="d6 is not legal here: d6 already holds a "
                                                 "white pebble"):
        game.play("d6")


def test_a_point_in_capitals_is_quoted_once():
    with pytest.raises(InvalidNotationError) as info:
        new_game(NINE).play("D5")
    assert str(info.value) == "'D5' is not a point of the morris board (point names are lower case: d5)"


def test_a_removal_after_a_move_that_closes_no_mill():
    game = _moving_game()
    move = next(a for a in game.legal_actions() if a.kind is ActionKind.MOVE
                and not (game.push(a) or game.pending_removals) and game.pop() is not None)
    theirs = next(p for p in range(24) if game.colour_at(p) is game.turn.other)
    text = f"{move.text}x{game.board.points[theirs]}"
    before = game.position()
    with pytest.raises(IllegalActionError) as info:
        game.play(text)
    assert str(info.value) == (f"{text}: {move.text} closes no mill, so it takes no pebble "
                               f"(x{game.board.points[theirs]} is not part of it)")
    assert game.position() == before


def test_a_move_to_a_point_out_of_reach_names_where_it_can_go():
    game = _moving_game()
    me = game.turn
    start = next(a.origin for a in game.legal_actions() if a.kind is ActionKind.MOVE)
    name = game.board.points[start]
    reach = {a.text.partition("-")[2] for a in game.legal_actions() if a.text.startswith(name + "-")}
    far = next(p for i, p in enumerate(game.board.points)
               if game.colour_at(i) is None and p not in reach)
    with pytest.raises(IllegalActionError, match=f"the pebble on {name} can go to .*, not {far}"):
        game.play(f"{name}-{far}")
    assert game.turn is me


RECORDINGS = __import__("pathlib").Path(__file__).parent / "firmware" / "recordings"


@pytest.mark.parametrize("name, variant", [("lasker-moves-in-placement", "lasker"),
                                           ("nau-keti-keta-hop", "nau-keti-keta")])
def test_replay_of_another_variant_says_what_never_matched(name, variant, capsys):
    """No line names the game and no --variant is given: navakankari is assumed, and the
    replay says which events it could not explain instead of exiting 0 with a few actions."""
    path = RECORDINGS / f"{name}.jsonl"
    assert cli.main(["replay", str(path)]) == 1
    err = one_line(capsys.readouterr().err)
    assert err.startswith(f"navakankari replay: {path}: ")
    assert "events (from t=" in err and "never matched navakankari: " in err
    assert err.endswith("is it another variant? --variant NAME)")
    assert cli.main(["replay", str(path), "--variant", variant]) == 0


def test_replay_of_an_event_at_a_point_not_on_the_board(tmp_path, capsys):
    path = tmp_path / "zz.jsonl"
    path.write_text('{"t": 0.1, "point": "zz", "present": true}\n'
                    '{"t": 0.5, "point": "d6", "present": true}\n')
    assert cli.main(["replay", str(path), "--variant", "nine-mens-morris"]) == 1
    assert one_line(capsys.readouterr().err) == (
        f"navakankari replay: {path}: 1 of 2 events (from t=0.1 s) never matched "
        "nine-mens-morris: zz is not on the morris board")


@pytest.mark.parametrize("text", ["", "\n\n", '# navakankari-game {"variant": "lasker", '
                                  '"white": "hand", "black": "hand"}\n'])
def test_replay_of_a_recording_without_events(tmp_path, capsys, text):
    path = tmp_path / "empty.jsonl"
    path.write_text(text)
    assert cli.main(["replay", str(path)]) == 2
    assert one_line(capsys.readouterr().err) == (
        f"navakankari replay: {path}: no sensor events in it (a recording is JSON Lines, "
        '{"t": SECONDS, "point": "d6", "present": true} a line)')


def test_replay_of_a_file_that_is_not_text_names_it_and_what_was_expected(capsys):
    path = RECORDINGS.parents[2] / "engine" / "endgame-3v3.bin"
    assert cli.main(["replay", str(path)]) == 2
    err = one_line(capsys.readouterr().err)
    assert err.startswith(f"navakankari replay: {path}: not a recording of sensor events: "
                          "byte 0x")
    assert "is not UTF-8 text (a recording is JSON Lines" in err and "codec" not in err


@pytest.mark.parametrize("games", ["0", "-3", "x"])
def test_a_match_of_no_games(games, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["match", "--white", "random", "--black", "random", "--games", games])
    assert info.value.code == 2
    assert "argument --games: " in capsys.readouterr().err


def test_a_menu_hold_of_nothing_is_refused(tmp_path, capsys):
    path = tmp_path / "n.toml"
    path.write_text("[game]\nmenu_hold = 0\n")
    with pytest.raises(ConfigError, match=r"n.toml: game.menu_hold: must be 0.2..10 seconds, not 0.0$"):
        load_config(path)
    with pytest.raises(SystemExit):
        cli.main(["replay", str(path), "--menu-hold", "0"])
    assert "argument --menu-hold: must be 0.2..10 seconds, not 0.0" in capsys.readouterr().err


@pytest.mark.parametrize("pin", ["ab", "12 34", "١٢٣"])
def test_sim_with_a_pin_no_one_can_type(pin, capsys):
    assert cli.main(["sim", "--pin", pin, "--no-browser"]) == 2
    assert one_line(capsys.readouterr().err) == (
        f"navakankari sim: --pin: must be digits (the page asks for it on a number pad), "
        f"not {pin!r}")


@pytest.mark.parametrize("value", ["fast", "-1", "nan", "99"])
@pytest.mark.parametrize("flag, key", [("--settle", "tracker.settle"), ("--grow", "tracker.grow"),
                                       ("--grace", "tracker.grace"),
                                       ("--menu-hold", "game.menu_hold")])
def test_a_timing_says_one_range_on_the_command_line_and_in_the_configuration(
        flag, key, value, tmp_path, capsys):
    section, name = key.split(".")
    path = tmp_path / "c.toml"
    literal = f'"{value}"' if value == "fast" else value
    path.write_text(f"[{section}]\n{name} = {literal}\n")
    with pytest.raises(ConfigError) as config_error:
        load_config(path)
    with pytest.raises(SystemExit):
        cli.main(["replay", "x.jsonl", flag, value])
    err = capsys.readouterr().err
    said = config_error.value.problem.split(", not ")[0]
    assert said.startswith("must be ") and ".." in said
    assert f"argument {flag}: {said}, not " in err
