"""Whatever anyone on the broker publishes, a board's link counts it, keeps going and acts
only on what a player of the game signed."""

from __future__ import annotations

import asyncio
import gc
import logging
import random

import aiomqtt

from navakankari.firmware.i18n.catalogs import translations
from navakankari.engine.variants import new_game
from navakankari.firmware.online.broker import BrokerAddress
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.link import OnlineLink, topic
from navakankari.firmware.online.log import MoveLog, Verdict
from navakankari.hal.words import words_of
from navakankari.firmware.online.messages import (
    REQUESTS,
    Answer,
    Move,
    Request,
    Snapshot,
    encode,
    sign,
)

from test_link import FAST, LIMIT, Pair, _until
from test_messages import GARBAGE
from sealed import on

CODE = GameCode("K7M2P9QR", "TAX4B8CD3FGH")
WRONG = GameCode(CODE.game, "000000000000")
NOWHERE = BrokerAddress.parse("mqtt://127.0.0.1:9")


def black_link() -> tuple[OnlineLink, list[Move], list[Request]]:
    arrived: list[Move] = []
    asked: list[Request] = []
    link = OnlineLink(NOWHERE, MoveLog(CODE, new_game("nine-mens-morris")), "black",
                      on_move=arrived.append)
    link.on_request = asked.append
    return link, arrived, asked


def poison() -> list[bytes]:
    """Payloads that raised out of the old reader: non-ASCII where hex belongs, deep nesting,
    a number of 5,000 digits; and the rest of the garbage."""
    move = encode(sign(CODE.key, Move(CODE.game, 1, "white", "d6", ""))).decode()
    clear = [move.replace(move[move.index('"mac":"') + 7:][:64], "\u00e9").encode(),
             move.replace('"n":1', '"n":1' + "0" * 5000).encode(),
             b"[" * 100_000] + [payload for payload, _ in GARBAGE]
    # The same sealed by a code holder: opened, then refused by the reader inside.
    return clear + [sealed(p) for p in clear if len(p) < 200_000]


def sealed(plain: bytes) -> bytes:
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    nonce = bytes(12)
    return b"\x02" + nonce + ChaCha20Poly1305(CODE.seal_key).encrypt(
        nonce, plain, b"\x02" + topic(CODE, "white", "move").encode())


def test_poison_on_every_topic_is_counted_and_the_game_goes_on():
    link, arrived, _ = black_link()
    payloads = poison()
    for what in ("move", "snapshot", "request", "answer", "presence", "resync", "x"):
        for payload in payloads:
            link._handle(topic(CODE, "white", what), payload)
    link._handle(topic(CODE, "white", "move"), None)  # no payload at all
    assert link.state.rejected >= 7 * len(payloads) - 2  # empty request/answer: cleared
    assert set(link.rejections.counts) <= {"malformed", "not-json", "too-deep", "too-large",
                                           "unknown-kind", "misplaced", "bad-seal"}
    assert link.state.peer_seen is None and not link.state.peer_online  # nothing counted heard
    first = sign(CODE.key, Move(CODE.game, 1, "white", "d6", ""))
    link._handle(*on(CODE, "white", "move", first))
    assert arrived == [first] and link.state.peer_seen is not None


def test_a_fault_handling_one_message_is_counted_not_raised(monkeypatch):
    link, _, _ = black_link()

    def broken(move: Move) -> None:
        raise RuntimeError("the board's lights are out")
    link.on_move = broken
    first = sign(CODE.key, Move(CODE.game, 1, "white", "d6", ""))
    link._handle(*on(CODE, "white", "move", first))
    assert link.rejections.counts == {"fault": 1}


def test_a_request_or_answer_signed_with_a_wrong_key_is_not_acted_on():
    async def main() -> None:
        link, _, asked = black_link()
        answered: list[bool] = []
        link.on_answer = lambda request, yes: answered.append(yes)
        resign = sign(WRONG.key, Request(CODE.game, "white", "resign", 0, 0, "9c41d07e5ab2f386"))
        link._handle(*on(CODE, "white", "request", resign))
        assert asked == [] and link.rejections.counts == {"bad-signature": 1}
        link.asked = sign(CODE.key, Request(CODE.game, "black", "takeback", 2, 0,
                                            "0123456789abcdef"))  # type: ignore[assignment]
        yes = sign(WRONG.key, Answer(CODE.game, "white", "0123456789abcdef", 1))
        link._handle(*on(CODE, "white", "answer", yes))
        assert answered == [] and link.asked is not None
        # the same, signed with the game's key, is acted on
        link._handle(*on(CODE, "white", "request",
                     sign(CODE.key, Request(CODE.game, "white", "resign", 0, 0,
                                                   "9c41d07e5ab2f386"))))
        assert [r.what for r in asked] == ["resign"]
        link._handle(*on(CODE, "white", "answer",
                     sign(CODE.key, Answer(CODE.game, "white", "0123456789abcdef", 1))))
        assert answered == [True]
        await asyncio.sleep(0)  # the settled request's clearing finds no broker
    asyncio.run(main())


def test_a_move_whose_prev_is_not_the_logs_last_is_a_fork():
    link, arrived, _ = black_link()
    first = sign(CODE.key, Move(CODE.game, 1, "white", "d6", ""))
    link._handle(*on(CODE, "white", "move", first))
    elsewhere = sign(CODE.key, Move(CODE.game, 1, "white", "a1", ""))
    second = sign(CODE.key, Move(CODE.game, 2, "black", "d2", elsewhere.mac))
    assert link.moves.receive(second).verdict is Verdict.FORK  # type: ignore[arg-type]
    assert link.moves.forked and arrived == [first]


def test_retained_poison_does_not_stop_a_link_and_moves_still_arrive(broker, caplog):
    async def main() -> None:
        pair = Pair(broker)
        await pair.connected()
        await pair.play(random.Random(5), 2)
        async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                  password="sneaky-1") as mallory:
            for what in ("snapshot", "request", "answer", "move"):
                for payload in poison()[:3]:
                    await mallory.publish(topic(pair.code, "white", what), payload,
                                          qos=1, retain=what != "move")
        black = pair.links["black"]
        try:
            await asyncio.wait_for(_until(lambda: black.state.rejected >= 12), LIMIT)
        except TimeoutError:
            raise AssertionError(black.rejections.counts) from None
        assert black.state.connected and black.state.problem == ""
        # Restarted, the link reads the retained poison again (the last on each topic), and
        # still plays on.
        await pair.close()
        pair.tasks = [asyncio.create_task(link.run()) for link in pair.links.values()]
        await pair.connected()
        await asyncio.wait_for(_until(lambda: black.state.rejected >= 14), LIMIT)  # request, answer
        await pair.play(random.Random(6), 4)
        await pair.close()
        assert pair.agree() and len(black.moves.moves) == 6
    with caplog.at_level(logging.WARNING, "navakankari.firmware.online"):
        asyncio.run(main())
    dropped = [r for r in caplog.records if "dropped" in r.getMessage()]
    assert len(dropped) <= 2 * 6  # once a minute per kind on each board, not once a message


def test_an_unexpected_fault_in_the_link_is_shown_and_the_link_started_again(broker,
                                                                             monkeypatch):
    async def main() -> None:
        waits: list[float] = []

        async def sleep(seconds: float) -> None:
            waits.append(seconds)
            await asyncio.sleep(0)
        link = OnlineLink(BrokerAddress.parse(broker.url("grandma")),
                          MoveLog(GameCode.new(), new_game("nine-mens-morris")), "white",
                          backoff=FAST, sleep=sleep, restart=(7.0, 60.0))
        real = link._publish_outbox
        calls = 0

        async def faulty(client: aiomqtt.Client) -> None:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise TypeError("a fault no one foresaw")
            await real(client)
        monkeypatch.setattr(link, "_publish_outbox", faulty)
        shown: list[str] = []
        link.on_change = lambda: shown.append(link.state.problem)
        task = asyncio.create_task(link.run())
        await asyncio.wait_for(link.connected.wait(), LIMIT)
        assert waits == [7.0]
        assert any("the link stopped on an unexpected error (TypeError: a fault no one "
                   "foresaw)" in p for p in shown)
        hindi = [words_of(p, translations("hi")) for p in shown if p]
        assert hindi[0] == ("ऑनलाइन संपर्क एक अनपेक्षित गड़बड़ी पर रुक गया (TypeError: a fault "
                            "no one foresaw); उसे फिर से शुरू किया जा रहा है")
        assert link.state.problem == ""  # well again
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        del task
        gc.collect()
    asyncio.run(main())


def test_a_snapshot_from_the_wrong_side_or_topic_changes_nothing():
    link, arrived, _ = black_link()
    first = sign(CODE.key, Move(CODE.game, 1, "white", "d6", ""))
    assert isinstance(first, Move)
    own = sign(CODE.key, Snapshot(CODE.game, "black", (first,)))
    link._handle(*on(CODE, "white", "snapshot", own))
    link._handle(*on(CODE, "white", "move",
                 sign(CODE.key, Snapshot(CODE.game, "white", (first,)))))
    assert arrived == [] and link.rejections.counts == {"misplaced": 2}


def white_link() -> tuple[OnlineLink, list[Move]]:
    arrived: list[Move] = []
    link = OnlineLink(NOWHERE, MoveLog(CODE, new_game("nine-mens-morris")), "white",
                      on_move=arrived.append)
    return link, arrived


def test_a_move_marked_with_the_wrong_side_is_refused_as_a_move_and_in_a_snapshot():
    """The code holder sends, on black's topic, a move marked white's at white's turn: it
    would be recorded as white's own move without being lit, and white's next move stall."""
    link, arrived = white_link()
    first = link.moves.record("d6")
    second = sign(CODE.key, Move(CODE.game, 2, "black", "d2", first.mac))
    link._handle(*on(CODE, "black", "move", second))
    third = sign(CODE.key, Move(CODE.game, 3, "white", "b4", second.mac))
    assert isinstance(second, Move) and isinstance(third, Move)
    link._handle(*on(CODE, "black", "move", third))
    link._handle(*on(CODE, "black", "snapshot", sign(CODE.key, Snapshot(
        CODE.game, "black", (first, second, third)))))  # type: ignore[arg-type]
    assert arrived == [second] and len(link.moves.moves) == 2
    assert link.rejections.counts == {"rejected": 2}
    link.moves.record("b4")  # white's hands play on


def test_a_request_about_another_position_is_declined_and_one_heard_is_not_heard_again():
    async def main() -> None:
        link, arrived, asked = black_link()
        first = sign(CODE.key, Move(CODE.game, 1, "white", "d6", ""))
        link._handle(*on(CODE, "white", "move", first))
        stale = sign(CODE.key, Request(CODE.game, "white", "takeback", 3, 2, "1111111111111111"))
        link._handle(*on(CODE, "white", "request", stale))
        assert asked == [] and link.rejections.counts == {"refused": 1}
        await asyncio.sleep(0)
        declined = link._retained["answer"]
        assert isinstance(declined, Answer) and (declined.id, declined.accept) == (stale.id, 0)
        heard = OnlineLink(NOWHERE, MoveLog(CODE, new_game("nine-mens-morris")), "black",
                           heard={"2222222222222222"})
        heard.on_request = asked.append
        again = sign(CODE.key, Request(CODE.game, "white", "new-game", 0, 0,
                                       "2222222222222222"))
        heard._handle(*on(CODE, "white", "request", again))
        assert asked == []  # heard before a restart: not shown again
        fresh = sign(CODE.key, Request(CODE.game, "white", "takeback", 1, 0, "3333333333333333"))
        link._handle(*on(CODE, "white", "request", fresh))
        assert asked == [fresh] and link.heard == {stale.id, fresh.id}
    asyncio.run(main())


def test_a_request_in_this_boards_name_it_never_made_is_refused_and_shown():
    async def main() -> None:
        link, _ = white_link()
        mine = await link.ask("takeback", 0)
        link._handle(*on(CODE, "white", "request", mine))  # its own, retained
        assert link.alarm == "" and link.rejections.total == 0
        said = {"resign": "a resignation", "takeback": "a takeback request",
                "new-game": "a new game request"}
        assert set(said) == set(REQUESTS)  # every kind a forged request can decode with
        for n, what in enumerate(REQUESTS):
            forged = sign(CODE.key, Request(CODE.game, "white", what, 0, 0, f"444444444444444{n}"))
            link._handle(*on(CODE, "white", "request", forged))
            assert f"{said[what]} this board never made" in link.state.alarm
        assert link.rejections.counts == {"disowned": len(REQUESTS)}
        await asyncio.sleep(0)
    asyncio.run(main())


def test_the_other_board_running_protocol_1_is_named_not_waited_for():
    """A board not yet updated publishes its snapshot, signed with protocol 1's key, where
    protocol 1 put it: the link says the other runs an older version (the page's problem);
    noise or a forgery there says nothing."""
    import dataclasses

    from navakankari.firmware.online.messages import canonical, mac_of
    from navakankari.firmware.online.wire import OLDER, older_key, older_topic

    link, arrived, _ = black_link()
    where = older_topic(CODE, "white", "snapshot")
    move = Move(CODE.game, 1, "white", "d6", "")
    body = {k: v for k, v in dataclasses.asdict(move).items() if k not in ("mac", "era")}
    body["kind"] = "move"
    for noise in (b"[" * 100_000, b"online", canonical({**body, "mac": mac_of(WRONG.key, body)})):
        link._handle(where, noise)
    assert link.state.problem == "" and link.rejections.total == 0
    link._handle(where, canonical({**body, "mac": mac_of(older_key(CODE), body)}))
    assert link.state.problem == OLDER and link.rejections.counts == {"old-version": 1}
    assert arrived == []
