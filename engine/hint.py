"""Teaching: every legal action judged for the side to act, the opponent's threats, and
whether an action just played was a blunder, with the reason in words.

The board lights these for a player who asked for help (the quality of each destination of a
lifted pebble, the points where the opponent closes a mill next, a warning after a blunder),
and `navakankari hint` prints them. Every action falls in exactly one quality class, by what
it does to the game's value for the side that plays it:

    keeps   keeps the value: within KEEP_MARGIN of the best action, or the same result
    worse   lets the value slip (less than DROP_MARGIN; or a won game only drawn)
    drops   costs about a pebble or more (DROP_MARGIN), or lets the opponent close a mill at
            once where the best action does not (and costs at least KEEP_MARGIN)
    loses   turns a game that is not lost into a lost one

Exact where an endgame database holds (endgame.py: three against three or four): the classes are then
its verdicts (win, draw, loss; the same result keeps, a win turned into a draw is worse, a
loss is loses), so an action classed `keeps` keeps a won position won. Elsewhere each action
is scored by the search (search.py) to the same depth, deepened until a time budget runs out;
the deepest depth every action finished is the one used, so the scores compare.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from .actions import Action, ActionKind
from .endgame import EndgameTable, table_for
from .errors import GameOverError
from .evaluate import PIECE, Evaluator, evaluator_for
from .game import Game, Side
from .morris import MorrisGame
from .search import MATE_BOUND, WIN, Clock, Searcher, StopFlag, endgame_score

#: Within this many centi-pebbles of the best action, an action keeps the value.
KEEP_MARGIN: Final = 30
#: From this drop on (centi-pebbles, a pebble being PIECE), an action drops a pebble or a mill.
DROP_MARGIN: Final = 90 * PIECE // 100
#: The search's time budget for a judgement on the board (wall seconds; see bench hint).
BOARD_BUDGET: Final = 0.2
#: The deepest search after each action (plies); a budget usually ends it sooner.
MAX_DEPTH: Final = 8


class Quality(str, Enum):
    """What an action does to the game's value for the side that plays it (best first)."""

    KEEPS = "keeps"
    WORSE = "worse"
    DROPS = "drops"
    LOSES = "loses"

    def __str__(self) -> str:
        return self.value


QUALITY_WORDS: Final[dict[Quality, str]] = {
    Quality.KEEPS: "keeps the result",
    Quality.WORSE: "makes the game worse",
    Quality.DROPS: "loses a pebble soon or allows a mill",
    Quality.LOSES: "loses the game",
}


@dataclass(frozen=True)
class Verdict:
    """One action's class and its score for the side that plays it (centi-pebbles; a win
    found in n actions is WIN - n, a loss its negative)."""

    action: str
    origin: str | None
    target: str
    quality: Quality
    score: int


@dataclass(frozen=True)
class Judgement:
    """The actions of one position judged for the side to act.

    `value` is the position's value for that side (the best action's score, or with an
    `origin` the whole position's search score), `best` the best action judged, `exact`
    whether the endgame database gave every verdict, `depth` the plies searched after each
    action (0: the static evaluation; the database needs none)."""

    position: str
    mover: Side
    value: int
    best: str | None
    verdicts: tuple[Verdict, ...]
    exact: bool
    depth: int
    seconds: float

    def quality(self, action: str) -> Quality:
        """The class of one action, by its notation; KeyError for one not judged."""
        for v in self.verdicts:
            if v.action == action:
                return v.quality
        raise KeyError(action)

    def classes(self) -> dict[str, Quality]:
        return {v.action: v.quality for v in self.verdicts}

    def by_target(self, origin: str | None = None) -> dict[str, Quality]:
        """Each destination's class (of the pebble on `origin`, or of every action): where
        several actions end on one point (capture chains), the best of them."""
        order = list(Quality)
        out: dict[str, Quality] = {}
        for v in self.verdicts:
            if origin is not None and v.origin != origin:
                continue
            old = out.get(v.target)
            if old is None or order.index(v.quality) < order.index(old):
                out[v.target] = v.quality
        return out

    def to_dict(self) -> dict[str, object]:
        """What `navakankari hint --json` prints: the best action and each action's class."""
        return {"best": self.best, "actions": {v.action: v.quality.value for v in self.verdicts}}


def tier(score: int) -> int:
    """+1 a win found, -1 a loss found, 0 otherwise (a draw, or a value short of a result)."""
    return 1 if score >= MATE_BOUND else -1 if score <= -MATE_BOUND else 0


def classify(score: int, value: int) -> Quality:
    """The class of an action scoring `score` where the best scores `value` (both for the
    side that acts)."""
    t, tv = tier(score), tier(value)
    if t == -1 and tv > -1:
        return Quality.LOSES
    if t == tv and t != 0:
        return Quality.KEEPS  # a win kept, or a lost game that no action saves
    if tv == 1:
        return Quality.WORSE  # a win thrown away, not lost
    drop = value - score
    if drop < KEEP_MARGIN:
        return Quality.KEEPS
    return Quality.WORSE if drop < DROP_MARGIN else Quality.DROPS


def _end_score(game: Game, mover: int, ply: int) -> int | None:
    """The score for `mover` of a game that has ended `ply` actions after the position
    judged (None while it goes on)."""
    outcome = game.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return 0
    return WIN - ply if outcome.winner == mover else -(WIN - ply)


def _mover_score(child_value: int, child_side: int, mover: int) -> int:
    return child_value if child_side == mover else -child_value


class Judge:
    """Judges positions with one search engine, whose table carries over from one judgement
    to the next (so a judgement made during the opponent's turn makes the next one quick).
    Not thread safe: one judgement at a time."""

    def __init__(self, searcher: Searcher | None = None) -> None:
        self.searcher = searcher or Searcher()

    def judge(self, game: Game, *, origin: str | None = None, budget: float = BOARD_BUDGET,
              max_depth: int = MAX_DEPTH, clock: Clock = time.monotonic,
              stop: StopFlag | None = None) -> Judgement:
        """Judge the actions of the side to act (only those of the pebble on `origin` when
        given: the destinations of a lifted pebble). The game is restored on return;
        GameOverError when it has ended."""
        start = clock()
        actions = game.legal_actions()
        if not actions:
            raise GameOverError(f"the game is over ({game.outcome()}); there is nothing to judge")
        judged = actions if origin is None else [a for a in actions if a.origin_name == origin]
        mover = game._side
        table = table_for(game.rules)
        if table is not None and table.result(game) is not None:
            scores = [self._exact(game, a, table, mover, 1) for a in actions]
            value = max(scores)
            picked = [s for a, s in zip(actions, scores) if a in judged]
            return self._judgement(game, judged, picked, value, True, 0, clock() - start)
        deadline = start + budget
        evaluate = evaluator_for(game.rules)
        every = [self._static(game, a, mover, evaluate) for a in actions]
        value = max(every)
        scores = [s for a, s in zip(actions, every) if a in judged]
        depth = 0
        for d in range(1, max_depth + 1):
            try:
                found = [self._searched(game, a, mover, d, deadline, clock, stop) for a in judged]
                if origin is not None:
                    whole = self._search(game, d + 1, deadline, clock, stop)
                    value_d = max(whole, *found) if found else whole
                else:
                    value_d = max(found)
            except _OutOfTime:
                break
            scores, value, depth = found, value_d, d
            if all(tier(s) for s in found):
                break  # every action's result is known: deeper changes nothing
        return self._judgement(game, judged, scores, value, False, depth, clock() - start)

    # -- internals ------------------------------------------------------------------------
    @staticmethod
    def _judgement(game: Game, judged: list[Action], scores: list[int], value: int,
                   exact: bool, depth: int, seconds: float) -> Judgement:
        classes = [classify(s, value) for s in scores]
        if not exact and isinstance(game, MorrisGame) and scores:
            # The search may see a pebble won back later; a child at the board still has
            # to know that the move lets a mill be closed at once.
            top = scores.index(max(scores))
            if not _allows_mill(game, judged[top]):
                classes = [Quality.DROPS if c is Quality.WORSE and _allows_mill(game, a) else c
                           for a, c in zip(judged, classes)]
        verdicts = tuple(Verdict(a.text, a.origin_name, a.target_name, c, s)
                         for a, c, s in zip(judged, classes, scores))
        best = None
        if verdicts:
            best = max(verdicts, key=lambda v: v.score).action
        return Judgement(game.position(), Side(game._side), value, best, verdicts, exact,
                         depth, seconds)

    def _exact(self, game: Game, action: Action, table: EndgameTable, mover: int,
               ply: int) -> int:
        """The database's score of `action` for `mover` (a removal it earns is played out)."""
        game.push(action)
        try:
            end = _end_score(game, mover, ply)
            if end is not None:
                return end
            if game._side == mover:  # a removal is owed: the mover takes the best one
                return max(self._exact(game, a, table, mover, ply + 1)
                           for a in game.legal_actions())
            r = table.result(game)
            if r is None:  # the quiet-move limit may end it first: the search decides
                return -self.searcher.search(game, max_depth=2).score
            child = endgame_score(r, ply)
            return _mover_score(child, game._side, mover)
        finally:
            game.pop()

    def _static(self, game: Game, action: Action, mover: int, evaluate: Evaluator) -> int:
        game.push(action)
        try:
            end = _end_score(game, mover, 1)
            if end is not None:
                return end
            if game._side == mover:
                return max(self._static(game, a, mover, evaluate) for a in game.legal_actions())
            return -evaluate(game)
        finally:
            game.pop()

    def _searched(self, game: Game, action: Action, mover: int, depth: int, deadline: float,
                  clock: Clock, stop: StopFlag | None) -> int:
        game.push(action)
        try:
            end = _end_score(game, mover, 1)
            if end is not None:
                return end
            if game._side == mover:  # a removal is owed: searched as the same action
                return self._search(game, depth + 1, deadline, clock, stop)
            return -self._search(game, depth, deadline, clock, stop)
        finally:
            game.pop()

    def _search(self, game: Game, depth: int, deadline: float, clock: Clock,
                stop: StopFlag | None) -> int:
        left = deadline - clock()
        if left <= 0:
            raise _OutOfTime
        # A forced reply (one legal action) is searched to the depth asked too: the search
        # alone would look one ply past it.
        forced = len(game.legal_actions()) == 1
        info = self.searcher.search(game, max_depth=depth, budget=left, clock=clock, stop=stop,
                                    all_root_scores=forced)
        if info.stopped and info.depth < depth and not tier(info.score):
            raise _OutOfTime
        return info.score


class _OutOfTime(Exception):
    """The budget ran out before every action was searched to the depth asked."""


def judge(game: Game, *, origin: str | None = None, budget: float = BOARD_BUDGET,
          max_depth: int = MAX_DEPTH, clock: Clock = time.monotonic) -> Judgement:
    """Judge the actions of the side to act with a fresh search engine (see Judge)."""
    return Judge().judge(game, origin=origin, budget=budget, max_depth=max_depth, clock=clock)


# -- threats ---------------------------------------------------------------------------------
class ThreatKind(str, Enum):
    MILL = "mill"  #: the opponent closes a mill here with its next action
    DOUBLE = "double"  #: the opponent's next action here threatens two mills at once
    BLOCKADE = "blockade"  #: the opponent's next action here leaves the side to act no move

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Threat:
    """One threat of the opponent: the point its pebble lands on, the action, and the mills
    it closes (MILL) or threatens (DOUBLE)."""

    kind: ThreatKind
    point: str
    action: str
    mills: tuple[str, ...] = ()


@dataclass(frozen=True)
class Threats:
    """The opponent's threats against the side to act. `applies` is False where the game
    has no mills (Nau Keti Keta: a capture is compulsory and the legal moves already show
    it), so there are none to show."""

    applies: bool
    by: Side
    items: tuple[Threat, ...] = ()

    def points(self, *kinds: ThreatKind) -> tuple[str, ...]:
        """The threatened points (of the kinds given, or of every kind), each once."""
        seen: dict[str, None] = {}
        for t in self.items:
            if not kinds or t.kind in kinds:
                seen.setdefault(t.point)
        return tuple(seen)


def mill_name(game: Game, mask: int) -> str:
    """`b2-d2-f2`: a mill by its points."""
    return "-".join(game.board.names(mask))


def closing_actions(game: Game) -> list[tuple[Action, tuple[str, ...]]]:
    """The actions of the side to act that close a mill and earn a removal, with the mills
    each closes (exact under every rule: capture limits, re-formed mills, safe pebbles)."""
    out = []
    side = game._side
    for a in game.legal_actions():
        if a.kind is ActionKind.REMOVE:
            continue
        game.push(a)
        if game._side == side and game.pending_removals:
            out.append((a, tuple(mill_name(game, m) for m in game.last_mills())))
        game.pop()
    return out


def _allows_mill(game: Game, action: Action) -> bool:
    """Whether the opponent can close a mill (and take a pebble) right after `action`."""
    side = game._side
    game.push(action)
    try:
        return game._side != side and game.outcome() is None and bool(closing_actions(game))
    finally:
        game.pop()


def passed(game: MorrisGame) -> MorrisGame:
    """The same position with the other side to act (a pass: how threats are seen)."""
    r = game.position_record()
    other = type(game)(game.rules)
    other._set_state(r.white, r.black, r.hand, r.side ^ 1, 0, r.quiet, r.fullmove,
                     r.mill_counts, r.remembered)
    return other


def threats(game: Game, *, deep: bool = False) -> Threats:
    """The points where the opponent of the side to act closes a mill if it could act now;
    with `deep`, also where its next action would threaten two mills at once that it cannot
    close now (a double threat) or leave the side to act without a move (a blockade)."""
    side = Side(game._side)
    if not isinstance(game, MorrisGame) or game.outcome() is not None:
        return Threats(isinstance(game, MorrisGame), side.other)
    them = passed(game)
    items = [Threat(ThreatKind.MILL, a.target_name, a.text, mills)
             for a, mills in closing_actions(them)]
    if deep:
        closing = {a.text for a, _ in closing_actions(them)}
        now = {m for t in items for m in t.mills}
        for a in them.legal_actions():
            if a.text in closing:
                continue
            them.push(a)
            try:
                if them._side != side:
                    continue
                outcome = them.outcome()
                if outcome is not None and outcome.winner == side.other:
                    items.append(Threat(ThreatKind.BLOCKADE, a.target_name, a.text))
                    continue
                if outcome is not None:
                    continue
                # Two mills it could not close before: one block cannot stop both.
                next_mills = {m for _, ms in closing_actions(passed(them)) for m in ms} - now
                if len(next_mills) >= 2:
                    items.append(Threat(ThreatKind.DOUBLE, a.target_name, a.text,
                                        tuple(sorted(next_mills))))
            finally:
                them.pop()
    return Threats(True, side.other, tuple(items))


# -- blunders --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Blunder:
    """An action that dropped the value past DROP_MARGIN, or turned a database win or draw
    into a loss, and why in words."""

    action: str
    quality: Quality
    better: str | None
    reason: str


def blunder(game: Game, action: Action | str, judgement: Judgement | None = None, *,
            budget: float = BOARD_BUDGET, clock: Clock = time.monotonic) -> Blunder | None:
    """Whether `action` (about to be played in `game`, which is left as it was) is a blunder;
    `judgement` is the position's (made if not given)."""
    text = action if isinstance(action, str) else action.text
    if judgement is None:
        judgement = judge(game, budget=budget, clock=clock)
    quality = judgement.quality(text)
    if quality not in (Quality.DROPS, Quality.LOSES):
        return None
    played = action if isinstance(action, Action) else game.parse(text)
    return Blunder(text, quality, judgement.best, _reason(game, played, judgement, quality))


def _reason(game: Game, action: Action, judgement: Judgement, quality: Quality) -> str:
    mover = Side(game._side)
    them = mover.other
    better = f"; {judgement.best} was better" if judgement.best else ""
    game.push(action)
    try:
        if game._side == mover:  # a mill closed and a removal owed: the choice is still open
            return f"{mover} gives away more than it gains after {action}{better}"
        if isinstance(game, MorrisGame):
            closing = closing_actions(game)
            if closing:
                a, mills = closing[0]
                return f"{them} closes {mills[0]} next and takes a pebble{better}"
            deep = threats(passed(game), deep=True)
            for t in deep.items:
                if t.kind is ThreatKind.BLOCKADE:
                    return f"{them} shuts {mover} in with {t.action} next and wins{better}"
            for t in deep.items:
                if t.kind is ThreatKind.DOUBLE:
                    return (f"{them} plays {t.action} next and threatens two mills at once "
                            f"({' and '.join(t.mills)}){better}")
        if quality is Quality.LOSES:
            how = "the endgame database" if judgement.exact else "the search"
            return f"{them} wins from here whatever {mover} does ({how} says so){better}"
        score = next(v.score for v in judgement.verdicts if v.action == action.text)
        lost = (judgement.value - score) / PIECE
        return f"it gives away about {lost:.1f} pebbles soon{better}"
    finally:
        game.pop()


def describe(judgement: Judgement, actions: Iterable[str] | None = None) -> list[str]:
    """`a1-a4 keeps` lines, best first marked, as `navakankari hint` prints them."""
    wanted = set(actions) if actions is not None else None
    lines = []
    for v in judgement.verdicts:
        if wanted is None or v.action in wanted:
            mark = "  (best)" if v.action == judgement.best else ""
            lines.append(f"{v.action} {v.quality}{mark}")
    return lines
