"""A recording of a game chosen on the board replays without --menu: its first line says how
the menu stood. `--menu` still works as a switch for a recording without that line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from navakankari.firmware.cli import main as cli
from navakankari.firmware.core.menu import GameChoice, MenuSettings
from navakankari.firmware.core.recording_head import (
    MenuLineError,
    MenuStart,
    find,
    format_line,
    parse_line,
)

RECORDING = Path(__file__).parent / "recordings" / "menu-to-nau-keti-keta.jsonl"
EXPECTED = json.loads(RECORDING.with_name("menu-to-nau-keti-keta.expected.json").read_text())

names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)
seconds = st.floats(min_value=0, max_value=10, allow_nan=False)


@given(st.builds(MenuStart, st.builds(GameChoice, names, names, names),
                 st.lists(names, min_size=1, max_size=5).map(tuple),
                 st.builds(MenuSettings, st.floats(*MenuSettings.SECONDS["hold"]), seconds,
                           st.floats(0.01, 1), st.integers(1, 4), seconds),
                 st.integers(-2**40, 2**40)))
def test_the_menu_line_reads_back_as_written(start):
    line = format_line(start)
    assert "\n" not in line and line.startswith("#")
    assert parse_line(line) == start
    assert find(["", line, '{"t": 0, "point": "d6", "present": true}']) == start


def test_a_recording_without_the_line_has_no_menu():
    assert find(['{"t": 0, "point": "d6", "present": true}',
                 '# navakankari-menu {"too late": 1}']) is None
    assert parse_line("# another comment") is None


@pytest.mark.parametrize("body", ['{"last": 1}', "not json", '{"last": {"variant": "x", '
                                  '"white": "hand", "black": "hand"}, "variants": [], '
                                  '"settings": {}, "seed": 0}',
                                  '{"last": {"variant": "x", "white": "hand", "black": "hand"},'
                                  ' "variants": ["x"], "settings": {"hold": -1}, "seed": 0}'])
def test_a_damaged_menu_line_is_a_clear_error(body, tmp_path, capsys):
    with pytest.raises(MenuLineError, match="rec.jsonl:2: the menu line is not readable"):
        find(["", "# navakankari-menu " + body], "rec.jsonl")
    path = tmp_path / "rec.jsonl"
    path.write_text("# navakankari-menu " + body + "\n" + RECORDING.read_text())
    assert cli.main(["replay", str(path)]) == 2
    assert "rec.jsonl:1: the menu line is not readable" in capsys.readouterr().err


def test_a_menu_line_naming_an_unknown_variant_is_a_clear_error(tmp_path, capsys):
    start = MenuStart(GameChoice("navakankari", "hand", "hand"), ("navakankari", "chess"),
                      MenuSettings())
    path = tmp_path / "rec.jsonl"
    path.write_text(format_line(start) + "\n" + RECORDING.read_text())
    assert cli.main(["replay", str(path)]) == 2
    assert "chess" in capsys.readouterr().err


def test_a_recording_through_the_menu_replays_with_no_switch(capsys):
    assert cli.main(["replay", str(RECORDING), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == EXPECTED["result"]


def test_menu_is_still_a_switch_for_a_recording_without_the_line(tmp_path, capsys):
    bare = tmp_path / "bare.jsonl"
    lines = RECORDING.read_text().splitlines(keepends=True)
    assert lines[0].startswith("# navakankari-menu ")
    bare.write_text("".join(lines[1:]))
    assert cli.main(["replay", str(bare), "--variant", EXPECTED["variant"],
                     *EXPECTED["args"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == EXPECTED["result"]
    # Without the line and without --menu it is no menu: the hands' choices are not moves,
    # and the replay says so rather than print a game of nothing.
    assert cli.main(["replay", str(bare), "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["variant"] == "navakankari"
    assert "never matched navakankari: d4 is not on the morris board" in captured.err


def test_the_store_keeps_the_line_with_the_current_games_events_only(tmp_path):
    import sqlite3

    from navakankari.engine.presets import preset
    from navakankari.firmware.store.database import Store

    path = tmp_path / "games.sqlite3"
    store = Store(path)
    first = store.new_game(preset("lasker"), {"white": "hand", "black": "hand"})
    line = format_line(MenuStart(GameChoice("lasker", "hand", "hand"), ("lasker",), MenuSettings()))
    store.set_recording_head(first, line)
    assert store.events_jsonl(first) == ""  # no events: nothing to replay
    store.add_events(first, [(0.5, "d6", True)])
    assert store.events_jsonl(first).splitlines() == [
        line, '{"t": 0.5, "point": "d6", "present": true}']
    with pytest.raises(ValueError, match="one line starting with #"):
        store.set_recording_head(first, '{"t": 0}')
    store.new_game(preset("lasker"), {"white": "hand", "black": "hand"})
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM recording_heads").fetchone() == (0,)


@given(st.builds(GameChoice, names, names, names))
def test_the_game_line_reads_back_as_written(game):
    from navakankari.firmware.core.recording_head import find_game, format_game_line, parse_game_line

    line = format_game_line(game)
    assert "\n" not in line and line.startswith("# navakankari-game ")
    assert parse_game_line(line) == game
    assert find_game(["", line, '{"t": 0, "point": "d6", "present": true}']) == game
    assert find([line]) is None and parse_game_line(format_line(
        MenuStart(game, ("x",), MenuSettings()))) is None


@pytest.mark.parametrize("body", ['{"variant": 1, "white": "hand", "black": "hand"}', "[]",
                                  '{"variant": "lasker"}', "nonsense"])
def test_a_damaged_game_line_is_a_clear_error(body, tmp_path, capsys):
    path = tmp_path / "rec.jsonl"
    path.write_text("# navakankari-game " + body + '\n{"t": 0, "point": "d6", "present": true}\n')
    assert cli.main(["replay", str(path)]) == 2
    assert "rec.jsonl:1: the game line is not readable" in capsys.readouterr().err


@pytest.mark.parametrize("online", [False, True])
def test_the_menu_line_keeps_whether_online_play_was_offered(online):
    start = MenuStart(GameChoice("lasker", "hand", "online" if online else "hand"),
                      ("lasker", "navakankari"), MenuSettings(), 3, online)
    line = format_line(start)
    assert parse_line(line) == start
    assert ('"online"' in line) == online  # older lines, without it, read the same
