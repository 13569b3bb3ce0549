"""The three-against-three endgame database: which rules it holds under, its file, its lookups.

Every position with three pebbles a side on the morris board, none in hand, both flying, is
solved (endgame_solve.py): one byte per position, the number of actions to the end under best
play (the winner's quickest, the loser's longest; a move and its removal are two), even for a
win of the side to move, odd for a loss, 0 for a draw. The positions are seen from the side to
move, so one table serves both colours.

The shipped file is a short header and the zlib-compressed bytes; it is read on the first
lookup, not on import, so a game that never gets there pays nothing.
"""

from __future__ import annotations

import logging
import zlib
from functools import lru_cache
from importlib import resources
from itertools import combinations
from pathlib import Path

from .errors import RulesError
from .game import Game
from .rules import AllInMills, Flying, Rules

log = logging.getLogger(__name__)

MAGIC = b"NKEG-3v3-flying\n"  #: the file's first bytes: what it holds, and its format
FILENAME = "endgame-3v3.bin"
POSITIONS = 2024 * 1330  #: C(24, 3) mover's sets times C(21, 3) opponent's sets: 2,691,920


class EndgameDataError(RulesError):
    """The database file is missing or not what it should be."""


def why_not(rules: Rules) -> str | None:
    """Why the database does not give `rules`' exact results (None: it does).

    It assumes the morris board, both sides flying at three, a side below three losing, and
    that a mill closed with three pebbles always takes one (so it wins): with three pebbles a
    move closes at most one mill, so one removal per mill or per move is the same; a side
    whose three pebbles stand in a mill must still be able to lose one (AllInMills.ANY); and
    no rule may keep a mill from capturing (a capture limit, no immediate re-formation)."""
    if rules.game != "morris" or rules.board != "morris":
        return f"it is solved on the morris board, not {rules.board}"
    if rules.flying is Flying.NONE or rules.fly_threshold < 3:
        return "both sides must fly with three pebbles"
    if rules.lose_below != 3:
        return "a side must lose below three pebbles"
    if rules.all_in_mills is not AllInMills.ANY:
        return "pebbles that all stand in mills are safe: a mill may take nothing"
    if rules.mill_capture_limit is not None:
        return "a mill's captures are limited: a mill may take nothing"
    if rules.no_immediate_reform:
        return "a re-formed mill may take nothing"
    return None


def qualifies(rules: Rules) -> bool:
    return why_not(rules) is None


def data_path() -> Path:
    """Where the shipped database lies (beside this module, as package data)."""
    return Path(str(resources.files(__package__ or "navakankari.engine").joinpath(FILENAME)))


def encode(distances: bytes) -> bytes:
    """The file's bytes for the table `distances`."""
    if len(distances) != POSITIONS:
        raise ValueError(f"{len(distances)} distances, not {POSITIONS}")
    return MAGIC + zlib.compress(distances, 9)


def decode(data: bytes) -> bytes:
    """The table in a file's bytes; a clear error for anything else."""
    if not data.startswith(MAGIC):
        raise EndgameDataError("not a three-against-three endgame file (its header is wrong)")
    try:
        table = zlib.decompress(data[len(MAGIC):])
    except zlib.error as exc:
        raise EndgameDataError(f"the endgame file is damaged: {exc}") from None
    if len(table) != POSITIONS:
        raise EndgameDataError(f"the endgame file holds {len(table)} positions, not {POSITIONS}")
    return table


def load(path: Path | None = None) -> bytes:
    path = path or data_path()
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EndgameDataError(f"cannot read the endgame database {path}: {exc} "
                               "(navakankari build-endgame makes it)") from None
    return decode(data)


@lru_cache(maxsize=1)
def ranks() -> tuple[dict[int, int], dict[int, int]]:
    """Three-point masks of 24 points, and of 21, to their rank among their combinations."""
    def masks(n: int) -> dict[int, int]:
        return {(1 << a) | (1 << b) | (1 << c): i
                for i, (a, b, c) in enumerate(combinations(range(n), 3))}

    return masks(24), masks(21)


def index(mover: int, opponent: int) -> int:
    """A position's place in the table: the mover's set's rank times 1330, plus the rank of
    the opponent's set among the 21 points the mover leaves free."""
    r24, r21 = ranks()
    squeezed = opponent
    m = mover
    while m:  # take the mover's points out, highest first, closing the gaps
        p = m.bit_length() - 1
        squeezed = (squeezed & ((1 << p) - 1)) | ((squeezed >> (p + 1)) << p)
        m ^= 1 << p
    return r24[mover] * 1330 + r21[squeezed]


class EndgameTable:
    """The lookups the search makes; the file is read on the first one."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._table: bytes | None = None

    @property
    def table(self) -> bytes:
        if self._table is None:
            self._table = load(self._path)
            log.debug("endgame database loaded (%d positions)", len(self._table))
        return self._table

    def distance(self, mover: int, opponent: int) -> int:
        """Actions to the end from the mover's side: even a win, odd a loss, 0 a draw."""
        return self.table[index(mover, opponent)]

    def probe(self, game: Game) -> int | None:
        """The distance of `game`'s position, or None when the table does not hold it (not
        three against three with none in hand and no removal owed), or when the game's
        quiet-move limit could end it as a draw first: the last of the d actions is a
        removal, so d - 1 moves in a row must stay under the limit."""
        bb = game._bb
        s = game._side
        if bb[0].bit_count() != 3 or bb[1].bit_count() != 3:
            return None
        if game.in_hand(0) or game.in_hand(1) or game.pending_removals:
            return None
        d = self.table[index(bb[s], bb[s ^ 1])]
        limit = game.rules.quiet_move_limit
        if d and limit is not None and game._quiet + d - 1 >= limit:
            return None
        return d


@lru_cache(maxsize=1)
def shared() -> EndgameTable:
    """The one table of the process (read once, on its first lookup)."""
    return EndgameTable()


def table_for(rules: Rules) -> EndgameTable | None:
    """The table if it gives `rules`' exact results, else None."""
    return shared() if qualifies(rules) else None
