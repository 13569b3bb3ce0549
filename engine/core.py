"""The C core of the morris search (core.c), loaded with ctypes from the compiled build.

`Searcher` hands a morris position to a `CoreSearch` when the core is built, the rules fit
it (`why_not`) and the search uses the standard evaluation; it then runs each iteration's
root and everything below in C, and keeps the iterative deepening, the time planning and
the answer in Python. The core plays exactly as the Python search does to a fixed depth
(the same action, score, depth and nodes): the pure modules stay the reference.
"""

from __future__ import annotations

import ctypes
import logging
import sys
from collections.abc import Callable
from dataclasses import astuple
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import core_tables, endgame, native
from .actions import Action, ActionTable
from .boards import BOARDS
from .core_tables import MAX_ACTIONS, MAX_CAPTURE_LIMIT, MAX_MILLS_AT, MAX_POINTS, NO_RESULT
from .evaluate import MorrisWeights
from .game import Game, zobrist, zobrist_extra
from .rules import AllInMills, BoardFull, Flying, Removals, Rules

log = logging.getLogger(__name__)

#: The table's slots (16 bytes each): 2**21 is 32 MiB, a Pi Zero 2 W's share of its memory.
TT_BITS = 21
#: Cleared at a search's start once it holds more entries than this (three quarters full).
TT_LIMIT = 3 << (TT_BITS - 2)
#: Nodes between two looks at the clock and the stop flag (a fraction of a millisecond).
CHECK_EVERY = 1024
_FLYING = {Flying(value): number for number, value in enumerate(core_tables.FLYING)}

Poll = Callable[[], int]
_POLL = ctypes.CFUNCTYPE(None)
_LOAD = ctypes.CFUNCTYPE(None)
_u32, _u64, _int, _vp = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int, ctypes.c_void_p


def why_not(rules: Rules) -> str | None:
    """Why the core does not search `rules` (None: it does)."""
    if rules.game != "morris":
        return "the core plays the morris family"
    if rules.mill_capture_limit is not None and rules.mill_capture_limit > MAX_CAPTURE_LIMIT:
        return f"the core counts a mill's captures up to {MAX_CAPTURE_LIMIT}"
    if rules.pieces >= 63:
        return "too many pebbles for the core"
    board = BOARDS[rules.board]
    if board.size > MAX_POINTS or max(len(at) for at in board.mills_at) > MAX_MILLS_AT:
        return (f"the core holds boards of up to {MAX_POINTS} points and {MAX_MILLS_AT} mills "
                f"a point, not {board.name}")
    return None


def library_path() -> Path:
    return native.NATIVE_DIR / native.CORE_LIBRARY


@lru_cache(maxsize=1)
def _library() -> ctypes.CDLL | None:
    """The built core, or None: not built, not current with the sources, or NAVAKANKARI_PURE."""
    if not native.state().active:
        return None
    path = library_path()
    if not path.is_file():
        log.debug("engine: no core library at %s", path)
        return None
    lib = ctypes.CDLL(str(path))
    lib.nk_config_new.restype = _vp
    lib.nk_config_new.argtypes = [_int, ctypes.POINTER(_u32), _int, ctypes.POINTER(_u32),
                                  ctypes.POINTER(_int), ctypes.POINTER(_int),
                                  ctypes.POINTER(_u64), ctypes.POINTER(_u64),
                                  ctypes.POINTER(_u64), _int, ctypes.POINTER(_u64),
                                  ctypes.POINTER(_u64), ctypes.POINTER(_u64), _LOAD]
    lib.nk_config_tables.argtypes = [_vp, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
    lib.nk_ctx_new.restype = _vp
    lib.nk_ctx_new.argtypes = [_vp, _int]
    lib.nk_ctx_free.argtypes = [_vp]
    lib.nk_ctx_clear.argtypes = [_vp]
    lib.nk_set_position.argtypes = [_vp, _u32, _u32, _int, _int, _int, _int, _int, _u64,
                                    ctypes.POINTER(_int), ctypes.POINTER(ctypes.c_uint8), _int,
                                    ctypes.POINTER(_u64), ctypes.POINTER(_int)]
    lib.nk_key.restype = _u64
    lib.nk_key.argtypes = [_vp]
    lib.nk_begin.argtypes = [_vp, ctypes.c_long]
    lib.nk_nodes.restype = ctypes.c_longlong
    lib.nk_nodes.argtypes = [_vp]
    lib.nk_legal.argtypes = [_vp, ctypes.POINTER(_int)]
    lib.nk_first.argtypes = [_vp]
    lib.nk_root.argtypes = [_vp, _int, _int, _int, _int, ctypes.c_long, _POLL,
                            ctypes.POINTER(_int), ctypes.POINTER(_int), ctypes.POINTER(_int)]
    lib.nk_tt_move.argtypes = [_vp, _u64]
    lib.nk_evaluate.argtypes = [_vp]
    lib.nk_db_result.argtypes = [_vp]
    lib.nk_push.argtypes = [_vp, _int]
    lib.nk_perft.restype = _u64
    lib.nk_perft.argtypes = [_vp, _int, ctypes.POINTER(_u64)]
    try:  # the core calls back into Python: that needs a closure from libffi
        _POLL(lambda: None)
    except (MemoryError, OSError) as exc:
        log.warning("engine: the C core's callback cannot be made here (%s); "
                    "the Python search plays", exc)
        return None
    return lib


def available() -> bool:
    return _library() is not None


def serves(rules: Rules) -> bool:
    """Whether the core is built here and searches `rules`."""
    return why_not(rules) is None and available()


def rule_flags(rules: Rules, tables: int) -> dict[str, int]:
    """The rule set as the core reads it, by core_tables.RULE_FLAGS' names; `tables` is 0 (no
    endgame database), 1 (three against three) or 2 (and three against four)."""
    limit = rules.mill_capture_limit
    return dict(
        pieces=rules.pieces, flying=_FLYING[rules.flying], threshold=rules.fly_threshold,
        per_mill=rules.removals is Removals.ONE_PER_MILL,
        all_any=rules.all_in_mills is AllInMills.ANY, mip=rules.move_in_placement,
        lose_below=rules.lose_below, blocked_loses=rules.blocked_loses,
        full_first_loses=rules.board_full is BoardFull.FIRST_LOSES,
        rep_draw=rules.repetition_draw or 0,
        quiet_limit=-1 if rules.quiet_move_limit is None else rules.quiet_move_limit,
        tables=tables, limit=-1 if limit is None else limit,
        reform=rules.no_immediate_reform)


def _array(ctype: Any, values: list[int]) -> Any:
    """A C array of `values` (at least one item, so that a pointer to it exists)."""
    return (ctype * max(len(values), 1))(*values)


class _Config:
    """One rule set's board, rules, keys and weights on the C side (made once per rule set)."""

    def __init__(self, lib: ctypes.CDLL, rules: Rules, tables: bool) -> None:
        board = BOARDS[rules.board]
        self.lib = lib
        n = board.size
        pieces = max(rules.pieces, 1)
        zp, zs, zh, zr = zobrist(n, pieces)
        limit = rules.mill_capture_limit
        zc, zm = zobrist_extra(n, len(board.mill_masks), limit or 0)
        table = endgame.table_for(rules) if tables else None
        self.three_four = table is not None and table.three_four
        named = rule_flags(rules, 0 if table is None else 2 if self.three_four else 1)
        flags = [named[name] for name in core_tables.RULE_FLAGS]
        self._load = _LOAD(self._load_tables)  # kept: the C side calls it
        self.handle = lib.nk_config_new(
            n, _array(_u32, list(board.adjacency)), len(board.mill_masks),
            _array(_u32, list(board.mill_masks)), _array(_int, flags),
            _array(_int, list(astuple(MorrisWeights()))),
            _array(_u64, [*zp[0], *zp[1]]), _array(_u64, list(zs)),
            _array(_u64, [*zh[0], *zh[1]]), pieces, _array(_u64, list(zr)),
            _array(_u64, [v for mill in zc for side in mill for v in side]),
            _array(_u64, [v for side in zm for row in side for v in row]), self._load)
        if not self.handle:
            raise ValueError(f"the core cannot hold the {board.name} board")
        self._tables: tuple[bytes, ...] = ()  # kept: the C side reads into these bytes

    def _load_tables(self) -> None:
        """Read the databases on the first lookup, as EndgameTable does (called from C)."""
        table = endgame.shared(self.three_four)
        t33 = t34 = t43 = None
        try:
            t33 = table.table
            if self.three_four:
                t34, t43 = table.tables34
        except endgame.EndgameDataError as exc:  # cannot cross the C frames: search on without
            log.error("engine: %s; the C core searches without the endgame databases", exc)
            t33 = t34 = t43 = None
        self._tables = tuple(t for t in (t33, t34, t43) if t is not None)
        self.lib.nk_config_tables(self.handle, t33, t34, t43)


@lru_cache(maxsize=None)
def _config(rules: Rules, tables: bool) -> _Config | None:
    lib = _library()
    if lib is None or why_not(rules) is not None:
        return None
    return _Config(lib, rules, tables)


class CoreSearch:
    """A search context in C: its table, history and killers carry over from one search to
    the next, as a Searcher's do."""

    def __init__(self, config: _Config, tt_bits: int = TT_BITS) -> None:
        self.config = config
        self.lib = config.lib
        self.handle = self.lib.nk_ctx_new(config.handle, tt_bits)
        if not self.handle:
            raise MemoryError("no memory for the core's table")
        self._acts = (_int * MAX_ACTIONS)()
        self._out = (_int * 6)()
        self._scores = (_int * (2 * MAX_ACTIONS))()
        self._table: ActionTable | None = None

    def __del__(self) -> None:
        handle = getattr(self, "handle", None)
        if handle:
            self.lib.nk_ctx_free(handle)
            self.handle = None

    def clear(self) -> None:
        self.lib.nk_ctx_clear(self.handle)

    def set_position(self, game: Game) -> None:
        g = game  # the morris game's own fields
        rep = g._rep
        keys = _array(_u64, list(rep))
        counts = _array(_int, list(rep.values()))
        last = _array(_int, [-1 if m is None else m[0] << 5 | m[1]
                             for m in g._last_move])  # type: ignore[attr-defined]
        mills = _array(ctypes.c_uint8, list(g._mill_counts))  # type: ignore[attr-defined]
        if self.lib.nk_set_position(self.handle, g._bb[0], g._bb[1], g.in_hand(0), g.in_hand(1),
                                    g._side, g.pending_removals, g._quiet,
                                    g._bkey, last, mills, len(rep), keys,  # type: ignore[attr-defined]
                                    counts):
            raise ValueError("the core cannot hold this position")
        self._table = game.actions_table

    def begin(self, game: Game) -> None:
        """A search's start: the position, and the table and statistics made ready."""
        self.set_position(game)
        self.lib.nk_begin(self.handle, TT_LIMIT)

    @property
    def nodes(self) -> int:
        return int(self.lib.nk_nodes(self.handle))

    def action(self, code: int) -> Action:
        """The game's own action for a core's number (the position must be set)."""
        table = self._table
        assert table is not None, "no position set"
        kind, origin, target = code >> 10, code >> 5 & 31, code & 31
        if kind == 0:
            return table.place[target]
        if kind == 2:
            return table.remove[target]
        move = table.move[origin][target]
        assert move is not None
        return move

    def legal(self) -> list[Action]:
        n = self.lib.nk_legal(self.handle, self._acts)
        return [self.action(self._acts[i]) for i in range(n)]

    def first(self) -> Action:
        return self.action(self.lib.nk_first(self.handle))

    def root(self, depth: int, all_scores: bool, lmr_after: int, lmr_min_depth: int,
             poll: Poll) -> tuple[int, Action, tuple[tuple[Action, int], ...]] | None:
        """One iteration: (score, action, root scores), or None when `poll` stopped it
        (`partial` then says what it had found)."""
        out, scores = self._out, self._scores
        halt = _int(0)
        caught: list[BaseException] = []

        def guarded() -> None:
            # No exception can cross the C frames (ctypes prints and drops it, and a Ctrl-C
            # would be lost): one here stops the search and is raised again below.
            try:
                if poll():
                    halt.value = 1
            except BaseException as exc:  # noqa: BLE001 - raised again once the search is out of C
                caught.append(exc)
                halt.value = 1

        def unraisable(event: Any) -> None:
            # A signal's exception is raised as the callback starts, before its `try`:
            # ctypes hands it to sys.unraisablehook, where it stops the search as well.
            if event.object is guarded:
                caught.append(event.exc_value)
                halt.value = 1
            else:
                previous(event)

        previous = sys.unraisablehook
        sys.unraisablehook = unraisable
        try:
            n = self.lib.nk_root(self.handle, depth, all_scores, lmr_after, lmr_min_depth,
                                 CHECK_EVERY, _POLL(guarded), ctypes.byref(halt), out, scores)
        finally:
            if sys.unraisablehook is unraisable:
                sys.unraisablehook = previous
        if caught:
            raise caught[0]
        if n < 0:
            return None
        pairs = tuple((self.action(scores[2 * i]), scores[2 * i + 1])
                      for i in range(n)) if all_scores else ()
        return out[1], self.action(out[0]), pairs

    def partial(self) -> tuple[Action, int] | None:
        """The best root action and score a stopped iteration had found, if any."""
        out = self._out
        return (self.action(out[4]), out[5]) if out[3] else None

    @staticmethod
    def code(action: Action) -> int:
        """The core's number of an action (kind, origin, target in bits)."""
        return int(action.kind) << 10 | max(action.origin, 0) << 5 | action.target

    def push(self, action: Action) -> int:
        """Play `action` on the core's position; returns the key after it."""
        if self.lib.nk_push(self.handle, self.code(action)):
            raise ValueError("the core's game is too long")
        return int(self.lib.nk_key(self.handle))

    def table_move(self, key: int) -> str | None:
        code = self.lib.nk_tt_move(self.handle, key)
        return None if code < 0 else self.action(code).text

    def evaluate(self) -> int:
        return int(self.lib.nk_evaluate(self.handle))

    def db_result(self) -> int | None:
        r = int(self.lib.nk_db_result(self.handle))
        return None if r == NO_RESULT else r

    def perft(self, depth: int) -> tuple[int, int]:
        """Leaves and positions made, as perft.perft counts them."""
        made = _u64(0)
        leaves = self.lib.nk_perft(self.handle, depth, ctypes.byref(made))
        return int(leaves), int(made.value)


def core_for(game: Game, endgame_tables: bool = True, tt_bits: int = TT_BITS
             ) -> CoreSearch | None:
    """A fresh core context for `game`'s rules (a table of 2**tt_bits slots), or None where
    the core does not serve them."""
    config = _config(game.rules, endgame_tables)
    return None if config is None else CoreSearch(config, tt_bits)
