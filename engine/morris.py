"""The morris family: place, move (or fly), close a mill, remove.

State lives in a few ints; a removal is its own action of the same player (as in Sanmill),
so a mill leaves the same side to act with `pending_removals` > 0.
"""

from __future__ import annotations

from .actions import Action, ActionKind
from .errors import InvalidNotationError
from .game import Game, Outcome, Phase, Side
from .rules import AllInMills, BoardFull, Flying, Removals, Rules

PLACE = ActionKind.PLACE
MOVE = ActionKind.MOVE
REMOVE = ActionKind.REMOVE


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
        self._last_move: tuple[tuple[int, int] | None, tuple[int, int] | None] = (None, None)
        self._quiet = 0
        self._last_mills: tuple[int, ...] = ()
        self._bkey = 0
        self._key = self._full_key()
        self._stack: list[tuple] = []
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

    @property
    def phase(self) -> Phase:
        if self.outcome() is not None:
            return Phase.OVER
        return Phase.PLACING if (self._hand[0] or self._hand[1]) else Phase.MOVING

    @property
    def pending_removals(self) -> int:
        return self._pending

    def in_hand(self, side: Side) -> int:
        return self._hand[side]

    def takeable(self) -> int:
        """Mask of the opposing pebbles the side to move may take (0 unless removing)."""
        return self._takeable(self._side ^ 1) if self._pending else 0

    def last_mills(self) -> tuple[int, ...]:
        """Masks of the mills the last placement or move closed (also while removing)."""
        return self._last_mills

    def mill_count(self, side: Side, mill: int) -> int:
        """How many times `side` has formed mill number `mill` (for the capture limit)."""
        return self._mill_counts[2 * mill + side]

    def can_fly(self, side: Side) -> bool:
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
        for s in (self._side, self._side ^ 1):
            if hand[s] + bb[s].bit_count() < rules.lose_below:
                return Outcome(Side(s ^ 1), "too-few-pebbles")
        if self._track_rep and self._rep.get(self._key, 0) >= rules.repetition_draw:  # type: ignore[operator]
            return Outcome(None, "repetition")
        if rules.quiet_move_limit is not None and self._quiet >= rules.quiet_move_limit:
            return Outcome(None, "quiet-moves")
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
                acts += [row[b] for b in targets]
        else:
            adj = self._adj
            steps = table.steps
            for a in bits(own):
                acts += steps[a][adj[a] & empty]
        return acts

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
                if self._reform:
                    self._last_move = (None, self._last_move[1]) if s == 0 else (self._last_move[0], None)
            else:
                a = action.origin
                bb[s] ^= (1 << a) | (1 << t)
                zp = self._zp[s]
                self._bkey ^= zp[a] ^ zp[t]
                self._quiet += 1
                if self._reform:
                    lm = self._last_move
                    rebuilt = lm[s] == (t, a)
                    self._last_move = ((a, t), lm[1]) if s == 0 else (lm[0], (a, t))
            own = bb[s]
            closed = 0
            formed: tuple[int, ...] = ()
            for k, m in self._mills_at[t]:
                if own & m == m:
                    formed += (m,)
                    if self._limit is not None:
                        counts = self._mill_counts
                        n = counts[2 * k + s]
                        self._mill_counts = counts[:2 * k + s] + (n + 1,) + counts[2 * k + s + 1:]
                        if n >= self._limit:
                            continue
                    if not rebuilt:
                        closed += 1
            self._last_mills = formed
            if closed and self._takeable(s ^ 1):
                self._pending = closed if self._per_mill else 1
            else:
                self._end_turn(s)
        self._key = self._full_key()
        if self._track_rep and not (hand[0] or hand[1]):
            self._count_repetition()

    def _end_turn(self, s: int) -> None:
        self._side = s ^ 1
        if s:
            self._fullmove += 1

    def pop(self) -> Action:
        action = self.history.pop()
        if self._track_rep and not (self._hand[0] or self._hand[1]):
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
                return Outcome(Side.BLACK, "board-full")
            return Outcome(None, "board-full")
        return super()._no_action_outcome()

    # -- notation -----------------------------------------------------------------------
    def _split_combined(self, token: str) -> list[str]:
        head, sep, rest = token.partition("x")
        if not sep or not head:
            return [token]
        return [head] + ["x" + r for r in rest.split("x")]

    def _check_notation(self, text: str) -> None:
        from .notation import parse_morris_action

        parse_morris_action(self.board, text)

    def _why_illegal(self, text: str) -> str:
        from .notation import parse_morris_action

        parsed = parse_morris_action(self.board, text)
        me, names = self.turn, self.board.points

        def held(p: int) -> str:
            colour = self.colour_at(p)
            return f"{names[p]} already holds a {colour} pebble" if colour is not None else ""

        if self.outcome() is not None:
            return "the game is over"
        if self._pending and parsed.kind is not ActionKind.REMOVE:
            return f"{me} first takes a pebble for the mill just closed (x<point>)"
        if parsed.kind is ActionKind.PLACE:
            return held(parsed.points[0]) or (
                "" if self._hand[me] else f"{me} has no pebble left in hand: move one (a-b)")
        if parsed.kind is ActionKind.MOVE:
            a, b = parsed.points
            if self._hand[me] and not self._mip:
                return f"{me} still has pebbles in hand: place one first"
            if self.colour_at(a) is not me:
                return f"{names[a]} holds no {me} pebble"
            if self.colour_at(b) is not None:
                return held(b)
            targets = [x.text.partition("-")[2] for x in self.legal_actions()
                       if x.text.startswith(names[a] + "-")]
            return f"the pebble on {names[a]} can go to {' '.join(targets) or 'no point'}, " \
                   f"not {names[b]}"
        if not self._pending:
            return "no pebble is to be taken: a removal follows a mill"
        if self.colour_at(parsed.points[0]) is not me.other:
            return f"{names[parsed.points[0]]} holds no {me.other} pebble"
        return f"the {me.other} pebble on {names[parsed.points[0]]} may not be taken now"

    def _describe_state(self) -> str:
        if self._pending:
            return f"{self._pending} removal(s) pending"
        return self.phase.value

    def position(self) -> str:
        from .notation import morris_to_fen

        return morris_to_fen(self)

    @classmethod
    def from_position(cls, rules: Rules, text: str) -> "MorrisGame":
        from .notation import morris_from_fen

        return morris_from_fen(rules, text)

    def _set_state(self, white: int, black: int, hand: tuple[int, int], side: int, pending: int,
                   quiet: int, fullmove: int) -> None:
        """Set a position directly (for position strings); clears history."""
        if white & black:
            raise InvalidNotationError("a point holds pebbles of both sides")
        self._bb = [white, black]
        self._hand = list(hand)
        self._side = side
        self._pending = pending
        self._quiet = quiet
        self._fullmove = fullmove
        self._bkey = 0
        for s, m in enumerate(self._bb):
            for p in self.board.bits(m):
                self._bkey ^= self._zp[s][p]
        self._key = self._full_key()
        self.history.clear()
        self._stack.clear()
        self._rep = {}
        if self._track_rep and not (hand[0] or hand[1]):
            self._rep[self._key] = 1
