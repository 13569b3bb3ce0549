"""Fixtures: every sensor and LED backend opened on stand-in hardware, behind one harness.

A sensor harness puts and lifts pebbles the way that backend's hardware would see them
(a GPIO pulled low, a matrix switch closed, an expander pin grounded) and `settle()` lets the
backend notice (one matrix scan); the clock is a ManualClock.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

# Blinka reads this when `board` is first imported: a generic board whose pixel code runs on x86.
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hal_fakes import FakeI2C, FakeSPI, MatrixGPIO, decode_ws2812_spi
from navakankari.hal import load_profile
from navakankari.hal.board import open_sensors
from navakankari.hal.leds import RGB, LedStrip
from navakankari.hal.sensors import SensorArray
from navakankari.sim import ManualClock, SimulatedBoard

SENSOR_BACKENDS = ["gpiozero", "matrix", "mcp23017", "sim"]
LED_BACKENDS = ["neopixel", "neopixel_spi", "sim"]
BRIGHTNESS = 0.25


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.close()
        Device.pin_factory = None


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(100.0)


class SensorHarness:
    sensors: SensorArray
    clock: ManualClock

    def place(self, point: str) -> None:
        raise NotImplementedError

    def lift(self, point: str) -> None:
        raise NotImplementedError

    def settle(self) -> None:
        """Let the backend see what changed (backends with edges see it at once)."""


class GpioHarness(SensorHarness):
    def __init__(self, factory: MockFactory, clock: ManualClock) -> None:
        self.profile = load_profile("direct-24")
        self.factory = factory
        self.clock = clock
        self.sensors = open_sensors(self.profile, clock=clock)

    def place(self, point: str) -> None:
        self.factory.pin(self.profile.sensors.pins[point]).drive_low()

    def lift(self, point: str) -> None:
        self.factory.pin(self.profile.sensors.pins[point]).drive_high()


class MatrixHarness(SensorHarness):
    def __init__(self, clock: ManualClock, diodes: bool = True) -> None:
        from navakankari.hal.matrix_sensors import MatrixSensors

        self.profile = load_profile("matrix-24")
        s = self.profile.sensors
        self.gpio = MatrixGPIO(s.rows, s.columns, diodes=diodes)
        self.clock = clock
        self.sleeps: list[float] = []
        self.sensors = MatrixSensors(
            s.rows, s.columns, s.cells, clock=clock, sleep=self.sleeps.append, gpio=self.gpio,
            thread=False,
        )

    def place(self, point: str) -> None:
        self.gpio.closed.add(self.profile.sensors.cells[point])

    def lift(self, point: str) -> None:
        self.gpio.closed.discard(self.profile.sensors.cells[point])

    def settle(self) -> None:
        self.sensors.scan_once()


class McpHarness(SensorHarness):
    def __init__(self, factory: MockFactory, clock: ManualClock) -> None:
        from navakankari.hal.mcp23017_sensors import Mcp23017Sensors

        self.profile = load_profile("mcp23017-24")
        s = self.profile.sensors
        self.int_pin = factory.pin(s.interrupt_pin)
        self.bus = FakeI2C(s.addresses, on_int=self._int)
        self.clock = clock
        self.sensors = Mcp23017Sensors(s.addresses, s.interrupt_pin, s.channels, i2c=self.bus, clock=clock)

    def _int(self, low: bool) -> None:
        if low:
            self.int_pin.drive_low()
        else:
            self.int_pin.drive_high()

    def _ground(self, point: str, grounded: bool) -> None:
        chip, bit = self.profile.sensors.channels[point]
        self.bus.ground(self.profile.sensors.addresses[chip], bit, grounded)

    def place(self, point: str) -> None:
        self._ground(point, True)

    def lift(self, point: str) -> None:
        self._ground(point, False)


class SimHarness(SensorHarness):
    def __init__(self, clock: ManualClock) -> None:
        self.profile = load_profile("sim-24")
        self.board = SimulatedBoard(self.profile.points, clock=clock)
        self.clock = clock
        self.sensors = self.board.sensors

    def place(self, point: str) -> None:
        self.board.place(point)

    def lift(self, point: str) -> None:
        self.board.lift(point)


@pytest.fixture(params=SENSOR_BACKENDS)
def sensor_harness(request: pytest.FixtureRequest, clock: ManualClock) -> Iterator[SensorHarness]:
    name = request.param
    if name == "gpiozero":
        harness: SensorHarness = GpioHarness(request.getfixturevalue("mock_factory"), clock)
    elif name == "matrix":
        harness = MatrixHarness(clock)
    elif name == "mcp23017":
        harness = McpHarness(request.getfixturevalue("mock_factory"), clock)
    else:
        harness = SimHarness(clock)
    try:
        yield harness
    finally:
        harness.sensors.close()


@dataclass
class LedHarness:
    """A strip on stand-in hardware; `frames` are the (r, g, b) per LED the hardware got."""

    strip: LedStrip
    raw: list[bytes] = field(default_factory=list)
    decode: Any = None

    def frames(self) -> list[list[RGB]]:
        return [self.decode(b) for b in self.raw]


def grb_to_rgb(data: bytes) -> list[RGB]:
    return [(data[i + 1], data[i], data[i + 2]) for i in range(0, len(data), 3)]


@pytest.fixture
def neopixel_capture(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The real neopixel library with only its lowest-level write captured."""
    import board
    import neopixel

    written: list[bytes] = []
    monkeypatch.setattr(board, "D18", board.NEOPIXEL, raising=False)
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: written.append(bytes(buf)))
    return written


@pytest.fixture(params=LED_BACKENDS)
def led_harness(request: pytest.FixtureRequest, clock: ManualClock) -> Iterator[LedHarness]:
    name = request.param
    profile = load_profile("direct-24")
    index = profile.leds.index
    if name == "neopixel":
        from navakankari.hal.neopixel_leds import NeoPixelStrip

        written = request.getfixturevalue("neopixel_capture")
        strip: LedStrip = NeoPixelStrip(index, pin=18, brightness=BRIGHTNESS)
        harness = LedHarness(strip, written, grb_to_rgb)
    elif name == "neopixel_spi":
        from navakankari.hal.neopixel_leds import NeoPixelSpiStrip

        spi = FakeSPI()
        strip = NeoPixelSpiStrip(index, spi=spi, brightness=BRIGHTNESS)
        harness = LedHarness(strip, spi.writes, lambda b: grb_to_rgb(decode_ws2812_spi(b)))
    else:
        board = SimulatedBoard(profile.points, clock=clock, led_index=index, brightness=BRIGHTNESS)
        strip = board.leds
        harness = LedHarness(strip)
        harness.frames = lambda: [list(f.pixels) for f in board.leds.frames]  # type: ignore[method-assign]
    try:
        yield harness
    finally:
        strip.close()
