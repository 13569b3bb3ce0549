"""A message as it travels through the broker: sealed, so only the two players can read it.

Every payload is one version byte, a random 12-byte nonce, and the signed message's canonical
JSON encrypted and authenticated with ChaCha20-Poly1305 under the game's seal key; the version
byte and the topic's name are authenticated with it, so a payload moved to another topic or
given another version does not open. Whoever else is on the broker sees topic names no one
can link to a game, and payloads of a length, nothing more. A player of an older version of
the protocol is recognised by what it publishes on its own topics and named, not left to
silence.
"""

from __future__ import annotations

import hashlib
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from navakankari.hal.words import N_, Phrase

from .code import VERSION, GameCode
from .messages import MAX_BYTES, Message, Rejection, encode, read, signed_by

PREFIX = f"navakankari/v{VERSION}"
OLDER_PREFIX = "navakankari/v1"
"""Where a player of protocol 1 publishes: watched, so a player that runs it is named."""
NONCE = 12
OVERHEAD = 1 + NONCE + 16  #: the version byte, the nonce and Poly1305's tag
MAX_PAYLOAD = MAX_BYTES + OVERHEAD
LATEST = 15  #: a first byte above VERSION up to this is taken for a later version
OLDER = Phrase(N_("the other player runs an older version of online play (protocol 1): it "
                  "must be updated before the two can play"))


def game_topic(code: GameCode, side: str, what: str) -> str:
    """A topic of the game in play: `navakankari/v2/<room>/<side>/<what>`."""
    return f"{PREFIX}/{code.room}/{side}/{what}"


def lobby_topic(code: GameCode, what: str) -> str:
    """A topic of the invitation: `navakankari/v2/<lobby>/<what>` (invite, join, reveal)."""
    return f"{PREFIX}/{code.lobby}/{what}"


def seal(code: GameCode, topic: str, message: Message) -> bytes:
    """The payload that carries `message` on `topic`."""
    return seal_bytes(code, topic, encode(message))


def seal_bytes(code: GameCode, topic: str, plain: bytes) -> bytes:
    """The payload that carries the text `plain` on `topic` (what `seal` sends; the tests
    seal texts no message of this version writes with it)."""
    head = bytes([VERSION])
    nonce = os.urandom(NONCE)
    return head + nonce + ChaCha20Poly1305(code.seal_key).encrypt(
        nonce, plain, head + topic.encode())


def unseal(code: GameCode, topic: str, payload: bytes) -> Message | Rejection:
    """The message a payload on `topic` carries, or a named rejection: bounded first, then
    opened (`bad-seal`: not sealed with this game's key for this topic), then read as
    `messages.read` reads. Never raises."""
    if len(payload) > MAX_PAYLOAD:
        return Rejection("too-large", f"a payload of {len(payload)} bytes; at most "
                         f"{MAX_PAYLOAD}")
    if not payload:
        return Rejection("malformed", "an empty payload")
    version = payload[0]
    if VERSION < version <= LATEST:
        return Rejection("other-version", f"a payload of protocol {version}, not {VERSION}: "
                         "the other player runs a newer version of online play")
    if version != VERSION:
        return Rejection("malformed", f"not a sealed payload (it begins with byte {version}; "
                         "one in the clear is no message of this protocol)")
    if len(payload) < OVERHEAD:
        return Rejection("malformed", f"a payload of {len(payload)} bytes is too short")
    head, nonce, sealed = payload[:1], payload[1:1 + NONCE], payload[1 + NONCE:]
    try:
        plain = ChaCha20Poly1305(code.seal_key).decrypt(nonce, sealed, head + topic.encode())
    except InvalidTag:
        return Rejection("bad-seal", "a payload that does not open with this game's key on "
                         "this topic: not from a player of this game, altered, or moved")
    return read(code.key, code.game, plain)


def older_key(code: GameCode) -> bytes:
    """The key protocol 1 signed this code's messages with."""
    return hashlib.sha256(f"navakankari-online:{code.game}:{code.secret}".encode()).digest()


def older_topic(code: GameCode, *parts: str) -> str:
    """Where a player of protocol 1 publishes for this code."""
    return "/".join((OLDER_PREFIX, code.game, *parts))


def from_older(code: GameCode, payload: bytes) -> bool:
    """Whether a payload on a protocol-1 topic of this code was signed by a player of this
    game running protocol 1 (anything else there is noise and is ignored)."""
    return bool(payload) and signed_by(older_key(code), code.game, payload)
