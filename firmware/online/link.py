"""One board's side of an online game, kept in step through the broker.

Topics, under `navakankari/v2/<room>/<side>/` (the room derived from the game's secret): `move`
(each move, QoS 1), `snapshot` (the
board's whole signed log, retained: what the other board reads to catch up, and how it learns
which moves arrived), and `presence` (retained "online", set to "offline" by the broker's will
when the board vanishes). The log is the outbox: after every (re)connection the board
publishes its snapshot and every move the other side has not acknowledged, so a move recorded
while the broker was away is delivered when it is back. Whatever arrives goes through the
move log's checks, so duplicates, replays and forgeries change nothing. Every payload is sealed
(wire.py); what a player of protocol 1 publishes for the same code is recognised and named.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiomqtt

from navakankari.hal.words import N_, Phrase

from .broker import BrokerAddress
from .log import MoveLog, Verdict
from .code import GameCode
from .messages import Answer, Message, Move, Rejection, Request, Resync, Snapshot, sign
from .rejections import Rejections
from .supervise import BACKOFF, supervise
from .wire import OLDER, PREFIX, from_older, game_topic, older_topic, seal, unseal

log = logging.getLogger(__name__)
client_log = logging.getLogger(__name__ + ".mqtt")
"""The MQTT client's own messages (a socket error while the broker restarts, ...)."""

__all__ = ["PREFIX", "OnlineLink", "topic"]
OTHER = {"white": "black", "black": "white"}
QUIET = 10.0
"""Seconds a board waiting for the other's move hears nothing before it asks (a resync)."""
ANSWER_EVERY = 2.0
"""Seconds between two republishings of the log for the other (a resync asked, its presence
back online): asking again, or replaying the asking, cannot make a board flood."""


def topic(code: GameCode, side: str, what: str) -> str:
    return game_topic(code, side, what)


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
    alarm: str = ""  #: a request this board never made, published in its name


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


REFUSED_LOGIN = N_("the broker refused the login: check the user name and password")
UNTRUSTED = N_("the broker's TLS certificate is not trusted ({problem}): check ca_file")


def describe(exc: BaseException) -> Phrase:
    """A connection problem in one line a person can act on (a phrase the page words in its
    language; the library's own text kept as it is)."""
    text = str(exc)
    low = text.lower()
    if "not authori" in low or "bad user name or password" in low or "code:5" in low \
            or "code:135" in low or "code:134" in low:
        return Phrase(REFUSED_LOGIN)
    if "certificate" in low or "ssl" in low:
        return Phrase(UNTRUSTED, problem=text)
    if "disconnected" in low:
        return Phrase(N_("lost the connection to the broker"))
    if "refused" in low or "no route" in low or "unreachable" in low or "timed out" in low \
            or "errno" in low or "name or service" in low:
        return Phrase(N_("cannot reach the broker ({problem})"), problem=text)
    return Phrase(N_("the broker connection failed ({problem})"), problem=text)


DISOWNED = {
    "resign": N_("a resignation this board never made was published in its name by someone "
                 "holding the game's code; the other board may have acted on it"),
    "takeback": N_("a takeback request this board never made was published in its name by "
                   "someone holding the game's code; the other board may have acted on it"),
    "new-game": N_("a new game request this board never made was published in its name by "
                   "someone holding the game's code; the other board may have acted on it"),
}
"""The alarm of a request in this board's name that it never made, by what was asked (every
one of messages.REQUESTS, the only kinds a request decodes with)."""


class OnlineLink:
    """Connects, reconnects, sends this board's moves and hands on the other's."""

    def __init__(self, address: BrokerAddress, moves: MoveLog, side: str, *,
                 on_move: Callable[[Move], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 backoff: tuple[float, float] = (0.2, 5.0),
                 on_change: Callable[[], None] | None = None,
                 asked: Request | None = None,
                 heard: set[str] | None = None,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
                 restart: tuple[float, float] = BACKOFF) -> None:
        """`on_change`: told when what `state` says changed (connected, the other board's
        presence, a message dropped), for the page. `asked`: this player's request still
        waiting for its answer (kept in the store across a restart). `heard`: the ids of the
        requests already heard (kept in the store too, so none is acted on twice). `sleep` and
        `restart`: the wait before the link starts again after an unexpected fault (`sleep`
        also waits out a republishing asked for too soon)."""
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
        self.on_request: Callable[[Request], None] | None = None
        self.on_answer: Callable[[Request, bool], None] | None = None
        self.on_fork: Callable[[], None] | None = None  #: told when the two games part
        self.asked = asked  #: this player's request waiting for the other's answer
        self.asked_of_us: Request | None = None  #: the other's request waiting for ours
        self._retained: dict[str, Message] = {}  #: request/answer, republished on reconnection
        self.heard: set[str] = set(heard or ())  #: request ids already handled
        self.on_heard: Callable[[], None] | None = None  #: told when `heard` grew
        self._mine: set[str] = {asked.id} if asked is not None else set()
        """the ids of this board's own requests: any other request in its name is forged"""
        self.alarm = ""  #: something a holder of the code did in this board's name
        self._clear_task: asyncio.Task[None] | None = None  #: a settled request's clearing
        self._decline_task: asyncio.Task[None] | None = None  #: an out-of-date one's answer
        self.connected = asyncio.Event()
        self._client: aiomqtt.Client | None = None
        self._peer_online = False
        self._peer_seen: float | None = None
        self._acked = 0
        self.rejections = Rejections(log, clock=clock)
        self._problem = ""
        self._sleep = sleep
        self._restart = restart
        self._heard_at = clock()  #: when a valid message of the other's last came
        self._asked_at: float | None = None  #: when this board last asked for a resync
        self._answered_at: float | None = None  #: when it last republished for the other
        self._pending_after: int | None = None  #: a republishing asked for too soon: from here
        self._tasks: set[asyncio.Task[None]] = set()

    # -- what others read --------------------------------------------------------------------
    @property
    def state(self) -> LinkState:
        return LinkState(self.connected.is_set(), self._peer_online, self._peer_seen,
                         len(self.moves.moves), self._acked, self.rejections.total,
                         self._problem, self.alarm)

    def _topic(self, side: str, what: str) -> str:
        return topic(self.moves.code, side, what)

    def _sealed(self, what: str, message: Message) -> bytes:
        """`message` as published on this board's `what` topic."""
        return seal(self.moves.code, self._topic(self.side, what), message)

    # -- the connection ----------------------------------------------------------------------
    def _make_client(self) -> aiomqtt.Client:
        return mqtt_client(
            self.address,
            f"navakankari-{self.side}-{secrets.token_hex(8)}",
            will=aiomqtt.Will(self._topic(self.side, "presence"), b"offline", qos=1, retain=True))

    async def run(self) -> None:
        """Stay connected until cancelled; every problem is one log line and a retry, and an
        unexpected fault is shown as the problem and the link started again."""
        await supervise(Phrase(N_("the link")), self._connect_forever, on_problem=self._fault,
                        sleep=self._sleep, backoff=self._restart)

    def _fault(self, problem: str) -> None:
        self._problem = problem
        self._changed()

    async def _connect_forever(self) -> None:
        delay = self.backoff[0]
        while True:
            try:
                async with self._make_client() as client:
                    self._client = client
                    await client.subscribe(self._topic(self.other, "#"), qos=1)
                    # Its own request topic too: a request in its name it never made (a
                    # resignation forged by someone holding the code) is noticed and shown.
                    await client.subscribe(self._topic(self.side, "request"), qos=1)
                    # Where the other would publish if it ran protocol 1: named, not silence.
                    await client.subscribe(older_topic(self.moves.code, self.other, "#"), qos=1)
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
                    # Back after being away: ask for what the other holds rather than trust
                    # its retained snapshot, which anyone may have replaced or deleted.
                    self._asked_at = None
                    self._ask_resync()
                    watch = asyncio.get_running_loop().create_task(self._watch())
                    try:
                        async for message in client.messages:
                            self._handle(str(message.topic), message.payload)
                    except asyncio.CancelledError:
                        # Leaving on purpose: the broker sends no will for a clean goodbye,
                        # so say it here, as the will would.
                        await self._say_offline(client)
                        raise
                    finally:
                        watch.cancel()
            except aiomqtt.MqttError as exc:
                problem = describe(exc)
                if problem != self._problem:
                    log.warning("online: %s; trying again", problem)
                    self._problem = problem
                    self._changed()
            finally:
                self._client = None
                for task in self._tasks:  # publishing on a client that is gone
                    task.cancel()
                self._pending_after = None  # asked again after the next connection
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
            await client.publish(self._topic(self.side, "move"), self._sealed("move", move),
                                 qos=1)
            await self._publish_snapshot(client)
        except aiomqtt.MqttError as exc:
            log.info("online: move %d waits for the broker (%s)", move.n, exc)

    # -- requests ----------------------------------------------------------------------------
    async def ask(self, what: str, keep: int) -> Request:
        """Publish this player's request (retained, so an opponent who is away reads it on
        return): a takeback to `keep` moves, a new game, or resigning."""
        at = len(self.moves.moves)
        request = sign(self.moves.code.key, Request(self.moves.code.game, self.side, what, at,
                                                    keep, secrets.token_hex(8),
                                                    self.moves.era))
        assert isinstance(request, Request)
        self.asked = None if what == "resign" else request
        self._mine.add(request.id)
        await self._publish_retained("request", request)
        return request

    async def answer(self, accept: bool) -> Request:
        """Answer the other player's request; returns it."""
        request = self.asked_of_us
        if request is None:
            raise ValueError("no request waits for an answer")
        self.asked_of_us = None
        answer = sign(self.moves.code.key, Answer(self.moves.code.game, self.side, request.id,
                                                  int(accept)))
        await self._publish_retained("answer", answer)
        return request

    async def _publish_retained(self, what: str, message: Message) -> None:
        self._retained[what] = message
        client = self._client
        if client is None:
            return  # published on reconnection
        try:
            await client.publish(self._topic(self.side, what), self._sealed(what, message),
                                 qos=1, retain=True)
        except aiomqtt.MqttError as exc:
            log.info("online: the %s waits for the broker (%s)", message.kind, exc)

    async def _clear(self, what: str) -> None:
        client = self._client
        if client is not None:
            try:
                await client.publish(self._topic(self.side, what), b"", qos=1, retain=True)
            except aiomqtt.MqttError:
                pass  # the answer is in: an old request is out of date anyway

    async def publish_snapshot(self) -> None:
        """The log changed outside play (a takeback both agreed to): say so, and ask for what
        the other made since (a move of the new era that came before the answer)."""
        if self._client is not None:
            try:
                await self._publish_snapshot(self._client)
            except aiomqtt.MqttError as exc:
                log.info("online: the snapshot waits for the broker (%s)", exc)
            self._asked_at = None
            self._ask_resync()

    async def _publish_outbox(self, client: aiomqtt.Client) -> None:
        for what, message in self._retained.items():
            await client.publish(self._topic(self.side, what), self._sealed(what, message),
                                 qos=1, retain=True)
        await self._publish_snapshot(client)
        for move in self.moves.moves[self._acked:]:
            await client.publish(self._topic(self.side, "move"), self._sealed("move", move),
                                 qos=1)

    # -- liveness: a board that hears nothing asks --------------------------------------------
    async def _watch(self) -> None:
        """Once a second while connected: ask for a resync if the game waits for the other
        and nothing came from it for QUIET seconds."""
        while True:
            await asyncio.sleep(1.0)
            self.check_quiet()

    def check_quiet(self) -> bool:
        """Ask the other for its log if this board waits for its move and has heard nothing
        for QUIET seconds (nor asked in that time); True if it asked."""
        game = self.moves.game
        if self.moves.forked or game.outcome() is not None or str(game.turn) != self.other:
            return False
        now = self.clock()
        if now - self._heard_at < QUIET or (self._asked_at is not None
                                            and now - self._asked_at < QUIET):
            return False
        return self._ask_resync()

    def _ask_resync(self) -> bool:
        """Ask the other for its log after the moves held here, at most once every
        ANSWER_EVERY seconds; True if it asked."""
        client, now = self._client, self.clock()
        if client is None or (self._asked_at is not None
                              and now - self._asked_at < ANSWER_EVERY):
            return False
        self._asked_at = now
        resync = sign(self.moves.code.key, Resync(self.moves.code.game, self.side,
                                                  len(self.moves.moves)))
        self._spawn(client.publish(self._topic(self.side, "resync"),
                                   self._sealed("resync", resync), qos=1))
        return True

    def _republish(self, after: int) -> bool:
        """Publish the log again for the other (its snapshot and the moves after `after`),
        at most once every ANSWER_EVERY seconds: one asked for sooner is sent when that time
        is up, with everything asked for meanwhile. True if it went out at once."""
        client, now = self._client, self.clock()
        if client is None:
            return False
        if self._pending_after is not None:
            self._pending_after = min(self._pending_after, after)
            return False
        wait = 0.0 if self._answered_at is None else self._answered_at + ANSWER_EVERY - now
        if wait > 0:
            self._pending_after = after
            self._spawn(self._republish_later(wait))
            return False
        self._answered_at = now

        async def republish() -> None:
            await self._publish_snapshot(client)
            for move in self.moves.moves[after:]:
                await client.publish(self._topic(self.side, "move"),
                                     self._sealed("move", move), qos=1)
        self._spawn(republish())
        return True

    async def _republish_later(self, wait: float) -> None:
        await self._sleep(wait)
        after, self._pending_after = self._pending_after, None
        if after is not None:
            self._answered_at = None  # its wait is over
            self._republish(after)

    def _spawn(self, coro: Awaitable[object]) -> None:
        async def guarded() -> None:
            try:
                await coro
            except aiomqtt.MqttError as exc:
                log.info("online: a message waits for the broker (%s)", exc)
            except Exception:  # a fault here must not pass unseen
                log.exception("online: publishing for the other board failed")
        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _publish_snapshot(self, client: aiomqtt.Client) -> None:
        await client.publish(self._topic(self.side, "snapshot"),
                             self._sealed("snapshot", self.moves.snapshot(self.side)), qos=1,
                             retain=True)

    # -- what arrives ------------------------------------------------------------------------
    def _handle(self, name: str, payload: object) -> None:
        """One message from the broker. Whatever it holds, it cannot end the link: a fault
        in handling it is logged (once a minute) and counted like a refused message."""
        try:
            self._dispatch(name, payload)
        except Exception as exc:  # one message never ends the link
            log.debug("online: handling a message on %s failed", name, exc_info=True)
            self._reject(f"{type(exc).__name__} handling a message on {name[-40:]}: "
                         f"{str(exc)[:200]}", "fault")

    def _dispatch(self, name: str, payload: object) -> None:
        what = name.rsplit("/", 1)[-1]
        if name.startswith(older_topic(self.moves.code, self.other, "")):
            self._older(payload)
            return
        own_request = name == self._topic(self.side, "request")
        if name != self._topic(self.other, what) and not own_request:
            self._reject(f"a message on {name[-60:]!r}", "misplaced")  # deeper, or elsewhere
            return
        if not isinstance(payload, (bytes, bytearray)):
            self._reject(f"{what}: no payload", "malformed")
            return
        if what == "presence":
            if payload not in (b"online", b"offline"):
                self._reject("presence: neither online nor offline", "malformed")
                return
            self._peer_seen = self.clock()
            back = payload == b"online" and not self._peer_online
            self._peer_online = payload == b"online"
            if back:  # what it missed while away, without waiting for a snapshot's luck
                self._republish(self._acked)
            self._changed()
            return
        if not payload and what in ("request", "answer"):
            return  # a retained request or answer cleared
        message = unseal(self.moves.code, name, bytes(payload))
        if isinstance(message, Rejection):
            self._reject(f"{what}: {message.detail}", message.reason)
            return
        if own_request:
            self._own_request(message)
            return
        self._peer_seen = self._heard_at = self.clock()
        if isinstance(message, Resync) and what == "resync" and message.side == self.other:
            held = len(self.moves.moves)
            self._acked = max(self._acked, min(message.after, held))
            if message.after < held:
                self._republish(message.after)
            elif message.after > held:  # it holds a move this board never heard of
                self._ask_resync()
            return
        if isinstance(message, Snapshot) and what == "snapshot" and message.side == self.other:
            self._acked = max(self._acked, min(len(message.moves), len(self.moves.moves)))
            for got, move in zip(self.moves.catch_up(message), message.moves):
                self._after(move, got.verdict, got.why)
        elif isinstance(message, Move) and what == "move":
            got = self.moves.receive(message, self.other)
            self._after(message, got.verdict, got.why)
        elif isinstance(message, Request) and what == "request" and message.side == self.other:
            self._requested(message)
        elif isinstance(message, Answer) and what == "answer" and message.side == self.other:
            self._answered(message)
        else:
            self._reject(f"{what}: a {message.kind} has no place here", "misplaced")

    def _older(self, payload: object) -> None:
        """Something on the other side's protocol-1 topics: if a player of this game signed
        it, the other runs the older version and is named as such on the page; anything
        else there is noise."""
        if isinstance(payload, (bytes, bytearray)) and from_older(self.moves.code,
                                                                   bytes(payload)):
            if self._problem != OLDER:
                log.error("online: %s", OLDER)
            self._problem = OLDER
            self._reject(OLDER, "old-version")

    def _own_request(self, message: Message) -> None:
        """A request on this board's own topic: its own (retained), or one someone holding
        the code published in its name, which is refused, shown and cleared."""
        if not isinstance(message, Request) or message.side != self.side:
            self._reject(f"a {message.kind} on this board's request topic", "misplaced")
            return
        if message.id in self._mine:
            return
        self._mine.add(message.id)  # said once
        self.alarm = Phrase(DISOWNED[message.what])
        log.error("online: %s", self.alarm)
        self.rejections.add("disowned", self.alarm)
        self._clear_task = asyncio.get_running_loop().create_task(self._clear("request"))
        self._changed()

    def _requested(self, request: Request) -> None:
        if request.id in self.heard:
            return  # the same request again (retained, or after a reconnection)
        self.heard.add(request.id)
        if self.on_heard is not None:
            self.on_heard()
        held, era = len(self.moves.moves), self.moves.era
        if request.what != "resign" and (request.at != held or request.keep > held
                                         or request.era != era):
            # Asked about another position than this board's: out of date (the game moved
            # on, or a request replayed from earlier). Declined, so the asker does not wait.
            self._reject(f"a {request.what} request made at move {request.at} of era "
                         f"{request.era}, here the game is at move {held} of era {era}",
                         "refused")
            self._decline_task = asyncio.get_running_loop().create_task(
                self._publish_retained("answer", sign(self.moves.code.key, Answer(
                    self.moves.code.game, self.side, request.id, 0))))
            return
        log.info("online: %s %s", self.other, "resigns" if request.what == "resign"
                 else f"asks for a {request.what}")
        if request.what != "resign":
            self.asked_of_us = request
        if self.on_request is not None:
            self.on_request(request)
        self._changed()

    def _answered(self, answer: Answer) -> None:
        request = self.asked
        if request is None or answer.id != request.id:
            return  # an answer to a request settled already
        self.asked = None
        self._retained.pop("request", None)
        # Settled: cleared from the broker, so it is not asked again after a restart.
        self._clear_task = asyncio.get_running_loop().create_task(self._clear("request"))
        log.info("online: %s %s the %s", self.other,
                 "accepts" if answer.accept else "declines", request.what)
        if self.on_answer is not None:
            self.on_answer(request, bool(answer.accept))
        self._changed()

    def _after(self, move: Move, verdict: Verdict, why: str) -> None:
        if verdict is Verdict.GAP:
            self._ask_resync()  # moves went missing: ask for them
        if verdict is Verdict.APPLIED:
            log.info("online: move %d %s by %s", move.n, move.action, move.side)
            if self.on_move is not None:
                self.on_move(move)
        elif verdict in (Verdict.REJECTED, Verdict.STALE):
            self._reject(why, verdict.value)
        elif verdict is Verdict.FORK:
            if self.on_fork is not None:
                self.on_fork()  # the board stops showing the other's moves
            self._changed()  # not a dropped message: the game stopped, the page says where

    def _reject(self, why: str, kind: str) -> None:
        self.rejections.add(kind, why)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
