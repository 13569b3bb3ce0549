"""Computer players: the levels of the searching player, plus random and greedy opponents.

Every player has `choose(game, stop=None) -> Action`; the game is never changed (the search
works on a copy). `choose_async` runs a choice in a worker thread so an asyncio loop stays
responsive.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from dataclasses import dataclass
from typing import Protocol

from .actions import Action, ActionKind
from .external import start_and_moves
from .game import Game
from .outcome import game_over
from .rules import Rules
from .search import MATE_BOUND, Clock, Searcher, SearchInfo, StopFlag

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Level:
    """How hard a level plays.

    `budget` is the thinking time in seconds on a laptop-class CPU (a Raspberry Pi 4 is
    about 3-5 times slower, so it reaches a ply or so less in the same time). The lower
    levels also cap the depth and choose at random among the root actions that score within
    `margin` of the best, and with probability `blunder` play any legal action. With `vary`
    a level chooses at random (by its seed) among root actions that score exactly the best,
    so a person who found a winning line cannot play the same game again and again.
    """

    number: int
    budget: float
    max_depth: int
    margin: int = 0
    blunder: float = 0.0
    vary: bool = True


#: The depth caps are 1, 4, 6, 8 and 10 plies: each level scores three quarters of the points
#: or more against the one below on navakankari (the README's "Playing against the computer"),
#: and a step of one ply gains little (level 5 at 9 plies scored 55 % against level 4 at 8).
#: A person who steps out of a closed mill and back in to take wins when the mill was left
#: unguarded three or four of the computer's turns before: against a scripted person, level 3
#: at 4 plies let such a mill run in 69 of 300 games, at 6 plies in 54, and level 4 at 8 plies
#: in 38 (`DEFAULT_LEVEL`). Levels 1 to 4 reach their caps within their budgets on a laptop
#: (level 4's 8 plies in a median of 14 ms, at most 0.6 s), so the order does not hang on
#: timing; level 5's 10 plies take a median of 0.09 s, and its hardest positions end by its
#: budget a ply or two short. On a Raspberry Pi 3 (5 to 10 times slower) level 3 keeps its 6
#: plies in all but its hardest positions and level 4 its 8 in most. Level 6 has no cap: its
#: budget takes it past level 5.
LEVELS: tuple[Level, ...] = (
    Level(1, 0.10, 1, margin=150, blunder=0.30),
    # Level 2 is the old default with slips: 4 plies, actions within 0.3 pebbles of the best
    # and a random action 5 % of the time.
    Level(2, 0.30, 4, margin=30, blunder=0.05),
    Level(3, 1.00, 6),
    Level(4, 1.50, 8),
    Level(5, 2.00, 10),
    # Exact root scores cost level 6 a ply in its budget: it plays its one best line.
    Level(6, 4.00, 64, vary=False),
)
MAX_LEVEL = len(LEVELS)
CAPPED_LEVELS = 4
"""Levels 1 to this end every search at their depth caps within their budgets on a laptop, so
their turns repeat from a seed (`follow_seed`); level 5's hardest positions and level 6 end
by time."""
SEEDS = 2 ** 63
"""A game's seed (`Player.follow_seed`) is a whole number below this: SQLite keeps it whole."""

DEFAULT_LEVEL = 4
"""The level a bare `computer` plays at, on the board and on the command line alike, and the
adaptive computer's first: level 4, 8 plies, is the first that seldom lets a person who found
a mill to step out of and back into run it (against the scripted runner, 57 running mills in
38 of 300 games and 7 % of the points, where level 3's 6 plies let 107 through in 54 games and
13.8 %, and 4 plies 148 in 69: the README's "Playing against the computer")."""


def level_info(number: int) -> Level:
    """The level numbered 1..MAX_LEVEL; the error names the range."""
    if not 1 <= number <= MAX_LEVEL:
        raise ValueError(f"level must be 1..{MAX_LEVEL}, not {number}")
    return LEVELS[number - 1]


class ChoosesActions(Protocol):
    """What the daemon and the match runner need of any player."""

    name: str

    def choose(self, game: Game, stop: threading.Event | None = None) -> Action: ...


class _Either:
    """Stops when either flag is set (the caller's event or Player.stop())."""

    def __init__(self, a: StopFlag, b: StopFlag | None) -> None:
        self.a, self.b = a, b

    def is_set(self) -> bool:
        return self.a.is_set() or (self.b is not None and self.b.is_set())


def _check_not_over(game: Game) -> list[Action]:
    actions = game.legal_actions()
    if not actions:
        raise game_over(game.outcome())
    return actions


class Player:
    """The searching player at one level.

    `seed` makes the lower levels' random choices repeat; `clock` is injected so tests can
    end a search without waiting; `budget_scale` multiplies the level's time budget (for
    long strength runs on a slow machine). One search at a time per player: the
    transposition table carries over from one action to the next. To cancel a request
    that may not have started yet, pass a `stop` event to `choose` (`stop()` only ends
    the search in progress).
    """

    def __init__(self, level: int, seed: int | None = None, clock: Clock = time.monotonic,
                 budget_scale: float = 1.0) -> None:
        self.level = level_info(level)
        self.name = f"computer:{level}"
        self.rng = random.Random(seed)
        self.clock = clock
        self.budget_scale = budget_scale
        self.searcher = Searcher()
        self._stop = threading.Event()
        self.last: SearchInfo | None = None
        #: The game of the last seeded choice: (seed, rules, start) and its actions then.
        self._seeded: tuple[tuple[int, Rules, str | None], tuple[str, ...]] | None = None

    @property
    def budget(self) -> float:
        return self.level.budget * self.budget_scale

    def stop(self) -> None:
        """End the search in progress at once (it still answers with a legal action)."""
        self._stop.set()

    def new_game(self) -> None:
        """Forget what the last game taught the search (its table and statistics)."""
        self.searcher.clear()

    def follow_seed(self, seed: int, game: Game) -> None:
        """Make the next choice, in `game`, follow from the game's `seed` and its actions
        alone: its random choices come from the seed and the number of actions played, and
        the table is cleared unless `game` continues the game of the last seeded choice. So a
        game begun again with the same seed and the same person's moves meets the same
        moves, while each search ends at its level's depth cap rather than its time budget
        (levels 1 to `CAPPED_LEVELS` on a laptop)."""
        start, moves = start_and_moves(game)
        origin, done = (seed, game.rules, start), tuple(moves)
        last = self._seeded
        if last is None or last[0] != origin or len(last[1]) >= len(done) \
                or done[:len(last[1])] != last[1]:
            self.searcher.clear()
        self._seeded = (origin, done)
        self.rng = random.Random(f"{seed}/{len(done)}")

    def think(self, game: Game, stop: threading.Event | None = None) -> SearchInfo:
        """Search a copy of `game` and return what was found, the chosen action first."""
        actions = _check_not_over(game)
        self._stop = flag = threading.Event()
        lv = self.level
        if lv.blunder and self.rng.random() < lv.blunder:
            action = self.rng.choice(actions)
            info = SearchInfo(action, 0, 0, 0, 0.0, (action,))
            self.last = info
            return info
        pick = lv.margin > 0 or lv.vary
        info = self.searcher.search(
            game.copy(), max_depth=lv.max_depth, budget=self.budget, clock=self.clock,
            stop=_Either(flag, stop), all_root_scores=pick)
        if pick and info.root_scores:
            info = self._near_best(info)
        self.last = info
        return info

    def choose(self, game: Game, stop: threading.Event | None = None) -> Action:
        return self.think(game, stop).action

    async def choose_async(self, game: Game, stop: threading.Event | None = None) -> Action:
        """`choose` in a worker thread, on a copy of the game.

        The search is pure Python, so the thread holds the GIL while it runs; the
        interpreter switches threads every few milliseconds, which keeps an asyncio loop
        responsive (slower, not blocked). Cancelling the awaiting task stops the search.
        """
        loop = asyncio.get_running_loop()
        event = stop or threading.Event()
        snapshot = game.copy()
        future = loop.run_in_executor(None, self.choose, snapshot, event)
        try:
            return await future
        except asyncio.CancelledError:
            event.set()
            self.stop()
            raise

    def _near_best(self, info: SearchInfo) -> SearchInfo:
        best = max(score for _, score in info.root_scores)
        if abs(best) >= MATE_BOUND:
            floor = best  # a forced result: no deliberate slip turns a win into a loss
        else:
            floor = max(best - self.level.margin, -MATE_BOUND + 1)
        pool = [(a, s) for a, s in info.root_scores if s >= floor]
        action, score = self.rng.choice(pool)
        return SearchInfo(action, score, info.depth, info.nodes, info.seconds, (action,),
                          info.stopped, info.root_scores)


class RandomPlayer:
    """Any legal action, uniformly (seeded)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, stop: threading.Event | None = None) -> Action:
        return self.rng.choice(_check_not_over(game))


class GreedyPlayer:
    """Closes a mill (or makes the longest capture) when it can, otherwise plays at random;
    a removal takes any takeable pebble."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, stop: threading.Event | None = None) -> Action:
        actions = _check_not_over(game)
        jumps = [a for a in actions if a.kind == ActionKind.JUMP]
        if jumps:
            most = max(len(a.jumped) for a in jumps)
            return self.rng.choice([a for a in jumps if len(a.jumped) == most])
        s = int(game.turn)
        own = game.pieces(s)
        mills_at = game.board.mills_at
        closing = [
            a for a in actions if a.kind in (ActionKind.PLACE, ActionKind.MOVE)
            and any(((own & ~a.empties) | a.fills) & m == m for _, m in mills_at[a.target])
        ]
        return self.rng.choice(closing or actions)


async def choose_async(game: Game, level: int, stop_event: threading.Event | None = None,
                       seed: int | None = None) -> Action:
    """One action from a fresh player at `level`, searched in a worker thread (see
    Player.choose_async); setting `stop_event` ends the search at once."""
    return await Player(level, seed=seed).choose_async(game, stop_event)


def close_player(player: object) -> None:
    """End what a player holds (an engine's process); players holding nothing have no close()."""
    close = getattr(player, "close", None)
    if close is not None:
        close()
