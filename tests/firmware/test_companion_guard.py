"""The companion bounded under any client: PIN throttling, Host and Origin, viewer cap, the
access log. A small backend stands in for the daemon; aiohttp's own test server serves it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer
from navakankari.firmware.companion.names import host_name, origin_name
from navakankari.firmware.companion.pin_throttle import PinThrottle
from navakankari.firmware.companion.server import Companion, DebugAccessLogger, access_log
from navakankari.firmware.daemon.config import Config, ConfigError

PIN = "135790"


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Backend:
    """Counts the changes it is asked for; its state is one counter."""

    def __init__(self) -> None:
        self.changes = 0
        self.listeners: list[Callable[[], None]] = []

    def snapshot(self, language: str = "en") -> dict[str, Any]:
        return {"changes": self.changes, "padding": "x" * 3000}

    async def stored(self) -> None:
        """Nothing waits to be stored here."""

    def language(self) -> str:
        return "en"

    def add_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        self.listeners.append(callback)
        return lambda: self.listeners.remove(callback)

    async def takeback(self, count: int | None, to: int | None = None) -> None:
        self.changes += 1


def run(coro_fn, **kwargs):  # type: ignore[no-untyped-def]
    """Serve a Companion on a test server and run `coro_fn(client, companion, backend)`."""
    async def main() -> None:
        backend = Backend()
        companion = Companion(backend, PIN, **kwargs)  # type: ignore[arg-type]
        async with TestClient(TestServer(companion.app(), host="127.0.0.1")) as client:
            await coro_fn(client, companion, backend)

    asyncio.run(main())


def test_sixty_rapid_wrong_pins_check_at_most_ten(caplog):
    clock = Clock()

    async def body(client, companion, backend) -> None:
        statuses = []
        for k in range(60):
            r = await client.post("/api/takeback", json={}, headers={"X-Pin": f"{k:06d}"})
            statuses.append(r.status)
            if r.status == 429:
                assert int(r.headers["Retry-After"]) >= 1
                assert "too many wrong PINs" in (await r.json())["error"]
        checked = statuses.count(403)
        assert checked <= 10 and statuses.count(429) == 60 - checked
        # The right PIN is refused unchecked too while the client waits ...
        r = await client.post("/api/takeback", json={}, headers={"X-Pin": PIN})
        assert r.status == 429 and backend.changes == 0
        # ... and accepted once the bucket refills (time is the injected clock).
        clock.t += int(r.headers["Retry-After"])
        r = await client.post("/api/takeback", json={}, headers={"X-Pin": PIN})
        assert r.status == 200 and backend.changes == 1

    with caplog.at_level(logging.WARNING):
        run(body, clock=clock)
    warnings = [r for r in caplog.records if "too many wrong PINs" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING


def test_the_right_pin_is_never_throttled():
    async def body(client, companion, backend) -> None:
        for _ in range(30):
            r = await client.post("/api/takeback", json={}, headers={"X-Pin": PIN})
            assert r.status == 200
        assert backend.changes == 30

    run(body, clock=Clock())


def test_throttle_refills_at_its_rate():
    clock = Clock()
    throttle = PinThrottle(burst=5, per_minute=5, clock=clock)
    for _ in range(5):
        assert throttle.wait("a") == 0
        throttle.wrong("a")
    assert throttle.wait("a") == 12 and throttle.wait("b") == 0
    clock.t += 12
    assert throttle.wait("a") == 0


@pytest.mark.parametrize("host, ok", [
    ("127.0.0.1:8080", True), ("localhost", True), ("LOCALHOST.:8080", True), ("[::1]:80", True),
    ("evil.example:8080", False), ("127.0.0.1.evil.example", False),
])
def test_host_must_name_the_board(host, ok):
    async def body(client, companion, backend) -> None:
        r = await client.get("/api/state", headers={"Host": host})
        assert r.status == (200 if ok else 421)
        if not ok:
            assert "does not answer to the name" in (await r.json())["error"]

    run(body)


@pytest.mark.parametrize("origin, ok", [
    (None, True), ("http://127.0.0.1:8080", True), ("http://localhost", True),
    ("http://evil.example", False), ("null", False),
])
def test_origin_must_name_the_board(origin, ok):
    async def body(client, companion, backend) -> None:
        headers = {"X-Pin": PIN} | ({"Origin": origin} if origin else {})
        r = await client.post("/api/takeback", json={}, headers=headers)
        assert r.status == (200 if ok else 403)
        assert backend.changes == (1 if ok else 0)
        if ok:
            ws = await client.ws_connect("/ws", headers={"Origin": origin} if origin else {})
            assert (await ws.receive_json())["changes"] == backend.changes
            await ws.close()
        else:
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await client.ws_connect("/ws", headers={"Origin": origin})

    run(body)


def test_a_name_of_the_machine_itself_is_accepted():
    assert host_name("pi.local:8080") == "pi.local" and host_name("[fe80::1]") == "fe80::1"
    assert origin_name("https://Pi.Local:8080/") == "pi.local" and origin_name("null") is None
    import socket

    async def body(client, companion, backend) -> None:
        r = await client.get("/api/state", headers={"Host": socket.gethostname() + ".local"})
        assert r.status == 200

    run(body)


def test_viewers_are_capped():
    async def body(client, companion, backend) -> None:
        open_ = [await client.ws_connect("/ws") for _ in range(3)]
        with pytest.raises(aiohttp.WSServerHandshakeError) as info:
            await client.ws_connect("/ws")
        assert info.value.status == 503
        await open_[0].close()
        await asyncio.sleep(0)  # let the server see the close (no timer involved)
        for _ in range(50):
            if len(companion._viewers) < 3:
                break
            await asyncio.sleep(0.01)
        again = await client.ws_connect("/ws")
        await again.close()
        for ws in open_[1:]:
            await ws.close()

    run(body, max_viewers=3)


def test_a_slow_viewer_gets_the_latest_state_not_every_state():
    async def body(client, companion, backend) -> None:
        ws = await client.ws_connect("/ws")
        assert (await ws.receive_json())["changes"] == 0
        for _ in range(500):  # a burst while the viewer reads nothing
            backend.changes += 1
            for listener in backend.listeners:
                listener()
        last = await ws.receive_json()
        received = 1
        while last["changes"] != 500:
            last = await ws.receive_json()
            received += 1
        assert received <= 3  # the newest state, not 500 of them
        await ws.close()

    run(body)


def test_access_log_is_debug_and_has_no_query(caplog):
    with caplog.at_level(logging.DEBUG, logger=access_log.name):
        async def main() -> None:  # served as serve() does, with the companion's access log
            from aiohttp import web

            runner = web.AppRunner(Companion(Backend(), PIN).app(),  # type: ignore[arg-type]
                                   access_log_class=DebugAccessLogger, access_log=access_log)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = runner.addresses[0][1]
            async with aiohttp.ClientSession() as session:
                async with session.get(f"http://127.0.0.1:{port}/api/state?pin=123456") as r:
                    assert r.status == 200
            await runner.cleanup()

        asyncio.run(main())
    lines = [r for r in caplog.records if r.name == access_log.name]
    assert lines and all(r.levelno == logging.DEBUG for r in lines)
    assert all("123456" not in r.getMessage() and "/api/state" in r.getMessage() for r in lines)


@pytest.mark.parametrize("pin", [" 1234 ", "1234 ", "\t1234"])
def test_a_pin_with_spaces_around_it_is_refused(pin):
    with pytest.raises(ConfigError, match="web.pin: has spaces around it"):
        Config(web_pin=pin)


def test_a_body_nested_too_deeply_is_refused_clearly():
    async def body(client, companion, backend) -> None:
        r = await client.post("/api/takeback", data="[" * 8000, headers={"X-Pin": PIN})
        assert r.status == 400
        assert (await r.json()) == {"error": "the request body is nested too deeply"}

    run(body)


def test_the_state_waits_for_a_write_under_way():
    """A move committed but not yet stored is not shown: the page's state, asked while the
    store writes, answers once the write is done (with what was stored)."""
    class Writing(Backend):
        def __init__(self) -> None:
            super().__init__()
            self.asked, self.written = asyncio.Event(), asyncio.Event()

        async def stored(self) -> None:
            self.asked.set()
            await self.written.wait()

    async def main() -> None:
        backend = Writing()
        companion = Companion(backend, PIN)  # type: ignore[arg-type]
        async with TestClient(TestServer(companion.app(), host="127.0.0.1")) as client:
            asked = asyncio.create_task(client.get("/api/state"))
            await asyncio.wait_for(backend.asked.wait(), 60)  # the request waits for the store
            assert not asked.done()
            backend.changes = 1  # the write lands
            backend.written.set()
            r = await asked
            assert r.status == 200 and (await r.json())["changes"] == 1

    asyncio.run(main())
