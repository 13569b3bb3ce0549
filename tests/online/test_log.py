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


def test_a_gap_is_filled_from_the_snapshot_with_the_senders_moves_only():
    here, there = pair()
    moves = [here.record(a) for a in ("d6", "d2", "b4")]
    assert there.receive(wire(moves[2])).verdict is Verdict.GAP
    snap = decode(CODE.key, CODE.game, encode(here.snapshot("white")))
    assert isinstance(snap, Snapshot)
    verdicts = [r.verdict for r in there.catch_up(snap)]
    assert verdicts == [Verdict.APPLIED, Verdict.REJECTED]  # black's own move, from white?
    assert "marked black's but came from white" in there.catch_up(snap)[1].why
    assert there.catch_up(snap)[0].verdict is Verdict.DUPLICATE
    black = decode(CODE.key, CODE.game, encode(here.snapshot("black")))
    assert isinstance(black, Snapshot)
    assert [r.verdict for r in there.catch_up(black)] == [Verdict.DUPLICATE, Verdict.APPLIED,
                                                          Verdict.REJECTED]


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


def test_a_takeback_both_agreed_to_withdraws_the_moves_after_it() -> None:
    white, black = pair()
    for action in ("d6", "d2", "b4"):
        here, there = (white, black) if len(white.moves) % 2 == 0 else (black, white)
        assert there.receive(wire(here.record(action))).verdict is Verdict.APPLIED
    stale = white.snapshot("white")
    old = white.moves[2]
    for log in (white, black):
        log.truncate(2)
        assert [a.text for a in log.game.history] == ["d6", "d2"]
        assert (log.era, log.takebacks) == (1, [2])
    # Late from before the takeback: in a snapshot, or as a move, it is never applied.
    assert [r.verdict for r in black.catch_up(stale)] == [Verdict.DUPLICATE] * 2 + [
        Verdict.STALE]
    assert black.receive(wire(old)).verdict is Verdict.STALE  # replayed as the next number
    assert len(black.moves) == 2
    # The same move made again is another message (of the new era), applied as usual; the
    # withdrawn one replayed after it is still refused, never a fork.
    again = white.record("b4")
    assert (again.action, again.era) == (old.action, 1) and again.mac != old.mac
    assert black.receive(wire(again)).verdict is Verdict.APPLIED
    assert black.receive(wire(old)).verdict is Verdict.STALE
    assert not black.forked and len(black.moves) == 3
    for log in (white, black):
        log.truncate(2)
    assert black.receive(wire(again)).verdict is Verdict.STALE  # era 1's, now withdrawn too
    assert black.receive(wire(white.record("b4"))).verdict is Verdict.APPLIED
    with pytest.raises(ValueError):
        white.truncate(4)
    # A restarted board rebuilds the same log from its actions and the takebacks kept.
    rebuilt = MoveLog.rebuild(CODE, new_game("nine-mens-morris"), ["d6", "d2", "b4"],
                              white.takebacks)
    assert rebuilt.moves == white.moves and [m.era for m in rebuilt.moves] == [0, 0, 2]


def test_a_move_after_a_takeback_not_yet_known_here_waits() -> None:
    """The answerer takes back and moves before the asker has read the yes: its move is of
    the next era, so the asker waits for it (a gap it asks for), not a fork."""
    white, black = pair()
    for action in ("d6", "d2", "b4"):
        here, there = (white, black) if len(white.moves) % 2 == 0 else (black, white)
        there.receive(wire(here.record(action)))
    black.truncate(1)  # back to white having played d6: black to play again
    ahead = black.record("a1")
    assert ahead.era == 1 and white.era == 0 and len(white.moves) == 3
    assert white.receive(wire(ahead)).verdict is Verdict.GAP and not white.forked


def test_requests_and_answers_are_checked() -> None:
    from navakankari.firmware.online.messages import Answer, Request

    request = sign(CODE.key, Request(CODE.game, "white", "takeback", 3, 2, "9c41d07e5ab2f386"))
    assert decode(CODE.key, CODE.game, encode(request)) == request
    answer = sign(CODE.key, Answer(CODE.game, "black", "9c41d07e5ab2f386", 1))
    assert decode(CODE.key, CODE.game, encode(answer)) == answer
    for bad in (dataclasses.replace(request, what="draw"), dataclasses.replace(request, keep=4),
                dataclasses.replace(answer, accept=2)):
        with pytest.raises(MessageError):
            decode(CODE.key, CODE.game, encode(sign(CODE.key, bad)))


def test_a_takeback_to_the_last_shared_move_resumes_a_forked_game() -> None:
    here, there = pair()
    for action in ("d6", "d2"):
        mover, other = (here, there) if len(here.moves) % 2 == 0 else (there, here)
        assert other.receive(wire(mover.record(action))).verdict is Verdict.APPLIED
    elsewhere = sign(CODE.key, Move(CODE.game, 2, "black", "a1", here.moves[0].mac))
    assert there.receive(elsewhere).verdict is Verdict.FORK
    assert (there.fork, there.common) == ("move 2 is d2 here and a1 there", 1)
    on_another = sign(CODE.key, Move(CODE.game, 3, "white", "b4", "ab" * 32))
    assert here.receive(on_another).verdict is Verdict.FORK and here.common == 1
    for log in (here, there):  # agreed by both, but not far enough back: still forked
        log.truncate(2)
    assert there.forked
    for log in (here, there):
        log.truncate(1)
        assert not log.forked and log.fork == ""
    assert there.receive(wire(here.record("f4"))).verdict is Verdict.APPLIED  # and on it goes
