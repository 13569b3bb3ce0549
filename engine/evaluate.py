"""Static evaluation: how good a position looks for the side to move, in centi-pebbles.

One evaluator per game family, built once per rule set with its board's masks precomputed,
because the search calls it at every leaf. Scores are from the point of view of the side to
move (negamax); a pebble is worth `PIECE`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from .boards import BOARDS
from .core_tables import LOST as LOST
from .core_tables import PIECE as PIECE
from .game import Game
from .morris import MorrisGame
from .rules import Flying, Rules

log = logging.getLogger(__name__)


Evaluator = Callable[[Game], int]


@dataclass(frozen=True)
class MorrisWeights:
    """The morris evaluation's weights (centi-pebbles), by phase.

    Mobility (steps to empty neighbours, counted already while placing) is worth a fifth
    of a pebble a step, blocked pebbles as much again: with a tenth of that, our player
    built immobile placement structures and lost nearly every game against Sanmill by
    blockade early in the moving phase (2.5 % of the points at 0.2 s a move); with these
    weights it scored 37.5 % (16 games), and with 30 a step less (2.5 of 11).
    """

    place_mill: int = 12
    place_two: int = 18
    place_mobility: int = 20
    place_blocked: int = 20
    move_mill: int = 30
    move_two: int = 10
    move_mobility: int = 20
    move_blocked: int = 20
    #: Two or more mill threats of the opponent (or one the side to move cannot reach).
    threats: int = 80
    #: A runnable mill, moving phase: a mill whose pebble can step out and back in again and
    #: take each time, because no opposing pebble stands beside (or flies to) the point it
    #: leaves: closed with such a pebble, or open with its pebble beside the empty point. A
    #: search of three plies sees the step out and the reply, not the capture, and let a
    #: person run one mill again and again. Counted open as well as closed, so stepping out
    #: does not look like the threat going away (counted closed only, it made level 3 let
    #: the runner run more: `navakankari bench runner`, engine/README.md).
    runnable_own: int = 60
    runnable_opp: int = 60


class MorrisEvaluator:
    """Pieces in hand and on board, mills, potential mills (two own + empty), who can close
    a mill next, mobility and blocked pebbles; the weights change with the phase."""

    def __init__(self, rules: Rules, weights: MorrisWeights = MorrisWeights()) -> None:
        board = BOARDS[rules.board]
        self.rules = rules
        self.w = weights
        self.mills = board.mill_masks
        self.mill_points = tuple(tuple(board.bits(m)) for m in board.mill_masks)
        self.adj = board.adjacency
        self.full = board.full
        self.bits = board.bits
        self.lose_below = rules.lose_below
        self.flying = rules.flying is not Flying.NONE
        self.blocked_loses = rules.blocked_loses
        # The board's edges grouped by how far apart (in bits) their two points are: for
        # each distance d, the points with a neighbour d bits up (and down).
        up: dict[int, int] = {}
        down: dict[int, int] = {}
        for p, neighbours in enumerate(self.adj):
            for q in board.bits(neighbours):
                if q > p:
                    up[q - p] = up.get(q - p, 0) | 1 << p
                else:
                    down[p - q] = down.get(p - q, 0) | 1 << p
        self.up = tuple(sorted(up.items()))
        self.down = tuple(sorted(down.items()))
        # The edge classes side by side in one int, a lane of `width` bits each, the
        # class's points at `offset` in its lane: the empty points times `_spread` shifts a
        # copy into every lane at once (the copies never overlap, so nothing carries), and
        # `_lanes` keeps in each the points with an empty neighbour that way. A side's
        # pebbles times `_repeat` stand in every lane, so one count covers all the classes.
        reach = max(d for d, _ in (*self.up, *self.down))
        width, offset = board.size + 2 * reach, reach
        self._width = width
        self._spread = self._lanes = self._repeat = 0
        for k, (d, m) in enumerate((*((-d, m) for d, m in self.up), *self.down)):
            at = width * k + offset
            self._spread |= 1 << (at + d)
            self._lanes |= m << at
            self._repeat |= 1 << at
        self._offset = offset
        self._folds = tuple(width << i for i in reversed(range(
            (len(self.up) + len(self.down) - 1).bit_length())))

    def __call__(self, game: Game) -> int:
        # The morris game's own fields: this runs at every leaf.
        game = cast(MorrisGame, game)  # typed, so that the compiled build reads fields directly
        s = game._side
        o = s ^ 1
        own, opp = game._bb[s], game._bb[o]
        hs, ho = game._hand[s], game._hand[o]
        ns, no = own.bit_count(), opp.bit_count()
        if ns + hs < self.lose_below:
            return -LOST
        if no + ho < self.lose_below:
            return LOST
        pending = game._pending
        score = PIECE * (ns + hs - no - ho) + 90 * pending
        empty = self.full & ~(own | opp)
        placing = bool(hs or ho)
        fly_s = fly_o = False
        if self.flying and not placing:
            fly_s = game._flies(s)
            fly_o = game._flies(o)
        adj = self.adj
        own_mills = opp_mills = 0
        own_two = opp_two = 0  # potential mills: two pebbles and an empty third point
        own_close = 0  # completion points the side to move can fill next action
        opp_close = 0  # completion points the opponent could fill if it were to move
        for m in self.mills:
            a = own & m
            b = opp & m
            if not b:
                if a == m:
                    own_mills += 1
                elif a and a & (a - 1):  # two own pebbles, the third point empty
                    own_two += 1
                    c = m & empty
                    if hs or fly_s or adj[c.bit_length() - 1] & own & ~m:
                        own_close |= c
            elif not a:
                if b == m:
                    opp_mills += 1
                elif b & (b - 1):
                    opp_two += 1
                    c = m & empty
                    if ho or fly_o or adj[c.bit_length() - 1] & opp & ~m:
                        opp_close |= c
        if pending:
            # The side is about to take: the closing move has happened, only a pebble counts.
            return score + 10 * (own_mills - opp_mills)
        w = self.w
        if placing:
            score += w.place_mill * (own_mills - opp_mills) + w.place_two * (own_two - opp_two)
        else:
            score += w.move_mill * (own_mills - opp_mills) + w.move_two * (own_two - opp_two)
            if (own_mills or own_two) and not fly_o:
                score += w.runnable_own * self._runnable(own, opp, empty, fly_s)
            if (opp_mills or opp_two) and not fly_s:
                score -= w.runnable_opp * self._runnable(opp, own, empty, fly_o)
        # The side to move closes a mill next action; the opponent's threats can be blocked
        # one at a time, so two or more of them are nearly as bad as a lost pebble. So is
        # one the side to move cannot reach (no pebble in hand or beside the point, no
        # flying) with no mill of its own to close first: scored as a mere tempo, such a
        # threat made on the last ply of an even-depth search went unseen, while the odd
        # depths saw it closed, and each even depth played barely better than the odd one
        # below it.
        if own_close:
            score += 70
        n_opp = opp_close.bit_count()
        if (n_opp == 1 and not own_close and not (hs or fly_s)
                and not adj[opp_close.bit_length() - 1] & own):
            n_opp = 2  # unstoppable: as bad as two threats
        if n_opp >= 2:
            score -= w.threats + 10 * n_opp
        elif n_opp:
            score -= 15
        # Mobility: steps to empty neighbours; pebbles with none are blocked. Each edge
        # class (neighbours a fixed number of bits apart) is one shift of the empty points
        # onto the points beside them, then a count for each side.
        blk_s = blk_o = 0
        lanes = empty * self._spread & self._lanes
        repeat = self._repeat
        mob_s = (lanes & own * repeat).bit_count()
        mob_o = (lanes & opp * repeat).bit_count()
        for shift in self._folds:  # every lane ORed into the first
            lanes |= lanes >> shift
        free = lanes >> self._offset & self.full  # points with an empty neighbour
        if fly_s:
            mob_s = 0
        else:
            blk_s = (own & ~free).bit_count()
        if fly_o:
            mob_o = 0
        else:
            blk_o = (opp & ~free).bit_count()
        if placing:
            score += w.place_mobility * (mob_s - mob_o) - w.place_blocked * (blk_s - blk_o)
        else:
            if not fly_s and mob_s == 0 and self.blocked_loses:
                return -LOST
            score += w.move_mobility * (mob_s - mob_o) - w.move_blocked * (blk_s - blk_o)
            if not fly_o and mob_o == 0 and self.blocked_loses:
                score += 300  # the opponent is shut in: likely a win unless it opens up
        return score

    def _runnable(self, mine: int, theirs: int, empty: int, flies: bool) -> int:
        """Runnable mills of `mine` (MorrisWeights.runnable_own): closed with a pebble that
        can leave (a step to an empty neighbour, or a flight), or two pebbles and an empty
        point a pebble of `mine` beside it (or flying) can fill, with no pebble of `theirs`
        beside the point left or to fill."""
        adj = self.adj
        n = 0
        for m, points in zip(self.mills, self.mill_points):
            a = mine & m
            if a == m:
                for p in points:
                    if (flies or adj[p] & empty) and not adj[p] & theirs:
                        n += 1
                        break
            elif a & (a - 1) and not theirs & m:
                p = (m & empty).bit_length() - 1
                if (flies or adj[p] & mine & ~m) and not adj[p] & theirs:
                    n += 1
        return n


class JumpEvaluator:
    """Nau Keti Keta: material, pebbles that can be jumped (threats), mobility, and a pull
    towards the apex lines where most jumps happen."""

    def __init__(self, rules: Rules) -> None:
        board = BOARDS[rules.board]
        self.rules = rules
        self.adj = board.adjacency
        self.full = board.full
        self.bits = board.bits
        # For each point p: the (from, to) pairs of a jump over p.
        over: list[list[tuple[int, int]]] = [[] for _ in board.points]
        for a, pairs in enumerate(board.jumps):
            for b, c in pairs:
                over[b].append((a, c))
        self.over = tuple(tuple(x) for x in over)
        self.degree = tuple(m.bit_count() for m in board.adjacency)

    def _threatened(self, mine: int, theirs: int, empty: int) -> int:
        """How many of `mine` could be jumped by `theirs` at once."""
        n = 0
        for p in self.bits(mine):
            for a, c in self.over[p]:
                if theirs >> a & 1 and empty >> c & 1:
                    n += 1
                    break
        return n

    def __call__(self, game: Game) -> int:
        s = int(game.turn)
        o = s ^ 1
        own, opp = game.pieces(s), game.pieces(o)
        ns, no = own.bit_count(), opp.bit_count()
        if ns == 0:
            return -LOST
        if no == 0:
            return LOST
        empty = self.full & ~(own | opp)
        score = PIECE * (ns - no)
        # The side to move can move one threatened pebble away; the opponent cannot.
        ts = self._threatened(own, opp, empty)
        to = self._threatened(opp, own, empty)
        if ts:
            score -= 25 + 60 * (ts - 1)
        score += 40 * to
        adj, degree = self.adj, self.degree
        mob_s = mob_o = cen_s = cen_o = 0
        for p in self.bits(own):
            mob_s += (adj[p] & empty).bit_count()
            cen_s += degree[p]
        for p in self.bits(opp):
            mob_o += (adj[p] & empty).bit_count()
            cen_o += degree[p]
        if mob_s == 0 and not to and self.rules.blocked_loses:
            return -LOST
        return score + 4 * (mob_s - mob_o) + 2 * (cen_s - cen_o)


@lru_cache(maxsize=None)
def evaluator_for(rules: Rules) -> Evaluator:
    """The evaluator of a rule set's family (cached: it holds precomputed board tables)."""
    if rules.game == "jump":
        return JumpEvaluator(rules)
    return MorrisEvaluator(rules)


def evaluate(game: Game) -> int:
    """The static score of `game` for the side to move."""
    return evaluator_for(game.rules)(game)
