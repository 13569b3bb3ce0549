from __future__ import annotations

import pytest

from navakankari.firmware.i18n.catalogs import translations
from navakankari.firmware.online.toss import Committed, TossError, commitment, starter


def test_the_toss_follows_both_bits_and_checks_the_reveal():
    for bit in (0, 1):
        for other in (0, 1):
            c = Committed("K7M2P9QR", "ab" * 16, bit)
            assert starter(c.game, c.commit, c.nonce, c.bit, other) == \
                ("white" if bit == other else "black")


def test_a_changed_bit_or_another_games_commitment_voids_the_toss():
    c = Committed.new("K7M2P9QR")
    with pytest.raises(TossError) as raised:
        starter(c.game, c.commit, c.nonce, 1 - c.bit, 0)
    assert raised.value.problem.words(translations("hi")) == \
        "खोला गया बिट वचन से मेल नहीं खाता: टॉस रद्द है"
    with pytest.raises(TossError) as raised:
        starter(c.game, c.commit, c.nonce, 2, 0)
    assert raised.value.problem.words(translations("ta")) == "பூவா தலையா இலக்கம் 0 அல்லது 1"
    with pytest.raises(TossError):
        starter(c.game, commitment("OTHERGAM", c.nonce, c.bit), c.nonce, c.bit, 0)


def test_fresh_commitments_hide_the_bit():
    seen = {Committed.new("K7M2P9QR").commit for _ in range(20)}
    assert len(seen) == 20
