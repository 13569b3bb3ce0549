"""The simulated board's hands: place, lift, slide, chatter, faults, and its LED frame log."""

from __future__ import annotations

import pytest

from navakankari.hal import SensorEvent, load_profile
from navakankari.sim import ManualClock, SensorFaults, SimulatedBoard, SimulationError

P24 = load_profile("sim-24").points


def _board(**kwargs) -> tuple[SimulatedBoard, list[SensorEvent]]:
    board = SimulatedBoard(P24, clock=ManualClock(10.0), **kwargs)
    events: list[SensorEvent] = []
    board.sensors.start(events.append)
    return board, events


def test_place_and_lift_report_edges_and_keep_true_colours() -> None:
    board, events = _board()
    board.place("d6", "black")
    board.place("a1")
    assert board.pebbles == {"d6": "black", "a1": "white"}
    assert board.sensors.read() == {"d6", "a1"}
    assert board.lift("d6") == "black"
    assert events == [
        SensorEvent("d6", True, 10.0),
        SensorEvent("a1", True, 10.0),
        SensorEvent("d6", False, 10.0),
    ]


def test_slide_closes_the_sensors_it_passes_with_timing_from_the_clock() -> None:
    board, events = _board()
    board.place("a7", "black")
    events.clear()
    board.slide(["a7", "d7", "g7"], step=0.1, dwell=0.04)
    assert [(e.point, e.present, round(e.t, 6)) for e in events] == [
        ("a7", False, 10.0),
        ("d7", True, 10.06),
        ("d7", False, 10.1),
        ("g7", True, 10.2),
    ]
    assert board.pebbles == {"g7": "black"}
    assert board.clock() == pytest.approx(10.2)


def test_a_slide_over_a_pebble_does_not_open_its_sensor() -> None:
    board, events = _board()
    board.place("a7")
    board.place("d7")
    events.clear()
    board.slide(["a7", "d7", "g7"])
    assert [(e.point, e.present) for e in events] == [("a7", False), ("g7", True)]


def test_chatter_bounces_and_ends_where_the_pebble_is() -> None:
    board, events = _board()
    board.place("e4", chatter=2)
    assert [(e.point, e.present) for e in events] == [("e4", True), ("e4", False), ("e4", True)] + [
        ("e4", False),
        ("e4", True),
    ]
    assert events[-1].t == pytest.approx(10.012)  # four halves of a bounce, the hand's 3 ms
    assert board.sensors.read() == {"e4"}


def test_faults_change_what_the_sensors_see() -> None:
    board, events = _board(
        faults=SensorFaults(stuck_on=frozenset({"g1"}), dead=frozenset({"b2"}), crossed={"c3": "e3"})
    )
    assert board.sensors.read() == {"g1"}
    board.place("b2")
    board.place("c3")
    assert board.sensors.read() == {"g1", "e3"}
    assert board.pebbles == {"b2": "white", "c3": "white"}  # the truth is unchanged


def test_hands_cannot_do_the_impossible() -> None:
    board, _ = _board()
    board.place("a1")
    with pytest.raises(SimulationError):
        board.place("a1")
    with pytest.raises(SimulationError):
        board.lift("g7")
    with pytest.raises(SimulationError):
        board.place("z9")
    with pytest.raises(SimulationError):
        board.slide(["a1"])


def test_led_frames_are_logged_with_time_and_bounded() -> None:
    clock = ManualClock(0.0)
    board = SimulatedBoard(P24, clock=clock, brightness=0.5, log_size=3)
    for i in range(5):
        clock.advance(1.0)
        board.leds.show({"d6": (255, 0, 0)} if i % 2 else {})
    assert [f.t for f in board.leds.frames] == [3.0, 4.0, 5.0]
    assert board.leds.frames[-2].colours == {"d6": (255, 0, 0)}
    assert board.leds.frames[-2].pixels[4] == (128, 0, 0)
    assert board.leds.lit == {}


def test_nineteen_point_board() -> None:
    board = SimulatedBoard(load_profile("sim-19").points)
    board.place("d4")
    assert board.sensors.read() == {"d4"}
    assert board.leds.count == 19
