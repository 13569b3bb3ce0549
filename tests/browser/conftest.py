"""Browser tests: Debian's Chromium driven by Playwright (no browser download)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "firmware"))

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser():
    """One Chromium per module: Playwright's sync API keeps an event loop running in this
    thread while it is open, which would stop later tests from calling asyncio.run()."""
    path = chromium_path()
    if path is None:
        message = "Chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def protocol_page(browser):  # type: ignore[no-untyped-def]
    """A blank page holding the browser player's rules and protocol, as the page loads them,
    and no broker: for checking them against the engine's and the boards' Python."""
    from navakankari.firmware.online.player_page import FOLDER

    page = browser.new_page()
    page.set_content("<!doctype html><title>the player's scripts</title>")
    for name in ("variants.js", "rules.js", "noble.js", "protocol.js"):
        page.add_script_tag(path=str(FOLDER / name))
    yield page
    page.close()
