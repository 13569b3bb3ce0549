"""Boards as point graphs: named points, straight lines, adjacency and mills as bitmasks.

Points are bit positions in ints, so a set of points is one int and every rules question
(is this a mill, which neighbours are empty) is a few integer operations. Nothing outside
this module knows how many points a board has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from .errors import InvalidNotationError
from .translator import N_

T = TypeVar("T")


def by_byte(tables: Sequence[Sequence[Sequence[T]]], mask: int) -> list[T]:
    """What `tables[k][b]` lists for each byte b (the k-th) of `mask`, in order: a mask
    turned into points, or into actions, with one lookup per byte instead of one per bit."""
    out: list[T] = []
    k = 0
    while mask:
        out += tables[k][mask & 255]
        mask >>= 8
        k += 1
    return out


@dataclass(frozen=True)
class Board:
    """A playing surface: points, the straight lines joining them, and which lines are mills.

    `lines` are ordered runs of points; consecutive points on a line are neighbours and a
    jump goes over one point to the next along the same line. `mills` name the lines (of
    three points) that capture when one side fills them.
    """

    name: str
    points: tuple[str, ...]
    lines: tuple[tuple[str, ...], ...]
    mills: tuple[tuple[str, ...], ...]
    description: str = ""
    _index: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if len(set(self.points)) != len(self.points):
            raise ValueError(f"board {self.name}: duplicate point names")
        object.__setattr__(self, "_index", {p: i for i, p in enumerate(self.points)})
        for line in self.lines + self.mills:
            for p in line:
                if p not in self._index:
                    raise ValueError(f"board {self.name}: line names unknown point {p}")

    # -- names and masks -------------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.points)

    @cached_property
    def full(self) -> int:
        """The mask of every point."""
        return (1 << len(self.points)) - 1

    def index(self, name: str) -> int:
        """The bit position of a point name; raises InvalidNotationError for an unknown name."""
        try:
            return self._index[name]
        except KeyError:
            raise InvalidNotationError(N_("{name} is not a point of the {board} board (points: "
                                          "{points})"), name=repr(name), board=self.name,
                                       points=" ".join(self.points)) from None

    def has_point(self, name: str) -> bool:
        return name in self._index

    def mask(self, names: object) -> int:
        """The mask of an iterable of point names."""
        m = 0
        for n in names:  # type: ignore[attr-defined]
            m |= 1 << self.index(n)
        return m

    def names(self, mask: int) -> tuple[str, ...]:
        """Point names of a mask, in board order."""
        return tuple(self.points[i] for i in self.bits(mask))

    def bits(self, mask: int) -> list[int]:
        """Bit positions set in a mask, ascending; table driven because it is on hot paths."""
        return by_byte(self._byte_bits, mask)

    @cached_property
    def _byte_bits(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        n_chunks = (len(self.points) + 7) // 8
        return tuple(
            tuple(tuple(k * 8 + i for i in range(8) if b >> i & 1) for b in range(256))
            for k in range(n_chunks)
        )

    # -- geometry ----------------------------------------------------------------------
    @cached_property
    def adjacency(self) -> tuple[int, ...]:
        """Neighbour mask of each point (consecutive points on a line)."""
        adj = [0] * len(self.points)
        for line in self.lines:
            idx = [self._index[p] for p in line]
            for a, b in zip(idx, idx[1:]):
                adj[a] |= 1 << b
                adj[b] |= 1 << a
        return tuple(adj)

    @cached_property
    def mill_masks(self) -> tuple[int, ...]:
        return tuple(self.mask(m) for m in self.mills)

    @cached_property
    def mills_at(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each point: (mill number, mill mask) of every mill through it."""
        out: list[list[tuple[int, int]]] = [[] for _ in self.points]
        for k, m in enumerate(self.mill_masks):
            for i in self.bits(m):
                out[i].append((k, m))
        return tuple(tuple(x) for x in out)

    @cached_property
    def mill_rests_at(self) -> tuple[tuple[int, ...], ...]:
        """For each point: the other points of every mill through it, one mask a mill (a
        pebble arriving there closes the mill when they are all the mover's)."""
        return tuple(tuple(m & ~(1 << i) for _, m in at) for i, at in enumerate(self.mills_at))

    @cached_property
    def jumps(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each point: (over, landing) pairs, straight along a line."""
        out: list[list[tuple[int, int]]] = [[] for _ in self.points]
        for line in self.lines:
            idx = [self._index[p] for p in line]
            for seq in (idx, idx[::-1]):
                for a, b, c in zip(seq, seq[1:], seq[2:]):
                    out[a].append((b, c))
        return tuple(tuple(x) for x in out)

    @cached_property
    def coordinates(self) -> tuple[tuple[int, int], ...]:
        """(column, row) of each point from its name: column a=0.., row 1=0.. (for drawing)."""
        return tuple((ord(p[0]) - ord("a"), int(p[1:]) - 1) for p in self.points)


def _morris_lines(outer: bool, spokes_as_lines: bool) -> tuple[tuple[str, ...], ...]:
    squares: list[tuple[str, ...]] = [
        ("b6", "d6", "f6"), ("f6", "f4", "f2"), ("b2", "d2", "f2"), ("b6", "b4", "b2"),
        ("c5", "d5", "e5"), ("e5", "e4", "e3"), ("c3", "d3", "e3"), ("c5", "c4", "c3"),
    ]
    if outer:
        squares = [
            ("a7", "d7", "g7"), ("g7", "g4", "g1"), ("a1", "d1", "g1"), ("a7", "a4", "a1"),
        ] + squares
        spokes: list[tuple[str, ...]] = [("d7", "d6", "d5"), ("a4", "b4", "c4"), ("g4", "f4", "e4"), ("d1", "d2", "d3")]
    else:
        spokes = [("d6", "d5"), ("b4", "c4"), ("f4", "e4"), ("d2", "d3")]
    return tuple(squares + spokes) if spokes_as_lines else tuple(squares)


_MORRIS_POINTS = (
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5",
    "a4", "b4", "c4", "e4", "f4", "g4",
    "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
)
_DIAGONALS = (("a7", "b6", "c5"), ("g7", "f6", "e5"), ("a1", "b2", "c3"), ("g1", "f2", "e3"))

MORRIS = Board(
    name="morris",
    points=_MORRIS_POINTS,
    lines=_morris_lines(True, True),
    mills=_morris_lines(True, True),
    description="24 points: three squares joined at their side midpoints; 16 mills",
)

MORRIS_DIAGONAL = Board(
    name="morris-diagonal",
    points=_MORRIS_POINTS,
    lines=_morris_lines(True, True) + _DIAGONALS,
    mills=_morris_lines(True, True) + _DIAGONALS,
    description="24 points with the four corner diagonals as lines and mills; 20 mills",
)

SIX = Board(
    name="six",
    points=tuple(p for p in _MORRIS_POINTS if p[0] not in "ag" and p[1] not in "17"),
    lines=_morris_lines(False, True),
    mills=_morris_lines(False, False),
    description="the inner 16 points of the morris board; mills only along the square sides",
)

# Lau kata kati: two triangles meeting at the apex d4, named on the same 7x7 grid as the
# morris board. Three 7-point lines pass through the apex; each triangle has three rows.
LAU_KATA_KATI = Board(
    name="lau-kata-kati",
    points=(
        "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5",
        "d4",
        "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
    ),
    lines=(
        ("a7", "b6", "c5", "d4", "e3", "f2", "g1"),
        ("g7", "f6", "e5", "d4", "c3", "b2", "a1"),
        ("d7", "d6", "d5", "d4", "d3", "d2", "d1"),
        ("a7", "d7", "g7"), ("b6", "d6", "f6"), ("c5", "d5", "e5"),
        ("c3", "d3", "e3"), ("b2", "d2", "f2"), ("a1", "d1", "g1"),
    ),
    mills=(),
    description="19 points: two triangles of 9 meeting at the apex d4 (Nau Keti Keta)",
)

BOARDS: dict[str, Board] = {b.name: b for b in (MORRIS, MORRIS_DIAGONAL, SIX, LAU_KATA_KATI)}
