"""The game code: what one player reads aloud and the other types to join a game.

It carries the game's identity (40 bits) and a secret (60 bits), both known only to the two
players: stretched by scrypt (memory-hard, so guessing a code offline costs tens of
milliseconds and 16 MiB a guess) they give the keys that sign and seal every message and the
names of the game's topics, so someone else on the same broker can neither find, read, forge
nor alter a move. 20 symbols of Crockford's
base 32 (no I, L, O or U, so nothing reads as two letters) and one check symbol, in groups of
three: `K7M-2P9-QRT-AX4-B8C-D3F-GH5`. Typing is forgiving: case, spaces and dashes do not
matter, O is read as 0 and I or L as 1; a mistyped symbol is caught by the check.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from functools import lru_cache

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from navakankari.hal.words import N_, Phrase

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
_VALUE.update({"O": 0, "I": 1, "L": 1})
ID_SYMBOLS = 8  # 40 bits
SECRET_SYMBOLS = 12  # 60 bits
SYMBOLS = ID_SYMBOLS + SECRET_SYMBOLS
GROUP = 3
SECRET_KEYS = ("code", "link")
"""The keys of online play's page state that carry a code, and so the game's secret."""
VERSION = 2
"""The protocol version: in every topic name and in the first byte of every payload."""
LABEL = f"navakankari-online:v{VERSION}:"
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
"""scrypt's cost: 16 MiB and about 0.1 s of one core here (PROTOCOL.md gives the figures)."""


EXAMPLE = "K7M-2P9-QRT-AX4-B8C-D3F-GH5"
"""How a game code looks, for the words that ask for one."""


class InvalidCodeError(ValueError):
    """Text that is not a game code; the message (a phrase) says what is wrong with it."""


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
                raise InvalidCodeError(Phrase(N_("the {part} part must be {length} symbols of "
                                                 "{alphabet}, not {value}"), part=name,
                                              length=length, alphabet=ALPHABET,
                                              value=repr(value)))

    @classmethod
    def new(cls) -> GameCode:
        """A fresh code from the operating system's random source."""
        symbols = "".join(secrets.choice(ALPHABET) for _ in range(SYMBOLS))
        return cls(symbols[:ID_SYMBOLS], symbols[ID_SYMBOLS:])

    def next(self) -> GameCode:
        """The code of the next game between the same two players (a new game both agreed
        to): derived from this game's stretched secret under its own label, so both know it,
        nobody else does, and neither game's keys open the other."""
        symbols = "".join(ALPHABET[b % 32] for b in derive(self.game, self.secret, "next", 20))
        return GameCode(symbols[:ID_SYMBOLS], symbols[ID_SYMBOLS:])

    @property
    def key(self) -> bytes:
        """The key the messages of this game are signed with (HMAC-SHA256)."""
        return derive(self.game, self.secret, "sign")

    @property
    def seal_key(self) -> bytes:
        """The key every payload on the broker is encrypted with (ChaCha20-Poly1305)."""
        return derive(self.game, self.secret, "seal")

    @property
    def room(self) -> str:
        """The name of the game's topics: 32 hex digits only the two players can work out."""
        return derive(self.game, self.secret, "game", 16).hex()

    @property
    def lobby(self) -> str:
        """The name of the invitation's topics, another than the game's: who sees one cannot
        find the other."""
        return derive(self.game, self.secret, "invite", 16).hex()

    def __str__(self) -> str:
        symbols = self.game + self.secret
        symbols += _check(symbols)
        return "-".join(symbols[i:i + GROUP] for i in range(0, len(symbols), GROUP))

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Read a code as typed; an InvalidCodeError says what is wrong."""
        if not isinstance(text, str):
            raise InvalidCodeError(Phrase(N_("a game code is text, not {value}"),
                                          value=repr(text)))
        compact = "".join(text.split()).replace("-", "").upper()
        if len(compact) != SYMBOLS + 1:
            raise InvalidCodeError(Phrase(N_("a game code has {symbols} symbols (as {example}); "
                                             "this has {count}"), symbols=SYMBOLS + 1,
                                          example=EXAMPLE, count=len(compact)))
        bad = [(i + 1, c) for i, c in enumerate(compact) if c not in _VALUE]
        if bad:
            i, c = bad[0]
            raise InvalidCodeError(Phrase(N_("symbol {n} of the game code, {symbol}, is not one "
                                             "a code uses (letters and digits but {left_out})"),
                                          n=i, symbol=repr(c), left_out="U"))
        symbols = "".join(ALPHABET[_VALUE[c]] for c in compact)
        if _check(symbols[:SYMBOLS]) != symbols[SYMBOLS]:
            raise InvalidCodeError(Phrase(N_("the game code does not check: a symbol was "
                                             "mistyped")))
        return cls(symbols[:ID_SYMBOLS], symbols[ID_SYMBOLS:SYMBOLS])


@lru_cache(maxsize=64)
def stretched(game: str, secret: str) -> bytes:
    """scrypt of the secret, salted with the game id: every key and name of the game comes
    from it, so an offline guess of a code costs one scrypt."""
    return hashlib.scrypt(secret.encode(), salt=(LABEL + game).encode(), n=SCRYPT_N,
                          r=SCRYPT_R, p=SCRYPT_P, dklen=32)


def derive(game: str, secret: str, label: str, length: int = 32) -> bytes:
    """One key or name of the game: HKDF-SHA256 of the stretched secret under `label`."""
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None,
                info=(LABEL + label).encode()).derive(stretched(game, secret))
