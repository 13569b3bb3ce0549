"""The board's advice on a position is the same however often it is asked for and whatever
was advised before: the worker's judge starts each position from a cleared table and counts
its work in search nodes."""

from __future__ import annotations

from dataclasses import replace

from navakankari.engine.hint import Quality
from navakankari.engine.variants import new_game
from navakankari.engine.advice import QUALITY, advise_position


def _seen(advice):
    return replace(advice, judgement=replace(advice.judgement, seconds=0.0))


def test_five_looks_at_the_first_reply_give_one_advice_and_no_red_light():
    game = new_game("navakankari")
    game.push(game.parse("d6"))  # black to place its first pebble
    other = new_game("navakankari")
    other.play_record("d6 b6 d2 f2 b4")
    looks = []
    for _ in range(5):
        looks.append(_seen(advise_position(game.rules, game.position(), 1, game.key, QUALITY)))
        advise_position(other.rules, other.position(), 5, other.key, QUALITY)  # in between
    assert all(look == looks[0] for look in looks)
    classes = looks[0].judgement.classes()
    assert len(classes) == 23
    # Nothing black can place first loses a pebble: no red light, no warning.
    assert not {a for a, q in classes.items() if q in (Quality.DROPS, Quality.LOSES)}
    assert looks[0].reasons == ()
