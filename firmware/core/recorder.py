"""The raw sensor events of the game in play, kept in the store: the recording `navakankari
replay` runs through the same session again.

A recording's times count from its own start (`Clocked.t0`), its first line names the game or
how the board's menu stood when the game was chosen there, and its events are written with
the game's next action, in batches, or when the daemon asks: a power cut loses a few seconds
of edges at most, never an action's.
"""

from __future__ import annotations

from collections.abc import Iterable

from navakankari.hal.sensors import SensorEvent

from ..store.database import Store
from .recording_head import Clocked

EVENT_BATCH = 200
"""Raw events are written with the next action, or in batches of this many."""


class RawRecorder:
    """One game's recording: the stored game it belongs to, and its events not yet written."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self.game_id: int | None = None  #: the stored game being recorded (None: none is)
        self.events = Clocked()

    def start(self, now: float) -> None:
        """A fresh recording whose time 0 is `now`, of no stored game yet."""
        self.events = Clocked(t0=now)
        self.game_id = None

    def begin(self, game_id: int, head: str, *, events: Clocked | None = None,
              standing: Iterable[str] = ()) -> None:
        """Record stored game `game_id` under the first line `head`: from `events` (the menu's
        recording, when the game was chosen on the board), else from the `standing` pebbles
        of its start position, set down at time 0 so it replays from an empty board."""
        assert self.store is not None
        self.game_id = game_id
        if events is not None:
            self.events = events
        self.store.set_recording_head(game_id, head)
        if events is None:
            self.events.pending = [(0.0, p, True) for p in standing]
        self.flush()

    def resume(self, game_id: int, now: float, raw: set[str]) -> None:
        """Continue stored game `game_id`'s recording after its last event, noting what changed
        while no one was watching (the sensors read `raw` now)."""
        assert self.store is not None
        self.game_id = game_id
        events = self.store.events(game_id)
        last = max((e.t for e in events), default=0.0)
        seen: set[str] = set()
        for e in events:
            (seen.add if e.present else seen.discard)(e.point)
        self.events = Clocked(t0=now - (last + 1.0))
        self.events.pending = [(last + 0.5, p, p in raw) for p in sorted(seen ^ raw)]
        self.flush()

    def record(self, event: SensorEvent) -> None:
        """A raw edge, kept where the store keeps events; a full batch is written."""
        if self.store is None or not self.store.events_kept:
            return
        self.events.pending.append((round(event.t - self.events.t0, 6), event.point,
                                    event.present))
        if len(self.events.pending) >= EVENT_BATCH:
            self.flush()

    def take(self) -> list[tuple[float, str, bool]]:
        """The events not yet written, to be written with an action: they leave the buffer."""
        pending, self.events.pending = self.events.pending, []
        return pending

    @property
    def pending(self) -> bool:
        """Events wait to be written."""
        return bool(self.events.pending) and self.store is not None

    def flush(self) -> None:
        """Write the buffered events to the stored game."""
        if self.store is not None and self.game_id is not None and self.events.pending:
            self.store.add_events(self.game_id, self.events.pending)
            self.events.pending = []
