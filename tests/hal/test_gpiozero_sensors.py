"""The direct-GPIO backend against gpiozero's own MockFactory."""

from __future__ import annotations

import threading

import pytest
from gpiozero import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from navakankari.hal import SensorEvent, load_profile
from navakankari.hal.backends.gpiozero_sensors import GpioZeroSensors
from navakankari.sim import ManualClock


def test_every_sensor_pin_is_an_input_with_pull_up(mock_factory: MockFactory) -> None:
    profile = load_profile("direct-24")
    with GpioZeroSensors(profile.sensors.pins) as sensors:
        for pin in profile.sensors.pins.values():
            assert mock_factory.pin(pin).function == "input"
            assert mock_factory.pin(pin).pull == "up"
        assert sensors.read() == frozenset()


def test_no_thread_per_sensor(mock_factory: MockFactory) -> None:
    before = threading.active_count()
    with GpioZeroSensors(load_profile("direct-24").sensors.pins) as sensors:
        sensors.start(lambda e: None)
        assert threading.active_count() == before


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
