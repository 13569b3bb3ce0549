"""The online drill: games between two boards' links through a local Mosquitto, with the
broker restarted and boards killed and restarted along the way, counting what went wrong.

A killed board loses whatever its link held in memory; it comes back with the log rebuilt
from its stored actions, as the daemon's store would give them. Printed: games, actions,
actions lost, applied twice, forks, messages dropped, and the time from a move recorded on
one board to its arrival on the other.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from navakankari.engine.variants import new_game
from navakankari.firmware.online.broker import BrokerAddress
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.link import OnlineLink
from navakankari.firmware.online.log import MoveLog
from navakankari.firmware.online.messages import Move

from .local_broker import BrokerMissingError, LocalBroker

PLY_LIMIT = 300
WAIT = 15.0


class _Board:
    def __init__(self, broker: LocalBroker, user: str, side: str, code: GameCode,
                 variant: str, actions: list[str], arrived: Callable[[str, Move], None]) -> None:
        self.side = side
        self.variant = variant
        moves = MoveLog.rebuild(code, new_game(variant), actions)
        self.link = OnlineLink(BrokerAddress.parse(broker.url(user)), moves, side,
                               on_move=lambda m: arrived(side, m), backoff=(0.05, 0.5))
        self.task = asyncio.create_task(self.link.run())

    async def stop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        del self.task
        gc.collect()  # the MQTT client goes while its loop runs


async def _drill(broker: LocalBroker, games: int, restarts: int, kills: int, seed: int,
                 variant: str, progress: Callable[[int], None]) -> dict[str, object]:
    rng = random.Random(seed)
    plies_total = games * 60  # where the restarts and kills fall, spread over the run
    restart_at = set(rng.sample(range(5, plies_total), min(restarts, plies_total - 5)))
    kill_at = set(rng.sample(range(5, plies_total), min(kills, plies_total - 5)))
    latencies: list[float] = []
    counts = {"games": 0, "actions": 0, "lost": 0, "applied twice": 0, "forks": 0,
              "dropped": 0, "broker restarts": 0, "boards killed": 0}
    sent_at: dict[tuple[str, int], float] = {}
    sends: set[asyncio.Task[None]] = set()
    applied: dict[str, list[int]] = {"white": [], "black": []}
    ply = 0

    def arrived(side: str, move: Move) -> None:
        applied[side].append(move.n)
        started = sent_at.pop((move.side, move.n), None)
        if started is not None:
            latencies.append(time.perf_counter() - started)

    for _ in range(games):
        code = GameCode.new()
        applied = {"white": [], "black": []}
        boards = {s: _Board(broker, u, s, code, variant, [], arrived)
                  for s, u in (("white", "grandma"), ("black", "ravi"))}
        for b in boards.values():
            await asyncio.wait_for(b.link.connected.wait(), WAIT)
        for _ in range(PLY_LIMIT):
            game = boards["white"].link.moves.game
            if game.outcome() is not None:
                break
            side = str(game.turn)
            here, there = boards[side], boards["black" if side == "white" else "white"]
            want = len(there.link.moves.moves) + 1
            move = here.link.moves.record(rng.choice(here.link.moves.game.legal_actions()).text)
            sent_at[(side, move.n)] = time.perf_counter()
            sending = asyncio.create_task(here.link.send(move))  # as the board sends: not awaited
            sends.add(sending)
            sending.add_done_callback(sends.discard)
            ply += 1
            if ply in restart_at:
                broker.stop()
                broker.start()
                counts["broker restarts"] += 1
            if ply in kill_at:
                victim = rng.choice(list(boards))
                old = boards[victim]
                await old.stop()
                boards[victim] = _Board(broker, "grandma" if victim == "white" else "ravi",
                                        victim, code, variant,
                                        [m.action for m in old.link.moves.moves], arrived)
                counts["boards killed"] += 1
            deadline = time.monotonic() + WAIT
            while len(boards[there.side].link.moves.moves) < want:
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.001)
        white, black = (boards[s].link.moves for s in ("white", "black"))
        counts["games"] += 1
        counts["actions"] += len(white.moves)
        counts["lost"] += abs(len(white.moves) - len(black.moves))
        counts["forks"] += int(white.forked or black.forked)
        counts["applied twice"] += sum(len(ns) - len(set(ns)) for ns in applied.values())
        counts["dropped"] += sum(b.link.state.rejected for b in boards.values())
        if [m.mac for m in white.moves] != [m.mac for m in black.moves]:
            counts["forks"] += 1
        for sending in list(sends):  # a send to a killed board's client waits on nothing
            sending.cancel()
        await asyncio.gather(*sends, return_exceptions=True)
        for b in boards.values():
            await b.stop()
        progress(counts["games"])
    latencies.sort()
    return {**counts, "latency": latencies}


def drill(games: int = 20, restarts: int = 3, kills: int = 2, seed: int = 1,
          variant: str = "nine-mens-morris",
          progress: Callable[[int], None] = lambda n: None) -> dict[str, object]:
    """Run the drill on a fresh local broker; the counts and the sorted latencies (s)."""
    # The drill restarts the broker and kills boards on purpose: what the links say of it is
    # the figures, not log lines.
    quiet = logging.getLogger("navakankari.firmware.online")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            broker = LocalBroker(Path(tmp))
            broker.start()
            try:
                return asyncio.run(_drill(broker, games, restarts, kills, seed, variant,
                                          progress))
            finally:
                broker.stop()
    finally:
        quiet.setLevel(level)


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    return f"{values[min(len(values) - 1, int(q * len(values)))] * 1000:.1f} ms"


def soak(out: Callable[[str], None], quick: bool, args: argparse.Namespace) -> None:
    """`navakankari bench online [--games N] [--broker-restarts R] [--kills K] [--seed S]`."""
    run(out, quick, games=args.games, restarts=args.broker_restarts, kills=args.kills,
        seed=args.seed)


def run(out: Callable[[str], None] = print, quick: bool = False, games: int | None = None,
        restarts: int = 3, kills: int = 2, seed: int = 1) -> None:
    games = games if games is not None else (3 if quick else 20)
    try:
        result = drill(games, restarts, kills, seed)
    except BrokerMissingError as exc:
        out(f"online drill: not run ({exc})")
        return
    latency = result.pop("latency")
    assert isinstance(latency, list)
    out("online drill, " + ", ".join(f"{k} {v}" for k, v in result.items()))
    out(f"online move recorded -> arrived on the other board: p50 {_ms(latency, 0.5)}, "
        f"p99 {_ms(latency, 0.99)}, max {_ms(latency, 1.0)} ({len(latency)} moves)")
