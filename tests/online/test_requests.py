"""Takeback and new game in an online game are requests the other board accepts or declines;
resigning ends the game for both. Two boards through a real Mosquitto, driven over HTTP as
their pages are."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from sim_daemon import api, carry_out, linked, online, sim_daemon, until

from navakankari.firmware.online.code import GameCode
from sealed import on


def refused(running, path: str, body: dict) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(urllib.error.HTTPError) as info:
        api(running, path, body)
    return json.loads(info.value.read().decode())["error"]



def play(boards: dict, side: str, action: str) -> None:
    """`side`'s board makes `action`; the other board's hands carry it out."""
    here, there = boards[side], boards["black" if side == "white" else "white"]
    until("the board ready for its hands",  # as the game expects it, nothing lifted
          lambda: api(here, "/api/state")["status"]["kind"] == "idle")
    n = len(api(here, "/api/state")["actions"]) + 1
    carry_out(lambda body: api(here, "/api/hand", body), action, side)
    until(f"{action} received there", lambda: online(there).get("sequence", 0) >= n)
    carry_out(lambda body: api(there, "/api/hand", body), action, side)
    until(f"{action} carried out there", lambda: len(api(there, "/api/state")["actions"]) >= n)


def another_move_1(broker, code: str, action: str) -> None:  # type: ignore[no-untyped-def]
    """Someone holding the code publishes another signed white move 1 than the one played."""
    import asyncio

    import aiomqtt

    from navakankari.firmware.online.messages import Move, sign

    game = GameCode.parse(code)
    other = sign(game.key, Move(game.game, 1, "white", action, ""))

    async def publish() -> None:
        async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                  password="sneaky-1") as mallory:
            await mallory.publish(*on(game, "white", "move", other), qos=1)
    asyncio.run(publish())


def stored(folder: Path) -> list[tuple[int, str | None, list[str]]]:
    with sqlite3.connect(folder / "games.sqlite3") as db:
        games = db.execute("SELECT id, outcome FROM games ORDER BY id").fetchall()
        return [(g, o, [r[0] for r in db.execute(
            "SELECT text FROM actions WHERE game = ? ORDER BY ply", (g,))]) for g, o in games]


def test_takeback_new_game_and_resigning_between_two_boards(tmp_path, broker):
    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma"
                    ) as a, sim_daemon(tmp_path / "b", broker=broker.url("ravi"),
                                       board_name="Ravi") as b:
        code = linked(a, b)
        boards = {"white": a, "black": b}
        for i, action in enumerate(["d6", "d2", "b4"]):
            play(boards, "white" if i % 2 == 0 else "black", action)

        # A takeback declined: nothing changes, and the board that asked hears so.
        api(a, "/api/online/request", {"what": "takeback"})
        assert online(a)["request"] == {"what": "takeback", "keep": 2, "from": "here"}
        until("the request shown there", lambda: (online(b).get("request") or {}).get("from")
              == "there")
        assert refused(a, "/api/online/request", {"what": "new-game"}).startswith(
            "new-game: the other player has not answered the takeback")
        assert refused(a, "/api/online/request?lang=hi", {"what": "new-game"}) == \
            "new-game: दूसरे खिलाड़ी ने माँगे गए takeback का अभी उत्तर नहीं दिया"
        api(b, "/api/online/answer", {"accept": False})
        until("the answer heard", lambda: "Ravi declined the takeback" in online(a)["ended"])
        assert online(a)["request"] is None and online(b)["request"] is None
        assert api(a, "/api/state")["actions"] == ["d6", "d2", "b4"]

        # Accepted: both boards go back to before white's last turn, and play on from there.
        api(a, "/api/online/request", {"what": "takeback"})
        until("the request shown there", lambda: online(b).get("request"))
        api(b, "/api/online/answer", {"accept": True})
        until("both taken back", lambda: api(a, "/api/state")["actions"] == ["d6", "d2"]
              and api(b, "/api/state")["actions"] == ["d6", "d2"])
        api(a, "/api/hand", {"op": "lift", "point": "b4"})  # the hands put the board back
        api(a, "/api/hand", {"op": "drop"})
        api(b, "/api/hand", {"op": "lift", "point": "b4"})
        api(b, "/api/hand", {"op": "drop"})
        play(boards, "white", "f4")  # another move under number 3: no fork
        assert api(a, "/api/state")["actions"] == api(b, "/api/state")["actions"] \
            == ["d6", "d2", "f4"]
        assert online(a)["rejected"] == online(b)["rejected"] == 0

        # A new game: both start it under the next code, with the same colours.
        api(b, "/api/online/request", {"what": "new-game"})
        until("the request shown there", lambda: online(a).get("request"))
        api(a, "/api/online/answer", {"accept": True})
        following = str(GameCode.parse(code).next())
        until("both in the next game", lambda: online(a).get("code") == following
              and online(b).get("code") == following)
        assert api(a, "/api/state")["actions"] == api(b, "/api/state")["actions"] == []
        for point in ("d6", "d2", "f4"):  # the hands clear the last game's pebbles
            for running in (a, b):
                api(running, "/api/hand", {"op": "lift", "point": point})
                api(running, "/api/hand", {"op": "drop"})
        until("linked again", lambda: online(a).get("opponent_online")
              and online(b).get("opponent_online"))
        play(boards, "white", "a7")

        # Resigning ends the game on both boards.
        api(b, "/api/online/request", {"what": "resign"})
        until("heard there", lambda: "Ravi resigned: white wins" in (online(a).get("ended") or ""))
        assert "this board resigned: white wins" in online(b)["ended"]
        # The page asks in its language and is sent the note in it, the name as it is.
        assert api(a, "/api/state?lang=hi")["online"]["ended"] == "Ravi ने हार मानी: सफ़ेद जीता"
        assert api(b, "/api/state?lang=ta")["online"]["ended"] == \
            "இந்தப் பலகை தோல்வியை ஒப்புக்கொண்டது: வெள்ளை வென்றது"
        assert api(a, "/api/state")["players"] == {"white": "hand", "black": "hand"}
    for folder in (tmp_path / "a", tmp_path / "b"):
        games = stored(folder)
        assert games[-2][1] is not None and json.loads(games[-2][1]) == {
            "winner": "white", "reason": "resigned"}
        assert games[-2][2] == ["a7"]
        assert games[-3][2] == ["d6", "d2", "f4"]


def test_a_restarted_board_keeps_what_a_takeback_withdrew(tmp_path, broker):
    """The takebacks agreed are kept with the game (the `keep` of each): after a restart the
    board rebuilds its log in the same era, so the other board's snapshot is read as before,
    neither refused nor a fork."""
    with sim_daemon(tmp_path / "b", broker=broker.url("ravi"), board_name="Ravi") as b:
        with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma") as a:
            linked(a, b)
            boards = {"white": a, "black": b}
            play(boards, "white", "d6")
            play(boards, "black", "d2")
            api(b, "/api/online/request", {"what": "takeback"})
            until("asked", lambda: online(a).get("request"))
            api(a, "/api/online/answer", {"accept": True})
            until("taken back", lambda: api(a, "/api/state")["actions"] == ["d6"]
                  and api(b, "/api/state")["actions"] == ["d6"])
        kept = json.loads(sqlite3.connect(tmp_path / "a" / "games.sqlite3").execute(
            "SELECT value FROM settings WHERE key LIKE 'online:%'").fetchone()[0])
        assert kept["takebacks"] == [1]
        assert len(kept["heard"]) == 1  # the takeback asked: never acted on again
        with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma") as a:
            until("linked again", lambda: online(a).get("opponent_online"))
            assert online(a)["rejected"] == 0 and api(a, "/api/state")["actions"] == ["d6"]
            assert online(a)["fork"] == ""


def test_a_resignation_forged_in_a_boards_name_is_noticed_and_shown(tmp_path, broker):
    """Someone holding the code publishes "white resigns" on white's own topic: black's board
    cannot tell it from a real one, but white's board reads its own request topic, refuses
    it, clears it and shows what happened."""
    import asyncio
    import secrets

    import aiomqtt

    from navakankari.firmware.online.messages import Request, sign

    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma"
                    ) as a, sim_daemon(tmp_path / "b", broker=broker.url("ravi"),
                                       board_name="Ravi") as b:
        code = linked(a, b)
        play({"white": a, "black": b}, "white", "d6")
        game = GameCode.parse(code)
        forged = sign(game.key, Request(game.game, "white", "resign", 1, 1,
                                        secrets.token_hex(8)))

        async def publish() -> None:
            async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                      password="sneaky-1") as mallory:
                await mallory.publish(*on(game, "white", "request", forged),
                                      qos=1, retain=True)
        asyncio.run(publish())
        until("shown on white's page", lambda: "never made" in (online(a).get("problem") or ""))
        assert "resignation" in online(a)["problem"]
        assert api(a, "/api/state?lang=hi")["online"]["problem"].startswith(
            "जो हार इस बोर्ड ने कभी नहीं मानी")
        assert online(a)["ended"] == "" and api(a, "/api/state")["players"]["black"] == "online"


def test_a_fork_is_shown_on_the_page_and_the_other_boards_moves_no_longer_lit(tmp_path, broker):
    """Someone holding the code sends another signed move 1 than the one played: black's
    board refuses to guess which game is the real one, stops there and says so."""
    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma"
                    ) as a, sim_daemon(tmp_path / "b", broker=broker.url("ravi"),
                                       board_name="Ravi") as b:
        code = linked(a, b)
        play({"white": a, "black": b}, "white", "d6")
        another_move_1(broker, code, "a1")
        until("shown on black's page", lambda: "games differ" in (online(b).get("problem") or ""))
        state = online(b)
        assert state["fork"] == "move 1 is d6 here and a1 there"
        assert "take back to move 0, the last both share, or resign" in state["problem"]
        hindi = api(b, "/api/state?lang=hi")["online"]
        assert hindi["fork"] == "चाल 1 यहाँ d6 है और वहाँ a1"
        assert hindi["problem"] == (
            "दोनों बोर्डों के खेल अलग हो गए (चाल 1 यहाँ d6 है और वहाँ a1): दूसरे बोर्ड की चालें "
            "अब यहाँ नहीं दिखतीं; चाल 0 तक वापस जाएँ, जो दोनों में आखिरी एक जैसी है, या हार मानें")
        assert api(b, "/api/state")["actions"] == ["d6"]
        # Taken back to the last move both games share, the game goes on.
        api(b, "/api/online/request", {"what": "takeback"})
        until("asked there", lambda: (online(a).get("request") or {}).get("keep") == 0)
        api(a, "/api/online/answer", {"accept": True})
        until("both back", lambda: api(a, "/api/state")["actions"] == []
              and api(b, "/api/state")["actions"] == [] and not online(b)["fork"])
        for running in (a, b):  # the hands take d6 off again
            api(running, "/api/hand", {"op": "lift", "point": "d6"})
            api(running, "/api/hand", {"op": "drop"})
        play({"white": a, "black": b}, "white", "a7")
        assert api(b, "/api/state")["actions"] == ["a7"] and online(b)["problem"] == ""


def test_a_move_marked_with_the_other_side_stalls_nothing(tmp_path, broker):
    """The code holder sends, on black's topic, a signed move 3 marked white's: white's board
    refuses it (once it was recorded as white's own move, unlit, and white's hands then
    stalled), and white's real move 3 reaches black."""
    import asyncio

    import aiomqtt

    from navakankari.firmware.online.messages import Move, sign

    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma"
                    ) as a, sim_daemon(tmp_path / "b", broker=broker.url("ravi"),
                                       board_name="Ravi") as b:
        code = linked(a, b)
        boards = {"white": a, "black": b}
        play(boards, "white", "d6")
        play(boards, "black", "d2")
        game = GameCode.parse(code)
        from navakankari.engine.variants import new_game
        from navakankari.firmware.online.log import MoveLog
        held = MoveLog.rebuild(game, new_game("nine-mens-morris"), ["d6", "d2"])
        wrong = sign(game.key, Move(game.game, 3, "white", "a1", held.last_mac))

        async def publish() -> None:
            async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                      password="sneaky-1") as mallory:
                await mallory.publish(*on(game, "black", "move", wrong), qos=1)
        asyncio.run(publish())
        until("refused by white", lambda: online(a)["rejected"] >= 1)
        assert online(a)["sequence"] == 2
        play(boards, "white", "b4")
        assert api(a, "/api/state")["actions"] == api(b, "/api/state")["actions"] \
            == ["d6", "d2", "b4"]


def test_a_request_replayed_after_a_restart_is_not_asked_again(tmp_path, broker):
    """A takeback asked and declined, captured off the broker by another member and published
    again once the other board restarted: the board kept the ids it heard with the game, so
    the old request is not shown again (the game is still at the same move, so only that
    tells it apart)."""
    import asyncio
    import threading

    import aiomqtt

    from navakankari.firmware.online.link import topic

    captured: list[bytes] = []
    listening = threading.Event()

    async def capture(game: GameCode) -> None:
        async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                  password="sneaky-1") as mallory:
            await mallory.subscribe(topic(game, "white", "request"), qos=1)
            listening.set()
            async for message in mallory.messages:
                if isinstance(message.payload, bytes) and message.payload:
                    captured.append(message.payload)
                    return

    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma") as a:
        with sim_daemon(tmp_path / "b", broker=broker.url("ravi"), board_name="Ravi") as b:
            code = linked(a, b)
            boards = {"white": a, "black": b}
            for i, action in enumerate(["d6", "d2", "b4"]):
                play(boards, "white" if i % 2 == 0 else "black", action)
            game = GameCode.parse(code)
            spy = threading.Thread(target=asyncio.run, args=(capture(game),))
            spy.start()
            listening.wait(10)
            api(a, "/api/online/request", {"what": "takeback"})
            until("asked there", lambda: online(b).get("request"))
            api(b, "/api/online/answer", {"accept": False})
            until("declined", lambda: "declined" in online(a)["ended"])
            spy.join(10)
        assert len(captured) == 1
        with sim_daemon(tmp_path / "b", broker=broker.url("ravi"), board_name="Ravi") as b:
            until("linked again", lambda: online(b).get("opponent_online"))

            async def replay() -> None:
                async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                          password="sneaky-1") as mallory:
                    where = topic(game, "white", "request")
                    await mallory.publish(where, captured[0], qos=1, retain=True)
                    await mallory.publish(where, b"[]", qos=1)  # a marker behind it
            asyncio.run(replay())
            until("the replay read", lambda: online(b)["rejected"] >= 1)
            assert online(b)["request"] is None
            assert api(b, "/api/state")["actions"] == ["d6", "d2", "b4"]


def test_at_a_fork_the_board_stops_lighting_the_other_boards_move_and_offers_a_way_on(
        tmp_path, broker):
    """White's d6 arrives at black's board and is lit for its hands; before they carry it
    out, another signed move 1 arrives: the games differ, so the board no longer lights d6
    (which game is real, the players settle) and offers a takeback to the last move both
    hold, here none, which the other board accepts; the game goes on from there."""
    from navakankari.firmware.core.palette import PALETTE, Role

    def lit(running) -> dict:  # type: ignore[no-untyped-def]
        return running.call(lambda: dict(running.daemon.last_frame))

    def forced(running) -> list[str]:  # type: ignore[no-untyped-def]
        return running.call(lambda: [x.text for x in running.daemon.session.tracker.forced])

    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma"
                    ) as a, sim_daemon(tmp_path / "b", broker=broker.url("ravi"),
                                       board_name="Ravi") as b:
        code = linked(a, b)
        carry_out(lambda body: api(a, "/api/hand", body), "d6", "white")
        until("d6 lit on black's board", lambda: forced(b) == ["d6"]
              and lit(b).get("d6") == PALETTE[Role.REMOTE_TO].colour)
        another_move_1(broker, code, "a1")
        until("the fork on black's page", lambda: online(b).get("fork"))
        until("d6 no longer lit", lambda: forced(b) == [] and PALETTE[Role.REMOTE_TO].colour
              not in lit(b).values())
        state = online(b)
        assert (state["fork"], state["common"]) == ("move 1 is d6 here and a1 there", 0)
        assert api(b, "/api/state")["actions"] == []
        # The way on the page offers: back to the last move both hold (none), asked of white.
        api(b, "/api/online/request", {"what": "takeback"})
        until("asked there", lambda: (online(a).get("request") or {}).get("keep") == 0)
        api(a, "/api/online/answer", {"accept": True})
        until("both back", lambda: api(a, "/api/state")["actions"] == []
              and not online(b)["fork"] and online(b)["sequence"] == 0)
        api(a, "/api/hand", {"op": "lift", "point": "d6"})  # white's hands take d6 off
        api(a, "/api/hand", {"op": "drop"})
        play({"white": a, "black": b}, "white", "a7")
        assert api(b, "/api/state")["actions"] == ["a7"] and online(b)["problem"] == ""
