"""Retrograde analysis of three against four pebbles on the morris board (nine men's morris
rules: the side with three flies, the side with four steps along the lines).

Two classes of positions, seen from the side to move: P34 (the mover has three and flies, the
opponent four) and P43 (the mover has four and steps, the opponent three). A P34 move that
does not close a mill leads to a P43 position and back; one that closes a mill takes one of
the four and leads into the three-against-three database (endgame.py), the remover choosing
the removal best for it. A P43 move that closes a mill takes one of the three and wins; a P43
side that cannot move has lost (a blockade).

The solver keeps each class as rows of bits: P34 rows over the mover's three-point set, each
row an int over the opponent's four-point sets; P43 rows over the four-point sets, each an int
over the three-point sets. A successor of (A, B) is (B, A'), so the transposition of one
class's rows (in square blocks of 2048 x 2048 bits, as endgame_solve.py does) gives, for each
A', its row over B, and a position's verdict at a level is an OR (some successor lost at the
level before) or an AND (every successor a known win) over the rows of its successors' sets.
Distances count actions to the end, a move and its removal two; a blockade ends with the
winner's move, so a win may take an odd number of actions, and the result is kept apart from
the distance: one byte a position, 0 a draw, d a win in d, 128 + d a loss in d.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce
from itertools import combinations
from operator import and_, or_
from pathlib import Path

from .boards import BOARDS
from .endgame import EndgameTable, encode34, shared
from .endgame_solve import ROW_BYTES, N, _transpose, _transpose_masks

log = logging.getLogger(__name__)

POINTS = 24
THREE = 2024  #: C(24, 3)
FOUR = 10626  #: C(24, 4)
BLOCKS = -(-FOUR // N)  #: the four-point sets in blocks of N
WIDE = BLOCKS * N
LOSS = 128  #: added to a loss's distance in a result byte


@dataclass(frozen=True)
class Solution34:
    """Result bytes of every position of both classes, in the order of `index34` and
    `index43`, with the counts found on the way."""

    p34: bytes  #: 2024 * 5985 bytes: the mover has three (flies), the opponent four
    p43: bytes  #: 10626 * 1140 bytes: the mover has four (steps), the opponent three
    counts: dict[str, tuple[int, int, int]]  #: class -> (wins, losses, draws)
    levels: int
    seconds: float


def _sets(k: int) -> tuple[list[int], dict[int, int]]:
    masks = [sum(1 << p for p in c) for c in combinations(range(POINTS), k)]
    return masks, {m: i for i, m in enumerate(masks)}


def _square(rows: Callable[[int], int]) -> int:
    """N rows of N bits (row i from `rows(i)`) as one N x N matrix int."""
    return int.from_bytes(b"".join(rows(i).to_bytes(ROW_BYTES, "little") for i in range(N)),
                          "little")


def _split(x: int) -> list[int]:
    b = x.to_bytes(N * ROW_BYTES, "little")
    return [int.from_bytes(b[i * ROW_BYTES:(i + 1) * ROW_BYTES], "little") for i in range(N)]


class _Transposer:
    """Rows over three-point sets (FOUR of them, N bits each) to rows over four-point sets
    (THREE of them, WIDE bits each), and back, block by block."""

    def __init__(self) -> None:
        self.masks = _transpose_masks()
        self.low = (1 << N) - 1

    def four_to_three(self, rows43: list[int]) -> list[int]:
        """Rows C (four-point sets) over D (three-point sets) -> rows D over C."""
        out = [0] * N
        for j in range(BLOCKS):
            base = j * N
            square = _square(lambda i: rows43[base + i] if base + i < FOUR else 0)
            for d, row in enumerate(_split(_transpose(square, self.masks))):
                if row:
                    out[d] |= row << base
        return out[:THREE]

    def three_to_four(self, rows34: list[int]) -> list[int]:
        """Rows A (three-point sets) over B (four-point sets) -> rows B over A."""
        out: list[int] = []
        low = self.low
        for j in range(BLOCKS):
            base = j * N
            square = _square(lambda i: (rows34[i] >> base) & low if i < THREE else 0)
            out += _split(_transpose(square, self.masks))
        return out[:FOUR]


def solve(table: EndgameTable | None = None,
          progress: Callable[[int, int], None] | None = None) -> Solution34:
    """Solve every three-against-four position, each side to move (`table`: three against
    three, where a mill leads; `progress(level, decided)` after each level)."""
    start = time.perf_counter()
    table = table or shared()
    board = BOARDS["morris"]
    three, rank3 = _sets(3)
    four, rank4 = _sets(4)
    mills = board.mill_masks
    adjacency = board.adjacency
    holds3 = [sum(1 << i for i, m in enumerate(three) if m >> p & 1) for p in range(POINTS)]
    holds4 = [sum(1 << i for i, m in enumerate(four) if m >> p & 1) for p in range(POINTS)]
    all3, all4 = (1 << THREE) - 1, (1 << FOUR) - 1
    valid34 = [all4 & ~reduce(or_, (holds4[p] for p in board.bits(m))) for m in three]
    valid43 = [all3 & ~reduce(or_, (holds3[p] for p in board.bits(m))) for m in four]
    mill_sets = set(mills)

    # P34 successors: fly one pebble anywhere; into a mill (the new set is one) or not.
    nb34: list[list[int]] = []
    mill34: list[list[int]] = []
    for m in three:
        plain: list[int] = []
        closing: list[int] = []
        for a in board.bits(m):
            for t in range(POINTS):
                if not m >> t & 1:
                    new = (m & ~(1 << a)) | (1 << t)
                    (closing if new in mill_sets else plain).append(rank3[new])
        nb34.append(plain)
        mill34.append(closing)
    # P43 successors: step a pebble to an adjacent point; closing a mill there wins.
    nb43: list[list[int]] = []
    win2: list[int] = []
    blocked: list[int] = []
    for i, m in enumerate(four):
        plain, closing_rooms, free_somewhere = [], 0, 0
        for a in board.bits(m):
            for t in board.bits(adjacency[a] & ~m):
                new = (m & ~(1 << a)) | (1 << t)
                room = valid43[rank4[new]]  # the opponent's sets that leave t empty
                free_somewhere |= room
                if any(new & mill == mill for mill in mills if mill >> t & 1):
                    closing_rooms |= room
                else:
                    plain.append(rank4[new])
        nb43.append(plain)
        win2.append(valid43[i] & closing_rooms)
        blocked.append(valid43[i] & ~free_somewhere)

    # A P34 move into mill set A', then a removal from B: into three against three, the
    # opponent (B less one) to move. Per A' and distance: the B where it wins, draws, loses.
    exit_win: dict[int, dict[int, int]] = {}  # A' rank -> distance -> bits over B
    exit_loss: dict[int, dict[int, int]] = {}
    exit_draw: dict[int, int] = {}
    for mill in mills:
        a2 = rank3[mill]
        wins: dict[int, int] = {}
        losses: dict[int, int] = {}
        draws = 0
        for b in _bits(valid34[a2]):
            opp = four[b]
            in_mill = reduce(or_, (x for x in mills if opp & x == x), 0)
            takeable = (opp & ~in_mill) or opp
            best: tuple[int, int] | None = None  # (preference, distance)
            for r in board.bits(takeable):
                d = table.distance(opp & ~(1 << r), mill)  # the opponent moves next
                if d == 0:
                    option = (1, 0)  # a draw
                elif d & 1:
                    option = (2, -(2 + d))  # the opponent loses: we win, sooner is better
                else:
                    option = (0, 2 + d)  # we lose, later is better
                if best is None or option > best:
                    best = option
            assert best is not None
            if best[0] == 2:
                wins[-best[1]] = wins.get(-best[1], 0) | 1 << b
            elif best[0] == 1:
                draws |= 1 << b
            else:
                losses[best[1]] = losses.get(best[1], 0) | 1 << b
        exit_win[a2], exit_loss[a2], exit_draw[a2] = wins, losses, draws
    longest_exit = max((d for w in (*exit_win.values(), *exit_loss.values()) for d in w),
                       default=0)
    outside = {a2: all4 & ~valid34[a2] for a2 in exit_win}  # B holds t: no such move

    und34 = list(valid34)
    und43 = [v & ~b for v, b in zip(valid43, blocked)]
    won34 = [0] * THREE
    won43 = [0] * FOUR
    lost34 = [0] * THREE
    lost43 = list(blocked)
    fresh34 = [0] * THREE  # lost at the level before
    fresh43 = list(blocked)
    levels34: dict[int, list[int]] = {}
    levels43: dict[int, list[int]] = {0: [b << N for b in blocked]}
    loss_by = {a2: 0 for a2 in exit_win}  # exits lost within the level, cumulative
    inv34 = [all4 & ~v for v in valid34]
    inv43 = [all3 & ~v for v in valid43]
    tr = _Transposer()
    k = 1
    while True:
        for a2, losses in exit_loss.items():
            loss_by[a2] |= losses.get(k, 0)
        lost43_t = tr.four_to_three(fresh43)  # rows A' over B: (B, A') lost at k - 1
        won43_t = tr.four_to_three([w | i for w, i in zip(won43, inv43)])
        lost34_t = tr.three_to_four(fresh34)  # rows C' over D: (D, C') lost at k - 1
        won34_t = tr.three_to_four([w | i for w, i in zip(won34, inv34)])

        def exit_wins(a: int) -> int:
            return reduce(or_, (exit_win[x].get(k, 0) for x in mill34[a]), 0)

        def exits_lost(a: int) -> int:
            return reduce(and_, (loss_by[x] | outside[x] for x in mill34[a]), all4)

        new_w34, new_l34 = _decide(und34, nb34, lost43_t, won43_t, all4, exit_wins, exits_lost)
        new_w43, new_l43 = _decide(und43, nb43, lost34_t, won34_t, all3,
                                   lambda c: win2[c] if k == 2 else 0,
                                   lambda c: all3 & ~win2[c])
        decided = 0
        for found, won_or_lost, und in ((new_w34, won34, und34), (new_l34, lost34, und34),
                                        (new_w43, won43, und43), (new_l43, lost43, und43)):
            for i, bits in enumerate(found):
                if bits:
                    won_or_lost[i] |= bits
                    und[i] &= ~bits
                    decided += bits.bit_count()
        levels34[k] = [w | (l_ << WIDE) for w, l_ in zip(new_w34, new_l34)]
        levels43[k] = [w | (l_ << N) for w, l_ in zip(new_w43, new_l43)]
        fresh34, fresh43 = new_l34, new_l43
        log.debug("three against four, level %d: %d positions decided", k, decided)
        if progress is not None:
            progress(k, decided)
        if not decided and k > max(2, longest_exit):
            break
        k += 1

    p34 = _results(levels34, three, THREE, 4, WIDE)
    p43 = _results(levels43, four, FOUR, 3, N)
    counts = {
        "3v4": (sum(w.bit_count() for w in won34), sum(x.bit_count() for x in lost34),
                sum(u.bit_count() for u in und34)),
        "4v3": (sum(w.bit_count() for w in won43), sum(x.bit_count() for x in lost43),
                sum(u.bit_count() for u in und43)),
    }
    return Solution34(p34, p43, counts, k, time.perf_counter() - start)


def _decide(undecided: list[int], successors: list[list[int]], lost_t: list[int],
            won_t: list[int], full: int, exit_wins: Callable[[int], int],
            exits_lost: Callable[[int], int]) -> tuple[list[int], list[int]]:
    """One level of one class: for each row (the mover's set), the positions won now (a
    successor lost at the level before, or a way out that wins now) and lost now (every
    successor a known win, every way out lost by now; `exits_lost` gives the positions whose
    ways out allow that)."""
    wins, losses = [], []
    for i, u in enumerate(undecided):
        if not u:
            wins.append(0)
            losses.append(0)
            continue
        w = (reduce(or_, (lost_t[x] for x in successors[i]), 0) | exit_wins(i)) & u
        lost = u & ~w & exits_lost(i) & reduce(and_, (won_t[x] for x in successors[i]), full)
        wins.append(w)
        losses.append(lost)
    return wins, losses


def _results(levels: dict[int, list[int]], movers: list[int], rows: int, other: int,
             width: int) -> bytes:
    """The result bytes of one class in index order: for each mover's set, its opponent's
    sets among the points it leaves free, in their combinations' order."""
    _, rank = _sets(other)
    grid = [bytearray(width) for _ in range(rows)]
    for d, level in levels.items():
        for i, bits in enumerate(level):
            if not bits:
                continue
            row = grid[i]
            wins, losses = bits & ((1 << width) - 1), bits >> width
            for b in _bits(wins):
                row[b] = d
            for b in _bits(losses):
                row[b] = LOSS + d
    out = bytearray()
    for i, mover in enumerate(movers):
        free = [p for p in range(POINTS) if not mover >> p & 1]
        row = grid[i]
        out += bytes(row[rank[sum(1 << p for p in c)]] for c in combinations(free, other))
    return bytes(out)


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def build(path: Path, table: EndgameTable | None = None,
          progress: Callable[[int, int], None] | None = None) -> tuple[Solution34, int]:
    """Solve and write the three-against-four file at `path` (through a temporary file, so
    a reader never sees half of it); returns the solution and the file's size."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as f:  # opened first: a path that cannot be written fails at once
        solution = solve(table, progress)
        data = encode34(solution.p34, solution.p43)
        f.write(data)
    tmp.replace(path)
    return solution, len(data)
