"""Sensors on MCP23017 I2C expanders, read when their shared interrupt line falls.

Every expander pin is an input with its pull-up on and interrupt-on-change enabled; the INT
outputs are mirrored (A and B on one pin) and open-drain, so the INT lines of all chips can be
wired together to one GPIO. A pebble closes its switch to ground: bit 0 means occupied.
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
        from adafruit_mcp230xx.mcp23017 import MCP23017  # noqa: PLC0415
        from gpiozero import DigitalInputDevice  # noqa: PLC0415

        self._own_i2c = i2c is None
        if i2c is None:
            i2c = (open_i2c or _blinka_i2c)()
        self._i2c = i2c
        self._channels = dict(channels)
        self._bus = threading.Lock()
        self._chips = []
        self._int: Any = None
        try:
            for address in addresses:
                chip = MCP23017(i2c, address=address)
                chip.iodir = 0xFFFF
                chip.gppu = 0xFFFF
                chip.ipol = 0x0000
                chip.interrupt_configuration = 0x0000  # compare with the previous value: any change
                chip.io_control = IOCON_MIRROR_ODR
                chip.interrupt_enable = 0xFFFF
                chip.clear_ints()
                self._chips.append(chip)
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
    from .blinka import import_board  # noqa: PLC0415

    board = import_board()
    import busio  # noqa: PLC0415

    return busio.I2C(board.SCL, board.SDA)
