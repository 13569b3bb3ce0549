"""Refused messages are counted by kind and logged at most once a minute per kind."""

from __future__ import annotations

import logging

from navakankari.firmware.online.rejections import Rejections


def test_a_flood_is_a_few_lines_with_counts(caplog):
    now = [0.0]
    refused = Rejections(logging.getLogger("test.online"), clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, "test.online"):
        for i in range(1000):
            now[0] = i * 0.1  # 100 s of a message every tenth of a second
            refused.add("bad-signature", f"forged move {i}")
            if i % 100 == 0:
                refused.add("too-deep", "nested deeper than 3")
    lines = [r.getMessage() for r in caplog.records]
    assert refused.counts == {"bad-signature": 1000, "too-deep": 10} and refused.total == 1010
    forged = [line for line in lines if "bad-signature" in line]
    deep = [line for line in lines if "too-deep" in line]
    assert len(forged) == 2 and len(deep) == 2
    assert forged[0] == "online: dropped a message (bad-signature): forged move 0"
    assert forged[1].startswith("online: dropped 600 messages (bad-signature) in the last 60 s")
    assert "forged move 600" in forged[1]
