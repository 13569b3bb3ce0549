"""A game a person keeps, in the page: the record downloaded and read back to the same game;
a resignation from the page, said in the message line as news, not as an error."""

from __future__ import annotations

from pathlib import Path

from sim_daemon import sim_daemon, until
from test_simulator_page import click, strip_leds, wait_for_moves

from navakankari.engine.record import parse_record, replay_record
from navakankari.firmware.core.palette import PALETTE, Role

GAME = ["a7", "b6", "d7", "f6"]


def test_the_record_downloads_reads_back_and_a_resignation_ends_the_game(browser, tmp_path,
                                                                        artifacts):
    with sim_daemon(tmp_path, variant="lasker", white="hand", black="hand",
                    board_name="Grandma") as running:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(f"{running.url}/#pin={running.pin}")
        page.wait_for_selector("#point-a7")
        for n, point in enumerate(GAME, start=1):
            click(page, point)
            wait_for_moves(page, n)
        with page.expect_download() as info:
            page.click("#download-record")
        download = info.value
        assert download.suggested_filename == "game.pgn"
        text = Path(download.path()).read_text(encoding="utf-8")
        record = parse_record(text)
        assert (record.site, record.white, record.black) == ("Grandma", "hand", "hand")
        assert record.rules.name == "lasker" and record.result == "*"
        assert replay_record(record).record() == " ".join(GAME)
        assert text.endswith("1. a7 b6\n2. d7 f6\n*\n")

        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#resign")
        page.wait_for_function("document.querySelector('#message').textContent.length > 0")
        assert page.inner_text("#message") == "white resigned: black wins"
        assert page.get_attribute("#message", "class") == "note"
        colour = page.eval_on_selector("#message", "e => getComputedStyle(e).color")
        assert colour == "rgb(20, 83, 45)"  # news in green, not an error's red
        page.screenshot(path=str(artifacts / "page-resigned.png"))
        stored = running.call(lambda: running.daemon.store.games(limit=2))
        ended = next(g for g in stored if g.finished)
        assert ended.outcome == {"winner": "black", "reason": "resigned"}
        page.close()


def _shown(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.point')]
        .filter(g => g.dataset.pebble).map(g => [g.dataset.point, g.dataset.pebble]))""")


def test_a_finished_game_and_a_loaded_record_are_reviewed_step_by_step(browser, tmp_path,
                                                                        artifacts):
    """Stepping through shows each position and marks the action that made it, while the
    board's own game and pebbles stay as they are; taking back is not part of it."""
    from navakankari.engine.presets import preset
    from navakankari.engine.record import format_record, record_of
    from navakankari.engine.variants import new_game
    from navakankari.firmware.store.database import Store

    game = new_game(preset("nine-mens-morris"))
    game.play_record("a7 b6 d7 f6 g7xb6 d2")
    store = Store(tmp_path / "games.sqlite3")
    finished = store.new_game(game.rules, {"white": "hand", "black": "computer:2"})
    store.append(finished, 1, [a.text for a in game.history])
    store.finish(finished, {"winner": "white", "reason": "resigned"})
    store.close()
    with sim_daemon(tmp_path, white="hand", black="hand") as running:
        page = browser.new_page(viewport={"width": 1100, "height": 1000})
        page.goto(f"{running.url}/#pin={running.pin}")
        page.wait_for_selector("#point-a7")
        page.click("#review-game")  # the list of stored games is read as it opens
        page.wait_for_selector(f"#review-game option[value='{finished}']", state="attached")
        page.select_option("#review-game", str(finished))
        page.wait_for_selector("#review-controls:not([hidden])")
        assert _shown(page) == {}
        assert page.inner_text("#review-where") == f"game {finished}: the start, action 0 of 7"
        for _ in range(5):
            page.click("#review-forward")
        assert _shown(page) == {"a7": "white", "b6": "black", "d7": "white", "f6": "black",
                                "g7": "white"}
        assert page.eval_on_selector_all(".point[data-touched]", "g => g.map(p => p.dataset.point)") == ["g7"]
        # The board lights that move too, and only it (the magenta of a review).
        until("the board lighting the reviewed move", lambda: running.call(
            lambda: running.daemon.session.status.review) == ("g7",))
        review = "#%02x%02x%02x" % running.call(lambda: running.daemon.board.leds.corrected(
            PALETTE[Role.REVIEW].colour))
        until("the LEDs showing it", lambda: strip_leds(running) == {"g7": review})
        page.click("#review-forward")  # the removal
        assert "b6" not in _shown(page)
        assert page.inner_text("#moves .action.current") == "xb6"
        page.click("#review-end")
        assert page.inner_text("#review-where") == f"game {finished}: after d2, action 7 of 7 · 1-0"
        assert page.is_hidden("#review-takeback")  # a finished game cannot be taken back
        page.screenshot(path=str(artifacts / "page-review.png"))
        page.click("#point-a1 .hit")  # the board's game is not touched from a review
        assert "this is a review" in page.inner_text("#message")
        assert running.call(lambda: running.daemon.session.record()) == ""

        # A record loaded from a file: read, checked and stepped through the same way.
        path = tmp_path / "kept.pgn"
        path.write_text(format_record(record_of(game, white="Ravi", black="Grandma")))
        page.set_input_files("#review-file", str(path))
        page.wait_for_function("document.getElementById('review-where').textContent"
                               ".startsWith('a loaded record')")
        assert page.inner_text("#review-where") == "a loaded record: the start, action 0 of 7"
        page.click("#review-end")
        assert _shown(page) == {"a7": "white", "d7": "white", "f6": "black", "g7": "white",
                                "d2": "black"}
        bad = tmp_path / "bad.pgn"
        bad.write_text("1. a7 a7\n")
        page.set_input_files("#review-file", str(bad))
        page.wait_for_function("document.getElementById('message').textContent.includes('move 1')")
        page.click("#review-close")
        assert page.is_hidden("#review-controls")
        until("the board's own lights again", lambda: running.call(
            lambda: running.daemon.session.status.review) is None)
        page.close()
