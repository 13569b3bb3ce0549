"""Nau Keti Keta (Lau kata kati): step along a line, or capture by jumping.

A capture jumps a neighbouring opposing pebble to the empty point straight behind it; a
chain of jumps is one action (straight within a jump, free to turn between jumps), because
the tracker must see the whole chain before it can tell what the hands did.
"""

from __future__ import annotations

from typing import Any, Final

from .actions import Action, ActionKind, jump
from .errors import InvalidRulesError
from .game import Game, Outcome, Phase, Reason, Side
from .notation import JumpPosition, jump_from_text, jump_to_text, parse_jump_action
from .rules import NoCaptureEnd, Rules
from .translator import N_

MOVE: Final = ActionKind.MOVE
JUMP: Final = ActionKind.JUMP
REMOVE: Final = ActionKind.REMOVE

WHITE_ROWS = ("1", "2", "3")  # white fills the lower triangle, black the upper one
BLACK_ROWS = ("5", "6", "7")


class JumpGame(Game):
    """A jump-capture game on a board with straight lines (no placement, no mills)."""

    def __init__(self, rules: Rules) -> None:
        if rules.game != "jump":
            raise InvalidRulesError(N_("{rules} is not a jumping game"), rules=rules.name)
        super().__init__(rules)
        b = self.board
        self._jumps = b.jumps
        self._chain_cache: dict[tuple[int, tuple[int, ...]], Action] = {}
        white = b.mask(p for p in b.points if p[1:] in WHITE_ROWS)
        black = b.mask(p for p in b.points if p[1:] in BLACK_ROWS)
        if white.bit_count() > rules.pieces or black.bit_count() > rules.pieces:
            raise InvalidRulesError(N_("{rules}: the {board} board starts with more pebbles than "
                                       "{pieces} a side"), rules=rules.name, board=b.name,
                                    pieces=rules.pieces)
        self._stack: list[tuple[Any, ...]] = []
        self._rep: dict[int, int] = {}
        self._set_state(white, black, 0, 0, 1, 0)

    def _set_state(self, white: int, black: int, side: int, quiet: int, fullmove: int,
                   huff: int) -> None:
        self._bb = [white, black]
        self._side = side
        self._quiet = quiet
        self._fullmove = fullmove
        self._huff = huff
        self._bkey = 0
        for s, m in enumerate(self._bb):
            for p in self.board.bits(m):
                self._bkey ^= self._zp[s][p]
        self._key = self._bkey ^ self._zs[side]
        self.history.clear()
        self._stack.clear()
        self._rep = {self._key: 1} if self._track_rep else {}

    # -- state ------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return Phase.OVER if self.outcome() is not None else Phase.MOVING

    def in_hand(self, side: int) -> int:
        return 0

    def captured(self, side: int) -> int:
        start = self.board.mask(p for p in self.board.points
                                if p[1:] in (WHITE_ROWS if side == 0 else BLACK_ROWS))
        return start.bit_count() - self._bb[side].bit_count()

    def huffable(self) -> int:
        """Opposing pebbles the side to move may huff (they could have captured and did not)."""
        return self._huff

    def start_occupancy(self) -> int:
        """Where the pebbles stand at the start: both triangles full, the apex empty."""
        b = self.board
        return b.mask(p for p in b.points if p[1:] in WHITE_ROWS + BLACK_ROWS)

    # -- generation -------------------------------------------------------------------
    def _chains(self, s: int) -> list[Action]:
        """Every capture chain of side `s` (only finished chains when capture is compulsory)."""
        own, opp = self._bb[s], self._bb[s ^ 1]
        jumps = self._jumps
        multi = self.rules.multi_jump
        finish = self.rules.capture_compulsory
        out: list[Action] = []
        cache = self._chain_cache
        board = self.board

        def extend(start: int, pos: int, path: tuple[int, ...], jumped: tuple[int, ...],
                   empty: int, foes: int) -> None:
            grew = False
            if not path or multi:
                for over, land in jumps[pos]:
                    if foes >> over & 1 and empty >> land & 1:
                        grew = True
                        # The jumped pebble stays until the chain ends (as in draughts): it
                        # cannot be jumped twice, and the chain cannot land on its point.
                        extend(start, land, path + (land,), jumped + (over,),
                               (empty | (1 << pos)) & ~(1 << land), foes & ~(1 << over))
            if path and not (grew and finish):
                action = cache.get((start, path))
                if action is None:
                    action = cache[(start, path)] = jump(board, start, path, jumped)
                out.append(action)

        empty = self._full & ~(own | opp)
        for p in board.bits(own):
            extend(p, p, (), (), empty | (1 << p), opp)
        return out

    def _terminal_by_count(self) -> Outcome | None:
        rules = self.rules
        for s in (self._side, self._side ^ 1):
            if self._bb[s].bit_count() < rules.lose_below:
                return Outcome(Side(s ^ 1), Reason.ALL_TAKEN)
        if self._track_rep and self._rep.get(self._key, 0) >= rules.repetition_draw:  # type: ignore[operator]
            return self._no_capture_end(Reason.REPETITION)
        if rules.quiet_move_limit is not None and self._quiet >= rules.quiet_move_limit:
            return self._no_capture_end(Reason.NO_CAPTURES)
        return None

    def _no_capture_end(self, reason: Reason) -> Outcome:
        if self.rules.no_capture_end is NoCaptureEnd.MOST_PEBBLES:
            w, b = self._bb[0].bit_count(), self._bb[1].bit_count()
            if w != b:
                return Outcome(Side.WHITE if w > b else Side.BLACK, reason)
        return Outcome(None, reason)

    def _generate(self) -> list[Action]:
        s = self._side
        captures = self._chains(s)
        table = self.actions_table
        acts: list[Action] = []
        if self._huff:
            acts += table.removes(self._huff)
        if captures and self.rules.capture_compulsory:
            return acts + captures
        empty = self._full & ~(self._bb[0] | self._bb[1])
        adj = self._adj
        steps = table.steps
        for a in self.board.bits(self._bb[s]):
            acts += steps[a][adj[a] & empty]
        return acts + captures

    def _has_action(self) -> bool:
        # A step means an action (a capture instead, when captures are compulsory).
        if self._huff:
            return True
        s = self._side
        empty = self._full & ~(self._bb[0] | self._bb[1])
        adj = self._adj
        if any(adj[a] & empty for a in self.board.bits(self._bb[s])):
            return True
        return bool(self._chains(s))

    # -- make / unmake ------------------------------------------------------------------
    def push(self, action: Action) -> None:
        s = self._side
        o = s ^ 1
        bb = self._bb
        zp = self._zp
        self._stack.append((bb[0], bb[1], s, self._quiet, self._bkey, self._key, self._huff,
                            self._fullmove))
        self.history.append(action)
        kind = action.kind
        if kind == REMOVE:  # a huff: the turn goes on
            t = action.target
            bb[o] &= ~(1 << t)
            self._bkey ^= zp[o][t]
            self._huff = 0
        else:
            next_huff = 0
            if self.rules.huffing and kind == MOVE:
                for chain in self._chains(s):
                    next_huff |= 1 << chain.origin
            a, t = action.origin, action.target
            if a != t:
                bb[s] ^= (1 << a) | (1 << t)
                self._bkey ^= zp[s][a] ^ zp[s][t]
            if kind == JUMP:
                for j in action.jumped:
                    bb[o] &= ~(1 << j)
                    self._bkey ^= zp[o][j]
                self._quiet = 0
            else:
                self._quiet += 1
            if next_huff >> a & 1:  # the pebble that could have captured moved on
                next_huff = (next_huff & ~(1 << a)) | (1 << t)
            self._huff = next_huff
            self._side = o
            if s:
                self._fullmove += 1
        self._key = self._bkey ^ self._zs[self._side]
        if self._track_rep:
            self._count_repetition()

    def pop(self) -> Action:
        action = self.history.pop()
        if self._track_rep:
            self._uncount_repetition()
        (b0, b1, self._side, self._quiet, self._bkey, self._key, self._huff,
         self._fullmove) = self._stack.pop()
        self._bb[0] = b0
        self._bb[1] = b1
        return action


    # -- notation -----------------------------------------------------------------------
    def _check_notation(self, text: str) -> None:

        if text.startswith("x"):
            self.board.index(text[1:])
            return
        parse_jump_action(self.board, text)

    def position_record(self) -> JumpPosition:
        """This position as the plain record its string is written from."""
        return JumpPosition(self._bb[0], self._bb[1], self._side, self._quiet, self._fullmove,
                            self.huffable())

    def position(self) -> str:
        return jump_to_text(self.board, self.position_record())

    @classmethod
    def from_position(cls, rules: Rules, text: str) -> "JumpGame":
        record = jump_from_text(rules, text)
        game = cls(rules)
        game._set_state(record.white, record.black, record.side, record.quiet, record.fullmove,
                        record.huff)
        return game
