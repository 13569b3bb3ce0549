"""Assistance on the board: threats, move quality, blunder warnings and the best move on
request, for each hand side at its own level; the lights are the palette's roles."""

from __future__ import annotations

import pytest
from navakankari.engine.game import Side
from navakankari.engine.hint import Judge
from navakankari.engine.presets import preset
from navakankari.engine.advice import Advice, advise
from navakankari.engine.variants import game_from_position
from navakankari.firmware.core import lights, wording
from navakankari.firmware.core.assist import (
    BLUNDER_SECONDS,
    ONLINE_TAKEBACK,
    HINT_GESTURE,
    REPLY_WAITS,
    Teacher,
)
from navakankari.firmware.core.clockwork import drive, run_until
from navakankari.firmware.core.palette import PALETTE, Role
from navakankari.firmware.core.players import HAND, PlayerSpec
from navakankari.firmware.core.session import Session
from navakankari.firmware.core.status import Status, StatusKind
from navakankari.sim.hands import ScriptedHands
from tables import SETTINGS

NINE = preset("nine-mens-morris")
MILL_IN_ONE = "@*******/**@**O*@/O*O*@@*O w m s 4 0 5 0 0 0 0 0 0 0 0 0 1"  # g4-g7 closes a mill


def _hand(level: int) -> PlayerSpec:
    return PlayerSpec.parse(f"hand:{level}")


def _session(white: PlayerSpec, black: PlayerSpec, record: str = "") -> tuple[Session, ScriptedHands, float]:
    session = Session(NINE, {Side.WHITE: white, Side.BLACK: black}, settings=SETTINGS)
    hands = ScriptedHands((), pause=0.5)
    for p in record.split():
        hands.place(p).wait(0.5)
    now = drive(session, _take(hands), now=0.0)
    assert session.record() == record
    return session, hands, now


def _take(hands: ScriptedHands):
    events = hands.events[:]
    hands.events.clear()
    return events


def _drive_for(session: Session, hands: ScriptedHands, seconds: float, now: float) -> float:
    """The hands' events, then the clock run on to `seconds` after the last of them (not
    until nothing is pending: a pebble lifted to ask has a deadline of its own)."""
    events = _take(hands)
    for event in events:
        now = run_until(session, event.t, now)
        session.feed(event)
        now = max(now, event.t)
        session.tick(now)
    return run_until(session, (events[-1].t if events else now) + seconds, now)


def _advise(session: Session, now: float) -> None:
    """Advice as the daemon makes it, to a fixed depth: the same on every machine."""
    request = session.answers.advice_request()
    assert request is not None
    assert session.answers.advice_request() is None  # asked once per position
    assert session.answers.advise(advise(request, budget=10**7, max_depth=3), now)


def _colour(role: Role) -> tuple[int, int, int]:
    return PALETTE[role].colour


def test_threats_pulse_for_a_side_at_level_2_and_are_said_in_words():
    session, _, now = _session(HAND, _hand(2), "a7 b6 g7")  # white threatens d7
    _advise(session, now)
    status = session.status
    assert status.threats == ("d7",)
    assert status.quality == ()  # level 2: no quality
    assert "white threatens to close a7-d7-g7 with d7" in status.advice
    assert session.frame(status.since)["d7"] == _colour(Role.THREAT)
    assert session.next_frame_change(status.since) is not None  # it pulses
    assert session.status.to_dict()["threats"] == ["d7"]


def test_level_1_and_a_computer_side_ask_for_no_advice():
    session, _, _ = _session(HAND, HAND, "a7 b6 g7")
    assert session.answers.advice_request() is None
    vs = Session(NINE, {Side.WHITE: PlayerSpec("computer", 1), Side.BLACK: _hand(4)},
                 settings=SETTINGS)
    assert vs.answers.advice_request() is None  # the computer (white) is to act
    assert PlayerSpec("computer", 1).assistance == 0


def test_quality_colours_the_free_points_and_a_blunder_blinks_with_its_reason():
    session, hands, now = _session(HAND, _hand(3), "a7 b6 g7 d5 f6")  # d7 blocks
    _advise(session, now)
    status = session.status
    quality = dict(status.quality)
    assert quality["d7"] == "keeps"  # the block
    bad = next(p for p, q in quality.items() if q == "drops")
    frame = session.frame(now)
    assert frame["d7"] == _colour(Role.THREAT)  # the threat pulses over its quality
    assert frame[bad] == _colour(Role.QUALITY_DROPS)
    # Black places there all the same: the pebble blinks, the words say why.
    hands.t = now + 0.5
    hands.place(bad)
    now = drive(session, _take(hands), now=now)
    status = session.status
    assert status.blunder == (bad,)
    assert status.advice.startswith(
        f"black {bad} was a mistake: {bad} lets white close a mill at d7 next turn")
    assert "take it back" in status.advice
    assert session.frame(status.since)[bad] == _colour(Role.BLUNDER)
    assert status.blunder_until == pytest.approx(now + BLUNDER_SECONDS, abs=0.5)
    assert session.frame(status.blunder_until + 0.01).get(bad) != _colour(Role.BLUNDER)
    assert session.next_frame_change(status.blunder_until - 0.01) <= status.blunder_until
    # The takeback the page offers: the warning goes with the move.
    session.takeback_turn(now)
    assert session.status.blunder == () and session.record() == "a7 b6 g7 d5 f6"


@pytest.mark.parametrize("level", [0, 1, 2])
def test_no_blunder_warning_below_level_3(level):
    session, hands, now = _session(HAND, _hand(level), "a7 b6 g7")
    if level >= 2:
        _advise(session, now)
    hands.t = now + 0.5
    hands.place("a1")
    drive(session, _take(hands), now=now)
    assert session.status.blunder == () and "mistake" not in session.status.advice


def test_the_best_move_on_request_from_the_page_and_its_limit_per_turn():
    session, _, now = _session(_hand(4), HAND, "a7 b6 g7 d1")
    assert session.answers.request_hint(now).startswith("the best move is still being worked out")
    _advise(session, now)
    best = session.teacher.advice.judgement.best
    assert session.answers.request_hint(now) == f"best move: {best}"
    assert session.status.hint == (best,)  # a placement: its point
    assert session.frame(session.status.since)[best] == _colour(Role.HINT)
    assert session.answers.request_hint(now) == "white has had 1 best move this turn"
    level3, _, t = _session(_hand(3), HAND, "a7 b6 g7 d1")
    _advise(level3, t)
    assert level3.answers.request_hint(t) == "white has no best move on request (assistance 3)"


def test_the_hint_gesture_lift_an_opponents_pebble_and_set_it_back():
    session, hands, now = _session(_hand(4), HAND, "a7 b6 g7 d1")
    _advise(session, now)
    hands.t = now + 0.5
    hands.lift("b6")  # a mistake to the tracker, shown as the request
    now = _drive_for(session, hands, 1.5, now)
    assert session.status.kind == StatusKind.MISMATCH
    hands.t = now + 0.2
    hands.place("b6")
    now = drive(session, _take(hands), now=now)
    assert session.status.kind == StatusKind.IDLE
    best = session.teacher.advice.judgement.best
    assert session.status.hint == (best,) and f"best move: {best}" in session.status.advice


def test_a_slow_lift_of_an_opponents_pebble_is_no_gesture():
    session, hands, now = _session(_hand(4), HAND, "a7 b6 g7 d1")
    _advise(session, now)
    hands.t = now + 0.5
    hands.lift("b6").wait(HINT_GESTURE + 2.0)
    hands.place("b6")
    drive(session, _take(hands), now=now)
    assert session.status.hint == ()


def test_a_lifted_pebbles_destinations_take_their_quality_colours():
    game = game_from_position(NINE, MILL_IN_ONE)
    judgement = Judge().judge(game, budget=10**7, max_depth=2)
    teacher = Teacher()
    teacher.take(Advice(0, game.key, Side.WHITE, 3, judgement), game)
    players = {Side.WHITE: _hand(3), Side.BLACK: HAND}
    lifted = Status(StatusKind.IN_PROGRESS, "white", lifted=("g4",), destinations=("g7", "g1"))
    status = teacher.decorate(lifted, game, players)
    assert dict(status.quality) == {"g7": "keeps", "g1": judgement.quality("g4-g1").value}
    assert teacher.decorate(lifted, game, players) is status  # kept: the lights keep their frame
    frame = lights.render(game, status, 0.0)
    assert frame["g7"] == _colour(Role.QUALITY_KEEPS)
    assert frame["g4"] == _colour(Role.LIFTED)
    # At level 1 the same lift shows only where the pebble may go.
    plain = teacher.decorate(lifted, game, {Side.WHITE: HAND, Side.BLACK: HAND})
    assert lights.render(game, plain, 0.0)["g7"] == _colour(Role.DESTINATION)


def test_advice_for_a_position_passed_by_is_dropped():
    session, hands, now = _session(HAND, _hand(3), "a7 b6 g7")
    request = session.answers.advice_request()
    hands.t = now + 0.5
    hands.place("d7")
    now = drive(session, _take(hands), now=now)
    assert not session.answers.advise(advise(request, budget=10**7, max_depth=1), now)
    assert session.status.quality == ()


def test_the_daemon_makes_advice_in_a_worker_process_and_lights_it(tmp_path):
    import time

    from sim_daemon import sim_daemon

    with sim_daemon(tmp_path, white="hand:3") as running:
        deadline = time.monotonic() + 30
        while True:
            status = running.call(lambda: running.daemon.session.status)
            if len(status.quality) == 24:  # every free point judged
                break
            assert time.monotonic() < deadline, "no advice from the worker"
            time.sleep(0.05)
        worker = running.daemon._advice._executor
        assert worker is not None  # a process of its own, not the loop's thread
        frame = running.call(lambda: dict(running.daemon.last_frame))
        roles = {p: next(r for r in Role if PALETTE[r].colour == c) for p, c in frame.items()}
        assert set(roles.values()) <= {Role.QUALITY_KEEPS, Role.QUALITY_WORSE,
                                       Role.QUALITY_DROPS, Role.QUALITY_LOSES}
        assert len(roles) == 24


def test_a_replay_of_a_game_with_assistance_lights_the_same_help(tmp_path):
    """The recording keeps each side's assistance (in its game line), and the replay makes
    the advice as the board did: the blunder's warning is there again."""
    import io

    from navakankari.firmware.cli.replay import read_recording, run_replay
    from navakankari.firmware.core.recording_head import find_game
    from navakankari.firmware.store.database import Store

    store = Store(tmp_path / "games.sqlite3")
    session = Session(NINE, {Side.WHITE: HAND, Side.BLACK: _hand(3)}, settings=SETTINGS,
                      store=store)
    hands = ScriptedHands((), pause=0.5)
    for p in "d6 a1 d5".split():
        hands.place(p).wait(0.5)
    now = drive(session, _take(hands), now=0.0)
    _advise(session, now)
    bad = next(p for p, q in session.status.quality if q == "drops")
    hands.t = now + 0.5
    hands.place(bad)
    drive(session, _take(hands), now=now)
    assert session.status.blunder == (bad,)
    text = store.events_jsonl(session.game_id)
    assert find_game(text.splitlines()).black == "hand:3"
    replayed = run_replay(read_recording(io.StringIO(text)), NINE,
                          players={Side.WHITE: HAND, Side.BLACK: _hand(3)}).session
    assert replayed.record() == session.record()
    assert replayed.status.blunder == (bad,)
    assert "lets white close a mill at d7 next turn" in replayed.status.advice


def test_a_blunder_is_taken_back_by_putting_the_pebble_back():
    session, hands, now = _session(HAND, _hand(3), "d6 a1 d5")
    _advise(session, now)
    bad = next(p for p, q in session.status.quality if q == "drops")
    hands.t = now + 0.5
    hands.place(bad)
    now = drive(session, _take(hands), now=now)
    assert session.status.blunder == (bad,) and "put the pebbles back" in session.status.advice
    hands.t = now + 0.5
    hands.lift(bad)  # the placed pebble off again: the board as before the blunder
    drive(session, _take(hands), now=now)
    assert session.record() == "d6 a1 d5"
    assert session.status.kind == StatusKind.IDLE and session.status.turn == "black"
    assert session.status.blunder == ()


def test_without_a_blunder_lifting_a_placed_pebble_is_a_mistake_to_put_right():
    session, hands, now = _session(HAND, _hand(3), "d6 a1 d5")
    _advise(session, now)
    hands.t = now + 0.5
    hands.place("d7")  # the block: no blunder
    now = drive(session, _take(hands), now=now)
    assert session.status.blunder == ()
    hands.t = now + 0.5
    hands.lift("d7")
    drive(session, _take(hands), now=now)
    assert session.record() == "d6 a1 d5 d7"
    assert session.status.kind == StatusKind.MISMATCH


def test_advice_is_made_ahead_while_the_computers_move_is_carried_out():
    session = Session(NINE, {Side.WHITE: _hand(3), Side.BLACK: PlayerSpec("computer", 1)},
                      settings=SETTINGS)
    hands = ScriptedHands((), pause=0.5)
    request = session.answers.advice_request()  # white to act: its own advice first
    session.answers.advise(advise(request, budget=10**7, max_depth=1), 0.0)
    hands.place("d6").wait(0.5)
    now = drive(session, _take(hands), now=0.0)
    computer = session.answers.computer_request()
    session.answers.offer(computer, [computer.game.parse("a1")], now)
    assert session.status.kind == StatusKind.EXECUTING
    ahead = session.answers.advice_request()  # the position after a1, before the hands play it
    assert ahead is not None and ahead.ply == 2
    assert session.answers.advise(advise(ahead, budget=10**7, max_depth=1), now)
    assert session.status.quality == ()  # not yet: a1 is still to be set down
    hands.t = now + 0.5
    hands.place("a1")
    drive(session, _take(hands), now=now)
    assert session.record() == "d6 a1"
    assert len(session.status.quality) == 22  # lit at once: every free point judged
    assert session.answers.advice_request() is None


def test_a_worker_that_dies_is_replaced(tmp_path):
    import asyncio
    from concurrent.futures.process import BrokenProcessPool

    from navakankari.firmware.daemon.advice import AdviceService

    class Broken:
        def submit(self, *args, **kwargs):
            raise BrokenProcessPool("gone")

        def shutdown(self, **kwargs):
            self.shut = True

    session = Session(NINE, {Side.WHITE: _hand(3), Side.BLACK: HAND}, settings=SETTINGS)
    loop = asyncio.new_event_loop()
    try:
        service = AdviceService(loop, session, lambda: 0.0, lambda: None)
        broken = service._executor = Broken()
        service.ask(session.answers.advice_request())  # the loop goes on; the next starts afresh
        assert service._executor is None and broken.shut and not service._busy
    finally:
        loop.close()


def test_the_advice_worker_runs_below_the_loop():
    import asyncio
    import os

    from navakankari.firmware.core.players import CHILD_NICE
    from navakankari.firmware.daemon.advice import AdviceService

    session = Session(NINE, {Side.WHITE: _hand(3), Side.BLACK: HAND}, settings=SETTINGS)
    loop = asyncio.new_event_loop()
    try:
        service = AdviceService(loop, session, lambda: 0.0, lambda: None)
        service.ask(session.answers.advice_request())  # white's advice: the worker starts
        worker_nice = service._executor.submit(os.nice, 0).result(timeout=60)
        assert worker_nice == min(19, os.nice(0) + CHILD_NICE)
    finally:
        service.close()
        loop.close()


def test_the_other_sides_move_never_raises_this_sides_warning():
    """Black's advice (its blunders named) stays the newest advice while white, a hand
    without help, plays on: white's placement on a point black was warned off is white's
    move, not black's mistake, and offers black no takeback."""
    session, hands, now = _session(HAND, _hand(3), "a7 b6 g7 d5 f6")
    _advise(session, now)
    advice = session.teacher.advice
    bad = next(a for a, _ in advice.reasons if a != "d7")  # a point black was warned off
    hands.t = now + 0.5
    hands.place("d7")  # black blocks: no mistake
    now = drive(session, _take(hands), now=now)
    assert session.status.blunder == () and session.answers.advice_request() is None  # white: none
    assert session.teacher.advice is advice  # still black's, made a ply before
    hands.t = now + 0.5
    hands.place(bad)  # white sets a pebble where black's advice named a blunder
    now = drive(session, _take(hands), now=now)
    assert session.record() == f"a7 b6 g7 d5 f6 d7 {bad}"
    status = session.status
    assert status.blunder == () and "mistake" not in status.advice
    assert Role.BLUNDER not in lights.roles(session.game, status, now).values()
    before = {"a7", "b6", "g7", "d5", "f6", "d7"}  # the board as it stood before white's move
    assert session.teacher.undo_wanted(before, session.game) is None


COMPUTER_ROLES = {Role.COMPUTER_FROM, Role.COMPUTER_TO, Role.COMPUTER_TAKE}


def _blunder_against(black: PlayerSpec) -> tuple[Session, ScriptedHands, float, str]:
    """White (level 3) blunders while black threatens d7-d6-d5; black is `black` from then."""
    session, hands, now = _session(_hand(3), HAND, "a1 d6 a7 d5")
    session.set_players(now, {Side.BLACK: black})
    _advise(session, now)
    bad = next(a for a, _ in session.teacher.advice.reasons if a not in ("a4", "d7"))
    hands.t = now + 0.5
    hands.place(bad)
    now = drive(session, _take(hands), now=now)
    assert session.status.blunder == (bad,) and session.status.kind == StatusKind.THINKING
    return session, hands, now, bad


def test_the_computers_reply_waits_until_the_warning_has_been_shown():
    session, _, now, bad = _blunder_against(PlayerSpec("computer", 1))
    start = session.status.blunder_until - BLUNDER_SECONDS
    due = start + REPLY_WAITS
    computer = session.answers.computer_request()
    reply = computer.game.parse_actions(f"d7x{bad}")  # and takes the blunder's pebble
    session.answers.offer(computer, reply, start + 0.3)  # chosen at once
    assert session.status.kind == StatusKind.THINKING  # held back: the warning blinks on
    assert session.deadline() == pytest.approx(due)
    for t in (start + 0.3, start + 1.0, due - 0.01):
        session.tick(t)
        lit = lights.roles(session.game, session.status, t)
        assert lit.get(bad) == Role.BLUNDER and not COMPUTER_ROLES & set(lit.values())
    session.tick(due)
    status = session.status
    assert status.kind == StatusKind.EXECUTING and status.forced == ("d7", f"x{bad}")
    for t in (due, due + 0.3, due + 1.0):  # the reply alone, the blunder's point its take
        lit = lights.roles(session.game, status, t)
        assert Role.BLUNDER not in lit.values() and lit[bad] == Role.COMPUTER_TAKE
    assert "was a mistake" in status.advice  # the words stay until the game moves on


def test_the_hand_takes_the_blunder_back_before_the_reply_is_lit():
    session, hands, now, bad = _blunder_against(PlayerSpec("computer", 1))
    computer = session.answers.computer_request()
    session.answers.offer(computer, computer.game.parse_actions(f"d7x{bad}"),
                  now + 0.2)
    hands.t = now + 0.5
    hands.lift(bad)  # within the warning: the pebble off again
    drive(session, _take(hands), now=now)
    assert session.record() == "a1 d6 a7 d5"
    assert session.status.kind == StatusKind.IDLE and session.status.forced == ()
    assert not session.answers.still_due(computer)  # its answer is dropped with the blunder


def test_a_remote_move_waits_until_the_warning_has_been_shown():
    session, _, now, bad = _blunder_against(PlayerSpec("remote"))
    due = session.status.blunder_until - BLUNDER_SECONDS + REPLY_WAITS
    assert [a.text for a in session.answers.remote_move("d7", now)] == ["d7"]
    assert session.status.kind == StatusKind.THINKING and session.status.forced == ()
    assert session.deadline() == pytest.approx(due)
    drive(session, [], now=now)
    assert session.status.kind == StatusKind.EXECUTING and session.status.forced == ("d7",)
    assert session.status.since == pytest.approx(due)


def test_the_quick_hint_gesture_a_quarter_of_a_second_asks_for_the_best_move():
    session, hands, now = _session(_hand(4), HAND, "a7 b6 g7 d1")
    _advise(session, now)
    hands.t = now + 0.5
    hands.lift("b6").wait(0.25)
    hands.place("b6")
    drive(session, _take(hands), now=now)
    best = session.teacher.advice.judgement.best
    assert session.status.kind == StatusKind.IDLE and session.status.hint == (best,)
    assert f"best move: {best}" in session.status.advice


def test_while_the_pebble_is_up_the_board_acknowledges_the_request():
    session, hands, now = _session(_hand(4), HAND, "a7 b6 g7 d1")
    _advise(session, now)
    hands.t = now + 0.5
    hands.lift("b6")  # past the tracker's grace: a mistake, were it not asking
    now = _drive_for(session, hands, 1.5, now)
    status = session.status
    assert status.kind == StatusKind.MISMATCH and status.asking == ("b6",)
    words = wording.status_text(session.game, status)
    assert words == "asking for the best move: set the black pebble back on b6"
    assert "not a legal move" not in words
    assert lights.roles(session.game, status, now) == {"b6": Role.ASKING}
    # Kept up past HINT_GESTURE, it is the mistake to put right it always was.
    lifted_at = session.teacher.deadline() - HINT_GESTURE
    session.tick(lifted_at + HINT_GESTURE)
    status = session.status
    assert status.asking == () and status.to_fill == ("b6",)
    assert wording.status_text(session.game, status).startswith("that is not a legal move")
    assert lights.roles(session.game, status, now)["b6"] == Role.TO_FILL


def test_a_side_that_may_not_ask_sees_the_lifted_pebble_as_a_mistake():
    session, hands, now = _session(_hand(3), HAND, "a7 b6 g7 d1")
    _advise(session, now)
    hands.t = now + 0.5
    hands.lift("b6").wait(1.5)
    now = drive(session, _take(hands), now=now)
    assert session.status.asking == () and session.status.to_fill == ("b6",)


def test_online_a_blunder_is_not_taken_back_by_the_board_alone():
    """The move has gone to the other board: putting the pebbles back is a mistake to put
    right, and the words send the player to the other one; the reply still waits."""
    session, hands, now, bad = _blunder_against(PlayerSpec("online"))
    assert session.status.advice.endswith(ONLINE_TAKEBACK)
    assert session.answers.remote_move("d7", now) and session.status.forced == ()  # held back
    hands.t = now + 0.5
    hands.lift(bad)
    now = _drive_for(session, hands, 1.5, now)  # past the tracker's grace
    assert session.record() == f"a1 d6 a7 d5 {bad}"
    assert session.status.kind == StatusKind.MISMATCH and session.status.to_fill == (bad,)
