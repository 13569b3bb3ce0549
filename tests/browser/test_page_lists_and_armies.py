"""The page in a real browser: a long game's every action visible and clickable, Nau Keti
Keta's armies laid by hand in either colour, a pebble of the wrong colour named, the
narrow layout, and labels clear of the lines on the 19-point board."""

from __future__ import annotations

import pytest
from sim_daemon import sim_daemon
from tables import random_game

from navakankari.engine.game import Side

from navakankari.engine.variants import new_game
from navakankari.engine.presets import preset
from navakankari.firmware.store.database import Store

NINE = preset("nine-mens-morris")


def click(page, point: str) -> None:
    page.click(f"#point-{point} .hit")


def open_page(browser, running, **kwargs):  # type: ignore[no-untyped-def]
    page = browser.new_page(**kwargs)
    page.goto(f"{running.url}/#pin={running.pin}")
    page.wait_for_selector(".point")
    page.wait_for_function("document.body.dataset.version !== undefined")
    return page


def test_a_long_game_shows_every_action_and_each_can_be_clicked(browser, tmp_path, artifacts):
    game = random_game(NINE, seed=11, plies=46)
    assert game.outcome() is None and len(game.history) == 46
    record = [a.text for a in game.history]
    store = Store(tmp_path / "games.sqlite3")  # a game in progress the daemon resumes
    store.append(store.new_game(NINE, {"white": "hand", "black": "hand"}), 0, record)
    store.close()
    with sim_daemon(tmp_path) as running:
        page = open_page(browser, running, viewport={"width": 1100, "height": 760})
        page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length === 46")
        # Every action, scrolled to, is what the browser finds at its own centre: in view,
        # inside the list's box, and the thing a click lands on.
        seen = page.evaluate("""() => [...document.querySelectorAll('#moves [data-ply]')].map(li => {
            li.scrollIntoView({block: 'nearest'});
            const r = li.getBoundingClientRect(), box = document.getElementById('moves')
                .getBoundingClientRect();
            const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return [li.dataset.action, r.width > 0 && r.left >= box.left && r.right <= box.right
                    && r.top >= box.top && r.bottom <= box.bottom && !!hit && li.contains(hit)];
        })""")
        assert [a for a, _ in seen] == record
        assert all(ok for _, ok in seen), [a for a, ok in seen if not ok]
        page.screenshot(path=str(artifacts / "page-long-game.png"))
        page.click("#moves [data-ply='41']")  # a review of that position ...
        page.wait_for_selector("#review-controls:not([hidden])")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#review-takeback")  # ... then taking back to it, on purpose
        page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length === 41")
        assert running.call(lambda: running.daemon.session.record()) == " ".join(record[:41])
        page.close()


def resumed(tmp_path, rules, record: list[str]) -> None:  # type: ignore[no-untyped-def]
    """A game in progress in the store, for the daemon to resume (on an empty simulated
    board: the status asks to put the pebbles back, and its lights pulse)."""
    store = Store(tmp_path / "games.sqlite3")
    store.append(store.new_game(rules, {"white": "hand", "black": "hand"}), 0, record)
    store.close()


def test_the_move_list_is_numbered_by_turn_and_each_column_is_one_side(browser, tmp_path):
    """A move and the removal it earned share a line, so white's turns stay in the left
    column and black's in the right, after a removal too; one number for white's turn and
    black's, as a game record numbers them."""
    record = ["a7", "b6", "d7", "f6", "g7", "xb6", "d2", "g7-g4", "f6-d6"]
    resumed(tmp_path, preset("lasker"), record)
    with sim_daemon(tmp_path, variant="lasker") as running:
        page = open_page(browser, running, viewport={"width": 1100, "height": 760})
        page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length === 9")
        rows = page.evaluate("""() => [...document.querySelectorAll('#moves li')].map(li => [
            li.dataset.side, li.querySelector('.turn').textContent,
            [...li.querySelectorAll('[data-ply]')].map(a => a.dataset.action + '@' + a.dataset.ply),
            Math.round(li.getBoundingClientRect().left)])""")
        assert [row[:3] for row in rows] == [
            ["white", "1.", ["a7@1"]], ["black", "", ["b6@2"]], ["white", "2.", ["d7@3"]],
            ["black", "", ["f6@4"]], ["white", "3.", ["g7@5", "xb6@6"]],
            ["black", "", ["d2@7"]], ["white", "4.", ["g7-g4@8"]], ["black", "", ["f6-d6@9"]]]
        left = {side: {x for s, _, _, x in rows if s == side} for side in ("white", "black")}
        assert len(left["white"]) == len(left["black"]) == 1
        assert min(left["white"]) < min(left["black"])
        page.close()


def test_the_move_list_is_not_rebuilt_by_every_push(browser, tmp_path):
    """While lights pulse the page is pushed many times a second: the items stay the same
    elements, and a list scrolled by hand stays where it was, so a tap lands."""
    game = random_game(NINE, seed=11, plies=46)
    resumed(tmp_path, NINE, [a.text for a in game.history])
    with sim_daemon(tmp_path) as running:
        page = open_page(browser, running, viewport={"width": 1100, "height": 760})
        page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length === 46")
        page.evaluate("""() => {
            const list = document.getElementById('moves');
            list.scrollTop = 0;
            window.firstItem = list.querySelector('[data-ply]');
            window.pushedAt = +document.body.dataset.version;
        }""")
        page.wait_for_function("+document.body.dataset.version >= window.pushedAt + 10",
                               timeout=10_000)
        assert page.evaluate("""() => window.firstItem.isConnected && window.firstItem ===
            document.querySelector('#moves [data-ply]')""")
        assert page.evaluate("document.getElementById('moves').scrollTop") == 0
        page.close()


def test_nau_keti_keta_armies_are_laid_by_hand(browser, tmp_path, artifacts):
    start = new_game(preset("nau-keti-keta"))
    army = {side: [p for i, p in enumerate(start.board.points) if start.colour_at(i) is side]
            for side in Side}
    with sim_daemon(tmp_path, variant="nau-keti-keta") as running:
        page = open_page(browser, running, viewport={"width": 1100, "height": 800})
        page.check("input[name='place-colour'][value='black']")
        for point in army[Side.BLACK]:
            click(page, point)
            page.wait_for_selector(f"#point-{point}[data-pebble='black']")
        # A white pebble on one of white's points is right; on black's it would be named.
        page.check("input[name='place-colour'][value='white']")
        for point in army[Side.WHITE]:
            click(page, point)
            page.wait_for_selector(f"#point-{point}[data-pebble='white']")
        page.wait_for_function("document.querySelector('#status').dataset.kind === 'idle'")
        colours = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.point')]
            .map(g => [g.dataset.point, g.dataset.pebble]).filter(([p, c]) => c))""")
        assert colours == {p: str(s) for s in Side for p in army[s]}
        assert page.inner_text("#colours") == ""
        assert page.inner_text("#white-count").startswith("9 on the board")
        page.screenshot(path=str(artifacts / "page-nau-keti-keta-armies.png"))
        page.close()


def test_a_takeback_says_the_colour_of_every_pebble_and_hands_can_follow_it(browser, tmp_path):
    """Nau Keti Keta c3-d4 e5xc3 b2xd4, then take back: the white pebble on d4 goes back to
    b2 (never onto black's c3), and a black one is set on c3; done so, the board is right."""
    import json
    import urllib.request

    with sim_daemon(tmp_path, variant="nau-keti-keta") as running:
        def hand(body: dict) -> None:
            request = urllib.request.Request(
                running.url + "/api/hand", data=json.dumps(body).encode(), method="POST",
                headers={"Content-Type": "application/json", "X-Pin": running.pin})
            urllib.request.urlopen(request, timeout=10).read()

        hand({"op": "setup"})
        page = open_page(browser, running, viewport={"width": 1100, "height": 800})
        page.wait_for_function("document.querySelector('#status').dataset.kind === 'idle'")
        hand({"op": "move", "from": "c3", "to": "d4"})
        running.wait_for_plies(1)
        for plies, (taken, start, end) in enumerate((("d4", "e5", "c3"), ("c3", "b2", "d4")),
                                                    start=2):
            hand({"op": "lift", "point": taken})  # take, then jump
            hand({"op": "drop"})
            hand({"op": "move", "from": start, "to": end})
            running.wait_for_plies(plies)  # counted before: the jump may be in already
        assert running.call(lambda: running.daemon.session.record()) == "c3-d4 e5xc3 b2xd4"
        page.click("#takeback")
        page.wait_for_function("document.querySelector('#status').dataset.kind === 'mismatch'")
        assert page.inner_text("#status") == ("set the board to the game's position: move the "
                                              "white pebble from d4 to b2; set a black pebble on c3")
        page.check("input[name='place-colour'][value='black']")
        click(page, "d4")  # lift it ...
        page.wait_for_selector('#hand[data-holding="white"]')
        click(page, "b2")  # ... and set it on b2
        click(page, "c3")
        page.wait_for_function("document.querySelector('#status').dataset.kind === 'idle'")
        assert page.inner_text("#colours") == ""
        assert running.call(lambda: running.daemon.session.record()) == "c3-d4 e5xc3"
        page.close()


def test_a_pebble_of_the_wrong_colour_is_named(browser, tmp_path):
    start = new_game(preset("nau-keti-keta"))
    black = next(p for i, p in enumerate(start.board.points) if start.colour_at(i) is Side.BLACK)
    with sim_daemon(tmp_path, variant="nau-keti-keta") as running:
        page = open_page(browser, running)
        page.check("input[name='place-colour'][value='white']")
        click(page, black)
        page.wait_for_function("document.querySelector('#colours').textContent.length > 0")
        assert page.inner_text("#colours") == (
            f"{black} holds a white pebble where a black one belongs: lift it and set down a "
            "black one")
        page.close()


@pytest.mark.parametrize("variant", ["nine-mens-morris", "navakankari", "nau-keti-keta"])
def test_every_label_is_beside_its_own_point(browser, tmp_path, variant):
    """A name is nearer its own point than any other (and than an empty centre) by a clear
    margin, and no two names crowd each other: never "d6" and "d5" stacked between their
    points, nor "d3" between d3 and the centre."""
    with sim_daemon(tmp_path, variant=variant) as running:
        page = open_page(browser, running)
        found = page.evaluate("""() => {
            const at = (g) => g.getAttribute('transform').match(/-?[\\d.]+/g).map(Number);
            const points = [...document.querySelectorAll('#board .point')].map(g => {
                const [x, y] = at(g), t = g.querySelector('.label');
                return {name: g.dataset.point, x, y, lx: x + +t.getAttribute('x'),
                        ly: y + +t.getAttribute('y')};
            });
            const xs = points.map(p => p.x), ys = points.map(p => p.y);
            const centre = {name: 'the centre', x: (Math.min(...xs) + Math.max(...xs)) / 2,
                            y: (Math.min(...ys) + Math.max(...ys)) / 2};
            const spots = points.some(p => Math.hypot(p.x - centre.x, p.y - centre.y) < 0.1)
                ? points : [...points, centre];
            const bad = [];
            for (const p of points) {
                const own = Math.hypot(p.lx - p.x, p.ly - p.y);
                for (const q of spots) {
                    if (q.name !== p.name && Math.hypot(p.lx - q.x, p.ly - q.y) < 1.25 * own) {
                        bad.push(`${p.name} near ${q.name}`);
                    }
                }
                for (const q of points) {
                    if (q.name < p.name && Math.hypot(p.lx - q.lx, p.ly - q.ly) < 0.6) {
                        bad.push(`${p.name} and ${q.name} stacked`);
                    }
                }
            }
            return bad;
        }""")
        assert found == []
        page.close()


def test_labels_keep_clear_of_the_lines_on_the_19_point_board(browser, tmp_path):
    with sim_daemon(tmp_path, variant="nau-keti-keta") as running:
        page = open_page(browser, running)
        crossed = page.evaluate("""() => {
            const boxes = [...document.querySelectorAll('#board .label')].map(t =>
                [t.textContent, t.getBoundingClientRect()]);
            const out = [];
            for (const line of document.querySelectorAll('#board line')) {
                const a = line.getBoundingClientRect();
                const x1 = +line.getAttribute('x1'), y1 = +line.getAttribute('y1');
                const x2 = +line.getAttribute('x2'), y2 = +line.getAttribute('y2');
                const m = line.getScreenCTM();
                const p = (x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
                const [sx, sy] = p(x1, y1), [ex, ey] = p(x2, y2);
                for (const [name, r] of boxes) {
                    for (let k = 0; k <= 200; k++) {  // sample the segment
                        const x = sx + (ex - sx) * k / 200, y = sy + (ey - sy) * k / 200;
                        if (x > r.left && x < r.right && y > r.top && y < r.bottom) {
                            out.push(name); break;
                        }
                    }
                }
            }
            return [...new Set(out)];
        }""")
        assert crossed == []
        page.close()


@pytest.mark.parametrize("width", [390])
def test_whose_turn_is_above_the_board_on_a_phone(browser, tmp_path, width):
    with sim_daemon(tmp_path) as running:
        page = open_page(browser, running, viewport={"width": width, "height": 800})
        page.wait_for_function("document.querySelector('#banner').textContent.length > 0")
        banner = page.locator("#banner").bounding_box()
        board = page.locator("#board").bounding_box()
        assert banner["y"] + banner["height"] <= board["y"]
        # Whose turn once: the status begins with it, so nothing is put before it.
        assert page.inner_text("#banner") == "white to place a pebble on a free point"
        page.close()


def test_the_page_says_the_previous_game_could_not_be_resumed(browser, tmp_path):
    (tmp_path / "games.sqlite3").write_bytes(b"not a game store " * 600)
    with sim_daemon(tmp_path) as running:
        page = open_page(browser, running)
        page.wait_for_selector("#notice:not([hidden])")
        text = page.inner_text("#notice")
        assert text.startswith("the previous game could not be resumed")
        assert "games.sqlite3.damaged-" in text
        page.close()


def test_the_outcome_is_written_once(browser, tmp_path):
    import json
    import urllib.request

    from navakankari.engine.actions import ActionKind

    six = preset("six-mens-morris")
    game = random_game(six, seed=112, plies=400)  # ends after 21 actions
    assert game.outcome() is not None
    with sim_daemon(tmp_path, variant="six-mens-morris") as running:
        def hand(body: dict) -> None:
            request = urllib.request.Request(
                running.url + "/api/hand", data=json.dumps(body).encode(), method="POST",
                headers={"Content-Type": "application/json", "X-Pin": running.pin})
            urllib.request.urlopen(request, timeout=10).read()

        replayed = new_game(six)
        for n, action in enumerate(game.history, start=1):  # the hands play it out
            point = replayed.board.points[action.target]
            if action.kind is ActionKind.PLACE:
                hand({"op": "place", "point": point, "colour": str(replayed.turn)})
            elif action.kind is ActionKind.MOVE:
                hand({"op": "move", "from": replayed.board.points[action.origin], "to": point})
            else:
                hand({"op": "lift", "point": point})
                hand({"op": "drop"})
            replayed.push(action)
            running.wait_for_plies(n)
        page = open_page(browser, running)
        page.wait_for_function("document.querySelector('#status').dataset.kind === 'over'")
        said = page.inner_text("#status")
        assert " wins: " in said or said.startswith("draw: ")
        # ... and how the next game starts.
        assert said.endswith("; to play again, take every pebble off the board (a new game "
                              "of six-mens-morris starts)")
        assert page.evaluate("document.body.innerText").count(said) == 1
        assert page.inner_text("#outcome") == ""
        page.close()
