from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from navakankari.engine.presets import preset
from navakankari.firmware.cli import main as cli
from navakankari.sim.hands import ScriptedHands
from navakankari.firmware.tools.referee import Referee

RECORDINGS = Path(__file__).parent / "recordings"
FILES = sorted(RECORDINGS.glob("*.jsonl"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_recordings_replay_to_the_scripted_game(path, capsys):
    expected = json.loads((path.parent / (path.stem + ".expected.json")).read_text())
    args = ["replay", str(path), "--variant", expected["variant"], *expected.get("args", []),
            "--json"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one JSON object on one line
    result = json.loads(out)
    assert list(result) == ["actions", "position", "outcome", "variant", "white", "black", "first"]
    assert result == expected["result"]



def test_replay_leaves_the_logging_as_it_found_it(tmp_path, capsys):
    """The command quietens the project's logger for itself only: a test or command run after it
    in the same process still hears the project's INFO lines."""
    package, root = logging.getLogger("navakankari"), logging.getLogger()
    before = (package.level, root.level, root.handlers[:])
    assert cli.main(["replay", str(FILES[0]), "--json"]) in (0, 1)
    assert (package.level, root.level, root.handlers) == before
    bad = tmp_path / "bad.toml"
    bad.write_text("[tracker]\nsettle = 5\n")
    assert cli.main(["run", "--config", str(bad)]) != 0  # `run` sets up the root's logging
    assert (package.level, root.level, root.handlers) == before
    capsys.readouterr()

# Position strings list the points in these orders (Sanmill's rings for morris, from 12
# o'clock clockwise, inner ring first; rows from the top for the 19-point board).
MORRIS_RINGS = ("d5 e5 e4 e3 d3 c3 c4 c5", "d6 f6 f4 f2 d2 b2 b4 b6", "d7 g7 g4 g1 d1 a1 a4 a7")
NINETEEN_ROWS = ("a7 d7 g7", "b6 d6 f6", "c5 d5 e5", "d4", "c3 d3 e3", "b2 d2 f2", "a1 d1 g1")


def _board_of(position: str) -> dict[str, str]:
    """Point -> "O" (white) or "@" (black) from a position string's board field."""
    groups = position.split()[0].split("/")
    order = MORRIS_RINGS if len(groups) == 3 else NINETEEN_ROWS
    assert [len(g) for g in groups] == [len(o.split()) for o in order]
    return {p: c for group, names in zip(groups, order)
            for p, c in zip(names.split(), group) if c != "*"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_results_agree_with_the_recording_itself(path):
    """The expected position and outcome were written by the engine; check them by another
    route: occupancy from the raw events, colours and counts from the referee's own board."""
    expected = json.loads((path.parent / (path.stem + ".expected.json")).read_text())
    result = expected["result"]
    occupied: set[str] = set()
    for line in path.read_text().splitlines():
        if line.startswith("#"):  # a header (the menu's settings), not an event
            continue
        event = json.loads(line)
        (occupied.add if event["present"] else occupied.discard)(event["point"])
    board = _board_of(result["position"])
    assert set(board) == occupied  # the pebbles the sensors saw last
    outcome = result["outcome"]
    variant = result.get("variant", expected["variant"])  # the menu may have changed it
    if variant == "nau-keti-keta":
        if outcome is not None:
            assert outcome["reason"] == "all-taken"
            assert set(board.values()) == {"O" if outcome["winner"] == "white" else "@"}
        return
    rules = preset(variant)
    referee = Referee(rules)
    referee.judge_record(" ".join(result["actions"]))
    assert board == {p: "O@"[s] for p, s in referee.colour.items()}
    fields = result["position"].split()
    assert fields[1] == "wb"[referee.side]
    on_board = [referee.count(s) for s in (0, 1)]
    in_hand = [rules.pieces - referee.placed[s] for s in (0, 1)]
    assert [int(x) for x in fields[4:8]] == [on_board[0], in_hand[0], on_board[1], in_hand[1]]
    if outcome is None:
        assert min(on_board[s] + in_hand[s] for s in (0, 1)) >= 3
    else:
        assert outcome["reason"] == "too-few-pebbles"
        loser = 1 if outcome["winner"] == "white" else 0
        assert on_board[loser] + in_hand[loser] == 2 and on_board[loser ^ 1] >= 3


def test_there_are_recordings_for_both_boards():
    variants = {json.loads((RECORDINGS / (p.stem + ".expected.json")).read_text())["variant"]
                for p in FILES}
    assert "nau-keti-keta" in variants and len(variants) >= 3


def test_replay_reads_stdin_and_plays_the_computer(monkeypatch, capsys, tmp_path):
    import io
    import sys

    hands = ScriptedHands(()).place("d6").wait(0.6)
    text = "".join(json.dumps({"t": e.t, "point": e.point, "present": e.present}) + "\n"
                   for e in hands.events)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert cli.main(["replay", "-", "--variant", "nine-mens-morris", "--black", "computer:1",
                     "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["actions"] == ["d6"] and result["outcome"] is None


def test_a_bad_recording_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"t": 0.1, "point": "d6", "present": true}\n{"t": "x"}\n')
    assert cli.main(["replay", str(path), "--variant", "navakankari"]) == 2
    assert "bad.jsonl:2" in capsys.readouterr().err
    assert cli.main(["replay", str(path), "--variant", "chess"]) == 2
    assert cli.main(["replay", str(tmp_path / "missing.jsonl")]) == 2


def test_export_from_the_store_gives_a_replayable_recording(tmp_path, capsys):
    from navakankari.engine.game import Side
    from navakankari.engine.presets import preset
    from navakankari.firmware.core.clockwork import drive
    from navakankari.firmware.core.players import HAND
    from navakankari.firmware.core.session import Session
    from navakankari.firmware.store.database import Store

    store = Store(tmp_path / "g.sqlite3")
    # The board holds a stray pebble when the game begins; it is cleared off first.
    session = Session(preset("nine-mens-morris"), {Side.WHITE: HAND, Side.BLACK: HAND},
                      store=store, occupied={"g7"}, now=50.0)
    hands = ScriptedHands({"g7"}, t=50.5, pause=0.6)
    hands.lift("g7").wait(0.5).place("d6").wait(0.6).place("a1").wait(0.6)
    drive(session, hands.events, now=50.0)
    session.close()
    store.close()
    assert session.record() == "d6 a1"
    assert cli.main(["replay", "--export", str(tmp_path / "g.sqlite3")]) == 0
    recording = tmp_path / "out.jsonl"
    recording.write_text(capsys.readouterr().out)
    head, first = recording.read_text().splitlines()[:2]
    # The game it plays, so the replay needs no --variant, --white or --black ...
    assert head == ('# navakankari-game {"variant": "nine-mens-morris", "white": "hand", '
                    '"black": "hand"}')
    assert json.loads(first) == {"t": 0.5, "point": "g7", "present": False}  # ... and the
    # stray pebble's removal
    assert cli.main(["replay", str(recording), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == ["d6", "a1"]


def test_a_nau_keti_keta_game_begun_on_a_set_up_board_exports_its_setup(tmp_path, capsys):
    from navakankari.engine.game import Side
    from navakankari.engine.presets import preset
    from navakankari.engine.variants import new_game
    from navakankari.firmware.core.clockwork import drive
    from navakankari.firmware.core.players import HAND
    from navakankari.firmware.core.session import Session
    from navakankari.firmware.store.database import Store

    rules = preset("nau-keti-keta")
    start = set(new_game(rules).board.names(new_game(rules).occupancy))
    store = Store(tmp_path / "g.sqlite3")
    session = Session(rules, {Side.WHITE: HAND, Side.BLACK: HAND}, store=store,
                      occupied=start, now=7.0)
    hands = ScriptedHands(start, t=7.5, pause=0.6)
    hands.lift("c3").wait(0.2).place("d4").wait(0.6)
    drive(session, hands.events, now=7.0)
    session.close()
    store.close()
    assert session.record() == "c3-d4"
    assert cli.main(["replay", "--export", str(tmp_path / "g.sqlite3")]) == 0
    recording = tmp_path / "out.jsonl"
    recording.write_text(capsys.readouterr().out)
    assert cli.main(["replay", str(recording), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == ["c3-d4"]


def _play(session, hands, now):
    from navakankari.firmware.core.clockwork import drive

    events = hands.events[:]
    hands.events.clear()
    return drive(session, events, now=now)


def test_a_game_started_on_the_page_while_the_menu_is_lit_replays_to_itself(tmp_path, capsys):
    """The page's form starts a game while the board shows its menu: the recording names
    that game, not the menu (which chose nothing), and replays to it, the computer's turns
    as the hands carried them out."""
    from navakankari.engine.game import Side
    from navakankari.engine.player import RandomPlayer
    from navakankari.firmware.core.menu import MenuSettings
    from navakankari.firmware.core.players import HAND, PlayerSpec, computer_turn
    from navakankari.firmware.core.session import Session
    from navakankari.firmware.store.database import Store

    store = Store(tmp_path / "g.sqlite3")
    session = Session(preset("navakankari"), {Side.WHITE: HAND, Side.BLACK: HAND}, store=store,
                      menu=MenuSettings())
    assert session.menu is not None
    hands = ScriptedHands((), t=1.0, pause=0.6)
    hands.place("d5").wait(0.4).lift("d5").wait(0.5)  # a pebble tried on the menu, not chosen
    now = _play(session, hands, 0.0)
    assert session.menu is not None
    session.new_game(now, rules=preset("lasker"),
                     players={Side.WHITE: HAND, Side.BLACK: PlayerSpec("computer", 1)})
    hands.t = now + 0.5
    white, black = RandomPlayer(seed=4), RandomPlayer(seed=9)
    for _ in range(6):
        for action in computer_turn(white, session.game):
            hands.perform(session.game.board, action)
        now = _play(session, hands, now)
        request = session.answers.computer_request()
        assert request is not None
        actions = computer_turn(black, request.game)
        assert session.answers.offer(request, actions, now)
        for action in actions:
            hands.perform(session.game.board, action)
        hands.wait(0.5)
        now = _play(session, hands, now)
    played = [a.text for a in session.game.history]
    assert len(played) >= 12
    session.close()
    store.close()
    assert cli.main(["replay", "--export", str(tmp_path / "g.sqlite3")]) == 0
    recording = tmp_path / "page.jsonl"
    recording.write_text(capsys.readouterr().out)
    assert recording.read_text().startswith('# navakankari-game {"variant": "lasker", '
                                            '"white": "hand", "black": "computer:1"}\n')
    assert cli.main(["replay", str(recording), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["variant"], result["white"], result["black"]) == ("lasker", "hand",
                                                                     "computer:1")
    assert result["actions"] == played


def test_replay_prints_a_readable_record_and_json_for_scripts(capsys):
    """By default a reader's record: the game and its players, the actions numbered by turn
    with a move and its removals on one line, white on the left; --json is the line scripts
    read."""
    import re

    path = RECORDINGS / "lasker-moves-in-placement.jsonl"
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())["result"]
    assert cli.main(["replay", str(path), "--variant", "lasker"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"lasker: white hand, black hand; {len(expected['actions'])} actions"
    assert lines[-2] == f"position: {expected['position']}"
    assert lines[-1] == "in play: black to act"
    rows = lines[1:-2]
    assert [int(re.match(r" *(\d+)\. ", row).group(1)) for row in rows] == \
        list(range(1, len(rows) + 1))
    assert " ".join(row.split(". ", 1)[1] for row in rows).split() == expected["actions"]
    assert "   5. d6 xg7     e3" in rows  # white's placement and the removal it earned
    assert cli.main(["replay", str(path), "--variant", "lasker", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and json.loads(out) == expected


def test_the_end_of_a_game_is_said_in_words(capsys):
    path = RECORDINGS / "nau-keti-keta-hop.jsonl"
    assert cli.main(["replay", str(path), "--variant", "nau-keti-keta"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "black wins: white has no pebbles left"


def test_a_game_against_a_remote_player_replays_to_itself(tmp_path, capsys):
    """The remote side's moves came from the page: the replay takes the ones the hands then
    carried out."""
    from navakankari.engine.game import Side
    from navakankari.engine.player import RandomPlayer
    from navakankari.firmware.core.players import HAND, PlayerSpec, computer_turn
    from navakankari.firmware.core.session import Session
    from navakankari.firmware.store.database import Store

    store = Store(tmp_path / "g.sqlite3")
    session = Session(preset("nine-mens-morris"),
                      {Side.WHITE: HAND, Side.BLACK: PlayerSpec("remote")}, store=store)
    hands, now = ScriptedHands((), t=0.5, pause=0.6), 0.0
    white, black = RandomPlayer(seed=2), RandomPlayer(seed=3)
    for _ in range(5):
        for action in computer_turn(white, session.game):
            hands.perform(session.game.board, action)
        now = _play(session, hands, now)
        turn = computer_turn(black, session.game)
        session.answers.remote_move("".join(a.text for a in turn), now)
        for action in turn:
            hands.perform(session.game.board, action)
        hands.wait(0.5)
        now = _play(session, hands, now)
    played = [a.text for a in session.game.history]
    assert len(played) == 10
    session.close()
    store.close()
    assert cli.main(["replay", "--export", str(tmp_path / "g.sqlite3")]) == 0
    recording = tmp_path / "remote.jsonl"
    recording.write_text(capsys.readouterr().out)
    assert cli.main(["replay", str(recording), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == played
