"""Every pair of lights that must be told apart stays apart for colour-blind eyes: by colour
(CIEDE2000 of the emitted light under simulated deuteranopia, protanopia and tritanopia) or
by how they move. colour_vision.py prints the table."""

from __future__ import annotations

import pytest
from coloraide import Color
from colour_vision import (
    DEFICIENCIES,
    MIN_DELTA_E,
    VISIONS,
    by_colour,
    caps,
    channel,
    delta_e,
    emitted,
    format_table,
    table,
    told_apart,
)

from navakankari.firmware.core.palette import PALETTE, Look, Role, check_palette
from navakankari.hal.leds import correction_table


@pytest.mark.parametrize(("cap", "gamma"), caps())
def test_every_pair_told_apart_by_colour_differs_under_each_deficiency(cap, gamma):
    rows = table(PALETTE, cap, gamma)
    too_close = [f"{a.value}/{b.value} {v}: {d[v]:.1f}" for a, b, d in rows for v in VISIONS
                 if d[v] < MIN_DELTA_E]
    assert too_close == [], "\n" + format_table(rows)


def test_the_quality_classes_and_the_named_pairs_are_measured():
    pairs = set(by_colour())
    quality = [Role.QUALITY_KEEPS, Role.QUALITY_WORSE, Role.QUALITY_DROPS, Role.QUALITY_LOSES]
    assert {(a, b) for i, a in enumerate(quality) for b in quality[i + 1:]} <= pairs
    assert {(Role.TURN_BLACK, Role.HINT), (Role.TURN_BLACK, Role.THREAT),
            (Role.MILL, Role.COMPUTER_TO), (Role.COMPUTER_FROM, Role.COMPUTER_TAKE)} <= pairs
    # a far-away player's move against every light shown with it, blinking or not
    assert {(Role.MILL, Role.REMOTE_FROM), (Role.MILL, Role.REMOTE_TO),
            (Role.COMPUTER_TAKE, Role.REMOTE_TO), (Role.REMOTE_FROM, Role.TO_EMPTY),
            (Role.REMOTE_TO, Role.PAIR_TO), (Role.REMOTE_FROM, Role.SENSOR_FAULT)} <= pairs


def test_pairs_not_told_apart_by_colour_move_differently():
    for a, b in told_apart():
        if (a, b) not in by_colour():
            assert channel(PALETTE[a]) != channel(PALETTE[b])


def test_a_blink_is_fast_or_slow():
    check_palette(PALETTE)
    assert {channel(PALETTE[r]) for r in Role} <= {"steady", "pulse", "fast blink", "slow blink"}
    with pytest.raises(ValueError, match="neither a fast"):
        check_palette({**PALETTE, Role.HINT: Look((0, 255, 255), PALETTE[Role.HINT].animation,
                                                  0.6)})


def test_the_measure_can_fail():
    """The earlier keeps green and worse yellow look alike to a deuteranope and a protanope,
    and the earlier sky blue of black's side is the earlier magenta of "loses" to one."""
    cap, gamma = caps()[0]
    green, yellow = emitted((0, 255, 0), cap, gamma), emitted((238, 255, 0), cap, gamma)
    assert delta_e(green, yellow, "normal") > MIN_DELTA_E
    assert delta_e(green, yellow, "deuteranopia") < 8 and delta_e(green, yellow, "protanopia") < 3
    sky, magenta = emitted((113, 176, 255), cap, gamma), emitted((255, 0, 255), cap, gamma)
    assert delta_e(sky, magenta, "deuteranopia") < 1


def test_the_emitted_colour_is_the_production_path():
    cap, gamma = caps()[0]
    table_ = correction_table(cap, gamma)
    assert emitted((255, 255, 255), cap, gamma) == (255, 255, 255)  # the brightest the cap allows
    assert table_[180] == 26 and emitted((180, 0, 0), cap, gamma)[0] < 255


def test_the_library_computes_ciede2000_and_simulates_dichromacy():
    # Sharma, Wu and Dalal (2005), the CIEDE2000 test data: pair 1 is 2.0425.
    a = Color("lab-d65", [50.0, 2.6772, -79.7751])
    b = Color("lab-d65", [50.0, 0.0, -82.7485])
    assert a.delta_e(b, method="2000") == pytest.approx(2.0425, abs=1e-4)
    # A dichromat loses one opponent axis: red and green meet for deutans and protans,
    # blue and green for tritans; white stays white.
    for vision in DEFICIENCIES:
        assert delta_e((255, 255, 255), (255, 255, 255), vision) == 0
    assert delta_e((255, 0, 0), (0, 160, 0), "deuteranopia") < delta_e(
        (255, 0, 0), (0, 160, 0), "normal") / 3
