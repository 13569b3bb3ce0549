"""The tracker against scripted, noisy hands: every case asserts the exact action record."""

from __future__ import annotations

import random

import pytest
from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.firmware.core.clockwork import drive
from navakankari.firmware.core.status import MismatchReason, StatusKind
from navakankari.firmware.core.tracker import TrackerSettings
from navakankari.firmware.core.wayback import pair_points
from navakankari.sim.hands import JUMP_ORDERS, ScriptedHands
from tables import SETTINGS, Following, Table, find_chain_record, random_game

NINE = preset("nine-mens-morris")
NKK = preset("nau-keti-keta")
# Nine Men's Morris, moving phase, white to move (18 placements, no mill closed).
MOVING = "c5 b6 a4 e3 d5 d6 f2 d2 g7 e5 c3 a1 d1 g4 f4 d7 e4 a7"


@pytest.mark.parametrize("variant", ["nine-mens-morris", "navakankari", "lasker",
                                     "six-mens-morris", "twelve-mens-morris",
                                     "morabaraba", "navakankari-strict", "nau-keti-keta"])
@pytest.mark.parametrize("order", JUMP_ORDERS)
def test_whole_random_games_with_chatter_are_followed_exactly(variant, order):
    rng = random.Random(7)
    ref = random_game(preset(variant), seed=11, plies=90)
    game = new_game(preset(variant))
    start = game.board.names(game.occupancy)
    tracker = Following(game, occupied=start, settings=SETTINGS)
    hands = ScriptedHands(start, rng=rng, chatter=4, pause=0.6)
    replay = new_game(preset(variant))
    for action in ref.history:
        hands.perform(replay.board, action, order=order)
        replay.push(action)
    drive(tracker, hands.events)
    assert game.record() == ref.record()


def test_placing_with_chatter():
    t = Table(NINE)
    for p in ("d6", "a4", "e3", "b2"):
        t.hands.place(p, chatter=6).wait(0.3)
    t.run()
    assert t.record == "d6 a4 e3 b2"
    assert t.status.kind == StatusKind.IDLE and t.status.turn == "white"


def test_a_change_counts_only_once_stable_for_the_settle_time():
    t = Table(NINE)
    t.hands.place("d6")
    t.at(SETTINGS.settle - 0.01)
    assert t.record == ""
    t.at(SETTINGS.settle)
    assert t.record == "d6"


def test_a_pebble_slid_across_points_commits_only_where_it_stops():
    t = Table(NINE, MOVING)
    # c5 -> c4 is a step; the hand drags the pebble the long way round over b4 (empty).
    t.hands.lift("c5").wait(0.05)
    for p in ("b4",):
        t.hands.place(p, chatter=2).wait(0.1).lift(p, chatter=2).wait(0.05)
    t.hands.place("c4", chatter=3)
    t.run()
    assert t.record == MOVING + " c5-c4"


def test_a_pebble_brushed_over_empty_points_during_placement_is_not_placed_there():
    t = Table(NINE)
    for p in ("a7", "d7", "d6"):
        t.hands.place(p).wait(0.04).lift(p).wait(0.03)
    t.hands.place("d5")
    t.run()
    assert t.record == "d5"


def test_moving_shows_the_lifted_pebble_and_its_destinations():
    t = Table(NINE, MOVING)
    t.hands.lift("c5")
    t.at(0.25)
    s = t.status
    assert s.kind == StatusKind.IN_PROGRESS
    assert s.lifted == ("c5",) and set(s.destinations) == {"c4"}
    assert s.candidates == ("c5-c4",)
    t.hands.wait(0.3).place("c4")
    t.run()
    assert t.record == MOVING + " c5-c4"


def test_a_lift_put_back_commits_nothing():
    t = Table(NINE, MOVING)
    t.hands.lift("c5").wait(1.0).place("c5", chatter=3)
    t.run()
    assert t.record == MOVING
    assert t.status.kind == StatusKind.IDLE


def _flying_position():
    """Nine Men's Morris where the side to move is down to three pebbles (it flies)."""
    for seed in range(300):
        rng = random.Random(seed)
        game = new_game(NINE)
        while game.outcome() is None and len(game.history) < 300:
            if (not game.pending_removals and game.phase.value == "moving"
                    and game.can_fly(game.turn)):
                if any(a.origin >= 0 and not game.board.adjacency[a.origin] >> a.target & 1
                       for a in game.legal_actions()):
                    return game
            game.push(rng.choice(game.legal_actions()))
    raise AssertionError("no flying position")


def test_flying_waits_longer_then_commits():
    game = _flying_position()
    base = game.record()
    occ = game.board.names(game.occupancy)
    tracker = Following(game, occupied=occ, settings=SETTINGS)
    origin = game.board.names(game.pieces(game.turn))[0]
    target = next(a.target for a in game.legal_actions()
                  if a.origin == game.board.index(origin)
                  and not game.board.adjacency[a.origin] >> a.target & 1)
    target = game.board.points[target]
    hands = ScriptedHands(occ).lift(origin).wait(0.3).place(target)
    t_place = hands.t
    for e in hands.events:
        tracker.feed(e)
        tracker.tick(e.t)
    tracker.tick(t_place + SETTINGS.settle)
    assert game.record() == base  # waiting: the pebble could still fly on
    assert tracker.deadline() == pytest.approx(t_place + SETTINGS.settle + SETTINGS.grow)
    tracker.tick(t_place + SETTINGS.settle + SETTINGS.grow)
    assert game.record() == f"{base} {origin}-{target}"


def test_a_flying_pebble_set_down_briefly_on_the_way_is_not_a_move():
    game = _flying_position()
    base = game.record()
    occ = game.board.names(game.occupancy)
    tracker = Following(game, occupied=occ, settings=SETTINGS)
    white = game.board.names(game.pieces(game.turn))
    empty = [p for p in game.board.points if p not in occ]
    stop, final = empty[0], empty[-1]
    hands = ScriptedHands(occ).lift(white[0]).wait(0.3).place(stop).wait(0.4)  # > settle, < settle+grow
    hands.lift(stop).wait(0.2).place(final).wait(1.0)
    drive(tracker, hands.events)
    assert game.record() == f"{base} {white[0]}-{final}"


def test_the_next_move_right_after_a_flight_commits_the_flight_first():
    game = _flying_position()
    base = game.record()
    occ = game.board.names(game.occupancy)
    tracker = Following(game, occupied=occ, settings=SETTINGS)
    white = game.board.names(game.pieces(game.turn))
    flight = next(a for a in game.legal_actions() if a.origin == game.board.index(white[0])
                  and not game.board.adjacency[a.origin] >> a.target & 1)
    probe = game.copy()
    probe.push(flight)
    reply = probe.legal_actions()[0]
    hands = ScriptedHands(occ, pause=0.0)
    hands.perform(game.board, flight).wait(0.3)  # settled, still inside the longer wait
    hands.perform(game.board, reply).wait(1.0)
    drive(tracker, hands.events)
    assert game.record() == f"{base} {flight.text} {reply.text}"


# -- removal after a mill -----------------------------------------------------------------
MILL_SETUP = "a7 b6 d7 f6 g4 b2 g1 d2"  # white then places g7: two mills at once


def test_one_removal_after_a_mill_standard_rules():
    t = Table(NINE, MILL_SETUP)
    t.hands.place("g7").wait(0.5)
    t.run()
    assert t.status.kind == StatusKind.REMOVAL
    assert set(t.status.takeable) == {"b6", "f6", "b2", "d2"}
    assert set(t.status.mills) == {"a7", "d7", "g7", "g4", "g1"}
    t.hands.lift("f6", chatter=3)
    t.run()
    assert t.record == MILL_SETUP + " g7 xf6"
    assert t.status.kind == StatusKind.IDLE and t.status.turn == "black"


def test_two_mills_take_two_pebbles_in_navakankari():
    t = Table(preset("navakankari"), MILL_SETUP)
    t.hands.place("g7").wait(0.5).lift("b6").wait(0.5).lift("d2", chatter=2)
    t.run()
    assert t.record == MILL_SETUP + " g7 xb6 xd2"
    assert t.status.turn == "black"


def test_placing_and_taking_inside_one_settle_time_commits_both():
    t = Table(NINE, MILL_SETUP)
    t.hands.place("g7").wait(0.08).lift("b2")
    t.run()
    assert t.record == MILL_SETUP + " g7 xb2"


def test_a_wrong_pebble_lifted_for_a_removal_is_a_mistake_to_put_right():
    t = Table(NINE, MILL_SETUP)
    t.hands.place("g7").wait(0.5).lift("a7")  # white's own pebble, in the new mill
    t.at(SETTINGS.settle + 0.1)
    assert t.status.kind == StatusKind.IN_PROGRESS and t.status.candidates == ()
    t.at(SETTINGS.settle + SETTINGS.grace)
    s = t.status
    assert s.kind == StatusKind.MISMATCH and s.reason == MismatchReason.MISTAKE
    assert s.to_fill == ("a7",) and s.to_empty == ()
    t.hands.wait(1.0).place("a7").wait(0.5)
    t.run()
    assert t.status.kind == StatusKind.REMOVAL
    t.hands.lift("d2")
    t.run()
    assert t.record == MILL_SETUP + " g7 xd2"


def test_a_protected_pebble_lifted_for_a_removal_is_a_mistake():
    # black's b6-d6-f6 stands as a mill; white closes a7-d7-g7: only b2 may be taken
    record = "a7 b6 d7 d6 a1 f6 xa1 a1 b2"
    t = Table(NINE, record)
    t.hands.place("g7").wait(0.5)
    t.run()
    assert t.status.takeable == ("b2",)
    t.hands.lift("d6").wait(2.0)
    t.run()
    assert t.status.kind == StatusKind.MISMATCH and t.status.to_fill == ("d6",)
    t.hands.place("d6").wait(0.5).lift("b2")
    t.run()
    assert t.record == record + " g7 xb2"


# -- mistakes ------------------------------------------------------------------------------
def test_a_pebble_put_on_an_illegal_point_shows_the_way_back():
    t = Table(NINE, MOVING)
    t.hands.lift("c5").wait(0.3).place("b4")  # c5 -> b4: not adjacent
    t.at(SETTINGS.settle + SETTINGS.grace - 0.05)
    assert t.status.kind != StatusKind.MISMATCH  # the grace period
    t.at(SETTINGS.settle + SETTINGS.grace)
    s = t.status
    assert s.kind == StatusKind.MISMATCH
    assert s.to_empty == ("b4",) and s.to_fill == ("c5",) and s.pairs == (("b4", "c5"),)
    t.hands.wait(0.5).lift("b4").wait(0.3).place("c5")
    t.run()
    assert t.record == MOVING and t.status.kind == StatusKind.IDLE
    t.hands.wait(0.5).lift("c5").wait(0.2).place("c4")
    t.run()
    assert t.record == MOVING + " c5-c4"


def test_a_mistake_completed_into_a_legal_move_is_committed():
    t = Table(NINE, MOVING)
    t.hands.lift("c5").wait(0.3).place("b4").wait(2.0)
    t.run()
    assert t.status.kind == StatusKind.MISMATCH
    t.hands.lift("b4").wait(0.2).place("c4")
    t.run()
    assert t.record == MOVING + " c5-c4"


def test_two_pebbles_placed_at_once_commit_nothing():
    t = Table(NINE)
    t.hands.place("d6").wait(0.05).place("a1").wait(2.0)
    t.run()
    assert t.record == ""
    s = t.status
    assert s.kind == StatusKind.MISMATCH and set(s.to_empty) == {"d6", "a1"}
    t.hands.lift("a1")
    t.run()
    assert t.record == "d6"
    assert t.status.kind == StatusKind.IDLE and t.status.turn == "black"


def test_two_pebbles_moved_at_once_commit_nothing():
    t = Table(NINE, MOVING)
    t.hands.lift("c5").wait(0.05).lift("a4").wait(0.05).place("c4").wait(0.05).place("b4")
    t.hands.wait(2.0)
    t.run()
    assert t.record == MOVING
    s = t.status
    assert s.kind == StatusKind.MISMATCH
    assert set(s.to_empty) == {"c4", "b4"} and set(s.to_fill) == {"c5", "a4"}
    assert set(s.pairs) == {("c4", "c5"), ("b4", "a4")}


def test_pairs_are_nearest_first():
    board = new_game(NINE).board
    assert pair_points(board, ("a1", "g7"), ("g4", "a4")) == (("a1", "a4"), ("g7", "g4"))


# -- Nau Keti Keta ------------------------------------------------------------------------
@pytest.mark.parametrize("order", JUMP_ORDERS)
def test_a_capture_chain_in_any_physical_order(order):
    record, chain = find_chain_record(NKK, hops=2)
    t = Table(NKK, record)
    action = t.game.parse_action(chain)
    t.hands.chatter = 2
    t.hands.perform(t.game.board, action, order=order, gap=0.3)
    t.run()
    assert t.record == f"{record} {chain}"


def test_a_chain_that_may_go_on_waits_at_each_landing():
    rules = NKK.replace(capture_compulsory=False, name="nkk-free")
    record, chain = find_chain_record(rules, hops=2)
    t = Table(rules, record)
    action = t.game.parse_action(chain)
    names = t.game.board.points
    origin = names[action.origin]
    first, second = names[action.path[0]], names[action.path[1]]
    j1, j2 = names[action.jumped[0]], names[action.jumped[1]]
    # Land on the first point and take the pebble, pause longer than the settle time...
    t.hands.lift(origin).wait(0.1).place(first).wait(0.1).lift(j1).wait(0.3)
    t.run(t.hands.t)
    assert t.record == record  # ... the one-jump chain is legal but could still grow
    t.hands.lift(first).wait(0.1).place(second).wait(0.1).lift(j2)
    for p, j in zip(action.path[2:], action.jumped[2:]):
        t.hands.wait(0.1).lift(second).wait(0.1).place(names[p]).wait(0.1).lift(names[j])
        second = names[p]
    t.run()
    assert t.record == f"{record} {chain}"


def test_a_chain_stopped_where_it_may_stop_is_committed_after_the_longer_wait():
    rules = NKK.replace(capture_compulsory=False, name="nkk-free")
    record, chain = find_chain_record(rules, hops=2)
    t = Table(rules, record)
    action = t.game.parse_action(chain)
    names = t.game.board.points
    t.hands.lift(names[action.origin]).wait(0.1).place(names[action.path[0]]).wait(0.1)
    t.hands.lift(names[action.jumped[0]])
    t.at(SETTINGS.settle + 0.01)
    assert t.record == record and t.status.kind == StatusKind.IN_PROGRESS
    t.at(SETTINGS.settle + SETTINGS.grow)
    assert t.record == f"{record} {names[action.origin]}x{names[action.path[0]]}"


def test_nau_keti_keta_setup_then_play_never_commits_during_setup():
    game = new_game(NKK)
    tracker = Following(game, occupied=(), settings=SETTINGS)
    assert tracker.status.kind == StatusKind.MISMATCH
    assert tracker.status.reason == MismatchReason.RESTORE
    start = list(game.board.names(game.start_occupancy()))
    start.remove("c3")
    hands = ScriptedHands(())
    hands.setup(start)
    # The last pebble goes on the apex first (the shape of the step c3-d4), then is moved.
    hands.place("d4").wait(0.6).lift("d4").wait(0.1).place("c3").wait(0.6)
    hands.lift("c3").wait(0.1).place("d4").wait(0.6)
    drive(tracker, hands.events)
    assert game.record() == "c3-d4"


def _give_g7_xd2(t: Table) -> None:
    """The computer (white) answers MILL_SETUP with g7, closing two mills, and takes d2."""
    forced = [t.game.parse_action("g7")]
    probe = t.game.copy()
    probe.push(forced[0])
    forced.append(probe.parse_action("xd2"))
    t.tracker.set_forced(forced, t.now)


# -- the computer's move -------------------------------------------------------------------
def test_the_computers_move_is_the_only_action_accepted_and_any_order_works():
    t = Table(NINE, MILL_SETUP, hands={Side.BLACK})
    assert t.status.kind == StatusKind.THINKING
    _give_g7_xd2(t)
    s = t.status
    assert s.kind == StatusKind.EXECUTING and s.forced == ("g7", "xd2")
    assert s.forced_to == ("g7",) and s.forced_take == ("d2",)
    # A different legal-looking action is not accepted.
    t.hands.place("a1").wait(2.0)
    t.run()
    assert t.record == MILL_SETUP and t.status.kind == StatusKind.MISMATCH
    t.hands.lift("a1").wait(0.5)
    # Take first, then place.
    t.hands.lift("d2").wait(0.4).place("g7")
    t.run()
    assert t.record == MILL_SETUP + " g7 xd2"
    assert t.status.kind == StatusKind.IDLE and t.status.turn == "black"


def test_a_fast_reply_right_after_the_computers_move_is_recognised():
    t = Table(NINE, MOVING, hands={Side.BLACK})
    t.tracker.set_forced([t.game.parse_action("c5-c4")], t.now)
    t.hands.lift("c5").wait(0.05).place("c4").wait(0.05).lift("b6").wait(0.05).place("b4")
    t.run()
    assert t.record == MOVING + " c5-c4 b6-b4"


# -- takeback, new game, resume ------------------------------------------------------------
def test_takeback_guides_the_board_back_then_play_goes_on():
    t = Table(NINE, MOVING)
    t.hands.lift("c5").wait(0.1).place("c4")
    t.run()
    assert t.record == MOVING + " c5-c4"
    t.game.pop()
    t.tracker.sync(t.now)
    s = t.status
    assert s.kind == StatusKind.MISMATCH and s.reason == MismatchReason.RESTORE
    assert s.pairs == (("c4", "c5"),)
    t.hands.wait(0.5).lift("c4").wait(0.1).place("c5")
    t.run()
    assert t.status.kind == StatusKind.IDLE and t.record == MOVING
    t.hands.wait(0.5).lift("a4").wait(0.1).place("b4")
    t.run()
    assert t.record == MOVING + " a4-b4"


def test_resume_with_a_board_that_does_not_match_shows_what_to_fix_and_accepts_nothing():
    t = Table(NINE, "d6 a4 e3", occupied=["d6", "a4", "b2"])
    s = t.status
    assert s.kind == StatusKind.MISMATCH and s.reason == MismatchReason.RESTORE
    assert s.to_empty == ("b2",) and s.to_fill == ("e3",)
    # Even a legal-looking change is not taken while restoring.
    t.hands.wait(0.5).lift("b2").wait(0.5)
    t.run()
    assert t.record == "d6 a4 e3" and t.status.kind == StatusKind.MISMATCH
    t.hands.place("e3").wait(0.5).place("b2")
    t.run()
    assert t.record == "d6 a4 e3 b2"


def test_six_mens_morris_ignores_the_outer_ring():
    t = Table(preset("six-mens-morris"))
    t.hands.place("a7").wait(0.5).place("d6").wait(0.5).lift("a7")
    t.run()
    assert t.record == "d6"


def test_game_over_accepts_nothing_and_shows_the_outcome():
    game = random_game(NINE, seed=3, plies=400)
    assert game.outcome() is not None
    t = Table(NINE, game.record())
    assert t.status.kind == StatusKind.OVER and t.status.outcome == game.outcome()
    for p in list(t.hands.occupied):
        t.hands.lift(p)
    t.run()
    assert t.status.kind == StatusKind.OVER and t.record == game.record()


def test_settings_are_checked():
    with pytest.raises(ValueError, match="settle"):
        TrackerSettings(settle=-1)


# -- what the cases above left open (found by tests/mutation/run.py) ---------------------------
def _ticked(t: Table) -> list[str]:
    """Run the table like `Table.run`, keeping what each tick returned as committed."""
    out: list[str] = []
    tracker = t.tracker
    events = t.hands.events[t.sent:]
    t.sent = len(t.hands.events)
    for event in [*events, None]:
        until = None if event is None else event.t
        for _ in range(10_000):
            due = tracker.deadline()
            if due is None or (until is not None and due > until):
                break
            t.now = max(t.now, due)
            out += [a.text for a in tracker.tick(t.now)]
        if event is not None:
            tracker.feed(event)
            t.now = max(t.now, event.t)
            out += [a.text for a in tracker.tick(t.now)]
    return out


def test_tick_returns_exactly_what_it_committed():
    t = Table(NINE, MILL_SETUP)
    t.hands.place("g7").wait(0.05).lift("d2").wait(0.5)  # a placement and its removal at once
    assert _ticked(t) == ["g7", "xd2"]
    t.hands.place("d2").wait(0.5)
    assert _ticked(t) == ["d2"]
    assert t.record == MILL_SETUP + " g7 xd2 d2"


def test_a_pebble_set_down_for_the_computer_before_it_answers_is_not_a_move():
    t = Table(NINE, MILL_SETUP, hands={Side.BLACK})  # white is the computer, thinking
    t.hands.place("a1").wait(2.0)
    assert _ticked(t) == []
    assert t.record == MILL_SETUP and t.status.kind != StatusKind.IDLE


def test_the_computers_move_half_done_is_in_progress_not_a_mistake():
    t = Table(NINE, MILL_SETUP, hands={Side.BLACK})
    _give_g7_xd2(t)
    t.hands.lift("d2").wait(2.0)  # its removal first, slowly: longer than the grace time
    t.run(t.hands.t)
    assert t.status.kind == StatusKind.EXECUTING and t.record == MILL_SETUP
    t.hands.lift("a7").wait(2.0)  # a pebble the computer's move does not touch: a mistake
    t.run(t.hands.t)
    assert t.status.kind == StatusKind.MISMATCH
    t.hands.place("a7").wait(0.5).place("g7").wait(0.5)
    t.run()
    assert t.record == MILL_SETUP + " g7 xd2"


def test_two_sides_placing_at_once_is_a_mistake():
    t = Table(NINE, "")
    t.hands.place("d6").wait(0.05).place("a1").wait(2.0)  # white's and black's at once
    assert _ticked(t) == []
    assert t.record == "" and t.status.kind == StatusKind.MISMATCH


def test_after_a_mistake_is_put_right_the_next_one_gets_its_grace_time_again():
    t = Table(NINE, "")
    t.hands.place("d6").wait(0.05).place("a1").wait(2.0)  # two at once: a mistake
    t.run(t.hands.t)
    assert t.status.kind == StatusKind.MISMATCH
    t.hands.lift("d6").wait(0.05).lift("a1").wait(1.0)  # put right
    t.run(t.hands.t)
    assert t.status.kind == StatusKind.IDLE
    t.hands.place("d6").wait(0.05).place("a1")
    t.run(t.hands.t + SETTINGS.settle + SETTINGS.grace / 2)  # settled, within the grace time
    assert t.status.kind == StatusKind.IN_PROGRESS
    t.run(t.hands.t + SETTINGS.settle + SETTINGS.grace * 2)
    assert t.status.kind == StatusKind.MISMATCH and t.record == ""


def test_both_sides_moving_at_once_is_a_mistake_unless_the_first_was_given():
    t = Table(NINE, MOVING)  # both sides by hand: nothing was given
    t.hands.lift("c5").wait(0.05).place("c4").wait(0.05).lift("b6").wait(0.05).place("b4")
    t.hands.wait(2.0)
    assert _ticked(t) == []
    assert t.record == MOVING and t.status.kind == StatusKind.MISMATCH


def test_after_the_first_of_the_computers_actions_only_the_rest_is_accepted():
    t = Table(NINE, MILL_SETUP, hands={Side.BLACK})
    _give_g7_xd2(t)
    t.hands.place("g7").wait(1.0)
    t.run(t.hands.t)
    assert t.record == MILL_SETUP + " g7"
    t.hands.lift("b6").wait(2.0)  # takeable, but not the pebble the computer took
    t.run(t.hands.t)
    assert t.record == MILL_SETUP + " g7" and t.status.kind == StatusKind.MISMATCH


def test_a_walking_move_commits_after_the_settle_time_without_waiting_for_growth():
    t = Table(NINE, MOVING)
    t.hands.lift("c5").wait(0.05).place("c4")
    t.run(t.hands.t + SETTINGS.settle + 0.01)
    assert t.record == MOVING + " c5-c4"


# -- the way back names colours --------------------------------------------------------------
def test_a_takeback_moves_a_pebble_only_onto_a_point_of_its_own_colour():
    """Nau Keti Keta c3-d4 e5xc3 b2xd4, then b2xd4 taken back: the white pebble on d4 goes
    back to b2 (not onto black's c3, the nearer point), and a black one is set on c3."""
    t = Table(NKK)
    t.hands.lift("c3").wait(0.2).place("d4").wait(0.6)
    t.hands.lift("e5").wait(0.1).lift("d4").wait(0.1).place("c3").wait(1.0)
    t.hands.lift("b2").wait(0.1).lift("c3").wait(0.1).place("d4").wait(1.0)
    t.run()
    assert t.record == "c3-d4 e5xc3 b2xd4"
    t.game.pop()
    t.tracker.sync(t.now)
    s = t.status
    assert s.kind == StatusKind.MISMATCH and s.reason == MismatchReason.RESTORE
    assert s.steps == (("move", "white", "d4", "b2"), ("set", "black", "", "c3"))
    assert s.pairs == (("d4", "b2"),)
    t.hands.wait(0.5).lift("d4").wait(0.1).place("b2").wait(0.6)
    t.run()
    assert t.status.steps == (("set", "black", "", "c3"),)
    t.hands.place("c3").wait(0.6)
    t.run()
    assert t.status.kind == StatusKind.IDLE and t.record == "c3-d4 e5xc3"


def test_a_pebble_lifted_and_set_down_where_the_game_has_none_keeps_its_colour():
    t = Table(NINE, MOVING)
    t.hands.lift("c5").wait(0.3).place("b4").wait(SETTINGS.settle + SETTINGS.grace + 0.1)
    t.run()
    assert t.status.steps == (("move", "white", "b4", "c5"),)
    assert t.tracker.colours["b4"] == Side.WHITE


def test_a_morris_takeback_of_a_removal_never_moves_a_pebble_onto_the_other_sides_point():
    """a7 b6 d7 f6 g7 xb6, both taken back: the white pebble on g7 comes off and a black one
    is set on b6 (the old words moved the white pebble to b6)."""
    t = Table(NINE, "a7 b6 d7 f6")
    t.hands.place("g7").wait(0.5).lift("b6").wait(1.0)
    t.run()
    assert t.record == "a7 b6 d7 f6 g7 xb6"
    t.game.pop()
    t.game.pop()
    t.tracker.sync(t.now)
    assert t.status.steps == (("lift", "white", "g7", ""), ("set", "black", "", "b6"))
    assert t.status.pairs == ()
