"""Starting an online game: one board invites and shows a code, the other joins with it.

The inviter keeps its offer retained on `navakankari/v2/<lobby>/invite` (the lobby derived
from the game's secret), signed and sealed with the game's keys, so a board that joins later
still finds it and knows it is genuine. The joiner answers on `.../join` (retained too, so an
inviter that was briefly away still reads it). The offer names the colour the inviter plays
and which colour moves first; each player keeps its colour whoever starts, as on the board's
own menu. With a toss, the inviter's offer carries only a commitment, the joiner's answer its
bit, and the inviter's `.../reveal` opens the commitment (toss.py): neither board chooses who
starts. A reveal withheld past REVEAL_WAIT loses the toss
for the inviter (a `forfeit`), so withholding a losing one cannot help.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import aiomqtt

from navakankari.engine.presets import preset
from navakankari.hal.words import N_, Phrase

from .broker import BrokerAddress
from .code import GameCode
from .link import REFUSED_LOGIN, UNTRUSTED, describe, mqtt_client
from .messages import OLDER_WORDING, SIDES, Forfeit, Invite, Join, Message, Rejection, Reveal, sign
from .rejections import Rejections
from .toss import Committed, TossError, random_bit, starter
from .wire import OLDER, from_older, lobby_topic, older_topic, seal, unseal

log = logging.getLogger(__name__)

STARTS = ("white", "black", "toss")
REVEAL_WAIT = 30.0
"""Seconds the joiner waits for the toss's reveal before the inviter loses the toss."""
OTHER = {"white": "black", "black": "white"}


class InvitationError(RuntimeError):
    """The game could not be agreed; says why in words for the page and the log (`problem`,
    a `Phrase` where the page can word it in its language)."""

    def __init__(self, problem: Phrase) -> None:
        self.problem = problem
        super().__init__(problem)


@dataclass(frozen=True)
class Agreement:
    """What both boards agreed: the game, the colour this board plays (named in the offer,
    whoever starts), the colour that moves first (named or tossed), the other board's
    name."""

    code: GameCode
    variant: str
    colour: str
    first: str
    opponent: str
    note: str = ""  #: how the toss ended when it did not end as tossed, for the page


def client_id(role: str) -> str:
    """A client id nobody can guess: the broker keeps one connection per id, so an id made
    from the game's public id would let anyone who saw it take the inviter off the broker."""
    return f"navakankari-{role}-{secrets.token_hex(8)}"


def _topic(code: GameCode, what: str) -> str:
    return lobby_topic(code, what)


def forfeited(colour: str) -> Phrase:
    """What the page says when the reveal of the inviter (playing `colour`) did not come in
    time."""
    if OTHER[colour] == "white":
        return Phrase(N_("the inviting board did not reveal its toss within {seconds} s: it "
                         "loses the toss, so white (the joining board) starts"),
                      seconds=f"{REVEAL_WAIT:.0f}")
    return Phrase(N_("the inviting board did not reveal its toss within {seconds} s: it loses "
                     "the toss, so black (the joining board) starts"),
                  seconds=f"{REVEAL_WAIT:.0f}")


def offer(code: GameCode, variant: str, colour: str, starts: str, board: str
          ) -> tuple[Invite, Committed | None]:
    """The signed offer (and, for a toss, the private half of the commitment): the inviter
    plays `colour`, and `starts` names the colour that moves first or asks for a toss."""
    preset(variant)  # an unknown variant raises UnknownVariantError
    if colour not in SIDES or starts not in STARTS:
        raise ValueError(Phrase(N_("{side} must be {white} or {black}, and {starts} one of "
                                   "{choices}"), side="side", white="white", black="black",
                                starts="starts", choices=", ".join(STARTS)))
    toss = Committed.new(code.game) if starts == "toss" else None
    invite = sign(code.key, Invite(code.game, variant, colour, starts, board,
                                   toss.commit if toss else ""))
    assert isinstance(invite, Invite)
    return invite, toss


RETRY = (0.5, 10.0)  #: the first and the longest wait before the inviter connects again


async def host(address: BrokerAddress, code: GameCode, invite: Invite,
               toss: Committed | None, withdrawn: asyncio.Event | None = None, *,
               retry: tuple[float, float] = RETRY) -> Agreement | None:
    """Publish the offer and wait for a board to join; returns the agreement, or None once
    `withdrawn` is set (the client then leaves the broker as usual: a client cancelled
    while it connects is left half open). A lost connection is made again and the offer
    published again, until it is taken up or withdrawn; a refused login or an untrusted
    certificate, which waiting does not mend, is an InvitationError."""
    withdrawn = withdrawn or asyncio.Event()
    delay, problem = retry[0], ""
    while True:
        try:
            return await _host_once(address, code, invite, toss, withdrawn)
        except aiomqtt.MqttError as exc:
            text = describe(exc)
            if text.message in (REFUSED_LOGIN, UNTRUSTED):
                raise InvitationError(text) from None
            if text != problem:
                log.warning("online: the offer of game %s: %s; trying again", code.game, text)
                problem = text
        try:
            await asyncio.wait_for(withdrawn.wait(), delay)
            return None
        except asyncio.TimeoutError:
            delay = min(delay * 2, retry[1])


async def _host_once(address: BrokerAddress, code: GameCode, invite: Invite,
                     toss: Committed | None, withdrawn: asyncio.Event) -> Agreement | None:
    offered = seal(code, _topic(code, "invite"), invite)
    async with mqtt_client(address, client_id("host")) as client:
        # The reveal topic first: a joiner's forfeit kept there (the reveal was late) arrives
        # before the join, so no reveal is published over it.
        await client.subscribe(_topic(code, "reveal"), qos=1)
        await client.subscribe(_topic(code, "join"), qos=1)
        # Its own offer too: cleared or replaced by someone else, it is published again
        # (a payload sealed again differs from the last: what counts is what it opens to).
        await client.subscribe(_topic(code, "invite"), qos=1)
        await client.publish(_topic(code, "invite"), offered, qos=1, retain=True)
        log.info("online: game %s offered (%s, this board %s, %s starts)", code.game,
                 invite.variant, invite.colour, invite.starts)
        messages = aiter(client.messages)
        refused = Rejections(log)
        joined: Join | None = None
        told: Reveal | Forfeit | None = None  #: the first word on the reveal topic
        while True:
            message = await _next_or(messages, withdrawn)
            if message is None:
                log.info("online: the offer of game %s is withdrawn", code.game)
                return None
            name = str(message.topic)
            if name == _topic(code, "invite"):
                payload = message.payload
                found = unseal(code, name, bytes(payload)) if isinstance(
                    payload, (bytes, bytearray)) else None
                if found != invite:
                    refused.add("replaced", f"the offer of game {code.game} was cleared or "
                                "replaced on the broker; published again")
                    await client.publish(_topic(code, "invite"), offered, qos=1, retain=True)
                continue
            if name == _topic(code, "reveal"):
                word = _read(code, message, (Reveal, Forfeit), refused)
                if told is None and (isinstance(word, Forfeit) or (
                        isinstance(word, Reveal) and toss is not None
                        and word.nonce == toss.nonce)):
                    told = word
            elif joined is None:
                joining = _read(code, message, (Join,), refused)
                joined = joining if isinstance(joining, Join) else None
                if joined is not None and toss is not None and told is None:
                    reveal = sign(code.key, Reveal(code.game, toss.nonce, toss.bit))
                    await client.publish(_topic(code, "reveal"),
                                         seal(code, _topic(code, "reveal"), reveal), qos=1,
                                         retain=True)
            if joined is None or (toss is not None and told is None):
                continue  # the toss is decided by the first word on the reveal topic
            first, note = invite.starts, ""
            if toss is not None:
                if isinstance(told, Forfeit):
                    first, note = OTHER[invite.colour], forfeited(invite.colour)
                    log.warning("online: %s", note)
                else:
                    first = starter(code.game, toss.commit, toss.nonce, toss.bit, joined.bit)
            return Agreement(code, invite.variant, invite.colour, first, joined.board, note)


async def _next_or(messages: AsyncIterator[aiomqtt.Message], stop: asyncio.Event
                   ) -> aiomqtt.Message | None:
    """The next message, or None as soon as `stop` is set."""
    reading = asyncio.ensure_future(anext(messages))
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if reading.done():
        return reading.result()
    reading.cancel()
    await asyncio.gather(reading, return_exceptions=True)
    return None


async def join(address: BrokerAddress, code: GameCode, board: str,
               wait: float = 10.0, *,
               timer: Callable[[float], Awaitable[object]] = asyncio.sleep) -> Agreement:
    """Find the offer under `code`, answer it, and (for a toss) read the reveal: one not
    there within REVEAL_WAIT (`timer` waits that long) is forfeited, the joiner starts."""
    try:
        async with mqtt_client(address, client_id("join")) as client:
            # The join topic first, so a join already given arrives before the offer.
            await client.subscribe(_topic(code, "join"), qos=1)
            await client.subscribe(_topic(code, "invite"), qos=1)
            # Where an inviter of protocol 1 offers the game: named if it is there.
            await client.subscribe(older_topic(code, "invite"), qos=1)
            given: list[Join] = []
            invite = await _first(client, code, (Invite,), wait,
                                  Phrase(N_("no game waits under this code (ended, or "
                                            "mistyped?)")), given)
            assert isinstance(invite, Invite)
            await client.subscribe(_topic(code, "reveal"), qos=1)
            if given:
                # Joined before (a retry, a restart before the game was kept, a second
                # device): the answer given stands, or a fresh bit would meet the old reveal.
                bit = given[-1].bit
                log.info("online: game %s was joined already; going on with that answer",
                         code.game)
            else:
                bit = random_bit()
                answer = sign(code.key, Join(code.game, board, bit))
                await client.publish(_topic(code, "join"),
                                     seal(code, _topic(code, "join"), answer), qos=1,
                                     retain=True)
            first, note = invite.starts, ""
            if invite.starts == "toss":
                word = await _toss_word(client, code, board, wait, timer)
                if isinstance(word, Forfeit):
                    first, note = OTHER[invite.colour], forfeited(invite.colour)
                    log.warning("online: %s", note)
                else:
                    assert isinstance(word, Reveal)
                    try:
                        first = starter(code.game, invite.commit, word.nonce, word.bit, bit)
                    except TossError as exc:
                        raise InvitationError(exc.problem) from None
            return Agreement(code, invite.variant, OTHER[invite.colour], first, invite.board,
                             note)
    except aiomqtt.MqttError as exc:
        raise InvitationError(describe(exc)) from None


async def _toss_word(client: aiomqtt.Client, code: GameCode, board: str, wait: float,
                     timer: Callable[[float], Awaitable[object]]) -> Message:
    """The first word on the reveal topic: the inviter's reveal, or, once REVEAL_WAIT passed
    without one, this board's forfeit (unless a reveal beat it to the broker)."""
    reading = asyncio.ensure_future(_first(client, code, (Reveal, Forfeit), None, None))
    late = asyncio.ensure_future(timer(REVEAL_WAIT))
    await asyncio.wait({reading, late}, return_when=asyncio.FIRST_COMPLETED)
    late.cancel()
    if reading.done():
        return reading.result()
    forfeit = sign(code.key, Forfeit(code.game, board))
    await client.publish(_topic(code, "reveal"), seal(code, _topic(code, "reveal"), forfeit),
                         qos=1, retain=True)
    try:
        return await asyncio.wait_for(reading, wait)
    except asyncio.TimeoutError:
        raise InvitationError(Phrase(N_("the broker did not carry the toss's forfeit"))) from None


def _read(code: GameCode, message: aiomqtt.Message, kinds: tuple[type, ...],
          refused: Rejections, *, older: bool = False) -> Message | None:
    """The message if it is a valid one of `kinds` of this game, else None (counted and
    logged at most once a minute by `refused`). Never raises, whatever was published, but
    for a message a player of this game wrote in an older version (`older`): the
    InvitationError that names it."""
    payload = message.payload
    if not isinstance(payload, (bytes, bytearray)):
        refused.add("malformed", f"{message.topic}: no payload")
        return None
    found: Message | Rejection = unseal(code, str(message.topic), bytes(payload))
    if older and isinstance(found, Rejection) and found.reason == "old-version":
        raise InvitationError(OLDER_WORDING)
    if isinstance(found, Rejection):
        refused.add(found.reason, f"{message.topic}: {found.detail}")
        return None
    if not isinstance(found, kinds):
        refused.add("misplaced", f"{message.topic}: a {found.kind} has no place here")
        return None
    return found


async def _first(client: aiomqtt.Client, code: GameCode, kinds: tuple[type, ...],
                 wait: float | None, missing: Phrase | None,
                 joins: list[Join] | None = None) -> Message:
    """The first valid message of `kind` within `wait` seconds (valid joins met on the way
    are added to `joins`). Anyone on the broker may publish a wrongly sealed one, so it is
    passed over; an offer of protocol 1 under this code, or one of protocol 2 in its older
    wording, means the inviter runs an older version, and is said so."""
    refused = Rejections(log)

    async def first() -> Message:
        async for message in client.messages:
            if str(message.topic) == older_topic(code, "invite"):
                if isinstance(message.payload, (bytes, bytearray)) and from_older(
                        code, bytes(message.payload)):
                    raise InvitationError(OLDER)
                continue
            if joins is not None and str(message.topic) == _topic(code, "join"):
                join = _read(code, message, (Join,), refused)
                if isinstance(join, Join):
                    joins.append(join)
                continue
            found = _read(code, message, kinds, refused, older=True)
            if found is not None:
                return found
        raise InvitationError(Phrase(N_("the broker closed the connection")))  # pragma: no cover
    try:
        return await asyncio.wait_for(first(), wait)
    except asyncio.TimeoutError:
        raise InvitationError(missing or Phrase(N_("the other board did not answer"))) from None
