"""Raw sensor edges to a settled occupancy: settling, and sensors that chatter without end.

The first step of every tick. A change counts once the board has kept still for `settle`
seconds (a reed's bounce, a pebble slid across other points). A sensor that chatters for
`fault_window` seconds with more than `fault_edges` edges, never still for `settle`, is
faulty: read as it last settled, so the rest of the board still settles, until it has been
quiet for `fault_quiet`. Whatever is active (the menu or the tracker) reads the settled
occupancy from here. Time comes only from event stamps and `tick(now)`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from navakankari.engine.boards import Board
from navakankari.hal.sensors import SensorEvent

log = logging.getLogger(__name__)


class SensingSettings(Protocol):
    """The timings sensing reads (the tracker's settings hold them)."""

    @property
    def settle(self) -> float: ...
    @property
    def fault_edges(self) -> int: ...
    @property
    def fault_window(self) -> float: ...
    @property
    def fault_quiet(self) -> float: ...


@dataclass(frozen=True)
class Edge:
    """What one raw edge did: the point (as its bit) whose reading changed, 0 when the
    sensor is ignored as faulty; and whether it was found faulty just now."""

    bit: int
    faulty_now: bool = False


@dataclass(frozen=True)
class Reading:
    """What the board reads now, as the tracker follows it: the settled occupancy and the
    faulty sensors (bit masks), when the last edge that counts came, and whether nothing
    has moved since the last settled reading."""

    settled: int
    faulty: int = 0
    last_change: float = 0.0
    still: bool = True


class Sensing:
    """The sensors of one board, as bit masks over its points (`board.index`)."""

    def __init__(self, board: Board, settings: SensingSettings, *,
                 occupied: Iterable[str] = (), now: float = 0.0) -> None:
        self.board = board
        self.settings = settings
        self.raw = board.mask(p for p in occupied if board.has_point(p))
        self.settled = self.raw
        self.last_change = now  #: when the last edge that counts came
        self.faulty = 0  #: sensors ignored for chattering
        self._runs: dict[int, list[float]] = {}  #: sensor (bit) -> [run start, last edge, edges]
        self._warned = 0  #: sensors a warning was logged for (once each)

    # -- inputs ----------------------------------------------------------------------------
    def feed(self, event: SensorEvent) -> Edge | None:
        """One raw edge; None when it changes nothing (a point off this board, a repeat)."""
        board = self.board
        if not board.has_point(event.point):
            return None
        bit = 1 << board.index(event.point)
        raw = self.raw | bit if event.present else self.raw & ~bit
        if raw == self.raw:
            return None
        was_faulty = self.faulty & bit
        if self._chatters(bit, event.t):
            self.raw = raw  # a faulty sensor: nothing waits on it
            return Edge(0, faulty_now=not was_faulty)
        self.raw = raw
        self.last_change = max(self.last_change, event.t)
        return Edge(bit)

    def tick(self, now: float) -> tuple[bool, bool]:
        """Let time pass: (the settled occupancy changed, a faulty sensor is read again)."""
        recovered = self._recover(now)
        view = self.view()
        if view != self.settled and now >= self.last_change + self.settings.settle:
            self.settled = view
            return True, recovered
        return False, recovered

    def deadline(self) -> float | None:
        times = []
        if self.view() != self.settled:
            times.append(self.last_change + self.settings.settle)
        if self.faulty:
            times.append(min(self._runs[b][1] for b in self._bits(self.faulty))
                         + self.settings.fault_quiet)
        return min(times) if times else None

    # -- what it reads ---------------------------------------------------------------------
    def view(self) -> int:
        """The raw occupancy with faulty sensors read as they were last settled."""
        return (self.raw & ~self.faulty) | (self.settled & self.faulty)

    def still(self) -> bool:
        """Nothing on the board has moved since the last settled reading."""
        return self.view() == self.settled

    def reading(self) -> Reading:
        return Reading(self.settled, self.faulty, self.last_change, self.still())

    def names(self, mask: int) -> frozenset[str]:
        return frozenset(self.board.names(mask))

    # -- faulty sensors --------------------------------------------------------------------
    def _chatters(self, bit: int, t: float) -> bool:
        """Note an edge of one sensor; True if the sensor is (now) faulty. A run of edges
        lasts while none comes more than `settle` after the one before."""
        run = self._runs.get(bit)
        if run is None or t - run[1] > self.settings.settle:
            run = self._runs[bit] = [t, t, 0]
        run[1] = t
        run[2] += 1
        if self.faulty & bit:
            return True
        if run[2] > self.settings.fault_edges and t - run[0] >= self.settings.fault_window:
            self.faulty |= bit
            name = self.board.names(bit)[0]
            if not self._warned & bit:
                self._warned |= bit
                log.warning("sensor %s chatters (%d edges in %.1f s): ignored until quiet "
                            "for %.0f s", name, run[2], t - run[0], self.settings.fault_quiet)
            return True
        return False

    def _recover(self, now: float) -> bool:
        """Sensors quiet for long enough are read again (after the usual settling)."""
        quiet = [b for b in self._bits(self.faulty)
                 if now >= self._runs[b][1] + self.settings.fault_quiet]
        for bit in quiet:
            self.faulty &= ~bit
            log.info("sensor %s is quiet again", self.board.names(bit)[0])
        if quiet:
            self.last_change = max(self.last_change, now)
        return bool(quiet)

    def _bits(self, mask: int) -> list[int]:
        return [1 << i for i in self.board.bits(mask)]
