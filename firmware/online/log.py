"""The move log both boards keep: every move numbered, chained and signed, applied once.

A move is applied only when it is the next number, chained to the last one applied, by the
side to act, legal under the rules and signed with the game's key. Anything else is named:
the same move again (a broker may deliver twice) is a duplicate and changes nothing; a move
from further ahead means moves were missed, which the other board's snapshot fills; the same
number with other content is a fork, which stops the game rather than guess. So neither a
dropped connection, a restarted broker nor a restarted board can lose, repeat or reorder a
move, whatever the broker does.
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass

from navakankari.engine.errors import RulesError
from navakankari.engine.game import Game

from .code import GameCode
from .messages import SIDES, Move, Snapshot, sign

log = logging.getLogger(__name__)


class Verdict(enum.Enum):
    APPLIED = "applied"
    DUPLICATE = "duplicate"  #: already applied, the same move: nothing to do
    GAP = "gap"  #: moves are missing before it: catch up from the snapshot
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
        self.withdrawn: set[str] = set()  #: macs of moves taken back by agreement

    @classmethod
    def rebuild(cls, code: GameCode, game: Game, actions: list[str]) -> MoveLog:
        """The log of a game whose actions are stored (a board that restarts): signing is
        deterministic, so the rebuilt log is the one both boards held."""
        moves = cls(code, game)
        for action in actions:
            moves.record(action)
        return moves

    @property
    def last_mac(self) -> str:
        return self.moves[-1].mac if self.moves else ""

    def record(self, action: str) -> Move:
        """This board's own action: checked, applied and signed as the next move."""
        if self.forked:
            raise ForkError("the game stopped at a fork")
        side = str(self.game.turn)
        self.game.play(action)  # raises IllegalActionError / InvalidNotationError
        move = sign(self.code.key, Move(self.code.game, len(self.moves) + 1, side,
                                        self.game.history[-1].text, self.last_mac))
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
            if self.moves[move.n - 1].mac == move.mac or move.mac in self.withdrawn:
                # the same again, or late from before a takeback both agreed to
                return Received(Verdict.DUPLICATE)
            return self._forked(f"move {move.n} is {self.moves[move.n - 1].action} here and "
                                f"{move.action} there", move.n - 1)
        if self.forked:
            return Received(Verdict.REJECTED, "the game stopped at a fork")
        if move.n > n + 1:
            return Received(Verdict.GAP, f"move {move.n} arrived after move {n}")
        if move.prev != self.last_mac:
            return self._forked(f"move {move.n} ({move.action}) follows another move {n} than "
                                "this board's", n - 1)
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
        self.withdrawn.discard(move.mac)  # the same move made again after a takeback
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
        withdrawn (arriving late, they change nothing) and the game goes back with them."""
        if not 0 <= keep <= len(self.moves):
            raise ValueError(f"keep must be 0..{len(self.moves)}, not {keep}")
        for move in self.moves[keep:]:
            self.withdrawn.add(move.mac)
            self.game.pop()
        del self.moves[keep:]
        if self.forked and keep <= self.common:  # back to what both games share
            self.forked, self.fork, self.common = False, "", 0

    def catch_up(self, snapshot: Snapshot) -> list[Received]:
        """Every move of the other board's snapshot in order (duplicates included), until one
        does not apply."""
        out = []
        for move in snapshot.moves:
            if move.mac in self.withdrawn and move.n > len(self.moves):
                break  # a snapshot from before a takeback both agreed to: the rest is stale
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
