"""A phrase is its English text and keeps its meaning: the one type of a worded message,
read back from another process only within bounds, and found inside any error that keeps it."""

from __future__ import annotations

import gettext

import pytest

from navakankari.hal.words import MAX_PLACE, BadPhrase, Phrase, phrase_of, phrase_or


class Catalog(gettext.NullTranslations):
    """A language of two messages, for the test."""

    WORDS = {"{side} resigned: {other} wins": "{other} gewinnt, {side} gibt auf",
             "white": "Weiss", "black": "Schwarz"}

    def gettext(self, message: str) -> str:
        return self.WORDS.get(message, message)


def test_a_phrase_is_its_english_and_words_its_phrase_places_in_the_language():
    said = Phrase("{side} resigned: {other} wins", side=Phrase("white"), other=Phrase("black"))
    assert said == "white resigned: black wins"
    assert said.words(Catalog()) == "Schwarz gewinnt, Weiss gibt auf"


def test_a_phrase_round_trips_through_another_process_only_as_one_of_its_messages():
    sent = Phrase("speech failed: {problem}", problem="espeak-ng: not found")
    read = Phrase.from_dict(sent.to_dict(), {"speech failed: {problem}"})
    assert (read, read.message, read.places) == (sent, sent.message, sent.places)
    for bad in ({"message": "{x.__class__}", "places": {"x": "1"}}, ["speech failed"],
                {"message": "speech failed: {problem}", "places": {"other": "x"}},
                {"message": "speech failed: {problem}", "places": {"problem": ["x"]}}):
        with pytest.raises(BadPhrase):
            Phrase.from_dict(bad, {"speech failed: {problem}"})
    long = Phrase.from_dict({"message": "speech failed: {problem}",
                             "places": {"problem": "x" * 9999}}, {"speech failed: {problem}"})
    assert len(long.places[0][1]) == MAX_PLACE


class Kept(ValueError):
    """An error of a layer that keeps its message and places as data (the engine's way)."""

    def __init__(self, message: str, **places: str) -> None:
        self.message, self.places = message, tuple(places.items())
        super().__init__(message.format(**places))


def test_an_errors_meaning_is_found_whichever_way_it_keeps_it():
    made = phrase_of(ValueError(Phrase("{side} resigned: {other} wins", side="b", other="w")))
    assert isinstance(made, Phrase) and made.message == "{side} resigned: {other} wins"
    kept = phrase_of(Kept("{side} resigned: {other} wins", side="white", other="black"))
    assert isinstance(kept, Phrase) and kept.words(Catalog()) == "black gewinnt, white gibt auf"
    library = phrase_of(OSError(28, "No space left on device"))
    assert library == "[Errno 28] No space left on device" and not isinstance(library, Phrase)
    broken = Kept("{side} resigned", side="white")
    broken.places = ()  # a message its places do not fill: the error's text, as it is
    assert phrase_of(broken) == "white resigned" and not isinstance(phrase_of(broken), Phrase)


def test_an_error_without_a_meaning_of_its_own_is_named_by_the_message_given():
    kept = phrase_or(Kept("{side} resigned: {other} wins", side="white", other="black"), "white")
    assert kept.words(Catalog()) == "black gewinnt, white gibt auf"
    named = phrase_or(OSError(28, "No space left on device"), "black")
    assert isinstance(named, Phrase) and named.words(Catalog()) == "Schwarz"
    assert "No space" not in named  # the library's English is for the log
