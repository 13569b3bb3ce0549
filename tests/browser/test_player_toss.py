"""The toss between a board and the browser player when the inviting board withholds its
reveal: the page, its clock moved past the 30 s it waits (Playwright's clock, not slept),
forfeits the toss for the inviter, starts, and says so; the board, back, reads the forfeit
and agrees."""

from __future__ import annotations

import asyncio

from navakankari.firmware.tools.local_broker import USERS
from navakankari.firmware.online.broker import BrokerAddress
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.invitation import host, offer
from navakankari.firmware.online.messages import Rejection
from navakankari.firmware.online.wire import lobby_topic, unseal

WAIT = 20.0


def _run(coro):  # type: ignore[no-untyped-def]
    """Run `coro` to its end on an event loop of its own (Playwright's holds this thread)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _offered_then_gone(address: BrokerAddress, code: GameCode, invite, toss) -> None:  # type: ignore[no-untyped-def]
    """The inviting board offers the game and goes before anyone joins (its offer stays
    retained): nobody will reveal."""
    hosting = asyncio.create_task(host(address, code, invite, toss))
    await _retained(address, code, "invite")
    hosting.cancel()
    await asyncio.gather(hosting, return_exceptions=True)


async def _retained(address: BrokerAddress, code: GameCode, what: str) -> bytes:
    import aiomqtt

    async with aiomqtt.Client(address.host, address.port, username="ravi",
                              password=USERS["ravi"]) as client:
        where = lobby_topic(code, what)
        await client.subscribe(where, qos=1)
        async with asyncio.timeout(WAIT):
            async for message in client.messages:
                if isinstance(message.payload, bytes) and message.payload and not isinstance(
                        unseal(code, where, message.payload), Rejection):
                    return message.payload
    raise AssertionError(f"nothing on {what}")  # pragma: no cover


def test_a_withheld_reveal_loses_the_toss_for_the_inviting_board(browser, log_in, served):
    code = GameCode.new()
    invite, toss = offer(code, "nine-mens-morris", "white", "toss", "Grandma's board")
    grandma = BrokerAddress.parse(served.url("grandma"))
    _run(_offered_then_gone(grandma, code, invite, toss))
    page = browser.new_page()
    page.clock.install()  # the page's timers run on a clock this test moves
    page.goto(f"http://127.0.0.1:{served.ws_port}/index.html#code={code}"
              f"&broker=ws://127.0.0.1:{served.ws_port}")
    log_in(page, "Ravi's phone")
    page.click("#join-form button")
    _run(_retained(grandma, code, "join"))  # answered; now it waits for the reveal
    page.clock.run_for(29_000)
    assert page.is_hidden("#game")  # 29 s: still waiting for the reveal
    page.clock.run_for(2_000)  # past 30 s: the inviter loses the toss
    page.wait_for_selector("#game:not([hidden])", timeout=WAIT * 1000)
    assert page.text_content("#request-text") == (
        "the inviting board did not reveal its toss within 30 s: it loses the toss, so black "
        "(the joining board) starts")
    assert page.text_content("#players").startswith("You play black (first)")
    assert page.text_content("#turn").startswith("Your turn")
    # The inviting board comes back: it reads the forfeit and agrees that black starts.
    hosted = _run(asyncio.wait_for(host(grandma, code, invite, toss), WAIT))
    # black starts; the inviting board still plays the white it offered to play
    assert hosted is not None and (hosted.first, hosted.colour) == ("black", "white")
    assert hosted.note == page.text_content("#request-text")
    page.close()
