"""Actions: immutable values with the points they empty and fill, and their notation.

Placements, moves and removals of a board are made once (`ActionTable`) and shared, so
generating legal actions allocates no action objects: that keeps the move generator fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import cast

from .boards import Board, by_byte


class ActionKind(IntEnum):
    PLACE = 0  #: a pebble from the hand onto `target`
    MOVE = 1  #: a pebble from `origin` to `target` (a step or a flight)
    REMOVE = 2  #: the mover takes the opposing pebble on `target`
    JUMP = 3  #: Nau Keti Keta: from `origin` over `jumped` to `target`, landing on `path`


@dataclass(frozen=True, slots=True)
class Action:
    """One action of one player. Points are bit positions on the game's board; the same
    points by name are `origin_name`, `target_name` and `jumped_names`.

    `empties` and `fills` are the occupancy change on the board, which is all the sensors
    can see: the tracker matches what the hands did against them.
    """

    kind: ActionKind
    origin: int
    target: int
    jumped: tuple[int, ...]
    path: tuple[int, ...]
    empties: int
    fills: int
    text: str
    origin_name: str | None = None  #: where a moved or jumping pebble starts; None otherwise
    target_name: str = ""  #: where the pebble lands, or the pebble removed
    jumped_names: tuple[str, ...] = ()  #: Nau Keti Keta: the pebbles a chain takes

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text})"


def place(board: Board, p: int) -> Action:
    name = board.points[p]
    return Action(ActionKind.PLACE, -1, p, (), (p,), 0, 1 << p, name, None, name)


def move(board: Board, a: int, b: int) -> Action:
    na, nb = board.points[a], board.points[b]
    return Action(ActionKind.MOVE, a, b, (), (b,), 1 << a, 1 << b, f"{na}-{nb}", na, nb)


def remove(board: Board, p: int) -> Action:
    name = board.points[p]
    return Action(ActionKind.REMOVE, -1, p, (), (), 1 << p, 0, f"x{name}", None, name)


def jump(board: Board, origin: int, path: tuple[int, ...], jumped: tuple[int, ...]) -> Action:
    """A capture chain; notation `d5xd3xf1` names the start and every landing point."""
    empties = 1 << origin
    for j in jumped:
        empties |= 1 << j
    target = path[-1]
    text = "x".join(board.points[p] for p in (origin, *path))
    return Action(ActionKind.JUMP, origin, target, jumped, path,
                  empties & ~(1 << target), (1 << target) & ~(1 << origin), text,
                  board.points[origin], board.points[target], tuple(board.points[j] for j in jumped))


class ActionTable:
    """Every placement, move and removal of one board, made once and shared."""

    def __init__(self, board: Board) -> None:
        self.board = board
        n = board.size
        self.place = tuple(place(board, p) for p in range(n))
        self.remove = tuple(remove(board, p) for p in range(n))
        self.move = tuple(
            tuple(move(board, a, b) if a != b else None for b in range(n)) for a in range(n)
        )
        # Placements / removals by byte of a mask: a list of actions is three lookups.
        self.place_by_byte = _byte_table(self.place)
        self.remove_by_byte = _byte_table(self.remove)
        # Steps from each point, keyed by the subset of its neighbours that is empty.
        steps = []
        for a in range(n):
            adj = board.adjacency[a]
            nbrs = board.bits(adj)
            table: dict[int, list[Action]] = {}
            for sub in range(1 << len(nbrs)):
                mask = 0
                acts = []
                for k, b in enumerate(nbrs):
                    if sub >> k & 1:
                        mask |= 1 << b
                        acts.append(cast(Action, self.move[a][b]))  # a != b: never None
                table[mask] = acts
            steps.append(table)
        self.steps = tuple(steps)
        self.by_text = {a.text: a for a in self.place + self.remove}
        for row in self.move:
            for m in row:
                if m is not None:
                    self.by_text[m.text] = m

    def places(self, mask: int) -> list[Action]:
        return by_byte(self.place_by_byte, mask)

    def removes(self, mask: int) -> list[Action]:
        return by_byte(self.remove_by_byte, mask)


def _byte_table(actions: tuple[Action, ...]) -> tuple[tuple[list[Action], ...], ...]:
    """For each byte k of a mask and each value b of it: the actions of the points set in b."""
    n = len(actions)
    return tuple(
        tuple([actions[k * 8 + i] for i in range(8) if b >> i & 1 and k * 8 + i < n]
              for b in range(256))
        for k in range((n + 7) // 8)
    )


@lru_cache(maxsize=None)
def table_for(board: Board) -> ActionTable:
    return ActionTable(board)
