"""Brings the catalogs up to the code: extracts the marked messages into the template and
merges it into every language's catalog, written as the repository keeps them (README
"Languages"), so running it twice changes nothing and a change to a message shows as the
lines it changed.

    .venv/bin/python -m navakankari.firmware.i18n.update

It runs Babel's own `pybabel extract` and `pybabel update` with the repository's flags
(unwrapped, sorted by file, the project's name and version, messages no longer in the code
dropped) and then takes out the creation date Babel stamps on the template and copies into
each catalog: the files change when a message does, not when they were made.
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

from .catalogs import DOMAIN, LANGUAGES, LOCALE, SOURCE

ROOT = Path(__file__).resolve().parents[2]
"""Where the sources are (the repository, or the installed package: the same layout)."""
MAPPING = Path(__file__).resolve().parent / "babel.cfg"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
PROJECT = ("navakankari", "0.1.0")

KEYWORDS = "Nn_:1,2"
"""Besides gettext's own names: the hardware layer's and the engine's mark for a message with
a plural."""
EXTRACT_FLAGS = (f"--keywords={KEYWORDS}", "--add-comments=Translators:", "--sort-by-file", "--no-wrap",
                 "--add-location=file", f"--project={PROJECT[0]}", f"--version={PROJECT[1]}")
"""Locations name the file, not the line: with line numbers every edit above a message in its
file changed every catalog, and a catalog left behind failed the template's test."""
UPDATE_FLAGS = ("--no-wrap", "--ignore-obsolete")

_CREATED = re.compile(rb'^"POT-Creation-Date: [^"\n]*\\n"\n', re.M)


def undated(text: bytes) -> bytes:
    """A template's or catalog's text without its POT-Creation-Date header line."""
    return _CREATED.sub(b"", text)


def _pybabel(*arguments: str) -> None:
    CommandLineInterface().run(["pybabel", "--quiet", *arguments])  # type: ignore[no-untyped-call]


def template_text(root: Path = ROOT) -> bytes:
    """The template the sources under `root` give, as the repository keeps it."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / f"{DOMAIN}.pot"
        here = os.getcwd()
        os.chdir(root)  # the messages' locations are written relative to where it runs
        try:
            _pybabel("extract", "-F", str(MAPPING), "-o", str(out), *EXTRACT_FLAGS, ".")
        finally:
            os.chdir(here)
        return undated(out.read_bytes())


def update(root: Path = ROOT, locale: Path = LOCALE) -> list[Path]:
    """Write the template from the sources and merge it into every catalog; the files that
    changed."""
    changed = []
    template = locale / f"{DOMAIN}.pot"
    text = template_text(root)
    if not template.exists() or template.read_bytes() != text:
        template.write_bytes(text)
        changed.append(template)
    before = {code: path.read_bytes() for code in LANGUAGES if code != SOURCE
              if (path := locale / code / "LC_MESSAGES" / f"{DOMAIN}.po").exists()}
    _pybabel("update", *UPDATE_FLAGS, "-D", DOMAIN, "-i", str(template), "-d", str(locale))
    for code, old in before.items():
        path = locale / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        new = undated(path.read_bytes())
        path.write_bytes(new)
        if new != old:
            changed.append(path)
    return changed


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m navakankari.firmware.i18n.update",
                                     description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    for path in update():
        print(f"changed {path}")


if __name__ == "__main__":
    main()
