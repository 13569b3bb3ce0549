"""The one grammar of player specs: every kind read and written back, each mistake named."""

from __future__ import annotations

import pytest

from navakankari import engine
from navakankari.engine.endgame import EndgameDataError
from navakankari.engine.errors import PlayerError, RulesError
from navakankari.engine.external import ExternalEngineError
from navakankari.engine.player import DEFAULT_LEVEL, MAX_LEVEL
from navakankari.engine.player_spec import (
    PLAYER_KINDS,
    SPEC_WORDS,
    PlayerSpec,
    PlayerSpecError,
    at_level,
)
from navakankari.engine.search_process import SearchProcessError


@pytest.mark.parametrize("text", ["hand", "hand:0", "hand:4", "computer:1", f"computer:{MAX_LEVEL}",
                                  "computer:adaptive", "remote", "online", "random", "greedy"])
def test_every_spec_reads_back_as_written(text: str) -> None:
    assert str(PlayerSpec.parse(text)) == text
    assert PlayerSpec.parse(str(PlayerSpec.parse(text))) == PlayerSpec.parse(text)


def test_the_short_and_other_spellings_read_as_their_written_form() -> None:
    assert str(PlayerSpec.parse("computer")) == f"computer:{DEFAULT_LEVEL}"
    assert str(PlayerSpec.parse("Computer:MAX")) == f"computer:{MAX_LEVEL}"
    assert str(PlayerSpec.parse("hand:1")) == "hand"
    with pytest.warns(FutureWarning, match="write computer:2"):
        assert PlayerSpec.parse("level:2") == PlayerSpec("computer", 2)


def test_remote_and_online_are_two_kinds_whose_moves_arrive() -> None:
    remote, online = PlayerSpec.parse("remote"), PlayerSpec.parse("online")
    assert remote != online and remote.moves_arrive and online.moves_arrive
    assert not any(PlayerSpec.parse(t).moves_arrive for t in ("hand", "computer", "random"))
    assert [k for k in PLAYER_KINDS if PlayerSpec(k).plays_itself] == \
        ["computer", "engine", "random", "greedy"]


def test_the_help_words_name_every_kind() -> None:
    for kind in PLAYER_KINDS:
        assert kind in SPEC_WORDS, kind


@pytest.mark.parametrize("text, problem", [
    (3, "must be a string"),
    ("robot", "unknown player 'robot'"),
    ("hand:5", "a hand's assistance must be 0..4"),
    ("computer:0", f"computer level must be 1..{MAX_LEVEL}"),
    ("remote:2", "only a computer player has a level"),
    ("random:1", "only a computer player has a level"),
])
def test_a_bad_spec_is_named_with_its_key(text: object, problem: str) -> None:
    with pytest.raises(PlayerSpecError, match=problem) as info:
        PlayerSpec.parse(text, "--black")
    assert info.value.key == "--black" and str(info.value).startswith("--black: ")


def test_a_player_that_fails_is_not_bad_input() -> None:
    for error in (ExternalEngineError, SearchProcessError):
        assert issubclass(error, PlayerError) and not issubclass(error, RulesError)
    assert not issubclass(EndgameDataError, RulesError)
    assert not hasattr(engine, "EngineError")


def test_the_adaptive_computer_is_written_alike_at_every_level() -> None:
    spec = PlayerSpec.parse("Computer:Adaptive", "white")
    assert spec.adaptive and spec.plays_itself and spec.level == DEFAULT_LEVEL
    for level in range(1, MAX_LEVEL + 1):
        playing = at_level(spec, level)
        assert playing.level == level and str(playing) == "computer:adaptive"
        assert PlayerSpec.parse(str(playing)) == at_level(spec, DEFAULT_LEVEL)
    assert at_level(PlayerSpec.parse("computer:2"), 5) == PlayerSpec("computer", 2)
    with pytest.raises(ValueError, match="level must be"):
        at_level(spec, MAX_LEVEL + 1)
    with pytest.raises(PlayerSpecError, match="max or adaptive"):
        PlayerSpec.parse("computer:adapt")
