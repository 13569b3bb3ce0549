from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from navakankari.firmware.online.code import ALPHABET, GameCode, InvalidCodeError

symbols = st.text(alphabet=ALPHABET, min_size=20, max_size=20)


@given(symbols)
def test_a_code_round_trips_through_its_text(text):
    code = GameCode(text[:8], text[8:])
    assert GameCode.parse(str(code)) == code


def test_typing_is_forgiving():
    code = GameCode.new()
    text = str(code)
    assert len(text) == 27 and text.count("-") == 6
    sloppy = text.lower().replace("-", " ").replace("0", "o").replace("1", "l")
    assert GameCode.parse(sloppy) == code


@pytest.mark.parametrize(("text", "message"), [
    ("K7M-2P9", "21 symbols"),
    ("K7M-2P9-QRT-AX4-B8C-D3F-GU5", "symbol 20"),
    ("", "21 symbols"),
])
def test_a_bad_code_says_what_is_wrong(text, message):
    with pytest.raises(InvalidCodeError, match=message):
        GameCode.parse(text)


def test_a_mistyped_symbol_is_caught():
    code = str(GameCode("K7M2P9QR", "TAX4B8CD3FGH"))
    caught = 0
    for i, c in enumerate(code):
        if c == "-":
            continue
        for other in "0123456789ABCDEFGHJKMNPQRSTVWXYZ":
            if other == c:
                continue
            try:
                GameCode.parse(code[:i] + other + code[i + 1:])
            except InvalidCodeError:
                caught += 1
    assert caught > 0.9 * 21 * 31  # one check symbol of 32: about 31 in 32 typos caught


def test_codes_differ_and_keys_depend_on_both_parts():
    a, b = GameCode.new(), GameCode.new()
    assert a != b
    assert GameCode(a.game, b.secret).key != a.key != GameCode(b.game, a.secret).key


def test_the_next_code_is_derived_from_the_secret() -> None:
    code = GameCode.parse("K7M-2P9-QRT-AX4-B8C-D3F-GH4")
    assert str(code.next()) == "ZA8-5BC-HBZ-0RY-HTP-SA7-NTJ"
    assert GameCode.parse(str(code.next())) == code.next()
    other = GameCode(code.game, "TAX4B8CD3FGJ")  # another secret, another next game
    assert other.next().game != code.next().game
