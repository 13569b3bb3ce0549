"""`navakankari sim` against the computer, as a newcomer starts it: the game the command line
names begins at once, and the person clicks only their own moves: the simulator's hands carry
out each of the computer's after it has been lit."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from sim_daemon import sim_process, until

from navakankari.engine.actions import ActionKind
from navakankari.engine.player import Player
from navakankari.engine.variants import game_from_position

PIN = "2468"


@contextmanager
def sim(tmp_path, *flags: str) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """The `navakankari sim` command in its own process, its store in `tmp_path`; the page's
    address (with the PIN) while it runs."""
    env = {**os.environ, "STATE_DIRECTORY": str(tmp_path)}
    proc, port, line = sim_process("--pin", PIN, *flags, env=env)
    try:
        assert line.startswith("the simulator is at "), line
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def state(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/api/state", timeout=10) as response:
        return json.loads(response.read().decode())


def listed(page) -> int:  # type: ignore[no-untyped-def]
    """How many actions the page's move list shows."""
    return page.evaluate("document.querySelectorAll('#moves [data-ply]').length")


def click(page, point: str) -> None:  # type: ignore[no-untyped-def]
    page.click(f"#point-{point} .hit")


def test_sim_with_a_computer_side_starts_that_game_at_once(browser, tmp_path):
    """`sim --white computer:1`: no menu; the page names the players, and the computer's
    first placement is lit, then carried out by the simulator's hands, with no click."""
    with sim(tmp_path, "--variant", "six-mens-morris", "--white", "computer:1", "--black",
             "hand", "--carry-out", "0.3") as url:
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(f"{url}/#pin={PIN}")
        page.wait_for_selector("#point-d6")
        assert page.get_attribute("body", "data-menu") is None
        assert page.inner_text("#variant") == "six-mens-morris"
        page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length === 1",
                               timeout=30_000)
        placed = state(url)["actions"][0]
        assert page.get_attribute(f"#point-{placed}", "data-pebble") == "white"
        assert page.inner_text("#white-count").endswith("first to move · computer, level 1")
        page.wait_for_function("document.querySelector('#status').textContent"
                               ".startsWith('black to place')")
        # The new-game form offers every level and the computer that adapts to the player.
        offered = page.eval_on_selector_all(
            "select.player[name=white] option", "os => os.map((o) => [o.value, o.textContent])")
        assert ["computer:adaptive", "computer, adapting to you"] in offered
        assert ["computer:6", "computer, level 6"] in offered
        page.close()


def _play(page, url: str, text: str) -> None:  # type: ignore[no-untyped-def]
    """Carry out the person's action `text` by clicks, as on the page: a placement is a
    click on the point; a move lifts the pebble and sets it down; a removal lifts the
    opponent's pebble and puts it aside."""
    game = game_from_position("six-mens-morris", state(url)["position"])
    action = game.parse_action(text)
    if action.kind == ActionKind.PLACE:
        click(page, text)
    elif action.kind == ActionKind.REMOVE:
        click(page, text[1:])
        page.wait_for_selector('#hand[data-holding="white"]')
        page.click("#drop")
        page.wait_for_selector('#hand[data-holding=""]')
    else:
        origin, target = text.split("-")
        click(page, origin)
        page.wait_for_selector('#hand[data-holding="black"]')
        click(page, target)


def test_a_whole_game_where_the_person_clicks_only_their_own_moves(browser, tmp_path,
                                                                   artifacts):
    """Black by hand against the computer at level 1: every white action appears on the
    board without a click (lit first, then carried out), the person plays black's by
    clicking until the game ends, and the page then shows how it ended."""
    person = Player(4, seed=1)
    with sim(tmp_path, "--variant", "six-mens-morris", "--white", "computer:1", "--black",
             "hand", "--carry-out", "0.2") as url:
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(f"{url}/#pin={PIN}")
        page.wait_for_selector("#point-d6")
        clicked: list[str] = []
        deadline = time.monotonic() + 600
        while True:
            now = until("the page and the board agreeing",
                        lambda: (s := state(url)) and listed(page) == len(s["actions"]) and s, 30)
            if now["outcome"] is not None:
                break
            assert time.monotonic() < deadline and len(now["actions"]) < 300
            ply = len(now["actions"])
            if now["turn"] == "white":  # the computer's: nobody clicks
                until("the computer's action carried out",
                      lambda: len(state(url)["actions"]) > ply, 60)
                continue
            game = game_from_position("six-mens-morris", now["position"])
            text = person.choose(game).text
            _play(page, url, text)
            clicked.append(text)
            until(f"{text} taken as black's action",
                  lambda: state(url)["actions"][ply:ply + 1] == [text], 30)
        final = state(url)
        words = final["outcome"]["text"]  # said by the status, or the outcome line beside it
        page.wait_for_function("(w) => document.querySelector('#status').textContent"
                               ".includes(w) || document.querySelector('#outcome')"
                               ".textContent.includes(w)", arg=words, timeout=10_000)
        page.wait_for_function("document.querySelector('#status').dataset.kind === 'over'")
        page.screenshot(path=str(artifacts / "simulator-whole-game.png"))
        page.close()
    actions = final["actions"]
    by_black = [a for k, a in enumerate(actions) if k in _black_plies(actions)]
    assert clicked == by_black  # the person played exactly black's actions, by clicks
    assert len(actions) > len(clicked) > 5  # and the computer's all came by themselves
    assert final["outcome"]["reason"] and words


def _black_plies(actions: list[str]) -> set[int]:
    """The plies black played in a game of six men's morris white began."""
    from navakankari.engine.game import Side
    from navakankari.engine.variants import new_game

    game = new_game("six-mens-morris")
    out = set()
    for k, text in enumerate(actions):
        if game.turn == Side.BLACK:
            out.add(k)
        game.play(text)
    return out


def test_a_game_black_begins_keeps_the_players_and_the_page_says_who_began(browser, tmp_path):
    """The page's new game with black to begin (the toss's outcome, or chosen): the hand
    keeps white, the computer's black moves first, and the page and its form say so."""
    from sim_daemon import sim_daemon
    from test_companion import request

    with sim_daemon(tmp_path, white="hand", black="computer:1", carry_out_after=0.2) as running:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(f"{running.url}/#pin={running.pin}")
        page.wait_for_selector("#point-d6")
        assert request(running.url + "/api/new-game", {"variant": "navakankari", "white": "hand",
                                                       "black": "computer:1", "first": "black"}
                       ) == (200, {"ok": True})
        page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length === 1",
                               timeout=30_000)
        placed = state(running.url)["actions"][0]
        assert page.get_attribute(f"#point-{placed}", "data-pebble") == "black"
        assert "first to move" in page.inner_text("#black-count")
        assert "first to move" not in page.inner_text("#white-count")
        assert page.inner_text("#white-count").endswith("played on the board")
        assert page.input_value("#first-select") == "black"
        assert page.input_value("select[name=white]") == "hand"
        page.wait_for_function("document.querySelector('#status').textContent"
                               ".startsWith('white to place')")
        page.close()
