"""Backends opened on stand-in hardware behind one harness, for the contract suite.

A sensor harness puts and lifts pebbles the way that backend's hardware would see them
(a GPIO pulled low, a matrix switch closed, an expander pin grounded) and `settle()` lets the
backend notice (one matrix scan); the clock is a ManualClock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpiozero.pins.mock import MockFactory

from hal_fakes import FakeI2C, MatrixGPIO
from navakankari.hal import load_profile
from navakankari.hal.board import open_sensors
from navakankari.hal.leds import RGB, LedStrip
from navakankari.hal.sensors import SensorArray
from navakankari.sim import ManualClock, SimulatedBoard

BRIGHTNESS = 0.25


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
        from navakankari.hal.backends.matrix_sensors import MatrixSensors

        self.profile = load_profile("matrix-24")
        s = self.profile.sensors
        self.gpio = MatrixGPIO(s.rows, s.columns, diodes=diodes)
        self.clock = clock
        self.sleeps: list[float] = []
        self.sensors = MatrixSensors(
            s.rows,
            s.columns,
            s.cells,
            clock=clock,
            sleep=self.sleeps.append,
            gpio=self.gpio,
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
        from navakankari.hal.backends.mcp23017_sensors import Mcp23017Sensors

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
