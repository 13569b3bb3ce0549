"""The game code: what one player reads aloud and the other types to join a game.

It carries the game's identity (40 bits, public: it names the broker topics) and a secret
(60 bits, known only to the two players: it keys the signature of every message, so someone
else on the same broker can neither forge nor alter a move). 20 symbols of Crockford's
base 32 (no I, L, O or U, so nothing reads as two letters) and one check symbol, in groups of
three: `K7M-2P9-QRT-AX4-B8C-D3F-GH5`. Typing is forgiving: case, spaces and dashes do not
matter, O is read as 0 and I or L as 1; a mistyped symbol is caught by the check.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
_VALUE.update({"O": 0, "I": 1, "L": 1})
ID_SYMBOLS = 8  # 40 bits
SECRET_SYMBOLS = 12  # 60 bits
SYMBOLS = ID_SYMBOLS + SECRET_SYMBOLS
GROUP = 3
SECRET_KEYS = ("code", "link")
"""The keys of online play's page state that carry a code, and so the game's secret."""


class InvalidCodeError(ValueError):
    """Text that is not a game code; the message says what is wrong with it."""


def _check(symbols: str) -> str:
    return ALPHABET[hashlib.sha256(symbols.encode()).digest()[0] % 32]


@dataclass(frozen=True)
class GameCode:
    """A game's identity and its secret, as 20 symbols of base 32."""

    game: str  #: 8 symbols: the game's public name on the broker
    secret: str  #: 12 symbols: known only to the two players

    def __post_init__(self) -> None:
        for name, value, length in (("game", self.game, ID_SYMBOLS),
                                    ("secret", self.secret, SECRET_SYMBOLS)):
            if len(value) != length or any(c not in ALPHABET for c in value):
                raise InvalidCodeError(f"the {name} part must be {length} symbols of "
                                       f"{ALPHABET}, not {value!r}")

    @classmethod
    def new(cls) -> GameCode:
        """A fresh code from the operating system's random source."""
        symbols = "".join(secrets.choice(ALPHABET) for _ in range(SYMBOLS))
        return cls(symbols[:ID_SYMBOLS], symbols[ID_SYMBOLS:])

    def next(self) -> GameCode:
        """The code of the next game between the same two players (a new game both agreed
        to): derived from this game's key, so both know it and nobody else does."""
        digest = hashlib.sha256(self.key + b"navakankari-online:next").digest()
        symbols = "".join(ALPHABET[b % 32] for b in digest[:SYMBOLS])
        return GameCode(symbols[:ID_SYMBOLS], symbols[ID_SYMBOLS:])

    @property
    def key(self) -> bytes:
        """The key the messages of this game are signed with."""
        return hashlib.sha256(f"navakankari-online:{self.game}:{self.secret}".encode()).digest()

    def __str__(self) -> str:
        symbols = self.game + self.secret
        symbols += _check(symbols)
        return "-".join(symbols[i:i + GROUP] for i in range(0, len(symbols), GROUP))

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Read a code as typed; an InvalidCodeError says what is wrong."""
        if not isinstance(text, str):
            raise InvalidCodeError(f"a game code is text, not {text!r}")
        compact = "".join(text.split()).replace("-", "").upper()
        if len(compact) != SYMBOLS + 1:
            raise InvalidCodeError(f"a game code has {SYMBOLS + 1} symbols (as "
                                   f"K7M-2P9-QRT-AX4-B8C-D3F-GH5); this has {len(compact)}")
        bad = [(i + 1, c) for i, c in enumerate(compact) if c not in _VALUE]
        if bad:
            i, c = bad[0]
            raise InvalidCodeError(f"symbol {i} of the game code, {c!r}, is not one a code uses "
                                   "(letters and digits but U)")
        symbols = "".join(ALPHABET[_VALUE[c]] for c in compact)
        if _check(symbols[:SYMBOLS]) != symbols[SYMBOLS]:
            raise InvalidCodeError("the game code does not check: a symbol was mistyped")
        return cls(symbols[:ID_SYMBOLS], symbols[ID_SYMBOLS:SYMBOLS])
