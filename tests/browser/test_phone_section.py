"""The page shows how a phone connects: the link with the PIN and its QR code when the
simulator listens on every address, and what to set when it listens on localhost only."""

from __future__ import annotations

from sim_daemon import sim_daemon, sim_process


def test_the_page_shows_the_phone_link_and_qr_code(browser, tmp_path, artifacts):
    proc, port, line = sim_process("--address", "0.0.0.0", "--pin", "8642",
                                   "--store", str(tmp_path / "s.sqlite3"))
    try:
        here = f"http://127.0.0.1:{port}/#pin=8642"  # the address printed opens here
        assert line.startswith(f"the simulator is at {here} ")
        page = browser.new_page(viewport={"width": 1100, "height": 1000})
        page.goto(here)
        page.wait_for_selector("#phone:not([hidden]) #phone-qr svg")
        url = page.inner_text("#phone-link")
        assert url.startswith("http://") and url.endswith(f":{port}/#pin=8642")
        assert page.get_attribute("#phone-link", "href") == url
        page.locator("#phone").screenshot(path=str(artifacts / "page-phone-link.png"))
        page.close()
    finally:
        proc.terminate()
        err = proc.communicate(timeout=10)[1]
    assert f"a phone on the same network opens {url}" in err


def test_on_localhost_the_page_says_what_to_set(browser, tmp_path):
    with sim_daemon(tmp_path) as running:
        page = browser.new_page()
        page.goto(f"{running.url}/#pin={running.pin}")
        page.wait_for_selector("#phone:not([hidden])")
        assert 'address = "0.0.0.0"' in page.inner_text("#phone-why")
        assert page.locator("#phone-qr svg").count() == 0
        page.close()
        viewer = browser.new_page()  # without the PIN nothing is shown
        viewer.goto(running.url + "/")
        viewer.wait_for_selector(".point")
        assert viewer.locator("#phone").is_hidden()
        viewer.close()
