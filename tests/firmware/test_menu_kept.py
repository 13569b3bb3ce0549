"""What the menu keeps across a restart or a power cut: the LED brightness chosen on the board,
and the last game, which "take back" reopens. On the injected clock, with a real SQLite store."""

from __future__ import annotations

import asyncio
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st
from navakankari.firmware.core.menu import (
    BRIGHTNESS_VALUES,
    Kind,
    format_brightness,
    layout,
    parse_brightness,
)
from navakankari.firmware.core.board_settings import BRIGHTNESS_KEY
from navakankari.firmware.core.status import StatusKind
from navakankari.firmware.daemon.config import Config
from navakankari.firmware.daemon.loop import Daemon
from navakankari.firmware.store.database import Store
from navakankari.hal import load_profile, open_board
from test_menu import MenuBoard

BOTH = ("nine-mens-morris", "nau-keti-keta")


@given(st.floats(min_value=0.0, max_value=1.0, exclude_min=True))
def test_a_kept_brightness_reads_back_as_written(level):
    assert parse_brightness(format_brightness(level)) == level


@pytest.mark.parametrize("text", ["", "bright", "0", "-0.4", "1.5", "nan", "inf", "0.4.1"])
def test_a_damaged_brightness_is_refused(text):
    with pytest.raises(ValueError, match="LED brightness"):
        parse_brightness(text)


@pytest.mark.parametrize("variant", BOTH)
def test_the_brightness_chosen_survives_a_restart_and_a_power_cut(variant, tmp_path):
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    b = MenuBoard(variant, store).run()
    level = BRIGHTNESS_VALUES[1]
    b.choose(Kind.BRIGHTNESS).choose(Kind.BRIGHTNESS_VALUE, f"{level:g}")
    assert b.session.brightness == level
    # A power cut: the file is read by another connection, the first never closed.
    cut = Store(path)
    assert MenuBoard(variant, cut).session.brightness == level
    cut.close_quietly()
    store.close()
    # A restart: closed and opened again; a later choice replaces it.
    again = Store(path)
    b = MenuBoard(variant, again).run()
    assert b.session.brightness == level
    b.choose(Kind.BRIGHTNESS).choose(Kind.BRIGHTNESS_VALUE, f"{BRIGHTNESS_VALUES[3]:g}")
    again.close()
    last = Store(path)
    assert MenuBoard(variant, last).session.brightness == BRIGHTNESS_VALUES[3]
    last.close()


@pytest.mark.parametrize("text", ["bright", "7", "nan", "0"])
def test_a_damaged_kept_brightness_falls_back_to_the_cap_and_says_so(text, tmp_path, caplog):
    store = Store(tmp_path / "games.sqlite3")
    store.set_setting(BRIGHTNESS_KEY, text)
    with caplog.at_level(logging.WARNING, logger="navakankari.firmware.core.session"):
        b = MenuBoard("nine-mens-morris", store).run()
    assert b.session.brightness == 1.0
    assert any("LED brightness" in r.getMessage() and "cap" in r.getMessage()
               for r in caplog.records)
    store.close()


class _Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_the_daemon_sets_the_kept_brightness_before_its_first_frame(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    store.set_setting(BRIGHTNESS_KEY, format_brightness(BRIGHTNESS_VALUES[0]))
    store.close()
    config = Config(game_variant="nine-mens-morris", board_profile="sim-25",
                    store_path=str(path), game_menu=True)
    board = open_board(load_profile("sim-25"), backend="sim")
    cap = board.leds.brightness
    daemon = Daemon(config, board, store=Store(path), clock=_Clock())
    first: list[float] = []

    def on_frame() -> None:
        first.append(board.leds.brightness)
        daemon.stop()

    daemon.add_frame_listener(on_frame)
    assert asyncio.run(daemon.run()) == 0
    assert first[0] == pytest.approx(cap * BRIGHTNESS_VALUES[0])
    assert daemon.session is not None and daemon.session.status.kind == StatusKind.MENU


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize("cut", [False, True], ids=["restart", "power-cut"])
def test_take_back_from_the_menu_reaches_the_game_that_ended_before_a_restart(variant, cut,
                                                                               tmp_path):
    from navakankari.engine.variants import new_game
    from navakankari.firmware.core.session import CLEARED
    from navakankari.firmware.core.status import MismatchReason
    from test_menu import play_and_clear

    path = tmp_path / "games.sqlite3"
    store = Store(path)
    b = MenuBoard(variant, store).run()
    b.choose(Kind.SAME, noise=False)
    b.hands.setup(sorted(b.board.names(new_game(b.rules).occupancy)))
    b.run()
    gid = b.session.game_id
    record = play_and_clear(b, 5)
    assert b.status.kind == StatusKind.MENU
    assert store.load(gid).outcome == {"winner": None, "reason": CLEARED}
    if cut:  # nothing closed: the next start reads what was synced
        store = Store(path)
    else:
        store.close()
        store = Store(path)
    b = MenuBoard(variant, store).run()
    assert b.status.kind == StatusKind.MENU
    assert b.session.record() == record  # loaded as it ended, not as a game in play
    assert b.point(Kind.TAKEBACK) == layout(b.board).takeback
    b.choose(Kind.TAKEBACK)
    assert b.session.menu is None and b.session.game_id == gid
    assert b.session.record() == " ".join(record.split()[:-1])
    assert not store.load(gid).finished and store.load(gid).outcome is None
    assert store.load(gid).actions == tuple(record.split()[:-1])
    assert b.status.kind == StatusKind.MISMATCH and b.status.reason == MismatchReason.RESTORE
    for p in sorted(b.board.names(b.session.game.occupancy)):
        b.hands.place(p).wait(0.15)
    b.hands.wait(0.5)
    b.run()
    assert b.status.kind == StatusKind.IDLE
    action = b.session.game.legal_actions()[0]
    b.hands.perform(b.board, action)
    b.run()
    assert store.load(gid).actions[-1] == action.text
    store.close()


def test_a_game_won_before_a_restart_is_reopened_by_take_back(tmp_path):
    from navakankari.engine.presets import preset
    from tables import random_game

    rules = preset("nine-mens-morris")
    ref = next(g for g in (random_game(rules, seed=s, plies=400) for s in range(40))
               if g.outcome() is not None and g.outcome().winner is not None)
    store = Store(tmp_path / "games.sqlite3")
    gid = store.new_game(rules, {"white": "hand", "black": "computer:2"})
    store.append(gid, 0, [a.text for a in ref.history])
    store.finish(gid, ref.outcome().to_dict())
    b = MenuBoard("nine-mens-morris", store).run()
    assert b.session.game.outcome() == ref.outcome()
    b.choose(Kind.TAKEBACK)
    # The hand's last turn is taken back, with the computer's answer if it was the last.
    kept = len(b.session.game.history)
    assert kept < len(ref.history) and b.session.game_id == gid
    assert b.session.game.outcome() is None and store.last_unfinished().id == gid
    assert store.load(gid).actions == tuple(a.text for a in ref.history[:kept])
    store.close()
