"""The page's refusals come in the page's language: each is a message of the catalogs with
its names and numbers as places, worded for the `?lang=` of the request, so a Hindi or Tamil
page shows no English word but the request's own names (a point, a field, a player)."""

from __future__ import annotations

import re

import pytest
from sim_daemon import sim_daemon
from test_companion import request

from navakankari.firmware.companion.server import RequestError
from navakankari.hal.words import Phrase

NAMES = re.compile(r"'[^']*'|\"[^\"]*\"|\ba1-a4(xd7)?\b|\b[a-g][1-7]\b|"
                   r"K7M-2P9-QRT-AX4-B8C-D3F-GH5|\[online\] broker|sim --broker URL")
"""What a refusal keeps as it is in every language: quoted values, points, the game code's
example, a configuration key, a command."""

# Each refusal the page's API gives on a board played by hand on both sides, without online
# play: the request, its body, the English refusal, the request's own words (its names).
REFUSALS = [
    ("/api/new-game", {"white": "hand", "black": "hand"},
     "new game: variant must be a non-empty string", ("variant",)),
    ("/api/new-game", {"variant": "lasker", "white": "hand", "black": "hand", "first": "red"},
     "new game: first must be white, black or toss", ("first", "white", "black", "toss")),
    ("/api/new-game", {"variant": "lasker", "white": "online", "black": "hand"},
     "new game: an online game starts from an invitation (invite, or join with a code)", ()),
    ("/api/new-game", {"variant": "lasker", "white": "hand", "black": "computer:9"},
     "new game: black: computer level must be 1..6, max or adaptive, not '9'", ("max",
                                                                                "adaptive")),
    ("/api/takeback", {"count": 1, "to": 0}, "takeback: give count or to, not both",
     ("count", "to")),
    ("/api/takeback", {"count": 0}, "takeback: count must be a whole number of at least 1",
     ("count",)),
    ("/api/takeback", {}, "takeback: no action to take back", ()),
    ("/api/move", {"action": 7}, "move: action must be notation such as d6, a1-a4, a1-a4xd7",
     ("action",)),
    ("/api/move", {"action": "d6"}, "move: white is played hand, not from here", ("hand",)),
    ("/api/assist", {"side": "white", "level": "x"},
     "assist: level must be a whole number 0..4", ("level",)),
    ("/api/assist", {"side": "red", "level": 1}, "assist: side must be white or black",
     ("side", "white", "black")),
    ("/api/assist", {"side": "white", "level": 9}, "assist: level must be 0..4", ("level",)),
    ("/api/end", {"how": "later"}, "end: how must be resign or draw",
     ("how", "resign", "draw")),
    ("/api/online/invite", {"side": "white", "starts": "white"},
     "invite: variant must be the name of a game the board knows", ("variant",)),
    ("/api/online/invite", {"variant": "navakankari", "side": "red", "starts": "white"},
     "invite: side must be white or black, and starts white, black or toss",
     ("side", "starts", "white", "black", "toss")),
    ("/api/online/invite", {"variant": "navakankari", "side": "white", "starts": "toss"},
     "invite: online play is not configured on this board (the configuration's [online] "
     "broker, or sim --broker URL)", ()),
    ("/api/online/join", {"code": 7},
     "join: code must be the game code, as K7M-2P9-QRT-AX4-B8C-D3F-GH5", ("code",)),
    ("/api/online/request", {"what": "cake"},
     "request: what must be takeback, new-game, resign", ("what", "takeback", "new-game",
                                                           "resign")),
    ("/api/online/request", {"what": "takeback"},
     "takeback: online play is not configured on this board (the configuration's [online] "
     "broker, or sim --broker URL)", ()),
    ("/api/online/answer", {"accept": "yes"}, "answer: accept must be true or false",
     ("accept", "true", "false")),
    ("/api/online/answer", {"accept": True},
     "answer: online play is not configured on this board (the configuration's [online] "
     "broker, or sim --broker URL)", ()),
    ("/api/review-lights", {"points": "d6"},
     "review lights: points must be a list of at most 32 point names, or null to end",
     ("points", "null")),
    ("/api/speech", {"on": "loud"}, "speech: on must be true or false", ("on", "true", "false")),
    ("/api/language", {"language": "fr"}, "language: choose one of en, hi, gu, kn, te, mr, bn, ta",
     ("en", "hi", "gu", "kn", "te", "mr", "bn", "ta")),
    ("/api/review", {}, 'review: the body must hold the game record as "record"', ()),
    ("/api/hand", {"op": "juggle"},
     "hand: op must be one of lift, put, place, move, drop, clear, setup, not 'juggle'",
     ("op", "lift", "put", "place", "move", "drop", "clear", "setup")),
    ("/api/hand", {"op": "lift", "point": "z9"},
     "hand: point must be a point of the board, not 'z9'", ("point",)),
    ("/api/hand", {"op": "lift", "point": "a1"}, "there is no pebble on a1", ()),
    ("/api/hand", {"op": "put", "point": "a1"}, "the hand holds no pebble", ()),
    ("/api/hand", {"op": "drop"}, "the hand holds no pebble", ()),
    ("/api/hand", {"op": "place", "point": "a1", "colour": "red"},
     "hand: colour must be white or black, not 'red'", ("colour", "white", "black")),
    ("/api/hand", {"op": "place", "point": "a1", "colour": "white", "chatter": 99},
     "hand: chatter must be a whole number 0..5, not 99", ("chatter",)),
]


def english_left(text: str, names: tuple[str, ...]) -> list[str]:
    """The Latin-letter words of `text` that are not the request's own names."""
    text = NAMES.sub(" ", text)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z-]+", text) if w not in names]


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    with sim_daemon(tmp_path_factory.mktemp("refusals")) as running:
        yield running


# The refusals of a board where the computer plays black.
AGAINST_THE_COMPUTER = [
    ("/api/assist", {"side": "black", "level": 2},
     "assist: black is not played by hand (computer:1): only a side played by hand gets help",
     ("computer",)),
    ("/api/end", {"how": "draw"}, "draw: the computer plays on; a draw is agreed between two "
     "players at the board", ()),
]


@pytest.mark.parametrize("path, body, english, names", REFUSALS,
                         ids=[f"{p} {e[:40]}" for p, _, e, _ in REFUSALS])
def test_each_refusal_is_worded_in_the_pages_language(running, path, body, english, names):
    refused_alike(running, path, body, english, names)


def test_the_refusals_of_a_game_against_the_computer_are_worded_too(tmp_path):
    with sim_daemon(tmp_path, black="computer:1") as running:
        for path, body, english, names in AGAINST_THE_COMPUTER:
            refused_alike(running, path, body, english, names)


def refused_alike(running, path: str, body: dict, english: str, names: tuple[str, ...]) -> None:
    """`body` sent to `path` is refused with `english` on an English page, and on a Hindi and
    a Tamil page in their words, keeping its names and numbers."""
    assert request(running.url + path + "?lang=en", body) == (409, {"error": english})
    numbers = re.findall(r"\b\d+\b", english)
    for code in ("hi", "ta"):
        status, answer = request(f"{running.url}{path}?lang={code}", body)
        said = answer["error"]
        assert status == 409 and said != english, (code, said)
        assert english_left(said, names) == [], (code, said)
        for kept in re.findall(r"'[^']*'|\b[a-g][1-7]\b", english) + numbers:
            assert kept in said, (code, kept, said)


def test_a_refusal_is_a_phrase_and_nothing_else():
    with pytest.raises(TypeError):
        RequestError("a refusal in English only")  # type: ignore[arg-type]
    assert isinstance(RequestError(Phrase("the board is still starting")).problem, Phrase)


def test_a_game_with_actions_refuses_a_takeback_past_them_in_the_language(tmp_path):
    with sim_daemon(tmp_path, black="remote") as running:
        assert request(running.url + "/api/hand", {"op": "place", "point": "a1",
                                                   "colour": "white"})[0] == 200
        running.wait_for_plies(1)
        assert request(running.url + "/api/takeback?lang=en", {"to": 5}) == (
            409, {"error": "takeback: the game has 1 action; to must be 0..1"})
        assert request(running.url + "/api/takeback?lang=hi", {"to": 5}) == (
            409, {"error": "चाल वापसी: खेल में 1 चाल है; to 0..1 होना चाहिए"})
        status, answer = request(running.url + "/api/move?lang=ta", {"action": "zz"})
        assert status == 409 and answer["error"].startswith("நகர்வு: ")
        assert request(running.url + "/api/hand?lang=ta", {"op": "place", "point": "a1",
                                                           "colour": "black"}) == (
            409, {"error": "a1 இல் ஏற்கெனவே ஒரு காய் உள்ளது"})
        status, answer = request(running.url + "/api/end?lang=hi", {"how": "resign"})
        assert status == 200 and answer["result"] == "काला ने हार मानी: सफ़ेद जीता"
        assert request(running.url + "/api/end?lang=ta", {"how": "draw"}) == (
            200, {"ok": True, "result": "சமநிலைக்கு ஒப்புதல்"})


def test_a_wrong_pin_is_refused_in_the_pages_language(running):
    url = running.url + "/api/takeback"
    assert request(url + "?lang=en", {}, pin="0000") == (403, {"error": "wrong or missing PIN"})
    assert request(url + "?lang=hi", {}, pin="0000") == (
        403, {"error": "PIN ग़लत है या नहीं दिया गया"})
    assert request(url + "?lang=ta", {}, pin="") == (
        403, {"error": "PIN தவறு அல்லது கொடுக்கப்படவில்லை"})


def test_a_stored_game_that_is_not_there_is_named_in_the_language(running):
    status, answer = request(running.url + "/api/review?game=99&lang=en", pin=None)
    assert status == 409 and answer["error"].startswith("review: ") and "99" in answer["error"]
    for code in ("hi", "ta"):
        status, answer = request(f"{running.url}/api/review?game=99&lang={code}", pin=None)
        assert status == 409 and "99" in answer["error"], answer
        assert english_left(answer["error"], ()) == [], answer


class Starting:
    """A board still starting: it has no language yet and refuses every change."""

    def snapshot(self, language: str = "en") -> dict:
        return {}

    def language(self) -> str:
        raise RequestError(Phrase("the board is still starting"))

    def add_listener(self, callback):  # type: ignore[no-untyped-def]
        return lambda: None

    async def takeback(self, count: int | None, to: int | None = None) -> None:
        self.language()

    async def stored(self) -> None:
        """Nothing waits to be stored here."""


def test_a_board_still_starting_refuses_in_the_browsers_language_and_names_are_checked_first():
    import asyncio

    from aiohttp.test_utils import TestClient, TestServer

    from navakankari.firmware.companion.server import Companion

    async def main() -> None:
        companion = Companion(Starting(), "2468")  # type: ignore[arg-type]
        async with TestClient(TestServer(companion.app(), host="127.0.0.1")) as client:
            r = await client.post("/api/takeback", json={}, headers={
                "X-Pin": "2468", "Accept-Language": "hi-IN,hi;q=0.9"})
            assert (r.status, await r.json()) == (409, {"error": "बोर्ड अभी शुरू हो रहा है"})
            r = await client.post("/api/takeback", json={}, headers={"X-Pin": "2468"})
            assert (r.status, await r.json()) == (409, {"error": "the board is still starting"})
            r = await client.get("/api/state?lang=ta", headers={"Host": "evil.example"})
            assert (r.status, await r.json()) == (421, {
                "error": "இந்தப் பலகை 'evil.example' என்ற பெயருக்குப் பதில் அளிக்காது"})
            r = await client.post("/api/takeback?lang=hi", data="[1]", headers={"X-Pin": "2468"})
            assert (r.status, await r.json()) == (400, {
                "error": "अनुरोध एक JSON ऑब्जेक्ट होना चाहिए"})
    asyncio.run(main())


def test_the_menus_refusals_are_worded_too(tmp_path):
    with sim_daemon(tmp_path, menu=True) as running:
        refused_alike(running, "/api/end", {"how": "resign"}, "resign: no game is in play", ())
        refused_alike(running, "/api/hand", {"op": "move", "from": "a4", "to": "a7"},
                      "there is no pebble on a4", ())
