"""The web companion's view of a running daemon: what the page draws, what it may change.

On the simulated board the page also acts as the hands (lift, put down, slide, set aside,
page_hand.py); those actions move simulated pebbles, and the daemon sees them only through
the sensors, exactly as it sees real hands.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from navakankari.engine.errors import UnknownVariantError
from navakankari.engine.game import Side
from navakankari.engine.player import MAX_LEVEL
from navakankari.engine.presets import PRESETS, preset
from navakankari.engine.translator import Translator
from navakankari.hal.leds import on_screen
from navakankari.hal.words import N_, Nn_, Phrase, phrase_of
from navakankari.firmware.i18n.catalogs import LANGUAGES, SOURCE, translations

from ..core.assist import BEST
from ..core.menu import variant_label
from ..core.palette import PALETTE
from ..core.players import ASSIST_LEVELS, PlayerSpec, PlayerSpecError, assist_words
from ..core.status import StatusKind, adaptive_level
from ..core.wording import (
    LEGEND,
    motion_words,
    next_game_text,
    outcome_text,
    side_phrase,
    status_text,
)
from .page_hand import PageHand
from .review import turns
from .server import RequestError, language_refused

if TYPE_CHECKING:
    from ..core.session import Session
    from ..daemon.loop import Daemon

log = logging.getLogger(__name__)

REQUESTS = {"record": N_("record"), "review": N_("review"), "games": N_("games"),
            "new-game": N_("new game"), "resign": N_("resign"), "draw": N_("draw"),
            "move": N_("move"), "invite": N_("invite"), "join": N_("join"),
            "answer": N_("answer"), "takeback": N_("takeback")}
"""The page's requests as a refusal names them (its first words)."""


def request_name(request: str) -> Phrase:
    """A request of the page by its name in the catalogs."""
    return Phrase(REQUESTS[request])


def refused(request: str, exc: BaseException) -> RequestError:
    """The refusal of `request` for another layer's error, in that error's words (a phrase
    where it keeps its meaning)."""
    return RequestError(Phrase(N_("{request}: {problem}"), request=request_name(request),
                               problem=phrase_of(exc)))

SPEECH_SENT = 4
"""The latest sentences the page's state carries: enough for a page that missed an update."""

class DaemonBackend:
    """Implements companion.CompanionBackend over the daemon's session and board."""

    def __init__(self, daemon: "Daemon") -> None:
        self.daemon = daemon
        self.page_hand = PageHand()  #: the simulator's hand (page_hand.py)
        self._in_menu = False  # the menu was lit at the last snapshot

    @property
    def _session(self) -> Session:
        session = self.daemon.session
        if session is None:
            raise RequestError(Phrase(N_("the board is still starting")))
        return session

    @property
    def simulation(self) -> Any:
        return getattr(self.daemon.board, "simulation", None)

    def variants(self) -> list[str]:
        """The variants this board can play: its sensors cover the variant's points."""
        from navakankari.engine.boards import BOARDS

        points = set(self.daemon.board.sensors.points)
        return [name for name, rules in PRESETS.items()
                if set(BOARDS[rules.board].points) <= points]

    # -- reading ---------------------------------------------------------------------------
    def snapshot(self, language: str = SOURCE) -> dict[str, Any]:
        """The page's state, its words in `language` (each viewer's own): the game as it is
        now, asked once no store write is under way (the server's `_snapshot` awaits
        `stored` first)."""
        tr = translations(language)
        session = self._session
        game = session.game
        board = game.board
        status = session.status
        outcome = game.outcome()
        sim = self.simulation
        if self._in_menu and session.menu is None:
            # The menu's last choice was lifted into the hand: it goes back beside the board,
            # so the game chosen starts with the hand free to lift its pebbles.
            self.page_hand.holding = None
        self._in_menu = session.menu is not None
        wrong_colour = []
        if sim is not None:
            on_board = set(board.points)
            pebbles = {p: c for p, c in sim.pebbles.items() if p in on_board}
            # Sensors cannot tell colours; the simulator can, and names a pebble that stands
            # where the game has the other side's.
            for i, p in enumerate(board.points if session.menu is None else ()):
                side = game.colour_at(i)
                if side is not None and pebbles.get(p, str(side)) != str(side):
                    wrong_colour.append({"point": p, "is": pebbles[p], "belongs": str(side)})
        elif session.menu is not None:  # no game in play: the sensors cannot tell colours
            pebbles = {p: "unknown" for p in session.settled}
        else:
            pebbles = {p: str(game.colour_at(i)) for i, p in enumerate(board.points)
                       if game.colour_at(i) is not None}
        counts = {
            str(side): {"hand": game.in_hand(side), "board": game.on_board(side),
                        "taken": game.captured(side)}
            for side in Side
        }
        return {
            "variant": session.rules.name,
            "variants": self.variants(),
            "levels": list(range(1, MAX_LEVEL + 1)),
            "board": {
                "name": board.name,
                "points": [{"name": p, "x": x, "y": y}
                           for p, (x, y) in zip(board.points, board.coordinates)],
                "lines": [list(line) for line in board.lines],
            },
            "pebbles": pebbles,
            "sim": sim is not None,
            "hand": self.page_hand.holding,
            **self._leds(),
            "turn": str(game.turn),
            "phase": game.phase.value,
            "counts": counts,
            "actions": [a.text for a in game.history],
            "position": game.position(),
            "turns": turns(game),
            "status": {"kind": status.kind.value, "text": self._status_words(game, status, tr),
                       **status.to_dict()},
            "outcome": ({**outcome.to_dict(), "text": outcome_text(outcome, tr)}
                        if outcome is not None else None),
            "players": {str(s): str(p) for s, p in session.players.items()},
            # The level the adaptive computer plays at in this game (None: it does not play).
            "adaptive_level": session.adaptive_level,
            "first": str(session.first),  # the side that moved first (each keeps its players)
            # Assistance: each side's level (a computer or remote side has none), the levels'
            # names, and whether the side to act may ask for the best move now.
            "assistance": {str(s): p.assistance for s, p in session.players.items()},
            "assist_levels": [assist_words(n, tr) for n in range(len(ASSIST_LEVELS))],
            "hint_offered": (session.menu is None and outcome is None
                             and session.players[game.turn].assistance >= BEST),
            "notice": next((n.words(tr) for n in (self.daemon.store_notice,
                            self.daemon.store.failure, self.daemon.led_failure) if n), None),
            "wrong_colour": wrong_colour,
            "problem": session.problem.words(tr) if session.problem else None,
            # While the menu is lit no game is in play: the page shows the step and what has
            # been chosen so far, not the last game's variant and players.
            "menu": session.dispatch.menu_facts(tr),
            # The board's language (its menu, status line and speech) and the page's.
            "language": session.language, "page_language": language,
            "languages": LANGUAGES,
            "variant_names": {v: variant_label(v, tr) for v in PRESETS},
            # Online play: the code, the other board, the link; None with none configured
            # (`online_enabled` false) or nothing online going on.
            # Speech: on or off, said aloud by the board or by this page (the simulator), and
            # the latest sentences by number, which the page says when it is the one to.
            "speech": self._speech(tr),
            "online_enabled": self.daemon.online is not None,
            "online": self.daemon.online.state(tr) if self.daemon.online is not None else None,
        }

    def _status_words(self, game: Any, status: Any, tr: Any) -> str:
        """The status in words, naming a player far away by their board's name; at the
        end of a game, how the next one starts."""
        player = self._session.players[game.turn]
        online = self.daemon.online
        far_away = ((online.opponent if online is not None else "")
                    or tr.gettext("the other board")) if player.kind == "online" else ""
        text = status_text(game, status, far_away, tr,
                           level=adaptive_level(self._session.players, game.turn))
        if status.kind is StatusKind.OVER and self._session.menu is None:
            session = self._session
            text = tr.gettext("{outcome}; {next}").format(
                outcome=text, next=next_game_text(
                    game, menu=session.menu_settings is not None,
                    auto_new_game=session.dispatch.auto_new_game, tr=tr))
        return text

    def legend(self, language: str = SOURCE) -> list[dict[str, Any]]:
        """Every light in words, in the screen colour of the light its LED emits (full
        brightness of its look) and how it moves, for the page's legend."""
        strip, tr = self.daemon.board.leds, translations(language)
        out = []
        for section, rows in LEGEND:
            for role, colour, means in rows:
                look = PALETTE[role]
                shown = on_screen(strip.corrected(look.colour), strip.brightness)
                out.append({"section": tr.gettext(section), "role": role.value,
                            "colour": tr.gettext(colour), "means": tr.gettext(means),
                            "motion": motion_words(look, tr),
                            "animation": look.animation.value, "period": look.period,
                            "screen": "#%02x%02x%02x" % shown})
        return out

    def _leds(self) -> dict[str, Any]:
        """What each lit LED is sent (after gamma and the cap), and how a screen shows it."""
        strip = self.daemon.board.leds
        sent = {p: strip.corrected(c) for p, c in self.daemon.last_frame.items()}
        sent = {p: c for p, c in sent.items() if any(c)}  # corrected to dark: not lit
        return {
            "leds": {p: list(c) for p, c in sent.items()},
            "screen": {p: "#%02x%02x%02x" % on_screen(c, strip.brightness)
                       for p, c in sent.items()},
        }

    def add_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        unsubscribe = self._session.subscribe(lambda update: callback())
        remove = self.daemon.add_frame_listener(callback)

        def remove_both() -> None:
            unsubscribe()
            remove()

        return remove_both

    def record(self) -> str:
        """The game in play as a record a person keeps (engine/record.py)."""
        from navakankari.engine.record import format_record

        return format_record(self._game_record(None, "record")[0])

    def _game_record(self, game_id: int | None, what: str) -> tuple[Any, int | None]:
        """Stored game `game_id` as a record, else the game in play, with its players, date
        and this board's name: read from the store, so a finished game's result and how it
        ended are in it (from the session where no store keeps it). Beside it, the stored
        game's id (None for one no store keeps)."""
        from navakankari.engine.record import record_of

        from ..store.database import StoreError
        from ..store.records import EVENT, game_record

        session = self._session
        store = session.store
        site = self.daemon.config.board_name
        wanted = session.game_id if game_id is None else game_id
        if game_id is None and (store is None or wanted is None):
            return record_of(session.game, start=session.start,
                             white=str(session.players[Side.WHITE]),
                             black=str(session.players[Side.BLACK]), event=EVENT,
                             site=site, seed=session.game_seed), None
        if store is None or wanted is None:
            raise RequestError(Phrase(N_("{request}: this board keeps no games"),
                                      request=request_name(what)))
        session.flush_events()
        try:
            stored = store.load(wanted)
        except StoreError as exc:
            raise refused(what, exc) from None
        return game_record(stored, site), stored.id

    def recording(self) -> str:
        session = self._session
        session.flush_events()
        if session.store is None or session.game_id is None:
            return ""
        return session.store.events_jsonl(session.game_id)

    # -- changing --------------------------------------------------------------------------
    async def stored(self) -> None:
        """Until no store write is under way (`Daemon.stored`)."""
        await self.daemon.stored()

    async def new_game(self, variant: str, white: str, black: str,
                       first: str = "white") -> None:
        """A new game between these players; `first`: the side that moves first, or "toss"
        (each side keeps its players either way)."""
        try:
            rules = preset(variant)
            players = {Side.WHITE: PlayerSpec.parse(white, "white"),
                       Side.BLACK: PlayerSpec.parse(black, "black")}
        except PlayerSpecError as exc:
            raise RequestError(Phrase(N_("new game: {side}: {problem}"), side=side_phrase(exc.key),
                                      problem=phrase_of(exc))) from None
        except UnknownVariantError as exc:
            raise refused("new-game", exc) from None
        if any(p.kind == "online" for p in players.values()):
            raise RequestError(Phrase(N_("new game: an online game starts from an invitation "
                                         "(invite, or join with a code)")))
        if variant not in self.variants():
            raise RequestError(Phrase(N_("new game: this board has no sensors for every point "
                                         "of {variant}; it needs its own board"),
                                      variant=variant))
        if first == "toss":
            first = random.SystemRandom().choice(("white", "black"))
            log.info("new game from the page: the toss says %s starts", first)
        self._session.new_game(self.daemon.now(), rules=rules, players=players,
                               first=Side.BLACK if first == "black" else Side.WHITE)
        self.daemon.wake()

    def _speech(self, tr: Translator) -> dict[str, Any] | None:
        speech = self.daemon.speech
        if speech is None:
            return None
        problem = speech.problem
        return {"enabled": speech.enabled, "aloud": speech.aloud, "number": speech.count,
                "problem": problem.words(tr) if problem is not None else None,
                "recent": [{"number": n, "text": u.text, "language": u.language,
                            "interrupt": u.interrupt, "repeat": u.repeat}
                           for n, u in list(speech.recent)[-SPEECH_SENT:]]}

    async def review_lights(self, points: list[str] | None) -> None:
        """The page's review shows a move: the board lights its points (Session.show_review);
        None: the review ended, the board shows the game again."""
        self._session.show_review(self.daemon.now(), points)
        self.daemon.wake()

    async def speech(self, on: bool) -> None:
        """Turn spoken announcements on or off (kept in the store)."""
        if self.daemon.speech is None:
            raise RequestError(Phrase(N_("speech: this board runs without its speech service")))
        self._session.dispatch.set_speech(on)
        self.daemon.changed()

    async def speech_wav(self, number: int) -> bytes | None:
        """A recent sentence as a WAV, made off the loop; None when it is gone."""
        speech = self.daemon.speech
        if speech is None:
            return None
        return await asyncio.get_running_loop().run_in_executor(None, speech.wav, number)

    def language(self) -> str:
        """The board's language (its menu's, its status line's)."""
        return str(self._session.language)

    async def set_language(self, language: str) -> None:
        """The board speaks `language` from now on (kept in the store)."""
        if language not in LANGUAGES:
            raise language_refused()
        self._session.dispatch.set_language(language, self.daemon.now())

    async def hint(self) -> str:
        """The best move for the side to act (assistance 4): lit on the board; the words."""
        words = self._session.answers.request_hint(self.daemon.now())
        self.daemon.wake()
        return words

    async def assist(self, side: str, level: int) -> None:
        """Set a hand side's assistance for the game in play (kept with its players)."""
        session = self._session
        if side not in ("white", "black"):
            raise RequestError(Phrase(N_("assist: {field} must be {white} or {black}"),
                                      field="side", white="white", black="black"))
        if not 0 <= level < len(ASSIST_LEVELS):
            raise RequestError(Phrase(N_("assist: {field} must be 0..{most}"), field="level",
                                      most=len(ASSIST_LEVELS) - 1))
        key = Side.WHITE if side == "white" else Side.BLACK
        spec = session.players[key]
        if spec.kind != "hand":
            raise RequestError(Phrase(N_("assist: {side} is not played by hand ({player}): only "
                                         "a side played by hand gets help"),
                                      side=side_phrase(side), player=spec))
        session.set_players(self.daemon.now(), {key: PlayerSpec("hand", assist=level)})
        self.daemon.wake()

    # -- online play ---------------------------------------------------------------------------
    def _online(self, what: str) -> Any:
        if self.daemon.online is None:
            raise RequestError(Phrase(N_("{request}: online play is not configured on this board "
                                         "(the configuration's {key}, or {option})"),
                                      request=request_name(what), key="[online] broker",
                                      option="sim --broker URL"))
        return self.daemon.online

    async def _online_do(self, what: str, act: Callable[[Any], Awaitable[Any]]) -> Any:
        """`act(online play)`; its refusal becomes the request's error, in its words."""
        from navakankari.firmware.online.play import OnlineError

        try:
            result = await act(self._online(what))
        except OnlineError as exc:
            raise RequestError(exc.problem) from None
        self.daemon.wake()
        return result

    async def invite(self, variant: str, side: str, starts: str) -> str:
        """Offer an online game; the code to read to the other player."""
        if variant not in self.variants():
            raise RequestError(Phrase(N_("invite: this board cannot play {variant}"),
                                      variant=variant))
        return str(await self._online_do("invite", lambda o: o.invite(variant, side, starts)))

    async def join(self, code: str) -> None:
        """Join the online game offered under `code`."""
        await self._online_do("join", lambda o: o.join(code))

    async def online_request(self, what: str) -> None:
        """Ask the player far away for a takeback or a new game, or resign."""
        await self._online_do(what, lambda o: o.ask(what))

    async def online_answer(self, accept: bool) -> None:
        """Answer the request of the player far away."""
        await self._online_do("answer", lambda o: o.answer(accept))

    # -- reviewing ---------------------------------------------------------------------------
    def review(self, game_id: int | None) -> dict[str, Any]:
        """Every position of the game in play, or of a stored game, for the page to step
        through; nothing on the board changes."""
        from .review import review

        record, stored = self._game_record(game_id, "review")
        if stored is None:
            return review(record)
        session = self._session
        return {**review(record), "game": stored,
                "in_play": stored == session.game_id and session.menu is None}

    def review_record(self, text: str) -> dict[str, Any]:
        """Every position of a record loaded in the page (checked move by move)."""
        from navakankari.engine.record import InvalidRecordError, parse_record

        from .review import review

        try:
            return {**review(parse_record(text)), "game": None, "in_play": False}
        except InvalidRecordError as exc:
            raise refused("review", exc) from None

    def games(self) -> list[dict[str, Any]]:
        """The games the store keeps, newest first, for the page's review list."""
        from ..store.database import StoreError
        from ..store.records import game_record

        store = self._session.store
        if store is None:
            return []
        try:
            stored = store.games(limit=30)
        except StoreError as exc:
            raise refused("games", exc) from None
        out = []
        for game in stored:
            record = game_record(game, "")
            out.append({"game": game.id, "variant": record.rules.name, "white": record.white,
                        "black": record.black, "date": record.date, "result": record.result,
                        "termination": record.termination, "plies": len(game.actions),
                        "finished": game.finished})
        return out

    async def end_game(self, how: str) -> str:
        """End the local game by the players' word: `resign` (the side played by hand, or
        the side to act when both are) or `draw` (agreed by two players at the board; the
        computer plays on). Kept in the store with its reason, so the record says how it
        ended. Returns the words for the page."""
        from ..store.database import RESIGNED, BoardEnding

        session = self._session
        if session.menu is not None:
            raise RequestError(Phrase(N_("{request}: no game is in play"),
                                      request=request_name(how)))
        if any(p.kind == "online" for p in session.players.values()):
            raise RequestError(Phrase(N_("{request}: in an online game, use the online controls"),
                                      request=request_name(how)))
        game = session.game
        if game.is_over():
            raise RequestError(Phrase(N_("{request}: the game is already over"),
                                      request=request_name(how)))
        people = [side for side, p in session.players.items() if p.kind in ("hand", "remote")]
        if how == "resign":
            if not people:
                raise RequestError(Phrase(N_("resign: no side is played by a person here")))
            side = people[0] if len(people) == 1 else game.turn
            outcome = {"winner": str(side.other), "reason": RESIGNED}
            words = Phrase(N_("{side} resigned: {other} wins"), side=side_phrase(side),
                           other=side_phrase(side.other))
        else:
            if len(people) < 2:
                raise RequestError(Phrase(N_("draw: the computer plays on; a draw is agreed "
                                             "between two players at the board")))
            outcome, words = BoardEnding.AGREED.outcome(), Phrase(N_("draw agreed"))
        session.end_game(self.daemon.now(), outcome, words)
        self.daemon.wake()
        return words

    async def remote_move(self, text: str) -> None:
        session = self._session
        side = session.game.turn
        if session.players[side].kind != "remote":
            raise RequestError(Phrase(N_("move: {side} is played {player}, not from here"),
                                      side=side_phrase(side), player=session.players[side]))
        try:
            session.answers.remote_move(text, self.daemon.now())
        except ValueError as exc:  # the engine's notation and legality errors
            raise refused("move", exc) from None
        self.daemon.wake()

    async def takeback(self, count: int | None, to: int | None = None) -> None:
        session = self._session
        if any(p.kind == "online" for p in session.players.values()):
            raise RequestError(Phrase(N_("takeback: in an online game, ask the other player "
                                         "(online: ask to take back)")))
        plies = len(session.game.history)
        if not plies:
            raise RequestError(Phrase(N_("takeback: no action to take back")))
        now = self.daemon.now()
        if to is not None:
            if to > plies:
                raise RequestError(Phrase.counted(
                    Nn_("takeback: the game has {plies} action; {field} must be 0..{plies}",
                        "takeback: the game has {plies} actions; {field} must be 0..{plies}"),
                    plies, plies=plies, field="to"))
            session.takeback_to(now, to)
        elif count is not None:
            session.takeback(now, min(count, plies))
        else:
            session.takeback_turn(now)
        self.daemon.wake()

    async def hand(self, request: dict[str, Any]) -> None:
        """The page's hand acts on the simulated board (`PageHand.act`)."""
        sim = self.simulation
        if sim is None:
            raise RequestError(Phrase(N_("hands act on the real board; this request is for the "
                                         "simulator")))
        await self.page_hand.act(sim, lambda: self._session.game, request)
        self.daemon.wake()


def companion_service(pin: str, host: str, port: int, *, required: bool = False,
                      on_ready: Callable[[int], None] | None = None
                      ) -> Callable[["Daemon"], Any]:
    """A daemon service that serves the web companion until the daemon stops; `on_ready`
    is told the port it serves on (the one the system chose for port 0). When the port
    cannot be opened the board plays on without it, unless the companion is `required`
    (the simulator, which is nothing without its page)."""

    async def serve_companion(daemon: "Daemon") -> None:
        from .server import Companion, bound_port, serve

        try:
            runner = await serve(Companion(DaemonBackend(daemon), pin, address=host), host, port)
        except OSError as exc:
            log.error("cannot serve the web companion on %s:%d: %s", host, port,
                      exc.strerror or exc)
            if required:
                daemon.exit_status = 1
                daemon.stop()
            return
        if on_ready is not None:
            on_ready(bound_port(runner, port))
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    return serve_companion
