"""The morris family: place, move (or fly), close a mill, remove.

State lives in a few ints; a removal is its own action of the same player (as in Sanmill),
so a mill leaves the same side to act with `pending_removals` > 0.
"""

from __future__ import annotations

from typing import Any, Final, cast

from .actions import Action, ActionKind
from .errors import InvalidNotationError, Wording
from .game import Game, Outcome, Phase, Reason, Side, zobrist_extra
from .notation import MorrisPosition, morris_from_fen, morris_to_fen, parse_morris_action
from .outcome import side_wording
from .rules import AllInMills, BoardFull, Flying, Removals, Rules
from .translator import N_, Nn_

Move = tuple[int, int]

PLACE: Final = ActionKind.PLACE
MOVE: Final = ActionKind.MOVE
REMOVE: Final = ActionKind.REMOVE


class MorrisGame(Game):
    """Nine Men's Morris and its relatives, every difference taken from `Rules`."""

    def __init__(self, rules: Rules) -> None:
        if rules.game != "morris":
            raise ValueError(f"{rules.name} is not a morris game")
        super().__init__(rules)
        b = self.board
        self._mills = b.mill_masks
        self._mills_at = b.mills_at
        self._bb = [0, 0]
        self._hand = [rules.pieces, rules.pieces]
        self._side = 0
        self._pending = 0
        self._mill_counts: tuple[int, ...] = (0,) * (2 * len(self._mills))
        self._last_move: tuple[Move | None, Move | None] = (None, None)
        self._quiet = 0
        self._last_mills: tuple[int, ...] = ()
        # The key of the pebbles, and of the mill counts and remembered moves (kept in the
        # same int, so the standard game pays nothing for the rules that use them).
        self._bkey = 0
        self._zc, self._zm = zobrist_extra(b.size, len(self._mills),
                                           rules.mill_capture_limit or 0)
        self._key = self._full_key()
        self._stack: list[tuple[Any, ...]] = []
        self._rep: dict[int, int] = {}
        self._fullmove = 1
        self._limit = rules.mill_capture_limit
        self._fly = rules.flying
        self._thr = rules.fly_threshold
        self._per_mill = rules.removals is Removals.ONE_PER_MILL
        self._all_any = rules.all_in_mills is AllInMills.ANY
        self._reform = rules.no_immediate_reform
        self._mip = rules.move_in_placement

    # -- state ------------------------------------------------------------------------
    def _full_key(self) -> int:
        return (self._bkey ^ self._zs[self._side] ^ self._zh[0][self._hand[0]]
                ^ self._zh[1][self._hand[1]] ^ self._zr[self._pending])

    def _extra_key(self) -> int:
        """The key of the mill counts and remembered moves, from scratch."""
        key = 0
        counts = self._mill_counts
        for i, n in enumerate(counts):
            key ^= self._zc[i >> 1][i & 1][n]
        for s, lm in enumerate(self._last_move):
            if lm is not None:
                key ^= self._zm[s][lm[0]][lm[1]]
        return key

    @property
    def phase(self) -> Phase:
        if self.outcome() is not None:
            return Phase.OVER
        return Phase.PLACING if (self._hand[0] or self._hand[1]) else Phase.MOVING

    @property
    def pending_removals(self) -> int:
        return self._pending

    def in_hand(self, side: int) -> int:
        return self._hand[side]

    def takeable(self) -> int:
        """Mask of the opposing pebbles the side to move may take (0 unless removing)."""
        return self._takeable(self._side ^ 1) if self._pending else 0

    def last_mills(self) -> tuple[int, ...]:
        """Masks of the mills the last placement or move closed (also while removing)."""
        return self._last_mills

    def mill_index(self, mill: int | str | tuple[str, ...]) -> int:
        """The number of a mill named by its points (`"a1-a4-a7"` or `("a1", "a4", "a7")`,
        in any order) or given by its number."""
        if isinstance(mill, int):
            if not 0 <= mill < len(self._mills):
                raise IndexError(f"the {self.board.name} board has mills 0..{len(self._mills) - 1}")
            return mill
        names = tuple(mill.split("-")) if isinstance(mill, str) else tuple(mill)
        mask = self.board.mask(names)
        if len(names) == len(set(names)) and mask in self._mills:
            return self._mills.index(mask)
        raise InvalidNotationError(N_("{mill} is not a mill of the {board} board"),
                                   mill="-".join(names), board=self.board.name)

    def mill_count(self, side: int, mill: int | str | tuple[str, ...]) -> int:
        """How many times `side` has formed a mill (for the capture limit; it stops counting
        at the limit, where the mill has no capture left)."""
        return self._mill_counts[2 * self.mill_index(mill) + side]

    def mill_counts(self) -> dict[tuple[str, ...], tuple[int, int]]:
        """Every mill formed so far under a capture limit: its points -> (white, black) counts."""
        counts = self._mill_counts
        return {self.board.names(m): (counts[2 * k], counts[2 * k + 1])
                for k, m in enumerate(self._mills) if counts[2 * k] or counts[2 * k + 1]}

    def remembered_move(self, side: int) -> Move | None:
        """Under `no_immediate_reform`: (origin, target) of `side`'s last move when it broke
        a mill; moving that pebble straight back re-forms the mill and takes nothing."""
        return self._last_move[side]

    def can_fly(self, side: int) -> bool:
        return self._flies(side)

    def _flies(self, s: int) -> bool:
        fly = self._fly
        if fly is Flying.NONE or self._hand[s]:
            return False
        if self._bb[s].bit_count() <= self._thr:
            return True
        if fly is Flying.BOTH:
            o = s ^ 1
            return not self._hand[o] and self._bb[o].bit_count() <= self._thr
        return False

    def _takeable(self, o: int) -> int:
        opp = self._bb[o]
        in_mill = 0
        for m in self._mills:
            if opp & m == m:
                in_mill |= m
        free = opp & ~in_mill
        if free or self._all_any:
            return free or opp
        return 0

    # -- generation -------------------------------------------------------------------
    def _terminal_by_count(self) -> Outcome | None:
        rules = self.rules
        hand, bb = self._hand, self._bb
        # The side to move first, then the other (the search asks this at every node).
        s = self._side
        below = rules.lose_below
        if hand[s] + bb[s].bit_count() < below:
            return Outcome(Side(s ^ 1), Reason.TOO_FEW_PEBBLES)
        if hand[s ^ 1] + bb[s ^ 1].bit_count() < below:
            return Outcome(Side(s), Reason.TOO_FEW_PEBBLES)
        if self._track_rep and self._rep.get(self._key, 0) >= rules.repetition_draw:  # type: ignore[operator]
            return Outcome(None, Reason.REPETITION)
        if rules.quiet_move_limit is not None and self._quiet >= rules.quiet_move_limit:
            return Outcome(None, Reason.QUIET_MOVES)
        return None

    def _generate(self) -> list[Action]:
        s = self._side
        bb = self._bb
        table = self.actions_table
        if self._pending:
            return table.removes(self._takeable(s ^ 1))
        own = bb[s]
        empty = self._full & ~(own | bb[s ^ 1])
        if self._hand[s]:
            acts = table.places(empty)
            if not self._mip:
                return acts
        else:
            acts = []
        bits = self.board.bits
        if self._flies(s):
            targets = bits(empty)
            moves = table.move
            for a in bits(own):
                row = moves[a]
                acts += [cast(Action, row[b]) for b in targets]  # a != b: never None
        else:
            adj = self._adj
            steps = table.steps
            for a in bits(own):
                acts += steps[a][adj[a] & empty]
        return acts

    def _has_action(self) -> bool:
        s = self._side
        bb = self._bb
        if self._pending:
            return bool(self._takeable(s ^ 1))
        own = bb[s]
        empty = self._full & ~(own | bb[s ^ 1])
        if not empty:
            return False
        if self._hand[s] or self._flies(s):
            return True
        adj = self._adj
        return any(adj[a] & empty for a in self.board.bits(own))

    # -- make / unmake ------------------------------------------------------------------
    def push(self, action: Action) -> None:
        s = self._side
        bb = self._bb
        hand = self._hand
        self._stack.append((bb[0], bb[1], hand[0], hand[1], s, self._pending, self._mill_counts,
                            self._last_move, self._quiet, self._bkey, self._key,
                            self._last_mills, self._fullmove))
        self.history.append(action)
        kind = action.kind
        t = action.target
        if kind == REMOVE:
            o = s ^ 1
            bb[o] &= ~(1 << t)
            self._bkey ^= self._zp[o][t]
            lmo = self._last_move[o]
            if self._reform and lmo is not None and lmo[1] == t:
                # The remembered pebble is gone: its move can no longer be undone, and a
                # position string must not name a pebble that is not there.
                self._remember(o, None)
            self._quiet = 0
            self._pending -= 1
            if self._pending and not self._takeable(o):
                self._pending = 0
            if not self._pending:
                self._end_turn(s)
        else:
            rebuilt = False
            if kind == PLACE:
                bb[s] |= 1 << t
                hand[s] -= 1
                self._bkey ^= self._zp[s][t]
                self._quiet = 0
                if self._reform and self._last_move[s] is not None:
                    self._remember(s, None)
            else:
                a = action.origin
                if self._reform:
                    rebuilt = self._last_move[s] == (t, a)
                    own = bb[s]
                    broke = any(own & m == m for _, m in self._mills_at[a])
                    if broke or self._last_move[s] is not None:
                        self._remember(s, (a, t) if broke else None)
                bb[s] ^= (1 << a) | (1 << t)
                zp = self._zp[s]
                self._bkey ^= zp[a] ^ zp[t]
                self._quiet += 1
            own = bb[s]
            closed = 0
            formed: tuple[int, ...] = ()
            for k, m in self._mills_at[t]:
                if own & m == m:
                    formed += (m,)
                    if self._limit is not None:
                        # Every formation counts, whether or not it could take anything
                        # (see Rules.mill_capture_limit); the count stops at the limit.
                        counts = self._mill_counts
                        n = counts[2 * k + s]
                        if n >= self._limit:
                            continue
                        self._mill_counts = counts[:2 * k + s] + (n + 1,) + counts[2 * k + s + 1:]
                        self._bkey ^= self._zc[k][s][n] ^ self._zc[k][s][n + 1]
                    if not rebuilt:
                        closed += 1
            self._last_mills = formed
            if closed and self._takeable(s ^ 1):
                self._pending = closed if self._per_mill else 1
            else:
                self._end_turn(s)
        self._key = self._full_key()
        if self._track_rep and kind == MOVE:
            self._count_repetition()

    def _remember(self, s: int, move: Move | None) -> None:
        """Set the move side `s` may not undo to capture again, keeping the key in step."""
        lm = self._last_move
        zm = self._zm[s]
        old = lm[s]
        if old is not None:
            self._bkey ^= zm[old[0]][old[1]]
        if move is not None:
            self._bkey ^= zm[move[0]][move[1]]
        self._last_move = (move, lm[1]) if s == 0 else (lm[0], move)

    def _end_turn(self, s: int) -> None:
        self._side = s ^ 1
        if s:
            self._fullmove += 1

    def pop(self) -> Action:
        action = self.history.pop()
        if self._track_rep and action.kind == MOVE:
            self._uncount_repetition()
        (b0, b1, h0, h1, self._side, self._pending, self._mill_counts, self._last_move,
         self._quiet, self._bkey, self._key, self._last_mills,
         self._fullmove) = self._stack.pop()
        self._bb[0] = b0
        self._bb[1] = b1
        self._hand[0] = h0
        self._hand[1] = h1
        return action

    # -- outcome ------------------------------------------------------------------------
    def _no_action_outcome(self) -> Outcome:
        if not (self._full & ~(self._bb[0] | self._bb[1])):
            if self.rules.board_full is BoardFull.FIRST_LOSES:
                # Both sides placed every pebble and none was taken (the board is full), so
                # the side to move is the one that placed first, whichever colour began.
                return Outcome(Side(self._side ^ 1), Reason.BOARD_FULL)
            return Outcome(None, Reason.BOARD_FULL)
        return super()._no_action_outcome()

    # -- notation -----------------------------------------------------------------------
    def _split_combined(self, token: str) -> list[str]:
        head, sep, rest = token.partition("x")
        if not sep or not head:
            return [token]
        return [head] + ["x" + r for r in rest.split("x")]

    def _check_notation(self, text: str) -> None:

        parse_morris_action(self.board, text)

    def _why_illegal(self, text: str) -> Wording | None:

        parsed = parse_morris_action(self.board, text)
        me, names = self.turn, self.board.points

        def held(p: int) -> Wording | None:
            colour = self.colour_at(p)
            if colour is None:
                return None
            return Wording.of((N_("{point} already holds a white pebble"),
                               N_("{point} already holds a black pebble"))[colour], point=names[p])

        def holds_no(p: int, side: Side) -> Wording:
            return Wording.of((N_("{point} holds no white pebble"),
                               N_("{point} holds no black pebble"))[side], point=names[p])

        if self.outcome() is not None:
            return Wording.of(N_("the game is over"))
        if self._pending and parsed.kind is not ActionKind.REMOVE:
            return Wording.of(N_("{side} first takes a pebble for the mill just closed "
                                 "(x<point>)"), side=side_wording(me))
        if parsed.kind is ActionKind.PLACE:
            return held(parsed.points[0]) or (
                None if self._hand[me] else Wording.of(N_("{side} has no pebble left in hand: "
                                                          "move one (a-b)"), side=side_wording(me)))
        if parsed.kind is ActionKind.MOVE:
            a, b = parsed.points
            if self._hand[me] and not self._mip:
                return Wording.of(N_("{side} still has pebbles in hand: place one first"),
                                  side=side_wording(me))
            if self.colour_at(a) is not me:
                return holds_no(a, me)
            if self.colour_at(b) is not None:
                return held(b)
            targets = [x.text.partition("-")[2] for x in self.legal_actions()
                       if x.text.startswith(names[a] + "-")]
            if not targets:
                return Wording.of(N_("the pebble on {point} can go to no point, not {target}"),
                                  point=names[a], target=names[b])
            return Wording.of(N_("the pebble on {point} can go to {targets}, not {target}"),
                              point=names[a], targets=" ".join(targets), target=names[b])
        if not self._pending:
            return Wording.of(N_("no pebble is to be taken: a pebble is taken only after a mill"))
        if self.colour_at(parsed.points[0]) is not me.other:
            return holds_no(parsed.points[0], me.other)
        return Wording.of((N_("the white pebble on {point} may not be taken now"),
                           N_("the black pebble on {point} may not be taken now"))[me.other],
                          point=names[parsed.points[0]])

    def _describe_state(self) -> Wording:
        if self._pending:
            return Wording.counted(Nn_("{count} pebble to take", "{count} pebbles to take"),
                                   self._pending)
        return super()._describe_state()

    def position_record(self) -> MorrisPosition:
        """This position as the plain record its string is written from."""
        counts = self._mill_counts
        return MorrisPosition(
            self._bb[0], self._bb[1], (self._hand[0], self._hand[1]), self._side,
            self._pending, self._quiet, self._fullmove,
            {k: (counts[2 * k], counts[2 * k + 1]) for k in range(len(self._mills))
             if counts[2 * k] or counts[2 * k + 1]},
            (self._last_move[0], self._last_move[1]))

    def position(self) -> str:
        return morris_to_fen(self.board, self.position_record())

    @classmethod
    def from_position(cls, rules: Rules, text: str) -> "MorrisGame":
        record = morris_from_fen(rules, text)
        game = cls(rules)
        game._set_state(record.white, record.black, record.hand, record.side, record.pending,
                        record.quiet, record.fullmove, record.mill_counts, record.remembered)
        return game

    def max_pending(self) -> int:
        """The most removals one action can earn under these rules on this board."""
        if not self._per_mill:
            return 1
        return max(len(m) for m in self._mills_at)

    def _set_state(self, white: int, black: int, hand: tuple[int, int], side: int, pending: int,
                   quiet: int, fullmove: int,
                   mill_counts: dict[int, tuple[int, int]] | None = None,
                   remembered: tuple[Move | None, Move | None] = (None, None)) -> None:
        """Set a position directly (for position strings); clears history.

        A position play cannot reach is refused. A removal owed with nothing to take is
        dropped and the turn passes, as in play (`push`), so a loaded position plays on as
        the game that reached it did. The loaded position itself is not counted for
        repetition: only positions reached by moves count (as in Sanmill)."""
        if white & black:
            raise InvalidNotationError(N_("a point holds pebbles of both sides"))
        if pending > self.max_pending():
            raise InvalidNotationError.counted(Nn_(
                "{count} pebble to take: under {rules} one action earns at most {most}",
                "{count} pebbles to take: under {rules} one action earns at most {most}"),
                pending, rules=self.rules.name, most=self.max_pending())
        limit = self.rules.mill_capture_limit
        counts = [0] * (2 * len(self._mills))
        for k, pair in (mill_counts or {}).items():
            for s in (0, 1):
                if limit is None and pair[s]:
                    raise InvalidNotationError(N_("mill counts given, but {rules} does not "
                                                  "limit the pebbles a mill takes"),
                                               rules=self.rules.name)
                counts[2 * k + s] = min(pair[s], limit or 0)
        for s, move in enumerate(remembered):
            if move is None:
                continue
            if not self._reform:
                raise InvalidNotationError(N_("a remembered mill move is given, but {rules} "
                                              "has no such rule"), rules=self.rules.name)
            if not (white, black)[s] >> move[1] & 1:
                raise InvalidNotationError(
                    (N_("the remembered move {move} ends on a point without a white pebble"),
                     N_("the remembered move {move} ends on a point without a black pebble"))[s],
                    move=f"{self.board.points[move[0]]}-{self.board.points[move[1]]}")
        self._bb = [white, black]
        self._hand = list(hand)
        self._side = side
        self._pending = pending
        self._quiet = quiet
        self._fullmove = fullmove
        self._mill_counts = tuple(counts)
        self._last_move = remembered
        self._last_mills = ()
        self._bkey = 0
        for s, m in enumerate(self._bb):
            for p in self.board.bits(m):
                self._bkey ^= self._zp[s][p]
        if pending and not self._takeable(side ^ 1):
            self._pending = 0
            self._end_turn(side)
        self._bkey ^= self._extra_key()
        self._key = self._full_key()
        self.history.clear()
        self._stack.clear()
        self._rep = {}
