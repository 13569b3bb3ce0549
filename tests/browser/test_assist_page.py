"""Assistance on the page: the quality colours of the free points, a threat pulsing, a
blunder's warning with its words and the takeback it offers, the best move on request; the
page's colours are the frame the board emits."""

from __future__ import annotations

import time

import pytest
from sim_daemon import sim_daemon
from test_simulator_page import assert_leds_match, click, moves, page_leds, strip_leds, wait_for_moves

from navakankari.engine.game import Side
from navakankari.firmware.core.palette import PALETTE, QUALITY_ROLES, Role
from navakankari.firmware.core.players import PlayerSpec


def _status(running):
    return running.call(lambda: running.daemon.session.status)


def _wait_for(running, test, within: float = 20.0):
    """Until `test(status)` holds: the advice is made in a worker process on real time."""
    deadline = time.monotonic() + within
    while True:
        status = _status(running)
        if test(status):
            return status
        assert time.monotonic() < deadline, f"not within {within} s: {status}"
        time.sleep(0.05)


def _sent(running, role: Role) -> str:
    """What the strip sends for a role's full colour, as the page writes it."""
    c = running.call(lambda: running.daemon.board.leds.corrected(PALETTE[role].colour))
    return "#%02x%02x%02x" % tuple(c)


def _wait_drawn(page, running, point: str, role: Role, within: float = 3.0) -> None:
    """Until the page draws `point` in `role`'s colour, as the strip sends it (it blinks)."""
    colour = _sent(running, role)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        sent, drawn = strip_leds(running), page_leds(page)
        if sent == drawn and drawn.get(point) == colour:
            return
        page.wait_for_timeout(40)
    raise AssertionError(f"{point} never drawn in the colour of {role.value}")


@pytest.fixture()
def running(tmp_path):
    with sim_daemon(tmp_path, white="hand:4", black="hand:3") as running:
        yield running


def _open(browser, running):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{running.url}/#pin={running.pin}")
    page.wait_for_selector("#point-a7")
    return page


def test_quality_colours_a_threat_a_blunder_and_its_takeback(browser, running, artifacts):
    page = _open(browser, running)
    # White (level 4) to place: every free point in its quality's colour, as the strip sends it.
    status = _wait_for(running, lambda s: len(s.quality) == 24)
    keeps = [p for p, q in status.quality if q == "keeps"]
    assert keeps
    lit = assert_leds_match(page, running)
    assert lit[keeps[0]] == _sent(running, Role.QUALITY_KEEPS)
    assert page.input_value("#assist-white") == "4" and page.input_value("#assist-black") == "3"
    for n, point in enumerate(["d6", "a1", "d5"], start=1):
        click(page, point)
        wait_for_moves(page, n)
    # Black (level 3): white closes d7-d6-d5 on d7 next; d7 pulses, the words say so.
    status = _wait_for(running, lambda s: "d7" in s.threats and s.quality)
    page.wait_for_function(
        "document.querySelector('#advice').textContent.includes('white threatens to close d7-d6-d5 with d7')")
    seen = set()
    deadline = time.monotonic() + 5
    while len(seen) < 2 and time.monotonic() < deadline:  # it pulses: more than one level
        seen.add(assert_leds_match(page, running)["d7"])
    assert len(seen) >= 2
    page.screenshot(path=str(artifacts / "assist-threat.png"))
    bad = next(p for p, q in status.quality if q in ("drops", "loses"))
    click(page, bad)  # the blunder
    wait_for_moves(page, 4)
    page.wait_for_function("document.querySelector('#advice').hasAttribute('data-blunder')")
    words = page.inner_text("#advice")
    assert f"black {bad} was a mistake: {bad} lets white close a mill at d7 next turn" in words
    assert page.is_visible("#advice-takeback")
    assert_leds_match(page, running)  # it blinks: lit or dark, as the strip sends it
    page.screenshot(path=str(artifacts / "assist-blunder.png"))
    page.click("#advice-takeback")
    page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length === 3")
    page.wait_for_function("!document.querySelector('#advice').hasAttribute('data-blunder')")
    assert page.is_hidden("#advice-takeback")


def test_a_blunder_blinks_on_its_point(browser, running):
    page = _open(browser, running)
    for n, point in enumerate(["d6", "a1", "d5"], start=1):
        click(page, point)
        wait_for_moves(page, n)
    status = _wait_for(running, lambda s: s.quality)
    bad = next(p for p, q in status.quality if q in ("drops", "loses"))
    click(page, bad)
    wait_for_moves(page, 4)
    blunder = _sent(running, Role.BLUNDER)
    shown = set()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and len(shown) < 2:
        sent, drawn = strip_leds(running), page_leds(page)
        if sent == drawn:
            shown.add(drawn.get(bad))
        page.wait_for_timeout(40)
    assert blunder in shown and len(shown) == 2  # on and off: it blinks


def test_the_best_move_on_request(browser, running):
    page = _open(browser, running)
    _wait_for(running, lambda s: s.quality)
    assert page.is_visible("#hint")  # white is at level 4
    page.click("#hint")
    status = _wait_for(running, lambda s: s.hint)
    page.wait_for_function("document.querySelector('#advice').textContent.includes('best move: ')")
    _wait_drawn(page, running, status.hint[0], Role.HINT)
    page.click("#hint")  # one a turn
    page.wait_for_function(
        "document.querySelector('#message').textContent.includes('has had 1 best move this turn')")


def test_the_assistance_chosen_on_the_page_is_kept_with_the_game(browser, running):
    page = _open(browser, running)
    page.select_option("#assist-black", "0")
    _wait_for(running, lambda s: True)
    deadline = time.monotonic() + 5
    while running.call(lambda: str(running.daemon.session.players[1])) != "hand:0":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    game_id = running.call(lambda: running.daemon.session.game_id)
    stored = running.call(lambda: running.daemon.store.load(game_id))
    assert stored.players == {"white": "hand:4", "black": "hand:0"}


def test_a_lifted_pebbles_destinations_in_their_quality_colours(browser, tmp_path):
    """Lasker lets a pebble move while placing: white lifts a7 and its destinations show
    their quality, as the strip sends it."""
    with sim_daemon(tmp_path, variant="lasker", white="hand:3", black="hand") as running:
        page = _open(browser, running)
        for n, point in enumerate(["a7", "b6"], start=1):
            click(page, point)
            wait_for_moves(page, n)
        _wait_for(running, lambda s: s.quality)  # white's advice is made
        click(page, "a7")  # lifted into the simulator's hand
        status = _wait_for(running, lambda s: s.kind.value == "in-progress" and s.quality)
        assert status.lifted == ("a7",)
        quality = dict(status.quality)
        assert set(quality) == set(status.destinations) == {"a4", "d7"}
        roles = {"keeps": Role.QUALITY_KEEPS, "worse": Role.QUALITY_WORSE,
                 "drops": Role.QUALITY_DROPS, "loses": Role.QUALITY_LOSES}
        lit = assert_leds_match(page, running)
        for point, q in quality.items():
            assert lit[point] == _sent(running, roles[q]), point
        assert lit["a7"] == _sent(running, Role.LIFTED)


def test_a_mistake_against_the_computer_blinks_before_the_computers_reply_is_lit(
        browser, tmp_path, artifacts):
    with sim_daemon(tmp_path, white="hand:3", black="hand") as running:
        page = _open(browser, running)
        for n, point in enumerate(["a1", "d6", "a7", "d5"], start=1):
            click(page, point)
            wait_for_moves(page, n)
        running.call(lambda: running.daemon.session.set_players(
            running.daemon.now(), {Side.BLACK: PlayerSpec("computer", 1)}))
        # White to act, black threatens d7-d6-d5: the advice names white's mistakes.
        _wait_for(running, lambda s: s.quality and s.turn == "white")
        reasons = running.call(lambda: running.daemon.session.teacher.advice.reasons)
        bad = next(a for a, _ in reasons if a not in ("a4", "d7"))
        blunder, reply = _sent(running, Role.BLUNDER), _sent(running, Role.COMPUTER_TO)
        click(page, bad)
        samples = []  # (seconds since the click, what the page draws)
        start = time.monotonic()
        forced: tuple[str, ...] = ()
        while time.monotonic() - start < 15:
            samples.append((time.monotonic() - start, page_leds(page)))
            if not forced:
                forced = _status(running).forced_to
            elif samples[-1][1].get(forced[0]) == reply:
                break
            page.wait_for_timeout(30)
        assert forced, "the computer never replied"
        to = forced[0]
        blinked = [t for t, leds in samples if leds.get(bad) == blunder]
        lit = [t for t, leds in samples if leds.get(to) == reply]
        assert blinked and lit, (blinked, lit)
        assert blinked[0] < lit[0] - 1.0  # the warning was on the board first, for a while
        # Never together (the computer's pebbles glow its colour while it thinks: the reply
        # is told by its empty point lit).
        assert not [t for t, leds in samples if leds.get(bad) == blunder and to in leds]
        page.screenshot(path=str(artifacts / "assist-reply-after-warning.png"))


def test_the_quick_best_move_gesture_lights_the_best_move(browser, running, artifacts):
    """White (level 4) lifts a black pebble and sets it back a quarter of a second later."""
    page = _open(browser, running)
    for n, point in enumerate(["a7", "b6", "g7", "d1"], start=1):
        click(page, point)
        wait_for_moves(page, n)
    _wait_for(running, lambda s: s.quality and s.turn == "white")
    click(page, "b6")  # lifted into the simulator's hand
    page.wait_for_timeout(250)
    click(page, "b6")  # and set back
    status = _wait_for(running, lambda s: s.hint)
    best = running.call(lambda: running.daemon.session.teacher.advice.judgement.best)
    assert status.hint == (best,) and moves(page) == ["a7", "b6", "g7", "d1"]
    page.wait_for_function(
        f"document.querySelector('#advice').textContent.includes('best move: {best}')")
    _wait_drawn(page, running, best, Role.HINT)
    page.screenshot(path=str(artifacts / "assist-quick-gesture.png"))


def test_while_the_pebble_is_up_the_page_says_the_best_move_is_asked_for(browser, running):
    page = _open(browser, running)
    for n, point in enumerate(["a7", "b6", "g7", "d1"], start=1):
        click(page, point)
        wait_for_moves(page, n)
    _wait_for(running, lambda s: s.quality and s.turn == "white")
    click(page, "b6")
    _wait_for(running, lambda s: s.asking == ("b6",) and s.kind.value == "mismatch")
    page.wait_for_function("document.querySelector('#status').textContent.includes("
                           "'asking for the best move: set the black pebble back on b6')")
    assert "not a legal move" not in page.inner_text("#status")
    lit = assert_leds_match(page, running)  # it pulses: as the strip sends it
    assert set(lit) == {"b6"}


def test_the_legend_shows_every_light_as_the_led_emits_it(browser, running, artifacts):
    from navakankari.firmware.core.wording import LEGEND
    from navakankari.hal.leds import on_screen

    page = _open(browser, running)
    for n, point in enumerate("a4 g4 d7 d1 b4 f4".split(), start=1):  # white (level 4)
        click(page, point)
        wait_for_moves(page, n)
    status = _wait_for(running, lambda s: s.turn == "white" and len({q for _, q in s.quality}) >= 2)
    page.click("#legend summary")
    page.wait_for_selector("#legend-list li")
    drawn = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#legend li')].map(li => [li.dataset.role, [li.querySelector('.swatch').style.borderColor,
        li.textContent]]))""")  # as set: the computed colour blinks
    cap = running.call(lambda: running.daemon.board.leds.brightness)
    for _section, rows in LEGEND:
        for role, colour, means in rows:
            sent = running.call(lambda: running.daemon.board.leds.corrected(PALETTE[role].colour))
            assert drawn[role.value][0] == "rgb(%d, %d, %d)" % on_screen(sent, cap), role
            assert drawn[role.value][1].startswith(colour) and means in drawn[role.value][1]
    lit = assert_leds_match(page, running)
    for point, quality in status.quality:
        if point not in status.threats:
            assert lit[point] == _sent(running, QUALITY_ROLES[quality]), point
    page.screenshot(path=str(artifacts / "assist-quality-and-legend.png"), full_page=True)
    page.locator("#legend").screenshot(path=str(artifacts / "legend.png"), animations="disabled")
    page.locator("#board").screenshot(path=str(artifacts / "quality-lights.png"))
