"""A sentence kept until it is shown: a warning beside the game (the store set aside, the
LEDs not written) is worded when the page or the speech asks for it, so it comes in the
language chosen by then, not the one spoken when it happened."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Protocol

MAX_PLACE = 300
"""The longest place a notice read from another process keeps (an error's text)."""
MAX_PLACES = 8


class BadNotice(ValueError):
    """A notice from another process that is not one of the messages it may send."""


class Words(Protocol):
    """What a notice needs of a language: the catalog's `gettext`."""

    def gettext(self, message: str, /) -> str: ...


@dataclass(frozen=True)
class Notice:
    """One message of the catalogs (marked with `N_` where it is made) and its named places:
    file names and the system's own error text, which stay as they are."""

    message: str
    places: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, message: str, **places: object) -> "Notice":
        return cls(message, tuple((k, str(v)) for k, v in places.items()))

    def words(self, tr: Words) -> str:
        """The sentence in `tr`'s language."""
        return tr.gettext(self.message).format(**dict(self.places))

    def __str__(self) -> str:  # the log's English
        return self.message.format(**dict(self.places))

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "places": dict(self.places)}

    @classmethod
    def from_dict(cls, data: object, messages: Collection[str]) -> "Notice":
        """A notice another process sent: one of `messages`, each of its places a string
        (cut to MAX_PLACE), no other; else BadNotice."""
        if not isinstance(data, dict) or data.get("message") not in messages:
            raise BadNotice("not one of the notices expected")
        places = data.get("places", {})
        if not isinstance(places, dict) or len(places) > MAX_PLACES or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in places.items()):
            raise BadNotice("its places are not names and strings")
        notice = cls(data["message"], tuple((k, v[:MAX_PLACE]) for k, v in places.items()))
        try:
            str(notice)
        except (KeyError, IndexError, ValueError):
            raise BadNotice("its places do not fill its message") from None
        return notice


def N_(message: str) -> str:
    """Marks `message` for the catalogs where it is made; it is translated where shown."""
    return message
