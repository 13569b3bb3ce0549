"""A restart resumes the board's game whatever variant the configuration names: the
configuration's variant is the default for a new game only."""

from __future__ import annotations

import logging

from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.firmware.core.players import HAND, PlayerSpec
from sim_daemon import sim_daemon


def test_a_restart_resumes_a_game_of_another_variant(tmp_path, caplog):
    with sim_daemon(tmp_path, variant="navakankari", menu=True) as running:
        daemon = running.daemon
        running.call(lambda: daemon.session.new_game(
            daemon.now(), rules=preset("nau-keti-keta"),
            players={Side.WHITE: HAND, Side.BLACK: PlayerSpec("computer", 2)}))
        chosen = running.call(lambda: daemon.session.game_id)
    with caplog.at_level(logging.INFO, logger="navakankari"), \
            sim_daemon(tmp_path, variant="navakankari", menu=True) as running:
        session = running.daemon.session
        state = running.call(lambda: (session.rules.name, session.game_id, session.menu,
                                      str(session.players[Side.BLACK])))
    assert state == ("nau-keti-keta", chosen, None, "computer:2")
    assert f"resumed game {chosen} (nau-keti-keta)" in caplog.text
    assert "not resuming" not in caplog.text and "new game" not in caplog.text
