"""Starting an online game: one board invites and shows a code, the other joins with it.

The inviter keeps its offer retained on `navakankari/v1/<game id>/invite`, signed with the
game's key, so a board that joins later still finds it and knows it is genuine. The joiner
answers on `.../join` (retained too, so an inviter that was briefly away still reads it). With
a toss, the inviter's offer carries only a commitment, the joiner's answer its bit, and the
inviter's `.../reveal` opens the commitment (toss.py): neither board chooses who starts.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TypeVar

import aiomqtt

from navakankari.engine.presets import preset

from .broker import BrokerAddress
from .code import GameCode
from .link import PREFIX, describe, mqtt_client
from .messages import SIDES, Invite, Join, Rejection, Reveal, encode, read, sign
from .rejections import Rejections
from .toss import Committed, TossError, random_bit, starter

log = logging.getLogger(__name__)

STARTS = ("white", "black", "toss")
T = TypeVar("T", Invite, Join, Reveal)


class InvitationError(RuntimeError):
    """The game could not be agreed; says why in words for the page and the log."""


@dataclass(frozen=True)
class Agreement:
    """What both boards agreed: the game, this board's side, who moves first, the other
    board's name."""

    code: GameCode
    variant: str
    side: str
    first: str
    opponent: str

    @property
    def colour(self) -> str:
        """The colour this board plays in the game record: the side that starts moves first,
        and the first mover is white in a record, as on the board's own menu."""
        return "white" if self.side == self.first else "black"


def client_id(role: str) -> str:
    """A client id nobody can guess: the broker keeps one connection per id, so an id made
    from the game's public id would let anyone who saw it take the inviter off the broker."""
    return f"navakankari-{role}-{secrets.token_hex(8)}"


def _topic(code: GameCode, what: str) -> str:
    return f"{PREFIX}/{code.game}/{what}"


def offer(code: GameCode, variant: str, side: str, starts: str, board: str
          ) -> tuple[Invite, Committed | None]:
    """The signed offer (and, for a toss, the private half of the commitment)."""
    preset(variant)  # an unknown variant raises UnknownVariantError
    if side not in SIDES or starts not in STARTS:
        raise ValueError(f"side must be white or black and starts one of {STARTS}")
    toss = Committed.new(code.game) if starts == "toss" else None
    invite = sign(code.key, Invite(code.game, variant, side, starts, board,
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
            if text.startswith(("the broker refused the login", "the broker's TLS")):
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
    offered = encode(invite)
    async with mqtt_client(address, client_id("host")) as client:
        await client.subscribe(_topic(code, "join"), qos=1)
        # Its own offer too: cleared or replaced by someone else, it is published again.
        await client.subscribe(_topic(code, "invite"), qos=1)
        await client.publish(_topic(code, "invite"), offered, qos=1, retain=True)
        log.info("online: game %s offered (%s, this board %s)", code.game, invite.variant,
                 invite.side)
        messages = aiter(client.messages)
        refused = Rejections(log)
        while True:
            message = await _next_or(messages, withdrawn)
            if message is None:
                log.info("online: the offer of game %s is withdrawn", code.game)
                return None
            if str(message.topic) == _topic(code, "invite"):
                if message.payload != offered:
                    refused.add("replaced", f"the offer of game {code.game} was cleared or "
                                "replaced on the broker; published again")
                    await client.publish(_topic(code, "invite"), offered, qos=1, retain=True)
                continue
            join = _read(code, message, Join, refused)
            if join is None:
                continue
            first = invite.starts
            if toss is not None:
                reveal = sign(code.key, Reveal(code.game, toss.nonce, toss.bit))
                await client.publish(_topic(code, "reveal"), encode(reveal), qos=1,
                                     retain=True)
                first = starter(code.game, toss.commit, toss.nonce, toss.bit, join.bit)
            return Agreement(code, invite.variant, invite.side, first, join.board)


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
               wait: float = 10.0) -> Agreement:
    """Find the offer under `code`, answer it, and (for a toss) read the reveal."""
    other = {"white": "black", "black": "white"}
    try:
        async with mqtt_client(address, client_id("join")) as client:
            # The join topic first, so a join already given arrives before the offer.
            await client.subscribe(_topic(code, "join"), qos=1)
            await client.subscribe(_topic(code, "invite"), qos=1)
            given: list[Join] = []
            invite = await _first(client, code, Invite, wait,
                                  "no game waits under this code (ended, or mistyped?)", given)
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
                await client.publish(_topic(code, "join"), encode(answer), qos=1, retain=True)
            first = invite.starts
            if invite.starts == "toss":
                reveal = await _first(client, code, Reveal, wait,
                                      "the inviting board did not finish the toss")
                try:
                    first = starter(code.game, invite.commit, reveal.nonce, reveal.bit, bit)
                except TossError as exc:
                    raise InvitationError(str(exc)) from None
            return Agreement(code, invite.variant, other[invite.side], first, invite.board)
    except aiomqtt.MqttError as exc:
        raise InvitationError(describe(exc)) from None


def _read(code: GameCode, message: aiomqtt.Message, kind: type[T], refused: Rejections
          ) -> T | None:
    """The message if it is a valid `kind` of this game, else None (counted and logged at
    most once a minute by `refused`). Never raises, whatever was published."""
    payload = message.payload
    if not isinstance(payload, (bytes, bytearray)):
        refused.add("malformed", f"{message.topic}: no payload")
        return None
    found = read(code.key, code.game, bytes(payload))
    if isinstance(found, Rejection):
        refused.add(found.reason, f"{message.topic}: {found.detail}")
        return None
    if not isinstance(found, kind):
        refused.add("misplaced", f"{message.topic}: a {found.kind} has no place here")
        return None
    return found


async def _first(client: aiomqtt.Client, code: GameCode, kind: type[T], wait: float,
                 missing: str, joins: list[Join] | None = None) -> T:
    """The first valid message of `kind` within `wait` seconds (valid joins met on the way
    are added to `joins`). Anyone on the broker may publish a wrongly signed one, so it is
    passed over; only if nothing valid came, a wrong signature seen means the code names
    this game but its secret part was mistyped."""
    refused = Rejections(log)

    async def first() -> T:
        async for message in client.messages:
            if joins is not None and str(message.topic) == _topic(code, "join"):
                join = _read(code, message, Join, refused)
                if join is not None:
                    joins.append(join)
                continue
            found = _read(code, message, kind, refused)
            if found is not None:
                return found
        raise InvitationError("the broker closed the connection")  # pragma: no cover
    try:
        return await asyncio.wait_for(first(), wait)
    except asyncio.TimeoutError:
        if refused.counts.get("bad-signature"):
            raise InvitationError("this code names a game but does not open it: check its "
                                  "last symbols") from None
        raise InvitationError(missing) from None
