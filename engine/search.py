"""Iterative-deepening alpha-beta (negamax) over the engine's legal actions.

Scores are from the point of view of the side to move. A removal (or a huff) is an action
of the same player as the move before it, so the sign flips, and the depth counts down,
only where the side to move changes: a move and its removals are one ply. The search stops
at a time budget (an injected clock, read every `check_every` nodes), at a node limit (the
same on every machine: what the teaching judge counts its work in) or when a stop event is
set, and then answers with the best action of the deepest finished iteration. Three against
three (and three against four) under rules the endgame databases hold for (endgame.py) is
looked up, not searched: such a node scores exactly, WIN minus the actions to the end, and is
kept out of the table.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Protocol

from .actions import Action, ActionKind
from .core import CoreSearch, core_for
from .core_tables import EXACT as EXACT
from .core_tables import INF as INF
from .core_tables import LOWER as LOWER
from .core_tables import MATE_BOUND as MATE_BOUND
from .core_tables import UPPER as UPPER
from .core_tables import WIN as WIN
from .endgame import EndgameTable, table_for
from .evaluate import LOST, Evaluator, evaluator_for
from .game import Game, Outcome
from .outcome import game_over
from .rules import Rules

log = logging.getLogger(__name__)

REMOVE: Final = ActionKind.REMOVE
JUMP: Final = ActionKind.JUMP
PLACE: Final = ActionKind.PLACE

Clock = Callable[[], float]


class StopFlag(Protocol):
    """What the search polls to know it must stop: a threading.Event, or anything alike."""

    def is_set(self) -> bool: ...


class _Stopped(Exception):
    """Raised inside the search when time is up or a stop was requested."""


@dataclass(frozen=True)
class SearchInfo:
    """What a search found: the action, its score for the side to move (centi-pebbles; a
    win in n plies is WIN - n), the deepest finished iteration, nodes visited and seconds."""

    action: Action
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: tuple[Action, ...] = ()
    stopped: bool = False  #: ended by the budget or a stop request, not by the depth limit
    root_scores: tuple[tuple[Action, int], ...] = field(default=(), repr=False)

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        return (f"{self.action} score {format_score(self.score)} depth {self.depth} "
                f"nodes {self.nodes} time {self.seconds:.3f}s")


def endgame_score(result: int, ply: int) -> int:
    """A database result (0 a draw, d > 0 a win in d actions, -d a loss in d) as a score
    `ply` plies from the root."""
    if not result:
        return 0
    return WIN - ply - result if result > 0 else -(WIN - ply + result)


def format_score(score: int) -> str:
    if score >= MATE_BOUND:
        return f"win in {WIN - score}"
    if score <= -MATE_BOUND:
        return f"loss in {WIN + score}"
    return f"{score:+d}"


def worth_starting(elapsed: float, budget: float, last: float, prev: float,
                   deadline: float = 0.95, share: float = 0.2) -> bool:
    """Whether to start the next iteration: only if it can finish its first root action
    (at least `share` of it, the previous best being searched first) before `deadline`
    of the budget: an unfinished iteration still answers with a better action it found. Its
    cost is predicted as the last iteration's times the last growth factor
    (4 until two iterations are timed; at least 1.5, at most 8)."""
    growth = last / prev if prev > 0 else 4.0
    growth = min(max(growth, 1.5), 8.0)
    return elapsed + last * growth * share < budget * deadline


class Searcher:
    """One search engine with its transposition table, killers and history.

    Keep one per player: the table carries over from one action to the next. It is not
    thread safe; run one search at a time.
    """

    def __init__(self, evaluator: Evaluator | None = None, *, tt_limit: int = 300_000,
                 check_every: int = 128, quiescence_plies: int = 8,
                 morris_quiescence: bool = False, endgame: bool = True,
                 native: bool = True) -> None:
        self._evaluator = evaluator
        #: Search in the C core (core.py) where it is built and serves the rules; it plays
        #: as this module does, only faster. False keeps every search in Python.
        self.native = native
        self._cores: dict[Rules, CoreSearch] = {}
        self._core: CoreSearch | None = None
        #: Look three against three up in the endgame database where the rules allow it.
        self.endgame = endgame
        self._tablebase: EndgameTable | None = None
        # key -> (depth, flag, score, best action's text): no object references, so the
        # collector can untrack the entries and a full collection stays short.
        self.tt: dict[int, tuple[int, int, int, str | None]] = {}
        self.tt_limit = tt_limit
        self._leaf_scores: dict[int, int] = {}  # key -> static score (same limit as the table)
        if check_every < 1 or check_every & (check_every - 1):
            raise ValueError("check_every must be a power of two")
        self.check_mask = check_every - 1
        self.quiescence_plies = quiescence_plies
        self.morris_quiescence = morris_quiescence
        self.history: dict[str, int] = {}
        self.killers: list[list[Action | None]] = []
        self.nodes = 0
        self._deadline = INF * 1.0
        self._clock: Clock = time.monotonic
        self._stop: StopFlag | None = None
        self._node_limit = 0  # 0: none
        self._eval: Evaluator = evaluator or (lambda g: 0)
        self._mills_at: tuple[tuple[tuple[int, int], ...], ...] = ()
        self._rests_at: tuple[tuple[int, ...], ...] = ()
        self._jump = False
        self._partial: tuple[Action, int] | None = None
        self._tactical = 0  # how many actions the last _order put before the quiet ones
        #: The deadline, as a share of the budget.
        self.deadline_fraction = 0.95
        #: The share of the next iteration's predicted cost that must fit before the deadline.
        self.start_share = 0.2
        #: Late-move reductions: quiet actions after this many are first searched a ply
        #: shallower (0 turns them off).
        self.lmr_after = 3
        self.lmr_min_depth = 3

    def clear(self) -> None:
        """Forget the transposition table and move-ordering statistics (a new game)."""
        self.tt.clear()
        self._leaf_scores.clear()
        self.history.clear()
        for core in self._cores.values():
            core.clear()

    # -- the public entry point -----------------------------------------------------------
    def search(self, game: Game, *, max_depth: int = 64, budget: float | None = None,
               clock: Clock = time.monotonic, stop: StopFlag | None = None,
               all_root_scores: bool = False, nodes: int | None = None) -> SearchInfo:
        """Search `game` (restored on return) to `max_depth` plies or until the budget runs
        out. With `all_root_scores`, every root action gets an exact score (no pruning at
        the root; for the lower levels that choose among near-best actions). With `nodes`,
        the search also stops at the first look at the stop flag (every `check_every` nodes
        here, every core.CHECK_EVERY in the core) once it has visited that many: a limit
        that is a multiple of both stops the Python search and the core at the same node."""
        actions = game.legal_actions()
        if not actions:
            raise game_over(game.outcome())
        evaluator = self._evaluator or evaluator_for(game.rules)
        if evaluator is not self._eval:
            self._leaf_scores.clear()  # scored by another rule set's evaluator
        self._eval = evaluator
        core = self._core = self._core_for(game)
        self._jump = game.rules.game == "jump"
        self._tablebase = table_for(game.rules) if self.endgame else None
        board = game.board
        self._mills_at = board.mills_at
        self._rests_at = board.mill_rests_at
        self._clock = clock
        self._stop = stop
        self._node_limit = nodes or 0
        start = clock()
        # Stop just short of the budget: the last node batch, unwinding and the answer's
        # bookkeeping must fit in the rest.
        self._deadline = (start + budget * self.deadline_fraction if budget is not None
                          else float("inf"))
        self.nodes = 0
        if core is not None:
            core.begin(game)
            best = core.first()
        else:
            if len(self.tt) > self.tt_limit:
                self.tt.clear()
            if len(self._leaf_scores) > self.tt_limit:
                self._leaf_scores.clear()
            for k in self.history:
                self.history[k] >>= 2
            self.killers = [[None, None] for _ in range(128)]
            best = self._order(game, actions, None, 0)[0]
        base = len(game.history)
        best_score = 0
        depth_done = 0
        root_scores: tuple[tuple[Action, int], ...] = ()
        stopped = False
        if len(actions) == 1 and not all_root_scores:
            max_depth = min(max_depth, 1)
        if self._tablebase is not None and self._tablebase.result(game) is not None:
            # Every action leads to a position the database knows (or to a removal that
            # ends the game): one ply scores them all exactly.
            max_depth = min(max_depth, 1)
        last_cost = prev_cost = 0.0
        self._partial = None
        try:
            for depth in range(1, max_depth + 1):
                elapsed = clock() - start
                if depth > 1 and budget is not None and not worth_starting(
                        elapsed, budget, last_cost, prev_cost, self.deadline_fraction,
                        self.start_share):
                    stopped = True
                    break
                began = elapsed
                if core is not None:
                    score, action, scores = self._core_root(core, depth, all_root_scores)
                else:
                    self._check()
                    self._partial = None
                    score, action, scores = self._root(game, actions, depth, all_root_scores)
                best, best_score, depth_done = action, score, depth
                root_scores = scores
                prev_cost, last_cost = last_cost, clock() - start - began
                if abs(score) >= MATE_BOUND and WIN - abs(score) <= depth and not all_root_scores:
                    break  # a forced result within the horizon: deeper will not change it
        except _Stopped:
            stopped = True
            while len(game.history) > base:
                game.pop()
            partial = self._partial_answer()
            if partial is not None and not all_root_scores:
                # The unfinished iteration searched the previous best first, so any action
                # that beat it there is better at the greater depth.
                best, best_score = partial
        if core is not None:
            self.nodes = core.nodes
        seconds = clock() - start
        info = SearchInfo(best, best_score, depth_done, self.nodes, seconds,
                          self._pv(game, best, depth_done), stopped, root_scores)
        log.debug("search %s", info.describe())
        return info

    # -- internals ------------------------------------------------------------------------
    def _core_for(self, game: Game) -> CoreSearch | None:
        """The C core's context for `game`'s rules, where it serves this search: built, the
        rules fit, the standard evaluation, no morris quiescence."""
        if not self.native or self._evaluator is not None or self.morris_quiescence:
            return None
        core = self._cores.get(game.rules)
        if core is None:
            core = core_for(game, self.endgame)
            if core is None:
                return None
            self._cores[game.rules] = core
        return core

    def _core_root(self, core: CoreSearch, depth: int, all_scores: bool
                   ) -> tuple[int, Action, tuple[tuple[Action, int], ...]]:
        """One iteration in the core; a stop raises _Stopped with the partial answer kept,
        as _root does."""
        result = core.root(depth, all_scores, self.lmr_after, self.lmr_min_depth, self._poll)
        self.nodes = core.nodes
        if result is None:
            self._partial = core.partial()
            raise _Stopped
        return result

    def _poll(self) -> int:
        """Whether the search must stop (asked, or out of time): 1 to stop, for the core."""
        stop = self._stop
        if stop is not None and stop.is_set():
            return 1
        limit = self._node_limit
        if limit:
            core = self._core
            if (core.nodes if core is not None else self.nodes) >= limit:
                return 1
        return 1 if self._clock() >= self._deadline else 0

    def _table_move(self, key: int) -> str | None:
        core = self._core
        if core is not None:
            return core.table_move(key)
        entry = self.tt.get(key)
        return entry[3] if entry else None

    def _partial_answer(self) -> tuple[Action, int] | None:
        # Read through a method: search() sets the attribute to None before its loop, and
        # the compiled build would take a read in the same function to be None as well.
        return self._partial

    def _check(self) -> None:
        if self._poll():
            raise _Stopped

    def _root(self, game: Game, actions: list[Action], depth: int,
              all_scores: bool) -> tuple[int, Action, tuple[tuple[Action, int], ...]]:
        entry = self.tt.get(game.key)
        ordered = self._order(game, actions, entry[3] if entry else None, 0)
        turn = game.turn
        alpha, beta = -INF, INF
        best_score, best = -INF, ordered[0]
        scores: list[tuple[Action, int]] = []
        first = True
        for a in ordered:
            game.push(a)
            if all_scores:
                score = self._child(game, turn, depth, -INF, beta, 1)
            elif first:
                score = self._child(game, turn, depth, alpha, beta, 1)
            else:
                score = self._child(game, turn, depth, alpha, alpha + 1, 1)
                if score > alpha:
                    score = self._child(game, turn, depth, alpha, beta, 1)
            game.pop()
            first = False
            if all_scores:
                scores.append((a, score))
            if score > best_score:
                best_score, best = score, a
                if score > alpha:
                    alpha = score
            if not all_scores:
                self._partial = (best, best_score)
        self._store(game.key, depth, EXACT, best_score, best, 0)
        return best_score, best, tuple(scores)

    def _negamax(self, game: Game, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & self.check_mask:
            self._check()
        # The table's keys carry no history: a position it scored earlier may now be a
        # repetition (or past the quiet-move limit), so the rules are asked first.
        done = game._terminal_by_count()  # ended_by_rule, one call less
        if done is not None:
            return self._outcome_score(done, game, ply)
        tb = self._tablebase
        # The first half of result()'s own test, written out so that the nodes that are not
        # three against three or four (nearly all) make no call; result() checks the rest.
        if tb is not None:
            n0 = game._bb[0].bit_count()
            n1 = game._bb[1].bit_count()
            if (n0 + n1 <= 7 and n0 >= 3 and n1 >= 3 and not game.in_hand(0)
                    and not game.in_hand(1)):
                r = tb.result(game)
                if r is not None:  # exact, so searched no deeper and kept out of the table
                    return endgame_score(r, ply)
        key = game._key
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            edepth, flag, escore, tt_move = entry
            if edepth >= depth:
                score = escore
                if score >= MATE_BOUND:
                    score -= ply
                elif score <= -MATE_BOUND:
                    score += ply
                if flag == EXACT:
                    return score
                if flag == LOWER:
                    if score >= beta:
                        return score
                elif score <= alpha:
                    return score
        if depth <= 0:
            if self._jump:
                return self._quiesce(game, alpha, beta, ply, self.quiescence_plies)
            if self.morris_quiescence and not (game.in_hand(0) or game.in_hand(1)):
                return self._quiesce_morris(game, alpha, beta, ply, self.quiescence_plies)
            # Iterative deepening meets the same leaves again: score each once. The key
            # covers all the static score reads (pebbles, side, hands, pending removals).
            cache = self._leaf_scores
            cached = cache.get(key)
            if cached is None:
                cached = cache[key] = self._eval(game)
            return cached
        # The count, repetition and quiet-move endings were asked above: generate at once.
        actions = game._generate()
        if not actions:
            return self._terminal(game, ply)
        turn = game._side  # the plain int: the hot path makes no Side per node
        alpha0 = alpha
        best_score, best = -INF, None
        push, pop = game.push, game.pop
        ordered = self._order(game, actions, tt_move, ply)
        # Quiet actions (no mill, removal, block or killer) sit at the end of the order.
        quiet_from = max(self._tactical, self.lmr_after) if self.lmr_after else len(ordered)
        reduce = depth >= self.lmr_min_depth
        negamax = self._negamax
        ply1 = ply + 1
        for i, a in enumerate(ordered):
            push(a)
            # As in _child: a removal keeps the turn and the depth.
            same = game._side == turn
            if i == 0:
                if same:
                    score = negamax(game, depth, alpha, beta, ply1)
                else:
                    score = -negamax(game, depth - 1, -beta, -alpha, ply1)
            else:
                # Principal variation search: prove the rest worse with a null window,
                # late quiet actions first a ply shallower; search again where one is not.
                if reduce and i >= quiet_from and not same:
                    score = -negamax(game, depth - 2, -alpha - 1, -alpha, ply1)
                else:
                    score = alpha + 1
                if score > alpha:
                    if same:
                        score = negamax(game, depth, alpha, alpha + 1, ply1)
                    else:
                        score = -negamax(game, depth - 1, -alpha - 1, -alpha, ply1)
                    if alpha < score < beta:
                        if same:
                            score = negamax(game, depth, alpha, beta, ply1)
                        else:
                            score = -negamax(game, depth - 1, -beta, -alpha, ply1)
            pop()
            if score > best_score:
                best_score, best = score, a
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._reward(a, depth, ply)
                        break
        if best_score <= alpha0:
            flag = UPPER
        elif best_score >= beta:
            flag = LOWER
        else:
            flag = EXACT
        self._store(key, depth, flag, best_score, best, ply)
        return best_score

    def _child(self, game: Game, turn: int, depth: int, alpha: int, beta: int,
               ply: int) -> int:
        """The score, for `turn`, of the position just pushed: a removal keeps the turn
        and the depth, a change of side negates and counts a ply."""
        if game._side == turn:
            return self._negamax(game, depth, alpha, beta, ply)
        return -self._negamax(game, depth - 1, -beta, -alpha, ply)

    def _quiesce(self, game: Game, alpha: int, beta: int, ply: int, left: int) -> int:
        """Nau Keti Keta leaves: play out pending captures (compulsory, so no stand-pat
        while one is on) before trusting the static score."""
        self.nodes += 1
        if not self.nodes & self.check_mask:
            self._check()
        actions = game.legal_actions()
        if not actions:
            return self._terminal(game, ply)
        captures = [a for a in actions if a.kind == JUMP]
        if not captures or left <= 0:
            return self._eval(game)
        compulsory = game.rules.capture_compulsory
        if compulsory:
            best = -INF
        else:
            best = self._eval(game)
            if best >= beta:
                return best
            alpha = max(alpha, best)
        captures.sort(key=lambda a: -len(a.jumped))
        return self._quiesce_children(game, captures, alpha, beta, ply, left, best,
                                      self._quiesce)

    def _quiesce_morris(self, game: Game, alpha: int, beta: int, ply: int, left: int) -> int:
        """Morris leaves in the moving phase (option `morris_quiescence`): a side that can
        close a mill may do so (or stand pat), and its removal is played out. Off by
        default: in self-play at 0.2 s a move it gained nothing measurable (the static
        score already weighs who can close a mill next)."""
        self.nodes += 1
        if not self.nodes & self.check_mask:
            self._check()
        pending = game.pending_removals
        if pending:
            actions = game.legal_actions()
            if not actions:
                return self._terminal(game, ply)
            best = -INF
            candidates = self._order(game, actions, None, len(self.killers))
        else:
            best = self._eval(game)
            if best >= beta or left <= 0 or best <= -LOST or best >= LOST:
                return best
            if best > alpha:
                alpha = best
            actions = game.legal_actions()
            if not actions:
                return self._terminal(game, ply)
            own = game.pieces(game.turn)
            mills_at = self._mills_at
            candidates = []
            for a in actions:
                after = (own & ~a.empties) | a.fills
                for _, m in mills_at[a.target]:
                    if after & m == m:
                        candidates.append(a)
                        break
            if not candidates:
                return best
        return self._quiesce_children(game, candidates, alpha, beta, ply, left, best,
                                      self._quiesce_morris)

    @staticmethod
    def _quiesce_children(game: Game, actions: list[Action], alpha: int, beta: int, ply: int,
                          left: int, best: int, quiesce: Callable[..., int]) -> int:
        """Play out `actions` at a leaf; a removal keeps the turn, so only a change of side
        negates the score."""
        turn = game.turn
        for a in actions:
            game.push(a)
            if game.turn == turn:
                score = quiesce(game, alpha, beta, ply + 1, left - 1)
            else:
                score = -quiesce(game, -beta, -alpha, ply + 1, left - 1)
            game.pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def _terminal(self, game: Game, ply: int) -> int:
        outcome = game.outcome()
        if outcome is None:
            return 0
        return self._outcome_score(outcome, game, ply)

    @staticmethod
    def _outcome_score(outcome: Outcome, game: Game, ply: int) -> int:
        if outcome.winner is None:
            return 0
        return WIN - ply if outcome.winner == game.turn else -(WIN - ply)

    def _store(self, key: int, depth: int, flag: int, score: int, action: Action | None,
               ply: int) -> None:
        if score >= MATE_BOUND:
            score += ply
        elif score <= -MATE_BOUND:
            score -= ply
        self.tt[key] = (depth, flag, score, action.text if action is not None else None)

    def _reward(self, action: Action, depth: int, ply: int) -> None:
        if action.kind == REMOVE or action.kind == JUMP:
            return
        h = self.history
        h[action.text] = h.get(action.text, 0) + depth * depth
        if ply < len(self.killers):
            k = self.killers[ply]
            if k[0] is not action:
                k[1] = k[0]
                k[0] = action

    def _order(self, game: Game, actions: list[Action], tt_text: str | None,
               ply: int) -> list[Action]:
        """TT move first, then mill-closing moves, captures and removals, blocks of the
        opponent's mills, killers, and the rest by history."""
        if len(actions) < 2:
            self._tactical = len(actions)
            return actions
        hist = self.history
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        k0, k1 = killers
        # One int a key: the score above 10 bits of (1023 - index), so a descending sort
        # orders by score, then by generation order, as (score, -index) pairs would.
        if len(actions) > 1024:
            raise ValueError("more than 1024 actions to order")
        keys: list[int] = []
        if self._jump:
            for i, a in enumerate(actions):
                if a.text == tt_text:
                    v = 1 << 40
                elif a.kind == JUMP:
                    v = (1 << 30) + len(a.jumped)
                elif a.kind == REMOVE:
                    v = 1 << 31
                elif a is k0 or a is k1:
                    v = 1 << 29
                else:
                    v = hist.get(a.text, 0)
                keys.append(v << 10 | (1023 - i))
        else:
            s = game._side
            own = game.pieces(s)
            opp = game.pieces(s ^ 1)
            mills_at = self._mills_at
            rests_at = self._rests_at
            hget = hist.get
            append = keys.append
            n = 1023  # 1023 - the action's index
            if actions[0].kind is REMOVE:  # a removal is due: every action is one
                for a in actions:
                    # Take pebbles that stand in the opponent's potential mills first.
                    v = 1 << 32
                    for _, m in mills_at[a.target]:
                        x = opp & m  # mills are three points: x & (x - 1) means two or more
                        if x == m:
                            v -= 1
                        elif x & (x - 1) and not own & m:
                            v += 4
                    append(v << 10 | n)
                    n -= 1
            else:
                for a in actions:
                    # The target is empty: the action closes a mill when the mover holds
                    # its other two points (the origin left), and blocks one when the
                    # opponent holds them.
                    stay = own & ~a.empties
                    v = 0
                    for r in rests_at[a.target]:
                        if stay & r == r:
                            v = 1 << 31
                            break
                        if opp & r == r:
                            v = 1 << 30
                    if not v:
                        if a is k0 or a is k1:
                            v = 1 << 29
                        else:
                            v = hget(a.text, 0)
                    append(v << 10 | n)
                    n -= 1
            if tt_text is not None:  # the table's action first
                for i, a in enumerate(actions):
                    if a.text == tt_text:
                        keys[i] = 1 << 50 | (1023 - i)
                        break
        keys.sort(reverse=True)
        tactical = 0
        for k in keys:
            if k < 1 << 39:  # a score below 1 << 29: the quiet actions
                break
            tactical += 1
        self._tactical = tactical
        return [actions[1023 - (k & 1023)] for k in keys]

    def line(self, game: Game, first: Action, depth: int) -> tuple[Action, ...]:
        """`first` and the actions the table holds as best after it, up to `depth` plies:
        after a search of `game` with every root score, each root action's expected line."""
        return self._pv(game, first, depth)

    def _pv(self, game: Game, first: Action, depth: int) -> tuple[Action, ...]:
        """The principal variation, read from the table (stops at a missing or stale move)."""
        line = [first]
        pushed = 0
        try:
            game.push(first)
            pushed = 1
            seen = {game.key}
            for _ in range(max(0, depth * 2)):
                text = self._table_move(game.key)
                if text is None:
                    break
                action = next((a for a in game.legal_actions() if a.text == text), None)
                if action is None:
                    break
                line.append(action)
                game.push(action)
                pushed += 1
                if game.key in seen:
                    break
                seen.add(game.key)
        finally:
            for _ in range(pushed):
                game.pop()
        return tuple(line)
