"""Simulated hands in a menu that offers no game to play: said once, and the hands stop."""

from __future__ import annotations

import asyncio
import logging

from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.firmware.core.menu import MenuSettings
from navakankari.firmware.core.players import HAND
from navakankari.firmware.core.session import Session
from navakankari.firmware.core.status import StatusKind
from navakankari.firmware.daemon.simhands import SimHands


def test_hands_stop_when_the_menu_offers_no_game_to_play(caplog):
    # The configured game cannot be played on this board: no "same as last time" choice.
    session = Session(preset("nau-keti-keta"), {Side.WHITE: HAND, Side.BLACK: HAND},
                      occupied=(), now=0.0, menu=MenuSettings(), variants=["navakankari"])
    assert session.status.kind == StatusKind.MENU
    assert all(kind != "same" for _, kind, _ in session.status.choices)
    hands = SimHands(None, session, ["d6"], pause=0.0)
    with caplog.at_level(logging.ERROR, logger="navakankari.firmware.daemon.simhands"):
        asyncio.run(asyncio.wait_for(hands.run(), 5))
    assert [r.getMessage() for r in caplog.records] == ["sim-hands: the menu offers no game to play"]
