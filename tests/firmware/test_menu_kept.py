"""What the menu keeps across a restart or a power cut: the LED brightness chosen on the board,
and the last game, which "take back" reopens. On the injected clock, with a real SQLite store."""

from __future__ import annotations

import asyncio
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_menu import MENU, MenuBoard

from navakankari.firmware.config import Config
from navakankari.firmware.daemon import Daemon
from navakankari.firmware.menu import (BRIGHTNESS_LEVELS, Kind, format_brightness,
                                       parse_brightness)
from navakankari.firmware.session import BRIGHTNESS_KEY
from navakankari.firmware.status import StatusKind
from navakankari.firmware.store import Store
from navakankari.hal import load_profile, open_board

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
    level = BRIGHTNESS_LEVELS[1]
    b.choose(Kind.BRIGHTNESS).choose(Kind.LEVEL, f"{level:g}")
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
    b.choose(Kind.BRIGHTNESS).choose(Kind.LEVEL, f"{BRIGHTNESS_LEVELS[3]:g}")
    again.close()
    last = Store(path)
    assert MenuBoard(variant, last).session.brightness == BRIGHTNESS_LEVELS[3]
    last.close()


@pytest.mark.parametrize("text", ["bright", "7", "nan", "0"])
def test_a_damaged_kept_brightness_falls_back_to_the_cap_and_says_so(text, tmp_path, caplog):
    store = Store(tmp_path / "games.sqlite3")
    store.set_setting(BRIGHTNESS_KEY, text)
    with caplog.at_level(logging.WARNING, logger="navakankari.firmware.session"):
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
    store.set_setting(BRIGHTNESS_KEY, format_brightness(BRIGHTNESS_LEVELS[0]))
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
    assert first[0] == pytest.approx(cap * BRIGHTNESS_LEVELS[0])
    assert daemon.session is not None and daemon.session.status.kind == StatusKind.MENU
