"""The move log both boards keep: every move numbered, chained and signed, applied once.

A move is applied only when it is the next number, chained to the last one applied, by the
side to act, legal under the rules and signed with the game's key. Anything else is named:
the same move again (a broker may deliver twice) is a duplicate and changes nothing; a move
from further ahead means moves were missed, which the other board's snapshot fills; a move of
an earlier era (made before a takeback both agreed to) is stale and never applied, whatever
its number; the same number with other content is a fork, which stops the game rather than
guess. So neither a
dropped connection, a restarted broker nor a restarted board can lose, repeat or reorder a
move, whatever the broker does.
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass

from navakankari.engine.errors import RulesError
from navakankari.engine.game import Game
from navakankari.hal.words import N_, Phrase

from .code import GameCode
from .messages import MAX_MOVES, SIDES, Move, Snapshot, sign

log = logging.getLogger(__name__)


class Verdict(enum.Enum):
    APPLIED = "applied"
    DUPLICATE = "duplicate"  #: already applied, the same move: nothing to do
    GAP = "gap"  #: moves are missing before it (or a takeback): catch up, ask the other
    STALE = "stale"  #: made before a takeback both agreed to: withdrawn, never applied
    FORK = "fork"  #: another move under the same number: the boards disagree
    REJECTED = "rejected"  #: not a move this game can take


@dataclass(frozen=True)
class Received:
    verdict: Verdict
    why: str = ""


class ForkError(RuntimeError):
    """The two boards hold different moves under one number; the game stops there."""


class MoveLog:
    """The signed log of one online game, and the game it plays out."""

    def __init__(self, code: GameCode, game: Game) -> None:
        self.code = code
        self.game = game
        self.moves: list[Move] = []
        self.forked = False
        self.fork = ""  #: where and how the two games differ, once they do
        self.common = 0  #: after a fork, the moves the two games still share (at most)
        self.takebacks: list[int] = []  #: the moves each takeback agreed to kept, in order

    @property
    def era(self) -> int:
        """The takebacks agreed so far: every move made now carries it."""
        return len(self.takebacks)

    @classmethod
    def rebuild(cls, code: GameCode, game: Game, actions: list[str],
                takebacks: list[int] | tuple[int, ...] = ()) -> MoveLog:
        """The log of a game whose actions and takebacks are stored (a board that restarts):
        signing is deterministic, so the rebuilt log is the one both boards held. Move i was
        made in the era of the last takeback that kept fewer than i moves."""
        moves = cls(code, game)
        moves.takebacks = [int(k) for k in takebacks][:MAX_MOVES]
        for i, action in enumerate(actions, 1):
            moves.record(action, max((j for j, k in enumerate(moves.takebacks, 1) if k < i),
                                     default=0))
        return moves

    @property
    def last_mac(self) -> str:
        return self.moves[-1].mac if self.moves else ""

    def record(self, action: str, era: int | None = None) -> Move:
        """This board's own action: checked, applied and signed as the next move (of this
        era, or of `era` when rebuilding)."""
        if self.forked:
            raise ForkError("the game stopped at a fork")
        side = str(self.game.turn)
        self.game.play(action)  # raises IllegalActionError / InvalidNotationError
        move = sign(self.code.key, Move(self.code.game, len(self.moves) + 1, side,
                                        self.game.history[-1].text, self.last_mac,
                                        self.era if era is None else era))
        assert isinstance(move, Move)
        self.moves.append(move)
        return move

    def receive(self, move: Move, sender: str | None = None) -> Received:
        """A move that arrived (its signature already checked by `messages.read`).
        `sender`: the side of the player it came from (the topic it came on): a new move
        must be that side's, whatever side it names."""
        n = len(self.moves)
        if move.n < 1:
            return Received(Verdict.REJECTED, f"move number {move.n}")
        if move.n <= n:
            held = self.moves[move.n - 1]
            if held.mac == move.mac:
                return Received(Verdict.DUPLICATE)  # the same again
            if move.era < held.era:  # late, or replayed, from before a takeback
                return Received(Verdict.STALE, f"move {move.n} ({move.action}) was withdrawn "
                                f"by a takeback both agreed to")
            if move.era > self.era:  # a takeback the other agreed to and this one not yet
                return Received(Verdict.GAP, f"move {move.n} comes after a takeback not "
                                "known here yet")
            return self._forked(Phrase(N_("move {number} is {here} here and {there} there"),
                                       number=move.n, here=held.action, there=move.action),
                                move.n - 1)
        if move.era < self.era:
            return Received(Verdict.STALE, f"move {move.n} ({move.action}) was made before a "
                            "takeback both agreed to")
        if self.forked:
            return Received(Verdict.REJECTED, "the game stopped at a fork")
        if move.n > n + 1 or move.era > self.era:
            return Received(Verdict.GAP, f"move {move.n} of era {move.era} arrived after move "
                            f"{n} of era {self.era}")
        if move.prev != self.last_mac:
            return self._forked(Phrase(N_("move {number} ({action}) follows another move "
                                          "{previous} than this board's"), number=move.n,
                                       action=move.action, previous=n), n - 1)
        if sender is not None and move.side != sender:
            return Received(Verdict.REJECTED, f"move {move.n} is marked {move.side}'s but came "
                            f"from {sender}")
        if move.side not in SIDES or move.side != str(self.game.turn):
            return Received(Verdict.REJECTED, f"move {move.n} is {move.side}'s, but "
                            f"{self.game.turn} is to act")
        try:
            self.game.play(move.action)
        except (RulesError, ValueError) as exc:
            return Received(Verdict.REJECTED, f"move {move.n} {move.action!r}: {exc}")
        self.moves.append(move)
        return Received(Verdict.APPLIED)

    def _forked(self, why: str, common: int) -> Received:
        """The two boards hold different games from after move `common` on: stop here and
        say where, for the page (a takeback to `common` both agree to resumes the game)."""
        self.forked = True
        if not self.fork:
            self.fork, self.common = why, max(0, common)
            log.error("online: the games differ: %s", why)
        return Received(Verdict.FORK, why)

    def truncate(self, keep: int) -> None:
        """Both players agreed to take the game back to `keep` moves: the moves after it are
        withdrawn (of an earlier era now, they are never applied again) and the game goes
        back with them."""
        if not 0 <= keep <= len(self.moves):
            raise ValueError(f"keep must be 0..{len(self.moves)}, not {keep}")
        for _ in self.moves[keep:]:
            self.game.pop()
        del self.moves[keep:]
        self.takebacks.append(keep)
        if self.forked and keep <= self.common:  # back to what both games share
            self.forked, self.fork, self.common = False, "", 0

    def catch_up(self, snapshot: Snapshot) -> list[Received]:
        """Every move of the other board's snapshot in order (duplicates included), until one
        does not apply."""
        out = []
        for move in snapshot.moves:
            got = self.receive(move, snapshot.side)
            out.append(got)
            if got.verdict not in (Verdict.APPLIED, Verdict.DUPLICATE):
                break
        return out

    def snapshot(self, side: str) -> Snapshot:
        """This board's whole log, signed, to keep retained on its own topic."""
        snap = sign(self.code.key, Snapshot(self.code.game, side, tuple(self.moves)))
        assert isinstance(snap, Snapshot)
        return snap
