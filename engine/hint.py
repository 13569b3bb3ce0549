"""Teaching: every legal action judged for the side to act, the opponent's threats, and
whether an action just played was a blunder, with the concrete reason the search found.

The board lights these for a player who asked for help (the quality of each destination of a
lifted pebble, the points where the opponent closes a mill next, a warning after a blunder),
and `navakankari hint` prints them. Every action falls in exactly one quality class, by what
it does to the game's value for the side that plays it:

    keeps   keeps the value: within KEEP_MARGIN of the best action, or the same result
    worse   lets the value slip (less than DROP_MARGIN; or a won game only drawn), or costs
            more with nothing concrete found behind it
    drops   costs about a pebble or more (DROP_MARGIN), and the opponent's gain comes next
            turn, concretely (a `Reason`: the mill it closes and the pebble it takes, two
            mills threatened at once, a blockade), found in the search's line or at once
    loses   turns a game that is not lost into a lost one

Where the best action is already LOST_CAUSE down, nothing is red: the search's horizon
cannot tell the actions apart there. These rules were calibrated against a judgement ten
times deeper (`navakankari bench hint`).

One judgement, the same every time: the work is counted in search nodes (`budget`), not
seconds, and each judgement starts from a cleared search table and statistics, so a
position gets the same verdicts on any machine, under any load and whatever was judged
before (the C core and the Python search visit the same nodes: see search.Searcher.search).
Exact where an endgame database holds (endgame.py: three against three or four): the classes
are then its verdicts (win, draw, loss; the same result keeps, a win turned into a draw is
worse, a loss is loses), so an action classed `keeps` keeps a won position won. Elsewhere one
search scores every action of the position to the same depth (every root score exact),
deepened until the node budget runs out; the deepest depth it finished is the one used.
The words for all of it are in hint_words.py.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from .actions import Action, ActionKind
from .endgame import EndgameTable, table_for
from .evaluate import PIECE, Evaluator, evaluator_for
from .game import Game, Reason as EndReason, Side
from .morris import MorrisGame
from .hint_words import blunder_words, reason_words
from .outcome import game_over
from .translator import ENGLISH, N_, Translator
from .reasons import Quality, Reason, ReasonKind
from .rules import Rules
from .search import MATE_BOUND, WIN, Searcher, endgame_score

#: Within this many centi-pebbles of the best action, an action keeps the value.
KEEP_MARGIN: Final = 30
#: From this drop on (centi-pebbles, a pebble being PIECE), an action drops a pebble or a mill.
DROP_MARGIN: Final = 90 * PIECE // 100
#: Budgets are whole multiples of this many nodes: the Python search looks at its node count
#: every 128 nodes and the C core every 1024, so both stop at the same node.
NODE_STEP: Final = 1024
#: The board's judgement and `navakankari hint`'s default, in search nodes, by game family
#: (Rules.game): the morris family is searched by the C core, Nau Keti Keta by the Python
#: search, some ten times slower a node. Chosen so that a Raspberry Pi 4 answers within 0.3 s
#: at p99 (`navakankari bench hint` says how that is estimated).
BOARD_BUDGETS: Final[dict[str, int]] = {"morris": 32 * NODE_STEP, "jump": 4 * NODE_STEP}
#: The deepest search after each action (plies); the budget usually ends it sooner.
MAX_DEPTH: Final = 12
#: Where the best action is already this far down (centi-pebbles), a drop or a loss found is
#: the position's likely fate, not the action's doing (a deeper search most often finds
#: every action lost): such actions are judged worse, not red.
LOST_CAUSE: Final = 3 * PIECE


@dataclass(frozen=True)
class Verdict:
    """One action's class and its score for the side that plays it (centi-pebbles; a win
    found in n actions is WIN - n, a loss its negative); `reason` for drops and loses."""

    action: str
    origin: str | None
    target: str
    quality: Quality
    score: int
    reason: Reason | None = None


@dataclass(frozen=True)
class Judgement:
    """The actions of one position judged for the side to act.

    `value` is the position's value for that side (the best action's score), `best` the best
    action judged, `exact` whether the endgame database gave every verdict, `depth` the
    plies searched after each action (0: the static evaluation; the database needs none),
    `nodes` the search's work, `budget` the nodes it was given."""

    position: str
    mover: Side
    value: int
    best: str | None
    verdicts: tuple[Verdict, ...]
    exact: bool
    depth: int
    seconds: float
    nodes: int = 0
    budget: int = 0

    def quality(self, action: str) -> Quality:
        """The class of one action, by its notation; KeyError for one not judged."""
        return self.verdict(action).quality

    def verdict(self, action: str) -> Verdict:
        """One action's verdict, by its notation; KeyError for one not judged."""
        for v in self.verdicts:
            if v.action == action:
                return v
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
        """What `navakankari hint --json` prints: the position, the best action, each
        action's class and the reason of each red one in words."""
        return {"position": self.position, "best": self.best,
                "actions": {v.action: v.quality.value for v in self.verdicts},
                "reasons": {v.action: reason_words(v.action, v.reason, v.quality)
                            for v in self.verdicts if v.reason is not None},
                "exact": self.exact, "depth": self.depth, "nodes": self.nodes,
                "budget": self.budget}


def tier(score: int) -> int:
    """+1 a win found, -1 a loss found, 0 otherwise (a draw, or a value short of a result)."""
    return 1 if score >= MATE_BOUND else -1 if score <= -MATE_BOUND else 0


def classify(score: int, value: int) -> Quality:
    """The class of an action scoring `score` where the best scores `value` (both for the
    side that acts), before any reason is asked for."""
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


def board_budget(rules: Rules) -> int:
    """The board's judgement of a game under `rules`, in search nodes."""
    return BOARD_BUDGETS.get(rules.game, BOARD_BUDGETS["morris"])


def budget_nodes(budget: int) -> int:
    """`budget` rounded up to a whole NODE_STEP (at least one)."""
    return max(1, -(-int(budget) // NODE_STEP)) * NODE_STEP


class Judge:
    """Judges positions with one search engine. Its table is cleared at every judgement (a
    table carried over would change scores, so verdicts would depend on what was judged
    before); keeping one Judge only saves making the engine. Not thread safe."""

    def __init__(self, searcher: Searcher | None = None) -> None:
        self.searcher = searcher or Searcher()

    def judge(self, game: Game, *, origin: str | None = None, budget: int | None = None,
              max_depth: int = MAX_DEPTH) -> Judgement:
        """Judge the actions of the side to act (only those of the pebble on `origin` when
        given: the destinations of a lifted pebble, as the whole position's judgement has
        them) with `budget` search nodes (the board's by default). The game is restored on
        return; GameOverError when it has ended."""
        began = time.perf_counter()
        actions = game.legal_actions()
        if not actions:
            raise game_over(game.outcome(), N_("the game is over ({outcome}); there is nothing "
                                               "to judge"))
        budget = budget_nodes(board_budget(game.rules) if budget is None else budget)
        self.searcher.clear()
        mover = game._side
        table = table_for(game.rules)
        if table is not None and table.result(game) is not None:
            scores = [self._exact(game, a, table, mover, 1) for a in actions]
            return self._judgement(game, actions, scores, True, 0, 0, budget, origin,
                                   time.perf_counter() - began)
        info = self.searcher.search(game, max_depth=max_depth + 1, all_root_scores=True,
                                    nodes=budget)
        if info.depth == 0 or not info.root_scores:  # not one ply in the budget: the evaluation
            evaluate = evaluator_for(game.rules)
            scores = [self._static(game, a, mover, evaluate) for a in actions]
            depth = 0
        else:
            by_text = {a.text: s for a, s in info.root_scores}
            scores = [by_text[a.text] for a in actions]
            depth = info.depth - 1
        return self._judgement(game, actions, scores, False, depth, info.nodes, budget, origin,
                               time.perf_counter() - began)

    # -- internals ------------------------------------------------------------------------
    def _judgement(self, game: Game, actions: list[Action], scores: list[int], exact: bool,
                   depth: int, nodes: int, budget: int, origin: str | None,
                   seconds: float) -> Judgement:
        value = max(scores)
        classes = [classify(s, value) for s in scores]
        reasons: list[Reason | None] = [None] * len(actions)
        mover = Side(game._side)
        if exact:
            reasons = [Reason(ReasonKind.LOST, mover.other, exact=True)
                       if c is Quality.LOSES else None for c in classes]
        else:
            for i, (a, c) in enumerate(zip(actions, classes)):
                if c in (Quality.DROPS, Quality.LOSES) and value <= -LOST_CAUSE:
                    c = Quality.WORSE  # a lost cause: the horizon cannot tell the moves apart
                if c in (Quality.DROPS, Quality.LOSES):
                    reason = self._reason(game, a, depth)
                    if c is Quality.DROPS and (reason is None or reason.turns > 1):
                        # Red only for what the opponent does next turn: the search's
                        # longer lines are where a deeper one most often disagrees.
                        c, reason = Quality.WORSE, None
                    reasons[i] = reason
                classes[i] = c
        verdicts = tuple(Verdict(a.text, a.origin_name, a.target_name, c, s, r)
                         for a, c, s, r in zip(actions, classes, scores, reasons)
                         if origin is None or a.origin_name == origin)
        best = max(verdicts, key=lambda v: v.score).action if verdicts else None
        return Judgement(game.position(), mover, value, best, verdicts, exact, depth, seconds,
                         nodes, budget)

    def _reason(self, game: Game, action: Action, depth: int) -> Reason | None:
        """What the search's line after `action` shows the opponent doing (its first gain),
        or else what it can do at once; None when nothing concrete is found."""
        line = self.searcher.line(game, action, depth + 2)
        found = _first_gain(game, line)
        if found is not None and found.turns <= 1:
            return found
        return _at_once(game, line) or found

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


def _own_mill(game: Game, action: Action) -> str | None:
    """The mover's closed mill that `action` takes a pebble out of (a move from it)."""
    if action.kind is not ActionKind.MOVE or not isinstance(game, MorrisGame):
        return None
    own = game.pieces(game.turn)
    for _, mill in game.board.mills_at[action.origin]:
        if own & mill == mill:
            return mill_name(game, mill)
    return None


def _first_gain(game: Game, line: tuple[Action, ...]) -> Reason | None:
    """Play `line` (the red action first) and find the opponent's first gain in it: a mill
    closed and the pebble it takes, a capture, or the game won."""
    mover = Side(game._side)
    broken = _own_mill(game, line[0]) if line else None
    pushed = 0
    turns = 0
    try:
        for i, a in enumerate(line):
            side = game._side
            if side != mover and a.kind is not ActionKind.REMOVE:
                turns += 1
            game.push(a)
            pushed += 1
            if side == mover:
                continue
            outcome = game.outcome()
            if outcome is not None:
                if outcome.winner != mover.other:
                    return None
                kind = (ReasonKind.BLOCKADE if outcome.reason is EndReason.BLOCKED
                        else ReasonKind.LOST)
                return Reason(kind, mover.other, a.text, a.target_name, turns=turns,
                              broken=broken)
            if a.kind is ActionKind.JUMP:
                return Reason(ReasonKind.CAPTURE, mover.other, a.text, a.target_name,
                              taken=", ".join(a.jumped_names), turns=turns, broken=broken)
            if a.kind is not ActionKind.REMOVE and game._side == side and game.pending_removals:
                mills = game.last_mills()
                taken = line[i + 1].target_name if i + 1 < len(line) else None
                return Reason(ReasonKind.MILL, mover.other, a.text, a.target_name,
                              mill_name(game, mills[0]) if mills else None, taken, turns,
                              broken)
        return None
    finally:
        for _ in range(pushed):
            game.pop()


def _at_once(game: Game, line: tuple[Action, ...]) -> Reason | None:
    """What the opponent can do on its next turn after `line[0]`: close a mill, or (with the
    line's reply) threaten two mills at once, of which the mover can stop only one (morris
    only; None otherwise)."""
    if not isinstance(game, MorrisGame) or not line:
        return None
    action = line[0]
    mover = Side(game._side)
    broken = _own_mill(game, action)
    game.push(action)
    try:
        if game._side == mover or game.outcome() is not None:
            return None
        closing = closing_actions(game)
        if closing:
            a, mills = closing[0]
            return Reason(ReasonKind.MILL, mover.other, a.text, a.target_name, mills[0],
                          broken=broken)
        reply = line[1] if len(line) > 1 else None
        if reply is None or reply.kind is ActionKind.REMOVE:
            return None
        game.push(reply)
        try:
            if game._side != mover or game.outcome() is not None:
                return None
            threats = sorted({m for _, ms in closing_actions(passed(game)) for m in ms})
        finally:
            game.pop()
        if len(threats) >= 2:
            return Reason(ReasonKind.DOUBLE, mover.other, reply.text, reply.target_name,
                          " and ".join(threats), broken=broken)
        return None
    finally:
        game.pop()


def judge(game: Game, *, origin: str | None = None, budget: int | None = None,
          max_depth: int = MAX_DEPTH) -> Judgement:
    """Judge the actions of the side to act (see Judge: the same verdicts from any Judge)."""
    return Judge().judge(game, origin=origin, budget=budget, max_depth=max_depth)


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
    """An action classed drops or loses, the better action and why, in words."""

    action: str
    quality: Quality
    better: str | None
    reason: str
    cause: Reason | None = None  #: what `reason` says, for saying it in another language


def blunder(game: Game, action: Action | str, judgement: Judgement | None = None, *,
            budget: int | None = None) -> Blunder | None:
    """Whether `action` (about to be played in `game`, which is left as it was) is a blunder;
    `judgement` is the position's (made if not given)."""
    text = action if isinstance(action, str) else action.text
    if judgement is None:
        judgement = judge(game, budget=budget)
    verdict = judgement.verdict(text)
    if verdict.quality not in (Quality.DROPS, Quality.LOSES):
        return None
    return Blunder(text, verdict.quality, judgement.best,
                   blunder_words(text, verdict.reason, verdict.quality, judgement.best),
                   verdict.reason)


def describe(judgement: Judgement, actions: Iterable[str] | None = None,
             tr: Translator = ENGLISH) -> list[str]:
    """`a1-a4 keeps` lines, best first marked, as `navakankari hint` prints them; a red
    action's reason follows on its line, in `tr`'s language."""
    wanted = set(actions) if actions is not None else None
    lines = []
    for v in judgement.verdicts:
        if wanted is None or v.action in wanted:
            mark = "  (best)" if v.action == judgement.best else ""
            why = (f"  - {reason_words(v.action, v.reason, v.quality, tr)}"
                   if v.reason is not None else "")
            lines.append(f"{v.action} {v.quality}{mark}{why}")
    return lines
