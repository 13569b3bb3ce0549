"""The palette is judged by what the LEDs emit, after gamma and every shipped brightness cap.

The emitted value is computed here with Adafruit's gamma-table formula written out
(learn.adafruit.com/led-tricks-gamma-correction, "The Longer Fix":
`(int)(pow(i / max_in, gamma) * max_out + 0.5)`, with max_out = 255 x the cap), not with the
production table in hal/leds.py, so a mistake there cannot hide one here.
"""

from __future__ import annotations

import itertools
import math

import pytest
from navakankari.engine.game import Outcome, Reason, Side
from navakankari.engine.presets import preset
from navakankari.firmware.core.lights import ANY_TIME, SHOWN_TOGETHER, pulse_changes, render, roles
from navakankari.firmware.core.palette import (
    PALETTE,
    TOLD_APART_OVER_TIME,
    Animation,
    Role,
)
from navakankari.firmware.core.status import Status, StatusKind
from navakankari.hal.leds import correction_table
from navakankari.hal.profile import load_profile, profile_names
from tables import Table

MIN_CHANNEL = 20
"""An LED emitting at least 20/255 on one channel is plainly lit beside a dark one in a room."""
MIN_DISTANCE = 0.15
"""OKLab distance between roles lit together. A just-noticeable difference is about 0.02;
0.15 is a different colour at a glance (e.g. white vs warm white is about 0.16)."""

CAPS = sorted({(load_profile(n).leds.brightness, load_profile(n).leds.gamma) for n in profile_names()})


def emitted(rgb: tuple[int, int, int], cap: float, gamma: float) -> tuple[int, ...]:
    return tuple(int((c / 255) ** gamma * (255 * cap) + 0.5) for c in rgb)


def oklab(linear: tuple[float, ...]) -> tuple[float, float, float]:
    """Björn Ottosson's OKLab of linear-light sRGB (bottosson.github.io/posts/oklab)."""
    r, g, b = linear
    lms = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b,
           0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b,
           0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    l_, m_, s_ = (x ** (1 / 3) for x in lms)
    return (0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
            1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
            0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_)


def distance(a: Role, b: Role, cap: float, gamma: float) -> float:
    """Emitted light relative to the brightest the cap allows (the eye adapts to the board)."""
    top = 255 * cap
    la = oklab(tuple(v / top for v in emitted(PALETTE[a].colour, cap, gamma)))
    lb = oklab(tuple(v / top for v in emitted(PALETTE[b].colour, cap, gamma)))
    return math.dist(la, lb)


def test_the_formula_here_agrees_with_the_production_table() -> None:
    for cap, gamma in CAPS:
        table = correction_table(cap, gamma)
        assert all(table[v] == emitted((v, 0, 0), cap, gamma)[0] for v in range(256))


@pytest.mark.parametrize(("cap", "gamma"), CAPS)
@pytest.mark.parametrize("role", list(Role))
def test_every_role_is_lit_on_the_leds(role: Role, cap: float, gamma: float) -> None:
    assert max(emitted(PALETTE[role].colour, cap, gamma)) >= MIN_CHANNEL


@pytest.mark.parametrize(("cap", "gamma"), CAPS)
def test_roles_lit_together_are_told_apart(cap: float, gamma: float) -> None:
    pairs = {frozenset(p) for group in SHOWN_TOGETHER
             for p in itertools.combinations(group | {ANY_TIME}, 2)}
    pairs |= {frozenset(p) for p in TOLD_APART_OVER_TIME}
    too_close = []
    for a, b in sorted(tuple(sorted(p)) for p in pairs):
        steady = {PALETTE[a].animation == Animation.STEADY, PALETTE[b].animation == Animation.STEADY}
        if steady == {True, False}:
            continue  # one blinks or pulses beside a steady one: told apart by that
        d = distance(a, b, cap, gamma)
        if d < MIN_DISTANCE:
            too_close.append(f"{a.value}/{b.value}: {d:.3f}")
    assert too_close == []


def test_the_old_dim_colours_would_fail() -> None:
    """The test can fail: the colours of the earlier palette emit nothing under a 0.25 cap."""
    assert emitted((24, 17, 8), 0.25, 2.6) == (0, 0, 0)
    assert emitted((4, 9, 26), 0.25, 2.6) == (0, 0, 0)


@pytest.mark.parametrize(("cap", "gamma"), CAPS)
@pytest.mark.parametrize("role", [r for r in Role if PALETTE[r].animation == Animation.PULSE])
def test_a_pulse_stays_lit_at_its_dim_end(role: Role, cap: float, gamma: float) -> None:
    t = Table(preset("nine-mens-morris"))
    status = Status(StatusKind.CLEARING, "white", confirm_point="d5")
    palette = {**PALETTE, Role.CONFIRM_CLEAR: PALETTE[role]}  # light this look on d5
    period = PALETTE[role].period
    times = [0.0, *(period * c for c in pulse_changes())]  # every level the cycle shows
    levels = [render(t.game, status, at, palette)["d5"] for at in times]
    dimmest = min(max(emitted(c, cap, gamma)) for c in levels)
    brightest = max(max(emitted(c, cap, gamma)) for c in levels)
    assert dimmest >= MIN_CHANNEL
    assert brightest >= 2 * dimmest  # and it visibly pulses


POINTS = ("a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4")


def _statuses(turn: str) -> list[Status]:
    p = POINTS
    full = dict(lifted=(p[0],), placed=(p[1],), destinations=(p[2],), captures=(p[3],),
                takeable=(p[4],), mills=(p[5], p[6]), forced_from=(p[7],), forced_to=(p[8],),
                forced_take=(p[9],), to_empty=(p[10], p[11]), to_fill=(p[12], p[13]),
                pairs=((p[10], p[12]), (p[11], p[13])), confirm_point="d2")
    # Assistance: judged destinations and free points, threats, a hint, a blunder's warning.
    assisted = dict(quality=((p[2], "keeps"), ("d3", "worse"), ("e3", "drops"), ("c3", "loses")),
                    threats=("d1",), hint=("f2",), blunder=("b2",), blunder_until=100.0)
    out = []
    for kind in StatusKind:
        for holding, armed in ((False, False), (True, False), (True, True), (False, True)):
            for outcome in (None, Outcome(Side.WHITE, Reason.BLOCKED),
                            Outcome(Side.BLACK, Reason.BLOCKED), Outcome(None, Reason.REPETITION)):
                for extra in ({}, assisted, {**assisted, "asking": ("g4",)}):
                    out.append(Status(kind, turn, holding=holding, armed=armed, outcome=outcome,
                                      faulty=("g1",), **full, **extra))
    return out


@pytest.mark.parametrize("record", ["", "d6", "a7 b6 d7 f6"])  # Lasker: places and moves
def test_shown_together_lists_every_frame_roles_can_make(record: str) -> None:
    t = Table(preset("lasker"), record)
    seen = set()
    for status in _statuses(str(t.game.turn)):
        for now in (0.0, 2.5):  # two different pairs of a mismatch
            lit = set(roles(t.game, status, now).values())
            assert ANY_TIME in lit
            lit.discard(ANY_TIME)
            assert any(lit <= group for group in SHOWN_TOGETHER), (status.kind, lit)
            seen |= lit
    assert Role.FREE_WHITE in seen or Role.FREE_BLACK in seen
    assert {Role.QUALITY_KEEPS, Role.QUALITY_LOSES, Role.THREAT, Role.HINT, Role.BLUNDER,
            Role.ASKING} <= seen
