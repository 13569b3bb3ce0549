"""Sensors on their own GPIOs, read through gpiozero.

Each sensor (a reed switch, or the open-drain DRV5032FC hall switch) pulls its GPIO to ground
when a pebble is there; its 10 kΩ pull-up, with the Pi's internal one, holds it high
otherwise. Changes arrive as edges from gpiozero's callback thread, and a slow poll reads
every level as well: where edges never arrive (a kernel or a GPIO block without the
interrupt, as under an emulator, or one edge lost), a lifted pebble is still seen within
`poll` seconds. `DigitalInputDevice` rather than `Button`: 24 Buttons start 25 threads.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..scheduling import Scheduling
from ..sensors import Clock, SensorArray, check_points

log = logging.getLogger(__name__)

POLL_S = 0.1
"""Seconds between reads of every level besides the edges: within the tracker's settle time
(0.2 s by default), so a missed edge delays a move by at most this much."""


class GpioZeroSensors(SensorArray):
    """One `gpiozero.DigitalInputDevice(pin, pull_up=True)` per point; active means occupied.

    With `thread=False`, `start` begins no poll thread: the owner calls `poll_once()` on its
    own schedule. `wait(seconds)` is what the poll thread sleeps on (it returns True to stop);
    by default the thread's stop event, so `stop()` wakes it at once.
    """

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        clock: Clock = time.monotonic,
        pin_factory: Any = None,
        poll: float = POLL_S,
        thread: bool = True,
        wait: Callable[[float], bool] | None = None,
    ) -> None:
        super().__init__(pins, clock=clock)
        check_points(self.points, pins)
        if not poll > 0:
            raise ValueError(f"poll must be above 0 seconds, not {poll}")
        from gpiozero import DigitalInputDevice  # only on boards that use it

        self._poll = poll
        self._threaded = thread
        self._stop_event = threading.Event()
        self._wait = wait or self._stop_event.wait
        self._thread: threading.Thread | None = None
        # A poll reads then reports; an edge reported in between would be undone by the older
        # reading, so edges and polls report one at a time.
        self._reporting = threading.Lock()
        self._devices: dict[str, Any] = {}
        try:
            for point, pin in pins.items():
                self._devices[point] = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
        except Exception:
            self._close()
            raise

    def _read(self) -> Iterable[str]:
        return [p for p, d in self._devices.items() if d.is_active]

    def poll_once(self) -> frozenset[str]:
        """Read every level and report each change no edge reported."""
        with self._reporting:
            present = frozenset(self._read())
            for point in self.points:
                self._emit(point, point in present)
        return present

    def _start(self) -> None:
        for point, device in self._devices.items():
            device.when_activated = self._handler(point, True)
            device.when_deactivated = self._handler(point, False)
        if self._threaded:
            self._stop_event.clear()
            self._thread = threading.Thread(target=self._run, args=(Scheduling.current(),),
                                            name="gpio-poll", daemon=True)
            self._thread.start()

    def _run(self, scheduling: Scheduling) -> None:
        scheduling.apply()  # the creator's: the loop's realtime priority on a board
        while not self._wait(self._poll):
            try:
                self.poll_once()
            except (OSError, RuntimeError):
                log.exception("reading the sensor pins failed")

    def _handler(self, point: str, present: bool) -> Any:
        def handle() -> None:
            with self._reporting:
                self._emit(point, present)

        return handle

    def _stop(self) -> None:
        self._stop_event.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        self._thread = None
        for device in self._devices.values():
            device.when_activated = None
            device.when_deactivated = None

    def _close(self) -> None:
        for device in self._devices.values():
            device.close()
        self._devices.clear()
