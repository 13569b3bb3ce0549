"""The command line's client reads what answers at the companion's address as hostile: an
answer that is not the companion's JSON object is a named refusal, not a crash."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from navakankari.firmware.companion.client import ControlError, post
from navakankari.firmware.daemon.config import Config


def _serving(status: int, body: bytes) -> Iterator[Config]:
    class Answer(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server's name for it
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Answer)
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield Config(web_address="127.0.0.1", web_port=server.server_address[1], web_pin="1234")
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("body", [b"[1, 2]", b"not json", b"\xff\xfe", b'"text"'])
def test_an_answer_that_is_not_an_object_is_refused_by_name(body: bytes) -> None:
    for config in _serving(200, body):
        with pytest.raises(ControlError, match="is not the board's companion"):
            post(config, "/api/takeback", {})


def test_the_companions_answer_and_refusal_come_through() -> None:
    for config in _serving(200, b'{"ok": true}'):
        assert post(config, "/api/takeback", {}) == {"ok": True}
    for config in _serving(403, b'{"error": "wrong PIN"}'):
        with pytest.raises(ControlError, match="the daemon refused: wrong PIN"):
            post(config, "/api/takeback", {})
