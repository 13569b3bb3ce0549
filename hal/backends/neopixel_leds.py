"""WS2812 (NeoPixel) chains driven through Adafruit's CircuitPython libraries.

`NeoPixelStrip` uses `neopixel` (PWM on GPIO18 of a Pi 1-4, needs root; PIO on a Pi 5).
`NeoPixelSpiStrip` uses `neopixel_spi` on SPI0 MOSI, GPIO10 (no root, works on a Pi 5), with
bit patterns timed for the rate the Pi's SPI divider really gives.
Both get colours already gamma-corrected and capped by `LedStrip`, so the library's own
brightness stays at 1.0 and nothing is scaled twice.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from ..leds import DEFAULT_GAMMA, RGB, LedStrip
from .blinka import import_board

log = logging.getLogger(__name__)

SPI_HZ = 6_250_000
"""The SPI rate the Pi really gives near neopixel_spi's 6.4 MHz: its driver divides the
250 MHz core clock by an even number (250 / 40), so ask for it outright. One WS2812B bit is
one SPI byte of 8 x 160 ns."""
SPI_BIT0 = 0b11000000
"""A 0: high 320 ns, low 960 ns (the WS2812B wants 0.4 and 0.85 us, each +-150 ns)."""
SPI_BIT1 = 0b11111000
"""A 1: high 800 ns, low 480 ns (0.8 and 0.45 us +-150 ns). neopixel_spi's own 0b11110000
holds it high 640 ns at 6.25 MHz, short of the 650 ns the WS2812B needs."""


class _PixelBufStrip(LedStrip):
    """Shared by both: copy the frame into the library's buffer and `show()` it once."""

    _pixels: Any

    def _write(self, pixels: Sequence[RGB]) -> None:
        buf = self._pixels
        for i, rgb in enumerate(pixels):
            buf[i] = rgb
        buf.show()

    def _close(self) -> None:
        self._pixels.deinit()


class NeoPixelStrip(_PixelBufStrip):
    """A chain on a GPIO (`board.D<pin>`) through `neopixel.NeoPixel`."""

    def __init__(
        self,
        index: Mapping[str, int],
        *,
        pin: int = 18,
        count: int | None = None,
        pixel_order: str = "GRB",
        brightness: float = 1.0,
        gamma: float = DEFAULT_GAMMA,
    ) -> None:
        super().__init__(index, count=count, brightness=brightness, gamma=gamma)
        board = import_board()
        import neopixel  # only on boards that use it

        self._pixels = neopixel.NeoPixel(
            getattr(board, f"D{pin}"),
            self.count,
            brightness=1.0,
            auto_write=False,
            pixel_order=pixel_order,
        )


class NeoPixelSpiStrip(_PixelBufStrip):
    """A chain on SPI0 MOSI through `neopixel_spi.NeoPixel_SPI`; `spi` defaults to `board.SPI()`."""

    def __init__(
        self,
        index: Mapping[str, int],
        *,
        spi: Any = None,
        count: int | None = None,
        pixel_order: str = "GRB",
        brightness: float = 1.0,
        gamma: float = DEFAULT_GAMMA,
    ) -> None:
        super().__init__(index, count=count, brightness=brightness, gamma=gamma)
        import neopixel_spi  # only on boards that use it

        if spi is None:
            spi = import_board().SPI()
        self._pixels = neopixel_spi.NeoPixel_SPI(
            spi,
            self.count,
            brightness=1.0,
            auto_write=False,
            pixel_order=pixel_order,
            frequency=SPI_HZ,
            bit0=SPI_BIT0,
            bit1=SPI_BIT1,
        )
