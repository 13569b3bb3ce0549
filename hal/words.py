"""Words of the hardware layer that a maker reads (a wiring profile's problems, the uses of
the pins), kept as their meaning so the firmware can say them in the maker's language.

The hardware layer imports no catalog: a `Phrase` is its English text (a `str`, so logs,
tables and the code that compares it read it as before) that also keeps the catalog message it
was made from (marked with `N_` for extraction) and its named places. The firmware words it
with a language's `gettext` (`words(tr)`); a place may itself be a phrase ("GPIO{pin} is used
twice: {first} and {second}", each use a phrase), worded in the same language. Names and
numbers (a point a7, a GPIO, a file) are places and stay as they are. Online play hands its
page texts (a link problem, how a game ended) through the same `str` fields as phrases, and
the page's state words them in the page's language.
"""

from __future__ import annotations

import re
from typing import Protocol


class Words(Protocol):
    """What a phrase needs of a language: the catalog's `gettext` and `ngettext`."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


class Phrase(str):
    """A catalog message with its places filled: its value is the English text."""

    message: str
    plural: str  #: the message's plural, for `number` ("" for a message without one)
    number: int
    places: tuple[tuple[str, str | Phrase], ...]

    def __new__(cls, message: str, /, **places: object) -> Phrase:
        return cls._made(message, "", 0, places)

    @classmethod
    def counted(cls, forms: tuple[str, str], count: int, /, **places: object) -> Phrase:
        """A message with a plural (`forms`, marked with `Nn_`): each language's form for
        `count`."""
        return cls._made(forms[0], forms[1], count, places)

    @classmethod
    def _made(cls, message: str, plural: str, count: int, places: dict[str, object]) -> Phrase:
        kept = tuple((k, v if isinstance(v, Phrase) else str(v)) for k, v in places.items())
        english = plural if plural and count != 1 else message
        self = super().__new__(cls, english.format(**{k: str(v) for k, v in kept}))
        self.message, self.plural, self.number, self.places = message, plural, count, kept
        return self

    def words(self, tr: Words) -> str:
        """The phrase in `tr`'s language (its phrase places too)."""
        text = (tr.ngettext(self.message, self.plural, self.number) if self.plural
                else tr.gettext(self.message))
        return text.format(**{k: v.words(tr) if isinstance(v, Phrase) else v
                              for k, v in self.places})


def words_of(text: str, tr: Words) -> str:
    """`text` in `tr`'s language if it is a phrase; any other text as it is."""
    return text.words(tr) if isinstance(text, Phrase) else text


def phrase_of(exc: BaseException) -> str:
    """An error's text, as a phrase where the error keeps its meaning: one made from a phrase,
    or one that keeps its catalog message and places as data (`message` and `places`, as the
    engine's errors do); any other error (a library's) as it is worded."""
    first = exc.args[0] if exc.args else None
    if isinstance(first, Phrase):
        return first
    message, places = getattr(exc, "message", None), getattr(exc, "places", None)
    if isinstance(message, str) and isinstance(places, (tuple, dict)):
        try:
            return Phrase(message, **dict(places))
        except (KeyError, IndexError, TypeError, ValueError):  # not a message and its places
            pass
    return str(exc)


def N_(message: str) -> str:
    """Marks `message` for the catalogs where it is made; it is translated where shown."""
    return message


def Nn_(one: str, many: str) -> tuple[str, str]:
    """Marks a message and its plural for the catalogs (extracted as `ngettext` is)."""
    return one, many


_TOML_AT = re.compile(r"^(?P<detail>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)$", re.S)
_TOML_END = re.compile(r"^(?P<detail>.*) \(at end of document\)$", re.S)


def toml_problem(exc: ValueError) -> tuple[Phrase, int]:
    """A `tomllib.TOMLDecodeError` as a phrase and the line it names (0: none): the parser's
    own words kept as they are, inside a sentence with the line and column as numbers."""
    text = str(exc)
    at = _TOML_AT.match(text)
    if at:
        line = int(at["line"])
        return Phrase(N_("not valid TOML at line {line}, column {column}: {detail}"), line=line,
                      column=int(at["column"]), detail=at["detail"]), line
    end = _TOML_END.match(text)
    if end:
        return Phrase(N_("not valid TOML at the end of the file: {detail}"),
                      detail=end["detail"]), 0
    return Phrase(N_("not valid TOML: {detail}"), detail=text), 0
