"""Retrograde analysis of three against three pebbles, both sides flying, on the morris board.

Every position is a pair (mover's three points, opponent's three points); flying, a move takes
any own pebble to any empty point, so a position's successors are its opponent-to-move
positions whose new opponent set differs from the mover's set in one point. A move that fills
a mill takes a pebble (there is always one to take: a side whose three pebbles all stand in a
mill may lose any of them) and leaves the opponent two, a loss: that is the only way to win,
since nobody flying is ever blocked.

The solver keeps each set of positions as one bit matrix (row: the mover's set, column: the
opponent's set, 2048 x 2048 bits in a single int) and works level by level: the wins in 2
actions (a move into a mill, then the removal), then the positions all of whose successors
are known wins (losses), then the positions with a successor just found lost (wins), and so
on. A successor of (A, B) is (B, A'), so one transposition of the matrix per level turns the
opponent's view into rows, and a position's verdict is an AND (or OR) over the 63 rows of the
sets A' one point away from A. Pure Python, a few seconds.

Distances count actions, as the search's plies do: a move and its removal are two. A won
position has an even distance (it ends with the mover's removal), a lost one an odd one.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from functools import reduce
from itertools import combinations
from operator import and_, or_
from pathlib import Path

from .boards import BOARDS
from .endgame import encode, ranks

log = logging.getLogger(__name__)

POINTS = 24
SETS = 2024  #: C(24, 3): three points of 24
N = 2048  #: a matrix row, padded to a power of two for the transposition
ROW_BYTES = N // 8


@dataclass(frozen=True)
class Solution:
    """The distances of every position (mover's set rank, opponent's set rank): 0 for a
    draw, even for a win, odd for a loss; with the level counts found on the way."""

    distances: bytes  #: 2024 * 1330 bytes, in the order of `endgame.index`
    wins: int
    losses: int
    draws: int
    levels: int
    seconds: float


def _transpose_masks() -> list[tuple[int, int]]:
    """(shift, mask) for each round of the block transposition of an N x N bit matrix."""
    out = []
    j = N >> 1
    while j:
        pattern = sum(1 << c for c in range(N) if c & j).to_bytes(ROW_BYTES, "little")
        zero = bytes(ROW_BYTES)
        mask = int.from_bytes(b"".join(zero if r & j else pattern for r in range(N)), "little")
        out.append((j * (N - 1), mask))
        j >>= 1
    return out


def _transpose(x: int, masks: list[tuple[int, int]]) -> int:
    """Bit (r, c) to bit (c, r): swap the off-diagonal blocks at every scale."""
    for shift, mask in masks:
        t = (x ^ (x >> shift)) & mask
        x ^= t | (t << shift)
    return x


def _rows(x: int) -> list[int]:
    b = x.to_bytes(N * ROW_BYTES, "little")
    return [int.from_bytes(b[i * ROW_BYTES:(i + 1) * ROW_BYTES], "little") for i in range(SETS)]


def _join(rows: list[int]) -> int:
    return int.from_bytes(b"".join(r.to_bytes(ROW_BYTES, "little") for r in rows), "little")


def solve() -> Solution:
    """Solve every three-against-three position with the mover to move."""
    start = time.perf_counter()
    rank = ranks()[0]
    masks = list(rank)  # in the order of their ranks
    points = [[p for p in range(POINTS) if m >> p & 1] for m in masks]
    mills = BOARDS["morris"].mill_masks
    # Rows over the opponent's set: where it is disjoint from the mover's (a position), and
    # where it holds a given point.
    holds = [sum(1 << i for i, m in enumerate(masks) if m >> p & 1) for p in range(POINTS)]
    everything = (1 << SETS) - 1
    valid = [everything & ~reduce(or_, (holds[p] for p in pts)) for pts in points]
    neighbours = [[rank[(m & ~(1 << a)) | (1 << t)] for a in pts for t in range(POINTS)
                   if not m >> t & 1] for m, pts in zip(masks, points)]
    # Wins in two actions: a mill with two of the mover's pebbles and its third point empty.
    wins: list[int] = []
    for m, ok in zip(masks, valid):
        closing = [mill & ~m for mill in mills if (mill & m).bit_count() == 2]
        blocked = reduce(and_, (holds[c.bit_length() - 1] for c in closing), everything)
        wins.append(ok & ~blocked if closing else 0)
    undecided = [ok & ~w for ok, w in zip(valid, wins)]
    invalid = _join([~ok & ((1 << N) - 1) for ok in valid])
    tmasks = _transpose_masks()
    levels: dict[int, int] = {2: _join(wins)}
    won = levels[2]
    lost = 0
    fresh = levels[2]  # the positions decided at the last level
    d = 3
    while fresh:
        if d & 1:  # lost: every successor (B, A') is a known win for its mover
            cols = _rows(_transpose(won | invalid, tmasks))
            new = [u & reduce(and_, [cols[k] for k in nb]) if u else 0
                   for u, nb in zip(undecided, neighbours)]
        else:  # won: some successor was found lost at the level before
            cols = _rows(_transpose(fresh, tmasks))
            new = [u & reduce(or_, [cols[k] for k in nb]) if u else 0
                   for u, nb in zip(undecided, neighbours)]
        fresh = _join(new)
        if fresh:
            levels[d] = fresh
            if d & 1:
                lost |= fresh
            else:
                won |= fresh
            undecided = [u & ~n for u, n in zip(undecided, new)]
        log.debug("level %d: %d positions", d, fresh.bit_count())
        d += 1
    grid = _distances(levels)
    distances = b"".join(
        bytes(grid[a * N + b] for b in _opponents(masks[a], rank)) for a in range(SETS))
    wins_n, losses_n = won.bit_count(), lost.bit_count()
    total = sum(v.bit_count() for v in valid)
    return Solution(distances, wins_n, losses_n, total - wins_n - losses_n, max(levels),
                    time.perf_counter() - start)


def _opponents(mover: int, rank: dict[int, int]) -> list[int]:
    """The ranks of the opponent's sets beside `mover`, in the order `endgame.index` gives
    them: the sets of the 21 free points, in their combinations' order."""
    free = [p for p in range(POINTS) if not mover >> p & 1]
    return [rank[(1 << a) | (1 << b) | (1 << c)] for a, b, c in combinations(free, 3)]


def _distances(levels: dict[int, int]) -> bytes:
    """One byte per matrix bit: the level that decided it (0: never, a draw)."""
    acc = 0
    size = N * N
    for d, mask in levels.items():
        table = bytes.maketrans(b"01", bytes((0, d)))
        expanded = format(mask, f"0{size}b")[::-1].encode().translate(table)
        acc |= int.from_bytes(expanded, "big")
    return acc.to_bytes(size, "big")


def build(path: Path) -> tuple[Solution, int]:
    """Solve and write the database file at `path` (through a temporary file, so a reader
    never sees half of it); returns the solution and the file's size."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as f:  # opened first: a path that cannot be written fails at once
        solution = solve()
        data = encode(solution.distances)
        f.write(data)
    tmp.replace(path)
    return solution, len(data)
