"""Daemon benchmark: time from a settled change to the new LED frame, and idle CPU.

Latency: scripted hands play whole games; at every settle deadline the session is ticked
(tracker, engine, store write with fsync) and the frame rendered, and that span is timed.
Resting CPU: the real daemon loop runs on the simulated board resting in each state a board
rests in (its menu, a game waiting for the hand, a game over), and its process CPU time and
the LED frames it sent over a few seconds are measured.
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.sim.hands import ScriptedHands

from ..core.clockwork import run_until
from ..core.session import Session
from ..core.tracker import TrackerSettings
from ..core.players import HAND
from ..daemon.config import Config
from ..store.database import Store


def _percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def _spread(values: list[float], what: str, *, with_max: bool = False) -> str:
    """p50/p99 (and max) in ms, or "none" for a short run that had none of them."""
    if not values:
        return f"none (0 {what})"
    text = f"p50 {_percentile(values, 50) * 1000:.2f} ms, p99 {_percentile(values, 99) * 1000:.2f} ms"
    if with_max:
        text += f", max {max(values) * 1000:.2f} ms"
    return f"{text} ({len(values)} {what})"


def _games(variant: str, n: int, seed: int) -> list[ScriptedHands]:
    rules = preset(variant)
    out = []
    rng = random.Random(seed)
    for _ in range(n):
        game = new_game(rules)
        hands = ScriptedHands((), rng=rng, chatter=4, pause=0.6)
        hands.setup(game.board.names(game.occupancy))
        while game.outcome() is None and len(game.history) < 120:
            action = rng.choice(game.legal_actions())
            hands.perform(game.board, action, order="hop")
            game.push(action)
        out.append(hands)
    return out


def settle_to_frame(variant: str, *, store_dir: Path | None, games: int
                    ) -> tuple[list[float], list[float]]:
    """Seconds from each settle deadline to the rendered frame: (ticks that committed an
    action, all other ticks)."""
    rules = preset(variant)
    spans: list[float] = []
    others: list[float] = []
    for k, hands in enumerate(_games(variant, games, seed=k_seed(variant))):
        store = Store(store_dir / f"bench-{variant}-{k}.sqlite3") if store_dir else None
        session = Session(rules, {Side.WHITE: HAND, Side.BLACK: HAND}, settings=TrackerSettings(),
                          store=store, now=0.0, auto_new_game=False, resume=False)
        now = 0.0
        for event in hands.events:
            while (due := session.deadline()) is not None and due <= event.t:
                now = max(now, due)
                start = time.perf_counter()
                committed = session.tick(now)
                session.frame(now)
                (spans if committed else others).append(time.perf_counter() - start)
            session.feed(event)
            now = max(now, event.t)
        run_until(session, None, now)
        if store is not None:
            store.close()
    return spans, others


def k_seed(variant: str) -> int:
    return sum(map(ord, variant))


RESTING = ("menu", "waiting for a hand", "game over")
"""The states a board rests in: its menu, a game waiting for the hand to move, and a game
over left on the board (its pulse, the first minute)."""


def finished_game(variant: str = "nine-mens-morris", seed: int = 0) -> list[str]:
    """The actions of a random game that ends (hand-made random play, by seed)."""
    rules = preset(variant)
    for k in range(100):
        rng = random.Random(seed + k)
        game = new_game(rules)
        while game.outcome() is None and len(game.history) < 300:
            game.push(rng.choice(game.legal_actions()))
        if game.outcome() is not None:
            return [a.text for a in game.history]
    raise RuntimeError(f"no random {variant} game ended")


def idle_cpu(seconds: float, state: str = "menu") -> tuple[float, int]:
    """CPU seconds the daemon loop uses over `seconds` resting in `state` (one of RESTING),
    and the LED frames it sent meanwhile."""
    from navakankari.hal import load_profile, open_board

    from ..core.status import StatusKind
    from ..daemon import event_loop
    from ..daemon.loop import Daemon
    from ..daemon.notify import Notifier

    if state not in RESTING:
        raise ValueError(f"no resting state {state!r}; states: {', '.join(RESTING)}")
    want = {"menu": StatusKind.MENU, "waiting for a hand": StatusKind.IDLE,
            "game over": StatusKind.OVER}[state]
    with tempfile.TemporaryDirectory() as tmp:
        store_path = Path(tmp) / "idle.sqlite3"
        script = None
        if state != "menu":
            # A stored game resumed, the board set up by the simulated hands, and one more
            # action committed by them (what a resting board has just done): seven actions
            # in, the hand to move; or the game's last action, the game over.
            whole = finished_game()
            script = whole[:7] if state == "waiting for a hand" else whole
            store = Store(store_path)
            game_id = store.new_game(preset("nine-mens-morris"), {"white": "hand", "black": "hand"})
            store.append(game_id, 0, script[:-1])
            store.close()
        config = Config(game_variant="nine-mens-morris", game_white=HAND, game_black=HAND,
                        board_profile="sim-24", store_path=str(store_path),
                        game_menu=state == "menu", tracker_settle=0.05, tracker_grow=0.1,
                        tracker_grace=0.3)
        board = open_board(load_profile("sim-24"), backend="sim")
        daemon = Daemon(config, board, notifier=Notifier({}), sim_script=script)

        async def main() -> tuple[float, int]:
            task = asyncio.create_task(daemon.run())
            deadline = time.monotonic() + 90
            # At rest: in the state, the hands done.
            while (daemon.session is None or daemon.session.status.kind != want
                   or (script and len(daemon.session.game.history) < len(script))):
                if time.monotonic() > deadline or task.done():
                    raise RuntimeError(f"the daemon never rested in {state}")
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)  # settled, its first frames shown
            # The hands' last raw events written now, not by the loop's flush a few seconds
            # on (a one-off, not the cost of resting).
            daemon.session.flush_events()
            cpu0, frames0 = time.process_time(), daemon.frames_shown
            await asyncio.sleep(seconds)
            cpu = time.process_time() - cpu0
            frames = daemon.frames_shown - frames0
            kind = daemon.session.status.kind
            daemon.stop()
            await task
            if kind != want:
                raise RuntimeError(f"the daemon left {state} while measured ({kind.value})")
            return cpu, frames

        return event_loop.run(main())


def idle_cpu_process(seconds: float) -> float | None:
    """CPU seconds a real `navakankari run` process (simulated board) uses over `seconds` of
    idling after it is ready, read from /proc; None where there is no /proc."""
    import subprocess
    import sys

    if not Path("/proc/self/stat").exists():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "bench.toml"
        config.write_text(f'[game]\nvariant = "nine-mens-morris"\nwhite = "hand"\nblack = "hand"\n'
                          f'[board]\nprofile = "sim-24"\n[store]\npath = "{Path(tmp) / "g.sqlite3"}"\n')
        env = {**os.environ, "NAVAKANKARI_BACKEND": "sim"}
        env.pop("NOTIFY_SOCKET", None)
        proc = subprocess.Popen([sys.executable, "-m", "navakankari.firmware.cli", "run", "--config",
                                 str(config)], stderr=subprocess.PIPE, text=True, env=env)
        try:
            assert proc.stderr is not None
            for line in proc.stderr:
                if "ready" in line:
                    break
            time.sleep(0.5)
            ticks = os.sysconf("SC_CLK_TCK")

            def cpu() -> float:
                fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
                return (int(fields[11]) + int(fields[12])) / ticks

            before = cpu()
            time.sleep(seconds)
            return cpu() - before
        finally:
            proc.terminate()
            proc.wait(10)


def run(out: Callable[[str], None] = print, quick: bool = False) -> None:
    games = 2 if quick else 6
    with tempfile.TemporaryDirectory() as tmp:
        for variant in ("nine-mens-morris", "nau-keti-keta"):
            for label, store_dir in (("no store", None), ("SQLite store, synchronous=FULL", Path(tmp))):
                spans, others = settle_to_frame(variant, store_dir=store_dir, games=games)
                out(f"settled change -> LED frame, {variant}, {label}: commits "
                    f"{_spread(spans, 'actions', with_max=True)}; other settles "
                    f"{_spread(others, 'settles')}")
    seconds = 2.0 if quick else 5.0
    for state in RESTING:
        cpu, frames = idle_cpu(seconds, state)
        out(f"resting daemon loop (in process), {state}: {cpu * 1000:.1f} ms CPU in "
            f"{seconds:.0f} s ({cpu / seconds * 100:.3f} % of one core), {frames} LED frames sent")
    proc_cpu = idle_cpu_process(seconds)
    if proc_cpu is not None:
        out(f"idle `navakankari run` process (simulated board): {proc_cpu * 1000:.0f} ms CPU in "
            f"{seconds:.0f} s ({proc_cpu / seconds * 100:.3f} % of one core; /proc resolution "
            f"{1000 / os.sysconf('SC_CLK_TCK'):.0f} ms)")
