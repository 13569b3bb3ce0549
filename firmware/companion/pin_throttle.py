"""PIN attempts throttled per client, so a PIN cannot be guessed by trying them all.

Each client (its IP address) has a bucket of `burst` attempts that refills at `per_minute`.
A wrong PIN takes one; a right one takes none, so someone who knows the PIN is never slowed.
When the bucket is empty the request is refused before the PIN is looked at, with the
seconds until the next attempt is allowed. Time comes from an injected clock.
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

BURST = 10
PER_MINUTE = 5
MAX_CLIENTS = 1024
"""Clients remembered at once; the one seen longest ago is forgotten first."""


@dataclass
class _Bucket:
    tokens: float
    t: float
    warned: bool = False


class PinThrottle:
    """Counts wrong PINs per client; `wait(client)` says how long it must wait (0: may try)."""

    def __init__(self, *, burst: int = BURST, per_minute: float = PER_MINUTE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def _bucket(self, client: str) -> _Bucket:
        now = self.clock()
        bucket = self._buckets.get(client)
        if bucket is None:
            bucket = self._buckets[client] = _Bucket(float(self.burst), now)
            while len(self._buckets) > MAX_CLIENTS:
                self._buckets.popitem(last=False)
        else:
            bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.t) * self.rate)
            bucket.t = now
            self._buckets.move_to_end(client)
        return bucket

    def wait(self, client: str) -> int:
        """Whole seconds until `client` may try a PIN again; 0 when it may now. The first
        refusal of a run is logged as a warning (one line, not one per request)."""
        bucket = self._bucket(client)
        if bucket.tokens >= 1:
            bucket.warned = False
            return 0
        if not bucket.warned:
            bucket.warned = True
            log.warning("too many wrong PINs from %s: PIN requests refused for a while", client)
        return max(1, math.ceil((1 - bucket.tokens) / self.rate))

    def wrong(self, client: str) -> None:
        """Count a wrong PIN from `client`."""
        bucket = self._bucket(client)
        bucket.tokens = max(0.0, bucket.tokens - 1)
