"""One board's side of an online game, kept in step through the broker.

Topics, under `navakankari/v1/<game id>/<side>/`: `move` (each move, QoS 1), `snapshot` (the
board's whole signed log, retained: what the other board reads to catch up, and how it learns
which moves arrived), and `presence` (retained "online", set to "offline" by the broker's will
when the board vanishes). The log is the outbox: after every (re)connection the board
publishes its snapshot and every move the other side has not acknowledged, so a move recorded
while the broker was away is delivered when it is back. Whatever arrives goes through the
move log's checks, so duplicates, replays and forgeries change nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

import aiomqtt

from .broker import BrokerAddress
from .log import MoveLog, Verdict
from .messages import MessageError, Move, Snapshot, decode, encode

log = logging.getLogger(__name__)
client_log = logging.getLogger(__name__ + ".mqtt")
"""The MQTT client's own messages (a socket error while the broker restarts, ...)."""

PREFIX = "navakankari/v1"
OTHER = {"white": "black", "black": "white"}


def topic(game: str, side: str, what: str) -> str:
    return f"{PREFIX}/{game}/{side}/{what}"


@dataclass(frozen=True)
class LinkState:
    """What the page and the lights show of the link."""

    connected: bool
    peer_online: bool
    peer_seen: float | None  #: when the other board was last heard from (the link's clock)
    sent: int  #: moves in the log
    acked: int  #: moves the other board holds
    rejected: int  #: messages dropped (forged, replayed, for the wrong side, garbage)
    problem: str  #: the last connection problem in words, "" while connected


def mqtt_client(address: BrokerAddress, identifier: str, *,
                will: aiomqtt.Will | None = None) -> aiomqtt.Client:
    """An MQTT 5 client for the broker at `address`, as every part of online play connects."""
    return aiomqtt.Client(
        address.host, address.port, username=address.username or None,
        password=address.password or None, identifier=identifier, logger=client_log,
        protocol=aiomqtt.ProtocolVersion.V5, transport=address.transport,  # type: ignore[arg-type]
        websocket_path=address.path or None, tls_context=address.tls_context(), keepalive=10,
        timeout=5,
        # A move is one small packet: sent at once, not held back for more (Nagle).
        socket_options=((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),), will=will)


def describe(exc: BaseException) -> str:
    """A connection problem in one line a person can act on."""
    text = str(exc)
    low = text.lower()
    if "not authori" in low or "bad user name or password" in low or "code:5" in low \
            or "code:135" in low or "code:134" in low:
        return "the broker refused the login: check the user name and password"
    if "certificate" in low or "ssl" in low:
        return f"the broker's TLS certificate is not trusted ({text}): check ca_file"
    if "disconnected" in low:
        return "lost the connection to the broker"
    if "refused" in low or "no route" in low or "unreachable" in low or "timed out" in low \
            or "errno" in low or "name or service" in low:
        return f"cannot reach the broker ({text})"
    return f"the broker connection failed ({text})"


class OnlineLink:
    """Connects, reconnects, sends this board's moves and hands on the other's."""

    def __init__(self, address: BrokerAddress, moves: MoveLog, side: str, *,
                 on_move: Callable[[Move], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 backoff: tuple[float, float] = (0.2, 5.0),
                 on_change: Callable[[], None] | None = None) -> None:
        """`on_change`: told when what `state` says changed (connected, the other board's
        presence, a message dropped), for the page."""
        if side not in OTHER:
            raise ValueError(f"side must be white or black, not {side!r}")
        self.address = address
        self.moves = moves
        self.side = side
        self.other = OTHER[side]
        self.on_move = on_move
        self.clock = clock
        self.backoff = backoff
        self.on_change = on_change
        self.connected = asyncio.Event()
        self._client: aiomqtt.Client | None = None
        self._peer_online = False
        self._peer_seen: float | None = None
        self._acked = 0
        self._rejected = 0
        self._problem = ""

    # -- what others read --------------------------------------------------------------------
    @property
    def state(self) -> LinkState:
        return LinkState(self.connected.is_set(), self._peer_online, self._peer_seen,
                         len(self.moves.moves), self._acked, self._rejected, self._problem)

    def _topic(self, side: str, what: str) -> str:
        return topic(self.moves.code.game, side, what)

    # -- the connection ----------------------------------------------------------------------
    def _make_client(self) -> aiomqtt.Client:
        return mqtt_client(
            self.address,
            f"navakankari-{self.moves.code.game}-{self.side}-{secrets.token_hex(3)}",
            will=aiomqtt.Will(self._topic(self.side, "presence"), b"offline", qos=1, retain=True))

    async def run(self) -> None:
        """Stay connected until cancelled; every problem is one log line and a retry."""
        delay = self.backoff[0]
        while True:
            try:
                async with self._make_client() as client:
                    self._client = client
                    await client.subscribe(self._topic(self.other, "#"), qos=1)
                    await client.publish(self._topic(self.side, "presence"), b"online", qos=1,
                                         retain=True)
                    await self._publish_outbox(client)
                    if self._problem:
                        log.info("online: connected again to %s", self.address)
                    else:
                        log.info("online: connected to %s as %s", self.address, self.side)
                    self._problem = ""
                    self.connected.set()
                    self._changed()
                    delay = self.backoff[0]
                    try:
                        async for message in client.messages:
                            self._handle(str(message.topic), message.payload)
                    except asyncio.CancelledError:
                        # Leaving on purpose: the broker sends no will for a clean goodbye,
                        # so say it here, as the will would.
                        await self._say_offline(client)
                        raise
            except aiomqtt.MqttError as exc:
                problem = describe(exc)
                if problem != self._problem:
                    log.warning("online: %s; trying again", problem)
                    self._problem = problem
                    self._changed()
            finally:
                self._client = None
                if self.connected.is_set():
                    self.connected.clear()
                    self._changed()
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff[1])

    async def _say_offline(self, client: aiomqtt.Client) -> None:
        try:
            await asyncio.wait_for(client.publish(self._topic(self.side, "presence"),
                                                  b"offline", qos=1, retain=True), 2.0)
        except (aiomqtt.MqttError, asyncio.TimeoutError):
            log.info("online: could not say goodbye; the broker's will says it instead")

    async def send(self, move: Move) -> None:
        """Publish a move just recorded in the log (it stays there until acknowledged, and is
        published again after a reconnection if the broker was away)."""
        client = self._client
        if client is None:
            return
        try:
            await client.publish(self._topic(self.side, "move"), encode(move), qos=1)
            await self._publish_snapshot(client)
        except aiomqtt.MqttError as exc:
            log.info("online: move %d waits for the broker (%s)", move.n, exc)

    async def _publish_outbox(self, client: aiomqtt.Client) -> None:
        await self._publish_snapshot(client)
        for move in self.moves.moves[self._acked:]:
            await client.publish(self._topic(self.side, "move"), encode(move), qos=1)

    async def _publish_snapshot(self, client: aiomqtt.Client) -> None:
        await client.publish(self._topic(self.side, "snapshot"),
                             encode(self.moves.snapshot(self.side)), qos=1, retain=True)

    # -- what arrives ------------------------------------------------------------------------
    def _handle(self, name: str, payload: object) -> None:
        what = name.rsplit("/", 1)[-1]
        self._peer_seen = self.clock()
        if what == "presence":
            self._peer_online = payload == b"online"
            self._changed()
            return
        if not isinstance(payload, (bytes, bytearray)):
            self._reject(f"{what}: no payload")
            return
        try:
            message = decode(self.moves.code.key, self.moves.code.game, bytes(payload))
        except MessageError as exc:
            self._reject(f"{what}: {exc}")
            return
        if isinstance(message, Snapshot) and message.side == self.other:
            self._acked = max(self._acked, min(len(message.moves), len(self.moves.moves)))
            for got, move in zip(self.moves.catch_up(message), message.moves):
                self._after(move, got.verdict, got.why)
        elif isinstance(message, Move) and what == "move":
            got = self.moves.receive(message)
            self._after(message, got.verdict, got.why)
        else:
            self._reject(f"{what}: a {message.kind} has no place here")

    def _after(self, move: Move, verdict: Verdict, why: str) -> None:
        if verdict is Verdict.APPLIED:
            log.info("online: move %d %s by %s", move.n, move.action, move.side)
            if self.on_move is not None:
                self.on_move(move)
        elif verdict in (Verdict.REJECTED, Verdict.FORK):
            self._reject(why)

    def _reject(self, why: str) -> None:
        self._rejected += 1
        log.warning("online: dropped a message: %s", why)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
