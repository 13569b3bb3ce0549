"""What the engine's words are translated through, without the engine knowing any catalog.

The engine imports nothing of ours, so it cannot load a language: whoever asks for its words
passes a `Translator` (the standard library's `gettext` objects are one; the catalogs package
returns them), and English is the default.
"""

from __future__ import annotations

import gettext
from typing import Final, Protocol


class Translator(Protocol):
    """A language's words: `gettext.NullTranslations` and its subclasses fit."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


ENGLISH: Final[Translator] = gettext.NullTranslations()
"""The words as written: no catalog."""


def N_(message: str) -> str:
    """Marks `message` for the catalogs where it is made: an error's meaning kept as data
    (its message and places), which the firmware words in the player's language."""
    return message


def Nn_(one: str, many: str) -> tuple[str, str]:
    """Marks a message and its plural for the catalogs (extracted as `ngettext` is): a
    message that counts something."""
    return one, many
