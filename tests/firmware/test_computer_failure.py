"""A computer player's failure as the board shows and says it: the error's own wording where
it keeps one, else a catalog sentence naming its kind, never a library's English."""

from __future__ import annotations

import pytest
from navakankari.engine.external import ExternalEngineError
from navakankari.engine.process import ProcessTimeout
from navakankari.engine.variants import new_game
from navakankari.firmware.core.players import FAILURE_KINDS, UNEXPECTED_FAILURE, computer_turn, failure_phrase
from navakankari.hal.words import Phrase


def test_a_worded_error_keeps_its_wording():
    error = ExternalEngineError("engine {path}: {problem}", path="/x", problem="gone")
    said = failure_phrase(error)
    assert said == "engine /x: gone" and said.message == "engine {path}: {problem}"
    timeout = failure_phrase(ProcessTimeout("{program} did not answer in time", program="/x"))
    assert timeout.message == "{program} did not answer in time"  # not a TimeoutError's kind


@pytest.mark.parametrize("error, kind", [
    (MemoryError(), MemoryError), (TimeoutError("read timed out"), TimeoutError),
    (PermissionError(13, "Permission denied"), OSError),  # an OSError's subclass: its kind
    (ValueError("bad literal for int()"), ValueError),
    (RuntimeError("libfoo: segfault"), None), (KeyError("x"), None)])
def test_any_other_error_is_named_by_its_kind_alone(error, kind):
    said = failure_phrase(error)
    assert said == dict(FAILURE_KINDS).get(kind, UNEXPECTED_FAILURE) and not said.places
    assert str(error) not in said or not str(error)


def test_a_computer_that_chooses_an_illegal_action_is_named_by_a_phrase():
    game = new_game("nine-mens-morris")
    d6 = game.parse_action("d6")

    class Stubborn:  # plays d6 whatever the board holds
        def choose(self, game, stop=None):  # type: ignore[no-untyped-def]
            return d6

    game.play("d6")
    with pytest.raises(ValueError) as info:
        computer_turn(Stubborn(), game)
    said = failure_phrase(info.value)
    assert isinstance(said, Phrase) and said == "the computer player chose d6, which is illegal here"
