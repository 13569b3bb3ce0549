"""Online play on a running board: inviting, joining, and keeping the game in play linked.

The board's daemon holds one `OnlinePlay` when a broker is configured. An invitation or a join
that is agreed starts the game on the board (this board's side played by its hands, the other
as `online`), keeps the game's code in the store so a restart or a power cut links the same
game again, and ties the session to the broker through a link and a bridge. The page reads
`state()`; the code is shown there to be read aloud, the broker's password never.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game

from ..core.players import HAND, PlayerSpec
from ..core.session import Session, Update
from ..store.database import Store
from .bridge import OnlineBridge
from .broker import BrokerAddress
from .code import GameCode
from .invitation import Agreement, InvitationError, host, join, offer
from .link import OnlineLink
from .log import MoveLog

log = logging.getLogger(__name__)

ONLINE = PlayerSpec("online")
SHUTDOWN_WAIT = 6.0
"""Seconds a withdrawn offer may take to leave the broker at shutdown (one still connecting
finishes that first, within the client's 5 s timeout)."""
STORE_KEY = "online:{game}"
"""The store's setting that keeps an online game's code and this board's colour."""


class Host(Protocol):
    """What online play needs of the running board (the daemon)."""

    session: Session | None
    store: Store

    def now(self) -> float: ...

    def wake(self) -> None: ...

    def changed(self) -> None: ...


class OnlineError(RuntimeError):
    """An online request that cannot be done now; the message is for the page."""


class OnlinePlay:
    def __init__(self, host_: Host, address: BrokerAddress, board_name: str, *,
                 page: str = "") -> None:
        self.host = host_
        self.address = address
        self.board_name = board_name
        self.page = page  #: the browser player's page, for the link to a game code
        self.waiting: str = ""  #: the code of an invitation nobody has joined yet
        self.waiting_since = 0.0  #: when it was made (the LEDs' waiting chase starts there)
        self.problem: str = ""
        self.opponent: str = ""
        self.code: GameCode | None = None
        self._game_id: int | None = None
        self._link: OnlineLink | None = None
        self._link_task: asyncio.Task[Any] | None = None
        self._withdraw: asyncio.Event | None = None  #: withdraws the offer not yet taken up
        self._adopt: int | None = None  #: a game chosen on the board's menu, waiting to be joined
        self._beginning = False
        self._bridge: OnlineBridge | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._unsubscribe: Callable[[], None] | None = None

    @property
    def session(self) -> Session:
        assert self.host.session is not None
        return self.host.session

    # -- the service -------------------------------------------------------------------------
    async def run(self) -> None:
        """Link the game in play if it is an online one, then follow the session until
        cancelled."""
        self._unsubscribe = self.session.subscribe(self._changed)
        self._resume()
        try:
            await asyncio.Event().wait()
        finally:
            self._detach()
            if self._withdraw is not None:  # an offer waiting leaves the broker as usual
                self._withdraw.set()
            tasks = list(self._tasks)
            if tasks:
                await asyncio.wait(tasks, timeout=SHUTDOWN_WAIT)
            for task in tasks:
                task.cancel()
            # Let each link leave the broker while the loop still runs ...
            await asyncio.gather(*tasks, return_exceptions=True)
            if self._unsubscribe is not None:
                self._unsubscribe()
            # ... and free their MQTT clients now: one collected after the loop has closed
            # calls back into it from its destructor.
            del tasks
            gc.collect()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- starting a game ---------------------------------------------------------------------
    async def invite(self, variant: str, side: str, starts: str, *,
                     adopt: int | None = None) -> str:
        """Offer a game; returns the code to read to the other player. The game starts on
        the board once they join (`adopt`: the game already on the board, chosen on its
        menu, becomes the online one)."""
        code = GameCode.new()
        try:
            invitation, toss = offer(code, variant, side, starts, self.board_name)
        except (KeyError, ValueError) as exc:
            raise OnlineError(f"invite: {exc}") from None
        self.waiting = str(code)
        self.waiting_since = self.host.now()
        self.problem = ""
        if self._withdraw is not None:  # a new invitation replaces the one not taken up
            self._withdraw.set()
        withdrawn = self._withdraw = asyncio.Event()

        async def hosting() -> None:
            try:
                agreement = await host(self.address, code, invitation, toss, withdrawn)
                gc.collect()  # its MQTT client goes while the loop runs
            except InvitationError as exc:
                if not withdrawn.is_set():
                    self.problem = f"invitation {self.waiting}: {exc}"
                    self.waiting = ""
                    log.warning("online: %s", self.problem)
                    self.host.changed()
                return
            if agreement is None or withdrawn.is_set():  # a newer offer stands
                return
            self.waiting = ""
            self._begin(agreement)

        self._adopt = adopt
        self._spawn(hosting())
        log.info("online: invited to a game of %s (this board %s, %s starts)", variant, side,
                 starts)
        self.host.changed()  # the LEDs show the waiting, the page the code
        return str(code)

    async def join(self, text: str) -> Agreement:
        """Join the game offered under a code; it starts on the board at once."""
        try:
            code = GameCode.parse(text)
            agreement = await join(self.address, code, self.board_name)
        except (ValueError, InvitationError) as exc:
            raise OnlineError(f"join: {exc}") from None
        finally:
            gc.collect()  # its MQTT client goes while the loop runs
        self._begin(agreement)
        return agreement

    def _begin(self, agreement: Agreement) -> None:
        colour = Side.WHITE if agreement.colour == "white" else Side.BLACK
        session = self.session
        if self._adopt is None or session.game_id != self._adopt:
            self._beginning = True
            try:
                session.new_game(self.host.now(), rules=preset(agreement.variant),
                                 players={colour: HAND, colour.other: ONLINE})
            finally:
                self._beginning = False
        self._adopt = None
        self.opponent = agreement.opponent
        if session.game_id is not None:
            self.host.store.set_setting(STORE_KEY.format(game=session.game_id), json.dumps(
                {"code": str(agreement.code), "colour": agreement.colour,
                 "opponent": agreement.opponent}))
        log.info("online: game %s begins, this board %s against %s", agreement.code.game,
                 agreement.colour, agreement.opponent)
        self._attach(agreement.code, agreement.colour)
        self.host.changed()

    # -- the game in play --------------------------------------------------------------------
    def _resume(self) -> None:
        session = self.session
        if session.game_id is None or not any(p.kind == "online"
                                              for p in session.players.values()):
            return
        kept = self.host.store.setting(STORE_KEY.format(game=session.game_id))
        try:
            data = json.loads(kept or "")
            code = GameCode.parse(data["code"])
            colour = data["colour"]
        except (ValueError, KeyError, TypeError):
            log.warning("online: game %s has an online player but no code kept: it cannot "
                        "be linked again", session.game_id)
            return
        self.opponent = str(data.get("opponent", ""))
        self._attach(code, colour)

    def _attach(self, code: GameCode, colour: str) -> None:
        self._detach()
        session = self.session
        moves = MoveLog.rebuild(code, new_game(session.rules),
                                [a.text for a in session.game.history])
        self.code = code
        self._game_id = session.game_id
        self._link = OnlineLink(self.address, moves, colour, clock=self.host.now,
                                on_change=self.host.changed)
        self._bridge = OnlineBridge(session, self._link, self.host.now, on_change=self.host.wake)
        self._link_task = self._spawn(self._link.run())

    def _detach(self) -> None:
        if self._bridge is not None:
            self._bridge.close()
        if self._link_task is not None:
            self._link_task.cancel()
        self._link = self._bridge = self._link_task = None
        self.code = None

    def _changed(self, update: Update) -> None:
        if update.reason != "new-game" or self._beginning:
            return
        session = self.session
        if session.game_id != self._game_id:
            self._detach()
        online = [s for s, p in session.players.items() if p.kind == "online"]
        here = [s for s, p in session.players.items() if p.kind != "online"]
        if len(online) == 1 and len(here) == 1 and session.game_id is not None:
            # Chosen on the board's menu: invite for this game; the page shows the code and
            # the LEDs the waiting chase until the other player joins.
            self._spawn(self.invite(session.rules.name, str(here[0]), "white",
                                    adopt=session.game_id))

    # -- what the page shows -----------------------------------------------------------------
    def state(self) -> dict[str, Any] | None:
        """The `online` object of the page's state, or None with nothing online going on."""
        if self._link is None and not self.waiting and not self.problem:
            return None
        out: dict[str, Any] = {"waiting": self.waiting, "problem": self.problem,
                               "board": self.board_name, "broker": str(self.address),
                               "link": self.link(self.waiting)}
        if self._link is not None and self.code is not None:
            s = self._link.state
            seen = None if s.peer_seen is None else round(self.host.now() - s.peer_seen, 1)
            out.update(code=str(self.code), opponent=self.opponent, side=self._link.side,
                       connected=s.connected, opponent_online=s.peer_online,
                       seconds_since_heard=seen, sequence=s.sent, acknowledged=s.acked,
                       rejected=s.rejected, problem=s.problem or self.problem,
                       link=self.link(str(self.code)))
        return out

    def link(self, code: str) -> str:
        """What the page's QR code carries for a game code: the browser player's page with
        the code in its fragment (which never reaches a web server), or the code alone."""
        if not code:
            return ""
        return f"{self.page}#code={code}" if self.page else code
