"""Browser tests: Debian's Chromium driven by Playwright (no browser download)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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


@contextmanager
def _chromium(extra_args: list[str]) -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        message = "Chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS + extra_args)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    """One Chromium per module: Playwright's sync API keeps an event loop running in this
    thread while it is open, which would stop later tests from calling asyncio.run()."""
    with _chromium([]) as browser:
        yield browser


CLUB_HOST = "club.test"


@pytest.fixture(scope="module")
def club_browser():  # type: ignore[no-untyped-def]
    """Chromium that reaches 127.0.0.1 by the name club.test: a page from there is plain http
    on a club's own network, not a secure context (no crypto.subtle), as a club serves it."""
    with _chromium([f"--host-resolver-rules=MAP {CLUB_HOST} 127.0.0.1"]) as browser:
        yield browser


@pytest.fixture
def club_host() -> str:
    """The name club_browser reaches this machine by."""
    return CLUB_HOST


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


@pytest.fixture
def served(tmp_path: Path):  # type: ignore[no-untyped-def]
    """The broker, serving a page written by `navakankari online-page`."""
    from navakankari.firmware.tools.local_broker import BrokerMissingError, LocalBroker
    from navakankari.firmware.online.player_page import write_page

    page_dir = tmp_path / "www"
    write_page(page_dir)
    try:
        broker = LocalBroker(tmp_path, http_dir=page_dir)
    except BrokerMissingError as exc:
        pytest.skip(str(exc))
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def log_in():  # type: ignore[no-untyped-def]
    """Ravi's club login (and the name the board will show) on the browser player's form."""
    from navakankari.firmware.tools.local_broker import USERS

    def fill(page, name: str = "") -> None:  # type: ignore[no-untyped-def]
        page.fill("#username", "ravi")
        page.fill("#password", USERS["ravi"])
        if name:
            page.fill("#name", name)

    return fill
