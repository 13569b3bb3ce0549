"""An installed engine as a player: anything that speaks Sanmill's console protocol.

The spec `engine:PATH?KEY=VALUE&...` names the program and its settings. Two keys belong
to the adapter: `seconds` (thinking time per action, default 1) and `grace` (seconds to
wait for an answer after `stop`, default 5). Every other key is sent as `setoption name
KEY value VALUE`, after Sanmill's app settings (SkillLevel 30, DeveloperMode false,
MoveTime: `seconds` rounded up to whole seconds, the only unit it takes), which a key of
the same name replaces.

Each action: `position startpos moves ...` (or `position fen START moves ...` for a game
set up from a position), `d` to read back the engine's position (a Sanmill engine stops
silently at the first move it finds illegal, so a difference is an error, not a guess),
then `go`, and `stop` once `seconds` have passed. The answer must be one of our legal
actions; anything else (an illegal or unreadable move, no answer, a crash) is an
`ExternalEngineError` naming the engine and the position, and the process is ended; the
next request starts a fresh one. The game passed in is never changed.
"""

from __future__ import annotations

import logging
import math
import os
import re
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote

from .actions import Action
from .errors import IllegalActionError, InvalidNotationError, PlayerError, WordedError, Wording
from .game import Game
from .outcome import game_over
from .process import LineProcess, ProcessError, ProcessTimeout
from .variants import new_game
from .translator import N_, Nn_

log = logging.getLogger(__name__)

PREFIX = "engine:"
#: Sanmill's app settings, sent unless the spec sets the same option.
DEFAULT_OPTIONS: tuple[tuple[str, str], ...] = (("SkillLevel", "30"), ("DeveloperMode", "false"))
DEFAULT_SECONDS = 1.0
DEFAULT_GRACE = 5.0
#: Seconds a starting engine gets to answer `uci` and `isready` (at least; `grace` if longer).
START_TIMEOUT = 10.0
#: How many times `d` is asked before a position that disagrees is an error.
POSITION_ASKS = 3
_BESTMOVE = re.compile(r"\bbestmove\s+(\S+)")
_FEN = re.compile(r"\bFen:\s*(\S.*)$")
#: Position-string fields that must agree: board, side to move, action (place/select/
#: remove), pebbles on the board and in hand. Sanmill writes the phase and the move number
#: its own way (phase `p` while a removal is pending after the last placement).
_COMPARED_FIELDS = (0, 1, 3, 4, 5, 6, 7)


class ExternalEngineError(PlayerError):
    """The engine gave no usable answer; the message names it and the position."""


class EngineSpecError(WordedError, ValueError):
    """Text that is not an engine spec. Its meaning is a `Wording` (errors.py), so a player
    spec names it in the player's language (`PlayerSpecError`); its text is the English."""


def _seconds(key: str, value: str, text: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not (math.isfinite(number) and number > 0):
        raise EngineSpecError(N_("{spec}: {key} must be a positive number of seconds, not {value}"),
                              spec=repr(text), key=key, value=repr(value))
    return number


@dataclass(frozen=True)
class EngineSpec:
    """Which program to run and how: the value behind an `engine:` player spec."""

    path: str
    options: tuple[tuple[str, str], ...] = ()
    seconds: float = DEFAULT_SECONDS
    grace: float = DEFAULT_GRACE

    @classmethod
    def parse(cls, text: str) -> "EngineSpec":
        """`engine:PATH` with an optional `?KEY=VALUE&...` (values %-escaped as in a URL)."""
        body = text.strip()
        if body[:len(PREFIX)].lower() == PREFIX:
            body = body[len(PREFIX):]
        path, _, query = body.partition("?")
        if not path:
            raise EngineSpecError(N_("{spec}: an engine player needs a program: engine:PATH"),
                                  spec=repr(text))
        try:
            pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True) if query else []
        except ValueError:
            raise EngineSpecError(N_("{spec}: settings must be KEY=VALUE joined by &"),
                                  spec=repr(text)) from None
        options: list[tuple[str, str]] = []
        seconds, grace = DEFAULT_SECONDS, DEFAULT_GRACE
        for key, value in pairs:
            if not key.strip() or any(c in "\r\n" for c in key + value):
                raise EngineSpecError(N_("{spec}: bad setting {key}={value}"), spec=repr(text),
                                      key=repr(key), value=repr(value))
            if key == "seconds":
                seconds = _seconds(key, value, text)
            elif key == "grace":
                grace = _seconds(key, value, text)
            else:
                options.append((key, value))
        return cls(path, tuple(options), seconds, grace)

    def __str__(self) -> str:
        query = [(k, v) for k, v in self.options]
        if self.seconds != DEFAULT_SECONDS:
            query.append(("seconds", f"{self.seconds:g}"))
        if self.grace != DEFAULT_GRACE:
            query.append(("grace", f"{self.grace:g}"))
        tail = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in query)
        return f"{PREFIX}{self.path}" + (f"?{tail}" if tail else "")

    def setoptions(self) -> list[tuple[str, str]]:
        """Every option to send, in order: the defaults the spec does not replace, then its own."""
        given = {k.lower() for k, _ in self.options}
        defaults = [*DEFAULT_OPTIONS, ("MoveTime", str(max(1, math.ceil(self.seconds))))]
        return [(k, v) for k, v in defaults if k.lower() not in given] + list(self.options)

    def program(self) -> str:
        """The executable to run: the path, or a bare name looked up on PATH."""
        path = self.path
        if os.sep not in path:
            found = shutil.which(path)
            if found is None:
                raise EngineSpecError(N_("engine {path}: no such program is installed"),
                                      path=repr(path))
            return found
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            raise EngineSpecError(N_("engine {path}: not a program that can be run"),
                                  path=repr(path))
        return path


#: At the end of a game only the pebbles are compared: Sanmill keeps the side to move and
#: the action `r` after a game-ending removal.
_PEBBLE_FIELDS = (0, 4, 5, 6, 7)


def _same_position(ours: str, theirs: str, fields: tuple[int, ...] = _COMPARED_FIELDS) -> bool:
    a, b = ours.split(), theirs.split()
    return len(b) >= len(a) - 1 and all(a[i] == b[i] for i in fields if i < len(a))


def start_and_moves(game: Game) -> tuple[str | None, list[str]]:
    """The game's start position (None for the rules' own start) and its moves since."""
    start = game.copy()
    while start.history:
        start.pop()
    first = start.position()
    return (None if first == new_game(game.rules).position() else first,
            [a.text for a in game.history])


class EnginePlayer:
    """Plays by asking an external engine; one process, started on first use.

    `clock` is injected so tests can run the timers fast; the process is ended by
    `close()`, by any error, and when the player is garbage-collected.
    """

    def __init__(self, spec: EngineSpec | str, clock: Callable[[], float] = time.monotonic) -> None:
        self.spec = spec if isinstance(spec, EngineSpec) else EngineSpec.parse(spec)
        self.argv = [self.spec.program()]
        self.name = f"{PREFIX}{self.spec.path}"
        self.clock = clock
        self._proc: LineProcess | None = None
        self._sent: list[str] | None = None  # the last move list sent, for ucinewgame
        self._lock = threading.Lock()

    # -- the process ---------------------------------------------------------------------
    def _fail(self, problem: Wording, game: Game | None) -> ExternalEngineError:
        self.close(quit_line=None)
        if game is None:
            return ExternalEngineError(N_("engine {path}: {problem}"), path=self.spec.path,
                                       problem=problem)
        return ExternalEngineError.counted(Nn_(
            "engine {path}: {problem} in position {position} (after {count} action)",
            "engine {path}: {problem} in position {position} (after {count} actions)"),
            len(game.history), path=self.spec.path, problem=problem, position=game.position())

    def _until(self, proc: LineProcess, want: Callable[[str], bool], seconds: float,
               what: Wording, game: Game | None, stop: Callable[[], bool] | None = None,
               timeout_ok: bool = False) -> str | None:
        """Read lines until `want(line)`; None if `stop()` turned true first, or at the
        deadline when `timeout_ok`."""
        deadline = self.clock() + seconds
        try:
            while True:
                line = proc.readline(deadline, stop)
                if line is None or want(line):
                    return line
        except ProcessTimeout:
            if timeout_ok:
                return None
            raise self._fail(Wording.of(N_("no {what}: it did not answer in time"), what=what),
                             game) from None
        except ProcessError as exc:
            raise self._fail(Wording.of(N_("no {what}: {problem}"), what=what, problem=exc),
                             game) from None

    def _start(self) -> LineProcess:
        if self._proc is not None and self._proc.alive:
            return self._proc
        self.close(quit_line=None)
        try:
            proc = self._proc = LineProcess(self.argv, clock=self.clock)
        except ProcessError as exc:
            raise ExternalEngineError(N_("engine {path}: {problem}"), path=self.spec.path,
                                      problem=exc) from None
        grace = max(self.spec.grace, START_TIMEOUT)
        self._send("uci", None)
        self._until(proc, lambda s: s.strip() == "uciok", grace, Wording.of(N_("uciok after uci")),
                    None)
        for name, value in self.spec.setoptions():
            self._send(f"setoption name {name} value {value}", None)
        self._send("isready", None)
        self._until(proc, lambda s: "readyok" in s, grace,
                    Wording.of(N_("readyok after its options")), None)
        self._sent = None
        log.debug("%s started (pid %s)", self.name, proc.pid)
        return proc

    def _send(self, line: str, game: Game | None) -> None:
        assert self._proc is not None
        try:
            self._proc.send(line)
        except ProcessError as exc:
            raise self._fail(Wording.of(N_("cannot send {command}: {problem}"),
                                        command=line.split()[0], problem=exc), game) from None

    def close(self, quit_line: str | None = "quit") -> None:
        """End the engine process (it is started again when next needed)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.close(quit_line)

    def __del__(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is not None:  # forgotten without close(): leave no engine running
            proc.kill()

    def new_game(self) -> None:
        """Start the engine now (so a match does not time the start-up) and tell it a new
        game begins."""
        with self._lock:
            self._start()
            self._sent = None

    # -- one action ----------------------------------------------------------------------
    def choose(self, game: Game, stop: threading.Event | None = None) -> Action:
        if not game.legal_actions():
            raise game_over(game.outcome())
        if game.rules.game != "morris":
            raise ExternalEngineError(N_("engine {path}: {rules} has no position strings; "
                                         "engines play morris boards only"),
                                      path=self.spec.path, rules=game.rules.name)
        with self._lock:
            return self._choose(game, stop)

    def ending(self, game: Game) -> str:
        """How the engine sees a finished game, to check that its rules agree with ours:
        "over" (Sanmill's position string has phase `o`), "draw" (it answers `bestmove
        draw`) or "plays X" (it would play on)."""
        with self._lock:
            proc = self._send_position(game)
            seen = self._engine_positions(proc, game)
            ours = game.position()
            same = [fen for fen in seen if _same_position(ours, fen, _PEBBLE_FIELDS)]
            if not same:
                raise self._fail(Wording.of(N_("has another position at the end: {position}"),
                                            position=seen[-1]) if seen else
                                 Wording.of(N_("has another position at the end: nothing")), game)
            if same[-1].split()[2:3] == ["o"]:
                return "over"
            now = threading.Event()
            now.set()
            text = self._search(proc, game, now)
            return "draw" if text == "draw" else f"plays {text}"

    def _send_position(self, game: Game) -> LineProcess:
        """Start the engine if need be and send it the game (`ucinewgame` first when the
        moves do not continue the last game sent)."""
        proc = self._start()
        start, moves = start_and_moves(game)
        if self._sent is None or moves[:len(self._sent)] != self._sent:
            self._send("ucinewgame", game)
        self._sent = moves
        tail = f" moves {' '.join(moves)}" if moves else ""
        self._send(f"position {'startpos' if start is None else 'fen ' + start}{tail}", game)
        return proc

    def _choose(self, game: Game, stop: threading.Event | None) -> Action:
        proc = self._send_position(game)
        fen = self._check_position(proc, game)
        text = self._search(proc, game, stop)
        if text == "draw":
            # Its own repetition or move-count rule, which differ from ours: ask again from
            # its present position with no history, so that it has to choose a move.
            self._send(f"position fen {fen}", game)
            text = self._search(proc, game, stop)
            if text == "draw":
                raise self._fail(Wording.of(N_("claims a draw that our rules do not see")), game)
        try:
            action = game.parse_action(text)
        except InvalidNotationError as exc:
            raise self._fail(Wording.of(N_("answered {text}, which is not an action ({problem})"),
                                        text=repr(text), problem=exc), game) from None
        except IllegalActionError:
            legal = " ".join(a.text for a in game.legal_actions())
            raise self._fail(Wording.of(N_("answered {text}, which is illegal here (legal: "
                                           "{legal})"), text=text, legal=legal), game) from None
        return action

    def _engine_positions(self, proc: LineProcess, game: Game) -> list[str]:
        """Ask `d`; the position strings (`Fen:` lines) seen up to the `readyok` after it.
        A line still printed by the previous search describes an earlier position, so
        the caller looks for a match among them, or takes the last."""
        self._send("d", game)
        self._send("isready", game)
        seen: list[str] = []

        def want(line: str) -> bool:
            found = _FEN.search(line)
            if found:
                seen.append(found.group(1).strip())
            return "readyok" in line

        self._until(proc, want, self.spec.grace, Wording.of(N_("readyok after d")), game)
        return seen

    def _check_position(self, proc: LineProcess, game: Game) -> str:
        """The engine's own string for the position, once it agrees with ours."""
        ours = game.position()
        # Asked up to three times: Sanmill's search thread can still be printing when `d`
        # answers, and a line of its statistics once landed inside the `Fen:` line.
        for attempt in range(POSITION_ASKS):
            seen = self._engine_positions(proc, game)
            for fen in reversed(seen):
                if _same_position(ours, fen):
                    return fen
            if attempt + 1 < POSITION_ASKS:
                log.warning("engine %s: position %s is not ours (%s); asking again",
                            self.spec.path, seen[-1] if seen else "missing", ours)
        if not seen:
            raise self._fail(Wording.of(N_("has another position: nothing (no Fen: line after d); "
                                           "it did not follow every move or plays other rules")), game)
        raise self._fail(Wording.of(N_("has another position: {position}; it did not follow "
                                       "every move or plays other rules"), position=seen[-1]), game)

    def _search(self, proc: LineProcess, game: Game, stop: threading.Event | None) -> str:
        """`go`, then `stop` after the thinking time or when `stop` is set; the bestmove."""
        self._send("go", game)
        answer: list[str] = []

        def want(line: str) -> bool:
            found = _BESTMOVE.search(line)
            if found:
                answer.append(found.group(1))
            return bool(found)

        halt = stop.is_set if stop is not None else None
        self._until(proc, want, self.spec.seconds, Wording.of(N_("bestmove")), game, halt,
                    timeout_ok=True)
        if not answer:
            self._send("stop", game)
            self._until(proc, want, self.spec.grace,
                        Wording.of(N_("bestmove within {seconds} s of stop"),
                                   seconds=f"{self.spec.grace:g}"), game)
        return answer[0]
