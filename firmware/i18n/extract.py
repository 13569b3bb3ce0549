"""Babel's extractor for the page's HTML: the text of each element marked `data-i18n`, and the
attributes its `data-i18n-attr` names (`title placeholder`), as messages.

The page's script translates the same elements when it loads (app.js `translatePage`), so
marking an element is all it takes to make its words translatable.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

Extracted = tuple[int, str, str, list[str]]


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Extracted] = []
        self._open: list[tuple[str, int, list[str]]] = []  # tag, line, text so far

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        line = self.getpos()[0]
        for name in values.get("data-i18n-attr", "").split():
            if values.get(name):
                self.found.append((line, "gettext", values[name], []))
        if "data-i18n" in values:
            self._open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, line, parts = self._open.pop()
            text = normalise("".join(parts))
            if text:
                self.found.append((line, "gettext", text, []))


def normalise(text: str) -> str:
    """An element's text as a message: runs of white space made one space, ends trimmed (the
    page's script does the same before it looks the text up)."""
    return " ".join(text.split())


def extract_html(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
                 options: Mapping[str, Any]) -> Iterator[Extracted]:
    """Babel's extraction method for HTML files (mapped in babel.cfg)."""
    parser = _Marked()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    yield from sorted(parser.found)
