"""Every language the board speaks: each catalog complete with its places kept, the game's
words used as its glossary says, the status line of real situations wholly translated, and a
native speaker's edit of a `.po` file taking effect."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from navakankari.engine.boards import BOARDS
from navakankari.engine.game import Outcome, Reason as EndReason, Side
from navakankari.engine.hint_words import reason_words
from navakankari.engine.reasons import Quality, Reason, ReasonKind
from navakankari.engine.variants import new_game
from navakankari.firmware.core.menu import GameChoice, Menu, MenuSettings
from navakankari.firmware.core.menu_host import MenuHost
from navakankari.firmware.core.status import MismatchReason, Status, StatusKind
from navakankari.firmware.core.wording import outcome_text, status_text
from navakankari.firmware.i18n import catalogs
from navakankari.firmware.i18n.catalogs import LANGUAGES, LOCALE, SOURCE, translations
from navakankari.firmware.i18n.check import catalog_problems, translation_status

TRANSLATED = [code for code in LANGUAGES if code != SOURCE]
CHECKED_TERMS = ("pebble", "mill", "white", "black", "board", "point", "menu", "help")
"""The glossary's words whose English is used in one sense only, so every message holding
the English word must hold the language's (take, move and turn have several senses)."""

NOT_WORDS = re.compile(r"\bx?[a-g][1-7](?:-[a-g][1-7])?(?:x[a-g][1-7])?\b|\bLED\b|\bPIN\b")
"""What may stay in Latin letters in any language: points and actions in the board's
notation, and the names LED and PIN."""


def english_left(text: str) -> list[str]:
    """The Latin-letter words of `text` that are not points, actions or names: a message
    (or a piece of one) left in English."""
    return re.findall(r"[A-Za-z]{2,}", NOT_WORDS.sub(" ", text))


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_catalog_is_complete_and_keeps_every_place(code):
    assert catalog_problems(code) == []


def test_a_missing_translation_or_a_lost_place_is_named(tmp_path):
    shutil.copytree(LOCALE, tmp_path / "locale")
    po = tmp_path / "locale" / "kn" / "LC_MESSAGES" / "navakankari.po"
    text = po.read_text(encoding="utf-8")
    text = text.replace('msgstr "{side} ಸಾಲು ಮಾಡಿತು"', 'msgstr "ಸಾಲು ಮಾಡಿತು"')
    text = text.replace('msgstr "ಹೊಸ ಆಟ"', 'msgstr ""')
    po.write_text(text, encoding="utf-8")
    problems = catalog_problems("kn", tmp_path / "locale")
    assert problems == ["kn: not translated: 'new game'",
                        "kn: '{side} closed a mill' has the places [], not ['side']"]


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_catalog_says_it_was_made_without_a_native_speaker_and_has_its_glossary(code):
    assert translation_status(code) == "made without a native speaker"
    glossary = tomllib.loads((LOCALE / code / "glossary.toml").read_text(encoding="utf-8"))
    catalog = catalogs.read_catalog(code)
    assert translations(code).pgettext("variant", "navakankari") == glossary["game"]
    for term in CHECKED_TERMS:
        stem = glossary["terms"][term]["stem"]
        for message in catalog:
            if not message.id:
                continue
            ids = (message.id,) if isinstance(message.id, str) else message.id
            forms = (message.string,) if isinstance(message.string, str) else message.string
            for english, said in zip(ids, forms):
                if re.search(rf"\b{term}s?\b", re.sub(r"\{\w+\}", "", english), re.I):
                    assert stem in said, (term, english, said)


def _situations() -> list[tuple[str, Status]]:
    """The status line's situations: a mill and the removal it owes, the computer's move to
    carry out, a mistake, a mistake during the computer's move, a pebble lifted, a fault."""
    return [
        ("a mill, a removal owed", Status(StatusKind.REMOVAL, "white",
                                          takeable=("d7", "g7", "b4"), mills=("a1", "a4", "a7"))),
        ("a mill closed", Status(StatusKind.REMOVAL, "black")),
        ("two mills, two pebbles owed", Status(StatusKind.REMOVAL, "white", owed=2,
                                               takeable=("d7", "g7"), mills=("a1", "a4"))),
        ("one pebble still owed", Status(StatusKind.REMOVAL, "white", owed=1, taken=1,
                                         takeable=("g7",))),
        ("two pebbles still owed", Status(StatusKind.REMOVAL, "black", owed=2, taken=1)),
        ("the computer's move to carry out", Status(
            StatusKind.EXECUTING, "black", forced=("a1-a4", "xd7"), forced_from=("a1",),
            forced_to=("a4",), forced_take=("d7",))),
        ("the computer's placement", Status(StatusKind.EXECUTING, "black", forced=("c3",),
                                            forced_to=("c3",))),
        ("a mistake", Status(StatusKind.MISMATCH, "white", reason=MismatchReason.MISTAKE,
                             steps=(("move", "white", "a4", "a1"), ("lift", "", "d2", ""),
                                    ("lift", "", "d3", ""), ("set", "black", "", "c3")))),
        ("a mistake in the computer's move", Status(
            StatusKind.MISMATCH, "black", reason=MismatchReason.MISTAKE, forced=("g7-g4",),
            forced_from=("g7",), forced_to=("g4",), steps=(("move", "black", "g1", "g7"),))),
        ("the board set back", Status(StatusKind.MISMATCH, "white",
                                      reason=MismatchReason.RESTORE,
                                      steps=(("set", "white", "", "a1"),
                                             ("set", "white", "", "d1")))),
        ("a pebble lifted", Status(StatusKind.IN_PROGRESS, "white", lifted=("d6",),
                                   destinations=("d7", "b6", "f6"),
                                   faulty=("e4",))),
        ("placing", Status(StatusKind.IDLE, "black")),
        ("the computer thinking", Status(StatusKind.THINKING, "white")),
        ("clearing", Status(StatusKind.CLEARING, "white", confirm_point="d5",
                            confirm_hold=3.0, holding=True)),
    ]


def _menu_statuses(code: str) -> list[tuple[str, Status]]:
    """The menu's steps as the board lights them, chosen one after another on a real menu:
    the game, white's player, black's, the help of the hand, who starts, a toss."""
    game = new_game("navakankari")
    host = MenuHost(MenuSettings(), None, online=True, seed=3)
    host.tr = translations(code)
    host.open(game, GameChoice("navakankari", "hand", "computer:3"), frozenset(), (), 0.0)
    menu = host.menu
    assert isinstance(menu, Menu)
    out, t = [], 0.0
    for step, pick in (("the game", 0), ("who plays white", 0), ("who plays black", 1),
                       ("the help white gets", 3), ("who starts", 2)):
        status = host.changed(t, "white", ())
        assert status is not None
        out.append((f"menu: {step}", status))
        point = menu.choices()[pick].point
        menu.see({point}, t)
        menu.tick(t + menu.settings.hold)
        out.append((f"menu: {step}, held", host.changed(t + menu.settings.hold, "white", ())))
        t += menu.settings.hold + 0.1
        menu.see((), t)
        t += menu.settings.lift
        menu.tick(t)
    out.append(("menu: the toss", host.changed(t, "white", ())))
    return [(name, status) for name, status in out if status is not None]


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_language_says_every_situation_without_a_word_left_in_english(code):
    tr = translations(code)
    game = new_game("navakankari")
    said = {}
    for name, status in _situations() + _menu_statuses(code):
        text = status_text(game, status, tr=tr)
        assert english_left(text) == [], (name, text)
        assert text != status_text(game, status), name
        said[name] = text
    assert {"menu: the game", "menu: who starts", "menu: the toss"} <= set(said)
    assert "{" not in "".join(said.values())
    win = outcome_text(Outcome(Side.WHITE, EndReason.TOO_FEW_PEBBLES), tr)
    assert english_left(win) == [], win
    mill = Reason(ReasonKind.MILL, Side.BLACK, "d7", "d7", "a7-d7-g7", "b6", 2)
    for quality in (Quality.DROPS, Quality.LOSES):
        words = reason_words("b6", mill, quality, tr)
        assert english_left(words) == [] and "2" in words, words


def test_a_native_speakers_edit_of_a_po_file_takes_effect(tmp_path):
    shutil.copytree(LOCALE, tmp_path / "locale")
    po = tmp_path / "locale" / "gu" / "LC_MESSAGES" / "navakankari.po"
    text = po.read_text(encoding="utf-8")
    before = 'msgstr "{side}એ તિગડી બનાવી"'
    assert before in text
    po.write_text(text.replace(before, 'msgstr "{side}ની તિગડી થઈ ગઈ!"'), encoding="utf-8")
    catalogs.forget()
    status = Status(StatusKind.REMOVAL, "white")
    assert status_text(new_game("navakankari"), status,
                       tr=translations("gu", tmp_path / "locale")) == "સફેદની તિગડી થઈ ગઈ!"
    assert catalog_problems("gu", tmp_path / "locale") == []
    # The shipped catalog is untouched, and still says it its own way.
    assert status_text(new_game("navakankari"), status, tr=translations("gu")) == "સફેદએ તિગડી બનાવી"


def test_the_plural_forms_follow_each_language():
    hindi, tamil = translations("hi"), translations("ta")
    one = "{side} has had {n} best move this turn"
    many = "{side} has had {n} best moves this turn"
    # Hindi counts 0 and 1 alike; Tamil only 1 as one.
    assert hindi.ngettext(one, many, 0) == hindi.ngettext(one, many, 1) != hindi.ngettext(one, many, 2)
    assert tamil.ngettext(one, many, 0) == tamil.ngettext(one, many, 2) != tamil.ngettext(one, many, 1)
    assert BOARDS  # the board tables load beside the catalogs


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_printed_menu_card_is_in_the_language_with_every_language_in_its_own_script(code):
    from html import unescape

    from navakankari.firmware.cli.menu_drawings import menu_svg

    svg = menu_svg(BOARDS["morris"], "direct-24", translations(code))
    texts = [unescape(t) for t in re.findall(r">([^<>]+)</text>", svg)]
    left = [(t, english_left(t.replace("direct-24", "").replace("game.menu_hold", "")))
            for t in texts]
    assert [t for t, words in left if words and t not in LANGUAGES.values()] == []
    for name in LANGUAGES.values():  # English among them, as English
        assert name in texts


def test_the_readmes_table_names_every_language_and_what_its_catalog_says_of_itself():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rows = {m[0]: m[1:] for m in re.findall(
        r"^\| (\w\w) \| ([^|]+?) \| ([^|]+?) \|\s*([^|]*?)\s*\|$", readme, re.M)}
    assert set(rows) == set(LANGUAGES)
    for code in TRANSLATED:
        name, catalog, who = rows[code]
        assert name.startswith(LANGUAGES[code])
        assert catalog == ("complete" if catalog_problems(code) == [] else "incomplete")
        assert who == translation_status(code)
