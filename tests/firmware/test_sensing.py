"""Sensing: raw edges to a settled occupancy, and sensors that chatter without end."""

from __future__ import annotations

from navakankari.engine.boards import BOARDS
from navakankari.firmware.core.sensing import Edge, Sensing
from navakankari.firmware.core.tracker import TrackerSettings
from navakankari.hal.sensors import SensorEvent

BOARD = BOARDS["morris"]
SETTINGS = TrackerSettings()


def bit(point: str) -> int:
    return 1 << BOARD.index(point)


def test_a_change_counts_once_the_board_keeps_still():
    s = Sensing(BOARD, SETTINGS)
    assert s.feed(SensorEvent("d6", True, 1.0)) == Edge(bit("d6"))
    assert s.feed(SensorEvent("d6", True, 1.01)) is None  # a repeat changes nothing
    assert s.deadline() == 1.0 + SETTINGS.settle
    assert s.tick(1.1) == (False, False) and not s.still()
    assert s.tick(1.0 + SETTINGS.settle) == (True, False)
    assert s.names(s.settled) == {"d6"} and s.still() and s.deadline() is None


def test_a_bounce_restarts_the_wait():
    s = Sensing(BOARD, SETTINGS)
    s.feed(SensorEvent("d6", True, 0.0))
    s.feed(SensorEvent("d6", False, 0.1))
    s.feed(SensorEvent("d6", True, 0.15))
    assert not s.tick(0.2)[0] and s.tick(0.35)[0]


def test_points_off_the_board_are_not_read():
    s = Sensing(BOARDS["six"], SETTINGS, occupied=("a7",))  # Six Men's Morris: no outer ring
    assert s.feed(SensorEvent("a7", False, 0.0)) is None
    assert s.raw == 0


def test_a_chattering_sensor_is_read_as_it_last_settled_until_quiet():
    s = Sensing(BOARD, SETTINGS, occupied=("a1",))
    t, faulty_at = 0.0, None
    present = False
    while faulty_at is None:
        t += 0.05
        edge = s.feed(SensorEvent("a1", present, t))
        present = not present
        if edge is not None and edge.faulty_now:
            faulty_at = t
    assert faulty_at >= SETTINGS.fault_window and s.names(s.faulty) == {"a1"}
    s.feed(SensorEvent("d6", True, t))  # the rest of the board still settles
    assert s.tick(t + SETTINGS.settle)[0] and s.names(s.settled) == {"a1", "d6"}
    assert s.deadline() == t + SETTINGS.fault_quiet
    assert s.tick(t + SETTINGS.fault_quiet) == (False, True) and not s.faulty
