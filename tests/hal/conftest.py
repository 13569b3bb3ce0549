"""Fixtures: every sensor and LED backend opened on stand-in hardware (see hal_harness)."""

from __future__ import annotations

import os
from collections.abc import Iterator

# Blinka reads this when `board` is first imported: a generic board whose pixel code runs on x86.
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hal_fakes import FakeSPI, decode_ws2812_spi
from hal_harness import (
    BRIGHTNESS,
    GpioHarness,
    LedHarness,
    McpHarness,
    MatrixHarness,
    SensorHarness,
    SimHarness,
    grb_to_rgb,
)
from navakankari.hal import load_profile
from navakankari.hal.leds import LedStrip
from navakankari.sim import ManualClock, SimulatedBoard

SENSOR_BACKENDS = ["gpiozero", "matrix", "mcp23017", "sim"]
LED_BACKENDS = ["neopixel", "neopixel_spi", "sim"]


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
        from navakankari.hal.backends.neopixel_leds import NeoPixelStrip

        written = request.getfixturevalue("neopixel_capture")
        strip: LedStrip = NeoPixelStrip(index, pin=18, brightness=BRIGHTNESS)
        harness = LedHarness(strip, written, grb_to_rgb)
    elif name == "neopixel_spi":
        from navakankari.hal.backends.neopixel_leds import NeoPixelSpiStrip

        spi = FakeSPI()
        strip = NeoPixelSpiStrip(index, spi=spi, brightness=BRIGHTNESS)
        harness = LedHarness(strip, spi.writes, lambda b: grb_to_rgb(decode_ws2812_spi(b, spi.frequency)))
    else:
        board = SimulatedBoard(profile.points, clock=clock, led_index=index, brightness=BRIGHTNESS)
        strip = board.leds
        harness = LedHarness(strip)
        harness.frames = lambda: [list(f.pixels) for f in board.leds.frames]  # type: ignore[method-assign]
    try:
        yield harness
    finally:
        strip.close()
