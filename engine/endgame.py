"""The endgame databases: which rules they hold under, their files, their lookups.

Every position with three pebbles a side on the morris board, none in hand, both flying, is
solved (endgame_solve.py): one byte per position, the number of actions to the end under best
play (the winner's quickest, the loser's longest; a move and its removal are two), even for a
win of the side to move, odd for a loss, 0 for a draw. The positions are seen from the side to
move, so one table serves both colours.

Three against four (endgame_solve34.py), with the side of three flying and the side of four
stepping, is solved too, in two classes: the side with three to move, and the side with four.
There a blockade ends a game with the winner's move, so the parity says nothing: one byte a
position, 0 a draw, d a win in d actions, 128 + d a loss in d.

Each shipped file is a short header and the zlib-compressed bytes; it is read on the first
lookup, not on import, so a game that never gets there pays nothing.
"""

from __future__ import annotations

import logging
import zlib
from functools import lru_cache
from importlib import resources
from itertools import combinations
from pathlib import Path

from .errors import WordedError
from .game import Game
from .rules import AllInMills, Flying, Rules
from .translator import N_, Nn_

log = logging.getLogger(__name__)

MAGIC = b"NKEG-3v3-flying\n"  #: the file's first bytes: what it holds, and its format
FILENAME = "endgame-3v3.bin"
POSITIONS = 2024 * 1330  #: C(24, 3) mover's sets times C(21, 3) opponent's sets: 2,691,920
MAGIC34 = b"NKEG-3v4-stepping\n"
FILENAME34 = "endgame-3v4.bin"
POSITIONS34 = 2024 * 5985  #: each class: C(24, 3) * C(21, 4) = C(24, 4) * C(20, 3) = 12,113,640
LOSS = 128  #: added to a loss's distance in a three-against-four result byte


class EndgameDataError(WordedError):
    """The database file is missing or not what it should be; worded like every engine
    error (errors.py)."""


HOLDS = Nn_("the endgame file holds {count} position, not {expected}",
            "the endgame file holds {count} positions, not {expected}")


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


def why_not34(rules: Rules) -> str | None:
    """Why the three-against-four database does not give `rules`' exact results (None: it
    does): those of three against three, and the side with four steps (it flies under
    rules where both fly once one side is down to three)."""
    reason = why_not(rules)
    if reason is not None:
        return reason
    if rules.flying is not Flying.SELF or rules.fly_threshold != 3:
        return "only the side down to three may fly: the side with four must step"
    return None


def data_path(name: str = FILENAME) -> Path:
    """Where a shipped database lies (beside this module, as package data)."""
    return Path(str(resources.files(__package__ or "navakankari.engine").joinpath(name)))


def encode(distances: bytes) -> bytes:
    """The file's bytes for the table `distances`."""
    if len(distances) != POSITIONS:
        raise ValueError(f"{len(distances)} distances, not {POSITIONS}")
    return MAGIC + zlib.compress(distances, 9)


def decode(data: bytes) -> bytes:
    """The table in a file's bytes; a clear error for anything else."""
    if not data.startswith(MAGIC):
        raise EndgameDataError(N_("not a three-against-three endgame file (its header is "
                                  "wrong)"))
    try:
        table = zlib.decompress(data[len(MAGIC):])
    except zlib.error as exc:
        raise EndgameDataError(N_("the endgame file is damaged: {problem}"),
                               problem=exc) from None
    if len(table) != POSITIONS:
        raise EndgameDataError.counted(HOLDS, len(table), expected=POSITIONS)
    return table


def encode34(p34: bytes, p43: bytes) -> bytes:
    """The three-against-four file's bytes for the two classes' result bytes."""
    if len(p34) != POSITIONS34 or len(p43) != POSITIONS34:
        raise ValueError(f"{len(p34)} and {len(p43)} results, not {POSITIONS34} each")
    return MAGIC34 + zlib.compress(p34 + p43, 9)


def decode34(data: bytes) -> tuple[bytes, bytes]:
    """The two classes' result bytes in a three-against-four file."""
    if not data.startswith(MAGIC34):
        raise EndgameDataError(N_("not a three-against-four endgame file (its header is "
                                  "wrong)"))
    try:
        table = zlib.decompress(data[len(MAGIC34):])
    except zlib.error as exc:
        raise EndgameDataError(N_("the endgame file is damaged: {problem}"),
                               problem=exc) from None
    if len(table) != 2 * POSITIONS34:
        raise EndgameDataError.counted(HOLDS, len(table), expected=2 * POSITIONS34)
    return table[:POSITIONS34], table[POSITIONS34:]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise EndgameDataError(N_("cannot read the endgame database {file}: {problem} "
                                  "(navakankari build-endgame makes it)"), file=path,
                               problem=exc) from None


def load(path: Path | None = None) -> bytes:
    return decode(_read(path or data_path()))


def load34(path: Path | None = None) -> tuple[bytes, bytes]:
    return decode34(_read(path or data_path(FILENAME34)))


@lru_cache(maxsize=1)
def _shipped() -> bytes:
    """The shipped three-against-three table, read once for every table of the process that
    uses it (with three against four or without)."""
    return load()


@lru_cache(maxsize=None)
def set_ranks(n: int, k: int) -> dict[int, int]:
    """The k-point masks of n points to their rank among their combinations."""
    return {sum(1 << p for p in c): i for i, c in enumerate(combinations(range(n), k))}


def ranks() -> tuple[dict[int, int], dict[int, int]]:
    """Three-point masks of 24 points, and of 21, to their rank among their combinations."""
    return set_ranks(24, 3), set_ranks(21, 3)


def _squeeze(opponent: int, mover: int) -> int:
    """The opponent's set among the points the mover leaves free, the gaps closed."""
    squeezed = opponent
    m = mover
    while m:  # take the mover's points out, highest first, closing the gaps
        p = m.bit_length() - 1
        squeezed = (squeezed & ((1 << p) - 1)) | ((squeezed >> (p + 1)) << p)
        m ^= 1 << p
    return squeezed


def index(mover: int, opponent: int) -> int:
    """A position's place in the table: the mover's set's rank times 1330, plus the rank of
    the opponent's set among the 21 points the mover leaves free."""
    r24, r21 = ranks()
    return r24[mover] * 1330 + r21[_squeeze(opponent, mover)]


def index34(mover: int, opponent: int) -> int:
    """A three-against-four position's place in its class's bytes: the mover's set's rank
    times the number of the opponent's sets, plus the opponent's set's rank among the points
    the mover leaves free (three of 24 against four of 21, or four of 24 against three of
    20)."""
    mine = mover.bit_count()
    free = 24 - mine
    other = 7 - mine
    per = 5985 if mine == 3 else 1140
    return set_ranks(24, mine)[mover] * per + set_ranks(free, other)[_squeeze(opponent, mover)]


class EndgameTable:
    """The lookups the search makes; a file is read on its first one. `three_four`: whether
    three against four is looked up too (the rules must fit it: `why_not34`)."""

    def __init__(self, path: Path | None = None, *, three_four: bool = False,
                 path34: Path | None = None) -> None:
        self._path = path
        self._table: bytes | None = None
        self.three_four = three_four
        self._path34 = path34
        self._tables34: tuple[bytes, bytes] | None = None

    @property
    def table(self) -> bytes:
        if self._table is None:
            self._table = load(self._path) if self._path is not None else _shipped()
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

    @property
    def tables34(self) -> tuple[bytes, bytes]:
        if self._tables34 is None:
            self._tables34 = load34(self._path34)
            log.debug("three-against-four database loaded")
        return self._tables34

    def result(self, game: Game) -> int | None:
        """The result for the side to act where a database holds the position: 0 a draw,
        d > 0 a win in d actions, -d a loss in d; None elsewhere, or when the game's
        quiet-move limit could end it as a draw first."""
        bb = game._bb
        s = game._side
        mine, theirs = bb[s].bit_count(), bb[s ^ 1].bit_count()
        if mine == 3 and theirs == 3:
            d = self.probe(game)
            return None if d is None else (d if not d & 1 else -d)
        if not self.three_four or mine + theirs != 7 or min(mine, theirs) != 3:
            return None
        if game.in_hand(0) or game.in_hand(1) or game.pending_removals:
            return None
        p34, p43 = self.tables34
        byte = (p34 if mine == 3 else p43)[index34(bb[s], bb[s ^ 1])]
        if not byte:
            return 0
        d = byte - LOSS if byte >= LOSS else byte
        limit = game.rules.quiet_move_limit
        if limit is not None and game._quiet + d - 1 >= limit:
            return None
        return -d if byte >= LOSS else d


@lru_cache(maxsize=2)
def shared(three_four: bool = False) -> EndgameTable:
    """The process's tables (each file read once, on its first lookup)."""
    return EndgameTable(three_four=three_four)


def table_for(rules: Rules) -> EndgameTable | None:
    """The tables that give `rules`' exact results (three against four where it fits), or
    None."""
    if not qualifies(rules):
        return None
    return shared(why_not34(rules) is None)
