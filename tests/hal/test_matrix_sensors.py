"""The matrix backend against a stand-in RPi.GPIO that models switches, diodes and ghosts."""

from __future__ import annotations

import itertools
import threading

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from hal_harness import MatrixHarness
from navakankari.hal import SensorEvent
from navakankari.hal.backends.matrix_sensors import MatrixSensors
from navakankari.sim import ManualClock

CELLS = list(itertools.product(range(3), range(8)))


def _by_cell(h: MatrixHarness) -> dict[tuple[int, int], str]:
    return {cell: p for p, cell in h.profile.sensors.cells.items()}


def test_three_corners_of_a_rectangle_read_exactly_with_diodes() -> None:
    h = MatrixHarness(ManualClock(), diodes=True)
    at = _by_cell(h)
    for (r1, r2), (c1, c2) in itertools.product(
        itertools.combinations(range(3), 2), itertools.combinations(range(8), 2)
    ):
        corners = [(r1, c1), (r1, c2), (r2, c1)]
        h.gpio.closed = set(corners)
        assert h.sensors.read() == {at[c] for c in corners}


def test_without_diodes_the_fourth_corner_reads_a_ghost() -> None:
    h = MatrixHarness(ManualClock(), diodes=False)
    at = _by_cell(h)
    for point in ("d7", "g7", "d6"):  # cells (0,0) (0,1) (1,0)
        h.place(point)
    assert at[(1, 1)] == "f6"
    assert h.sensors.read() == {"d7", "g7", "d6", "f6"}  # f6 is empty


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(CELLS)))
def test_any_set_of_pebbles_reads_exactly_with_diodes(closed: set[tuple[int, int]]) -> None:
    h = MatrixHarness(ManualClock(), diodes=True)
    h.gpio.closed = set(closed)
    assert h.sensors.read() == {_by_cell(h)[c] for c in closed}


def test_rows_float_between_scans_and_columns_are_pulled_up() -> None:
    h = MatrixHarness(ManualClock())
    h.place("a7")
    h.sensors.read()
    gpio = h.gpio
    for row in h.profile.sensors.rows:
        assert gpio.pins[row] == (gpio.IN, gpio.PUD_OFF)
    for column in h.profile.sensors.columns:
        assert gpio.pins[column] == (gpio.IN, gpio.PUD_UP)
    assert h.sleeps and all(s > 0 for s in h.sleeps)  # each row settles before reading


def test_scan_thread_runs_at_the_configured_rate() -> None:
    clock = ManualClock(0.0)
    stand_in = MatrixHarness(clock)
    profile = stand_in.profile.sensors
    waits: list[float] = []
    events: list[SensorEvent] = []

    def sleep(dt: float) -> None:
        if dt < 1e-3:  # row settle time
            return
        waits.append(dt)
        clock.advance(dt)
        if len(waits) == 2:
            stand_in.gpio.closed.add(profile.cells["e4"])
        if len(waits) == 4:
            sensors.stop()  # from the scan thread itself, as a callback might

    sensors = MatrixSensors(
        profile.rows, profile.columns, profile.cells, scan_hz=50, clock=clock, sleep=sleep, gpio=stand_in.gpio
    )
    sensors.start(events.append)
    for thread in threading.enumerate():  # the scripted sleep stops the loop after four waits
        if thread.name == "matrix-scan":
            thread.join(timeout=5)
    assert not any(t.name == "matrix-scan" for t in threading.enumerate())
    assert waits == pytest.approx([0.02] * 4)
    assert events == [SensorEvent("e4", True, 0.04)]
    sensors.close()


def test_close_cleans_up_only_its_pins() -> None:
    h = MatrixHarness(ManualClock())
    h.sensors.close()
    s = h.profile.sensors
    assert sorted(h.gpio.cleaned) == sorted(s.rows + s.columns)
