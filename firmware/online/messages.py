"""What the boards say to each other through the broker, signed with the game's key.

Every message is one JSON object with a `kind`, the game's id, its own fields and `mac`, an
HMAC-SHA256 over the rest in a canonical form (sorted keys, no spaces). A message without the
right mac was not written by a player of this game and is dropped before anything else looks
at it; the broker's own accounts only decide who may connect.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

MAX_BYTES = 1024 * 1024  # a snapshot of the longest game is a few hundred kB
SIDES = ("white", "black")


class MessageError(ValueError):
    """A payload that is not a valid message of this game; says what is wrong."""


def canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def mac_of(key: bytes, body: dict[str, Any]) -> str:
    return hmac.new(key, canonical(body), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Move:
    """The n-th action of a game (n from 1), chained to the one before by its mac."""

    kind: ClassVar[str] = "move"
    game: str
    n: int
    side: str
    action: str
    prev: str  #: the mac of move n - 1 ("" for the first)
    mac: str = ""


@dataclass(frozen=True)
class Invite:
    """The inviting board's offer: the variant, the side it plays, who starts ("white",
    "black" or "toss"), its name, and for a toss its commitment."""

    kind: ClassVar[str] = "invite"
    game: str
    variant: str
    side: str
    starts: str
    board: str
    commit: str = ""
    mac: str = ""


@dataclass(frozen=True)
class Join:
    """The joining board's answer: its name, and for a toss its own bit in the open (the
    inviter committed first, so neither can choose the result)."""

    kind: ClassVar[str] = "join"
    game: str
    board: str
    bit: int = 0
    mac: str = ""


@dataclass(frozen=True)
class Reveal:
    """The inviter opens its commitment: the nonce and the bit it committed to."""

    kind: ClassVar[str] = "reveal"
    game: str
    nonce: str
    bit: int
    mac: str = ""


@dataclass(frozen=True)
class Snapshot:
    """A board's whole log, kept retained on its own topic: what a board that was away reads
    to catch up, and how the other side learns which moves arrived (its acknowledgement)."""

    kind: ClassVar[str] = "snapshot"
    game: str
    side: str
    moves: tuple[Move, ...]
    mac: str = ""


REQUESTS = ("takeback", "new-game", "resign")


@dataclass(frozen=True)
class Request:
    """A player asks the other: to take the game back to `keep` moves, or for a new game
    (each answered yes or no); or resigns, which needs no answer. `at` is the number of moves
    when asked: a request that arrives when the game has moved on is out of date."""

    kind: ClassVar[str] = "request"
    game: str
    side: str
    what: str
    at: int
    keep: int
    id: str
    mac: str = ""


@dataclass(frozen=True)
class Answer:
    """The other player's yes (1) or no (0) to the request `id`."""

    kind: ClassVar[str] = "answer"
    game: str
    side: str
    id: str
    accept: int
    mac: str = ""


Message = Move | Invite | Join | Reveal | Snapshot | Request | Answer
_KINDS: dict[str, type] = {c.kind: c for c in (Move, Invite, Join, Reveal, Snapshot, Request,
                                                Answer)}


def _body(message: Message) -> dict[str, Any]:
    body = asdict(message)
    body.pop("mac")
    body["kind"] = message.kind
    if isinstance(message, Snapshot):
        body["moves"] = [_full(m) for m in message.moves]
    return body


def _full(message: Message) -> dict[str, Any]:
    return {**_body(message), "mac": message.mac}


def sign(key: bytes, message: Message) -> Message:
    """The message with its mac."""
    from dataclasses import replace

    return replace(message, mac=mac_of(key, _body(message)))  # type: ignore[return-value]


def encode(message: Message) -> bytes:
    return canonical(_full(message))


def decode(key: bytes, game: str, payload: bytes | str) -> Message:
    """Read and check one payload: well formed, of this game, signed with its key."""
    if isinstance(payload, str):
        payload = payload.encode()
    if len(payload) > MAX_BYTES:
        raise MessageError(f"a message of {len(payload)} bytes; at most {MAX_BYTES}")
    try:
        data = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MessageError(f"not JSON: {exc}") from None
    message = _from_dict(data)
    if message.game != game:
        raise MessageError(f"a message of game {message.game!r}, not of {game!r}")
    if not hmac.compare_digest(message.mac, mac_of(key, _body(message))):
        raise MessageError(f"a {message.kind} whose signature does not check: not from a player "
                           "of this game, or altered on the way")
    if isinstance(message, Snapshot):
        for move in message.moves:
            if not hmac.compare_digest(move.mac, mac_of(key, _body(move))):
                raise MessageError(f"move {move.n} in the snapshot does not check")
    return message


def _from_dict(data: object) -> Message:
    if not isinstance(data, dict):
        raise MessageError("a message is a JSON object")
    kind = data.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MessageError(f"unknown kind {kind!r}; one of {', '.join(_KINDS)}")
    names = {f.name: f.type for f in fields(cls)}
    given = {k: v for k, v in data.items() if k != "kind"}
    if set(given) != set(names):
        missing, extra = set(names) - set(given), set(given) - set(names)
        raise MessageError(f"a {kind} with fields missing {sorted(missing)} or unknown "
                           f"{sorted(extra)}")
    for name, value in given.items():
        want = names[name]
        if name == "moves":
            if not isinstance(value, list):
                raise MessageError("a snapshot's moves are a list")
            given[name] = tuple(_move(v) for v in value)
        elif want == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise MessageError(f"{kind}.{name} must be a whole number, not {value!r}")
        elif want == "str" and not isinstance(value, str):
            raise MessageError(f"{kind}.{name} must be text, not {value!r}")
    message = cls(**given)
    for side_field in ("side",):
        if hasattr(message, side_field) and getattr(message, side_field) not in SIDES:
            raise MessageError(f"{kind}.side must be white or black")
    if isinstance(message, Request) and (
            message.what not in REQUESTS or not 0 <= message.keep <= message.at):
        raise MessageError(f"a request is one of {', '.join(REQUESTS)}, keeping at most the "
                           "moves there are")
    if isinstance(message, Answer) and message.accept not in (0, 1):
        raise MessageError("an answer's accept is 0 or 1")
    return message  # type: ignore[no-any-return]


def _move(value: object) -> Move:
    message = _from_dict(value)
    if not isinstance(message, Move):
        raise MessageError("a snapshot holds moves only")
    return message
