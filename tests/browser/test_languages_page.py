"""The page in the players' languages, in a real Chromium: a first visit speaks the
browser's language (Accept-Language), the page's choice is kept and reaches the board, and
every script is drawn with a font that has its letters (Noto, from Debian), never boxes."""

from __future__ import annotations

import pytest
from sim_daemon import sim_daemon

from navakankari.engine.boards import BOARDS
from navakankari.firmware.cli.menu_drawings import menu_svg
from navakankari.firmware.i18n.catalogs import LANGUAGES, translations

FONTS = {"gu": "Gujarati", "kn": "Kannada", "hi": "Devanagari", "te": "Telugu",
         "mr": "Devanagari", "bn": "Bengali", "ta": "Tamil"}
"""The Noto family that draws each language's script."""


@pytest.fixture()
def running(tmp_path):
    with sim_daemon(tmp_path, variant="navakankari", black="computer:1") as running:
        yield running


def fonts_of(page, selector: str) -> list[str]:
    """The fonts Chromium drew the element's text with (its own answer, through CDP)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    return [f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode",
                                              {"nodeId": node})["fonts"]]


@pytest.mark.parametrize("code", ["gu", "kn", "hi"])
def test_a_first_visit_speaks_the_browsers_language_in_its_own_script(browser, running,
                                                                       artifacts, code):
    context = browser.new_context(locale=f"{code}-IN", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(f"{running.url}/#pin={running.pin}")
    page.wait_for_function(f"document.documentElement.lang === '{code}'")
    page.wait_for_selector("#point-a7")
    tr = translations(code)
    page.wait_for_function("document.querySelector('#status').textContent.length > 0")
    assert page.inner_text("h1") == tr.gettext("Navakankari board")
    status = page.inner_text("#status")
    assert status == tr.gettext("{side} to place a pebble on a free point").format(
        side=tr.gettext("white"))
    assert page.inner_text("#new-game button[type=submit]") == tr.gettext("start")
    assert page.input_value("#language") == code
    for selector in ("#status", "h1", "#legend summary"):
        fonts = fonts_of(page, selector)
        assert any(FONTS[code] in f for f in fonts), (selector, fonts)
    page.screenshot(path=str(artifacts / f"page-{code}.png"))
    context.close()


def test_the_language_chosen_on_the_page_is_kept_and_the_board_speaks_it(browser, running):
    context = browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(f"{running.url}/#pin={running.pin}")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_selector("#point-a7")
    assert [o for o in page.eval_on_selector_all("#language option", "os => os.map(o => o.text)")] \
        == list(LANGUAGES.values())
    with page.expect_navigation():
        page.select_option("#language", "ta")
    page.wait_for_function("document.documentElement.lang === 'ta'")
    assert running.call(lambda: running.daemon.session.language) == "ta"
    assert running.call(lambda: running.daemon.store.setting("language")) == "ta"
    page.wait_for_function("document.querySelector('#status').textContent.length > 0")
    assert page.inner_text("h1") == translations("ta").gettext("Navakankari board")
    # Kept in this browser: a visit again speaks Tamil though the browser prefers English.
    page.goto(f"{running.url}/#pin={running.pin}")
    page.wait_for_function("document.documentElement.lang === 'ta'")
    context.close()


@pytest.mark.parametrize("code", ["gu", "kn", "hi"])
def test_the_printed_menu_card_draws_each_script(browser, artifacts, code):
    page = browser.new_page(viewport={"width": 1400, "height": 760})
    page.set_content(menu_svg(BOARDS["morris"], "direct-24", translations(code)))
    page.wait_for_selector("svg text")
    title = page.locator("svg text").first
    assert title.text_content().startswith(translations(code).gettext(
        "The board's menu: {points}-point board ({profile})").split("{")[0])
    fonts = fonts_of(page, "svg text")
    assert any(FONTS[code] in f for f in fonts), fonts
    page.screenshot(path=str(artifacts / f"menu-card-{code}.png"))
    page.close()


def test_the_browser_player_speaks_the_browsers_language_and_keeps_the_one_chosen(
        browser, tmp_path, artifacts):
    from navakankari.firmware.online.player_page import write_page

    write_page(tmp_path / "www")
    context = browser.new_context(locale="kn-IN", viewport={"width": 900, "height": 700})
    page = context.new_page()
    page.goto((tmp_path / "www" / "index.html").as_uri())
    page.wait_for_function("document.documentElement.lang === 'kn'")
    tr = translations("kn")
    assert page.inner_text("#join-form button[value=join]") == tr.gettext("Join the game")
    assert page.input_value("#language") == "kn"
    assert tr.pgettext("variant", "nine-mens-morris") in page.inner_text("#variant")
    fonts = fonts_of(page, "#join-form p")
    assert any("Kannada" in f for f in fonts), fonts
    page.screenshot(path=str(artifacts / "player-kn.png"))
    with page.expect_navigation():
        page.select_option("#language", "bn")
    page.wait_for_function("document.documentElement.lang === 'bn'")
    assert page.inner_text("#join-form button[value=join]") == \
        translations("bn").gettext("Join the game")
    context.close()
