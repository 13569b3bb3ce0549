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
from navakankari.engine.variants import start_game

from navakankari.engine.translator import ENGLISH
from navakankari.hal.words import N_, Phrase, Words, phrase_of, words_of

from ..core.players import HAND, PlayerSpec
from ..core.session import Session, Update
from ..store.database import Store
from .bridge import OnlineBridge
from .broker import BrokerAddress
from .code import GameCode
from .invitation import Agreement, InvitationError, host, join, offer
from .link import OnlineLink
from .log import MoveLog
from .messages import REQUESTS, Request, decode, encode
from .supervise import SupervisedError, supervise

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


INVITATION = N_("invitation {game}: {problem}")
DECLINED = {"takeback": N_("{opponent} declined the takeback"),
            "new-game": N_("{opponent} declined the new game")}
RESIGNED = {(True, "white"): N_("this board resigned: white wins"),
            (True, "black"): N_("this board resigned: black wins"),
            (False, "white"): N_("{opponent} resigned: white wins"),
            (False, "black"): N_("{opponent} resigned: black wins")}
"""How an online game ended outside its rules, by who resigned (this board?) and who wins."""


class OnlineError(RuntimeError):
    """An online request that cannot be done now; the message is for the page (`problem`, a
    `Phrase` the page words in its language)."""

    def __init__(self, problem: Phrase) -> None:
        self.problem = problem
        super().__init__(problem)


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
        self.ended: str = ""  #: how the last online game ended outside its rules, in words
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
        # At once, not once stored: `_beginning` tells its own new game from the menu's, and
        # the invitation it starts acknowledges nothing the store could lose.
        self._unsubscribe = self.session.subscribe(self._changed, at_once=True)
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
            raise OnlineError(Phrase(N_("invite: {problem}"), problem=phrase_of(exc))) from None
        self.waiting = str(code)
        self.waiting_since = self.host.now()
        self.problem = ""
        if self._withdraw is not None:  # a new invitation replaces the one not taken up
            self._withdraw.set()
        withdrawn = self._withdraw = asyncio.Event()

        async def hosting() -> None:
            def fault(problem: str) -> None:
                self.problem = Phrase(INVITATION, game=code.game, problem=problem)
                self.host.changed()

            try:
                agreement = await supervise(
                    Phrase(N_("the invitation")), lambda: host(self.address, code, invitation, toss,
                                                   withdrawn),
                    on_problem=fault, passes=(InvitationError,))
                gc.collect()  # its MQTT client goes while the loop runs
            except InvitationError as exc:
                if not withdrawn.is_set():
                    self.problem = Phrase(INVITATION, game=code.game, problem=exc.problem)
                    self.waiting = ""
                    log.warning("online: %s", self.problem)
                    self.host.changed()
                return
            if agreement is None or withdrawn.is_set():  # a newer offer stands
                return
            self.waiting = ""
            self.problem = ""
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
            agreement = await supervise(
                Phrase(N_("joining")), lambda: join(self.address, code, self.board_name),
                on_problem=lambda problem: None, passes=(InvitationError,), tries=3)
        except (ValueError, InvitationError, SupervisedError) as exc:
            raise OnlineError(Phrase(N_("join: {problem}"), problem=phrase_of(exc))) from None
        finally:
            gc.collect()  # its MQTT client goes while the loop runs
        self._begin(agreement)
        return agreement

    def _begin(self, agreement: Agreement) -> None:
        colour = Side.WHITE if agreement.colour == "white" else Side.BLACK
        first = Side.WHITE if agreement.first == "white" else Side.BLACK
        session = self.session
        if self._adopt is None or session.game_id != self._adopt:
            self._beginning = True
            try:
                session.new_game(self.host.now(), rules=preset(agreement.variant),
                                 players={colour: HAND, colour.other: ONLINE}, first=first)
            finally:
                self._beginning = False
        self._adopt = None
        self.opponent = agreement.opponent
        self.ended = ""
        self.problem = agreement.note  # a toss that did not end as tossed, said so
        self._keep(agreement.code, agreement.colour, None)
        log.info("online: game %s begins, this board %s against %s, %s moves first",
                 agreement.code.game, agreement.colour, agreement.opponent, agreement.first)
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
        asked = None
        if data.get("asked"):
            try:
                found = decode(code.key, code.game, data["asked"])
                asked = found if isinstance(found, Request) else None
            except ValueError:
                log.warning("online: the request kept for game %s is unreadable", code.game)
        takebacks = data.get("takebacks") or []
        heard = data.get("heard") or []
        self._attach(code, colour, asked,
                     [k for k in takebacks if isinstance(k, int) and not isinstance(k, bool)
                      and k >= 0] if isinstance(takebacks, list) else [],
                     {str(h) for h in heard} if isinstance(heard, list) else set())

    def _keep(self, code: GameCode, colour: str, asked: Request | None) -> None:
        """The online game's code and colour (a request waiting for its answer, the takebacks
        agreed, the requests heard), kept in the store with the game, so a restart links the
        same game again in the same era, still knows what was agreed and acts on no request
        twice."""
        game_id = self.session.game_id
        if game_id is None:
            return
        link = self._link
        ours = link is not None and link.moves.code == code
        takebacks = list(link.moves.takebacks) if link is not None and ours else []
        heard = sorted(link.heard) if link is not None and ours else []
        self.host.store.set_setting(STORE_KEY.format(game=game_id), json.dumps(
            {"code": str(code), "colour": colour, "opponent": self.opponent,
             "asked": encode(asked).decode() if asked is not None else "",
             "takebacks": takebacks, "heard": heard}))

    def _attach(self, code: GameCode, colour: str, asked: Request | None = None,
                takebacks: list[int] | None = None, heard: set[str] | None = None) -> None:
        self._detach()
        session = self.session
        moves = MoveLog.rebuild(code, start_game(session.rules, session.start),
                                [a.text for a in session.game.history], takebacks or [])
        self.code = code
        self._game_id = session.game_id
        self._link = OnlineLink(self.address, moves, colour, clock=self.host.now,
                                on_change=self.host.changed, asked=asked, heard=heard)
        self._link.on_request = self._requested
        self._link.on_heard = self._heard
        self._link.on_answer = self._answered
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
            # the LEDs the waiting chase until the other player joins; the side the menu
            # chose (or tossed) to move first starts the online game too.
            self._spawn(self.invite(session.rules.name, str(here[0]), str(session.first),
                                    adopt=session.game_id))

    # -- requests: takeback, new game, resigning ----------------------------------------------
    async def ask(self, what: str) -> None:
        """Ask the other player for a takeback (this board's last turn and the answer to it)
        or a new game, or resign (which ends the game for both at once)."""
        link = self._link
        if link is None or self.code is None:
            raise OnlineError(Phrase(N_("{what}: no online game is in play"), what=what))
        if what not in REQUESTS:
            raise OnlineError(Phrase(N_("a request is one of {choices}, not {what}"),
                                     choices=", ".join(REQUESTS), what=repr(what)))
        if link.asked is not None and what != "resign":
            raise OnlineError(Phrase(N_("{what}: the other player has not answered the "
                                        "{asked} asked for yet"), what=what,
                                     asked=link.asked.what))
        if self.session.game.outcome() is not None and what != "new-game":
            raise OnlineError(Phrase(N_("{what}: the game is over"), what=what))
        plies = len(self.session.game.history)
        keep = self.session.hand_turn_start() if what == "takeback" else plies
        if what == "takeback" and link.moves.forked:
            keep = link.moves.common  # the last move both games share
            plies = max(plies, len(link.moves.moves))  # the log holds moves not carried out
        if what == "takeback" and keep == plies:
            raise OnlineError(Phrase(N_("takeback: this board has no turn to take back")))
        request = await link.ask(what, keep)
        if what == "resign":
            self._resigned(link.side, request)
        else:
            self._keep(self.code, link.side, request)
            self.host.changed()

    async def answer(self, accept: bool) -> None:
        """Answer the other player's request; a yes takes the game back or starts the next."""
        link = self._link
        if link is None or link.asked_of_us is None:
            raise OnlineError(Phrase(N_("answer: the other player has asked for nothing")))
        request = await link.answer(accept)
        if accept:
            self._agreed(request)
        self.host.changed()

    def _heard(self) -> None:
        if self.code is not None and self._link is not None:
            self._keep(self.code, self._link.side, self._link.asked)

    def _requested(self, request: Request) -> None:
        if request.what == "resign":
            self._resigned(request.side, request)

    def _answered(self, request: Request, accepted: bool) -> None:
        if self.code is not None and self._link is not None:
            self._keep(self.code, self._link.side, None)
        if accepted:
            self._agreed(request)
        else:
            self.ended = Phrase(DECLINED.get(request.what, DECLINED["takeback"]),
                                opponent=self._opponent())

    def _agreed(self, request: Request) -> None:
        link, code = self._link, self.code
        assert link is not None and code is not None
        if request.what == "takeback":
            link.moves.truncate(request.keep)
            self._keep(code, link.side, link.asked)
            # (after a fork the log may hold moves of the other's the hands here have not
            # carried out yet: the game here goes back no further than it went)
            self.session.takeback_to(self.host.now(),
                                     min(request.keep, len(self.session.game.history)))
            if self._bridge is not None:
                self._bridge.reset()
            self._spawn(link.publish_snapshot())
            self.ended = ""
        elif request.what == "new-game":
            # Both know the next game's code (derived from this one's secret), the variant,
            # the colours and who moved first: the next game starts on both boards as this
            # one did, without another invitation.
            self._begin(Agreement(code.next(), self.session.rules.name, link.side,
                                  str(self.session.first), self.opponent))

    def _resigned(self, side: str, request: Request) -> None:
        link = self._link
        here = link is not None and side == link.side
        winner = "black" if side == "white" else "white"
        self._detach()
        self.ended = Phrase(RESIGNED[here, winner], opponent=self._opponent())
        hand_only = {s: HAND for s in Side}
        self.session.end_game(self.host.now(), {"winner": winner, "reason": "resigned"},
                              f"{side} resigned (online game {request.game})", hand_only)
        self.host.changed()

    def _opponent(self) -> str:
        return self.opponent or Phrase(N_("the other player"))

    # -- what the page shows -----------------------------------------------------------------
    def state(self, tr: Words = ENGLISH) -> dict[str, Any] | None:
        """The `online` object of the page's state, or None with nothing online going on; its
        problem and how the game ended in `tr`'s language (the page's)."""
        if self._link is None and not self.waiting and not self.problem and not self.ended:
            return None
        code = self.waiting or (str(self.code) if self._link is not None and self.code else "")
        out: dict[str, Any] = {"waiting": bool(self.waiting),
                               "problem": words_of(self.problem, tr),
                               "board": self.board_name, "broker": str(self.address),
                               "ended": words_of(self.ended, tr), "request": None}
        if code:
            # `game` alone opens nothing (the topics and keys need the secret); `code` and `link` carry the secret,
            # which the page shows only to those with the PIN (code.SECRET_KEYS).
            out.update(game=GameCode.parse(code).game, code=code, link=self.link(code))
        if self._link is not None and self.code is not None:
            s = self._link.state
            seen = None if s.peer_seen is None else round(self.host.now() - s.peer_seen, 1)
            out.update(opponent=self.opponent, side=self._link.side,
                       connected=s.connected, opponent_online=s.peer_online,
                       seconds_since_heard=seen, sequence=s.sent, acknowledged=s.acked,
                       rejected=s.rejected,
                       problem=words_of(s.problem or s.alarm or self.problem, tr),
                       fork=words_of(self._link.moves.fork, tr), common=self._link.moves.common)
            if self._link.moves.fork:
                out["problem"] = Phrase(N_(
                    "the two boards' games differ ({fork}): the other board's moves are no "
                    "longer shown here; take back to move {move}, the last both share, or "
                    "resign"), fork=self._link.moves.fork, move=self._link.moves.common).words(tr)
            asked = self._link.asked_of_us or self._link.asked
            if asked is not None:
                out["request"] = {"what": asked.what, "keep": asked.keep,
                                  "from": "there" if asked is self._link.asked_of_us else "here"}
        return out

    def link(self, code: str) -> str:
        """What the page's QR code carries for a game code: the browser player's page with
        the code in its fragment (which never reaches a web server), or the code alone."""
        if not code:
            return ""
        return f"{self.page}#code={code}" if self.page else code
