"""Sensors on MCP23017 I2C expanders, read when their shared interrupt line falls.

Set up as the data sheet asks: IOCON first on every chip (INT outputs mirrored, A and B on one
pin, and open-drain), and only then any interrupt enabled, so the INT lines of all chips can be
wired together to one GPIO without one chip's push-pull INT (its power-on state) driving high
against another's low. GPA7/GPB7 are output-only on current silicon: they are outputs driven
low, never read as sensors. Every other pin is an input with its pull-up on and
interrupt-on-change enabled. A pebble pulls its pin low: bit 0 means occupied.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..sensors import Clock, SensorArray, check_points

log = logging.getLogger(__name__)

MAX_REREADS = 8
IOCON_MIRROR_ODR = 0x44
"""IOCON: MIRROR (bit 6) joins INTA and INTB; ODR (bit 2) makes INT open-drain."""
OUTPUT_ONLY = (7, 15)
"""GPA7 and GPB7 (bits 7 and 15): output-only on current MCP23017 silicon."""
INPUTS = 0xFFFF & ~sum(1 << bit for bit in OUTPUT_ONLY)
"""IODIR, GPPU and GPINTEN: every pin but GPA7/GPB7 (0x7F7F)."""


class Mcp23017Sensors(SensorArray):
    """Two (or more) MCP23017 at `addresses`; `channels` maps a point to (chip, pin 0..15)."""

    def __init__(
        self,
        addresses: Sequence[int],
        interrupt_pin: int,
        channels: Mapping[str, tuple[int, int]],
        *,
        i2c: Any = None,
        open_i2c: Callable[[], Any] | None = None,
        clock: Clock = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        """`i2c`: a bus to use and leave open; else `open_i2c()` (default: Blinka's I2C1)
        opens one that `close()` releases, as does a failure to open a chip or the INT pin."""
        super().__init__(channels, clock=clock)
        check_points(self.points, channels)
        from adafruit_mcp230xx.mcp23017 import MCP23017
        from gpiozero import DigitalInputDevice

        self._own_i2c = i2c is None
        if i2c is None:
            i2c = (open_i2c or _blinka_i2c)()
        self._i2c = i2c
        self._channels = dict(channels)
        self._bus = threading.Lock()
        self._chips = []
        self._int: Any = None
        used = {bit for _, bit in self._channels.values()}
        if used & set(OUTPUT_ONLY):
            raise ValueError("GPA7/GPB7 (pins 7 and 15) are output-only on the MCP23017; no sensor may use them")
        try:
            for address in addresses:  # every INT open-drain before any interrupt is enabled
                chip = MCP23017(i2c, address=address)
                chip.io_control = IOCON_MIRROR_ODR
                self._chips.append(chip)
            for chip in self._chips:
                chip.gpio = 0x0000  # the output latches: GPA7/GPB7 low
                chip.iodir = INPUTS
                chip.gppu = INPUTS
                chip.ipol = 0x0000
                chip.interrupt_configuration = 0x0000  # compare with the previous value: any change
            for chip in self._chips:
                chip.interrupt_enable = INPUTS
                chip.clear_ints()
            self._int = DigitalInputDevice(interrupt_pin, pull_up=True, pin_factory=pin_factory)
        except BaseException:
            self._close()  # a missing chip or a busy INT pin: release the bus opened here
            raise

    def _levels(self) -> list[int]:
        """Read GPIO of every chip; reading GPIO also clears a pending interrupt."""
        with self._bus:
            return [chip.gpio for chip in self._chips]

    def _present(self, levels: Sequence[int]) -> list[str]:
        return [p for p, (chip, bit) in self._channels.items() if not levels[chip] >> bit & 1]

    def _read(self) -> Iterable[str]:
        return self._present(self._levels())

    def poll(self) -> None:
        """Read every chip and report what changed; runs on every falling INT edge.

        The INT line is shared: a chip read early may change again while a later one is read,
        holding the line low with no new falling edge. So read again while it stays low.
        """
        for _ in range(MAX_REREADS):
            present = set(self._present(self._levels()))
            for point in self.points:
                self._emit(point, point in present)
            if not self._int.is_active:
                return
        log.warning("expander INT line still low after %d reads", MAX_REREADS)

    def _start(self) -> None:
        self._int.when_activated = self.poll
        if self._int.is_active:  # a change before start left INT low: clear it
            self.poll()

    def _stop(self) -> None:
        self._int.when_activated = None

    def _close(self) -> None:
        try:
            if self._int is not None:
                self._int.close()
        finally:
            if self._own_i2c:
                self._i2c.deinit()


def _blinka_i2c() -> Any:
    """I2C1 (GPIO2/3) through Blinka: /dev/i2c-1."""
    from .blinka import import_board

    board = import_board()
    import busio

    return busio.I2C(board.SCL, board.SDA)
