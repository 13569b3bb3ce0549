from __future__ import annotations

import json
from pathlib import Path

import pytest
from navakankari.engine.presets import preset
from navakankari.firmware.cli import main as cli
from navakankari.sim.hands import Hands
from navakankari.firmware.cli.referee import Referee

RECORDINGS = Path(__file__).parent / "recordings"
FILES = sorted(RECORDINGS.glob("*.jsonl"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_recordings_replay_to_the_scripted_game(path, capsys):
    expected = json.loads((path.parent / (path.stem + ".expected.json")).read_text())
    args = ["replay", str(path), "--variant", expected["variant"], *expected.get("args", [])]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one JSON object on one line
    result = json.loads(out)
    assert list(result) == ["actions", "position", "outcome", "variant", "white", "black"]
    assert result == expected["result"]


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

    hands = Hands(()).place("d6").wait(0.6)
    text = "".join(json.dumps({"t": e.t, "point": e.point, "present": e.present}) + "\n"
                   for e in hands.events)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert cli.main(["replay", "-", "--variant", "nine-mens-morris", "--black", "computer:1"]) == 0
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
    hands = Hands({"g7"}, t=50.5, pause=0.6)
    hands.lift("g7").wait(0.5).place("d6").wait(0.6).place("a1").wait(0.6)
    drive(session, hands.events, now=50.0)
    session.close()
    store.close()
    assert session.record() == "d6 a1"
    assert cli.main(["replay", "--export", str(tmp_path / "g.sqlite3")]) == 0
    recording = tmp_path / "out.jsonl"
    recording.write_text(capsys.readouterr().out)
    first = json.loads(recording.read_text().splitlines()[0])
    assert first == {"t": 0.5, "point": "g7", "present": False}  # the stray pebble's removal
    assert cli.main(["replay", str(recording), "--variant", "nine-mens-morris"]) == 0
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
    hands = Hands(start, t=7.5, pause=0.6)
    hands.lift("c3").wait(0.2).place("d4").wait(0.6)
    drive(session, hands.events, now=7.0)
    session.close()
    store.close()
    assert session.record() == "c3-d4"
    assert cli.main(["replay", "--export", str(tmp_path / "g.sqlite3")]) == 0
    recording = tmp_path / "out.jsonl"
    recording.write_text(capsys.readouterr().out)
    assert cli.main(["replay", str(recording), "--variant", "nau-keti-keta"]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == ["c3-d4"]
