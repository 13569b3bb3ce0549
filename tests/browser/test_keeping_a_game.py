"""A game a person keeps, in the page: the record downloaded and read back to the same game;
a resignation from the page, said in the message line as news, not as an error."""

from __future__ import annotations

from pathlib import Path

from sim_daemon import sim_daemon
from test_simulator_page import click, wait_for_moves

from navakankari.engine.record import parse_record, replay_record

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
