"""Inviting and joining through a real Mosquitto, the toss included."""

from __future__ import annotations

import asyncio
import gc

import pytest

from navakankari.firmware.online.broker import BrokerAddress
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.invitation import InvitationError, host, join, offer
from broker import USERS


def _agree(broker, starts: str):
    async def main():
        code = GameCode.new()
        invite, toss = offer(code, "lasker", "black", starts, "Grandma's board")
        hosting = asyncio.create_task(host(BrokerAddress.parse(broker.url("grandma")), code,
                                           invite, toss))
        joined = await join(BrokerAddress.parse(broker.url("ravi")), GameCode.parse(str(code)),
                            "Ravi's board")
        return await asyncio.wait_for(hosting, 10), joined
    return asyncio.run(main())


@pytest.mark.parametrize("starts", ["white", "black", "toss"])
def test_both_boards_agree_on_the_game(broker, starts):
    hosted, joined = _agree(broker, starts)
    assert (hosted.variant, hosted.side, hosted.opponent) == ("lasker", "black", "Ravi's board")
    assert (joined.variant, joined.side, joined.opponent) == ("lasker", "white",
                                                              "Grandma's board")
    assert hosted.first == joined.first
    assert hosted.first == starts or starts == "toss"
    assert {hosted.colour, joined.colour} == {"white", "black"}
    assert hosted.colour == ("white" if hosted.first == "black" else "black")


def test_a_toss_gives_either_side(broker):
    firsts = {_agree(broker, "toss")[0].first for _ in range(12)}
    assert firsts == {"white", "black"}  # 12 fair tosses all alike: 1 in 2048


def test_joining_nothing_or_with_the_wrong_secret_says_so(broker):
    async def main():
        address = BrokerAddress.parse(broker.url("ravi"))
        with pytest.raises(InvitationError, match="no game waits under this code"):
            await join(address, GameCode.new(), "Ravi's board", wait=0.3)
        code = GameCode.new()
        invite, toss = offer(code, "navakankari", "white", "white", "Grandma's board")
        hosting = asyncio.create_task(host(BrokerAddress.parse(broker.url("grandma")), code,
                                           invite, toss))
        wrong = GameCode(code.game, "0" * 12)
        with pytest.raises(InvitationError, match="does not open it"):
            await join(address, wrong, "Mallory's board", wait=2)
        hosting.cancel()
        await asyncio.gather(hosting, return_exceptions=True)
        del hosting
        gc.collect()  # the MQTT client goes while its loop runs
    asyncio.run(main())


def test_a_bad_offer_is_refused_before_anything_is_sent():
    with pytest.raises(ValueError):
        offer(GameCode.new(), "navakankari", "green", "white", "x")
    with pytest.raises(KeyError):
        offer(GameCode.new(), "chess", "white", "white", "x")


def test_poison_and_forgeries_on_the_invitation_topics_stop_neither_board(broker):
    """Before the real answer, someone on the broker publishes garbage and a wrongly signed
    join on the join topic, and a wrongly signed invite and reveal: the inviter keeps
    waiting, the joiner passes over the forgeries, and the two agree."""
    import aiomqtt

    from navakankari.firmware.online.messages import Invite, Join, Reveal, encode, sign

    async def main():
        code = GameCode.new()
        wrong = GameCode(code.game, "0" * 12).key
        invite, toss = offer(code, "lasker", "black", "toss", "Grandma's board")
        hosting = asyncio.create_task(host(BrokerAddress.parse(broker.url("grandma")), code,
                                           invite, toss))
        await _offered(broker, code, invite)
        base = f"navakankari/v1/{code.game}"
        async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                  password="sneaky-1") as mallory:
            for payload in (b"[" * 100_000, b'{"mac": "\\u00e9"}', b"\xff",
                            encode(sign(wrong, Join(code.game, "Mallory", 0)))):
                await mallory.publish(f"{base}/join", payload, qos=1)
            await mallory.publish(f"{base}/reveal", encode(sign(wrong, Reveal(
                code.game, "00" * 16, 0))), qos=1, retain=True)
            await mallory.publish(f"{base}/invite", encode(sign(wrong, Invite(
                code.game, "lasker", "white", "white", "Mallory", ""))), qos=1, retain=True)
        await _offered(broker, code, invite)  # the forged offer replaced by the real one again
        assert not hosting.done()
        joined = await join(BrokerAddress.parse(broker.url("ravi")), code, "Ravi's board")
        hosted = await asyncio.wait_for(hosting, 10)
        assert hosted.first == joined.first and joined.opponent == "Grandma's board"
        assert hosted.opponent == "Ravi's board"
        del hosting
        gc.collect()
    asyncio.run(main())


def test_nobody_takes_the_inviter_off_the_broker_with_a_guessed_client_id(broker):
    """The broker keeps one connection per client id: ids made from the game's public id
    (as `navakankari-host-<game>` was) let anyone disconnect the inviter."""
    import aiomqtt

    async def main():
        code = GameCode.new()
        invite, toss = offer(code, "lasker", "white", "white", "Grandma's board")
        hosting = asyncio.create_task(host(BrokerAddress.parse(broker.url("grandma")), code,
                                           invite, toss))
        await _offered(broker, code, invite)
        for guess in (f"navakankari-host-{code.game}", f"navakankari-join-{code.game}"):
            async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                      password="sneaky-1", identifier=guess):
                pass
        assert not hosting.done()
        joined = await join(BrokerAddress.parse(broker.url("ravi")), code, "Ravi's board")
        hosted = await asyncio.wait_for(hosting, 10)
        assert hosted.opponent == "Ravi's board" and joined.opponent == "Grandma's board"
        del hosting
        gc.collect()
    asyncio.run(main())


def test_a_cleared_offer_is_published_again_and_a_lost_broker_connected_again(broker):
    import aiomqtt

    async def main():
        code = GameCode.new()
        invite, toss = offer(code, "lasker", "white", "white", "Grandma's board")
        hosting = asyncio.create_task(host(BrokerAddress.parse(broker.url("grandma")), code,
                                           invite, toss, retry=(0.05, 0.2)))
        await _offered(broker, code, invite)
        async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                  password="sneaky-1") as mallory:
            await mallory.publish(f"navakankari/v1/{code.game}/invite", b"", qos=1,
                                  retain=True)
        await _offered(broker, code, invite)  # published again
        broker.stop()  # the inviter loses the broker, and the offer waits for its return
        broker.start()
        joined = await join(BrokerAddress.parse(broker.url("ravi")), code, "Ravi's board",
                            wait=5)
        hosted = await asyncio.wait_for(hosting, 10)
        assert hosted.opponent == "Ravi's board" and joined.opponent == "Grandma's board"
        del hosting
        gc.collect()
    asyncio.run(main())


def test_joining_the_same_code_again_goes_on_with_the_answer_given(broker):
    """A retry, or a restart before the game was kept: a fresh bit against the old reveal
    would make both boards take the same colour half of the time."""
    async def main():
        code = GameCode.new()
        invite, toss = offer(code, "lasker", "white", "toss", "Grandma's board")
        hosting = asyncio.create_task(host(BrokerAddress.parse(broker.url("grandma")), code,
                                           invite, toss))
        address = BrokerAddress.parse(broker.url("ravi"))
        first = await join(address, code, "Ravi's board")
        hosted = await asyncio.wait_for(hosting, 10)
        again = [await join(address, code, "Ravi's board") for _ in range(6)]
        assert {a.first for a in again} == {first.first} == {hosted.first}
        assert {a.colour for a in again} == {first.colour} != {hosted.colour}
        del hosting
        gc.collect()
    asyncio.run(main())


async def _offered(broker, code: GameCode, invite) -> None:  # type: ignore[no-untyped-def]
    """Until the broker holds the inviter's own offer, retained, under the game's topic."""
    import aiomqtt

    from navakankari.firmware.online.messages import encode

    async def held() -> None:
        async with aiomqtt.Client("127.0.0.1", broker.port, username="ravi",
                                  password=USERS["ravi"]) as client:
            await client.subscribe(f"navakankari/v1/{code.game}/invite", qos=1)
            async for message in client.messages:
                if message.payload == encode(invite):
                    return
    for _ in range(20):
        try:
            await asyncio.wait_for(held(), 0.5)
            return
        except asyncio.TimeoutError:
            continue  # not yet, or not again yet: look afresh (a retained message is new)
    raise AssertionError(f"the offer of game {code.game} is not on the broker")
