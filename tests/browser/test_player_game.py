"""A board against a player in a browser: the board invites, Chromium loads the browser player
from the broker's own websockets listener (`http_dir`), joins with the code over MQTT over
WebSockets, and the two play a whole game; the board's hands carry out the browser's moves."""

from __future__ import annotations

import random
import sqlite3

from navakankari.engine.variants import new_game
from navakankari.firmware.tools.local_broker import USERS
from sim_daemon import api, carry_out, quick_choice, sim_daemon, until

WAIT = 20.0


def test_a_board_plays_a_whole_game_against_a_browser(browser, log_in, tmp_path, served):
    variant = "six-mens-morris"
    with sim_daemon(tmp_path / "board", broker=served.url("grandma"),
                    board_name="Grandma's board") as board:
        code = api(board, "/api/online/invite",
                   {"variant": variant, "side": "white", "starts": "white"})["code"]
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{served.ws_port}/index.html#code={code}"
                  f"&broker=ws://127.0.0.1:{served.ws_port}")
        log_in(page, "Ravi's phone")
        page.click("#join-form button")
        page.wait_for_selector("#game:not([hidden])", timeout=WAIT * 1000)
        online = until("the board sees the browser join",
                       lambda: (api(board, "/api/state").get("online") or {}).get("opponent"))
        assert online == "Ravi's phone"
        board_colour = api(board, "/api/state")["online"]["side"]
        web_colour = "black" if board_colour == "white" else "white"
        assert "against Grandma's board" in page.text_content("#players")
        # What the board shows: an empty point is a small dot (green where it may be played,
        # when it is this side's turn), a pebble a disc of its colour.
        style = page.evaluate("""() => {
          const g = Array.from(document.querySelectorAll('#board .point'))
            .find((p) => !p.querySelector('.pebble'));
          const css = (sel) => getComputedStyle(g.querySelector(sel));
          return {ring: css('circle.ring').fill, spot: css('circle.spot').fill,
                  pebble: g.querySelector('.pebble') !== null};
        }""")
        assert style["ring"] == "none" and not style["pebble"]  # no black disc on an empty point
        assert style["spot"] in ("rgb(107, 75, 42)", "rgb(46, 157, 74)")
        until("presence on both sides", lambda: "Grandma's board is connected"
              in page.text_content("#link") and api(board, "/api/state")["online"]["opponent_online"])

        game = new_game(variant)
        rnd = random.Random(11)
        while game.outcome() is None:
            action = quick_choice(game, rnd)
            side = str(game.turn)
            game.play(action)
            n = len(game.history)
            if side == board_colour:
                carry_out(lambda body: api(board, "/api/hand", body), action, side, chatter=1)
                until(f"the board commits {action}",
                      lambda: len(api(board, "/api/state")["actions"]) >= n)
                page.wait_for_function(f"document.querySelectorAll('#moves li').length >= {n}",
                                       timeout=WAIT * 1000)
            else:
                page.click(f"[data-point='{action.lstrip('x').split('-')[0]}'] .hit")
                if "-" in action:
                    page.click(f"[data-point='{action.split('-')[1]}'] .hit")
                page.wait_for_function(f"document.querySelectorAll('#moves li').length >= {n}",
                                       timeout=WAIT * 1000)
                # lit on the board for its hands, who carry it out
                until(f"the board shows {action}", lambda: len(
                    api(board, "/api/state")["online"] or {}) and api(
                    board, "/api/state")["online"]["sequence"] >= n)
                carry_out(lambda body: api(board, "/api/hand", body), action, side, chatter=1)
                until(f"the board commits {action}",
                      lambda: len(api(board, "/api/state")["actions"]) >= n)
        state = api(board, "/api/state")
        web_moves = page.evaluate("Array.from(document.querySelectorAll('#moves li'), li => li.textContent)")
        assert state["actions"] == [a.text for a in game.history] == web_moves
        # Row by row as a record reads: white's move on the left, black's on the right of it,
        # one number for both.
        rows = page.evaluate("""() => [...document.querySelectorAll('#moves li')].map(li => [
            li.dataset.side, li.dataset.number, Math.round(li.getBoundingClientRect().top),
            Math.round(li.getBoundingClientRect().left)])""")
        assert [r[1] for r in rows[:4]] == ["1.", "", "2.", ""]
        assert rows[0][2] == rows[1][2] < rows[2][2] and rows[0][3] < rows[1][3]
        assert state["outcome"] is not None
        turn_text = page.text_content("#turn")
        winner = game.outcome().winner
        assert ("You won" if str(winner) == web_colour else "Grandma's board won") in turn_text
        page.close()
    with sqlite3.connect(tmp_path / "board" / "games.sqlite3") as db:
        stored = [r[0] for r in db.execute("SELECT text FROM actions ORDER BY game, ply")]
    assert stored == [a.text for a in game.history]


def test_a_wrong_password_and_a_mistyped_code_are_each_one_clear_line(browser, served):
    from navakankari.firmware.online.code import GameCode

    page = browser.new_page()
    base = f"http://127.0.0.1:{served.ws_port}/index.html"
    code = str(GameCode.new())
    page.goto(f"{base}#code={code}&broker=ws://127.0.0.1:{served.ws_port}")
    page.fill("#username", "ravi")
    page.fill("#password", "not-the-password")
    page.click("#join-form button")
    page.wait_for_function("document.getElementById('problem').textContent.includes('refused')")
    assert page.text_content("#problem") == \
        "the broker refused the login: check the user name and password"
    page.fill("#password", USERS["ravi"])
    page.click("#join-form button")
    page.wait_for_function("document.getElementById('problem').textContent.includes('no game')",
                           timeout=WAIT * 1000)
    assert page.text_content("#problem") == "no game waits under this code (ended, or mistyped?)"
    page.fill("#code", code[:-1] + ("0" if code[-1] != "0" else "1"))
    page.click("#join-form button")
    assert page.text_content("#problem") == "the game code does not check: a symbol was mistyped"
    from navakankari.firmware.tools.local_broker import free_port

    down = f"ws://127.0.0.1:{free_port()}"
    page.fill("#code", code)
    page.fill("#broker", down)
    page.click("#join-form button")
    page.wait_for_function("document.getElementById('problem').textContent.includes('reach')",
                           timeout=WAIT * 1000)
    assert page.text_content("#problem") == f"cannot reach the broker at {down}"
    page.close()


def test_takeback_new_game_and_resigning_with_a_browser(browser, log_in, tmp_path, served):
    from navakankari.firmware.online.code import GameCode

    with sim_daemon(tmp_path / "board", broker=served.url("grandma"),
                    board_name="Grandma's board") as board:
        def hand(body: dict) -> None:
            api(board, "/api/hand", body)

        def online() -> dict:
            return api(board, "/api/state")["online"] or {}

        code = api(board, "/api/online/invite",
                   {"variant": "nine-mens-morris", "side": "white", "starts": "white"})["code"]
        page = browser.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"http://127.0.0.1:{served.ws_port}/index.html#code={code}")
        log_in(page, "Ravi's phone")
        page.click("#join-form button")
        until("linked", lambda: online().get("opponent_online"))

        def moves_shown(n: int) -> None:
            page.wait_for_function(f"document.querySelectorAll('#moves li').length == {n}",
                                   timeout=WAIT * 1000)

        carry_out(hand, "d6", "white")
        moves_shown(1)
        page.click("[data-point='d2'] .hit")
        until("d2 received", lambda: online()["sequence"] == 2)
        carry_out(hand, "d2", "black")
        until("d2 carried out", lambda: len(api(board, "/api/state")["actions"]) == 2)

        # The browser asks to take back its turn; the board's player accepts on its page.
        page.click("[data-ask='takeback']")
        assert "waiting for Grandma's board" in page.text_content("#request-text")
        until("asked", lambda: (online().get("request") or {}).get("from") == "there")
        api(board, "/api/online/answer", {"accept": True})
        moves_shown(1)
        until("taken back on the board", lambda: api(board, "/api/state")["actions"] == ["d6"])
        hand({"op": "lift", "point": "d2"})
        hand({"op": "drop"})
        until("the board ready", lambda: api(board, "/api/state")["status"]["kind"] != "restore")
        page.click("[data-point='f4'] .hit")
        until("f4 received", lambda: online()["sequence"] == 2)
        carry_out(hand, "f4", "black")
        until("f4 carried out", lambda: api(board, "/api/state")["actions"] == ["d6", "f4"])

        # The board asks for a new game; the browser accepts: both play the next code.
        api(board, "/api/online/request", {"what": "new-game"})
        page.wait_for_selector("#accept:not([hidden])", timeout=WAIT * 1000)
        assert "Grandma's board asks for a new game" in page.text_content("#request-text")
        page.click("#accept")
        following = str(GameCode.parse(code).next())
        until("the next game on the board", lambda: online().get("code") == following)
        page.wait_for_function(f"location.hash.includes('{following}')", timeout=WAIT * 1000)
        moves_shown(0)
        for point in ("d6", "f4"):
            hand({"op": "lift", "point": point})
            hand({"op": "drop"})
        until("linked again", lambda: online().get("opponent_online"))

        # The browser resigns: the game ends for both.
        page.click("[data-ask='resign']")
        until("the board hears", lambda: "Ravi's phone resigned: white wins"
              in (online().get("ended") or ""))
        assert page.text_content("#turn") == "You resigned: white wins."
        page.close()


def test_a_browser_invites_and_a_board_joins(browser, log_in, tmp_path, served):
    with sim_daemon(tmp_path / "board", broker=served.url("grandma"),
                    board_name="Grandma's board") as board:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{served.ws_port}/index.html")
        log_in(page, "Asha's phone")
        page.select_option("#variant", "lasker")
        page.select_option("#invite select[name=side]", "black")
        page.select_option("#invite select[name=starts]", "black")
        page.click("#invite button")
        page.wait_for_selector("#waiting:not([hidden])", timeout=WAIT * 1000)
        code = page.text_content("#waiting-code")
        api(board, "/api/online/join", {"code": code})
        page.wait_for_selector("#game:not([hidden])", timeout=WAIT * 1000)
        state = api(board, "/api/state")
        assert state["variant"] == "lasker" and state["online"]["opponent"] == "Asha's phone"
        # The page plays the black it chose and begins, as it offered; the board plays white
        # and waits for black's first move.
        assert (state["online"]["side"], state["first"]) == ("white", "black")
        assert state["players"] == {"white": "hand", "black": "online"}
        assert page.text_content("#players").startswith(
            "You play black (first) against Grandma's board (white)")
        until("linked", lambda: api(board, "/api/state")["online"]["opponent_online"])
        assert page.text_content("#turn").startswith("Your turn")
        page.click("[data-point='d6'] .hit")
        until("d6 received", lambda: api(board, "/api/state")["online"]["sequence"] == 1)
        assert board.call(lambda: [a.text for a in board.daemon.session.tracker.forced]) == [
            "d6"]
        carry_out(lambda body: api(board, "/api/hand", body), "d6", "black")
        until("d6 carried out", lambda: api(board, "/api/state")["actions"] == ["d6"])
        carry_out(lambda body: api(board, "/api/hand", body), "d2", "white")
        page.wait_for_function("document.querySelectorAll('#moves li').length == 2",
                               timeout=WAIT * 1000)
        assert page.evaluate("Array.from(document.querySelectorAll('#moves li'), "
                             "li => li.dataset.number)") == ["1...", "2."]
        assert page.get_attribute("[data-point='d6'] .pebble", "class") == "pebble black"
        assert page.get_attribute("[data-point='d2'] .pebble", "class") == "pebble white"
        page.close()


def test_an_invitation_can_be_withdrawn(browser, log_in, served):
    page = browser.new_page()
    page.goto(f"http://127.0.0.1:{served.ws_port}/index.html")
    log_in(page)
    page.click("#invite button")
    page.wait_for_selector("#waiting:not([hidden])", timeout=WAIT * 1000)
    page.click("#withdraw")
    page.wait_for_selector("#join-form:not([hidden])", timeout=WAIT * 1000)
    assert page.is_hidden("#waiting")
    page.close()


def test_a_reload_carries_on_the_same_game(browser, log_in, tmp_path, served):
    with sim_daemon(tmp_path / "board", broker=served.url("grandma"),
                    board_name="Grandma's board") as board:
        code = api(board, "/api/online/invite",
                   {"variant": "nine-mens-morris", "side": "black", "starts": "black"})["code"]
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{served.ws_port}/index.html#code={code}")
        log_in(page)
        page.click("#join-form button")
        page.wait_for_selector("#game:not([hidden])", timeout=WAIT * 1000)
        until("linked", lambda: (api(board, "/api/state")["online"] or {}).get("opponent_online"))
        carry_out(lambda body: api(board, "/api/hand", body), "d6", "white")  # the board starts
        page.wait_for_function("document.querySelectorAll('#moves li').length == 1",
                               timeout=WAIT * 1000)
        page.click("[data-point='d2'] .hit")
        page.reload()  # the same tab: the game and the password are kept
        page.wait_for_selector("#game:not([hidden])", timeout=WAIT * 1000)
        assert page.evaluate(
            "Array.from(document.querySelectorAll('#moves li'), li => li.textContent)") \
            == ["d6", "d2"]
        until("d2 on the board", lambda: api(board, "/api/state")["online"]["sequence"] == 2)
        carry_out(lambda body: api(board, "/api/hand", body), "d2", "black")
        until("carried out", lambda: len(api(board, "/api/state")["actions"]) == 2)
        carry_out(lambda body: api(board, "/api/hand", body), "b4", "white")
        page.wait_for_function("document.querySelectorAll('#moves li').length == 3",
                               timeout=WAIT * 1000)
        # Another device (nothing stored there) with the code fills the game from the broker.
        device = browser.new_context()
        other = device.new_page()
        other.goto(f"http://127.0.0.1:{served.ws_port}/index.html#code={code}")
        log_in(other)
        other.click("#join-form button")
        other.wait_for_function("document.querySelectorAll('#moves li').length == 3",
                                timeout=WAIT * 1000)
        assert "You play white" in other.text_content("#players")
        page.close()
        device.close()


def test_an_older_inviter_is_named_in_the_pages_language(browser, log_in, served):
    """A board of protocol 2's older wording offers the game (a `side` where the inviter's
    `colour` now is): the page, read in Hindi, refuses it and says in Hindi that the other
    runs an older version, instead of waiting; a mistyped code is said in Hindi too."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    import aiomqtt

    from navakankari.firmware.i18n.catalogs import translations
    from navakankari.firmware.online.code import GameCode
    from navakankari.firmware.online.messages import OLDER_WORDING, canonical, mac_of
    from navakankari.firmware.online.wire import lobby_topic, seal_bytes

    code = GameCode.new()
    body = {"kind": "invite", "game": code.game, "variant": "lasker", "side": "black",
            "starts": "white", "board": "Grandma's old board", "commit": ""}
    where = lobby_topic(code, "invite")

    async def offer_the_old_way() -> None:
        async with aiomqtt.Client("127.0.0.1", served.port, username="grandma",
                                  password=USERS["grandma"]) as old:
            await old.publish(where, seal_bytes(code, where, canonical(
                {**body, "mac": mac_of(code.key, body)})), qos=1, retain=True)
    with ThreadPoolExecutor(1) as pool:  # Playwright's loop holds this thread
        pool.submit(asyncio.run, offer_the_old_way()).result()
    page = browser.new_page()
    page.add_init_script("localStorage.setItem('navakankari-language', 'hi')")
    page.goto(f"http://127.0.0.1:{served.ws_port}/index.html#code={code}"
              f"&broker=ws://127.0.0.1:{served.ws_port}")
    log_in(page)
    hindi = translations("hi").gettext
    text = str(code)
    page.fill("#code", text[:-1] + ("0" if text[-1] != "0" else "1"))  # a symbol mistyped
    page.click("#join-form button")
    assert page.text_content("#problem") == hindi(
        "the game code does not check: a symbol was mistyped")
    page.fill("#code", text)
    page.click("#join-form button")
    said = hindi(OLDER_WORDING)
    assert said != OLDER_WORDING
    page.wait_for_function(f"document.getElementById('problem').textContent == {said!r}",
                           timeout=WAIT * 1000)
    assert page.is_hidden("#game")
    page.close()
