"""The one path every payload from the broker takes: bounded before it is parsed, checked
field by field, of this game and signed with its key; a message or a named rejection, never
an exception. Each kind is forged, replayed and malformed here."""

from __future__ import annotations

import dataclasses
import json

import pytest

from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.messages import (MAX_BYTES, Answer, Forfeit, Invite, Join,
                                                  Message,
                                                  MessageError, Move, Rejection, Reveal,
                                                  Request, Resync, Snapshot, canonical, decode,
                                                  encode,
                                                  mac_of, read, sign)

CODE = GameCode("K7M2P9QR", "TAX4B8CD3FGH")
WRONG = GameCode(CODE.game, "000000000000")  # the game's id without its secret
OTHER = GameCode("ZA85BCHB", "Z0RYHTPSA7NT")  # another game, whose key the replayer holds
FIRST = sign(CODE.key, Move(CODE.game, 1, "white", "d6", ""))


def _kinds(code: GameCode) -> dict[str, Message]:
    move = sign(code.key, Move(code.game, 1, "white", "d6", ""))
    assert isinstance(move, Move)
    return {
        "move": move,
        "snapshot": Snapshot(code.game, "white", (move,)),
        "request": Request(code.game, "white", "resign", 1, 1, "9c41d07e5ab2f386"),
        "answer": Answer(code.game, "black", "9c41d07e5ab2f386", 1),
        "invite": Invite(code.game, "nine-mens-morris", "white", "toss", "Grandma's board",
                         "12" * 32),
        "join": Join(code.game, "Ravi's phone", 1),
        "reveal": Reveal(code.game, "5f" * 16, 1),
        "forfeit": Forfeit(code.game, "Ravi's phone"),
        "resync": Resync(code.game, "black", 1),
    }


KINDS = sorted(_kinds(CODE))


def signed(kind: str, code: GameCode = CODE) -> Message:
    return sign(code.key, _kinds(code)[kind])


def rejected(payload: bytes | str, reason: str) -> Rejection:
    got = read(CODE.key, CODE.game, payload)
    assert isinstance(got, Rejection), got
    assert got.reason == reason, got
    with pytest.raises(MessageError) as raised:
        decode(CODE.key, CODE.game, payload)
    assert raised.value.reason == reason
    return got


def fields(message: Message) -> dict[str, object]:
    return json.loads(encode(message))


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_round_trips(kind):
    message = signed(kind)
    assert read(CODE.key, CODE.game, encode(message)) == message
    assert decode(CODE.key, CODE.game, encode(message).decode()) == message


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_forged_without_the_secret_is_refused(kind):
    rejected(encode(signed(kind, WRONG)), "bad-signature")


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_altered_after_signing_is_refused(kind):
    data = fields(signed(kind))
    field = {"move": "era", "snapshot": "side", "request": "what", "answer": "accept",
             "invite": "starts", "join": "bit", "reveal": "bit", "resync": "after",
             "forfeit": "board"}[kind]
    data[field] = {"era": 1, "side": "black", "what": "takeback", "accept": 0,
                   "starts": "white", "bit": 0, "after": 0, "board": "Mallory"}[field]
    rejected(canonical(data), "bad-signature")


def test_the_invitations_colour_altered_after_signing_is_refused():
    data = fields(signed("invite"))
    data["colour"] = "black"  # the inviter's colour swapped on the way
    rejected(canonical(data), "bad-signature")


@pytest.mark.parametrize("value, words", [
    ("green", "invite.colour must be white or black"),
    ("toss", "invite.colour must be white or black"),  # a toss decides who starts only
    ("", "invite.colour must be white or black"),
    ("whiteblack", "invite.colour is 10 characters; at most 5"),
    (0, "invite.colour must be text"), (None, "invite.colour must be text"),
    (["white"], "invite.colour must be text")])
def test_the_invitations_colour_is_white_or_black_even_when_signed(value, words):
    data = fields(signed("invite"))
    data.pop("mac")
    data["colour"] = value
    got = rejected(canonical({**data, "mac": sign_body(data)}), "malformed")
    assert str(got) == words


def test_an_invitation_in_protocol_2s_older_wording_is_named_an_older_version():
    """Before the offer named the inviter's colour apart from who starts, it carried a `side`
    (the side that starts when it was `starts`): a board that still words it so would set up
    another game, so it is named, not passed over as malformed."""
    from navakankari.firmware.online.messages import OLDER_WORDING

    body = {"kind": "invite", "game": CODE.game, "variant": "lasker", "side": "white",
            "starts": "toss", "board": "Grandma's old board", "commit": "12" * 32}
    got = rejected(canonical({**body, "mac": sign_body(body)}), "old-version")
    assert str(got) == OLDER_WORDING
    # unsigned by a player of this game, or of another game: not an older player, refused
    rejected(canonical({**body, "mac": mac_of(WRONG.key, body)}), "malformed")
    rejected(canonical({**body, "game": OTHER.game, "mac": mac_of(
        OTHER.key, {**body, "game": OTHER.game})}), "malformed")


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_replayed_from_another_game_is_refused(kind):
    # Genuine in the game it was taken from, signed with that game's key.
    rejected(encode(signed(kind, OTHER)), "other-game")
    data = fields(signed(kind, OTHER))
    data["game"] = CODE.game  # and relabelled: the signature no longer checks
    rejected(canonical(data), "bad-signature")


def test_a_move_replayed_under_another_number_is_refused():
    data = fields(FIRST)
    data["n"] = 3
    rejected(canonical(data), "bad-signature")


def test_a_snapshot_holding_a_forged_or_foreign_move_is_refused():
    forged = sign(WRONG.key, Move(CODE.game, 1, "white", "d6", ""))
    assert isinstance(forged, Move)
    rejected(encode(sign(CODE.key, Snapshot(CODE.game, "white", (forged,)))), "bad-signature")
    foreign = sign(OTHER.key, Move(OTHER.game, 1, "white", "d6", ""))
    assert isinstance(foreign, Move)
    rejected(encode(sign(CODE.key, Snapshot(CODE.game, "white", (foreign,)))), "other-game")
    rejected(canonical({**fields(signed("snapshot")), "moves": [fields(signed("join"))]}),
             "malformed")


# What the network may hold instead of a message, each refused by name before any comparison
# or conversion could raise.
GARBAGE = [
    (b"", "not-json"), (b"\xff\xfe", "not-json"), (b"\x00garbage", "not-json"),
    (b"[]", "malformed"), (b"null", "malformed"), (b'"move"', "malformed"),
    (b'{"kind": "move"}', "malformed"), (b'{"kind": "chess"}', "unknown-kind"),
    (b'{"kind": ["move"]}', "unknown-kind"), (b'{"kind": "m' + b"o" * 5000 + b'"}', "unknown-kind"),
    (b"[" * 100_000, "too-deep"), (b"{\"a\":" * 50_000, "too-deep"),
    (b"x" * (MAX_BYTES + 1), "too-large"),
    (b'{"n": 1' + b"0" * 5000 + b"}", "malformed"), (b'{"n": 1.5}', "malformed"),
    (b'{"n": NaN}', "malformed"), (b'{"n": -Infinity}', "malformed"), (b'{"n": 1e400}', "malformed"),
]


@pytest.mark.parametrize(("payload", "reason"), GARBAGE,
                         ids=[f"{i}-{r}" for i, (_, r) in enumerate(GARBAGE)])
def test_garbage_is_a_named_rejection(payload, reason):
    got = rejected(payload, reason)
    assert len(got.detail) < 300  # a line of a log, whatever came


def _malformations(kind: str) -> list[dict[str, object]]:
    """Each kind with one field made wrong, re-signed with the game's key (so only the
    bounds and types can refuse it): what a code holder could send."""
    good = fields(signed(kind))
    out = []
    for name, value in good.items():
        if name in ("kind", "mac"):
            continue
        if isinstance(value, int):
            bad: list[object] = [True, "1", 1 << 70, -1, 10**6]
        elif isinstance(value, str):
            bad = [7, None, "\u00e9" * 64, "x" * 300, ["a"], {"a": "b"}]
        else:
            bad = ["moves", [1], [[]]]
        for wrong in bad:
            data = {k: v for k, v in good.items() if k not in ("kind", "mac")}
            data[name] = wrong
            out.append(data)
    out.append({**{k: v for k, v in good.items() if k not in ("kind", "mac")}, "extra": 1})
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_malformed_is_refused_even_when_signed(kind):
    for data in _malformations(kind):
        body = {**data, "kind": kind}
        payload = canonical({**body, "mac": sign_body(body)})
        got = read(CODE.key, CODE.game, payload)
        if isinstance(got, Rejection):
            assert got.reason in ("malformed", "too-large", "other-game"), (data, got)
        else:  # a wrong value that is still a valid one (the same range, another text)
            assert isinstance(got, Message) and fields(got)["kind"] == kind


def sign_body(body: dict[str, object]) -> str:
    return mac_of(CODE.key, body)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("mac", ["\u00e9", "\u00e9" * 64, "AB" * 32, "ab" * 31, "ab" * 33,
                                 "g" * 64, "", 12, None])
def test_a_signature_of_the_wrong_shape_is_refused_before_comparing(kind, mac):
    data = fields(signed(kind))
    data["mac"] = mac
    rejected(canonical(data), "malformed")


def test_fields_that_name_hex_are_refused_unless_hex_of_their_length():
    for kind, name, value in (("move", "prev", "ab" * 31), ("move", "prev", "\u00e9" * 64),
                              ("invite", "commit", "zz" * 32), ("reveal", "nonce", "ab" * 15),
                              ("request", "id", "9C41D07E5AB2F386"), ("answer", "id", "x"),
                              ("move", "game", "k7m2p9qr"), ("join", "game", "K7M2P9QRX")):
        message = dataclasses.replace(_kinds(CODE)[kind], **{name: value})
        rejected(encode(sign(CODE.key, message)), "malformed")


def test_a_long_game_fits_and_an_impossible_one_does_not():
    moves = []
    prev = ""
    for n in range(1, 401):
        move = sign(CODE.key, Move(CODE.game, n, "white" if n % 2 else "black", "a1-a4", prev))
        assert isinstance(move, Move)
        moves.append(move)
        prev = move.mac
    snap = sign(CODE.key, Snapshot(CODE.game, "white", tuple(moves)))
    assert len(encode(snap)) < MAX_BYTES // 4
    assert read(CODE.key, CODE.game, encode(snap)) == snap
