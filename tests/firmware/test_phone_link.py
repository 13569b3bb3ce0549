"""Connecting a phone: the address with the PIN, as a link and a QR code, where a phone can
reach the companion; what to set where it cannot."""

from __future__ import annotations

import asyncio
import logging
import socket

import segno
from navakankari.firmware.companion.phone_link import phone_link
from navakankari.firmware.companion.server import Companion, serve


def test_localhost_has_no_link_and_says_what_to_set():
    for address in ("127.0.0.1", "localhost", "::1"):
        link = phone_link(address, 8080, "1234")
        assert link.url is None and link.qr_svg() == "" and link.qr_text() == ""
        assert 'address = "0.0.0.0"' in link.why_not and "--address 0.0.0.0" in link.why_not


def test_a_named_address_is_used_as_it_is():
    assert phone_link("192.168.1.20", 8080, "1234").url == "http://192.168.1.20:8080/#pin=1234"
    assert phone_link("fd00::5", 80, "9").url == "http://[fd00::5]:80/#pin=9"
    assert phone_link("192.168.1.20", 8080, None).url == "http://192.168.1.20:8080/"


def test_all_addresses_use_this_machines_own():
    url = phone_link("0.0.0.0", 8080, "1234").url
    assert url is not None and url.endswith(":8080/#pin=1234")
    host = url.removeprefix("http://").rpartition(":")[0]
    assert host == f"{socket.gethostname()}.local" or socket.inet_aton(host)
    assert not host.startswith("127.")


def test_the_qr_code_encodes_the_link():
    link = phone_link("192.168.1.20", 8080, "1234")
    assert link.qr_svg() == segno.make_qr(link.url, error="m").svg_inline(scale=4)
    assert link.qr_svg().startswith("<svg") and "\u2580" in link.qr_text()


class Backend:
    def snapshot(self, language="en"):  # type: ignore[no-untyped-def]
        return {}

    def language(self):  # type: ignore[no-untyped-def]
        return "en"

    async def stored(self) -> None:
        """Nothing waits to be stored here."""

    def add_listener(self, callback):  # type: ignore[no-untyped-def]
        return lambda: None


def test_serving_beyond_localhost_logs_the_link_and_the_page_gets_it_with_the_pin(caplog):
    import aiohttp

    async def main() -> None:
        companion = Companion(Backend(), "4321", address="0.0.0.0")  # type: ignore[arg-type]
        runner = await serve(companion, "0.0.0.0", 0)
        port = runner.addresses[0][1]
        try:
            async with aiohttp.ClientSession() as session:
                url = f"http://127.0.0.1:{port}/api/phone"
                async with session.get(url) as r:
                    assert r.status == 403  # the link carries the PIN: PIN holders only
                async with session.get(url, headers={"X-Pin": "4321"}) as r:
                    body = await r.json()
            assert body["url"] == companion.link.url and body["url"].endswith(f":{port}/#pin=4321")
            assert body["qr"] == companion.link.qr_svg()
        finally:
            await runner.cleanup()

    with caplog.at_level(logging.INFO, logger="navakankari"):  # whatever an earlier command set it to
        asyncio.run(main())
    said = [r.getMessage() for r in caplog.records if "a phone on the same network" in r.getMessage()]
    assert len(said) == 1 and "#pin=4321" in said[0] and "\u2588" in said[0]
