"""Open the game store so that a damaged one never stops the board.

A store that cannot be read (garbage in the file, an unreadable game, an action that does not
play) is renamed beside itself, `games.sqlite3.damaged-20260101T120000`, kept for whoever
wants to look at it, and a fresh store is started; the notice returned says so, for the
journal and the page. A path that cannot hold a store at all is StoreUnusableError: that is
for the person who configured it, not something a restart can mend.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from navakankari.hal.words import N_, Phrase

from .database import CANNOT_USE, Store, StoreDamagedError, StoreUnusableError
from .writer_lock import WriterLock

log = logging.getLogger(__name__)

SIDE_FILES = ("-wal", "-shm", "-journal")
NOT_RESUMED = N_("the previous game could not be resumed: {reason}. The damaged store is kept "
                 "as {kept}; a new one was started.")
"""The notice beside the game when a damaged store was set aside."""


def open_store(path: Path, *, events_kept: int = 20_000, stamp: str | None = None,
               lock: WriterLock | None = None) -> tuple[Store, Phrase | None]:
    """The store at `path`, and a notice when the previous one had to be set aside. `lock`:
    the writer's (`hold_store`), held while a damaged store is set aside, so no other board
    sets it aside too; the store returned holds it, and it stays the caller's on an error."""
    store: Store | None = None
    try:
        store = Store(path, events_kept=events_kept, lock=lock)
        store.last_unfinished()  # the game the session will resume must be readable
        return store, None
    except StoreDamagedError as exc:
        reason = exc.problem  # a phrase: the notice is worded where it is shown
        if store is not None:
            store.close_quietly(keep_lock=True)
    kept = set_aside(path, stamp or time.strftime("%Y%m%dT%H%M%S"))
    notice = Phrase(NOT_RESUMED, reason=reason, kept=kept)
    log.warning("%s", notice)
    try:
        return Store(path, events_kept=events_kept, lock=lock), notice
    except StoreDamagedError as exc:  # pragma: no cover - a fresh file that is damaged at once
        raise StoreUnusableError(CANNOT_USE, file=path, problem=exc) from None


def set_aside(path: Path, stamp: str) -> Path:
    """Rename the store (and SQLite's side files) to a name no other store has."""
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    try:
        path.rename(kept)
        for suffix in SIDE_FILES:
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(kept.with_name(kept.name + suffix))
    except OSError as exc:
        raise StoreUnusableError(N_("cannot set the damaged game store {file} aside: {problem}"),
                                 file=path, problem=exc.strerror) from None
    return kept
