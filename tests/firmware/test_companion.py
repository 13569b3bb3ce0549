"""The web companion over HTTP, against a daemon on the simulated board."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import aiohttp
import pytest
from sim_daemon import PIN, sim_daemon


def request(url: str, body: object = None, *, pin: str | None = PIN, raw: bytes | None = None,
            method: str | None = None) -> tuple[int, dict | str]:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {"Content-Type": "application/json"}
    if pin is not None:
        headers["X-Pin"] = pin
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            text = response.read().decode()
            status = response.status
    except urllib.error.HTTPError as exc:
        text = exc.read().decode()
        status = exc.code
    try:
        return status, json.loads(text)
    except json.JSONDecodeError:
        return status, text


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    with sim_daemon(tmp_path_factory.mktemp("companion")) as running:
        yield running


def test_the_page_and_its_files_are_served(running):
    status, text = request(running.url + "/", pin=None)
    assert status == 200 and "<svg id=\"board\"" in text
    for name in ("app.js", "style.css"):
        assert request(f"{running.url}/static/{name}", pin=None)[0] == 200


@pytest.mark.parametrize("path", [
    "/static/..%2F..%2Fpyproject.toml", "/static/%2e%2e%2fcompanion.py", "/static/companion.py",
    "/static/../companion.py", "/../../etc/passwd",
])
def test_nothing_outside_the_static_folder_is_served(running, path):
    status, body = request(running.url + path, pin=None)
    assert status == 404
    assert "import" not in str(body)


def test_viewing_needs_no_pin(running):
    status, state = request(running.url + "/api/state", pin=None)
    assert status == 200
    assert state["variant"] == "nine-mens-morris" and len(state["board"]["points"]) == 24
    assert state["sim"] is True and state["status"]["text"]


# One request per changing endpoint that the right PIN would carry out (200).
CHANGES = {
    "/api/hand": {"op": "place", "point": "a1", "colour": "black"},
    "/api/new-game": {"variant": "lasker", "white": "hand", "black": "hand"},
    "/api/takeback": {},
    "/api/move": {"action": "d7"},
}


def _visible(state: dict) -> tuple:
    return (state["variant"], state["players"], state["pebbles"], state["actions"],
            state["status"]["kind"])


@pytest.mark.parametrize("path", sorted(CHANGES))
def test_changes_need_the_pin(tmp_path, path):
    # Both sides play from here, so each request is one the right PIN gets carried out.
    with sim_daemon(tmp_path, white="remote", black="remote") as running:
        assert request(running.url + "/api/move", {"action": "d6"})[0] == 200
        assert request(running.url + "/api/hand", {"op": "place", "point": "d6",
                                                   "colour": "white"})[0] == 200
        running.wait_for_plies(1)
        before = request(running.url + "/api/state", pin=None)[1]
        assert before["actions"] == ["d6"]
        for pin in (None, "", PIN + "0"):
            status, body = request(running.url + path, CHANGES[path], pin=pin)
            assert (status, body) == (403, {"error": "wrong or missing PIN"}), pin
            assert _visible(request(running.url + "/api/state", pin=None)[1]) == _visible(before)
        assert running.call(lambda: running.daemon.session.record()) == "d6"
        assert running.daemon.board.simulation.pebbles == {"d6": "white"}
        # The same request with the PIN is carried out: the refusal was the PIN's doing.
        assert request(running.url + path, CHANGES[path]) == (200, {"ok": True})
        assert _visible(request(running.url + "/api/state", pin=None)[1]) != _visible(before)


def test_a_new_game_from_the_page_names_who_moves_first_and_each_keeps_its_players(running):
    url = running.url + "/api/new-game"
    body = {"variant": "lasker", "white": "hand", "black": "computer:2"}
    assert request(url, {**body, "first": "black"}) == (200, {"ok": True})
    state = request(running.url + "/api/state")[1]
    assert (state["first"], state["turn"]) == ("black", "black")
    assert state["players"] == {"white": "hand", "black": "computer:2"}
    record = request(running.url + "/api/record.pgn")[1]
    assert '[FEN "' in record and '[White "hand"]' in record
    seen = set()
    for _ in range(40):  # a toss: each side starts some of the time, the players stay
        assert request(url, {**body, "first": "toss"}) == (200, {"ok": True})
        state = request(running.url + "/api/state")[1]
        assert state["turn"] == state["first"] and state["players"]["white"] == "hand"
        seen.add(state["first"])
        if len(seen) == 2:
            break
    assert seen == {"white", "black"}
    assert request(url, body) == (200, {"ok": True})  # without it: white, the rules' start
    assert request(running.url + "/api/state")[1]["first"] == "white"


def test_the_page_starts_a_game_against_the_adaptive_computer_and_names_its_level(running):
    body = {"variant": "lasker", "white": "computer:adaptive", "black": "hand"}
    assert request(running.url + "/api/new-game", body) == (200, {"ok": True})
    state = request(running.url + "/api/state")[1]
    assert state["players"] == {"white": "computer:adaptive", "black": "hand"}
    from navakankari.engine.player import DEFAULT_LEVEL

    assert state["adaptive_level"] == DEFAULT_LEVEL  # no games against it in this store yet
    body = {"variant": "lasker", "white": "hand", "black": "hand"}
    assert request(running.url + "/api/new-game", body) == (200, {"ok": True})
    assert request(running.url + "/api/state")[1]["adaptive_level"] is None


def test_the_page_s_review_lights_its_move_on_the_board(running):
    url = running.url + "/api/review-lights"
    assert request(url, {"points": ["d6", "f4"]}, pin=None)[0] == 403  # the PIN's to give
    assert running.call(lambda: running.daemon.session.status.review) is None
    assert request(url, {"points": ["d6", "f4"]}) == (200, {"ok": True})
    assert running.call(lambda: running.daemon.session.status.review) == ("d6", "f4")
    assert request(url, {"points": None}) == (200, {"ok": True})
    assert running.call(lambda: running.daemon.session.status.review) is None


def test_malformed_requests_are_refused_clearly(running):
    url = running.url + "/api/new-game"
    assert request(url, raw=b"{not json") == (400, {"error": "the request body is not JSON"})
    assert request(url, raw=b"[1, 2]") == (400, {"error": "the request body must be a JSON object"})
    status, body = request(url, {"variant": "chess", "white": "hand", "black": "hand"})
    assert status == 409 and "unknown variant 'chess'" in body["error"]
    status, body = request(url, {"variant": "lasker", "white": "robot", "black": "hand"})
    assert status == 409 and "unknown player 'robot'" in body["error"]
    status, body = request(running.url + "/api/hand", {"op": "juggle"})
    assert status == 409 and "op must be one of" in body["error"]
    status, body = request(running.url + "/api/hand", {"op": "lift", "point": "z9"})
    assert status == 409 and "must be a point of the board" in body["error"]
    status, body = request(running.url + "/api/takeback", {"count": "all"})
    assert status == 409 and "count must be a whole number" in body["error"]


@pytest.mark.parametrize("path, body, message", [
    ("/api/new-game", {"white": "hand", "black": "hand"},
     "new game: variant must be a non-empty string"),
    ("/api/new-game", {"variant": "lasker", "white": "", "black": "hand"},
     "new game: white must be a non-empty string"),
    ("/api/new-game", {"variant": "lasker", "white": "hand", "black": 3},
     "new game: black must be a non-empty string"),
    ("/api/new-game", {"variant": "lasker", "white": "hand", "black": "hand", "first": "red"},
     "new game: first must be white, black or toss"),
    ("/api/review-lights", {"points": "d6"},
     "review lights: points must be a list of at most 32 point names, or null to end"),
    ("/api/review-lights", {"points": ["d6", 7]},
     "review lights: points must be a list of at most 32 point names, or null to end"),
    ("/api/takeback", {"count": 1, "to": 0}, "takeback: give count or to, not both"),
    ("/api/takeback", {"count": 0}, "takeback: count must be a whole number of at least 1"),
    ("/api/takeback", {"to": -1}, "takeback: to must be a whole number of at least 0"),
    ("/api/takeback", {"count": True}, "takeback: count must be a whole number of at least 1"),
    ("/api/move", {"action": 7}, "move: action must be notation such as d6, a1-a4, a1-a4xd7"),
    ("/api/move", {"action": "   "},
     "move: action must be notation such as d6, a1-a4, a1-a4xd7"),
    ("/api/move", {"action": "d" * 65},
     "move: action must be notation such as d6, a1-a4, a1-a4xd7"),
])
def test_each_field_of_a_change_is_checked(running, path, body, message):
    before = request(running.url + "/api/state")[1]
    assert request(running.url + path, body) == (409, {"error": message})
    assert _visible(request(running.url + "/api/state")[1]) == _visible(before)


def test_a_takeback_of_one_action_passes_the_checks(tmp_path):
    with sim_daemon(tmp_path) as running:  # an empty game: the game, not the check, refuses
        assert request(running.url + "/api/takeback", {"count": 1}) == (
            409, {"error": "takeback: no action to take back"})


def test_an_oversized_body_is_refused(running):
    status, body = request(running.url + "/api/new-game", raw=b"{" + b" " * 40_000 + b"}")
    assert status == 413 and "larger than" in body["error"]


def test_the_hand_moves_simulated_pebbles(running):
    url = running.url + "/api/hand"
    assert request(url, {"op": "place", "point": "a1", "colour": "white"})[0] == 200
    assert running.daemon.board.simulation.pebbles == {"a1": "white"}
    assert request(url, {"op": "lift", "point": "a1"})[0] == 200
    assert request(running.url + "/api/state")[1]["hand"] == "white"
    status, body = request(url, {"op": "lift", "point": "a1"})
    assert status == 409 and "already holds a pebble" in body["error"]
    assert request(url, {"op": "put", "point": "a4"})[0] == 200
    assert request(url, {"op": "move", "from": "a4", "to": "a7"})[0] == 200
    assert running.daemon.board.simulation.pebbles == {"a7": "white"}
    assert request(url, {"op": "clear"})[0] == 200
    assert running.daemon.board.simulation.pebbles == {}


def test_a_new_game_and_a_board_it_cannot_play(running):
    status, _ = request(running.url + "/api/new-game",
                        {"variant": "lasker", "white": "hand", "black": "computer:2"})
    assert status == 200
    state = request(running.url + "/api/state")[1]
    assert state["variant"] == "lasker" and state["players"] == {"white": "hand",
                                                                  "black": "computer:2"}
    status, body = request(running.url + "/api/takeback", {})
    assert status == 409 and "no action to take back" in body["error"]


def test_changes_are_refused_when_no_pin_is_configured(tmp_path):
    with sim_daemon(tmp_path, pin="") as running:
        status, body = request(running.url + "/api/takeback", {}, pin="")
        assert status == 403 and "set a PIN in the configuration" in body["error"]


def test_the_websocket_sends_the_state(running):
    async def first_message() -> dict:
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(running.url + "/ws") as ws:
                return await ws.receive_json(timeout=10)

    message = asyncio.run(first_message())
    assert message["type"] == "state" and "leds" in message and "actions" in message


def test_a_remote_side_moves_from_the_page(tmp_path):
    with sim_daemon(tmp_path, white="hand", black="remote") as running:
        url = running.url + "/api/move"
        status, body = request(url, {"action": "d6"})
        assert status == 409 and "white is played hand, not from here" in body["error"]
        assert request(running.url + "/api/hand", {"op": "place", "point": "a1",
                                                   "colour": "white"})[0] == 200
        running.wait_for_plies(1)
        status, body = request(url, {"action": "a1"})
        assert status == 409 and "a1 is not legal here" in body["error"]
        assert request(url, {"action": ""})[0] == 409
        assert request(url, {"action": "d7"})[0] == 200
        state = request(running.url + "/api/state")[1]
        assert state["status"]["kind"] == "executing" and state["status"]["forced"] == ["d7"]
        assert "put a black pebble on d7" in state["status"]["text"]


def test_takeback_to_any_earlier_position_and_from_the_command_line(tmp_path, capsys):
    from navakankari.firmware.cli import main as cli

    with sim_daemon(tmp_path) as running:
        for n, point in enumerate(["a1", "d1", "g1"], start=1):
            request(running.url + "/api/hand", {"op": "place", "point": point,
                                               "colour": "white" if n % 2 else "black"})
            running.wait_for_plies(n)
        status, body = request(running.url + "/api/takeback", {"to": 9})
        assert status == 409 and "to must be 0..3" in body["error"]
        assert request(running.url + "/api/takeback", {"to": 1})[0] == 200
        assert running.call(lambda: running.daemon.session.record()) == "a1"
        config = tmp_path / "daemon.toml"
        port = running.url.rsplit(":", 1)[1]
        config.write_text(f'[web]\nport = {port}\npin = "{running.pin}"\n')
        assert cli.main(["takeback", "--config", str(config), "--to", "0"]) == 0
        assert running.call(lambda: running.daemon.session.record()) == ""
        assert cli.main(["new-game", "--config", str(config), "--variant", "lasker"]) == 0
        assert running.call(lambda: running.daemon.session.rules.name) == "lasker"
        config.write_text(f'[web]\nport = {port}\npin = "0000"\n')
        assert cli.main(["takeback", "--config", str(config)]) == 1
        assert "the daemon refused: wrong or missing PIN" in capsys.readouterr().err
        config.write_text(f'[board]\nlanguage = "hi"\n[web]\nport = {port}\npin = "0000"\n')
        assert cli.main(["takeback", "--config", str(config)]) == 1
        assert capsys.readouterr().err == ("navakankari takeback: बोर्ड की सेवा ने मना किया: PIN "
                                           "ग़लत है या नहीं दिया गया\n")


def test_the_command_line_says_when_no_daemon_answers(tmp_path, capsys):
    from navakankari.firmware.cli import main as cli
    from sim_daemon import free_port

    config = tmp_path / "daemon.toml"
    config.write_text(f'[web]\nport = {free_port()}\npin = "1"\n')
    assert cli.main(["takeback", "--config", str(config)]) == 1
    assert "no daemon answers at http://127.0.0.1:" in capsys.readouterr().err
    config.write_text(f'[board]\nlanguage = "ta"\n[web]\nport = {free_port()}\npin = "1"\n')
    assert cli.main(["takeback", "--config", str(config)]) == 1
    said = capsys.readouterr().err
    assert said.startswith("navakankari takeback: http://127.0.0.1:") and \
        "இல் பலகையின் எந்தச் சேவையும் பதில் அளிக்கவில்லை" in said and "`navakankari run`" in said


def test_the_move_list_comes_by_turn():
    """A move and the removal it earned are one turn of one side (the page's move list)."""
    from navakankari.engine.presets import preset
    from navakankari.engine.variants import new_game
    from navakankari.firmware.companion.review import turns

    game = new_game(preset("lasker"))
    game.play_record("a7 b6 d7 f6 g7 xb6 d2")
    assert turns(game) == [
        {"side": "white", "actions": ["a7"]}, {"side": "black", "actions": ["b6"]},
        {"side": "white", "actions": ["d7"]}, {"side": "black", "actions": ["f6"]},
        {"side": "white", "actions": ["g7", "xb6"]}, {"side": "black", "actions": ["d2"]}]
    assert turns(new_game(preset("lasker"))) == []
