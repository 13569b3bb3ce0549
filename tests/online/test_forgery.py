"""Every kind of message of protocol 2, forged, altered, replayed from an earlier era or
another game, oversized and malformed, published through a real Mosquitto (the club's
configuration) on the topics a board reads: none is acted on, each is counted under its
reason, and the two boards play on and agree."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

import aiomqtt

from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.messages import (Answer, Message, Move, Request, Resync,
                                                  Snapshot, sign)
from navakankari.firmware.online.wire import game_topic, seal

from test_link import LIMIT, Pair, _until


def altered(payload: bytes) -> bytes:
    """One bit of the ciphertext changed."""
    changed = bytearray(payload)
    changed[len(changed) // 2] ^= 0x10
    return bytes(changed)


def test_forged_altered_replayed_oversized_and_malformed_messages_of_every_kind(broker):
    async def main() -> None:
        pair = Pair(broker)
        await pair.connected()
        white, black = pair.links["white"], pair.links["black"]
        code = pair.code
        await pair.play(random.Random(11), 4)
        # What a code holder captured before the takeback both agree to below (era 0).
        old_move = white.moves.moves[2]
        old_snapshot = white.moves.snapshot("white")
        old_request = sign(code.key, Request(code.game, "white", "takeback", 4, 2,
                                             "00000000000000a1", 0))
        for link in (white, black):
            link.moves.truncate(2)
            await link.publish_snapshot()
        await asyncio.sleep(0.3)
        await pair.play(random.Random(12), 2)  # era 1 goes on
        assert black.moves.era == white.moves.era == 1
        before = [m.mac for m in black.moves.moves]

        other = GameCode.new()  # another game whose key the replayer holds
        wrong = GameCode(code.game, "0" * 12)  # the game id without its secret
        held = len(black.moves.moves)
        last = black.moves.last_mac
        kinds: dict[str, Message] = {
            "move": sign(code.key, Move(code.game, held + 1, "white", "a1", last, 1)),
            "snapshot": sign(code.key, Snapshot(code.game, "white", tuple(
                white.moves.moves))),
            "request": sign(code.key, Request(code.game, "white", "resign", held, held,
                                              "00000000000000b2", 1)),
            "answer": sign(code.key, Answer(code.game, "white", "00000000000000c3", 1)),
            "resync": sign(code.key, Resync(code.game, "white", 0)),
        }
        sent: dict[str, int] = {}

        def count(reason: str) -> None:
            sent[reason] = sent.get(reason, 0) + 1

        async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                  password="sneaky-1") as mallory:
            async def publish(what: str, payload: bytes, reason: str) -> None:
                await mallory.publish(game_topic(code, "white", what), payload, qos=1)
                count(reason)

            for what, message in kinds.items():
                where = game_topic(code, "white", what)
                genuine = seal(code, where, message)
                # forged: sealed by someone with the game id but not its secret
                await publish(what, seal(wrong, where, sign(wrong.key, replace(
                    message, game=code.game))), "bad-seal")
                # signed with another key but sealed with the game's (a code holder)
                await publish(what, seal(code, where, sign(wrong.key, message)),
                              "bad-signature")
                # altered on the way
                await publish(what, altered(genuine), "bad-seal")
                # a genuine one of another game, and one moved from another topic
                await publish(what, seal(other, game_topic(other, "white", what), sign(
                    other.key, replace(message, game=other.game))), "bad-seal")
                await publish(what, seal(code, game_topic(code, "black", what), message),
                              "bad-seal")
                # malformed inside a genuine seal, and not sealed at all
                await publish(what, sealed_inside(code, where, b'{"kind":"' + what.encode()
                                                  + b'"}'), "malformed")
                await publish(what, sealed_inside(code, where, b"[" * 5000), "too-deep")
                await publish(what, b"\x03" + bytes(40), "other-version")
                await publish(what, b'{"kind":"' + what.encode() + b'"}', "malformed")
            # Oversized: one over what a player reads, sealed (the club's broker passes up
            # to 1 MiB; a player reads at most 1 MiB and the seal's 29 bytes).
            await publish("snapshot", b"\x02" + bytes(1024 * 1024 - 100), "bad-seal")
            # Replayed from the earlier era: the withdrawn move as the next number, the old
            # snapshot, the old takeback request.
            await mallory.publish(*_on(code, "move", old_move), qos=1)
            count("stale")
            await mallory.publish(*_on(code, "snapshot", old_snapshot), qos=1)
            count("stale")
            await mallory.publish(*_on(code, "request", old_request), qos=1)
            count("refused")
            total = sum(sent.values())
            await asyncio.wait_for(_until(lambda: black.state.rejected >= total), LIMIT)
        assert [m.mac for m in black.moves.moves] == before and not black.moves.forked
        assert black.asked_of_us is None and black.moves.game.outcome() is None
        assert "00000000000000b2" not in black.heard  # no resignation was acted on
        assert black.rejections.counts == sent, (black.rejections.counts, sent)
        await pair.play(random.Random(13), 4)  # and the game goes on
        await pair.close()
        assert pair.agree()
    asyncio.run(main())


def _on(code: GameCode, what: str, message: Message) -> tuple[str, bytes]:
    where = game_topic(code, "white", what)
    return where, seal(code, where, message)


def sealed_inside(code: GameCode, where: str, plain: bytes) -> bytes:
    """`plain` sealed for `where` as a code holder can: whatever it holds."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    nonce = bytes(range(12))
    return b"\x02" + nonce + ChaCha20Poly1305(code.seal_key).encrypt(
        nonce, plain, b"\x02" + where.encode())

