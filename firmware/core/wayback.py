"""The way back: from the board as it stands to the game's position, in steps hands can follow.

When the board must be put right (a mistake, a takeback, a restart), the tracker's status names
each step: which pebble to move where, which to lift, which to set down from beside the board,
naming every pebble's colour as the tracker believes it (`belief.ColourBelief`), so hands never
swap a white pebble for a black one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from navakankari.engine.boards import Board
from navakankari.engine.game import Side

COLOURS = (str(Side.WHITE), str(Side.BLACK))


def pair_points(board: Board, to_empty: Sequence[str], to_fill: Sequence[str]
                ) -> tuple[tuple[str, str], ...]:
    """Pair points to empty with points to fill into moves, nearest pairs first."""
    coords = dict(zip(board.points, board.coordinates))
    options = sorted(
        ((coords[a][0] - coords[b][0]) ** 2 + (coords[a][1] - coords[b][1]) ** 2, a, b)
        for a in to_empty for b in to_fill)
    used: set[str] = set()
    pairs = []
    for _, a, b in options:
        if a not in used and b not in used:
            used |= {a, b}
            pairs.append((a, b))
    return tuple(pairs)


def restore_steps(board: Board, wanted: Mapping[str, str], believed: Mapping[str, str]
                  ) -> tuple[tuple[str, str, str, str], ...]:
    """The way from the board as it stands to the game's position, in an order hands can
    follow and naming every pebble's colour: `wanted` is the game's colour of each point
    with a pebble, `believed` the colour of each pebble on the board ("" unknown).

    Steps: ("move", colour, from, to) only between points whose colours agree, nearest
    first, onto a free point; ("lift", colour, point, "") a pebble that does not belong,
    first those of the wrong colour on a point the game fills, so a move can follow;
    ("set", colour, "", point) a pebble from beside the board."""
    here = dict(believed)
    steps: list[tuple[str, str, str, str]] = []

    def wrong(p: str) -> bool:
        return p not in wanted or (here[p] != "" and here[p] != wanted[p])

    while True:
        moved = False
        for colour in COLOURS:
            sources = [p for p in here if here[p] == colour and wrong(p)]
            free = [p for p in wanted if p not in here and wanted[p] == colour]
            for a, b in pair_points(board, sources, free):
                steps.append(("move", colour, a, b))
                del here[a]
                here[b] = colour
                moved = True
        if moved:
            continue
        blocking = sorted(p for p in here if p in wanted and wrong(p))
        if not blocking:
            break
        steps.append(("lift", here.pop(blocking[0]), blocking[0], ""))
    steps += [("lift", here[p], p, "") for p in board.points if p in here and wrong(p)]
    steps += [("set", wanted[p], "", p) for p in board.points if p in wanted and p not in here]
    return tuple(steps)
