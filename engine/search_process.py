"""The searching player in a child process, so a program with work of its own (the board's
daemon watching its sensors) never shares its interpreter with a search.

`SearchProcessPlayer(level)` has every player's `choose(game, stop)`. Each call sends the
game to the child (`python -m navakankari.engine.search_process LEVEL`), which searches it
with its own `Player` at that level (the table kept from one action to the next) and
answers. One line each way, so the child can also be driven by hand:

    go ID {"rules": {...}, "start": POSITION or null, "moves": ["d6", ...], "seed": N}
    stop ID    end search ID now (it still answers, with the best action found so far)
    quit       leave (so does the end of the input; SIGINT is the parent's, and ignored)

and the child answers `bestmove ID ACTION` or `error ID TEXT`. With a `seed` (the game's,
optional) the child's choices follow from it and the game's actions (`Player.follow_seed`). Before any of that it says
`ready`, once its modules are loaded: a request's budget starts there, since an interpreter's
start on a slow machine (a Pi Zero, an emulated Pi, a Pi busy with other work) can take many
times a level's budget and is not thinking time. A child that dies, is not ready within
`start_timeout`, does not answer within its budget and `grace`, or answers what is not a
legal action is a `SearchProcessError` naming the level and the position; that child is
ended, and the next request starts a fresh one. The game passed in is never changed.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from . import core
from .actions import Action
from .errors import PlayerError, RulesError
from .external import start_and_moves
from .game import Game
from .outcome import game_over
from .player import SEEDS, Player, level_info
from .process import LineProcess, ProcessError
from .rules import Rules
from .translator import N_, Nn_
from .variants import game_from_position, new_game

log = logging.getLogger(__name__)

#: Seconds past a level's budget (or past `stop`) the child has to answer.
DEFAULT_GRACE = 5.0
#: Seconds a starting child has to say `ready`: a Pi 3 takes about a second, an emulated Pi on
#: a busy machine minutes. Only a child that hangs while starting waits this long to fail (one
#: that crashes fails at once).
START_TIMEOUT = 300.0


class SearchProcessError(PlayerError):
    """The search process gave no usable answer; the message names it and the position."""


def format_request(ident: int, game: Game, seed: int | None = None) -> str:
    """The `go` line that asks for an action in `game`, of the game seeded `seed`."""
    start, moves = start_and_moves(game)
    fields: dict[str, object] = {"rules": game.rules.to_dict(), "start": start, "moves": moves}
    if seed is not None:
        fields["seed"] = seed
    return f"go {ident} {json.dumps(fields, separators=(',', ':'))}"


def parse_request(line: str) -> tuple[int, Game, int | None]:
    """(ID, the game, its seed or None) from a `go` line; anything else is a
    SearchProcessError saying why."""
    word, _, rest = line.strip().partition(" ")
    ident, _, body = rest.partition(" ")
    if word != "go" or not ident.isdigit():
        raise SearchProcessError(f"not a request: {line.strip()[:80]!r}")
    try:
        data = json.loads(body)
        rules = Rules.from_dict(data["rules"])
        start, moves, seed = data["start"], data["moves"], data.get("seed")
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SearchProcessError(f"request {ident}: unreadable ({exc})") from None
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed < SEEDS):
        raise SearchProcessError(f"request {ident}: the seed must be a whole number "
                                 f"0..{SEEDS - 1}, not {seed!r}")
    game = new_game(rules) if start is None else game_from_position(rules, start)
    for text in moves:
        game.push(game.parse_action(text))
    return int(ident), game, seed


def serve(level: int, lines: TextIO, out: TextIO, seed: int | None = None) -> None:
    """The child's work: say `ready`, then answer requests from `lines` on `out` until `quit`
    or the end. The C core is loaded (and its build checked against the sources) first, so
    that the first request's budget is spent searching."""
    player = Player(level, seed=seed)
    core.available()
    try:
        out.write("ready\n")
        out.flush()
    except OSError:  # the parent has gone
        return
    work: queue.Queue[tuple[str, threading.Event] | None] = queue.Queue()

    def read() -> None:  # a thread, so a `stop` reaches the search while it runs
        current: tuple[str, threading.Event] | None = None
        for line in lines:
            word, _, ident = line.strip().partition(" ")
            if word == "go":
                current = (line, threading.Event())
                work.put(current)
            elif word == "stop" and current is not None and \
                    current[0].split()[1:2] == [ident.strip()]:
                current[1].set()
            elif word == "quit":
                break
        if current is not None:
            current[1].set()  # the parent has gone or asks us to leave: stop searching
        work.put(None)

    threading.Thread(target=read, name="requests", daemon=True).start()
    while (item := work.get()) is not None:
        line, stop = item
        ident = (line.split() + ["?"])[1]
        try:
            _, game, seed = parse_request(line)
            if seed is not None:
                player.follow_seed(seed, game)
            answer = f"bestmove {ident} {player.choose(game, stop).text}"
        except (RulesError, SearchProcessError) as exc:  # a bad request, or a game over
            answer = f"error {ident} {' '.join(str(exc).split())}"
        try:
            out.write(answer + "\n")
            out.flush()
        except OSError:  # the parent has gone
            return


class SearchProcessPlayer:
    """The searching player at `level`, its search in a child process started on first use.

    One request at a time. `clock` and `argv` are injected for tests; the process is ended
    by `close()`, by any failure, and when the player is garbage-collected.
    """

    def __init__(self, level: int, *, seed: int | None = None, grace: float = DEFAULT_GRACE,
                 clock: Callable[[], float] = time.monotonic,
                 argv: Sequence[str] | None = None, nice: int = 0,
                 start_timeout: float = START_TIMEOUT) -> None:
        self.level = level_info(level)
        self.name = f"computer:{level}"
        self.grace = grace
        self.start_timeout = start_timeout
        self.clock = clock
        self.argv = list(argv) if argv is not None else [
            sys.executable, "-m", __name__, str(level), *([] if seed is None else [str(seed)]),
            *([f"--nice={nice}"] if nice else [])]
        self._proc: LineProcess | None = None
        self._ids = itertools.count(1)
        self._seed: int | None = None
        self._lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        """The running child's process id, once it is ready."""
        proc = self._proc
        return proc.pid if proc is not None and proc.alive else None

    def _start(self) -> LineProcess:
        """The running child, or a new one once it has said `ready`."""
        if self._proc is not None and self._proc.alive:
            return self._proc
        self.close()
        started = self.clock()
        proc: LineProcess | None = None
        try:
            proc = LineProcess(self.argv, clock=self.clock)
            while (line := proc.readline(started + self.start_timeout)) != "ready":
                log.warning("%s: search process said %s", self.name, line)
        except ProcessError as exc:
            if proc is not None:
                proc.close("quit")
            raise SearchProcessError(N_("{name}: the search process did not start ({problem})"),
                                     name=self.name, problem=exc) from None
        log.info("%s: search process %d ready in %.1f s", self.name, proc.pid,
                  self.clock() - started)
        self._proc = proc
        return proc

    def _fail(self, forms: tuple[str, str], game: Game, **places: object) -> SearchProcessError:
        """The search process's failure (`forms`, marked Nn_, counting the game's actions)."""
        self.close()
        return SearchProcessError.counted(forms, len(game.history), name=self.name,
                                          position=game.position(), **places)

    def follow_seed(self, seed: int, game: Game) -> None:
        """Send the game's `seed` with the next request (see `Player.follow_seed`)."""
        self._seed = seed

    def choose(self, game: Game, stop: threading.Event | None = None) -> Action:
        if not game.legal_actions():
            raise game_over(game.outcome())
        with self._lock:
            proc = self._start()
            ident = next(self._ids)
            halt = stop.is_set if stop is not None else None
            deadline = self.clock() + self.level.budget + self.grace
            try:
                proc.send(format_request(ident, game, self._seed))
                self._seed = None
                while True:
                    line = proc.readline(deadline, halt)
                    if line is None:  # asked to stop: the child answers with what it has
                        proc.send(f"stop {ident}")
                        halt, deadline = None, min(deadline, self.clock() + self.grace)
                        continue
                    word, _, rest = line.partition(" ")
                    said, _, text = rest.partition(" ")
                    if word in ("bestmove", "error") and said == str(ident):
                        break
                    if word not in ("bestmove", "error"):
                        log.warning("%s: search process said %s", self.name, line)
            except ProcessError as exc:
                raise self._fail(Nn_("{name}: the search process failed ({problem}) in position "
                                     "{position} (after {count} action)",
                                     "{name}: the search process failed ({problem}) in position "
                                     "{position} (after {count} actions)"), game,
                                 problem=exc) from None
            if word == "error":  # its words are the child's internals: for the log
                log.error("%s: the search process refused the request: %s", self.name, text)
                raise SearchProcessError(N_("{name}: the search process refused the request"),
                                         name=self.name)
            try:
                return game.parse_action(text)
            except RulesError as exc:
                raise self._fail(Nn_("{name}: the search process answered {text} ({problem}) in "
                                     "position {position} (after {count} action)",
                                     "{name}: the search process answered {text} ({problem}) in "
                                     "position {position} (after {count} actions)"), game,
                                 text=repr(text), problem=exc) from None

    def close(self) -> None:
        """End the child (quit, then terminate, then kill); the next request starts one."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.close("quit")

    def __del__(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is not None:  # forgotten without close(): leave no process running
            proc.kill()


def lower_priority(increment: int) -> bool:
    """Run this process `increment` nice levels below where it was, so that its parent's own
    work (a board's loop reading its sensors) goes first on a busy machine. False where the
    system refuses (a sandbox without setpriority); the search then runs as it is."""
    try:
        os.nice(increment)
    except OSError:
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m navakankari.engine.search_process LEVEL [SEED] [--nice=N]`: serve on
    stdin/stdout (N nice levels below the parent, with --nice)."""
    args = list(sys.argv[1:] if argv is None else argv)
    nice = [a for a in args if a.startswith("--nice=")]
    args = [a for a in args if not a.startswith("--nice=")]
    try:
        level = int(args[0])
        seed = int(args[1]) if len(args) > 1 else None
        level_info(level)
        increment = int(nice[-1].partition("=")[2]) if nice else 0
    except (IndexError, ValueError) as exc:
        print(f"usage: python -m {__name__} LEVEL [SEED] [--nice=N] ({exc})", file=sys.stderr)
        return 2
    if increment:
        lower_priority(increment)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to act on
    serve(level, sys.stdin, sys.stdout, seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
