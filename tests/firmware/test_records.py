"""The game record of a stored game: from the store, from the page, and from the command,
read back to the same game."""

from __future__ import annotations

import time

import pytest
from navakankari.engine.presets import preset
from navakankari.engine.record import format_record, parse_record, replay_record
from navakankari.firmware.cli import main as cli
from navakankari.engine.game import Side
from navakankari.engine.variants import start_position
from navakankari.firmware.store.database import BoardEnding, Store, StoreDamagedError
from navakankari.firmware.store.records import game_record
from sim_daemon import sim_daemon
from test_companion import request


def _stored(tmp_path, actions: str, outcome=None, variant="navakankari"):
    store = Store(tmp_path / "games.sqlite3")
    game = store.new_game(preset(variant), {"white": "hand", "black": "computer:3"})
    store.append(game, 1, actions.split())
    if outcome is not None:
        store.finish(game, outcome)
    return store, game


@pytest.mark.parametrize("outcome, result, termination", [
    (None, "*", None),
    ({"winner": "black", "reason": "resigned"}, "0-1", "resigned"),
    (BoardEnding.CLEARED.outcome(), "*", "cleared"),
    ({"winner": None, "reason": "repetition"}, "1/2-1/2", "repetition"),
    ({"winner": "white", "reason": "blocked"}, "1-0", "blocked"),
])
def test_a_stored_game_keeps_its_players_date_board_and_ending(tmp_path, outcome, result,
                                                               termination):
    store, game = _stored(tmp_path, "d6 f4 d2 b4", outcome)
    record = game_record(store.load(game), "Grandma")
    store.close()
    assert (record.white, record.black, record.site) == ("hand", "computer:3", "Grandma")
    assert record.date == time.strftime("%Y.%m.%d")
    assert (record.result, record.termination) == (result, termination)
    assert record.moves == ("d6", "f4", "d2", "b4")
    assert parse_record(format_record(record)) == record


def test_a_game_black_began_keeps_its_start_in_the_store_and_the_record(tmp_path):
    """Black moved first (the toss chose it): the store keeps that start, reads the moves
    back from it, and the record carries it as its FEN tag and numbers black's move 1..."""
    rules = preset("navakankari")
    start = start_position(rules, Side.BLACK)
    store = Store(tmp_path / "games.sqlite3")
    game = store.new_game(rules, {"white": "hand", "black": "computer:3"}, start)
    store.append(game, 0, ["d6", "f4", "d2"])
    with pytest.raises(StoreDamagedError, match="does not play"):
        bad = store.new_game(rules, {"white": "hand", "black": "hand"}, start)
        store.append(bad, 0, ["d6", "f4", "d6"])
        store.load(bad)
    stored = store.load(game)
    record = game_record(stored, "Grandma")
    store.close()
    assert stored.start == start and record.start == start
    text = format_record(record)
    assert f'[FEN "{start}"]' in text and "1... d6\n2. f4 d2\n*\n" in text
    assert parse_record(text) == record
    assert replay_record(record).position() == replay_record(parse_record(text)).position()
    assert replay_record(record).history[0].text == "d6" and record.white == "hand"


def test_removals_are_joined_to_their_move(tmp_path):
    store, game = _stored(tmp_path, "a7 b6 d7 f6 g7 xb6 d2", variant="nine-mens-morris")
    record = game_record(store.load(game), "")
    store.close()
    assert record.moves == ("a7", "b6", "d7", "f6", "g7xb6", "d2")
    assert record.site == "?"


def test_the_command_writes_a_stored_games_record_and_reads_it_back(tmp_path, capsys):
    store, _ = _stored(tmp_path, "d6 f4 d2 b4")
    store.close()
    path = tmp_path / "games.sqlite3"
    assert cli.main(["record", "--store", str(path), "--site", "Ravi"]) == 0
    text = capsys.readouterr().out
    assert '[Site "Ravi"]' in text and "1. d6 f4\n2. d2 b4\n*\n" in text
    (tmp_path / "game.pgn").write_text(text)
    assert cli.main(["record", str(tmp_path / "game.pgn")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(text)
    assert "white to act" in out and "position: " in out
    assert cli.main(["record", str(tmp_path / "game.pgn"), "--moves-only"]) == 0
    assert capsys.readouterr().out == text


def test_the_command_names_what_is_wrong(tmp_path, capsys):
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Variant "navakankari"]\n\n1. d6 f4\n2. d6 b4\n')
    assert cli.main(["record", str(bad)]) == 1
    assert "move 2 (white, d6)" in capsys.readouterr().err
    assert cli.main(["record", str(tmp_path / "none.pgn")]) == 1
    assert "cannot read it" in capsys.readouterr().err
    assert cli.main(["record", "--store", str(tmp_path / "none.sqlite3")]) == 1
    assert "no game store there" in capsys.readouterr().err


def test_the_page_downloads_the_record_with_its_tags(tmp_path):
    with sim_daemon(tmp_path, white="remote", black="remote") as running:
        for plies, (action, colour) in enumerate((("d6", "white"), ("f4", "black")), 1):
            assert request(running.url + "/api/move", {"action": action})[0] == 200
            assert request(running.url + "/api/hand", {"op": "place", "point": action,
                                                       "colour": colour})[0] == 200
            running.wait_for_plies(plies)
        for path in ("/api/record.pgn", "/api/record.txt"):
            status, text = request(running.url + path, pin=None)
            assert status == 200
            record = parse_record(text)
            assert record.moves == ("d6", "f4")
            assert (record.white, record.black) == ("remote", "remote")
            assert record.rules.name == "nine-mens-morris"
            assert replay_record(record).record() == "d6 f4"


@pytest.mark.parametrize("white, black, how, words, result", [
    ("hand", "computer:1", "resign", "white resigned: black wins", "0-1"),
    ("computer:1", "hand", "resign", "black resigned: white wins", "1-0"),
    ("hand", "hand", "resign", "black resigned: white wins", "1-0"),  # black to act
    ("hand", "hand", "draw", "draw agreed", "1/2-1/2"),
])
def test_a_local_game_ends_by_resignation_or_agreement(tmp_path, white, black, how, words,
                                                       result):
    with sim_daemon(tmp_path, white=white, black=black) as running:
        if white == "hand":
            assert request(running.url + "/api/hand", {"op": "place", "point": "d6",
                                                       "colour": "white"})[0] == 200
            running.wait_for_plies(1)
        game_id = running.call(lambda: running.daemon.session.game_id)
        assert request(running.url + "/api/end", {"how": how}) == (
            200, {"ok": True, "result": words})
        stored = running.call(lambda: running.daemon.store.load(game_id))
        assert stored.finished
        record = game_record(stored, "")
        assert record.result == result
        assert record.termination == ("resigned" if how == "resign" else "agreed")
        assert running.call(lambda: running.daemon.session.game_id) != game_id  # a new game


def test_a_draw_against_the_computer_or_a_bad_request_is_refused(tmp_path):
    with sim_daemon(tmp_path, white="hand", black="computer:1") as running:
        status, body = request(running.url + "/api/end", {"how": "draw"})
        assert status == 409 and "the computer plays on" in body["error"]
        status, body = request(running.url + "/api/end", {"how": "surrender"})
        assert status == 409 and "resign or draw" in body["error"]
        assert request(running.url + "/api/end", {"how": "resign"}, pin=None)[0] == 403


def test_review_frames_are_every_position_with_the_points_each_action_touched():
    from navakankari.engine.record import record_of
    from navakankari.engine.variants import new_game
    from navakankari.firmware.companion.review import review

    game = new_game(preset("nine-mens-morris"))
    game.play_record("a7 b6 d7 f6 g7xb6 d2")
    data = review(record_of(game))
    frames = data["frames"]
    assert len(frames) == 8 and frames[0] == {"white": [], "black": [], "action": None,
                                              "touched": []}
    assert frames[6]["action"] == "xb6" and frames[6]["touched"] == ["b6"]
    assert "b6" in frames[5]["black"] and "b6" not in frames[6]["black"]
    assert sorted(frames[-1]["white"]) == sorted(game.board.names(game.pieces(0)))
    assert data["turns"][4] == {"side": "white", "actions": ["g7", "xb6"]}
    jump = new_game(preset("nau-keti-keta"))
    start = set(jump.board.names(jump.occupancy))
    assert set(review(record_of(jump))["frames"][0]["white"]) | set(
        review(record_of(jump))["frames"][0]["black"]) == start


def test_the_page_reviews_a_stored_game_and_a_posted_record_read_only(tmp_path):
    store, game = _stored(tmp_path, "d6 f4 d2 b4", {"winner": "black", "reason": "resigned"})
    store.close()
    with sim_daemon(tmp_path, white="hand", black="hand") as running:
        status, games = request(running.url + "/api/games", pin=None)
        assert status == 200 and games["games"][-1]["game"] == game
        assert games["games"][-1]["result"] == "0-1"
        status, data = request(running.url + f"/api/review?game={game}", pin=None)
        assert status == 200 and len(data["frames"]) == 5 and data["in_play"] is False
        status, data = request(running.url + "/api/review", pin=None)
        assert status == 200 and data["in_play"] is True and len(data["frames"]) == 1
        text = format_record(game_record(Store(tmp_path / "games.sqlite3").load(game), ""))
        status, data = request(running.url + "/api/review", {"record": text}, pin=None)
        assert status == 200 and data["game"] is None and data["frames"][-1]["action"] == "b4"
        for body, words in (({"record": "1. d6 d6"}, "move 1 (black, d6)"),
                            ({"text": "x"}, 'record as "record"'), ([1, 2], 'record as "record"')):
            status, answer = request(running.url + "/api/review", body, pin=None)
            assert status == 409 and words in answer["error"], answer
        status, answer = request(running.url + "/api/review?game=99", pin=None)
        assert status == 409 and "no game 99" in answer["error"]
        status, answer = request(running.url + "/api/review?game=-1", pin=None)
        assert status == 409
        status, _ = request(running.url + "/api/review", raw=b"x" * 20000, pin=None)
        assert status == 413
        assert running.call(lambda: running.daemon.session.record()) == ""


def test_the_command_plays_a_records_computer_turns_again_from_its_seed(tmp_path, capsys):
    from navakankari.engine.player import Player
    from navakankari.engine.record import record_of
    from seeded_game import answered_placements

    game = answered_placements("navakankari", Player(2), seed=77)
    path = tmp_path / "seeded.pgn"
    path.write_text(format_record(record_of(game, white="hand", black="computer:2", seed=77)))
    assert cli.main(["record", str(path), "--repeat", "--moves-only"]) == 0
    assert capsys.readouterr().out.endswith("seed 77: the computer's 4 turns repeat\n")
    path.write_text(path.read_text().replace('[Seed "77"]', '[Seed "78"]').replace(
        '[Black "computer:2"]', '[Black "computer:1"]'))
    assert cli.main(["record", str(path), "--repeat", "--moves-only"]) == 1
    assert "when played again" in capsys.readouterr().out
    path.write_text(path.read_text().replace('[Seed "78"]\n', ""))
    assert cli.main(["record", str(path), "--repeat", "--moves-only"]) == 1
    assert "keeps no Seed tag" in capsys.readouterr().err
