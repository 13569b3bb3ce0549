"""Inviting and joining through a real Mosquitto, the toss included."""

from __future__ import annotations

import asyncio
import gc

import pytest

from navakankari.firmware.i18n.catalogs import translations
from navakankari.firmware.online.broker import BrokerAddress
from navakankari.hal.words import words_of
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.invitation import (REVEAL_WAIT, InvitationError, host, join,
                                                    offer)
from navakankari.firmware.online.wire import OLDER, lobby_topic, seal, unseal
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
    # each plays the colour the offer named, whoever starts
    assert (hosted.variant, hosted.colour, hosted.opponent) == ("lasker", "black",
                                                                "Ravi's board")
    assert (joined.variant, joined.colour, joined.opponent) == ("lasker", "white",
                                                                "Grandma's board")
    assert hosted.first == joined.first
    assert hosted.first == starts or starts == "toss"


def test_a_toss_gives_either_side(broker):
    agreed = [_agree(broker, "toss")[0] for _ in range(12)]
    assert {a.first for a in agreed} == {"white", "black"}  # 12 fair tosses alike: 1 in 2048
    assert {a.colour for a in agreed} == {"black"}  # the toss never changes the colours


def test_joining_nothing_or_with_the_wrong_secret_says_so(broker):
    async def main():
        address = BrokerAddress.parse(broker.url("ravi"))
        with pytest.raises(InvitationError, match="no game waits under this code") as raised:
            await join(address, GameCode.new(), "Ravi's board", wait=0.3)
        assert raised.value.problem.words(translations("hi")) == \
            "इस कोड पर कोई खेल प्रतीक्षा में नहीं (ख़त्म, या ग़लत लिखा?)"
        code = GameCode.new()
        invite, toss = offer(code, "navakankari", "white", "white", "Grandma's board")
        hosting = asyncio.create_task(host(BrokerAddress.parse(broker.url("grandma")), code,
                                           invite, toss))
        await _offered(broker, code, invite)
        wrong = GameCode(code.game, "0" * 12)  # the secret's topics are another game's
        with pytest.raises(InvitationError, match="no game waits under this code"):
            await join(address, wrong, "Mallory's board", wait=1)
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

    from navakankari.firmware.online.messages import Forfeit, Invite, Join, Reveal, sign

    async def main():
        code = GameCode.new()
        wrong = GameCode(code.game, "0" * 12)
        invite, toss = offer(code, "lasker", "black", "toss", "Grandma's board")
        hosting = asyncio.create_task(host(BrokerAddress.parse(broker.url("grandma")), code,
                                           invite, toss))
        await _offered(broker, code, invite)
        where = {what: lobby_topic(code, what) for what in ("invite", "join", "reveal")}
        async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                  password="sneaky-1") as mallory:
            for payload in (b"[" * 100_000, b'{"mac": "\\u00e9"}', b"\xff",
                            seal(wrong, where["join"], sign(wrong.key, Join(code.game,
                                                                          "Mallory", 0)))):
                await mallory.publish(where["join"], payload, qos=1)
            for forged in (Reveal(code.game, "00" * 16, 0), Forfeit(code.game, "Mallory")):
                await mallory.publish(where["reveal"], seal(wrong, where["reveal"], sign(
                    wrong.key, forged)), qos=1, retain=True)
            await mallory.publish(where["invite"], seal(wrong, where["invite"], sign(
                wrong.key, Invite(code.game, "lasker", "white", "white", "Mallory", ""))),
                qos=1, retain=True)
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
            await mallory.publish(lobby_topic(code, "invite"), b"", qos=1, retain=True)
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

    async def held() -> None:
        async with aiomqtt.Client("127.0.0.1", broker.port, username="ravi",
                                  password=USERS["ravi"]) as client:
            where = lobby_topic(code, "invite")
            await client.subscribe(where, qos=1)
            async for message in client.messages:
                if isinstance(message.payload, bytes) and message.payload and unseal(
                        code, where, message.payload) == invite:
                    return
    for _ in range(20):
        try:
            await asyncio.wait_for(held(), 0.5)
            return
        except asyncio.TimeoutError:
            continue  # not yet, or not again yet: look afresh (a retained message is new)
    raise AssertionError(f"the offer of game {code.game} is not on the broker")


def test_a_withheld_reveal_loses_the_toss_for_the_inviter_on_both_boards(broker):
    """The inviter reads the join and reveals nothing (its toss was losing, or it went away):
    once REVEAL_WAIT has passed (the joiner's timer, fired here by the test) the joiner
    forfeits the toss for it and starts; the inviter, back, reads the forfeit and agrees.
    A reveal that comes after the forfeit changes nothing."""
    async def main():
        code = GameCode.new()
        invite, toss = offer(code, "lasker", "white", "toss", "Grandma's board")
        assert toss is not None
        grandma = BrokerAddress.parse(broker.url("grandma"))
        hosting = asyncio.create_task(host(grandma, code, invite, toss))
        await _offered(broker, code, invite)
        hosting.cancel()  # the offer stays retained; nobody will reveal
        await asyncio.gather(hosting, return_exceptions=True)
        fire = asyncio.Event()
        waited: list[float] = []

        async def timer(seconds: float) -> None:
            waited.append(seconds)
            await fire.wait()
        joining = asyncio.create_task(join(BrokerAddress.parse(broker.url("ravi")), code,
                                           "Ravi's board", timer=timer))
        await _until_retained(broker, lobby_topic(code, "join"))
        await asyncio.sleep(0.3)
        assert not joining.done() and waited == [REVEAL_WAIT]  # waiting, not stalled for good
        fire.set()
        joined = await asyncio.wait_for(joining, 10)
        assert (joined.colour, joined.first) == ("black", "black")
        assert "did not reveal its toss" in joined.note and "black" in joined.note
        # The page words the note in its language (the board's daemon sends it so).
        assert words_of(joined.note, translations("hi")) == (
            f"न्योता देने वाले बोर्ड ने {REVEAL_WAIT:.0f} सेकंड में अपना टॉस नहीं खोला: वह टॉस "
            "हारता है, इसलिए काला (जुड़ने वाला बोर्ड) शुरू करता है")
        hosted = await asyncio.wait_for(host(grandma, code, invite, toss), 10)
        assert hosted is not None and hosted.first == "black" and hosted.note == joined.note
        again = await join(BrokerAddress.parse(broker.url("ravi")), code, "Ravi's board")
        assert again.first == "black"  # joined again later: the forfeit stands
        gc.collect()
    asyncio.run(main())


def test_an_inviter_of_protocol_1_is_named(broker):
    """A board not yet updated offers the game under the same code, on protocol 1's topic,
    signed with protocol 1's key: the joiner says the other runs an older version."""
    import dataclasses

    import aiomqtt

    from navakankari.firmware.online.messages import Invite, canonical, mac_of
    from navakankari.firmware.online.wire import older_key, older_topic

    async def main():
        code = GameCode.new()
        body = {k: v for k, v in dataclasses.asdict(Invite(
            code.game, "lasker", "white", "white", "Grandma's old board")).items() if k != "mac"}
        body["kind"] = "invite"
        older = canonical({**body, "mac": mac_of(older_key(code), body)})
        async with aiomqtt.Client("127.0.0.1", broker.port, username="grandma",
                                  password=USERS["grandma"]) as old:
            await old.publish(older_topic(code, "invite"), older, qos=1, retain=True)
        with pytest.raises(InvitationError) as raised:
            await join(BrokerAddress.parse(broker.url("ravi")), code, "Ravi's board", wait=5)
        assert str(raised.value) == OLDER
        gc.collect()
    asyncio.run(main())


async def _until_retained(broker, where: str) -> None:  # type: ignore[no-untyped-def]
    import aiomqtt

    async with aiomqtt.Client("127.0.0.1", broker.port, username="ravi",
                              password=USERS["ravi"]) as client:
        await client.subscribe(where, qos=1)
        async for message in client.messages:
            if message.payload:
                return


def test_an_inviter_of_protocol_2s_older_wording_is_named(broker):
    """A board of protocol 2 as it was before the offer named the inviter's colour apart from
    who starts (a `side` where `colour` is now) offers the game, sealed and signed with this
    game's keys: the joiner says the other runs an older version instead of waiting."""
    import aiomqtt

    from navakankari.firmware.online.messages import OLDER_WORDING, canonical, mac_of
    from navakankari.firmware.online.wire import seal_bytes

    async def main():
        code = GameCode.new()
        body = {"kind": "invite", "game": code.game, "variant": "lasker", "side": "black",
                "starts": "white", "board": "Grandma's old board", "commit": ""}
        older = canonical({**body, "mac": mac_of(code.key, body)})
        where = lobby_topic(code, "invite")
        async with aiomqtt.Client("127.0.0.1", broker.port, username="grandma",
                                  password=USERS["grandma"]) as old:
            await old.publish(where, seal_bytes(code, where, older), qos=1, retain=True)
        with pytest.raises(InvitationError) as raised:
            await join(BrokerAddress.parse(broker.url("ravi")), code, "Ravi's board", wait=5)
        assert str(raised.value) == OLDER_WORDING
        assert raised.value.problem.words(translations("hi")).startswith(
            "दूसरे खिलाड़ी के पास ऑनलाइन खेल का पुराना संस्करण है")
    asyncio.run(main())
