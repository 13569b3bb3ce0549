"""Long random streams of sensor events: no exception, only legal actions, always back in sync."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables import SETTINGS

from navakankari.engine.game import new_game
from navakankari.engine.presets import preset
from navakankari.firmware.clockwork import drive
from navakankari.firmware.hands import JUMP_ORDERS, Hands
from navakankari.firmware.status import StatusKind
from navakankari.firmware.tracker import Tracker

VARIANTS = ["nine-mens-morris", "navakankari", "lasker", "six-mens-morris", "nau-keti-keta"]

step = st.one_of(
    st.tuples(st.just("legal"), st.integers(0, 1000), st.sampled_from(JUMP_ORDERS)),
    st.tuples(st.just("flip"), st.integers(0, 23), st.floats(0.0, 0.6)),
    st.tuples(st.just("chatter"), st.integers(0, 23), st.integers(1, 8)),
    st.tuples(st.just("wait"), st.floats(0.0, 2.0), st.just(0)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), steps=st.lists(step, max_size=40),
       seed=st.integers(0, 2**16))
def test_random_streams(variant, steps, seed):
    rules = preset(variant)
    game = new_game(rules)
    board = game.board
    start = board.names(game.occupancy)
    tracker = Tracker(game, settings=SETTINGS, occupied=start)
    hands = Hands(start, rng=random.Random(seed), chatter=3, pause=0.0)
    # The hands act on what they believe the game is; noise may make that drift.
    shadow = new_game(rules)
    for kind, a, b in steps:
        if kind == "legal":
            acts = shadow.legal_actions()
            if not acts:
                continue
            action = acts[a % len(acts)]
            names = board.points
            needed_empty = {names[p] for p in board.bits(action.empties)}
            needed_fill = {names[p] for p in board.bits(action.fills)}
            if not needed_empty <= hands.occupied or needed_fill & hands.occupied:
                continue
            hands.perform(board, action, order=b)
            shadow.push(action)
        elif kind == "flip":
            p = board.points[a % board.size]
            (hands.lift if p in hands.occupied else hands.place)(p)
            hands.wait(b)
        elif kind == "chatter":
            hands.bounce(board.points[a % board.size], b)
        else:
            hands.wait(a)
    now = drive(tracker, hands.events)
    # Every committed action was legal where it was played.
    check = new_game(rules)
    check.play_record(game.record())
    # Put the board back to what the game expects: the tracker is in sync again.
    expected = set(board.names(game.occupancy))
    fix = Hands(hands.occupied, t=now + 0.1)
    for p in sorted(fix.occupied - expected):
        fix.lift(p).wait(0.05)
    for p in sorted(expected - fix.occupied):
        fix.place(p).wait(0.05)
    drive(tracker, fix.events, now=now)
    assert tracker.matches()
    assert tracker.status.kind in (StatusKind.IDLE, StatusKind.REMOVAL, StatusKind.OVER)
    # And it follows the next legal action.
    acts = game.legal_actions()
    if acts:
        before = game.record()
        nxt = Hands(fix.occupied, t=fix.t + 1.0)
        nxt.perform(board, acts[0])
        drive(tracker, nxt.events, now=fix.t + 1.0)
        assert game.record() == f"{before} {acts[0].text}".strip()
