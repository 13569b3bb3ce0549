"""The NeoPixel backends through the real libraries, only the lowest-level write captured."""

from __future__ import annotations

import neopixel_spi
import pytest
from hal_fakes import FakeSPI, TimingError, decode_ws2812_spi, pi_spi_hz
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
    assert spi.frequency == 6_250_000
    assert len(spi.writes[0]) == 63 + 24 * 3 * 8 + 63  # about 80 us of reset each side at 6.25 MHz
    assert decode_ws2812_spi(spi.writes[0], spi.frequency) == GRB_BYTES


def test_the_pis_spi_divider_gives_6_25_mhz_for_6_4() -> None:
    assert pi_spi_hz(6_400_000) == 6_250_000 and pi_spi_hz(6_250_000) == 6_250_000
    assert pi_spi_hz(8_000_000) == 250_000_000 / 32 and pi_spi_hz(7_000_000) == 250_000_000 / 36


def test_the_librarys_own_pattern_is_too_short_a_one_at_the_pis_rate() -> None:
    """neopixel_spi's defaults (6.4 MHz asked, 0b11110000): 640 ns high at the 6.25 MHz the Pi
    gives, under the WS2812B's 650 ns; the fake judges times, so it refuses them."""
    spi = FakeSPI()
    pixels = neopixel_spi.NeoPixel_SPI(spi, 1, auto_write=False)
    pixels[0] = (255, 255, 255)
    pixels.show()
    with pytest.raises(TimingError, match="high 640 ns, low 640 ns at 6.25 MHz"):
        decode_ws2812_spi(spi.writes[-1], spi.frequency)


@pytest.mark.parametrize("byte", [0b11111000, 0b11000000])
def test_the_fake_reads_a_bit_from_its_times_not_its_pattern(byte: int) -> None:
    reset = bytes(64)
    stream = reset + bytes([byte] * 8) + reset
    want = 0xFF if byte == 0b11111000 else 0x00
    assert decode_ws2812_spi(stream, 6_250_000) == bytes([want])
    with pytest.raises(TimingError):  # at 10 MHz a 1's 500 ns high is no bit at all
        decode_ws2812_spi(stream, 10_000_000)
    with pytest.raises(TimingError, match="reset"):
        decode_ws2812_spi(bytes(4) + bytes([byte] * 8) + reset, 6_250_000)
