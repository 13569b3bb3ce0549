"""A board waiting for the other asks for it: nothing deleted, replaced or dropped on the
broker can stall a game for longer than a few seconds."""

from __future__ import annotations

import asyncio
import random

import aiomqtt

from navakankari.engine.variants import new_game
from navakankari.firmware.online.broker import BrokerAddress
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.link import ANSWER_EVERY, QUIET, OnlineLink, topic
from navakankari.firmware.online.log import MoveLog
from navakankari.firmware.online.messages import (Move, Rejection, Resync, Snapshot, decode,
                                                  encode, sign)
from navakankari.firmware.online.wire import seal, unseal

from test_link import LIMIT, Pair
from sealed import on

CODE = GameCode("K7M2P9QR", "TAX4B8CD3FGH")
WRONG = GameCode(CODE.game, "000000000000")


class Recorder:
    """Stands in for the MQTT client: what the link publishes, opened (each payload must
    open on the topic it was published on)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []

    async def publish(self, name: str, payload: bytes, **_: object) -> None:
        opened = unseal(CODE, name, payload)
        assert not isinstance(opened, Rejection), opened
        self.sent.append((name.rsplit("/", 1)[-1], encode(opened)))


def recorded(side: str, now: list[float], waits: list[float] | None = None
             ) -> tuple[OnlineLink, list[tuple[str, bytes]]]:
    """A link as if connected, its clock `now[0]`, and what it publishes; what it waits for
    is noted in `waits` and passes at once."""
    async def sleep(seconds: float) -> None:
        (waits if waits is not None else []).append(seconds)
        now[0] += seconds
    link = OnlineLink(BrokerAddress.parse("mqtt://127.0.0.1:9"),
                      MoveLog(CODE, new_game("nine-mens-morris")), side, clock=lambda: now[0],
                      sleep=sleep)
    client = Recorder()
    link._client = client  # type: ignore[assignment]
    return link, client.sent


def test_a_resync_is_answered_with_the_log_after_the_askers_moves_and_no_faster():
    async def main() -> None:
        now = [100.0]
        waits: list[float] = []
        white, sent = recorded("white", now, waits)
        for action in ("d6", "d2", "b4"):  # white's log holds black's d2 as well
            white.moves.record(action)
        ask = sign(CODE.key, Resync(CODE.game, "black", 1))
        white._handle(*on(CODE, "black", "resync", ask))
        await asyncio.sleep(0)
        assert [w for w, _ in sent] == ["snapshot", "move", "move"]
        assert [decode(CODE.key, CODE.game, p).n for w, p in sent[1:]] == [2, 3]  # type: ignore[union-attr]
        now[0] += 0.5
        for _ in range(20):  # replayed at once, again and again: one more answer, later
            white._handle(*on(CODE, "black", "resync", ask))
        forged = sign(WRONG.key, Resync(CODE.game, "black", 0))
        white._handle(*on(CODE, "black", "resync", forged))
        white._handle(topic(CODE, "black", "resync"), b'{"kind":"resync"}')
        assert white.rejections.counts == {"bad-signature": 1, "malformed": 1}
        for _ in range(5):
            await asyncio.sleep(0)
        assert waits == [ANSWER_EVERY - 0.5] and len(sent) == 6
        own = sign(CODE.key, Resync(CODE.game, "white", 0))  # its own side's, on black's topic
        white._handle(*on(CODE, "black", "resync", own))
        assert white.rejections.counts["misplaced"] == 1
    asyncio.run(main())


def test_a_board_waiting_in_silence_asks_and_one_that_is_to_play_does_not():
    async def main() -> None:
        now = [0.0]
        black, sent = recorded("black", now)
        now[0] = QUIET - 1
        assert not black.check_quiet()
        now[0] = QUIET
        assert black.check_quiet()  # white is to play and was not heard for QUIET s
        await asyncio.sleep(0)
        (what, payload), = sent
        asked = decode(CODE.key, CODE.game, payload)
        assert what == "resync" and isinstance(asked, Resync) and asked.after == 0
        now[0] += QUIET / 2
        assert not black.check_quiet()  # asked a moment ago
        black._handle(*on(CODE, "white", "move",
                      sign(CODE.key, Move(CODE.game, 1, "white", "d6", ""))))
        now[0] += 10 * QUIET
        assert not black.check_quiet()  # its own turn now: nothing to wait for
    asyncio.run(main())


def test_the_other_back_online_gets_the_log_again_and_a_gap_makes_a_board_ask():
    async def main() -> None:
        now = [0.0]
        white, sent = recorded("white", now)
        white.moves.record("d6")
        white._handle(topic(CODE, "black", "presence"), b"online")
        await asyncio.sleep(0)
        assert [w for w, _ in sent] == ["snapshot", "move"]
        for _ in range(5):  # someone toggles the presence: at most once every few seconds
            white._handle(topic(CODE, "black", "presence"), b"offline")
            white._handle(topic(CODE, "black", "presence"), b"online")
        for _ in range(5):
            await asyncio.sleep(0)
        assert len(sent) == 4
        black, asked = recorded("black", now)
        first = white.moves.moves[0]
        third = sign(CODE.key, Move(CODE.game, 3, "white", "b4", "ab" * 32))
        black._handle(*on(CODE, "white", "move", third))
        await asyncio.sleep(0)
        assert [w for w, _ in asked] == ["resync"]
        black._handle(*on(CODE, "white", "move", first))
        assert len(black.moves.moves) == 1
    asyncio.run(main())


def _stall_setup(broker, spoil):  # type: ignore[no-untyped-def]
    """Black's board is away; white moves; `spoil` spoils white's retained snapshot; black
    comes back: it must learn the move within LIMIT seconds."""
    async def main() -> None:
        pair = Pair(broker)
        await pair.connected()
        await pair.play(random.Random(8), 2)
        black, white = pair.links["black"], pair.links["white"]
        old = white.moves.snapshot("white")
        pair.tasks[1].cancel()
        await asyncio.gather(pair.tasks[1], return_exceptions=True)
        move = white.moves.record(random.Random(9).choice(white.moves.game.legal_actions()).text)
        await white.send(move)
        async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                  password="sneaky-1") as mallory:
            await mallory.publish(topic(pair.code, "white", "snapshot"), spoil(pair.code, old),
                                  qos=1, retain=True)
        pair.tasks[1] = asyncio.create_task(black.run())
        got = await asyncio.wait_for(pair.arrived["black"].get(), LIMIT)
        assert got == move
        await pair.play(random.Random(10), 2)
        await pair.close()
        assert pair.agree()
    asyncio.run(main())


def test_a_deleted_snapshot_delays_a_move_only_until_the_board_asks(broker):
    _stall_setup(broker, lambda code, old: b"")


def test_an_older_snapshot_put_back_delays_a_move_only_until_the_board_asks(broker):
    _stall_setup(broker, lambda code, old: seal(code, topic(code, "white", "snapshot"), old))


def test_a_move_lost_on_the_way_arrives_once_the_waiting_board_asks(broker):
    async def main() -> None:
        now = [0.0]
        pair = Pair(broker, clock=lambda: now[0])
        black, white = pair.links["black"], pair.links["white"]
        await pair.connected()
        await asyncio.sleep(0.2)
        move = white.moves.record("d6")  # recorded, never published: as if the broker dropped it
        now[0] += QUIET
        assert black.check_quiet()
        assert await asyncio.wait_for(pair.arrived["black"].get(), LIMIT) == move
        await pair.close()
        assert pair.agree()
    asyncio.run(main())


def test_a_snapshot_and_resync_round_trip():
    resync = sign(CODE.key, Resync(CODE.game, "black", 17))
    assert decode(CODE.key, CODE.game, encode(resync)) == resync
    snap = sign(CODE.key, Snapshot(CODE.game, "white", ()))
    assert decode(CODE.key, CODE.game, encode(snap)) == snap


def test_a_move_sent_during_a_flood_arrives_asked_for_if_the_broker_dropped_it(broker):
    """A flood on white's move topic (the club's configuration queues at most 100 messages
    for a subscriber that falls behind): white's move sent in the middle of it arrives,
    directly or, if the broker dropped it, once black has heard nothing for QUIET seconds and
    asks."""
    async def main() -> None:
        now = [0.0]
        pair = Pair(broker, clock=lambda: now[0])
        black, white = pair.links["black"], pair.links["white"]
        await pair.connected()
        await asyncio.sleep(0.2)
        wrong = GameCode(pair.code.game, WRONG.secret)
        where = topic(pair.code, "white", "move")
        flood = seal(wrong, where, sign(wrong.key, Move(pair.code.game, 1, "white", "a1", "")))
        async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                  password="sneaky-1") as mallory:
            for _ in range(1500):
                await mallory.publish(where, flood, qos=0)
            move = white.moves.record("d6")
            await white.send(move)
            for _ in range(1500):
                await mallory.publish(where, flood, qos=0)
        await asyncio.sleep(0.5)
        if not black.moves.moves:  # dropped by the broker: black asks
            now[0] += QUIET
            assert black.check_quiet()
        assert await asyncio.wait_for(pair.arrived["black"].get(), LIMIT) == move
        assert black.state.rejected > 0
        await pair.close()
        assert pair.agree()
    asyncio.run(main())
