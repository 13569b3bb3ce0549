"""`navakankari bench power-cut`: the real daemon killed at random moments, and started again.

`navakankari run --sim-hands RECORD` plays a random game by simulated hands on the simulated
board, with its store on disk (SQLite, WAL, synchronous=FULL). At a random moment of the play
it gets SIGKILL, as a power cut would leave it, and is started again on an empty simulated
board: it resumes the game from its store, the hands set the board up again and play on.
After every cut:

- *acknowledged* actions are those the daemon logged as stored before it was killed;
- *lost*: an acknowledged action missing from the store, or stored differently;
- *corrupted*: the store fails SQLite's integrity check, or holds actions that are not the
  game's (not the record's prefix);
- *restart to serving*: from starting the process again to its `ready` (sd_notify READY=1).

A game played to its end starts the next one in a fresh store. Ctrl-C prints the figures of
the cuts made so far.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .bench import _spread, finished_game
from .fuzz_bench import progress, to_stderr

STORED = re.compile(r"stored ply (\d+): (.*)$")


@dataclass
class Figures:
    cuts: int = 0
    acknowledged: int = 0
    lost: int = 0
    corrupted: int = 0
    games: int = 0
    restarts: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [f"cuts: {self.cuts} (SIGKILL at random moments of play; {self.games} games "
                "played to their end)",
                f"acknowledged actions: {self.acknowledged}",
                f"lost: {self.lost}",
                f"corrupted stores: {self.corrupted}",
                f"restart to serving: {_spread(self.restarts, 'restarts', with_max=True)}",
                *(f"failure: {f}" for f in self.failures[:5])]


def spawn_run(config: Path, script: str | None = None) -> subprocess.Popen[str]:
    """`navakankari run --config CONFIG [--sim-hands SCRIPT]` in a child process on the
    simulated board, its stderr piped, outside any systemd the caller runs under."""
    env = {**os.environ, "NAVAKANKARI_BACKEND": "sim"}
    for key in ("NOTIFY_SOCKET", "JOURNAL_STREAM", "WATCHDOG_USEC"):
        env.pop(key, None)
    command = [sys.executable, "-m", "navakankari.firmware.cli", "run", "--config", str(config)]
    if script is not None:
        command += ["--sim-hands", script]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=env)


class LogLines:
    """A child's stderr lines, collected by a thread, and when it first said "ready"."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self.ready_at: float | None = None
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        try:
            for line in self.proc.stderr:
                with self.cond:
                    if self.ready_at is None and re.search(r"\bready\b", line):
                        self.ready_at = time.monotonic()
                    self.lines.append(line.rstrip("\n"))
                    self.cond.notify_all()
        finally:
            with self.cond:
                self.cond.notify_all()  # every line is in: a waiter can stop looking

    def wait_for(self, pattern: str, timeout: float = 20.0) -> bool:
        """Whether a line matching `pattern` came within `timeout` seconds (or before the
        child ended and its last line was read)."""
        end = time.monotonic() + timeout
        with self.cond:
            while not any(re.search(pattern, ln) for ln in self.lines):
                left = end - time.monotonic()
                if left <= 0 or not self.thread.is_alive():
                    return False
                self.cond.wait(min(left, 0.5))
        return True

    def stored(self) -> list[tuple[int, str]]:
        """The plies the daemon said it stored, in order: (ply, actions)."""
        with self.cond:
            return [(int(m.group(1)), m.group(2)) for ln in self.lines if (m := STORED.search(ln))]


class _Daemon(LogLines):
    """`navakankari run` in a child process playing `script`, killed when asked."""

    def __init__(self, config: Path, script: list[str]) -> None:
        self.started = time.monotonic()
        super().__init__(spawn_run(config, " ".join(script)))

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)
        self.thread.join(10)


def _config(folder: Path, store: Path, white: str = "hand") -> Path:
    """A `navakankari run` configuration in `folder`: the simulated 24-point board, quick
    tracker times, `store`, no web page; white played by `white`."""
    path = folder / "navakankari.toml"
    path.write_text(f"""[game]
variant = "nine-mens-morris"
white = "{white}"
black = "hand"
menu = false
[tracker]
settle = 0.05
grow = 0.1
grace = 0.3
[board]
profile = "sim-24"
[store]
path = "{store}"
[web]
port = 0
""", encoding="utf-8")
    return path


def check_store(store: Path, script: list[str], acknowledged: list[tuple[int, str]]
                ) -> tuple[int, str | None]:
    """(acknowledged actions lost, why the store is corrupted or None)."""
    try:
        con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        try:
            check = con.execute("PRAGMA integrity_check").fetchone()[0]
            stored = [r[0] for r in con.execute(
                "SELECT text FROM actions WHERE game = (SELECT MAX(id) FROM games) ORDER BY ply")]
        finally:
            con.close()
    except sqlite3.Error as exc:
        return 0, f"cannot be read: {exc}"
    lost = 0
    for ply, text in acknowledged:  # one commit may hold several actions (a move, its removal)
        actions = text.split()
        if stored[ply - 1:ply - 1 + len(actions)] != actions:
            lost += len(actions)
    if check != "ok":
        return lost, f"integrity check: {check}"
    if stored != script[:len(stored)]:
        return lost, "holds actions that are not the game's"
    return lost, None


def power_cut(cuts: int, seed: int = 0, bar: Callable[[str], None] | None = None,
              figures: Figures | None = None) -> Figures:
    """Kill and restart the daemon `cuts` times; fills `figures` as it goes."""
    figures = figures if figures is not None else Figures()
    rng = random.Random(seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="navakankari-power-cut-") as tmp:
        folder = Path(tmp)
        game = 0
        script = finished_game(seed=seed * 1000 + game)
        store = folder / f"game-{game}.sqlite3"
        config = _config(folder, store)
        while figures.cuts < cuts:
            daemon = _Daemon(config, script)
            if not daemon.wait_for(r"\bready\b", 60):
                figures.failures.append("no ready: " + " | ".join(daemon.lines[-3:]))
                daemon.kill()
                break
            assert daemon.ready_at is not None
            figures.restarts.append(daemon.ready_at - daemon.started)
            finished = daemon.wait_for("sim-hands: done", rng.uniform(0.1, 2.5))
            daemon.kill()
            figures.cuts += 1
            acknowledged = daemon.stored()
            figures.acknowledged += sum(len(text.split()) for _, text in acknowledged)
            lost, corrupted = check_store(store, script, acknowledged)
            figures.lost += lost
            if lost:
                figures.failures.append(f"cut {figures.cuts}: {lost} acknowledged action(s) lost")
            if corrupted is not None:
                figures.corrupted += 1
                figures.failures.append(f"cut {figures.cuts}: the store {corrupted}")
            if finished or corrupted is not None:
                figures.games += int(finished)
                game += 1
                script = finished_game(seed=seed * 1000 + game)
                store = folder / f"game-{game}.sqlite3"
                config = _config(folder, store)
            if bar is not None:
                progress(figures.cuts, cuts, started, bar, "cuts")
    if bar is not None:
        bar("\n")
    return figures


def run(out: Callable[[str], None] = print, quick: bool = False, *, cuts: int | None = None,
        seed: int = 0, bar: bool = True) -> Figures:
    total = cuts if cuts is not None else (5 if quick else 100)
    out(f"power-cut: {total} cuts, seed {seed}")
    figures = Figures()
    try:
        power_cut(total, seed,
                  bar=to_stderr if bar else None,
                  figures=figures)
    except KeyboardInterrupt:
        out(f"interrupted after {figures.cuts} of {total} cuts")
    for line in figures.lines():
        out(line)
    return figures


def soak(out: Callable[[str], None], quick: bool, args: argparse.Namespace) -> None:
    """`navakankari bench power-cut [--cuts N] [--seed S]`."""
    run(out, quick, cuts=args.cuts, seed=args.seed)
