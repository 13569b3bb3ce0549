"""Narrow errors: text that is not notation, notation that names an illegal action, and a
computer player in another process that gave no usable answer.

The engine imports no catalog, yet a player meets its errors (a position typed to a command,
a move another board sent, a record loaded on the page), so each keeps its meaning as data:
a `Wording`, a catalog message (marked with `N_`, or `Nn_` with its plural) and its named
places. Its text is the English; the firmware words it in the player's language (`words`).
Points, notation, variant names and numbers are places and stay as they are; a place may be
a wording itself (an error inside a record's move), worded in the same language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from .translator import ENGLISH, Translator


@dataclass(frozen=True)
class Wording:
    """A catalog message with its places filled when it is worded: `plural` (with `number`)
    for a message that counts something."""

    message: str
    places: tuple[tuple[str, str | Wording], ...] = ()
    plural: str = ""
    number: int = 0

    @classmethod
    def of(cls, message: str, /, **places: object) -> Wording:
        """`message` (marked N_) with its places; a place that words itself stays one."""
        return cls(message, _kept(places))

    @classmethod
    def counted(cls, forms: tuple[str, str], count: int, /, **places: object) -> Wording:
        """A message and its plural (marked Nn_): each language's form for `count`, which
        fills its place `{count}`."""
        return cls(forms[0], _kept({"count": count, **places}), forms[1], count)

    def words(self, tr: Translator = ENGLISH) -> str:
        """The sentence in `tr`'s language, its wording places too."""
        text = (tr.ngettext(self.message, self.plural, self.number) if self.plural
                else tr.gettext(self.message))
        if not self.places:  # a sentence without places is said as written, braces and all
            return text
        return text.format(**{k: v.words(tr) if isinstance(v, Wording) else v
                              for k, v in self.places})

    def __str__(self) -> str:
        return self.words()


def _kept(places: dict[str, object]) -> tuple[tuple[str, str | Wording], ...]:
    return tuple((k, v.wording if isinstance(v, WordedError)
                  else v if isinstance(v, Wording) else str(v)) for k, v in places.items())


class WordedError(Exception):
    """An error whose text is a `Wording`: made from a catalog message and its places (or a
    wording), its `str` is the English and `words(tr)` the same in `tr`'s language."""

    wording: Wording

    def __init__(self, message: str | Wording, /, **places: object) -> None:
        self.wording = message if isinstance(message, Wording) else Wording.of(message, **places)
        super().__init__(self.words(ENGLISH))

    @classmethod
    def counted(cls, forms: tuple[str, str], count: int, /, **places: object) -> Self:
        """The error whose message counts something (see `Wording.counted`)."""
        return cls(Wording.counted(forms, count, **places))

    @property
    def message(self) -> str:
        """The catalog message (its singular when it has a plural)."""
        return self.wording.message

    @property
    def places(self) -> tuple[tuple[str, str | Wording], ...]:
        return self.wording.places

    @property
    def plural(self) -> str:
        """The message's plural ("" for one without), chosen by `number`."""
        return self.wording.plural

    @property
    def number(self) -> int:
        return self.wording.number

    def words(self, tr: Translator) -> str:
        """The error in `tr`'s language."""
        return self.wording.words(tr)

    def __reduce__(self) -> tuple[Any, ...]:  # another process keeps the wording
        return _remade, (type(self), self.__dict__)


def _remade(cls: type[WordedError], state: dict[str, Any]) -> WordedError:
    error = cls.__new__(cls)
    error.__dict__.update(state)
    Exception.__init__(error, error.words(ENGLISH))
    return error


class RulesError(WordedError):
    """Base of every error the rules engine raises on bad input: text, an action, a variant
    name. A player or a file that fails is not bad input (`PlayerError`, EndgameDataError)."""


class PlayerError(WordedError):
    """A computer player in another process (an installed engine, the search process) gave
    no usable answer; the message names it and the position (`ExternalEngineError`,
    `SearchProcessError`)."""


class InvalidNotationError(RulesError, ValueError):
    """Text that cannot be read as an action, a position or a game record; says where."""


class IllegalActionError(RulesError, ValueError):
    """A well-formed action that the rules do not allow in the current position."""


class UnknownVariantError(RulesError, KeyError):
    """A variant name that is not a preset."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class GameOverError(RulesError, ValueError):
    """An action was asked of a player in a game that is already over."""


class InvalidRulesError(RulesError, ValueError):
    """A rule set whose options do not make a game (a record's Rules tag can write one)."""
