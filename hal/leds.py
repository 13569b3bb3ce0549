"""The light interface: one RGB LED per point, a whole frame written at once.

Brightness cap and gamma correction live here, in one table, so every backend (NeoPixel over
PWM, over SPI, the simulator) puts out the same values for the same frame.
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import TracebackType

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]
DARK: RGB = (0, 0, 0)
DEFAULT_GAMMA = 2.6
"""WS2812 output is linear in duty cycle; the eye is not. 2.6 is the figure Adafruit uses."""


class LedError(RuntimeError):
    """A light strip cannot do what was asked (closed, unknown point, bad colour)."""


def correction_table(brightness: float, gamma: float = DEFAULT_GAMMA) -> bytes:
    """256 output values: gamma applied, then scaled by the brightness cap (0..1)."""
    if not 0.0 <= brightness <= 1.0:
        raise ValueError(f"brightness must be within 0..1, not {brightness}")
    if gamma <= 0:
        raise ValueError(f"gamma must be positive, not {gamma}")
    return bytes(round(((v / 255) ** gamma) * 255 * brightness) for v in range(256))


def on_screen(pixel: RGB, brightness: float) -> RGB:
    """The sRGB colour that shows on a screen the light an LED emits when sent `pixel`.

    `pixel` is the corrected value the LED receives (see `LedStrip.corrected`). A WS2812's
    light is linear in that value (PWM duty); a screen's light is not linear in an sRGB value.
    So the emitted light, taken relative to the most the cap lets an LED emit (255 x
    `brightness`), is encoded with the sRGB transfer function (IEC 61966-2-1). A screen pixel
    then gives off light in proportion to the LED's: the gamma curve the strip applied is
    undone by the screen's own, the cap is scaled up so the brightest LED the cap allows is
    full brightness on screen (a screen at a quarter of its light would be unreadable, and the
    eye adapts to the board's brightest LED the same way), and a value the correction turned
    to 0 is black on screen too: the page shows what the board shows, not what was asked.
    """
    if not 0.0 < brightness <= 1.0:
        raise ValueError(f"brightness must be within 0..1 and above 0, not {brightness}")
    top = 255 * brightness
    r, g, b = (_srgb_encode(min(1.0, c / top)) for c in pixel)
    return (r, g, b)


def _srgb_encode(linear: float) -> int:
    """IEC 61966-2-1: linear light 0..1 -> an 8-bit sRGB value."""
    v = 12.92 * linear if linear <= 0.0031308 else 1.055 * linear ** (1 / 2.4) - 0.055
    return round(255 * v)


def _check_rgb(point: str, rgb: object) -> RGB:
    if (
        not isinstance(rgb, tuple)
        or len(rgb) != 3
        or not all(isinstance(c, int) and 0 <= c <= 255 for c in rgb)
    ):
        raise LedError(f"{point}: colour must be three ints 0..255, not {rgb!r}")
    return rgb


class LedStrip(ABC):
    """One addressable RGB LED per named point.

    The public surface (`points`, `show`, `set`/`flush`, `off`, `close`, `brightness`,
    `frames_written`, context manager) is written here once. A backend must override
    `_write(pixels)`, which receives one corrected (r, g, b) per LED in chain order and writes
    them to the hardware in one go. It may override `_close()` to release the hardware; the base
    writes a dark frame before calling it.
    """

    def __init__(
        self,
        index: Mapping[str, int],
        *,
        count: int | None = None,
        brightness: float = 1.0,
        gamma: float = DEFAULT_GAMMA,
    ) -> None:
        self._index = dict(index)
        self._count = count if count is not None else len(self._index)
        used = list(self._index.values())
        if len(set(used)) != len(used) or any(not 0 <= i < self._count for i in used):
            raise ValueError(f"LED indices must be distinct and within 0..{self._count - 1}")
        self._gamma = gamma
        self._table = correction_table(brightness, gamma)
        self._brightness = brightness
        self._pending: dict[str, RGB] = {}
        self._lock = threading.Lock()
        self._frames_written = 0
        self._closed = False

    @property
    def points(self) -> tuple[str, ...]:
        return tuple(self._index)

    @property
    def count(self) -> int:
        """LEDs on the chain (may exceed the points: spare LEDs stay dark)."""
        return self._count

    @property
    def index(self) -> Mapping[str, int]:
        return dict(self._index)

    @property
    def brightness(self) -> float:
        """The cap (0..1) applied to every channel after gamma."""
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        self._table = correction_table(value, self._gamma)
        self._brightness = value

    @property
    def frames_written(self) -> int:
        return self._frames_written

    @property
    def closed(self) -> bool:
        return self._closed

    def corrected(self, rgb: RGB) -> RGB:
        """What the LED is sent for the colour `rgb` (gamma, then brightness cap)."""
        t = self._table
        return (t[rgb[0]], t[rgb[1]], t[rgb[2]])

    def show(self, colours: Mapping[str, RGB]) -> None:
        """Light a whole frame: the points named get their colour, all others go dark."""
        self._check_open()
        frame = {p: _check_rgb(p, c) for p, c in colours.items()}
        unknown = sorted(set(frame) - set(self._index))
        if unknown:
            raise LedError(f"no LED for points {unknown}")
        with self._lock:
            self._pending = frame
            self._flush_locked()

    def set(self, point: str, rgb: RGB) -> None:
        """Change one point in the pending frame; nothing is written until `flush`."""
        self._check_open()
        if point not in self._index:
            raise LedError(f"no LED for point {point!r}")
        with self._lock:
            self._pending[point] = _check_rgb(point, rgb)

    def flush(self) -> None:
        """Write the pending frame (as built by `set`)."""
        self._check_open()
        with self._lock:
            self._flush_locked()

    def off(self) -> None:
        """Turn every LED off."""
        self.show({})

    def close(self) -> None:
        """Turn every LED off and release the hardware. Calling it again does nothing."""
        if self._closed:
            return
        try:
            self.off()
        except (OSError, RuntimeError, ValueError):  # a broken strip must still be released
            log.exception("could not turn the LEDs off")
        finally:
            self._closed = True
            self._close()

    def __enter__(self) -> LedStrip:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._count} LEDs brightness {self._brightness}>"

    # --- for backends -------------------------------------------------------------------

    @abstractmethod
    def _write(self, pixels: Sequence[RGB]) -> None:
        """Send one corrected colour per LED, in chain order, to the hardware at once."""

    def _close(self) -> None:
        """Release the hardware."""

    def _flush_locked(self) -> None:
        pixels = [DARK] * self._count
        for point, rgb in self._pending.items():
            pixels[self._index[point]] = self.corrected(rgb)
        self._write(pixels)
        self._frames_written += 1

    def _check_open(self) -> None:
        if self._closed:
            raise LedError("light strip is closed")
