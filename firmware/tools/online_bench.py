"""The online drill: games between two boards' links through a local Mosquitto, with the
broker restarted and boards killed and restarted along the way, counting what went wrong.

A killed board loses whatever its link held in memory; it comes back with the log rebuilt
from its stored actions, as the daemon's store would give them. With `attack`, an outsider
(another member's login, knowing only what the broker shows it) strikes at every move:
floods the game's topics with garbage and forgeries, publishes poison retained, deletes
the boards' retained snapshots and replays old messages it saw; and the two boards agree to a
takeback every TAKEBACK_EVERY moves, so what it replays includes withdrawn moves. Printed:
games, actions,
actions lost, applied twice, forks, stalls (a move that had not arrived WAIT seconds after it
was made: that game is played no further), messages dropped, and the time from a move
recorded on one board to its arrival on the other.
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
import aiomqtt

from navakankari.firmware.online.link import PREFIX, OnlineLink, mqtt_client
from navakankari.firmware.online.log import MoveLog
from navakankari.firmware.online.messages import Move, sign
from navakankari.firmware.online.wire import game_topic, seal

from .local_broker import BrokerMissingError, LocalBroker

PLY_LIMIT = 300
TAKEBACK_EVERY = 15  #: under attack: a takeback both boards agree to, every so many moves
WAIT = 15.0


POISON = (b"[" * 100_000, b'{"kind":"move","mac":"\\u00e9"}', b'{"n":1' + b"0" * 5000 + b"}",
          b"\xff\xfe", b"")
"""What stopped a board's link before every payload was bounded: deep nesting, non-ASCII
where hex belongs, a number of 5,000 digits, bytes that are not UTF-8; and the empty
retained message that deletes."""


class _Outsider:
    """Another member of the club: sees every topic the ACL lets it read, and publishes on
    them, but holds no game's code."""

    def __init__(self, broker: LocalBroker, rng: random.Random) -> None:
        self.rng = rng
        self.broker = broker
        self.seen: list[tuple[str, bytes]] = []  #: what it captured, to replay
        self.sent = 0
        self.client = self._new_client()
        self.task: asyncio.Task[None] | None = None

    def _new_client(self) -> aiomqtt.Client:
        return mqtt_client(BrokerAddress.parse(self.broker.url("mallory")),
                           f"navakankari-outsider-{self.rng.getrandbits(32):08x}")

    async def start(self) -> None:
        """Connect (again, after the broker restarted) and listen to every game topic."""
        if self.task is not None:  # the connection was lost with the broker
            await asyncio.gather(self.task, return_exceptions=True)
            self.client = self._new_client()
        await self.client.__aenter__()
        await self.client.subscribe(f"{PREFIX}/#", qos=0)
        self.task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        async for message in self.client.messages:
            if isinstance(message.payload, bytes) and message.payload:
                self.seen.append((str(message.topic), message.payload))
                del self.seen[:-400]

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        try:
            await self.client.__aexit__(None, None, None)
        except aiomqtt.MqttError:
            pass

    async def strike(self, code: GameCode) -> None:
        """One blow at the game: a flood, poison, deleted snapshots or replays. It is given
        the game's topics (which it sees but cannot tell from other games' without the
        code), never its keys."""
        rng = self.rng
        topics = [game_topic(code, side, what) for side in ("white", "black")
                  for what in ("move", "snapshot", "request", "answer", "presence", "resync")]
        blow = rng.choice(("flood", "poison", "delete", "replay"))
        try:
            if blow == "flood":
                wrong = GameCode(code.game, "0" * 12)
                for i in range(200):
                    name = rng.choice(topics)
                    forged = seal(wrong, name, sign(wrong.key, Move(
                        code.game, 1 + i % 50, rng.choice(("white", "black")), "a1", "")))
                    await self.client.publish(name, rng.choice(
                        (forged, *POISON[:4], b"x" * 2000)), qos=0)
                self.sent += 200
            elif blow == "poison":
                for name in topics:
                    if not name.endswith("/move"):
                        await self.client.publish(name, rng.choice(POISON[:4]), qos=1,
                                                  retain=True)
                        self.sent += 1
            elif blow == "delete":
                for side in ("white", "black"):
                    await self.client.publish(game_topic(code, side, "snapshot"), b"", qos=1,
                                              retain=True)
                    self.sent += 1
            else:
                mine = [(t, p) for t, p in self.seen if t.startswith(f"{PREFIX}/{code.room}/")]
                # the latest it saw (moves a takeback may have withdrawn since) and older ones
                for name, payload in mine[-6:] + rng.sample(mine, min(6, len(mine))):
                    await self.client.publish(name, payload, qos=1,
                                              retain=name.endswith(("snapshot", "request")))
                    self.sent += 1
        except aiomqtt.MqttError:
            pass  # the broker restarted under it: the next blow reconnects nothing, it waits


class _Board:
    def __init__(self, broker: LocalBroker, user: str, side: str, code: GameCode,
                 variant: str, actions: list[str], arrived: Callable[[str, Move], None],
                 takebacks: list[int] | None = None) -> None:
        self.side = side
        self.variant = variant
        moves = MoveLog.rebuild(code, new_game(variant), actions, takebacks or [])
        self.link = OnlineLink(BrokerAddress.parse(broker.url(user)), moves, side,
                               on_move=lambda m: arrived(side, m), backoff=(0.05, 0.5))
        self.task = asyncio.create_task(self.link.run())

    async def stop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        del self.task
        gc.collect()  # the MQTT client goes while its loop runs


async def _drill(broker: LocalBroker, games: int, restarts: int, kills: int, seed: int,
                 variant: str, progress: Callable[[int], None], attack: bool = False
                 ) -> dict[str, object]:
    rng = random.Random(seed)
    outsider = _Outsider(broker, random.Random(seed + 1)) if attack else None
    if outsider is not None:
        await outsider.start()
    plies_total = games * 60  # where the restarts and kills fall, spread over the run
    restart_at = set(rng.sample(range(5, plies_total), min(restarts, plies_total - 5)))
    kill_at = set(rng.sample(range(5, plies_total), min(kills, plies_total - 5)))
    latencies: list[float] = []
    counts = {"games": 0, "actions": 0, "lost": 0, "applied twice": 0, "forks": 0,
              "stalls": 0, "dropped": 0, "broker restarts": 0, "boards killed": 0}
    if attack:
        counts["takebacks"] = 0
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
            if outsider is not None:
                if outsider.task is None or outsider.task.done():
                    try:
                        await outsider.start()
                    except aiomqtt.MqttError:
                        pass  # the broker is not back yet: the next move tries again
                if outsider.task is not None and not outsider.task.done():
                    await outsider.strike(code)
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
                                        [m.action for m in old.link.moves.moves], arrived,
                                        old.link.moves.takebacks)
                counts["boards killed"] += 1
            deadline = time.monotonic() + WAIT
            while len(boards[there.side].link.moves.moves) < want:
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.001)
            if len(boards[there.side].link.moves.moves) < want:
                counts["stalls"] += 1  # the game stands still: the rest of it is not played
                break
            if attack and ply % TAKEBACK_EVERY == 0 and want > 2:
                # Both agree to take back the last two moves (as a request answered yes
                # does): what was applied of them may be applied again once made again.
                keep = want - 2
                for b in boards.values():
                    b.link.moves.truncate(keep)
                    await b.link.publish_snapshot()
                for ns in applied.values():
                    ns[:] = [n for n in ns if n <= keep]
                counts["takebacks"] += 1
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
    if outsider is not None:
        counts["attacker's messages"] = outsider.sent
        await outsider.stop()
    latencies.sort()
    return {**counts, "latency": latencies}


def drill(games: int = 20, restarts: int = 3, kills: int = 2, seed: int = 1,
          variant: str = "nine-mens-morris",
          progress: Callable[[int], None] = lambda n: None, attack: bool = False
          ) -> dict[str, object]:
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
                                          progress, attack))
            finally:
                broker.stop()
    finally:
        quiet.setLevel(level)


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    return f"{values[min(len(values) - 1, int(q * len(values)))] * 1000:.1f} ms"


def soak(out: Callable[[str], None], quick: bool, args: argparse.Namespace) -> None:
    """`navakankari bench online [--games N] [--broker-restarts R] [--kills K] [--seed S]
    [--attack]`."""
    run(out, quick, games=args.games, restarts=args.broker_restarts, kills=args.kills,
        seed=args.seed, attack=getattr(args, "attack", False))


def run(out: Callable[[str], None] = print, quick: bool = False, games: int | None = None,
        restarts: int = 3, kills: int = 2, seed: int = 1, attack: bool = False) -> None:
    games = games if games is not None else (3 if quick else 20)
    try:
        result = drill(games, restarts, kills, seed, attack=attack)
    except BrokerMissingError as exc:
        out(f"online drill: not run ({exc})")
        return
    latency = result.pop("latency")
    assert isinstance(latency, list)
    out(f"online drill{' under attack' if attack else ''}, "
        + ", ".join(f"{k} {v}" for k, v in result.items()))
    out(f"online move recorded -> arrived on the other board: p50 {_ms(latency, 0.5)}, "
        f"p99 {_ms(latency, 0.99)}, max {_ms(latency, 1.0)} ({len(latency)} moves)")
