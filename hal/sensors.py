"""The sensor interface: which points see a pebble, and the raw edges as they happen.

A backend reports raw edges only. Deciding when a change has settled (reed switches bounce,
a sliding pebble closes the sensors it passes) is the firmware's job, with its own clock.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Self

log = logging.getLogger(__name__)

Clock = Callable[[], float]
"""Seconds as a float; only differences matter. `time.monotonic` on a board, a fake in tests."""


@dataclass(frozen=True, slots=True)
class SensorEvent:
    """One raw edge: the sensor under `point` now sees a pebble (`present`) or not, at time `t`."""

    point: str
    present: bool
    t: float


SensorCallback = Callable[[SensorEvent], None]


class SensorError(RuntimeError):
    """A sensor array cannot do what was asked (closed, already started, bad point)."""


class SensorArray(ABC):
    """A set of named occupancy sensors.

    The public surface (`points`, `read`, `start`, `stop`, `close`, context manager) is written
    here once. A backend must override `_read()` (the points that see a pebble now, read from
    the hardware). It may override `_start()` / `_stop()` (begin and end watching the hardware:
    attach edge handlers, start a scan thread) and `_close()` (release pins and buses). While
    started, a backend calls `self._emit(point, present)` for every change it sees; the base
    stamps the event with the injected clock, drops repeats of the state already reported, and
    calls the callback.

    The callback may be called from another thread (gpiozero's callback thread, a scan thread).
    It should only hand the event on, for instance with `loop.call_soon_threadsafe(queue.put_nowait,
    event)` into the asyncio loop that owns the game.
    """

    def __init__(self, points: Iterable[str], *, clock: Clock = time.monotonic) -> None:
        self._points = tuple(points)
        if len(set(self._points)) != len(self._points):
            raise ValueError("point names must be unique")
        self._clock = clock
        self._lock = threading.Lock()
        self._callback: SensorCallback | None = None
        self._known: dict[str, bool] = {}
        self._closed = False

    @property
    def points(self) -> tuple[str, ...]:
        return self._points

    @property
    def clock(self) -> Clock:
        return self._clock

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def started(self) -> bool:
        return self._callback is not None

    def read(self) -> frozenset[str]:
        """The points that see a pebble now."""
        self._check_open()
        return frozenset(self._read())

    def start(self, callback: SensorCallback) -> None:
        """Begin pushing every change to `callback` (possibly from another thread)."""
        self._check_open()
        if self._callback is not None:
            raise SensorError("sensor array already started")
        present = self.read()
        with self._lock:
            self._known = {p: p in present for p in self._points}
            self._callback = callback
        try:
            self._start()
        except BaseException:
            with self._lock:
                self._callback = None
            raise
        # An edge between the first read and the backend's start would be lost: catch up.
        now = self.read()
        for point in self._points:
            self._emit(point, point in now)

    def stop(self) -> None:
        """Stop pushing changes; `start` may be called again."""
        if self._callback is None:
            return
        self._stop()
        with self._lock:
            self._callback = None

    def close(self) -> None:
        """Stop and release the hardware. Calling it again does nothing."""
        if self._closed:
            return
        try:
            self.stop()
        finally:
            self._closed = True
            self._close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("started" if self.started else "idle")
        return f"<{type(self).__name__} {len(self._points)} points {state}>"

    # --- for backends -------------------------------------------------------------------

    @abstractmethod
    def _read(self) -> Iterable[str]:
        """Read the hardware: the points that see a pebble now."""

    def _start(self) -> None:
        """Begin watching the hardware; call `_emit` on every change."""

    def _stop(self) -> None:
        """Stop watching the hardware."""

    def _close(self) -> None:
        """Release pins, buses and threads."""

    def _emit(self, point: str, present: bool) -> None:
        """Report one edge seen by the hardware; repeats of the reported state are dropped."""
        with self._lock:
            callback = self._callback
            if callback is None or self._known.get(point) == present:
                return
            self._known[point] = present
            event = SensorEvent(point, present, self._clock())
        log.debug("%s %s at %.3f", point, "on" if present else "off", event.t)
        callback(event)

    def _check_open(self) -> None:
        if self._closed:
            raise SensorError("sensor array is closed")


def check_points(points: Sequence[str], mapping_keys: Iterable[str]) -> None:
    """Raise ValueError unless a backend's per-point table names exactly `points`."""
    keys = set(mapping_keys)
    missing = [p for p in points if p not in keys]
    extra = sorted(keys - set(points))
    if missing or extra:
        raise ValueError(f"points without a channel: {missing}; channels for unknown points: {extra}")
