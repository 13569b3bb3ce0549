"""The companion's URL as the CLI and the simulator write it, read back as a Host header."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from navakankari.firmware.companion.names import LOCAL, host_name, local_url, own_names
from navakankari.firmware.companion.phone_link import phone_link


@pytest.mark.parametrize("address, host", [
    ("", "127.0.0.1"), ("0.0.0.0", "127.0.0.1"), ("::", "127.0.0.1"),
    ("127.0.0.1", "127.0.0.1"), ("::1", "::1"), ("192.168.1.20", "192.168.1.20"),
    ("localhost", "localhost")])
def test_local_url_reads_back_as_the_host_the_board_answers_to(address, host):
    url = local_url(address, 8080, "/api/takeback")
    parts = urlsplit(url)
    assert parts.port == 8080 and parts.path == "/api/takeback"
    assert host_name(parts.netloc) == host
    if address in ("", "0.0.0.0", "::") or address in LOCAL:
        assert host_name(parts.netloc) in own_names(address)


def test_an_ipv6_address_is_bracketed_in_every_url():
    assert local_url("::1", 8080, "/#pin=123456") == "http://[::1]:8080/#pin=123456"
    assert phone_link("fd00::5", 8080, "123456").url == "http://[fd00::5]:8080/#pin=123456"
