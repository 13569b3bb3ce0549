"""A ring x spoke switch matrix scanned through the RPi.GPIO API.

Each row (ring) is pulled low in turn while the others float; each column (spoke) has a
pull-up and reads low where a closed switch joins it to the low row. A diode in series with
every switch (a Schottky such as the BAT43, cathode towards the row) stops current flowing back through other
closed switches: without them, pebbles on three corners of a rectangle read a ghost on the
fourth. On a Pi 5 the `RPi.GPIO` module comes from rpi-lgpio.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..scheduling import Scheduling
from ..sensors import Clock, SensorArray, check_points

log = logging.getLogger(__name__)

SETTLE_S = 10e-6
"""Time for a column to follow its row through the switch and pull-up before it is read."""


class MatrixSensors(SensorArray):
    """Scans `rows` x `columns` at `scan_hz` in a thread; `scan_once()` runs one pass.

    With `thread=False`, `start` begins no thread: the owner calls `scan_once()` on its own
    schedule (tests, or an event loop that prefers to scan itself).
    """

    def __init__(
        self,
        rows: Sequence[int],
        columns: Sequence[int],
        cells: Mapping[str, tuple[int, int]],
        *,
        scan_hz: float = 100.0,
        clock: Clock = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        gpio: Any = None,
        thread: bool = True,
    ) -> None:
        super().__init__(cells, clock=clock)
        check_points(self.points, cells)
        if gpio is None:
            import RPi.GPIO  # only on boards that use it

            gpio = RPi.GPIO
        self._gpio = gpio
        self._rows = tuple(rows)
        self._columns = tuple(columns)
        self._by_cell = {cell: point for point, cell in cells.items()}
        self._period = 1.0 / scan_hz
        self._sleep = sleep
        self._bus = threading.Lock()
        self._stop_event = threading.Event()
        self._thread: threading.Thread | None = None
        self._threaded = thread
        gpio.setwarnings(False)
        gpio.setmode(gpio.BCM)
        for pin in self._rows:
            gpio.setup(pin, gpio.IN)
        for pin in self._columns:
            gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_UP)

    def _scan(self) -> frozenset[str]:
        gpio = self._gpio
        present = set()
        with self._bus:
            for r, row in enumerate(self._rows):
                gpio.setup(row, gpio.OUT, initial=gpio.LOW)
                self._sleep(SETTLE_S)
                for c, column in enumerate(self._columns):
                    if gpio.input(column) == gpio.LOW and (r, c) in self._by_cell:
                        present.add(self._by_cell[(r, c)])
                gpio.setup(row, gpio.IN)
        return frozenset(present)

    def _read(self) -> Iterable[str]:
        return self._scan()

    def scan_once(self) -> frozenset[str]:
        """Scan the matrix once and report every change since the last scan."""
        present = self._scan()
        for point in self.points:
            self._emit(point, point in present)
        return present

    def _start(self) -> None:
        if not self._threaded:
            return
        self._stop_event.clear()
        self._thread = threading.Thread(target=self._run, args=(Scheduling.current(),),
                                        name="matrix-scan", daemon=True)
        self._thread.start()

    def _run(self, scheduling: Scheduling) -> None:
        scheduling.apply()  # the creator's: the loop's realtime priority on a board
        next_scan = self._clock()
        while not self._stop_event.is_set():
            try:
                self.scan_once()
            except RuntimeError:
                log.exception("matrix scan failed")
            next_scan += self._period
            delay = next_scan - self._clock()
            if delay < 0:  # fell behind (a busy system): do not try to catch up
                next_scan = self._clock()
                delay = 0
            if self._sleep is time.sleep:
                self._stop_event.wait(delay)  # wakes at once on stop()
            else:
                self._sleep(delay)

    def _stop(self) -> None:
        self._stop_event.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        self._thread = None

    def _close(self) -> None:
        self._gpio.cleanup(list(self._rows) + list(self._columns))
