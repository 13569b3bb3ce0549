"""The adaptive computer's level: a step after two results in a row at one level, no more."""

from __future__ import annotations

from navakankari.engine.adaptive import Played, Result, next_level
from navakankari.engine.player import DEFAULT_LEVEL, MAX_LEVEL

W, L, D = Result.WON, Result.LOST, Result.DRAWN


def levels(results: list[Result]) -> list[int]:
    """The level of each game in turn, each from the games before it."""
    played: list[Played] = []
    for result in results:
        played.append(Played(next_level(played), result))
    return [p.level for p in played] + [next_level(played)]


def test_it_starts_at_the_default_level() -> None:
    assert next_level([]) == DEFAULT_LEVEL


def test_two_wins_in_a_row_raise_it_and_two_losses_lower_it() -> None:
    d = DEFAULT_LEVEL
    assert levels([W, W, L, L]) == [d, d, d + 1, d + 1, d]
    assert levels([L, L, L, L]) == [d, d, d - 1, d - 1, d - 2]


def test_a_draw_or_an_alternation_breaks_the_run() -> None:
    d = DEFAULT_LEVEL
    assert levels([W, D, W, L, W, L]) == [d] * 7
    assert levels([W, W, W]) == [d, d, d + 1, d + 1]  # the third win starts a run at the new level


def test_it_stays_within_the_levels() -> None:
    assert levels([L] * 8)[-1] == 1
    assert levels([W] * 20)[-1] == MAX_LEVEL
    assert next_level([Played(99, W)]) == MAX_LEVEL  # a damaged level is brought in range
