"""What is left in English of a sentence said in another language (the tests of i18n and of
the online commands): its Latin-letter words outside the places it names and the technical
names that stay as they are in every language."""

from __future__ import annotations

import re

TECHNICAL = re.compile(r"navakankari \w+|sudo [^:()]*?(?=,| then|$|\)|\s[^\x00-\x7f])|\S*/\S*|"
                       r"Ctrl-C|GPIO\d*|\bLED\b|\bPIN\b|systemctl stop navakankari")
"""What stays as it is in every language: commands to type, paths, key and pin names."""


def english_left(text: str, *places: str) -> list[str]:
    """The Latin-letter words of `text` outside its places and the technical names."""
    for place in sorted(places, key=len, reverse=True):
        text = text.replace(place, " ")
    text = TECHNICAL.sub(" ", text)
    text = re.sub(r"\b[a-g][1-7]\b", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)
