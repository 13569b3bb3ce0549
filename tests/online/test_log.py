"""The move log: applied once, in order, by the side to act, signed; everything else named."""

from __future__ import annotations

import dataclasses
import random

import pytest

from navakankari.engine.variants import new_game
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.log import ForkError, MoveLog, Verdict
from navakankari.firmware.online.messages import (Invite, Join, MessageError, Move, Reveal,
                                                  Snapshot, decode, encode, sign)

CODE = GameCode("K7M2P9QR", "TAX4B8CD3FGH")


def pair(variant: str = "nine-mens-morris") -> tuple[MoveLog, MoveLog]:
    return MoveLog(CODE, new_game(variant)), MoveLog(CODE, new_game(variant))


def wire(move: Move) -> Move:
    """Through the broker and back: encoded, decoded and checked."""
    message = decode(CODE.key, CODE.game, encode(move))
    assert isinstance(message, Move)
    return message


@pytest.mark.parametrize("variant", ["nine-mens-morris", "lasker", "nau-keti-keta"])
def test_two_logs_play_a_whole_game_and_agree(variant):
    here, there = pair(variant)
    rng = random.Random(variant)
    while here.game.outcome() is None and len(here.moves) < 300:
        mover, other = (here, there) if len(here.moves) % 3 else (there, here)
        action = rng.choice(mover.game.legal_actions()).text
        move = mover.record(action)
        assert other.receive(wire(move)).verdict is Verdict.APPLIED
        assert other.receive(wire(move)).verdict is Verdict.DUPLICATE
    assert here.game.record() == there.game.record()
    assert [m.mac for m in here.moves] == [m.mac for m in there.moves]


def test_a_gap_is_filled_from_the_snapshot():
    here, there = pair()
    moves = [here.record(a) for a in ("d6", "d2", "b4")]
    assert there.receive(wire(moves[2])).verdict is Verdict.GAP
    snap = decode(CODE.key, CODE.game, encode(here.snapshot("white")))
    assert isinstance(snap, Snapshot)
    verdicts = [r.verdict for r in there.catch_up(snap)]
    assert verdicts == [Verdict.APPLIED] * 3
    assert there.catch_up(snap)[0].verdict is Verdict.DUPLICATE


def test_the_wrong_side_an_illegal_move_and_a_fork_are_refused():
    here, there = pair()
    first = here.record("d6")
    assert there.receive(first).verdict is Verdict.APPLIED
    # black's number 2 claimed by white
    wrong_side = sign(CODE.key, Move(CODE.game, 2, "white", "d2", first.mac))
    assert there.receive(wrong_side).verdict is Verdict.REJECTED
    illegal = sign(CODE.key, Move(CODE.game, 2, "black", "d6", first.mac))  # d6 is taken
    got = there.receive(illegal)
    assert got.verdict is Verdict.REJECTED and "d6" in got.why
    other_first = sign(CODE.key, Move(CODE.game, 1, "white", "a1", ""))
    assert there.receive(other_first).verdict is Verdict.FORK and there.forked
    with pytest.raises(ForkError):
        there.record("d2")
    assert [a.text for a in there.game.history] == ["d6"]


def test_a_message_without_the_games_key_or_altered_is_dropped():
    here, _ = pair()
    move = here.record("d6")
    forged = sign(GameCode(CODE.game, "000000000000").key, Move(CODE.game, 2, "black", "d2",
                                                               move.mac))
    with pytest.raises(MessageError, match="signature"):
        decode(CODE.key, CODE.game, encode(forged))
    altered = dataclasses.replace(move, action="a1")
    with pytest.raises(MessageError, match="signature"):
        decode(CODE.key, CODE.game, encode(altered))
    with pytest.raises(MessageError, match="not of"):
        decode(CODE.key, "OTHERGAM", encode(move))
    for garbage in (b"", b"\xff\xfe", b"[]", b'{"kind": "move"}', b'{"kind": "chess"}',
                    b"x" * 1_100_000):
        with pytest.raises(MessageError):
            decode(CODE.key, CODE.game, garbage)


@pytest.mark.parametrize("message", [
    Move(CODE.game, 3, "black", "a1-a4", "ab" * 32),
    Invite(CODE.game, "lasker", "white", "toss", "grandma's board", "cd" * 32),
    Join(CODE.game, "Ravi's board", 1),
    Reveal(CODE.game, "ef" * 16, 0),
])
def test_every_message_round_trips_through_its_encoding(message):
    signed = sign(CODE.key, message)
    assert decode(CODE.key, CODE.game, encode(signed)) == signed


def test_a_log_rebuilt_from_the_stored_actions_is_the_same_log():
    here, there = pair("lasker")
    rng = random.Random(7)
    for _ in range(40):
        if here.game.outcome() is not None:
            break
        assert there.receive(here.record(rng.choice(here.game.legal_actions()).text)).verdict \
            is Verdict.APPLIED
    again = MoveLog.rebuild(CODE, new_game("lasker"), [m.action for m in here.moves])
    assert again.moves == there.moves == here.moves
