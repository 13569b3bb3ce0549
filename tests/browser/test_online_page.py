"""Online play from the page in a real browser: invite, the code shown, the other board joins,
and the page says who is playing and whether their board is there."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from sim_daemon import sim_daemon

from navakankari.firmware.tools.local_broker import BrokerMissingError, LocalBroker


@pytest.fixture
def broker(tmp_path: Path):  # type: ignore[no-untyped-def]
    try:
        b = LocalBroker(tmp_path)
    except BrokerMissingError as exc:
        pytest.skip(str(exc))
    b.start()
    yield b
    b.stop()


def read_qr(png: bytes) -> str:
    """What a phone's camera reads in a picture of a QR code."""
    import io

    import zxingcpp
    from PIL import Image

    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert len(found) == 1, "one QR code in the picture"
    return str(found[0].text)


def open_page(browser, running):  # type: ignore[no-untyped-def]
    page = browser.new_page()
    page.goto(f"{running.url}/#pin={running.pin}")
    page.wait_for_selector(".point")
    return page


def test_invite_from_the_page_and_see_the_other_board_join(browser, tmp_path, broker):
    page_url = "https://club.example:9001/index.html"
    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma's board",
                    player_page=page_url) as a:
        page = open_page(browser, a)
        page.wait_for_selector("#online:not([hidden])")
        page.select_option("#online-variant", "lasker")
        page.select_option("#online-invite select[name=side]", "black")
        page.click("#online-invite button")
        page.wait_for_function(
            "document.getElementById('online-code-text').textContent.length == 27")
        code = page.text_content("#online-code-text")
        assert len(code) == 27
        assert "waiting for the other player" in page.text_content("#online-status")
        # The code carries the game's secret: only a request with the PIN gets it.
        public = json.loads(urllib.request.urlopen(f"{a.url}/api/state").read())["online"]
        assert public["waiting"] and public["game"] == code.replace("-", "")[:8]
        assert "code" not in public and "link" not in public and code not in json.dumps(public)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{a.url}/api/online/qr.svg")
        assert refused.value.code == 403
        # The link and its QR code open the browser player with the code filled in.
        assert page.get_attribute("#online-link", "href") == f"{page_url}#code={code}"
        page.wait_for_function("document.getElementById('online-qr').naturalWidth > 0")
        assert read_qr(page.locator("#online-qr").screenshot()) == f"{page_url}#code={code}"
        with sim_daemon(tmp_path / "b", broker=broker.url("ravi"),
                        board_name="Ravi's board") as b:
            request = urllib.request.Request(
                f"{b.url}/api/online/join", data=json.dumps({"code": code}).encode(),
                method="POST", headers={"Content-Type": "application/json", "X-Pin": b.pin})
            urllib.request.urlopen(request, timeout=15).read()
            page.wait_for_function("document.getElementById('online-status').textContent"
                                   ".includes('their board is connected')")
            status = page.text_content("#online-status")
            assert "playing Ravi's board (this board black) · connected" in status
            assert page.text_content("#variant") == "lasker"
        # The other board is switched off: its will tells, and the page says since when.
        page.wait_for_function("document.getElementById('online-status').textContent"
                               ".includes('their board is offline since')")
        page.close()


def test_a_board_without_a_broker_shows_no_online_section(browser, tmp_path):
    with sim_daemon(tmp_path) as running:
        page = open_page(browser, running)
        assert page.is_hidden("#online")
        page.close()


def test_inviting_during_a_local_game_asks_before_ending_it(browser, tmp_path, broker):
    with sim_daemon(tmp_path, broker=broker.url("grandma"), board_name="Grandma") as a:
        page = open_page(browser, a)
        page.wait_for_selector("#online:not([hidden])")
        page.click("#point-d6 .hit")
        page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length === 1")
        asked: list[str] = []

        def answer(dialog, accept: bool) -> None:  # type: ignore[no-untyped-def]
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        page.once("dialog", lambda d: answer(d, False))
        page.click("#online-invite button")
        page.wait_for_function("document.getElementById('message').textContent.length > 0")
        assert asked == ["End the game in progress (1 action) and invite a player far away?"]
        assert page.inner_text("#message") == "the game in progress goes on"
        assert a.call(lambda: a.daemon.session.record()) == "d6"
        assert page.is_hidden("#online-code")
        page.once("dialog", lambda d: answer(d, True))
        page.click("#online-invite button")
        page.wait_for_function(
            "document.getElementById('online-code-text').textContent.length == 27")
        assert page.inner_text("#message").startswith("game code ")
        assert page.get_attribute("#message", "class") == "note"  # news, not an error
        page.close()


def test_at_a_fork_the_page_offers_a_takeback_to_the_last_common_move(browser, tmp_path,
                                                                       broker):
    """Another signed move 1 reaches black's board after white's d6: the page says the games
    differ and offers the two ways on; its takeback goes back to the last move both hold."""
    import asyncio

    import aiomqtt
    from sim_daemon import api, carry_out, linked, online, until

    from navakankari.firmware.online.code import GameCode
    from navakankari.firmware.online.messages import Move, sign
    from navakankari.firmware.online.wire import game_topic, seal
    from navakankari.firmware.tools.local_broker import USERS

    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma"
                    ) as a, sim_daemon(tmp_path / "b", broker=broker.url("ravi"),
                                       board_name="Ravi") as b:
        code = linked(a, b)
        page = open_page(browser, b)
        assert page.is_hidden("#online-fork")
        carry_out(lambda body: api(a, "/api/hand", body), "d6", "white")
        until("d6 at black's board", lambda: b.call(
            lambda: [x.text for x in b.daemon.session.tracker.forced]) == ["d6"])
        game = GameCode.parse(code)
        where = game_topic(game, "white", "move")
        other = sign(game.key, Move(game.game, 1, "white", "a1", ""))

        async def publish() -> None:
            async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                      password=USERS["mallory"]) as mallory:
                await mallory.publish(where, seal(game, where, other), qos=1)
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(1) as pool:  # Playwright's loop holds this thread
            pool.submit(asyncio.run, publish()).result()
        page.wait_for_selector("#online-fork:not([hidden])")
        assert "not the same on both sides" in page.text_content("#online-fork")
        assert page.text_content("#online-fork-takeback") == "Take back every move"
        page.click("#online-fork-takeback")
        until("asked there", lambda: (online(a).get("request") or {}).get("keep") == 0)
        api(a, "/api/online/answer", {"accept": True})
        page.wait_for_selector("#online-fork", state="hidden")
        assert api(b, "/api/state")["actions"] == [] and not online(b)["fork"]
        page.close()
