"""What every game offers, whatever its family: turns, legal actions, push/pop, outcome.

The two families (morris.py: place, move, mill, remove; jump.py: Nau Keti Keta) keep their
state in plain ints and lists and restore it exactly on pop from a snapshot. The public
surface is written once here.
"""

from __future__ import annotations

import logging
import random
from abc import ABC, abstractmethod
from functools import lru_cache
from typing import TypeVar

from .actions import Action, ActionKind, ActionTable, table_for
from .boards import BOARDS, Board
from .errors import GameOverError, IllegalActionError, InvalidNotationError, Wording
from .outcome import PHASES, Outcome, Phase, Reason, Side, game_over, side_wording
from .rules import Rules
from .translator import N_

log = logging.getLogger(__name__)

G = TypeVar("G", bound="Game")


@lru_cache(maxsize=None)
def zobrist(size: int, max_hand: int = 32) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...],
                                                      tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Fixed random keys: per side and point, per side to move, per pebbles in hand, per
    pending removals. Seeded, so a position has the same key in every process."""
    rnd = random.Random(0x4E41564B)
    pieces = tuple(tuple(rnd.getrandbits(64) for _ in range(size)) for _ in range(2))
    side = (0, rnd.getrandbits(64))
    hand = tuple(tuple(rnd.getrandbits(64) if n else 0 for n in range(max_hand + 1))
                 for _ in range(2))
    pending = tuple(rnd.getrandbits(64) if n else 0 for n in range(8))
    return pieces, side, hand, pending


@lru_cache(maxsize=None)
def zobrist_extra(size: int, mills: int, max_count: int) -> tuple[
        tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    """Keys for the rule state beyond pebbles and hands: per mill, side and capture count
    (0 keyed 0), and per side, origin and target of a remembered move. A seed of their own,
    so the keys of `zobrist` (and every key of the standard game) stay as they were."""
    rnd = random.Random(0x4E41564C)
    counts = tuple(tuple(tuple(rnd.getrandbits(64) if n else 0 for n in range(max_count + 1))
                         for _ in range(2)) for _ in range(mills))
    moves = tuple(tuple(tuple(rnd.getrandbits(64) for _ in range(size)) for _ in range(size))
                  for _ in range(2))
    return counts, moves


class Game(ABC):
    """A game in progress under one rule set.

    `push` trusts its action (the search calls it millions of times); `play` checks it
    first. `pop` restores the exact previous state, hash and repetition counts included.
    """

    rules: Rules
    board: Board
    actions_table: ActionTable

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.board = board = BOARDS[rules.board]
        self.actions_table = table_for(board)
        self.history: list[Action] = []
        self._adj = board.adjacency
        self._full = board.full
        self._zp, self._zs, self._zh, self._zr = zobrist(board.size, max(rules.pieces, 1))
        self._track_rep = rules.repetition_draw is not None

    # Every family keeps these in the same fields: _bb (a mask per side), _side, _key (the
    # 64-bit hash), _quiet (moves since the last capture) and _rep (key -> occurrences).
    _bb: list[int]
    _side: int
    _key: int
    _quiet: int
    _rep: dict[int, int]

    @property
    def turn(self) -> Side:
        return Side(self._side)

    @property
    def key(self) -> int:
        """A 64-bit hash of the whole rule state: pebbles, side to move, hands, pending
        removals, and where the rules use them each mill's capture count and the move a
        pebble may not undo to capture again. Equal keys: the same legal actions now and
        after every action (history-only endings, repetition and the quiet-move count, aside)."""
        return self._key

    @property
    def quiet_moves(self) -> int:
        """Moves in a row without a capture (for the move-count draw)."""
        return self._quiet

    def pieces(self, side: int) -> int:
        """Mask of the points holding `side`'s pebbles."""
        return self._bb[side]

    def _count_repetition(self) -> None:
        self._rep[self._key] = self._rep.get(self._key, 0) + 1

    def _uncount_repetition(self) -> None:
        k = self._key
        n = self._rep[k] - 1
        if n:
            self._rep[k] = n
        else:
            del self._rep[k]

    # -- what a family implements ------------------------------------------------------
    @property
    @abstractmethod
    def phase(self) -> Phase: ...

    @abstractmethod
    def in_hand(self, side: int) -> int: ...

    def legal_actions(self) -> list[Action]:
        """Every legal action of the side to move; empty when the game is over."""
        if self._terminal_by_count() is not None:
            return []
        return self._generate()

    @abstractmethod
    def push(self, action: Action) -> None:
        """Apply a legal action (not checked: use `play` for untrusted input)."""

    @abstractmethod
    def pop(self) -> Action:
        """Undo the last action and return it."""

    @abstractmethod
    def _terminal_by_count(self) -> Outcome | None:
        """The end that needs no move generation: too few pebbles, a draw by rule."""

    @abstractmethod
    def _generate(self) -> list[Action]:
        """The side to move's actions, whatever the counts say."""

    def _has_action(self) -> bool:
        """Whether the side to move has any action; a family answers without listing them."""
        return bool(self._generate())

    def outcome(self) -> Outcome | None:
        """The result if the game is over, else None."""
        done = self._terminal_by_count()
        if done is not None:
            return done
        if self._has_action():
            return None
        return self._no_action_outcome()

    def _no_action_outcome(self) -> Outcome:
        """The side to move has no legal action."""
        if self.rules.blocked_loses:
            return Outcome(Side(self._side ^ 1), Reason.BLOCKED)
        return Outcome(None, Reason.BLOCKED)

    def ended_by_rule(self) -> Outcome | None:
        """The result by pebble count, repetition or quiet moves, if any: the endings that
        need no action generation. A search must ask this before its transposition table,
        whose keys know nothing of the game's history."""
        return self._terminal_by_count()

    @abstractmethod
    def position(self) -> str:
        """The position as a string that `from_position` reads back."""

    @classmethod
    @abstractmethod
    def from_position(cls: type[G], rules: Rules, text: str) -> G: ...

    def copy(self: G) -> G:
        """An independent game with the same position and history (pop works on both)."""
        cls = type(self)
        other = cls(self.rules)
        # A compiled game has no __dict__; its class lists its attributes instead.
        names = getattr(cls, "__mypyc_attrs__", None) or tuple(self.__dict__)
        for name in names:
            if name == "__dict__":
                continue
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, (list, dict)) else value)
        return other

    # -- the shared surface --------------------------------------------------------------
    @property
    def pending_removals(self) -> int:
        return 0

    def takeable(self) -> int:
        """Mask of the opposing pebbles the side to act may take by removal now (none in a
        family that takes by jumping)."""
        return 0

    def last_mills(self) -> tuple[int, ...]:
        """Masks of the mills the last action closed (none in a family without mills)."""
        return ()

    @property
    def occupancy(self) -> int:
        return self.pieces(Side.WHITE) | self.pieces(Side.BLACK)

    def on_board(self, side: int) -> int:
        return self.pieces(side).bit_count()

    def captured(self, side: int) -> int:
        """How many of `side`'s pebbles the opponent has taken."""
        return self.rules.pieces - self.in_hand(side) - self.on_board(side)

    def is_over(self) -> bool:
        return self.outcome() is not None

    def _check_not_over(self) -> None:
        outcome = self.outcome()
        if outcome is not None:
            raise game_over(outcome, N_("the game is over ({outcome}); no action can be "
                                        "played"))

    def colour_at(self, point: int) -> Side | None:
        bit = 1 << point
        if self.pieces(Side.WHITE) & bit:
            return Side.WHITE
        if self.pieces(Side.BLACK) & bit:
            return Side.BLACK
        return None

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def parse(self, text: str) -> Action:
        """The game's own Action for one action in notation (`d6`, `a1-a4`, `xd7`), checked
        against the position: InvalidNotationError for text that is no action on this
        board, IllegalActionError for one the rules forbid here, GameOverError when the
        game has ended."""
        return self.parse_action(text)

    def parse_action(self, text: str) -> Action:
        """Read one action in notation and check it is legal here."""
        text = text.strip()
        if not text:
            raise InvalidNotationError(N_("empty action"))
        if self.is_over():
            self._check_notation(text)
            self._check_not_over()
        for action in self.legal_actions():
            if action.text == text:
                return action
        self._check_notation(text)
        why = self._why_illegal(text)
        legal = (" ".join(a.text for a in self.legal_actions())
                 or Wording.of(N_("none, the game is over")))
        if why is None:
            raise IllegalActionError(N_("{action} is not legal here ({side} to act, {state}); "
                                        "legal: {legal}"), action=text,
                                     side=side_wording(self.turn), state=self._describe_state(),
                                     legal=legal)
        raise IllegalActionError(N_("{action} is not legal here: {why} ({side} to act, "
                                    "{state}); legal: {legal}"), action=text, why=why,
                                 side=side_wording(self.turn), state=self._describe_state(),
                                 legal=legal)

    def parse_actions(self, token: str) -> list[Action]:
        """Read a token that may combine a move and its removals (`a1-a4xd7`), checking each
        against the position it is played in; the game is left unchanged."""
        parts = self._split_combined(token.strip())
        out: list[Action] = []
        try:
            for k, part in enumerate(parts):
                if k and part.startswith("x") and not self.pending_removals:
                    raise IllegalActionError(N_("{token}: {action} closes no mill, so it takes "
                                                "no pebble ({part} is not part of it)"),
                                             token=token.strip(), action=parts[0], part=part)
                action = self.parse_action(part)
                out.append(action)
                self.push(action)
        finally:
            for _ in out:
                self.pop()
        return out

    def play(self, text_or_action: str | Action) -> list[Action]:
        """Apply an action given as text (combined forms allowed) or as a value, checked."""
        if isinstance(text_or_action, Action):
            self._check_not_over()
            if not self.is_legal(text_or_action):
                raise IllegalActionError(N_("{action} is not legal here"), action=text_or_action)
            actions = [text_or_action]
        else:
            actions = self.parse_actions(text_or_action)
        for action in actions:
            self.push(action)
        return actions

    def record(self, combined: bool = False) -> str:
        """The game record: one action per token, separated by spaces. `combined` joins each
        removal to the action that earned it (`g7xd1`, `a1-a4xd7xb6`), a form `play` and
        `play_record` read back."""
        if not combined:
            return " ".join(a.text for a in self.history)
        tokens: list[str] = []
        for a in self.history:
            if a.kind == ActionKind.REMOVE and tokens and self.rules.game == "morris":
                tokens[-1] += a.text
            else:
                tokens.append(a.text)
        return " ".join(tokens)

    def play_record(self, text: str) -> None:
        """Play every token of a record; a bad token raises an error naming its number."""
        for n, token in enumerate(text.split(), start=1):
            try:
                self.play(token)
            except (InvalidNotationError, IllegalActionError, GameOverError) as exc:
                raise type(exc)(N_("token {number} ({token}): {problem}"), number=n,
                                token=token, problem=exc) from None

    def _split_combined(self, token: str) -> list[str]:
        return [token]

    def _check_notation(self, text: str) -> None:
        """Raise InvalidNotationError when `text` is not even notation for this board."""

    def _why_illegal(self, text: str) -> Wording | None:
        """Why an action written correctly is not legal here (None when nothing simple says)."""
        return None

    def _describe_state(self) -> Wording:
        return Wording.of(PHASES[self.phase])

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.rules.name} {self.position()!r}>"


__all__ = ["Action", "ActionKind", "Game", "Outcome", "Phase", "Reason", "Side", "zobrist",
           "zobrist_extra"]
