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
import re
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from navakankari.hal.words import N_, Phrase

from .code import ALPHABET, ID_SYMBOLS

MAX_BYTES = 1024 * 1024  # a snapshot of the longest game is a few hundred kB
SIDES = ("white", "black")


def canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def mac_of(key: bytes, body: dict[str, Any]) -> str:
    return hmac.new(key, canonical(body), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Move:
    """The n-th action of a game (n from 1), chained to the one before by its mac. `era`:
    the takebacks both players had agreed to when it was made, so a move withdrawn by one
    and replayed later (even as the next number) is told from the same move made again."""

    kind: ClassVar[str] = "move"
    game: str
    n: int
    side: str
    action: str
    prev: str  #: the mac of move n - 1 ("" for the first)
    era: int = 0
    mac: str = ""


@dataclass(frozen=True)
class Invite:
    """The inviting board's offer: the variant, the colour it plays (the other board plays
    the other), which colour moves first ("white", "black" or "toss": a toss decides who
    starts, never who plays which pebbles, as on the board's own menu), its name, and for a
    toss its commitment."""

    kind: ClassVar[str] = "invite"
    game: str
    variant: str
    colour: str
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
class Forfeit:
    """The joining board's word that the inviter's reveal did not come in time: the inviter
    loses the toss, so withholding a losing reveal cannot help it. Whichever of a reveal and
    a forfeit the broker carries first on the reveal topic decides."""

    kind: ClassVar[str] = "forfeit"
    game: str
    board: str
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
    when asked and `era` the takebacks agreed by then: a request that arrives when the game has
    moved on is out of date."""

    kind: ClassVar[str] = "request"
    game: str
    side: str
    what: str
    at: int
    keep: int
    id: str
    era: int = 0
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


@dataclass(frozen=True)
class Resync:
    """A player that has heard nothing for a while, or sees a gap, asks the other for its log
    after the `after` moves it holds (a retained snapshot can be replaced, deleted or
    dropped by anyone on the broker: one that asks does not depend on it)."""

    kind: ClassVar[str] = "resync"
    game: str
    side: str
    after: int
    mac: str = ""


Message = Move | Invite | Join | Reveal | Forfeit | Snapshot | Request | Answer | Resync
_KINDS: dict[str, type[Message]] = {c.kind: c for c in (Move, Invite, Join, Reveal, Forfeit,
                                                        Snapshot, Request, Answer, Resync)}


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

    return replace(message, mac=mac_of(key, _body(message)))


def encode(message: Message) -> bytes:
    return canonical(_full(message))


# -- reading: the one path every payload from the broker takes ---------------------------------
MAX_DEPTH = 3  #: a snapshot's move inside its list inside the snapshot: nothing is deeper
MAX_MOVES = 4000  #: more moves than any game of the shipped variants reaches
MAX_DIGITS = 6  #: of a whole number: enough for MAX_MOVES
_HEX = {"mac": (64,), "prev": (0, 64), "commit": (0, 64), "nonce": (32,), "id": (16,)}
"""The hex fields and the lengths they may have: checked before any comparison, so a
signature compared is always 64 lowercase hex digits."""
_TEXT = {"action": 64, "board": 80, "variant": 40, "what": 16, "starts": 5, "side": 5,
         "colour": 5}
_RANGE = {"n": (1, MAX_MOVES), "at": (0, MAX_MOVES), "keep": (0, MAX_MOVES),
          "after": (0, MAX_MOVES), "era": (0, MAX_MOVES), "bit": (0, 1),
          "accept": (0, 1)}
_STARTS = ("white", "black", "toss")
_HEX_DIGITS = frozenset("0123456789abcdef")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")

REJECTIONS = ("too-large", "too-deep", "not-json", "malformed", "unknown-kind", "other-game",
              "bad-signature", "bad-seal", "old-version", "other-version")
"""Every reason a payload is refused, one word each: what the rejection counts are kept by."""


OLDER_INVITE = frozenset(("kind", "game", "variant", "side", "starts", "board", "commit", "mac"))
"""The fields of protocol 2's invitation before it named the inviter's colour apart from who
starts (its `side` was the side that starts when it was "starts", and white was always the
first to move): a board that still words it so would set up another game than this one."""
OLDER_WORDING = Phrase(N_("the other player runs an older version of online play (protocol 2 "
                          "as it was before each player kept its colour whoever starts): it "
                          "must be updated before the two can play"))


@dataclass(frozen=True)
class Rejection:
    """Why a payload is not a message of this game: `reason` is one of REJECTIONS."""

    reason: str
    detail: str

    def __str__(self) -> str:
        return self.detail


class MessageError(ValueError):
    """A payload that is not a valid message of this game; says what is wrong."""

    def __init__(self, detail: str, reason: str = "malformed") -> None:
        super().__init__(detail)
        self.reason = reason


def read(key: bytes, game: str, payload: bytes | str) -> Message | Rejection:
    """Read and check one payload from the network: bounded before it is parsed (its size,
    its nesting, the length of every number), every field of the right type and length,
    of this game and signed with its key. Never raises: a payload is a message or a
    named rejection."""
    try:
        return decode(key, game, payload)
    except MessageError as exc:
        return Rejection(exc.reason, exc.args[0])  # a phrase stays one


def decode(key: bytes, game: str, payload: bytes | str) -> Message:
    """As `read`, raising a MessageError (whose `reason` names it) for a rejection."""
    if isinstance(payload, str):
        payload = payload.encode("utf-8", "replace")
    if not isinstance(payload, (bytes, bytearray)):
        raise MessageError(f"a payload is bytes, not {type(payload).__name__}")
    if len(payload) > MAX_BYTES:
        raise MessageError(f"a message of {len(payload)} bytes; at most {MAX_BYTES}",
                           "too-large")
    _check_depth(bytes(payload))
    try:
        data = json.loads(payload, parse_int=_whole, parse_float=_no_number,
                          parse_constant=_no_number)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MessageError(f"not JSON: {exc}", "not-json") from None
    except RecursionError:  # pragma: no cover - _check_depth stops it first
        raise MessageError("nested too deep", "too-deep") from None
    if _older_invite(key, game, data):
        raise MessageError(OLDER_WORDING, "old-version")
    message = _from_dict(data)
    if message.game != game:
        raise MessageError(f"a message of game {message.game!r}, not of {game!r}",
                           "other-game")
    if not hmac.compare_digest(message.mac, mac_of(key, _body(message))):
        raise MessageError(f"a {message.kind} whose signature does not check: not from a player "
                           "of this game, or altered on the way", "bad-signature")
    if isinstance(message, Snapshot):
        for move in message.moves:
            if move.game != game:
                raise MessageError(f"move {move.n} in the snapshot is of game {move.game!r}",
                                   "other-game")
            if not hmac.compare_digest(move.mac, mac_of(key, _body(move))):
                raise MessageError(f"move {move.n} in the snapshot does not check",
                                   "bad-signature")
    return message


def signed_by(key: bytes, game: str, payload: bytes) -> bool:
    """Whether a payload, bounded as `decode` bounds it, is a JSON object of `game` whose
    `mac` is the HMAC-SHA256 under `key` of the rest, whatever its fields: how a player
    recognises a message of an older version of the protocol. Never raises."""
    try:
        if len(payload) > MAX_BYTES:
            return False
        _check_depth(payload)
        data = json.loads(payload, parse_int=_whole, parse_float=_no_number,
                          parse_constant=_no_number)
    except (MessageError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return False
    return _signed(key, game, data)


def _signed(key: bytes, game: str, data: object) -> bool:
    """Whether `data` is a JSON object of `game` whose `mac` signs the rest under `key`."""
    if not isinstance(data, dict) or data.get("game") != game:
        return False
    rest = {k: v for k, v in data.items() if k != "mac"}
    mac = data.get("mac")
    if not isinstance(mac, str) or len(mac) != 64 or not _HEX_DIGITS.issuperset(mac):
        return False
    return hmac.compare_digest(mac, mac_of(key, rest))


def _older_invite(key: bytes, game: str, data: object) -> bool:
    """An invitation of this game in protocol 2's older wording, signed by one of its
    players: named as an older version, not passed over as malformed."""
    return (isinstance(data, dict) and data.keys() == OLDER_INVITE
            and data.get("kind") == "invite" and _signed(key, game, data))


def _check_depth(payload: bytes) -> None:
    """Refuse nesting deeper than any message has, before the parser recurses into it."""
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub(b"", payload)):
        if bracket.group() in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise MessageError(f"nested deeper than {MAX_DEPTH}", "too-deep")
        else:
            depth -= 1


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise MessageError(f"a number of {len(text)} digits; at most {MAX_DIGITS}")
    return int(text)


def _no_number(text: str) -> None:
    raise MessageError(f"{text[:20]!r}: the protocol has whole numbers only")


def _from_dict(data: object) -> Message:
    if not isinstance(data, dict):
        raise MessageError("a message is a JSON object")
    kind = data.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        shown = kind[:20] if isinstance(kind, str) else type(kind).__name__
        raise MessageError(f"unknown kind {shown!r}; one of {', '.join(_KINDS)}",
                           "unknown-kind")
    names = {f.name: f.type for f in fields(cls)}
    given = {k: v for k, v in data.items() if k != "kind"}
    if set(given) != set(names):
        missing = sorted(set(names) - set(given))
        extra = sorted(k[:20] for k in set(given) - set(names))
        raise MessageError(f"a {kind} with fields missing {missing} or unknown {extra[:5]}")
    for name, value in given.items():
        want = names[name]
        if name == "moves":
            if not isinstance(value, list) or len(value) > MAX_MOVES:
                raise MessageError(f"a snapshot's moves are a list of at most {MAX_MOVES}")
            given[name] = tuple(_move(v) for v in value)
        elif want == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise MessageError(f"{kind}.{name} must be a whole number")
            low, high = _RANGE[name]
            if not low <= value <= high:
                raise MessageError(f"{kind}.{name} must be {low}..{high}, not {value}")
        elif want == "str":
            if not isinstance(value, str):
                raise MessageError(f"{kind}.{name} must be text")
            _check_text(str(kind), name, value)
    message = cls(**given)
    if isinstance(message, (Move, Snapshot, Request, Answer, Resync)) \
            and message.side not in SIDES:
        raise MessageError(f"{kind}.side must be white or black")
    if isinstance(message, Invite) and message.colour not in SIDES:
        raise MessageError("invite.colour must be white or black")
    if isinstance(message, Invite) and message.starts not in _STARTS:
        raise MessageError(f"invite.starts is one of {', '.join(_STARTS)}")
    if isinstance(message, Request) and (
            message.what not in REQUESTS or not 0 <= message.keep <= message.at):
        raise MessageError(f"a request is one of {', '.join(REQUESTS)}, keeping at most the "
                           "moves there are")
    return message


def _check_text(kind: str, name: str, value: str) -> None:
    if name == "game":
        if len(value) != ID_SYMBOLS or any(c not in ALPHABET for c in value):
            raise MessageError(f"{kind}.game must be {ID_SYMBOLS} symbols of the code's "
                               "alphabet")
    elif name in _HEX:
        if len(value) not in _HEX[name] or not _HEX_DIGITS.issuperset(value):
            lengths = " or ".join(str(n) for n in _HEX[name])
            raise MessageError(f"{kind}.{name} must be {lengths} lowercase hex digits")
    elif len(value) > _TEXT[name]:
        raise MessageError(f"{kind}.{name} is {len(value)} characters; at most {_TEXT[name]}")


def _move(value: object) -> Move:
    message = _from_dict(value)
    if not isinstance(message, Move):
        raise MessageError("a snapshot holds moves only")
    return message
