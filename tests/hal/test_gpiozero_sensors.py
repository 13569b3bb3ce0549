"""The direct-GPIO backend against gpiozero's own MockFactory."""

from __future__ import annotations

import threading

import pytest
from gpiozero import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from navakankari.hal import SensorEvent, load_profile
from navakankari.hal.backends.gpiozero_sensors import POLL_S, GpioZeroSensors
from navakankari.sim import ManualClock


def test_every_sensor_pin_is_an_input_with_pull_up(mock_factory: MockFactory) -> None:
    profile = load_profile("direct-24")
    with GpioZeroSensors(profile.sensors.pins) as sensors:
        for pin in profile.sensors.pins.values():
            assert mock_factory.pin(pin).function == "input"
            assert mock_factory.pin(pin).pull == "up"
        assert sensors.read() == frozenset()


def test_one_poll_thread_not_one_per_sensor(mock_factory: MockFactory) -> None:
    before = threading.active_count()
    with GpioZeroSensors(load_profile("direct-24").sensors.pins) as sensors:
        sensors.start(lambda e: None)
        assert threading.active_count() == before + 1
    assert threading.active_count() == before


def _level_without_edge(factory: MockFactory, pin: int, high: bool) -> None:
    """The level changes but no edge is raised, as under an emulated Pi (no GPIO interrupt)
    or a kernel without it: MockPin's own state change, without its edge callback."""
    factory.pin(pin)._change_state(high)


def test_a_level_no_edge_reported_is_seen_by_the_poll(mock_factory: MockFactory) -> None:
    clock = ManualClock(2.0)
    events: list[SensorEvent] = []
    with GpioZeroSensors({"a7": 4, "d7": 17}, clock=clock, thread=False) as sensors:
        sensors.start(events.append)
        _level_without_edge(mock_factory, 17, False)  # a pebble put on d7
        assert events == []
        clock.advance(POLL_S)
        assert sensors.poll_once() == {"d7"}
        assert sensors.poll_once() == {"d7"}  # the same level again: nothing new
        # Lifted: gpiozero, which never saw d7 go active, raises nothing; the poll sees it.
        mock_factory.pin(17).drive_high()
        clock.advance(POLL_S)
        assert sensors.poll_once() == frozenset()
        mock_factory.pin(17).drive_low()  # an edge that does arrive is reported at once
    assert events == [SensorEvent("d7", True, 2.0 + POLL_S), SensorEvent("d7", False, 2.0 + 2 * POLL_S),
                      SensorEvent("d7", True, 2.0 + 2 * POLL_S)]


def test_the_poll_thread_reads_every_poll_interval_until_stopped(mock_factory: MockFactory) -> None:
    clock = ManualClock(0.0)
    events: list[SensorEvent] = []
    waits: list[float] = []

    def wait(seconds: float) -> bool:  # the thread's sleep, on the manual clock
        waits.append(seconds)
        clock.advance(seconds)
        if len(waits) == 1:
            _level_without_edge(mock_factory, 4, False)
        return len(waits) == 3  # stop after two polls

    with GpioZeroSensors({"a7": 4}, clock=clock, wait=wait) as sensors:
        sensors.start(events.append)
        sensors.stop()  # joins the thread, which ended at its third wait
    assert waits == [POLL_S] * 3
    assert events == [SensorEvent("a7", True, POLL_S)]


def test_edges_are_pushed_as_they_happen(mock_factory: MockFactory) -> None:
    clock = ManualClock(5.0)
    events: list[SensorEvent] = []
    with GpioZeroSensors({"a7": 4, "d7": 17}, clock=clock) as sensors:
        sensors.start(events.append)
        mock_factory.pin(17).drive_low()
        clock.advance(0.003)
        mock_factory.pin(17).drive_high()
        mock_factory.pin(17).drive_low()
    assert events == [
        SensorEvent("d7", True, 5.0),
        SensorEvent("d7", False, 5.003),
        SensorEvent("d7", True, 5.003),
    ]


def test_a_failed_open_releases_the_pins_it_took(mock_factory: MockFactory) -> None:
    with GpioZeroSensors({"a7": 4}):
        with pytest.raises(GPIOPinInUse):
            GpioZeroSensors({"b6": 5, "d6": 4})
    with GpioZeroSensors({"b6": 5}) as again:  # GPIO5 was given back
        assert again.read() == frozenset()


def test_close_releases_every_pin(mock_factory: MockFactory) -> None:
    pins = load_profile("direct-19").sensors.pins
    GpioZeroSensors(pins).close()
    with GpioZeroSensors(pins) as sensors:
        assert len(sensors.points) == 19
