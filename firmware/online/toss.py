"""Who starts, decided by a toss neither board can bias: commit, then reveal.

The inviting board picks a random bit and a random nonce and sends only a commitment to them
(a hash bound to this game); the joining board answers with its own bit in the open; then
the inviter reveals its bit and nonce, which must match the commitment. White starts when the
two bits are equal. The joiner chose without knowing the inviter's bit, and the inviter was
bound to its bit before it saw the joiner's.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from navakankari.hal.words import N_, Phrase


class TossError(ValueError):
    """A reveal that does not open the commitment made: the toss is void (`problem`, a
    phrase the page words in its language)."""

    def __init__(self, problem: Phrase) -> None:
        self.problem = problem
        super().__init__(problem)


def commitment(game: str, nonce: str, bit: int) -> str:
    return hashlib.sha256(f"navakankari-toss:{game}:{nonce}:{bit}".encode()).hexdigest()


@dataclass(frozen=True)
class Committed:
    """The inviter's side of a toss: kept private until the reveal."""

    game: str
    nonce: str
    bit: int

    @classmethod
    def new(cls, game: str) -> Committed:
        return cls(game, secrets.token_hex(16), secrets.randbits(1))

    @property
    def commit(self) -> str:
        return commitment(self.game, self.nonce, self.bit)


def random_bit() -> int:
    """The joining board's bit."""
    return secrets.randbits(1)


def starter(game: str, commit: str, nonce: str, bit: int, other_bit: int) -> str:
    """"white" or "black": the side that starts, once the reveal is checked."""
    if bit not in (0, 1) or other_bit not in (0, 1):
        raise TossError(Phrase(N_("a toss bit is 0 or 1")))
    if not hmac.compare_digest(commitment(game, nonce, bit), commit):
        raise TossError(Phrase(N_("the revealed bit does not match the commitment: the toss is "
                                  "void")))
    return "white" if bit == other_bit else "black"
