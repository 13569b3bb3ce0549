"""The template holds exactly the messages the sources mark, so no word a player meets is
missed by the catalogs (after changing a message: README "Languages", `python -m navakankari.firmware.i18n.update`)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from navakankari.firmware.i18n.catalogs import LOCALE
from navakankari.firmware.i18n.update import undated, update

ROOT = Path(__file__).resolve().parents[2]
MAPPING = LOCALE.parent / "babel.cfg"
UPDATE = "python -m navakankari.firmware.i18n.update (README \"Languages\")"


def test_the_template_holds_every_marked_message_and_no_other(capsys):
    with MAPPING.open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    marked = {message for _, _, message, _, _ in
              extract_from_dir(str(ROOT), method_map, options_map, keywords={**DEFAULT_KEYWORDS, "Nn_": (1, 2)})}
    # Babel skips a marked f-string with a warning: a message that would stay English.
    assert "warning" not in capsys.readouterr().err
    with (LOCALE / "navakankari.pot").open("rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    assert marked - template == set(), "marked but not in the template: run " + UPDATE
    assert template - marked == set(), "in the template but marked nowhere: run " + UPDATE


def test_the_documented_update_writes_the_catalogs_as_they_are_committed(tmp_path):
    """The catalogs in the repository are what `python -m navakankari.firmware.i18n.update`
    writes (unwrapped, no creation date), so running it changes only what the code changed."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE, locale)
    assert update(locale=locale) == [], "the catalogs are not as the update writes them: run " + UPDATE
    for path in [locale / "navakankari.pot", *locale.glob("*/LC_MESSAGES/*.po")]:
        assert b"POT-Creation-Date" not in path.read_bytes(), path
        assert path.read_bytes() == (LOCALE / path.relative_to(locale)).read_bytes()


def test_the_creation_date_is_the_one_line_taken_out():
    dated = (b'msgid ""\nmsgstr ""\n"Project-Id-Version: navakankari 0.1.0\\n"\n'
             b'"POT-Creation-Date: 2026-11-27 12:18+0000\\n"\n"MIME-Version: 1.0\\n"\n')
    assert undated(dated) == dated.replace(b'"POT-Creation-Date: 2026-11-27 12:18+0000\\n"\n', b"")
    assert undated(undated(dated)) == undated(dated)


def test_a_pebble_taken_is_called_taken_in_every_message():
    """One word for one action: a player reads and hears "take" (as in the takeable
    pebbles), never remove or capture, for a pebble."""
    with (LOCALE / "navakankari.pot").open("rb") as f:
        ids = [text for m in read_po(f) if m.id
               for text in ((m.id,) if isinstance(m.id, str) else m.id)]
    assert any("take" in text for text in ids)
    assert [text for text in ids if re.search(r"\b(removals?|captur\w*)\b", text, re.I)] == []
    # A maker removes a line from a file; a pebble is taken.
    assert [text for text in ids if re.search(r"\bremov", text, re.I)
            and re.search(r"\b(pebbles?|mills?)\b", text, re.I)] == []
