"""Recorded sessions: JSON Lines round trip, errors with line numbers, replay on the simulator."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from navakankari.hal import SensorEvent
from navakankari.sim import ManualClock, Recorder, RecordingError, SimulatedBoard, read_events, write_events
from navakankari.sim.recording import iter_events

EVENTS = [
    SensorEvent("d6", True, 0.25),
    SensorEvent("d6", False, 0.2625),
    SensorEvent("d6", True, 0.27),
    SensorEvent("a1", True, 3.0),
]


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    assert write_events(path, EVENTS, t0=0.0) == 4
    assert path.read_text().splitlines()[0] == '{"t": 0.25, "point": "d6", "present": true}'
    assert read_events(path) == EVENTS


def test_times_are_relative_to_the_first_event_by_default(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    write_events(path, [SensorEvent("a1", True, 1000.5), SensorEvent("a1", False, 1001.0)])
    assert read_events(path) == [SensorEvent("a1", True, 0.0), SensorEvent("a1", False, 0.5)]


def test_recorder_writes_as_events_arrive_and_hands_them_on() -> None:
    stream = io.StringIO()
    seen: list[SensorEvent] = []
    board = SimulatedBoard(["a1", "b2"], clock=ManualClock(50.0))
    board.sensors.start(Recorder(stream, then=seen.append))
    board.place("a1")
    board.wait(0.5)
    board.lift("a1")
    assert list(iter_events(io.StringIO(stream.getvalue()))) == [
        SensorEvent("a1", True, 0.0),
        SensorEvent("a1", False, 0.5),
    ]
    assert [e.t for e in seen] == [50.0, 50.5]


def test_bad_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '# recorded on the oak board\n{"t": 0, "point": "a1", "present": true}\n{"t": 1, "point": "a1"}\n'
    )
    with pytest.raises(RecordingError, match=r"bad.jsonl:3"):
        read_events(path)


def test_replay_drives_the_simulated_sensors_at_recorded_times() -> None:
    clock = ManualClock(7.0)
    board = SimulatedBoard(["d6", "a1"], clock=clock)
    seen: list[SensorEvent] = []
    board.sensors.start(seen.append)
    board.replay(EVENTS)
    assert [(e.point, e.present, round(e.t - 7.0, 6)) for e in seen] == [
        (e.point, e.present, e.t) for e in EVENTS
    ]
    assert board.sensors.read() == {"d6", "a1"}
