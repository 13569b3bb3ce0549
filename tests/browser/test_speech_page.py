"""The simulator's page says what the board says: turned on with its box, each sentence is
played from the daemon's WAV where the browser has no voice for the language (here: none, so
the test sees every sentence asked for), a newer one cutting the older short."""

from __future__ import annotations

import shutil

import pytest
from sim_daemon import api, sim_daemon, until

# The browser's own voices taken away: every sentence then goes by the daemon's WAV.
NO_VOICES = "Object.defineProperty(window, 'speechSynthesis', { value: undefined });"


def test_the_page_says_each_sentence_once_turned_on(browser, tmp_path):
    with sim_daemon(tmp_path) as running:
        page = browser.new_page()
        page.add_init_script(NO_VOICES)
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if "/api/speech.wav" in r.url else None)
        page.goto(f"{running.url}/#pin={running.pin}")
        page.wait_for_selector("#point-d6")
        page.wait_for_function("!document.querySelector('#speech').disabled")
        assert not page.is_checked("#speech")  # off by default
        page.click("#point-d6 .hit")
        page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length >= 1")
        page.wait_for_timeout(300)
        assert asked == []  # off: nothing said
        page.check("#speech")
        until("speech on", lambda: api(running, "/api/state")["speech"]["enabled"])
        page.click("#point-a4 .hit")
        number = until("the move said", lambda: api(running, "/api/state")["speech"]["number"])
        page.wait_for_function("document.querySelectorAll('#moves [data-ply]').length >= 2")
        until("the page asked for the sentence", lambda: asked, within=10)
        assert asked[0].endswith(f"/api/speech.wav?n={number}")
        said = api(running, "/api/state")["speech"]["recent"][-1]
        assert said["text"] == "Black placed a pebble on a4. White to place a pebble on a free point."
        if shutil.which("espeak-ng") is None:
            pytest.skip("espeak-ng is not installed: the WAV itself is not made")
        ok = page.evaluate("""async (n) => {
            const r = await fetch(`/api/speech.wav?n=${n}`);
            return [r.status, r.headers.get('content-type'), (await r.arrayBuffer()).byteLength];
        }""", number)
        assert ok[0] == 200 and ok[1] == "audio/wav" and ok[2] > 20_000
        page.uncheck("#speech")
        until("speech off", lambda: not api(running, "/api/state")["speech"]["enabled"])
        page.close()
