"""Counting what the network sent that was refused, and saying so without flooding the log.

Anyone with a login on the broker can publish on a game's topics: a flood of garbage must
not become a flood of log lines. Each kind of rejection is counted; the first of a kind is
logged at once, later ones at most once a minute per kind, with how many came since.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

INTERVAL = 60.0  #: seconds between two log lines about the same kind of rejection


class Rejections:
    """The count of refused messages, by kind, and their rate-limited log lines."""

    def __init__(self, logger: logging.Logger, *,
                 clock: Callable[[], float] = time.monotonic,
                 interval: float = INTERVAL) -> None:
        self.logger = logger
        self.clock = clock
        self.interval = interval
        self.counts: dict[str, int] = {}
        self._logged_at: dict[str, float] = {}
        self._unlogged: dict[str, int] = {}

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def add(self, kind: str, why: str) -> None:
        """One message refused: counted under `kind`, logged if the kind is due."""
        self.counts[kind] = self.counts.get(kind, 0) + 1
        self._unlogged[kind] = self._unlogged.get(kind, 0) + 1
        now = self.clock()
        last = self._logged_at.get(kind)
        if last is not None and now - last < self.interval:
            return
        count = self._unlogged.pop(kind)
        self._logged_at[kind] = now
        if last is None or count == 1:
            self.logger.warning("online: dropped a message (%s): %s", kind, why)
        else:
            self.logger.warning("online: dropped %d messages (%s) in the last %.0f s, the "
                                "latest: %s", count, kind, now - last, why)
