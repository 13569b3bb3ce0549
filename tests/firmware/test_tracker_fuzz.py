"""Long random streams of sensor events: no exception, only legal actions, always back in sync."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.firmware.core.clockwork import drive
from navakankari.firmware.core.status import StatusKind
from navakankari.sim.hands import JUMP_ORDERS, ScriptedHands
from navakankari.firmware.tools.referee import Referee
from tables import SETTINGS, Following

VARIANTS = ["nine-mens-morris", "navakankari", "lasker", "six-mens-morris", "nau-keti-keta"]

legal_step = st.tuples(st.just("legal"), st.integers(0, 1000), st.sampled_from(JUMP_ORDERS))
step = st.one_of(
    st.tuples(st.just("legal"), st.integers(0, 1000), st.sampled_from(JUMP_ORDERS)),
    st.tuples(st.just("flip"), st.integers(0, 23), st.floats(0.0, 0.6)),
    st.tuples(st.just("chatter"), st.integers(0, 23), st.integers(1, 8)),
    st.tuples(st.just("wait"), st.floats(0.0, 2.0), st.just(0)),
)


def judge_record(rules, game) -> None:  # type: ignore[no-untyped-def]
    """Every committed action was legal where it was played: judged by the referee on its
    own board for the morris games, by the engine's rules replayed for Nau Keti Keta."""
    if rules.game == "morris":
        Referee(rules).judge_record(game.record())
    else:
        new_game(rules).play_record(game.record())


def noise(hands: ScriptedHands, board, kind: str, a, b) -> None:  # type: ignore[no-untyped-def]
    """A stray pebble put down or lifted, a chattering sensor, or a pause."""
    if kind == "flip":
        p = board.points[a % board.size]
        (hands.lift if p in hands.occupied else hands.place)(p)
        hands.wait(b)
    elif kind == "chatter":
        hands.bounce(board.points[a % board.size], b)
    else:
        hands.wait(a)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), steps=st.lists(st.one_of(step, legal_step, legal_step),
                                                        min_size=20, max_size=80),
       seed=st.integers(0, 2**16))
def test_random_streams(variant, steps, seed):
    rules = preset(variant)
    game = new_game(rules)
    board = game.board
    start = board.names(game.occupancy)
    tracker = Following(game, settings=SETTINGS, occupied=start)
    hands = ScriptedHands(start, rng=random.Random(seed), chatter=3, pause=0.6)
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
            # A hopping chain also sets down on every landing on its way.
            needed_fill = {names[p] for p in board.bits(action.fills)} | (
                {names[p] for p in action.path} - {names[action.origin]}
                if action.origin >= 0 else set())
            if not needed_empty <= hands.occupied or needed_fill & hands.occupied:
                continue
            hands.perform(board, action, order=b)
            shadow.push(action)
        else:
            noise(hands, board, kind, a, b)
    now = drive(tracker, hands.events)
    judge_record(rules, game)
    # Put the board back to what the game expects: the tracker is in sync again.
    expected = set(board.names(game.occupancy))
    fix = ScriptedHands(hands.occupied, t=now + 0.1)
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
        nxt = ScriptedHands(fix.occupied, t=fix.t + 1.0)
        nxt.perform(board, acts[0])
        drive(tracker, nxt.events, now=fix.t + 1.0)
        assert game.record() == f"{before} {acts[0].text}".strip()


play_on = st.tuples(st.just("play"), st.integers(0, 2**16), st.sampled_from(JUMP_ORDERS))
computer_step = st.one_of(play_on, play_on, play_on, step)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), steps=st.lists(computer_step, min_size=20, max_size=80))
def test_random_streams_against_the_computer(variant, steps):
    """White by hand, black's moves given (as the computer's): noise never commits anything
    but legal actions and given moves, and the board always comes back into sync."""
    from navakankari.engine.game import Side
    from navakankari.engine.player import RandomPlayer
    from navakankari.firmware.core.clockwork import run_until
    from navakankari.firmware.core.players import computer_turn

    rules = preset(variant)
    game = new_game(rules)
    board = game.board
    start = board.names(game.occupancy)
    tracker = Following(game, settings=SETTINGS, occupied=start, hands={Side.WHITE})
    hands = ScriptedHands(start, pause=0.0)
    now = 0.0
    given: dict[int, str] = {}  # ply -> the computer's action given for it
    for kind, a, b in steps:
        if kind == "play":  # whatever comes next in a well-played game
            if tracker.status.kind == StatusKind.THINKING:
                forced = computer_turn(RandomPlayer(seed=a), game)
                for i, x in enumerate(forced):
                    given[len(game.history) + i] = x.text
                tracker.set_forced(forced, now)
            elif tracker.forced and tracker.matches():
                hands.perform(board, tracker.forced[0], order=b)
            elif game.turn == Side.WHITE and tracker.matches() and game.legal_actions():
                acts = game.legal_actions()
                hands.perform(board, acts[a % len(acts)], order=b)
        elif kind == "legal":
            acts = game.legal_actions() if game.turn == Side.WHITE and tracker.matches() else []
            if acts:
                hands.perform(board, acts[a % len(acts)], order=b)
        else:
            noise(hands, board, kind, a, b)
        events = hands.events[:]
        hands.events.clear()
        now = drive(tracker, events, now=now)
        hands.t = max(hands.t, now)
    judge_record(rules, game)
    check = new_game(rules)
    for ply, action in enumerate(game.history):  # black's commits only as given
        if check.turn == Side.BLACK:
            assert given.get(ply) == action.text
        check.push(action)
    expected = set(board.names(game.occupancy))
    fix = ScriptedHands(hands.occupied, t=now + 0.1)
    for p in sorted(fix.occupied - expected):
        fix.lift(p).wait(0.05)
    for p in sorted(expected - fix.occupied):
        fix.place(p).wait(0.05)
    now = drive(tracker, fix.events, now=now)
    now = run_until(tracker, None, now)
    assert tracker.matches()
    assert tracker.status.kind != StatusKind.MISMATCH
