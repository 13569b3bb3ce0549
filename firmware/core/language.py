"""The board's language: the one its status line, menu, warnings and page speak.

Chosen in the configuration (`[board] language`), on the board's menu or on the page; the
last choice is kept in the store, so it outlives a restart and wins over the configuration.
"""

from __future__ import annotations

import logging

from navakankari.firmware.i18n.catalogs import SOURCE, UnknownLanguage, check_language

from ..store.database import Store

log = logging.getLogger(__name__)

LANGUAGE_KEY = "language"
"""The store's setting that keeps the language chosen on the board or the page."""


def kept_language(store: Store | None, default: str = SOURCE) -> str:
    """The language last chosen, else `default`; a kept value the board no longer speaks is
    said in the log and left for `default`."""
    text = store.setting(LANGUAGE_KEY) if store is not None else None
    if text is None:
        return check_language(default)
    try:
        return check_language(text)
    except UnknownLanguage as exc:
        log.warning("%s (kept in the store); speaking %s", exc, default)
        return check_language(default)


def keep_language(store: Store | None, code: str) -> str:
    """Keep `code` as the board's language (UnknownLanguage if the board does not speak
    it); returns it."""
    check_language(code)
    if store is not None:
        store.set_setting(LANGUAGE_KEY, code)
    return code
