"""Sensors on their own GPIOs, read through gpiozero.

Each reed switch (or open-collector hall switch) connects its GPIO to ground when a pebble is
there; the Pi's internal pull-up holds it high otherwise. Edges arrive from gpiozero's callback
thread: no polling. `DigitalInputDevice` rather than `Button`: 24 Buttons start 25 threads.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

from ..sensors import Clock, SensorArray, check_points

log = logging.getLogger(__name__)


class GpioZeroSensors(SensorArray):
    """One `gpiozero.DigitalInputDevice(pin, pull_up=True)` per point; active means occupied."""

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        clock: Clock = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        super().__init__(pins, clock=clock)
        check_points(self.points, pins)
        from gpiozero import DigitalInputDevice  # noqa: PLC0415 - only on boards that use it

        self._devices: dict[str, Any] = {}
        try:
            for point, pin in pins.items():
                self._devices[point] = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
        except Exception:
            self._close()
            raise

    def _read(self) -> Iterable[str]:
        return [p for p, d in self._devices.items() if d.is_active]

    def _start(self) -> None:
        for point, device in self._devices.items():
            device.when_activated = self._handler(point, True)
            device.when_deactivated = self._handler(point, False)

    def _handler(self, point: str, present: bool) -> Any:
        def handle() -> None:
            self._emit(point, present)

        return handle

    def _stop(self) -> None:
        for device in self._devices.values():
            device.when_activated = None
            device.when_deactivated = None

    def _close(self) -> None:
        for device in self._devices.values():
            device.close()
        self._devices.clear()
