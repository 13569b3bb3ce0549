"""The engine's own rule texts reach the page in the page's language: an unreadable record
loaded for review, an illegal move typed for a remote side, an unknown variant asked for a new
game. The refusal keeps the engine's meaning (its message and places, a place that is itself
a message worded in the same language, a counted message in the language's form), and its
points, notation, names and numbers as they were."""

from __future__ import annotations

import re

from sim_daemon import sim_daemon
from test_companion import request

from navakankari.engine.presets import PRESETS
from navakankari.firmware.i18n.catalogs import translations

LEGAL = re.compile(r"\b[a-g][1-7](?:-[a-g][1-7])?\b")


def english_left(text: str, *names: str) -> list[str]:
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return re.findall(r"[A-Za-z]{2,}", LEGAL.sub(" ", text))


def test_the_engines_refusals_are_worded_in_the_pages_language(tmp_path):
    refusals = [("/api/review", {"record": "1. d6 d6\n"},
                 "review: move 1 (black, d6): d6 is not legal here: d6 already holds a white pebble "
                 "(black to act, placing); legal: ", ()),
                ("/api/review", {"record": '[FEN "a b"]\n[SetUp "1"]\n'},
                 "review: the FEN tag: position has 2 fields; expected at least 8: rings, side, phase, "
                 "action, white on board, white in hand, black on board, black in hand", ("FEN",)),
                ("/api/new-game", {"variant": "nosuch", "white": "hand", "black": "hand"},
                 "new game: unknown variant 'nosuch'; variants: " + ", ".join(PRESETS),
                 ("'nosuch'", *PRESETS)),
                ("/api/move", {"action": "a1-a4"},
                 "move: a1-a4 is not legal here: white still has pebbles in hand: place one first (white "
                 "to act, placing); legal: ", ())]
    with sim_daemon(tmp_path, white="remote") as running:
        for path, body, english, names in refusals:
            status, answer = request(running.url + path + "?lang=en", body)
            assert status == 409 and answer["error"].startswith(english), answer
            for code in ("hi", "ta"):
                tr = translations(code)
                status, answer = request(f"{running.url}{path}?lang={code}", body)
                said = answer["error"]
                assert status == 409 and english_left(said, *names) == [], (code, said)
                kept = [*re.findall(r"'[^']*'|\b\d+\b", english), *names]
                assert all(k in said for k in kept), (code, kept, said)
                if "white" in english:  # the sides inside the engine's sentence, worded
                    assert tr.gettext("white") in said or tr.gettext("black") in said, (code, said)


def test_an_engine_error_read_as_a_phrase_is_worded_as_the_engine_words_it():
    """hal's `phrase_of` reads the engine's kept meaning (by its shape, not its type): the same
    words in every language, places that are messages and counted messages too."""
    import pytest

    from navakankari.engine.errors import RulesError
    from navakankari.engine.presets import preset
    from navakankari.engine.record import parse_record, replay_record
    from navakankari.engine.variants import game_from_position, new_game
    from navakankari.firmware.i18n.catalogs import LANGUAGES
    from navakankari.hal.words import Phrase, phrase_of

    makes = [lambda: replay_record(parse_record("1. d6 d6\n")),
             lambda: game_from_position(preset("nine-mens-morris"), "a b c"),
             lambda: game_from_position(preset("nine-mens-morris"), "O*******/********/******** w p p 0 9 0 9"),
             lambda: new_game(preset("navakankari")).play_record("a7 a1 d7 d1 g7 xd7"),
             lambda: preset("nosuch")]
    for make in makes:
        with pytest.raises(RulesError) as info:
            make()
        phrase = phrase_of(info.value)
        assert isinstance(phrase, Phrase) and phrase == str(info.value)
        for code in LANGUAGES:
            tr = translations(code)
            assert phrase.words(tr) == info.value.words(tr), code
