"""The game store: SQLite with WAL and synchronous=FULL.

Every committed action is written (and synced) before its lights are shown, so a power
cut never loses a move the board acknowledged. The store also keeps each game's rules and
players, and the raw sensor events of the current game (bounded), in the replay format;
those are written without waiting for the disk (the next synced write carries them).

A store writes where it is called, or, once `write_behind` is on (the daemon), in a thread
of its own, one transaction after another in the order asked: a synced write took 0.9-3.5 s
on a busy disk, and the daemon's loop must go on meanwhile (sensors, the page, online play).
Whoever acknowledges a write then waits for `settled` first; a read waits for the writes
asked before it, so it sees them. That wait blocks the thread that reads: the page's server
awaits the writes first (`Daemon.stored`), before a state, a record or a change (a new game
reads the adaptive computer's level), so its reads find none under way; the session's own
reads on the loop when the board itself starts a game (the adaptive level after a game's
end, online play's kept link at start-up) still wait there for the write before them, once
a game at most, since moving them off the loop would split the session's synchronous game
start.

A store has one writer, the board (`hold_store`, the lock beside it in `writer_lock`): it
gives new games' ids before writing them and resumes the last unfinished game, which a second
board on the same file would do too.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from navakankari.engine.adaptive import Played, Result
from navakankari.engine.errors import RulesError
from navakankari.engine.outcome import Reason
from navakankari.engine.player_spec import ADAPTIVE_COMPUTER
from navakankari.engine.rules import Rules
from navakankari.engine.variants import start_game
from navakankari.hal.sensors import SensorEvent
from navakankari.sim.recording import event_to_line
from navakankari.hal.words import N_, Phrase, Words, phrase_or

from .writer_lock import HeldElsewhereError, WriterLock, lock_file

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    rules TEXT NOT NULL,
    players TEXT NOT NULL,
    start TEXT,
    outcome TEXT,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    text TEXT NOT NULL,
    t REAL NOT NULL,
    PRIMARY KEY (game, ply)
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    t REAL NOT NULL,
    point TEXT NOT NULL,
    present INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_game ON events(game, id);
CREATE TABLE IF NOT EXISTS recording_heads (
    game INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    head TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the level the adaptive computer played at in each game (NULL: none played), and the
    # seed of the game's search (NULL in games stored before it was kept).
    ("ALTER TABLE games ADD COLUMN level INTEGER", "ALTER TABLE games ADD COLUMN seed INTEGER"),
)
"""Changes to SCHEMA, in order: a store at version N (SQLite's user_version) gets the ones
after N when it is opened, so a store written by an older board keeps its games."""


EXIT_STORE_UNUSABLE = 73
"""Exit status when the store's path cannot be used (sysexits' EX_CANTCREAT); the systemd
unit lists it in RestartPreventExitStatus=, since restarting cannot fix a path."""


UNRECORDED = N_("cannot write the game store {path}: {problem}; the game goes on but is no "
                "longer recorded")
"""The notice beside the game once a write to the store failed."""

class BoardEnding(str, Enum):
    """How the board, not the rules, ended a game; kept in a game's outcome as its reason
    code, beside the rules' own (`navakankari.engine.Reason`)."""

    CLEARED = "cleared"  #: the board was cleared during the game and the hands confirmed it
    ABANDONED = "abandoned"  #: the board stopped with the game unfinished
    AGREED = "agreed"  #: the players agreed a draw

    def outcome(self) -> dict[str, Any]:
        """The stored outcome of a game ended this way: no winner, this code as the reason."""
        return {"winner": None, "reason": self.value}


DRAWN_REASONS = frozenset(r.value for r in Reason) | {BoardEnding.AGREED.value}
"""The reasons a game without a winner was drawn (the board's other endings leave it open)."""

ADAPTIVE_NAME = str(ADAPTIVE_COMPUTER)
"""How the store's players name the adaptive computer."""

RESIGNED = "resigned"
"""The reason kept for a game a side resigned; its opponent is the stored winner."""


class StoreError(RuntimeError):
    """The store cannot be opened or holds something unreadable. What is wrong is a catalog
    message (`problem`, a phrase: the file and the system's own words are its places), so a
    command says it in the maker's language (`words`); the error's text is the English."""

    def __init__(self, message: str, /, **places: object) -> None:
        self.problem = Phrase(message, **places)
        super().__init__(self.problem)

    def words(self, tr: Words) -> str:
        return self.problem.words(tr)


CANNOT_USE = N_("cannot use {file} for the game store: {problem}")
CANNOT_READ = N_("cannot read the game store {file}: {problem}")


class StoreUnusableError(StoreError):
    """The store's path cannot hold a store (a folder, under a file, not writable)."""


class StoreDamagedError(StoreError):
    """The store's file opened but its contents are damaged or unreadable."""


class StoreClosedError(StoreError):
    """The store was used after it was closed."""


class StoreInUseError(StoreError):
    """Another board writes the store: it is refused at start, as a damaged store is (a
    restart may find the other one stopped)."""


IN_USE = N_("the game store {file} is in use by another board (process {pid}): stop that "
            "one first, or give this board a store of its own")
IN_USE_UNNAMED = N_("the game store {file} is in use by another board: stop that one first, "
                    "or give this board a store of its own")


def hold_store(path: Path) -> WriterLock:
    """The lock that makes this board the store's one writer (`writer_lock`), until released;
    StoreInUseError, naming the other process where its lock file says it, when another
    board holds it. A path that cannot hold a store is refused first, as `Store` does."""
    _check_usable(path)
    try:
        return WriterLock(path)
    except HeldElsewhereError as exc:
        if exc.pid is None:
            raise StoreInUseError(IN_USE_UNNAMED, file=path) from None
        raise StoreInUseError(IN_USE, file=path, pid=exc.pid) from None
    except OSError as exc:
        raise StoreUnusableError(N_("cannot use {file} for the game store: cannot make its "
                                    "lock file {lock}: {problem}"), file=path,
                                 lock=lock_file(path), problem=exc.strerror) from None


@dataclass(frozen=True)
class StoredGame:
    id: int
    created: float
    rules: Rules
    players: dict[str, str]
    start: str | None
    actions: tuple[str, ...]
    outcome: dict[str, Any] | None
    finished: bool
    level: int | None = None  #: the level the adaptive computer played at, if one played
    seed: int | None = None  #: the seed of the game's search, if the store kept one


class Store:
    """One SQLite file, used from one thread (the daemon's loop), which may hand its writes
    to the store's own writer thread (`write_behind`). `lock`: the writer's lock on it
    (`hold_store`), already held; the store releases it on `close` (before that, a store
    that fails to open leaves it to whoever took it)."""

    def __init__(self, path: str | Path, *, events_kept: int = 20_000,
                 lock: WriterLock | None = None) -> None:
        self.path = Path(path)
        self.lock = lock
        self.events_kept = events_kept
        self.failure: Phrase | None = None  #: why writing stopped, once a write failed
        self.synced_writes = 0  #: synced transactions asked for (`bench thinking`)
        self.queued = 0  #: transactions handed to the writer thread
        self.written = 0  #: of those, the ones done (stored, or failed): they end in order
        self._writer: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()  #: `written` and `_waiters`, between the two threads
        self._waiters: list[tuple[int, Future[None]]] = []  #: `settled`'s, by write awaited
        self._next_game: int = 0  #: the id the next new game gets, writing behind
        self._writer_thread: threading.Thread | None = None  #: the writer's, once started
        self._db: sqlite3.Connection | None = None
        if str(path) != ":memory:":
            _check_usable(self.path)
            if self.path.is_file() and self.path.stat().st_size == 0:
                raise StoreDamagedError(N_("the game store {file} is empty (0 bytes)"), file=path)
        try:
            # One thread uses the connection at a time: the writer thread writes, and the
            # owner reads only once the writes it asked for are done (`_read`).
            self._db = db = sqlite3.connect(str(path), isolation_level=None,
                                            check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.executescript(SCHEMA)
            _migrate(db)
            problems = [r[0] for r in db.execute("PRAGMA quick_check(3)")]
        except sqlite3.Error as exc:
            self.close_quietly(keep_lock=True)
            if "unable to open" in str(exc):
                raise StoreUnusableError(CANNOT_USE, file=path, problem=exc) from None
            raise StoreDamagedError(CANNOT_READ, file=path, problem=exc) from None
        if problems != ["ok"]:
            self.close_quietly(keep_lock=True)
            raise StoreDamagedError(N_("the game store {file} is damaged: {problem}"), file=path,
                                    problem="; ".join(problems))

    def close_quietly(self, *, keep_lock: bool = False) -> None:
        """Close without checkpointing (a damaged file is left as it is); `keep_lock`: the
        writer's lock stays held (the damaged file is set aside under it)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        if not keep_lock:
            self._release()

    def _release(self) -> None:
        if self.lock is not None:
            self.lock.release()

    def write_behind(self, initializer: Callable[[], object] | None = None) -> None:
        """Write from now on in a thread of the store's own (`initializer` runs in it first:
        the daemon's scheduling), in the order asked: `_tx` returns at once, `writing` says
        whether writes are under way and `settled` when they are done. A new game's id is
        given before it is written (the store has one writer: this board, which holds the
        store's lock from here on, `hold_store`; StoreInUseError when another board does)."""
        if self._writer is not None:
            return
        if self.lock is None and str(self.path) != ":memory:":
            self.lock = hold_store(self.path)
        row = self._read.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()
        self._next_game = int(row[0]) + 1

        def start() -> None:
            self._writer_thread = threading.current_thread()
            if initializer is not None:
                initializer()

        self._writer = ThreadPoolExecutor(1, thread_name_prefix="store", initializer=start)

    @property
    def writer_alive(self) -> bool:
        """The writer thread has not ended (not started yet counts as alive): a write under
        way with no writer will never be done (the daemon's watchdog asks)."""
        thread = self._writer_thread
        return self._writer is not None and (thread is None or thread.is_alive())

    @property
    def writing(self) -> bool:
        """Writes asked for are not done yet (only ever true writing behind). Read under the
        lock their end is told under: once it says no, whoever waited on `settled` for them
        has been woken (a test's virtual clock moves only then)."""
        with self._lock:
            return self.written < self.queued

    def settled(self) -> Future[None] | None:
        """A future done once every write asked for so far is done (stored, or failed: see
        `failure`); None when none is under way."""
        with self._lock:
            if self.written >= self.queued:
                return None
            done: Future[None] = Future()
            self._waiters.append((self.queued, done))
            return done

    def _drain(self) -> None:
        """Wait here for the writes under way (a read, closing)."""
        done = self.settled()
        if done is not None:
            done.result()

    def close(self) -> None:
        """Checkpoint the WAL and close, the writes asked for done first; safe to call twice."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
        if self._db is None:
            self._release()
            return
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            log.exception("checkpoint failed")
        self._db.close()
        self._db = None
        self._release()  # the file is whole: the next writer may start

    @property
    def _open(self) -> sqlite3.Connection:
        """The connection, or a named refusal once the store is closed."""
        if self._db is None:
            raise StoreClosedError(N_("the game store {file} is closed"), file=self.path)
        return self._db

    @property
    def _read(self) -> sqlite3.Connection:
        """The connection to read from, once the writes asked for before are done."""
        self._drain()
        return self._open

    def _tx(self, statements: Iterable[tuple[str, Sequence[Any]]], *, synced: bool = True
            ) -> sqlite3.Cursor | None:
        """Run the statements in one synced transaction (`synced=False`: not waiting for the
        disk; in WAL mode the next synced one makes it durable too); the last one's cursor
        (None writing behind: the writer thread runs them, in order). A write that fails
        (disk full, I/O error) does not stop the board: it is logged once, `failure` says
        why, and later writes are skipped, so the game plays on unrecorded."""
        if self.failure is not None:
            return None
        self.synced_writes += synced
        if self._writer is None:
            return self._write(list(statements), synced)
        try:
            future = self._writer.submit(self._write, list(statements), synced)
        except RuntimeError as exc:  # the writer thread could not start (BrokenThreadPool)
            self.failure = Phrase(UNRECORDED, path=self.path, problem=exc)
            log.error("%s", self.failure)
            return None
        self.queued += 1
        future.add_done_callback(self._one_written)
        return None

    def _one_written(self, future: Future[sqlite3.Cursor | None]) -> None:
        """A write handed to the writer thread ended (in that thread)."""
        exc = future.exception()
        if exc is not None and self.failure is None:  # not SQLite's: still no record
            self.failure = Phrase(UNRECORDED, path=self.path, problem=exc)
            log.error("%s", self.failure)
        with self._lock:  # `written` first: whoever is woken sees the write done
            self.written += 1
            for _, done in [w for w in self._waiters if w[0] <= self.written]:
                done.set_result(None)
            self._waiters = [w for w in self._waiters if w[0] > self.written]

    def _write(self, statements: list[tuple[str, Sequence[Any]]], synced: bool
               ) -> sqlite3.Cursor | None:
        """One transaction (`_tx`), where the store writes."""
        if self.failure is not None:
            return None
        db = self._open
        cur = None
        try:
            if not synced:
                db.execute("PRAGMA synchronous=NORMAL")
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    cur = db.execute(sql, params)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            self.failure = Phrase(UNRECORDED, path=self.path, problem=exc)
            log.error("%s", self.failure)
            return None
        finally:
            if not synced:
                with contextlib.suppress(sqlite3.Error):  # a failure is already kept above
                    db.execute("PRAGMA synchronous=FULL")
        return cur

    # -- games -------------------------------------------------------------------------------
    def new_game(self, rules: Rules, players: dict[str, str], start: str | None = None,
                 *, created: float | None = None, level: int | None = None,
                 seed: int | None = None) -> int:
        """Record a new game; any earlier unfinished game is marked finished (abandoned).
        `level`: the level the adaptive computer plays at in it; `seed`: its search's seed."""
        created = time.time() if created is None else created
        game = None if self._writer is None else self._next_game  # (SQLite's, written here)
        cur = self._tx([
            ("UPDATE games SET finished = 1, outcome = COALESCE(outcome, ?) WHERE finished = 0",
             (json.dumps(BoardEnding.ABANDONED.outcome()),)),
            ("DELETE FROM events", ()),  # raw events are kept for the current game only
            ("DELETE FROM recording_heads", ()),  # ... and so is the line that starts them
            ("INSERT INTO games (id, created, rules, players, start, level, seed) "
             "VALUES (?, ?, ?, ?, ?, ?, ?)",
             (game, created, json.dumps(rules.to_dict()), json.dumps(players), start, level,
              seed))])
        if game is not None:
            self._next_game += 1
            return game
        return cur.lastrowid if cur is not None and cur.lastrowid is not None else -1

    def append(self, game: int, first_ply: int, actions: Sequence[str], *,
               events: Sequence[tuple[float, str, bool]] = (), t: float | None = None) -> None:
        """Write committed actions (plies from `first_ply`) and pending raw events in one
        synced transaction."""
        t = time.time() if t is None else t
        stmts: list[tuple[str, Sequence[Any]]] = [
            ("INSERT OR REPLACE INTO actions (game, ply, text, t) VALUES (?, ?, ?, ?)",
             (game, first_ply + k, text, t)) for k, text in enumerate(actions)]
        stmts += self._event_statements(game, events)
        self._tx(stmts)

    def truncate(self, game: int, plies: int) -> None:
        """Keep only the first `plies` actions (a takeback); the game is open again."""
        self._tx([("DELETE FROM actions WHERE game = ? AND ply >= ?", (game, plies)),
                  ("UPDATE games SET finished = 0, outcome = NULL WHERE id = ?", (game,))])

    def set_players(self, game: int, players: dict[str, str]) -> None:
        self._tx([("UPDATE games SET players = ? WHERE id = ?", (json.dumps(players), game))])

    def finish(self, game: int, outcome: dict[str, Any] | None) -> None:
        self._tx([("UPDATE games SET finished = 1, outcome = ? WHERE id = ?",
                   (json.dumps(outcome), game))])

    def load(self, game: int) -> StoredGame:
        row = self._read.execute("SELECT id, created, rules, players, start, outcome, finished, "
                                 "level, seed FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise StoreError(N_("no game {game} in the store"), game=game)
        actions = tuple(r[0] for r in self._read.execute(
            "SELECT text FROM actions WHERE game = ? ORDER BY ply", (game,)))

        def unreadable(problem: Phrase, exc: Exception) -> StoreDamagedError:
            log.warning("game %d in %s is unreadable: %s", game, self.path, exc)
            return StoreDamagedError(N_("game {game} in the store {file} is unreadable: "
                                        "{problem}"), game=game, file=self.path, problem=problem)

        unread = (ValueError, TypeError, AttributeError, KeyError, RulesError)
        try:
            rules = Rules.from_dict(json.loads(row[2]))
        except unread as exc:
            raise unreadable(phrase_or(exc, N_("its rules cannot be read")), exc) from None
        try:
            players = json.loads(row[3])
            outcome = json.loads(row[5]) if row[5] else None
        except (ValueError, TypeError) as exc:
            raise unreadable(Phrase(N_("its players or its result cannot be read")), exc) from None
        if not isinstance(players, dict) or not all(isinstance(v, str) for v in players.values()):
            raise unreadable(Phrase(N_("its players are not a table of names")),
                             ValueError(f"players is {row[3]!r}"))
        try:
            replayed = start_game(rules, row[4])
        except unread as exc:
            raise unreadable(phrase_or(exc, N_("its start position cannot be read")), exc) from None
        for ply, text in enumerate(actions, 1):
            try:
                replayed.play(text)
            except unread as exc:
                raise unreadable(Phrase(N_("action {ply} {text} does not play: {problem}"), ply=ply,
                                        text=repr(text),
                                        problem=phrase_or(exc, N_("it is not an action of this "
                                                                  "game"))), exc) from None
        return StoredGame(row[0], row[1], rules, players, row[4], actions, outcome, bool(row[6]),
                          _whole(row[7]), _whole(row[8]))

    def last_unfinished(self) -> StoredGame | None:
        """The game to resume; StoreDamagedError when it cannot be read."""
        try:
            row = self._read.execute("SELECT id FROM games WHERE finished = 0 ORDER BY id DESC LIMIT 1"
                                   ).fetchone()
            return self.load(row[0]) if row else None
        except sqlite3.DatabaseError as exc:
            raise StoreDamagedError(CANNOT_READ, file=self.path, problem=exc) from None

    def games(self, limit: int = 50) -> list[StoredGame]:
        rows = self._read.execute("SELECT id FROM games ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [self.load(r[0]) for r in rows]

    def adaptive_games(self, limit: int = 50) -> list[Played]:
        """The last `limit` finished games against the adaptive computer that have a result
        (oldest first), for `adaptive.next_level`: a game the board ended without a winner
        (cleared, abandoned) is left out, a drawn one counts."""
        rows = self._read.execute(
            "SELECT level, players, outcome FROM games WHERE level IS NOT NULL AND finished = 1 "
            "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        played: list[Played] = []
        for level, players_text, outcome_text in reversed(rows):
            try:
                players, outcome = json.loads(players_text), json.loads(outcome_text or "null")
                adaptive = [side for side, spec in players.items() if spec == ADAPTIVE_NAME]
                winner, reason = outcome.get("winner"), outcome.get("reason")
            except (ValueError, TypeError, AttributeError) as exc:
                log.warning("a game's result in %s is unreadable (%s): the adaptive level "
                            "leaves it out", self.path, exc)
                continue
            if len(adaptive) != 1 or not isinstance(level, int):
                continue  # both sides adaptive: no person's result
            if winner is None:
                if reason not in DRAWN_REASONS:
                    continue
                result = Result.DRAWN
            else:
                result = Result.LOST if winner == adaptive[0] else Result.WON
            played.append(Played(level, result))
        return played

    # -- settings chosen on the board -------------------------------------------------------
    def setting(self, key: str) -> str | None:
        """A setting kept across restarts (the LED brightness), as written; None if never set
        or unreadable (the caller falls back to its default)."""
        try:
            row = self._read.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError as exc:
            log.warning("cannot read the setting %s from %s: %s", key, self.path, exc)
            return None
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        """Keep a setting (synced, so a power cut just after does not lose it)."""
        self._tx([("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))])

    # -- raw events --------------------------------------------------------------------------
    def add_events(self, game: int, events: Sequence[tuple[float, str, bool]]) -> None:
        """Raw sensor events, unsynced: the loop that writes them every few seconds must not
        wait for the disk (a synced write took 20-100 ms with every core busy, a late light).
        A power cut loses at most those since the last synced write, as the seconds they
        wait in memory already may."""
        if events:
            self._tx(self._event_statements(game, events), synced=False)

    def _event_statements(self, game: int, events: Sequence[tuple[float, str, bool]]
                          ) -> list[tuple[str, Sequence[Any]]]:
        if not events or not self.events_kept:
            return []
        stmts: list[tuple[str, Sequence[Any]]] = [
            ("INSERT INTO events (game, t, point, present) VALUES (?, ?, ?, ?)",
             (game, t, point, int(present))) for t, point, present in events]
        stmts.append(("DELETE FROM events WHERE game = ? AND id <= "
                      "(SELECT MAX(id) FROM events WHERE game = ?) - ?",
                      (game, game, self.events_kept)))
        return stmts

    def set_recording_head(self, game: int, line: str) -> None:
        """A comment line that starts the game's recording (how the board's menu stood when
        the recording began); it must start with # so the event reader skips it."""
        if not line.startswith("#") or "\n" in line:
            raise ValueError(f"a recording's head must be one line starting with #, not {line!r}")
        self._tx([("INSERT OR REPLACE INTO recording_heads (game, head) VALUES (?, ?)",
                   (game, line))])

    def events(self, game: int) -> list[SensorEvent]:
        return [SensorEvent(point, bool(present), t) for t, point, present in self._read.execute(
            "SELECT t, point, present FROM events WHERE game = ? ORDER BY id", (game,))]

    def events_jsonl(self, game: int) -> str:
        """The game's raw events in the replay format, one JSON object a line, after the
        recording's head line if it has one; empty when no events are kept."""
        text = "".join(event_to_line(e) + "\n" for e in self.events(game))
        row = self._read.execute("SELECT head FROM recording_heads WHERE game = ?",
                               (game,)).fetchone()
        return f"{row[0]}\n{text}" if text and row is not None else text


def _whole(value: object) -> int | None:
    """A stored whole number, None for anything else (NULL, or a damaged value)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _migrate(db: sqlite3.Connection) -> None:
    """Bring the store's tables up to date (MIGRATIONS), each step in one transaction that
    reads the version first, so two programs opening an old store at once step it once. A
    store from a newer board (a higher version) is left as it is."""
    while True:
        db.execute("BEGIN IMMEDIATE")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version >= len(MIGRATIONS):
                db.execute("COMMIT")
                return
            for statement in MIGRATIONS[version]:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        log.info("the game store is now at version %d", version + 1)


def _check_usable(path: Path) -> None:
    """StoreUnusableError, one line, when `path` cannot hold a store whatever it contains."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
        if blocker:
            raise StoreUnusableError(N_("cannot use {file} for the game store: {blocker} is a "
                                        "file, not a folder"), file=path, blocker=blocker) from None
        raise StoreUnusableError(N_("cannot use {file} for the game store: cannot make the "
                                    "folder {folder}: {problem}"), file=path, folder=path.parent,
                                 problem=exc.strerror) from None
    if path.exists() and not path.is_file():
        raise StoreUnusableError(N_("cannot use {file} for the game store: it is not a file"),
                                 file=path)
    target = path if path.exists() else path.parent
    if not os.access(target, os.R_OK | os.W_OK | (os.X_OK if target.is_dir() else 0)):
        raise StoreUnusableError(N_("cannot use {file} for the game store: {target} is not "
                                    "readable and writable by this user"), file=path,
                                 target=target)
