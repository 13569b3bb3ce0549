"""The web companion: the board page, its live updates, and the few requests that change a game.

Viewing is open to anyone on the network; every request that changes the game (new game,
takeback, the simulator's hands) needs the PIN from the configuration. Without a configured
PIN such requests are refused with a message that says so. The page is plain HTML, SVG and
JavaScript served from the package, so a Pi needs nothing but pip.

No client can make the board's memory or journal grow: each live viewer is sent the latest
state when it can take it (a viewer that reads nothing for SEND_TIMEOUT is dropped), viewers
are capped, wrong PINs are throttled per client, requests must name the board in `Host` and
`Origin`, and the access log is written at debug level without query strings.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from aiohttp import WSMsgType, web
from aiohttp.abc import AbstractAccessLogger

from ..daemon.voice import VoiceError

from navakankari.firmware.i18n.catalogs import (LANGUAGES, SOURCE, WORDS_JS, negotiate,
                                                 script_catalog, translations)
from navakankari.hal.words import N_, Phrase, words_of

from ..online.code import SECRET_KEYS
from . import names as web_names
from .phone_link import PhoneLink, log_link, phone_link, qr_svg
from .pin_throttle import PinThrottle

log = logging.getLogger(__name__)
access_log = logging.getLogger(__name__ + ".access")

STATIC_DIR = Path(__file__).resolve().parent / "web"
STATIC_FILES = {  # the only files served: nothing outside this list is reachable
    "app.js": "application/javascript",
    "words.js": "application/javascript",
    "style.css": "text/css",
    "index.html": "text/html",
}
MAX_BODY = 16 * 1024
MAX_VIEWERS = 16
SEND_TIMEOUT = 30.0
"""Seconds a viewer may take to accept one state before it is dropped."""
MAX_REVIEW_POINTS = 32
"""A review lights one move: its origin, destination and the pebbles it took."""


class RequestError(ValueError):
    """A request the backend refuses. Its `problem` is a phrase of the catalogs (no other text
    is taken), so the page shows it in the viewer's language."""

    def __init__(self, problem: Phrase) -> None:
        if not isinstance(problem, Phrase):
            raise TypeError(f"a refusal is a phrase of the catalogs, not {problem!r}")
        super().__init__(problem)
        self.problem = problem


def language_refused() -> RequestError:
    """The refusal of a language the board does not speak."""
    return RequestError(Phrase(N_("language: choose one of {languages}"),
                               languages=", ".join(LANGUAGES)))


class CompanionBackend(Protocol):
    """What the companion needs from the running board (the daemon provides it)."""

    def snapshot(self, language: str = SOURCE) -> dict[str, Any]:
        """The state the page draws, JSON-ready (see app.js for the fields), its words in
        `language`; `language` in it is the board's."""

    def add_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` (on the event loop) after every change; returns a remover."""

    async def new_game(self, variant: str, white: str, black: str,
                       first: str = "white") -> None: ...

    def legend(self, language: str = SOURCE) -> list[dict[str, Any]]:
        """Every light the board shows, in words and in its colour on a screen."""

    def language(self) -> str:
        """The board's language (its menu's, its status line's)."""

    async def set_language(self, language: str) -> None:
        """The board speaks `language` from now on; RequestError if it does not speak it."""

    async def remote_move(self, text: str) -> None:
        """An action typed on the page for a side played as "remote"; RequestError else."""

    async def end_game(self, how: str) -> str:
        """End the local game: `resign` or `draw` by agreement; the words of the result."""

    def review(self, game_id: int | None) -> dict[str, Any]:
        """Every position of the game in play, or of a stored game (review.py)."""

    def review_record(self, text: str) -> dict[str, Any]:
        """Every position of a record loaded in the page."""

    def games(self) -> list[dict[str, Any]]:
        """The stored games, newest first."""

    async def takeback(self, count: int | None, to: int | None = None) -> None:
        """Take back `count` actions, or back to the position after `to` actions, or with
        neither the last turn of a hand (and the answer to it)."""

    def record(self) -> str: ...

    def recording(self) -> str: ...

    async def hand(self, request: dict[str, Any]) -> None:
        """A hand on the simulated board (lift, put, place, move, drop); RequestError else."""

    async def speech(self, on: bool) -> None:
        """Turn spoken announcements on or off."""

    async def review_lights(self, points: list[str] | None) -> None:
        """Light the move a review on the page shows (None: the review ended)."""

    async def speech_wav(self, number: int) -> bytes | None:
        """A recent sentence as a WAV file's bytes; None when it is gone."""

    async def hint(self) -> str:
        """The best move for the side to act, asked for (assistance 4); the words."""

    async def assist(self, side: str, level: int) -> None:
        """Set a hand side's assistance (0..4) for the game in play."""

    async def stored(self) -> None:
        """Until no write is under way in the board's store: what is made as soon as it
        returns (nothing awaited between) holds only stored actions. Every state shown, every
        record read and every change's answer waits for it, as the board's lights do, and a
        read of the store made then does not hold up the loop behind a slow write."""

    async def invite(self, variant: str, side: str, starts: str) -> str:
        """Offer an online game; returns the code to read to the other player."""

    async def join(self, code: str) -> None:
        """Join the online game offered under a code."""

    async def online_request(self, what: str) -> None:
        """Ask the player far away for a takeback or a new game, or resign."""

    async def online_answer(self, accept: bool) -> None:
        """Answer the request of the player far away."""


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _named(body: dict[str, Any], key: str) -> str:
    """A new game's variant or player, as the request names it: text, not empty."""
    value = body.get(key)
    if not isinstance(value, str) or not value:
        raise RequestError(Phrase(N_("new game: {field} must be a non-empty string"), field=key))
    return value


NOT_JSON = N_("the request body is not JSON")
WAV = "speech.wav"  #: the sentence's sound, as its refusals name it


def too_large() -> Phrase:
    """The refusal of a request body over MAX_BODY."""
    return Phrase(N_("request body larger than {most} bytes"), most=MAX_BODY)


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


class Companion:
    """The aiohttp application around one backend."""

    def __init__(self, backend: CompanionBackend, pin: str | None, *, address: str = "127.0.0.1",
                 clock: Callable[[], float] = time.monotonic,
                 max_viewers: int = MAX_VIEWERS) -> None:
        self.backend = backend
        self.pin = pin or None
        self.names = web_names.own_names(address)
        self.throttle = PinThrottle(clock=clock)
        self.max_viewers = max_viewers
        self._viewers: dict[web.WebSocketResponse, asyncio.Event] = {}
        self._version = 0
        self._cached: dict[str, str] = {}  #: the state's JSON by language, at ...
        self._cached_version = -1  #: ... this version
        self.link: PhoneLink | None = None  #: set once serving (serve())

    # -- application ----------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._names, self._errors])
        app.router.add_get("/", self.index)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/api/state", self.state)
        app.router.add_get("/api/legend", self.legend)
        app.router.add_get("/api/i18n", self.i18n)
        app.router.add_post("/api/language", self._changing(self.set_language))
        app.router.add_get("/api/record.pgn", self.record)
        app.router.add_get("/api/record.txt", self.record)  # the address before records had tags
        app.router.add_get("/api/recording.jsonl", self.recording)
        app.router.add_get("/api/games", self.games)
        app.router.add_get("/api/review", self.review)
        app.router.add_post("/api/review", self.review_record)
        app.router.add_get("/api/phone", self.phone)
        app.router.add_post("/api/new-game", self._changing(self.new_game))
        app.router.add_post("/api/takeback", self._changing(self.takeback))
        app.router.add_post("/api/end", self._changing(self.end_game))
        app.router.add_post("/api/hand", self._changing(self.hand))
        app.router.add_post("/api/move", self._changing(self.move))
        app.router.add_post("/api/hint", self._changing(self.hint))
        app.router.add_post("/api/assist", self._changing(self.assist))
        app.router.add_post("/api/speech", self._changing(self.speech))
        app.router.add_post("/api/review-lights", self._changing(self.review_lights))
        app.router.add_get("/api/speech.wav", self.speech_wav)
        app.router.add_post("/api/online/invite", self._changing(self.online_invite))
        app.router.add_post("/api/online/join", self._changing(self.online_join))
        app.router.add_get("/api/online/qr.svg", self.online_qr)
        app.router.add_post("/api/online/request", self._changing(self.online_request))
        app.router.add_post("/api/online/answer", self._changing(self.online_answer))
        app.router.add_get("/ws", self.websocket)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._close_sockets)
        return app

    async def _start(self, app: web.Application) -> None:
        remove = self.backend.add_listener(self._changed)
        app.on_cleanup.append(lambda _app: _noop(remove()))

    @web.middleware
    async def _names(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuse a request whose Host or Origin does not name this board."""
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        arrived_on = sockname[0] if sockname else None
        host = web_names.host_name(request.host)
        if not web_names.allowed(host, self.names, arrived_on):
            return self._refusal(request, 421, Phrase(N_(
                "this board does not answer to the name {host}"), host=repr(host)))
        origin = request.headers.get("Origin")
        if origin is not None and not web_names.allowed(web_names.origin_name(origin), self.names,
                                                        arrived_on):
            return self._refusal(request, 403, Phrase(N_(
                "requests from pages at {origin} are refused"), origin=repr(origin[:100])))
        return await handler(request)

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except web.HTTPRequestEntityTooLarge:
            return self._refusal(request, 413, too_large())
        except web.HTTPException:
            raise
        except RequestError as exc:  # worded in the viewer's language where it is a phrase
            return self._refusal(request, 409, exc.problem)

    # -- reading ---------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            return self._refusal(request, 404, Phrase(N_("no such file: {name}"), name=name))
        folder = WORDS_JS.parent if name == WORDS_JS.name else STATIC_DIR
        return web.FileResponse(folder / name, headers={
            "Content-Type": STATIC_FILES[name], "Cache-Control": "no-cache"})

    def _language(self, request: web.Request) -> str:
        """The viewer's language: the page's `?lang=` if the board speaks it, else the
        browser's `Accept-Language` (a first visit), else the board's."""
        asked = request.query.get("lang", "")
        if asked in LANGUAGES:
            return asked
        try:
            board = self.backend.language()
        except RequestError:  # the board is still starting: its refusal still needs words
            board = SOURCE
        return negotiate(request.headers.get("Accept-Language"), default=board)

    async def i18n(self, request: web.Request) -> web.Response:
        """The page's words in the viewer's language (`_language`), as JSON: the messages of
        the page's script, the plural rule, and every language the board speaks."""
        catalog = script_catalog(self._language(request)).to_dict()
        return web.json_response({**catalog, "languages": LANGUAGES},
                                 headers={"Cache-Control": "no-cache"})

    async def set_language(self, body: dict[str, Any]) -> None:
        language = body.get("language")
        if not isinstance(language, str) or language not in LANGUAGES:
            raise language_refused()
        await self.backend.set_language(language)

    async def _snapshot(self, secrets: bool = False, language: str = SOURCE) -> dict[str, Any]:
        """The page's state; an online game's code (its secret) only with `secrets` (a
        request with the PIN): anyone on the network may watch the board, but only a player
        may hand the code on. The one guard against showing a move before it is stored:
        every state this server shows or sends is made here, once the store has no write
        under way (`CompanionBackend.stored`), with nothing awaited in between."""
        await self.backend.stored()
        snap = dict(self.backend.snapshot(language))
        online = snap.get("online")
        if isinstance(online, dict) and not secrets:
            snap["online"] = {k: v for k, v in online.items() if k not in SECRET_KEYS}
        snap["type"] = "state"
        snap["version"] = self._version
        snap["pin_required"] = True
        snap["pin_configured"] = self.pin is not None
        return snap

    async def state(self, request: web.Request) -> web.Response:
        """The page's state; with the PIN in X-Pin it includes an online game's code. It
        shows what the store holds (`_snapshot`)."""
        if "X-Pin" in request.headers:
            refused = self._pin_refusal(request)
            if refused is not None:
                return refused
            return web.json_response(await self._snapshot(True, self._language(request)))
        return web.json_response(await self._snapshot(language=self._language(request)))

    async def legend(self, request: web.Request) -> web.Response:
        return web.json_response(self.backend.legend(self._language(request)))

    async def record(self, request: web.Request) -> web.Response:
        await self.backend.stored()  # the moves shown are stored ones (`stored`)
        return web.Response(text=self.backend.record(), content_type="text/plain",
                            charset="utf-8")

    async def games(self, request: web.Request) -> web.Response:
        await self.backend.stored()
        return web.json_response({"games": self.backend.games()})

    async def review(self, request: web.Request) -> web.Response:
        """Every position of the game in play, or of stored game `?game=N`; read-only."""
        text = request.query.get("game")
        if text is not None and not (text.isdigit() and len(text) < 10):
            raise RequestError(Phrase(N_("review: {field} must be a stored game's number"),
                                      field="game"))
        await self.backend.stored()
        return web.json_response(self.backend.review(int(text) if text else None))

    async def review_record(self, request: web.Request) -> web.Response:
        """Every position of a record the page loaded, `{"record": text}`; read-only, so no
        PIN, but bounded like every body."""
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            return self._refusal(request, 400, Phrase(NOT_JSON))
        record = body.get("record") if isinstance(body, dict) else None
        if not isinstance(record, str):
            raise RequestError(Phrase(N_("review: the body must hold the game record as {field}"),
                                      field='"record"'))
        return web.json_response(self.backend.review_record(record))

    async def recording(self, request: web.Request) -> web.Response:
        await self.backend.stored()
        return web.Response(text=self.backend.recording(), content_type="application/x-ndjson")

    # -- changing --------------------------------------------------------------------------
    def _refusal(self, request: web.Request, status: int, problem: Phrase) -> web.Response:
        """A refusal the page shows, in the viewer's language."""
        return _error(status, problem.words(translations(self._language(request))))

    def _pin_refusal(self, request: web.Request) -> web.Response | None:
        """The answer to a request without the right PIN (None: it has it). A client that
        has sent too many wrong PINs is refused before its PIN is looked at."""
        if self.pin is None:
            return self._refusal(request, 403, Phrase(N_(
                "changes from the web are off: set a PIN in the configuration ({key}) to allow "
                "them"), key="[web] pin"))
        given = request.headers.get("X-Pin", "")
        client = request.remote or "?"
        if given:
            wait = self.throttle.wait(client)
            if wait:
                tr = translations(self._language(request))
                return web.json_response(
                    {"error": Phrase(N_("too many wrong PINs: try again in {seconds} s"),
                                     seconds=wait).words(tr)}, status=429,
                    headers={"Retry-After": str(wait)})
        if not hmac.compare_digest(given.encode(), self.pin.encode()):
            if given:
                self.throttle.wrong(client)
            return self._refusal(request, 403, Phrase(N_("wrong or missing PIN")))
        return None

    async def phone(self, request: web.Request) -> web.Response:
        """How a phone connects: the link with the PIN and its QR code (PIN holders only)."""
        refused = self._pin_refusal(request)
        if refused is not None:
            return refused
        link = self.link
        if link is None:
            return web.json_response({"url": None, "why_not": "the companion is not serving yet"})
        return web.json_response({"url": link.url, "why_not": link.why_not, "qr": link.qr_svg()})

    def _changing(self, handler: Callable[[dict[str, Any]], Awaitable[dict[str, Any] | None]]
                  ) -> Handler:
        """A request that changes the board: PIN, size and JSON checked first; the handler's
        answer (if any) joins `"ok": true` in the response."""
        async def run(request: web.Request) -> web.StreamResponse:
            refused = self._pin_refusal(request)
            if refused is not None:
                return refused
            if request.content_length is not None and request.content_length > MAX_BODY:
                return self._refusal(request, 413, too_large())
            try:
                body = await request.json()
            except (json.JSONDecodeError, UnicodeDecodeError):
                return self._refusal(request, 400, Phrase(NOT_JSON))
            except RecursionError:
                return self._refusal(request, 400, Phrase(N_(
                    "the request body is nested too deeply")))
            if not isinstance(body, dict):
                return self._refusal(request, 400, Phrase(N_(
                    "the request body must be a JSON object")))
            # A change may read the store (a new game, the adaptive computer's level): with
            # no write left under way the read holds up nothing; ...
            await self.backend.stored()
            answer = await handler(body)
            await self.backend.stored()  # ... and the answer acknowledges it: stored first
            self._changed()  # the simulator's hand is not part of the game: push it too
            tr = translations(self._language(request))  # a phrase in the viewer's language
            return web.json_response({"ok": True, **{k: words_of(v, tr) if isinstance(v, str)
                                                     else v for k, v in (answer or {}).items()}})

        return run

    async def new_game(self, body: dict[str, Any]) -> None:
        variant, white, black = (_named(body, k) for k in ("variant", "white", "black"))
        first = body.get("first", "white")
        if first not in ("white", "black", "toss"):
            raise RequestError(Phrase(N_("new game: {field} must be {white}, {black} or {toss}"),
                                      field="first", white="white", black="black", toss="toss"))
        await self.backend.new_game(variant, white, black, first)

    async def takeback(self, body: dict[str, Any]) -> None:
        count, to = body.get("count"), body.get("to")
        for key, value, least in (("count", count, 1), ("to", to, 0)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or value < least):
                raise RequestError(Phrase(N_("takeback: {field} must be a whole number of at least "
                                             "{least}"), field=key, least=least))
        if count is not None and to is not None:
            raise RequestError(Phrase(N_("takeback: give {count} or {to}, not both"),
                                      count="count", to="to"))
        await self.backend.takeback(count, to)

    async def hand(self, body: dict[str, Any]) -> None:
        await self.backend.hand(body)

    async def move(self, body: dict[str, Any]) -> None:
        action = body.get("action")
        if not isinstance(action, str) or not action.strip() or len(action) > 64:
            raise RequestError(Phrase(N_("move: {field} must be notation such as {examples}"),
                                      field="action", examples="d6, a1-a4, a1-a4xd7"))
        await self.backend.remote_move(action.strip())

    async def hint(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"words": await self.backend.hint()}

    async def assist(self, body: dict[str, Any]) -> None:
        side, level = body.get("side"), body.get("level")
        if not isinstance(level, int) or isinstance(level, bool):
            raise RequestError(Phrase(N_("assist: {field} must be a whole number 0..{most}"),
                                      field="level", most=4))
        await self.backend.assist(str(side), level)

    async def end_game(self, body: dict[str, Any]) -> dict[str, Any]:
        how = body.get("how")
        if how not in ("resign", "draw"):
            raise RequestError(Phrase(N_("end: {field} must be {resign} or {draw}"), field="how",
                                      resign="resign", draw="draw"))
        return {"result": await self.backend.end_game(how)}

    async def online_invite(self, body: dict[str, Any]) -> dict[str, Any]:
        variant = body.get("variant")
        side = body.get("side")
        starts = body.get("starts", "white")
        if not isinstance(variant, str) or not variant:
            raise RequestError(Phrase(N_("invite: {field} must be the name of a game the board "
                                         "knows"), field="variant"))
        if side not in ("white", "black") or starts not in ("white", "black", "toss"):
            raise RequestError(Phrase(N_("invite: {side} must be {white} or {black}, and {starts} "
                                         "{white}, {black} or {toss}"), side="side",
                                      starts="starts", white="white", black="black",
                                      toss="toss"))
        return {"code": await self.backend.invite(variant, side, starts)}

    async def online_join(self, body: dict[str, Any]) -> None:
        code = body.get("code")
        if not isinstance(code, str) or not code.strip() or len(code) > 64:
            raise RequestError(Phrase(N_("join: {field} must be the game code, as {example}"),
                                      field="code", example="K7M-2P9-QRT-AX4-B8C-D3F-GH5"))
        await self.backend.join(code)

    async def online_request(self, body: dict[str, Any]) -> None:
        what = body.get("what")
        if what not in ("takeback", "new-game", "resign"):
            raise RequestError(Phrase(N_("request: {field} must be {choices}"), field="what",
                                      choices="takeback, new-game, resign"))
        await self.backend.online_request(what)

    async def online_answer(self, body: dict[str, Any]) -> None:
        accept = body.get("accept")
        if not isinstance(accept, bool):
            raise RequestError(Phrase(N_("answer: {field} must be {yes} or {no}"), field="accept",
                                      yes="true", no="false"))
        await self.backend.online_answer(accept)

    async def review_lights(self, body: dict[str, Any]) -> None:
        points = body.get("points")
        if points is not None and (not isinstance(points, list) or len(points) > MAX_REVIEW_POINTS
                                   or not all(isinstance(p, str) and 0 < len(p) <= 4
                                              for p in points)):
            raise RequestError(Phrase(N_("review lights: {field} must be a list of at most {most} "
                                         "point names, or {none} to end"), field="points",
                                      most=MAX_REVIEW_POINTS, none="null"))
        await self.backend.review_lights(points)

    async def speech(self, body: dict[str, Any]) -> None:
        on = body.get("on")
        if not isinstance(on, bool):
            raise RequestError(Phrase(N_("speech: {field} must be {yes} or {no}"), field="on",
                                      yes="true", no="false"))
        await self.backend.speech(on)

    async def speech_wav(self, request: web.Request) -> web.Response:
        """A recent sentence as a WAV, for the simulator's page to play where the browser has
        no voice for the language."""
        text = request.query.get("n", "")
        if not (text.isascii() and text.isdigit() and len(text) <= 12):
            return self._refusal(request, 400, Phrase(N_(
                "{path}: {field} must be a sentence's number"), path=WAV, field="n"))
        try:
            data = await self.backend.speech_wav(int(text))
        except VoiceError as exc:
            return self._refusal(request, 503, Phrase(N_("{path}: {problem}"), path=WAV,
                                                      problem=exc.problem))
        if data is None:
            return self._refusal(request, 404, Phrase(N_(
                "{path}: no sentence {number} (only the latest are kept)"), path=WAV,
                number=text))
        return web.Response(body=data, content_type="audio/wav",
                            headers={"Cache-Control": "no-store"})

    async def online_qr(self, request: web.Request) -> web.Response:
        """The QR code of the online game's link (the browser player with the code, or the
        code alone): what a phone's camera reads beside the code on the page (PIN holders
        only: it carries the game's secret)."""
        refused = self._pin_refusal(request)
        if refused is not None:
            return refused
        online = (await self._snapshot(secrets=True)).get("online") or {}
        link = online.get("link") if isinstance(online, dict) else None
        if not link:
            return self._refusal(request, 404, Phrase(N_("no online game code to show")))
        return web.Response(text=qr_svg(link, document=True), content_type="image/svg+xml",
                            headers={"Cache-Control": "no-store"})

    # -- live updates ----------------------------------------------------------------------
    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if len(self._viewers) >= self.max_viewers:
            return self._refusal(request, 503, Phrase(N_(
                "the board already has {count} viewers; close a page and try again"),
                count=self.max_viewers))
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_BODY)
        await ws.prepare(request)
        dirty = asyncio.Event()
        dirty.set()
        self._viewers[ws] = dirty
        sender = asyncio.ensure_future(self._send_latest(ws, dirty, request))
        try:
            async for msg in ws:  # the page only listens; anything it sends is ignored
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            self._viewers.pop(ws, None)
            sender.cancel()
        return ws

    async def _send_latest(self, ws: web.WebSocketResponse, dirty: asyncio.Event,
                           request: web.Request) -> None:
        """Send this viewer the newest state whenever something changed since the last one
        it took: a slow viewer skips states instead of queueing them."""
        language = self._language(request)
        try:
            while not ws.closed:
                await dirty.wait()
                dirty.clear()
                await asyncio.wait_for(ws.send_str(await self._snapshot_json(language)),
                                       SEND_TIMEOUT)
        except asyncio.TimeoutError:
            log.info("dropping a viewer that took no update for %.0f s", SEND_TIMEOUT)
            self._viewers.pop(ws, None)
            transport = request.transport
            if transport is not None:
                transport.abort()  # its unread buffer goes with it
        except (ConnectionError, RuntimeError):
            self._viewers.pop(ws, None)

    async def _snapshot_json(self, language: str = SOURCE) -> str:
        """The current state as JSON in `language`, made once per change and language
        however many viewers take it (once stored: `_snapshot`)."""
        if self._cached_version == self._version and language in self._cached:
            return self._cached[language]
        snap = await self._snapshot(language=language)  # the version now is the snapshot's
        if self._cached_version != self._version:
            self._cached.clear()
            self._cached_version = self._version
        text = self._cached[language] = json.dumps(snap)
        return text

    def _changed(self) -> None:
        """Mark every viewer behind; each sender takes the newest state when it is free."""
        self._version += 1
        for dirty in self._viewers.values():
            dirty.set()

    async def _close_sockets(self, app: web.Application) -> None:
        for ws in list(self._viewers):
            await ws.close()


class DebugAccessLogger(AbstractAccessLogger):
    """aiohttp's access log at debug level, with the path but never the query string (a
    `?pin=` must not reach the journal)."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        access_log.debug("%s %s %s %d %.3fs", request.remote, request.method, request.path,
                         response.status, time)

    @property
    def enabled(self) -> bool:
        return access_log.isEnabledFor(logging.DEBUG)


async def _noop(_: object) -> None:
    return None


def bound_port(runner: web.AppRunner, port: int) -> int:
    """The port `runner` serves on: `port`, or the one the system chose for port 0."""
    return int(runner.addresses[0][1]) if runner.addresses else port


async def serve(companion: Companion, host: str, port: int) -> web.AppRunner:
    """Start serving; the caller's loop owns the server and calls runner.cleanup() to stop."""
    runner = web.AppRunner(companion.app(), access_log_class=DebugAccessLogger,
                           access_log=access_log)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = bound_port(runner, port)
    log.info("web companion on http://%s:%d/", host, bound)
    companion.link = phone_link(host, bound, companion.pin)
    log_link(companion.link)
    return runner
