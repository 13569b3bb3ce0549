"""The message catalogs: every word a player meets, in the language the players chose.

One gettext catalog per language, `locale/<code>/LC_MESSAGES/navakankari.po`, kept as text and
read directly (Babel parses it and writes the compiled form in memory, which the standard
library's `gettext` then serves). Reading the `.po` file itself means a native speaker's
correction takes effect at the next start, with no compile step, and an installed package
needs nothing built beyond the files it ships. Entries marked fuzzy are left out: the English
is shown until someone sure of the words confirms them.

The engine cannot import this package (it imports nothing of ours): its words take a
`Translator` (engine/translator.py), which `translations` returns.
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po

log = logging.getLogger(__name__)

DOMAIN = "navakankari"
LOCALE = Path(__file__).resolve().parent / "locale"
"""Where the catalogs ship: `<code>/LC_MESSAGES/navakankari.po`, and the template beside."""

SOURCE = "en"
"""The language the messages are written in (no catalog: the message is its own text)."""

LANGUAGES: dict[str, str] = {
    "en": "English",
    "hi": "हिन्दी",
    "gu": "ગુજરાતી",
    "kn": "ಕನ್ನಡ",
    "te": "తెలుగు",
    "mr": "मराठी",
    "bn": "বাংলা",
    "ta": "தமிழ்",
}
"""Every language the board speaks, by its code, named in its own script (the menu card, the
page's and the browser player's choice)."""

WORDS_JS = Path(__file__).resolve().parent / "words.js"
"""The pages' side of the catalogs: `_`, `ngettext`, `fmt` and `translatePage` over a
`ScriptCatalog` (the board's page and the browser player load it)."""

SCRIPT_SUFFIXES = (".js", ".html")
"""The sources whose messages the page and the browser player translate themselves."""

MAX_ACCEPT_LANGUAGE = 512
"""An `Accept-Language` header longer than this is not read (it is a client's claim)."""

_PLURAL_EXPRESSION = re.compile(r"^[n0-9\s!=<>&|?:%()]{1,200}$")


class UnknownLanguage(ValueError):
    """A language code that is not one of `LANGUAGES`."""


class BrokenCatalog(ValueError):
    """A catalog file that cannot be read as a `.po` file."""


def check_language(code: str) -> str:
    """`code` itself if the board speaks it; UnknownLanguage naming the ones it does."""
    if code not in LANGUAGES:
        raise UnknownLanguage(f"no language {code!r}: choose one of {', '.join(LANGUAGES)}")
    return code


LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The environment's locale, in the order the C library reads it for messages."""


def environment_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for (`hi_IN.UTF-8` in LANG gives `hi`), if the board
    speaks it; None when the first locale variable set names another language, C or POSIX."""
    environ = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "").strip()
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGUAGES else None
    return None


def choose_language(chosen: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language of the board's words: `chosen` (a `--language` option or the
    configuration's `[board] language`) when given, else the environment's (LC_ALL,
    LC_MESSAGES, LANG), else English. The daemon and every command choose through this;
    the daemon's store keeps a choice made later on the menu or the page (core/language.py)."""
    if chosen:
        return check_language(chosen)
    return environment_language(environ) or SOURCE


def catalog_path(code: str, folder: Path = LOCALE) -> Path:
    """The `.po` file of language `code` under `folder`."""
    return folder / check_language(code) / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(code: str, folder: Path = LOCALE) -> Any:
    """The language's catalog as Babel reads it (a `babel.messages.Catalog`)."""
    path = catalog_path(code, folder)
    try:
        with path.open("rb") as f:
            return read_po(f, locale=code, abort_invalid=True)
    except (OSError, PoFileError) as e:
        raise BrokenCatalog(f"{path}: {e}") from e


@functools.lru_cache(maxsize=None)
def _load(code: str, folder: Path) -> gettext.NullTranslations:
    if code == SOURCE:
        return gettext.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, read_catalog(code, folder), use_fuzzy=False)
    compiled.seek(0)
    log.debug("read the %s catalog from %s", code, folder)
    return gettext.GNUTranslations(compiled)


def translations(code: str, folder: Path = LOCALE) -> gettext.NullTranslations:
    """The words of language `code`: `.gettext(message)`, `.ngettext(one, many, n)` and
    `.pgettext(context, message)`, read once and kept. A message the catalog lacks (or holds
    only as fuzzy) comes back in English."""
    return _load(check_language(code), folder)


def forget() -> None:
    """Read every catalog again at its next use (after a catalog file changed)."""
    _load.cache_clear()


def language_name(code: str) -> str:
    """The language's name in its own script: `ગુજરાતી`."""
    return LANGUAGES[check_language(code)]


def negotiate(accept_language: str | None, default: str = SOURCE) -> str:
    """The language the board speaks that a browser's `Accept-Language` prefers most:
    `hi-IN,hi;q=0.9,en;q=0.8` gives `hi`; nothing the board speaks, or a header that does not
    parse or is too long, gives `default`."""
    if not accept_language or len(accept_language) > MAX_ACCEPT_LANGUAGE:
        return default
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                continue
        code = tag.strip().split("-")[0].lower()
        if code in LANGUAGES and 0 < quality <= 1:
            ranked.append((-quality, order, code))
    return min(ranked)[2] if ranked else default


@dataclass(frozen=True)
class ScriptCatalog:
    """The messages the page's or the browser player's JavaScript translates, as JSON."""

    language: str
    plural: str  #: the catalog's plural expression in `n`, C syntax (JavaScript reads it)
    messages: dict[str, str | list[str]]  #: message -> translation (plural forms as a list)

    def to_dict(self) -> dict[str, Any]:
        return {"language": self.language, "name": LANGUAGES[self.language],
                "plural": self.plural, "messages": self.messages}


@functools.lru_cache(maxsize=None)
def _script_catalog(code: str, folder: Path) -> ScriptCatalog:
    if code == SOURCE:
        return ScriptCatalog(code, "n != 1", {})
    catalog = read_catalog(code, folder)
    plural = catalog.plural_expr
    if not _PLURAL_EXPRESSION.match(plural):
        raise BrokenCatalog(f"{catalog_path(code, folder)}: plural expression {plural!r}")
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        if not any(path.endswith(SCRIPT_SUFFIXES) for path, _ in message.locations):
            continue
        if isinstance(message.id, tuple):
            if all(message.string):
                messages[message.id[0]] = list(message.string)
        else:
            messages[message.id] = message.string
    return ScriptCatalog(code, plural, messages)


def script_catalog(code: str, folder: Path = LOCALE) -> ScriptCatalog:
    """What the JavaScript needs of language `code`: its plural rule and the messages found
    in the page's and the browser player's sources (keyed by the singular for plurals)."""
    return _script_catalog(check_language(code), folder)
