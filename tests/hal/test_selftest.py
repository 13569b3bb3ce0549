"""The self-test state machine, fed by the simulated board with faults wired in."""

from __future__ import annotations

import io

from navakankari.hal import load_profile, open_board
from navakankari.hal.tools.selftest import PRIMARIES, Finding, Phase, Selftest, render_occupancy, run_selftest
from navakankari.sim import ManualClock, SensorFaults, SimulatedBoard
from selftest_hand import touching_hand

P19 = load_profile("sim-19").points


def _touch_all(test: Selftest, board: SimulatedBoard) -> None:
    """A maker who puts a pebble on every lit point and takes it off again."""
    while test.phase is Phase.TOUCH:
        point = test.current_point
        board.place(point)
        board.wait(0.5)
        board.lift(point)
        board.wait(0.5)
        test.tick(board.clock())


def _start(board: SimulatedBoard, **kwargs) -> Selftest:
    test = Selftest(board.points, board.sensors.read(), board.clock(), **kwargs)
    board.sensors.start(test.on_event)
    return test


def test_leds_are_lit_one_at_a_time_in_each_primary() -> None:
    clock = ManualClock()
    test = Selftest(P19, [], clock(), led_step=0.1)
    seen = []
    while test.phase is Phase.LEDS:
        seen.append(test.frame())
        clock.advance(0.1)
        test.tick(clock())
    assert seen == [{p: rgb} for _, rgb in PRIMARIES for p in P19]
    assert test.phase is Phase.TOUCH and test.current_point == P19[0]


def test_a_good_board_passes() -> None:
    board = SimulatedBoard(P19)
    test = _start(board, check_leds=False)
    _touch_all(test, board)
    assert test.done and test.report().ok
    assert test.report().passed == P19


def test_faults_are_found() -> None:
    faults = SensorFaults(stuck_on=frozenset({"d4"}), dead=frozenset({"a1"}), crossed={"c5": "e5"})
    board = SimulatedBoard(P19, faults=faults)
    test = _start(board, check_leds=False, touch_timeout=5.0)
    assert test.findings == [Finding("stuck", "d4")]
    while test.phase is Phase.TOUCH:
        point = test.current_point
        board.place(point)
        board.wait(0.5)
        test.tick(board.clock())
        if test.current_point == point == "a1":  # nothing happens: the maker waits it out
            board.wait(5.0)
            test.tick(board.clock())
        board.lift(point)
        board.wait(0.5)
        test.tick(board.clock())
    findings = test.report().findings
    assert Finding("silent", "a1") in findings
    assert Finding("crossed", "c5", "e5") in findings
    assert len(findings) == 3
    assert "crossed" in str(Finding("crossed", "c5", "e5")) and "stuck" in str(findings[0])
    assert set(test.report().passed) == set(P19) - {"d4", "a1", "c5"}


def test_touch_step_lights_the_point_and_shows_results() -> None:
    board = SimulatedBoard(P19, faults=SensorFaults(dead=frozenset({"a7"})))
    test = _start(board, check_leds=False, touch_timeout=1.0)
    assert test.frame() == {"a7": (255, 255, 255)}
    board.wait(1.0)
    test.tick(board.clock())
    assert test.current_point == "d7"
    assert test.frame() == {"a7": (255, 0, 0), "d7": (255, 255, 255)}


def test_occupancy_view_is_a_grid_for_coordinate_names() -> None:
    view = render_occupancy(load_profile("sim-24").points, {"a7", "g1"})
    lines = view.splitlines()
    assert lines[0] == "7 @     +     +"
    assert lines[3] == "4 + + +   + + +"
    assert lines[6] == "1 +     +     @"
    assert lines[7] == "  a b c d e f g"
    assert render_occupancy(["left", "right"], {"right"}) == "pebbles on: right"


def test_run_selftest_on_the_simulator() -> None:
    clock = ManualClock()
    board = open_board(load_profile("sim-19"), clock=clock, backend="sim")
    sim = board.simulation
    out = io.StringIO()
    report = run_selftest(board, clock=clock, sleep=touching_hand(board, clock), out=out)
    assert report.ok and len(report.passed) == 19
    text = out.getvalue()
    assert "LED check: a7 should be red" in text and "19 of 19 sensors passed" in text
    assert len(sim.leds.frames) > 3 * 19
    board.close()
