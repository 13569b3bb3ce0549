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

This is the one type of a worded message in the project: the hardware layer, the simulator,
the firmware's warnings (the store set aside, the LEDs not written, speech that failed) and
its errors (store, broker, voice, settings, the page's refusals) all keep their sentences as
phrases. One read from another process (the speech process's report) comes through
`Phrase.from_dict`, which takes only an expected message with bounded text places.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any, Protocol

MAX_PLACE = 300
"""The longest place a phrase read from another process keeps (an error's text)."""
MAX_PLACES = 8


class BadPhrase(ValueError):
    """A phrase from another process that is not one of the messages it may send."""


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

    def to_dict(self) -> dict[str, Any]:
        """The phrase for another process: its message and its places as text (a phrase
        place as its English; a message with a plural is not sent)."""
        return {"message": self.message, "places": {k: str(v) for k, v in self.places}}

    @classmethod
    def from_dict(cls, data: object, messages: Collection[str]) -> Phrase:
        """A phrase another process sent: one of `messages`, each of its places a string
        (cut to MAX_PLACE), no other; else BadPhrase."""
        if not isinstance(data, dict) or data.get("message") not in messages:
            raise BadPhrase("not one of the messages expected")
        places = data.get("places", {})
        if not isinstance(places, dict) or len(places) > MAX_PLACES or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in places.items()):
            raise BadPhrase("its places are not names and strings")
        try:
            return cls(data["message"], **{k: v[:MAX_PLACE] for k, v in places.items()})
        except (KeyError, IndexError, ValueError):
            raise BadPhrase("its places do not fill its message") from None

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
    try:
        kept = kept_phrase(exc)
    except (KeyError, IndexError, TypeError, ValueError):  # not a message and its places
        kept = None
    return str(exc) if kept is None else kept


def phrase_or(exc: BaseException, message: str) -> Phrase:
    """An error's phrase where it keeps its meaning (see `phrase_of`), else the catalog
    `message` (marked N_) that names what failed: another library's English is for the log."""
    said = phrase_of(exc)
    return said if isinstance(said, Phrase) else Phrase(message)


def kept_phrase(meaning: object) -> Phrase | None:
    """The phrase of a message and its places kept as data (`message`, `places`, and for a
    message that counts `plural` and `number`, as the engine keeps them); a place kept so
    is a phrase too, worded in the same language. None for anything else."""
    message, places = getattr(meaning, "message", None), getattr(meaning, "places", None)
    if not isinstance(message, str) or not isinstance(places, (tuple, dict)):
        return None
    filled = {k: kept_phrase(v) or v for k, v in dict(places).items()}
    plural, number = getattr(meaning, "plural", ""), getattr(meaning, "number", 0)
    if isinstance(plural, str) and plural and isinstance(number, int):
        return Phrase.counted((message, plural), number, **filled)
    return Phrase(message, **filled)


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
