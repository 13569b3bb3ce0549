"""The sealed payload every message travels in: only the two players can open it, it opens
only on the topic it was sealed for, and whatever else comes is a named rejection; a player
of protocol 1 is recognised by what it signs, and named."""

from __future__ import annotations

import pytest

from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.messages import (MAX_BYTES, Message, Move, Rejection, encode,
                                                  sign)
from navakankari.firmware.online.wire import (MAX_PAYLOAD, OVERHEAD, from_older, game_topic,
                                              lobby_topic, older_key, seal, unseal)

from test_messages import CODE, KINDS, OTHER, WRONG, signed

TOPICS = {"invite": "invite", "join": "join", "reveal": "reveal", "forfeit": "reveal"}


def where(kind: str, code: GameCode = CODE) -> str:
    if kind in TOPICS:
        return lobby_topic(code, TOPICS[kind])
    return game_topic(code, "white", kind)


def refused(payload: bytes, reason: str, kind: str = "move") -> Rejection:
    got = unseal(CODE, where(kind), payload)
    assert isinstance(got, Rejection), got
    assert got.reason == reason, got
    return got


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_sealed_opens_to_itself_and_hides_its_words(kind):
    message = signed(kind)
    payload = seal(CODE, where(kind), message)
    assert unseal(CODE, where(kind), payload) == message
    assert payload != seal(CODE, where(kind), message)  # a fresh nonce each time
    plain = encode(message)
    assert len(payload) == len(plain) + OVERHEAD
    # A word the sealing let through would be in every payload; a short one turns up in a
    # random payload by chance (b"d6" in about one in 300), in eight fresh ones practically never.
    payloads = [payload, *(seal(CODE, where(kind), message) for _ in range(7))]
    for word in (CODE.game.encode(), b"white", b"Grandma", b"Ravi", b"d6", message.mac.encode()):
        assert not all(word in sealed for sealed in payloads), word


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_forged_altered_moved_or_replayed_does_not_open(kind):
    message = signed(kind)
    # Sealed by someone who knows the game id but not its secret, or holds another game.
    refused(seal(WRONG, where(kind), sign(WRONG.key, message)), "bad-seal", kind)
    refused(seal(OTHER, where(kind), signed(kind, OTHER)), "bad-seal", kind)
    payload = bytearray(seal(CODE, where(kind), message))
    for at in (1, OVERHEAD - 1, len(payload) // 2, len(payload) - 1):  # nonce, body, tag
        altered = bytearray(payload)
        altered[at] ^= 0x01
        refused(bytes(altered), "bad-seal", kind)
    # A genuine payload published again on another topic (the other side's, another game's).
    for elsewhere in (game_topic(CODE, "black", "move"), lobby_topic(CODE, "join"),
                      game_topic(OTHER, "white", kind)):
        if elsewhere != where(kind):
            got = unseal(CODE, elsewhere, bytes(payload))
            assert isinstance(got, Rejection) and got.reason == "bad-seal"


def test_what_is_not_a_sealed_payload_is_named():
    move = signed("move")
    assert isinstance(move, Move)
    refused(encode(move), "malformed")  # in the clear, as protocol 1 wrote it
    refused(bytes([3]) + seal(CODE, where("move"), move)[1:], "other-version")
    refused(bytes([2]) + b"\x00" * (OVERHEAD - 2), "malformed")
    refused(b"", "malformed")
    refused(b"\x02" + b"x" * MAX_PAYLOAD, "too-large")
    for junk in (b"[" * 100_000, b"\xff\xfe", b"\x00garbage"):
        assert isinstance(unseal(CODE, where("move"), junk), Rejection)


def test_a_sealed_payload_holding_garbage_is_refused_by_the_reader():
    """A code holder can seal anything: the plain text inside goes through messages.read."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    topic = where("move")
    for inner, reason in ((b"[" * 1000, "too-deep"), (b'{"kind":"chess"}', "unknown-kind"),
                          (b"x" * (MAX_BYTES + 1), "too-large")):
        nonce = b"\x07" * 12
        payload = b"\x02" + nonce + ChaCha20Poly1305(CODE.seal_key).encrypt(
            nonce, inner, b"\x02" + topic.encode())
        got = unseal(CODE, topic, payload)
        assert isinstance(got, Rejection) and got.reason == reason, got


def test_a_player_of_protocol_1_is_recognised_by_its_signature_only():
    import dataclasses

    from navakankari.firmware.online.messages import canonical, mac_of

    older = Move(CODE.game, 1, "white", "d6", "")
    body = {k: v for k, v in dataclasses.asdict(older).items() if k not in ("mac", "era")}
    body["kind"] = "move"
    genuine = canonical({**body, "mac": mac_of(older_key(CODE), body)})
    assert from_older(CODE, genuine)
    forged = canonical({**body, "mac": mac_of(older_key(WRONG), body)})
    assert not from_older(CODE, forged)
    for junk in (b"", b"[" * 100_000, b'{"mac":"\\u00e9"}', b"x" * (MAX_BYTES + 1)):
        assert not from_older(CODE, junk)
    assert not from_older(CODE, seal(CODE, where("move"), signed("move")))


def test_messages_and_topics_of_one_game_say_nothing_of_another():
    rooms = {CODE.room, CODE.lobby, OTHER.room, OTHER.lobby, CODE.next().room}
    assert len(rooms) == 5 and all(CODE.game not in r for r in rooms)
    assert isinstance(signed("move"), Message)
