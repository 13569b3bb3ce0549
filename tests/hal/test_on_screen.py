"""How the web page shows an LED's light on a screen (hal.leds.on_screen)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from navakankari.hal.leds import correction_table, on_screen


def test_the_brightest_led_the_cap_allows_is_full_white_and_dark_is_black() -> None:
    top = correction_table(0.25)[255]
    assert top == 64
    assert on_screen((top, top, top), 0.25) == (255, 255, 255)
    assert on_screen((0, 0, 0), 0.25) == (0, 0, 0)


def test_half_the_light_is_srgb_188_not_128() -> None:
    # IEC 61966-2-1: linear 0.5 encodes to 1.055 * 0.5 ** (1 / 2.4) - 0.055 = 0.7354 -> 188
    assert on_screen((32, 0, 16), 0.25) == (188, 0, 137)
    assert on_screen((128, 0, 0), 1.0) == (188, 0, 0)


@given(st.integers(0, 254), st.sampled_from([0.1, 0.25, 0.5, 1.0]))
def test_more_light_never_shows_darker(v: int, cap: float) -> None:
    assert on_screen((v, 0, 0), cap)[0] <= on_screen((v + 1, 0, 0), cap)[0]


def test_a_cap_of_zero_is_refused() -> None:
    with pytest.raises(ValueError, match="brightness"):
        on_screen((1, 1, 1), 0.0)
