"""The simulator's page in a real browser: a short game played by clicking, the LEDs drawn as
the daemon sends them, and the refusal of changes without the PIN."""

from __future__ import annotations

import io
import time
from contextlib import contextmanager

import pytest
from sim_daemon import sim_daemon

from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.firmware.cli.replay import read_recording, replay
from navakankari.hal.leds import on_screen

LASKER_GAME = ["a7", "b6", "d7", "f6", "g7", "xb6", "d2", "g7-g4"]


def page_leds(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.point')]
        .map(g => [g.dataset.point, g.dataset.led]).filter(([p, c]) => c !== '#000000'))""")


def strip_pixels(running) -> dict[str, tuple[int, int, int]]:
    """What the (simulated) LED strip last sent each lit LED: after gamma and the cap."""
    def last() -> dict[str, tuple[int, int, int]]:
        leds = running.daemon.board.leds
        pixels = leds.frames[-1].pixels if leds.frames else ()
        return {p: pixels[i] for p, i in leds.index.items() if pixels and any(pixels[i])}
    return running.call(last)


def strip_leds(running) -> dict[str, str]:
    """The strip's last frame, as the page writes colours."""
    return {p: "#%02x%02x%02x" % c for p, c in strip_pixels(running).items()}


def assert_leds_match(page, running, within: float = 15.0) -> dict[str, str]:
    """The page mirrors every frame; animations change frames, so compare until they agree."""
    deadline = time.monotonic() + within
    while True:
        sent, drawn = strip_leds(running), page_leds(page)
        if sent == drawn and sent:
            return sent
        if time.monotonic() > deadline:
            assert drawn == sent
        page.wait_for_timeout(50)


def drawn_rings(page) -> dict[str, str]:
    """The colour each lit point's ring is drawn in, as the browser computed it."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.point')]
        .map(g => [g.dataset.point, getComputedStyle(g.querySelector('.led')).stroke])
        .filter(([p, c]) => c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent'))""")


def assert_rings_show_the_emitted_light(page, running, within: float = 15.0) -> dict[str, str]:
    """Each ring is drawn in `on_screen` of what the strip sent its LED, nothing else lit."""
    cap = running.call(lambda: running.daemon.board.leds.brightness)
    deadline = time.monotonic() + within
    while True:
        expected = {p: "rgb(%d, %d, %d)" % on_screen(c, cap)
                    for p, c in strip_pixels(running).items()}
        drawn = drawn_rings(page)
        if drawn == expected and expected:
            return drawn
        if time.monotonic() > deadline:
            assert drawn == expected
        page.wait_for_timeout(50)


def moves(page) -> list[str]:
    return page.eval_on_selector_all("#moves [data-ply]", "items => items.map(li => li.dataset.action)")


def wait_for_moves(page, count: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('#moves [data-ply]').length >= {count}",
                           timeout=10_000)


def click(page, point: str) -> None:
    page.click(f"#point-{point} .hit")


def drag(page, start: str, end: str) -> None:
    a = page.locator(f"#point-{start} .hit").bounding_box()
    b = page.locator(f"#point-{end} .hit").bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


@pytest.fixture()
def running(tmp_path):
    with sim_daemon(tmp_path, variant="lasker") as running:
        yield running


def test_a_short_game_by_clicking(browser, running, artifacts):
    page = browser.new_page(viewport={"width": 1100, "height": 760})
    page.goto(f"{running.url}/#pin={running.pin}")
    page.wait_for_selector("#point-a7")
    assert page.locator(".point").count() == 24
    assert_leds_match(page, running)

    for n, point in enumerate(["a7", "b6", "d7", "f6", "g7"], start=1):
        click(page, point)
        wait_for_moves(page, n)
    page.wait_for_function("document.querySelector('#status').dataset.kind === 'removal'")
    assert "lift one of the lit black pebbles" in page.inner_text("#status")
    lit = assert_leds_match(page, running)
    assert {"b6", "f6"} <= set(lit)  # takeable pebbles are lit

    click(page, "b6")  # lift the black pebble...
    page.wait_for_selector('#hand[data-holding="black"]')
    wait_for_moves(page, 6)  # lifting a takeable pebble is the removal
    page.click("#drop")  # set it aside
    page.wait_for_selector('#hand[data-holding=""]')
    click(page, "d2")
    wait_for_moves(page, 7)
    page.screenshot(path=str(artifacts / "simulator-midgame.png"))
    drag(page, "g7", "g4")  # a move during placement (Lasker), slid along the line
    wait_for_moves(page, 8)
    assert moves(page) == LASKER_GAME
    assert page.get_attribute("#point-g4", "data-pebble") == "white"
    assert page.get_attribute("#point-g7", "data-pebble") == ""
    assert_leds_match(page, running)
    assert running.call(lambda: running.daemon.session.record()) == " ".join(LASKER_GAME)

    # The raw sensor recording the page offers replays to the same game on a laptop.
    recording = page.evaluate("fetch('/api/recording.jsonl').then(r => r.text())")
    events = read_recording(io.StringIO(recording), "download")
    settings = running.daemon.session.settings  # replay with the timings it was played with
    replayed = replay(events, preset("lasker"), settings=settings)
    assert replayed.record() == " ".join(LASKER_GAME)

    # Back to any earlier position: click the action in the list (a review of it, nothing
    # taken back), take back to there, then set the board right.
    page.click("#moves [data-ply='5']")
    page.wait_for_selector("#review-controls:not([hidden])")
    assert running.call(lambda: running.daemon.session.record()) == " ".join(LASKER_GAME)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#review-takeback")
    page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length === 5")
    assert page.get_attribute("#status", "data-kind") == "mismatch"
    assert "set the board to the game's position" in page.inner_text("#status")
    page.click("#setup")
    page.wait_for_function("document.querySelector('#status').dataset.kind === 'removal'")
    assert moves(page) == LASKER_GAME[:5]
    assert_leds_match(page, running)
    page.close()


def test_the_rings_show_what_the_leds_emit(browser, running):
    """The page draws the corrected frame mapped for a screen: the dim free points (placing)
    and the full-cap colours of a lifted pebble and its destinations, each exactly as
    on_screen maps what the strip sent."""
    page = browser.new_page()
    page.goto(f"{running.url}/#pin={running.pin}")
    page.wait_for_selector("#point-a7")
    idle = assert_rings_show_the_emitted_light(page, running)
    assert len(idle) == 24 and len(set(idle.values())) == 1  # white to place: every point
    free = next(iter(idle.values()))
    for n, point in enumerate(["a7", "b6", "d7", "f6"], start=1):
        click(page, point)
        wait_for_moves(page, n)
    click(page, "a7")  # lift a white pebble (Lasker moves during placement)
    page.wait_for_selector('#hand[data-holding="white"]')
    page.wait_for_function("document.querySelector('#status').dataset.kind === 'in-progress'")
    lifted = assert_rings_show_the_emitted_light(page, running)
    assert lifted["a7"] == "rgb(255, 255, 255)"  # white at the cap: full white on screen
    assert free not in lifted.values()
    page.close()


def _refused(page, path: str, act) -> None:
    """`act()` makes the page send `path`; the daemon answers 403 and the page says why."""
    page.evaluate("document.querySelector('#message').textContent = ''")
    with page.expect_response(lambda r: r.url.split("?")[0].endswith(path)) as answer:
        act()
    assert answer.value.status == 403
    page.wait_for_function("document.querySelector('#message').textContent.length > 0")
    assert page.inner_text("#message") == "wrong or missing PIN"


def test_changes_without_the_pin_are_refused(browser, running):
    owner = browser.new_page()
    owner.goto(f"{running.url}/#pin={running.pin}")
    owner.wait_for_selector("#point-a7")
    click(owner, "a7")  # a game in progress: a takeback or a new game would change it
    wait_for_moves(owner, 1)
    owner.close()

    page = browser.new_page()
    page.goto(running.url + "/")  # no #pin= in the address, none typed
    page.wait_for_selector("#point-d1")
    wait_for_moves(page, 1)
    _refused(page, "/api/hand", lambda: click(page, "d1"))
    _refused(page, "/api/takeback", lambda: page.click("#takeback"))
    page.select_option("#variant-select", "nine-mens-morris")
    page.once("dialog", lambda dialog: dialog.accept())  # yes, end the game in progress
    _refused(page, "/api/new-game", lambda: page.click("#new-game button[type=submit]"))
    assert running.daemon.board.simulation.pebbles == {"a7": "white"}
    assert running.call(lambda: (running.daemon.session.rules.name,
                                 running.daemon.session.record())) == ("lasker", "a7")
    assert moves(page) == ["a7"]
    page.fill("#pin", running.pin)
    page.dispatch_event("#pin", "change")
    click(page, "d1")
    wait_for_moves(page, 2)
    assert moves(page) == ["a7", "d1"]
    page.close()


def test_a_new_pin_in_the_address_is_read_without_a_reload(browser, running):
    """The simulator started again with a new PIN: opening its address in the same tab only
    changes the hash, and the page takes the PIN from it."""
    page = browser.new_page()
    page.goto(f"{running.url}/#pin=1357")
    page.wait_for_selector("#point-d1")
    _refused(page, "/api/hand", lambda: click(page, "d1"))
    page.goto(f"{running.url}/#pin={running.pin}")  # the same document: no reload
    assert page.input_value("#pin") == running.pin
    click(page, "d1")
    wait_for_moves(page, 1)
    assert moves(page) == ["d1"]
    page.close()


def post(running, path: str, body: dict) -> None:  # type: ignore[no-untyped-def]
    import json
    import urllib.request

    request = urllib.request.Request(
        running.url + path, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "X-Pin": running.pin})
    urllib.request.urlopen(request, timeout=10).read()


def test_the_new_game_form_follows_the_game_and_asks_before_ending_one(browser, running):
    page = browser.new_page(viewport={"width": 1100, "height": 760})
    page.goto(f"{running.url}/#pin={running.pin}")
    page.wait_for_selector("#point-a7")
    form = ("#variant-select", "select[name=white]", "select[name=black]")
    assert [page.input_value(s) for s in form] == ["lasker", "hand", "hand"]
    # A game started elsewhere (another page, the command line): the form shows it.
    post(running, "/api/new-game", {"variant": "nau-keti-keta", "white": "hand",
                                    "black": "computer:2"})
    page.wait_for_function("document.querySelector('#variant').textContent === 'nau-keti-keta'")
    assert [page.input_value(s) for s in form] == ["nau-keti-keta", "hand", "computer:2"]
    page.click("#setup")
    page.wait_for_function("document.querySelector('#status').dataset.kind === 'idle'")
    drag(page, "c3", "d4")
    wait_for_moves(page, 1)
    # Start asks before it ends the game in progress; declined, the game goes on.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.select_option("#variant-select", "lasker")
    page.click("#new-game button[type=submit]")
    page.wait_for_function("document.querySelector('#message').textContent.length > 0")
    assert asked == ["End the game in progress (1 action) and start a new one?"]
    assert page.inner_text("#message") == "the game in progress goes on"
    assert running.call(lambda: running.daemon.session.rules.name) == "nau-keti-keta"
    assert page.input_value("#variant-select") == "lasker"  # what was chosen by hand stays
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#new-game button[type=submit]")
    page.wait_for_function("document.querySelector('#variant').textContent === 'lasker'")
    assert running.call(lambda: running.daemon.session.record()) == ""
    page.close()


def test_a_click_that_does_nothing_says_why(browser, running):
    page = browser.new_page(viewport={"width": 1100, "height": 760})
    page.goto(f"{running.url}/#pin={running.pin}")
    page.wait_for_selector("#point-a7")
    click(page, "a7")
    wait_for_moves(page, 1)
    click(page, "d1")
    wait_for_moves(page, 2)
    click(page, "a7")  # lifted: the hand holds it
    page.wait_for_selector('#hand[data-holding="white"]')
    click(page, "d1")  # a second pebble cannot be lifted
    assert page.inner_text("#message") == (
        "the hand holds a white pebble: put it on a free point, or aside, before lifting the "
        "one on d1")
    page.click("#drop")
    page.wait_for_selector('#hand[data-holding=""]')
    drag(page, "g7", "g4")
    assert page.inner_text("#message") == "there is no pebble on g7 to slide"
    click(page, "g1")  # a click that does something clears the line
    page.wait_for_selector("#point-g1[data-pebble='white']")
    assert page.inner_text("#message") == ""
    page.close()


@contextmanager
def menu_in_page(browser, tmp_path):  # type: ignore[no-untyped-def]
    """The simulator with its menu, the page open on it once it shows the menu; yields the
    running daemon, the page, the menu's layout, its variants and its players."""
    from navakankari.engine.boards import BOARDS
    from navakankari.engine.player import MAX_LEVEL
    from navakankari.firmware.core.menu import layout, playable, player_specs
    from navakankari.hal import load_profile

    lay = layout(BOARDS["morris"])
    variants = playable(load_profile("sim-25").points)
    with sim_daemon(tmp_path, variant="nine-mens-morris", menu=True, menu_hold=0.4) as running:
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        page.goto(f"{running.url}/#pin={running.pin}")
        page.wait_for_function("document.querySelector('#status').dataset.kind === 'menu'")
        yield running, page, lay, variants, player_specs(MAX_LEVEL)
        page.close()


def start_with_white(page, point: str) -> None:
    """Choose "white starts" on `point`; the game chosen is then in play."""
    click(page, point)
    page.wait_for_function(
        f"document.querySelector('#status').textContent.includes('lift the pebble from {point}')")
    click(page, point)
    page.click("#drop")
    page.wait_for_function("document.querySelector('#status').dataset.kind === 'idle'")


def choose_in_page(page, point: str, next_words: str) -> None:
    """Choose a lit point of the menu by clicks, as hands do: a pebble set down on it, held
    until the board says to lift it, lifted and put aside; then wait for `next_words`."""
    click(page, point)
    page.wait_for_function(
        f"document.querySelector('#status').textContent.includes('lift the pebble from {point}')")
    click(page, point)
    page.wait_for_selector('#hand[data-holding]:not([data-holding=""])')
    page.click("#drop")
    page.wait_for_function(
        f"document.querySelector('#status').textContent.includes({next_words!r})")


def facts(page) -> dict[str, str]:
    return {key: page.inner_text(f"#{key}").strip()
            for key in ("variant", "turn", "phase", "white-count", "black-count")}


def test_while_the_menu_is_lit_the_page_shows_its_step_not_the_last_game(browser, tmp_path):
    """After a restart with the last game finished, the menu is lit: the page words the step
    and what has been chosen so far, never the last game's variant, players and moves."""
    from navakankari.firmware.store.database import Store

    store = Store(tmp_path / "games.sqlite3")
    last = store.new_game(preset("lasker"), {"white": "computer:2", "black": "remote"})
    store.append(last, 0, LASKER_GAME[:3])
    store.finish(last, {"winner": None, "reason": "cleared"})
    store.close()
    with menu_in_page(browser, tmp_path) as (running, page, lay, variants, players):
        assert page.get_attribute("body", "data-menu") == ""
        assert facts(page) == {"variant": "not chosen yet", "turn": "—",
                               "phase": "the board's menu: choose the game",
                               "white-count": "not chosen yet", "black-count": "not chosen yet"}
        assert moves(page) == [] and page.is_hidden("#remote-move")
        assert "lasker" not in page.inner_text("#facts")
        assert "the same as last time (lasker" in page.inner_text("#status")
        assert page.inner_text("#banner") == page.inner_text("#status")
        choose_in_page(page, lay.slots[variants.index("nine-mens-morris")], "who plays white")
        page.wait_for_function("document.querySelector('#variant').textContent === 'nine-mens-morris'")
        assert facts(page)["phase"] == "the board's menu: choose who plays white"
        choose_in_page(page, lay.slots[players.index("computer:1")], "who plays black")
        assert facts(page)["white-count"] == "the computer at level 1"
        assert facts(page)["black-count"] == "not chosen yet"
        choose_in_page(page, lay.back, "who plays white")  # back: white is not chosen any more
        page.wait_for_function(
            "document.querySelector('#white-count').textContent === 'not chosen yet'")
        choose_in_page(page, lay.slots[players.index("hand")], "who plays black")
        choose_in_page(page, lay.slots[players.index("hand")], "the help white gets")
        assert facts(page)["phase"] == "the board's menu: choose the help white gets"
        choose_in_page(page, lay.slots[1], "the help black gets")  # white: the legal moves
        choose_in_page(page, lay.slots[1], "who starts")  # black: the same
        assert facts(page)["phase"] == "the board's menu: choose who starts"
        start_with_white(page, lay.slots[0])  # the game chosen is in play, shown as one
        assert page.get_attribute("body", "data-menu") is None
        shown = facts(page)
        assert (shown["variant"], shown["turn"]) == ("nine-mens-morris", "white")
        assert shown["white-count"].endswith("played on the board")
        click(page, "d6")
        wait_for_moves(page, 1)
        assert moves(page) == ["d6"]


def test_the_menus_last_choice_goes_back_beside_the_board(browser, tmp_path):
    """The pebble lifted for the menu's last choice is not left in the hand: the game chosen
    starts with the hand free, and a click on a pebble lifts it."""
    with menu_in_page(browser, tmp_path) as (running, page, lay, variants, players):
        choose_in_page(page, lay.slots[variants.index("nine-mens-morris")], "who plays white")
        choose_in_page(page, lay.slots[players.index("hand")], "who plays black")
        choose_in_page(page, lay.slots[players.index("hand")], "the help white gets")
        choose_in_page(page, lay.slots[1], "the help black gets")
        choose_in_page(page, lay.slots[1], "who starts")
        point = lay.slots[0]
        click(page, point)
        page.wait_for_function(
            f"document.querySelector('#status').textContent.includes('lift the pebble from {point}')")
        click(page, point)  # lifted, and not put aside by hand
        page.wait_for_function("document.querySelector('#status').dataset.kind === 'idle'")
        page.wait_for_selector('#hand[data-holding=""]')
        click(page, "d6")
        wait_for_moves(page, 1)
        click(page, "d6")  # a pebble on the board is lifted at once
        page.wait_for_selector('#hand[data-holding="white"]')


def test_the_menu_worked_in_the_page_then_the_game_chosen(browser, tmp_path, artifacts):
    with menu_in_page(browser, tmp_path) as (running, page, lay, variants, players):
        assert "menu, choose the game" in page.inner_text("#status")
        lit = assert_leds_match(page, running)
        assert set(lit) == {*lay.slots[:len(variants)], lay.same, lay.brightness, lay.speech,
                            lay.language}
        choose_in_page(page, lay.slots[variants.index("lasker")], "who plays white")
        assert "(lasker)" in page.inner_text("#status")
        choose_in_page(page, lay.slots[players.index("remote")], "who plays black")
        choose_in_page(page, lay.back, "who plays white")  # back a step
        choose_in_page(page, lay.slots[players.index("hand")], "who plays black")
        choose_in_page(page, lay.slots[players.index("hand")], "the help white gets")
        choose_in_page(page, lay.slots[0], "the help black gets")  # white: none, a handicap
        choose_in_page(page, lay.slots[1], "who starts")  # black: the legal moves
        page.screenshot(path=str(artifacts / "simulator-menu.png"))
        start_with_white(page, lay.slots[0])
        session = running.daemon.session
        assert running.call(lambda: (session.rules.name, str(session.players[Side.WHITE]),
                                     str(session.players[Side.BLACK]))) == ("lasker", "hand:0", "hand")
        assert page.input_value("#assist-white") == "0" and page.input_value("#assist-black") == "1"
        for n, point in enumerate(LASKER_GAME[:4], start=1):
            click(page, point)
            wait_for_moves(page, n)
        assert moves(page) == LASKER_GAME[:4]
        assert_leds_match(page, running)
