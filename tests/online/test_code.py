from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from navakankari.firmware.online.code import ALPHABET, GameCode, InvalidCodeError, stretched

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
    assert str(code.next()) == "N1F-4NQ-ZYD-QCM-HWQ-R1A-2X6"
    assert GameCode.parse(str(code.next())) == code.next()
    other = GameCode(code.game, "TAX4B8CD3FGJ")  # another secret, another next game
    assert other.next().game != code.next().game


def test_the_keys_and_topic_names_come_from_the_stretched_secret() -> None:
    """PROTOCOL.md's figures for its example code: scrypt (N 2^14, r 8) of the secret salted
    with the game id, then one HKDF label each; each differs from the others and from the
    next game's, and none is protocol 1's plain SHA-256 of the code."""
    import hashlib

    code = GameCode.parse("K7M-2P9-QRT-AX4-B8C-D3F-GH4")
    assert code.key.hex() == "78e98a65bcb89eb215af4979cd957f6f2f398c8206a05596da5846f3053aab4e"
    assert code.seal_key.hex() == ("4a9b71ec4e172e881c7798d55b6010fd"
                                   "ccace8056383e2c7de7bb834576cb88b")
    assert (code.room, code.lobby) == ("4f76287aef1792cd706a1ddb95d6d90a",
                                       "e20dd31c632182524f8fba976ebbf421")
    after = code.next()
    names = {code.key, code.seal_key, bytes.fromhex(code.room), bytes.fromhex(code.lobby),
             after.key, after.seal_key, bytes.fromhex(after.room)}
    assert len(names) == 7
    older = hashlib.sha256(f"navakankari-online:{code.game}:{code.secret}".encode()).digest()
    assert older not in names
    assert hashlib.scrypt(code.secret.encode(), salt=b"navakankari-online:v2:K7M2P9QR",
                          n=2 ** 14, r=8, p=1, dklen=32) == stretched(code.game, code.secret)
