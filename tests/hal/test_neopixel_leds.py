"""The NeoPixel backends through the real libraries, only the lowest-level write captured."""

from __future__ import annotations

from hal_fakes import FakeSPI, decode_ws2812_spi
from navakankari.hal import load_profile
from navakankari.hal.backends.neopixel_leds import NeoPixelSpiStrip, NeoPixelStrip

FRAME = {"a7": (255, 0, 0), "d7": (0, 255, 0), "g7": (0, 0, 255), "b6": (255, 255, 255), "d6": (128, 0, 0)}
# brightness 0.25 after gamma 2.6: 255 -> 64, 128 -> 11; GRB order on the wire
GRB_BYTES = bytes([0, 64, 0, 64, 0, 0, 0, 0, 64, 64, 64, 64, 0, 11, 0]) + bytes(3 * 19)


def test_neopixel_sends_exact_grb_bytes(neopixel_capture: list[bytes]) -> None:
    index = load_profile("direct-24").leds.index
    strip = NeoPixelStrip(index, pin=18, brightness=0.25)
    assert neopixel_capture == []  # auto_write is off: nothing until a frame is shown
    strip.show(FRAME)
    assert neopixel_capture == [GRB_BYTES]
    strip.close()
    assert neopixel_capture[-1] == bytes(72)


def test_neopixel_follows_the_profile_pixel_order(neopixel_capture: list[bytes]) -> None:
    strip = NeoPixelStrip({"a7": 0, "d7": 1}, pixel_order="RGB", brightness=1.0)
    strip.show({"a7": (255, 0, 0), "d7": (0, 0, 255)})
    assert neopixel_capture[-1] == bytes([255, 0, 0, 0, 0, 255])


def test_spare_leds_on_the_chain_stay_dark(neopixel_capture: list[bytes]) -> None:
    strip = NeoPixelStrip({"a7": 2}, count=4, brightness=1.0)
    strip.show({"a7": (255, 255, 255)})
    assert neopixel_capture[-1] == bytes(6) + bytes([255] * 3) + bytes(3)


def test_neopixel_spi_sends_one_frame_of_exact_grb_bits() -> None:
    spi = FakeSPI()
    strip = NeoPixelSpiStrip(load_profile("mcp23017-24").leds.index, spi=spi, brightness=0.25)
    strip.show(FRAME)
    assert len(spi.writes) == 1
    assert len(spi.writes[0]) == 704  # 64 reset bytes, 24 x 3 x 8 bit bytes, 64 reset bytes
    assert decode_ws2812_spi(spi.writes[0]) == GRB_BYTES
