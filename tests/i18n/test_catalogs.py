"""The catalogs' loader: languages named and refused, a browser's preference read, a catalog
read from its `.po` file (fuzzy entries left out), the script's share as JSON."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from navakankari.engine.hint_words import reason_words
from navakankari.engine.reasons import Quality, Reason, ReasonKind
from navakankari.engine.game import Side
from navakankari.firmware.i18n import catalogs
from navakankari.firmware.i18n.catalogs import (BrokenCatalog, UnknownLanguage, language_name, negotiate,
                                       script_catalog, translations)


def write_catalog(folder: Path, code: str, entries: list[tuple[object, object, str, bool]]) -> Path:
    """A catalog of `(message, translation, source file, fuzzy)` under `folder`."""
    catalog = Catalog(locale=code, domain="navakankari")
    for message, string, source, fuzzy in entries:
        catalog.add(message, string, locations=[(source, 1)],
                    flags=("fuzzy",) if fuzzy else ())
    path = folder / code / "LC_MESSAGES" / "navakankari.po"
    path.parent.mkdir(parents=True)
    with path.open("wb") as f:
        write_po(f, catalog)
    catalogs.forget()
    return path


def test_a_browser_preference_picks_a_language_the_board_speaks():
    assert negotiate("hi-IN,hi;q=0.9,en;q=0.8") == "hi"
    assert negotiate("fr-FR, gu;q=0.5, kn;q=0.7") == "kn"
    assert negotiate("de, fr") == "en"
    assert negotiate("ta;q=bad, bn;q=0.2") == "bn"
    assert negotiate("ta;q=0") == "en"
    assert negotiate("", default="mr") == "mr"
    assert negotiate("hi," * 400) == "en"  # too long to read


def test_an_unknown_language_is_refused_by_name():
    with pytest.raises(UnknownLanguage, match="'xx'"):
        translations("xx")
    assert language_name("gu") == "ગુજરાતી"


def test_a_catalog_is_read_from_its_po_file_and_fuzzy_entries_stay_english(tmp_path):
    write_catalog(tmp_path, "hi", [
        ("white", "सफ़ेद", "engine/hint_words.py", False),
        ("black", "काला", "engine/hint_words.py", True),
        (("{action} lets {side} close a mill next turn",
          "{action} lets {side} close a mill in {turns} turns"),
         ("{action} से {side} अगली बारी में तिगड़ी बना लेगा",
          "{action} से {side} {turns} बारियों में तिगड़ी बना लेगा"), "engine/hint_words.py", False),
    ])
    hindi = translations("hi", tmp_path)
    assert hindi.gettext("white") == "सफ़ेद"
    assert hindi.gettext("black") == "black"
    mill = Reason(ReasonKind.MILL, Side.WHITE, turns=2)
    assert reason_words("b6", mill, Quality.DROPS, hindi) == "b6 से सफ़ेद 2 बारियों में तिगड़ी बना लेगा"


def test_the_script_gets_only_its_own_messages_and_the_plural_rule(tmp_path):
    write_catalog(tmp_path, "gu", [
        ("connecting…", "જોડાય છે…", "firmware/companion/web/app.js", False),
        ("held", "હાથમાં", "firmware/companion/web/index.html", False),
        ("white", "સફેદ", "engine/hint_words.py", False),
        (("{n} pebble", "{n} pebbles"), ("{n} કાંકરો", "{n} કાંકરા"),
         "firmware/online/player/player.js", False),
    ])
    script = script_catalog("gu", tmp_path).to_dict()
    assert script["messages"] == {"connecting…": "જોડાય છે…", "held": "હાથમાં",
                                  "{n} pebble": ["{n} કાંકરો", "{n} કાંકરા"]}
    assert script["name"] == "ગુજરાતી" and "n" in script["plural"]
    assert script_catalog("en").to_dict()["messages"] == {}


def test_a_damaged_catalog_is_refused_by_name(tmp_path):
    path = tmp_path / "ta" / "LC_MESSAGES" / "navakankari.po"
    path.parent.mkdir(parents=True)
    path.write_text('msgid "white"\nwhat is this\nmsgstr "b"\n')
    catalogs.forget()
    with pytest.raises(BrokenCatalog, match="navakankari.po"):
        translations("ta", tmp_path)
