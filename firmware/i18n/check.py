"""Checks a catalog the way a translator needs it checked: every message translated, none
left fuzzy, and each translation keeping the message's named places (`{side}`, `{point}`).

A native speaker who corrects a `.po` file runs the language tests (README "Languages") and
gets these problems by message.
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from .catalogs import LOCALE, read_catalog

PLACE = re.compile(r"\{(\w*)\}")
UNCHECKED = "made without a native speaker"
"""What a catalog's header says until a native speaker has checked every message."""


def places(text: str) -> set[str]:
    """The named places of a message: `{side} to move` has `side`."""
    return set(PLACE.findall(text))


def template(folder: Path = LOCALE
             ) -> dict[tuple[str | tuple[str, ...] | list[str], str | None], Message]:
    """The messages every catalog must translate, by (message, context)."""
    with (folder / "navakankari.pot").open("rb") as f:
        return {(m.id, m.context): m for m in read_po(f) if m.id}


def catalog_problems(code: str, folder: Path = LOCALE) -> list[str]:
    """What is wrong with language `code`'s catalog, one line per problem (none: complete)."""
    catalog = read_catalog(code, folder)
    problems = []
    for key, wanted in template(folder).items():
        message = catalog.get(*key)
        name = key[0] if isinstance(key[0], str) else key[0][0]
        if message is None or not message.string or (
                isinstance(message.string, tuple) and not all(message.string)):
            problems.append(f"{code}: not translated: {name!r}")
            continue
        if message.fuzzy:
            problems.append(f"{code}: marked fuzzy (not yet sure): {name!r}")
        if isinstance(wanted.id, tuple):
            one, many = (places(t) for t in wanted.id)
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for k, form in enumerate(forms):
                ok = places(form) in ((one, many) if k == 0 else (many,))
                if not ok:
                    problems.append(f"{code}: form {k} of {name!r} has the places "
                                    f"{sorted(places(form))}, not {sorted(many)}")
        elif isinstance(message.string, str) and isinstance(wanted.id, str) and \
                places(message.string) != places(wanted.id):
            problems.append(f"{code}: {name!r} has the places {sorted(places(message.string))}, "
                            f"not {sorted(places(wanted.id))}")
    return problems


def translation_status(code: str, folder: Path = LOCALE) -> str:
    """What the catalog's header says of who made it: UNCHECKED until a native speaker
    takes that line out, then `checked by a native speaker`."""
    with (folder / code / "LC_MESSAGES" / "navakankari.po").open(encoding="utf-8") as f:
        header = "".join(line for line in f if line.startswith("#"))
    return UNCHECKED if UNCHECKED in header else "checked by a native speaker"
