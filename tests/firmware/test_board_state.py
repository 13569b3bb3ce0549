"""The board state the session's parts share: one subscriber that fails does not keep the
others from hearing of a change, and the session's turn goes on; an unsubscribe may be
called twice. On the injected clock."""

from __future__ import annotations

import logging

from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.firmware.core.players import HAND
from navakankari.firmware.core.session import Session
from navakankari.firmware.core.update import Update
from tables import SETTINGS

NINE = preset("nine-mens-morris")


def test_a_failing_subscriber_is_logged_and_the_others_still_hear(caplog):
    session = Session(NINE, {Side.WHITE: HAND, Side.BLACK: HAND}, settings=SETTINGS)
    heard: list[str] = []

    def broken(update: Update) -> None:
        raise RuntimeError("a page gone away")

    session.subscribe(broken)
    unsubscribe = session.subscribe(lambda update: heard.append(update.reason))
    with caplog.at_level(logging.ERROR, logger="navakankari.firmware.core.board_state"):
        session.new_game(1.0)
    assert heard == ["new-game"]
    assert [r.getMessage() for r in caplog.records] == ["subscriber failed"]
    assert session.state.last_status is session.tracker.status  # the new game went on
    unsubscribe()
    unsubscribe()  # a second call finds nothing to remove
    session.takeback_to(2.0, 0)
    assert heard == ["new-game"]
