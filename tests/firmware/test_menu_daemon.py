"""The menu in a running daemon on the simulated board: the brightness chosen on the board
reaches the LED strip."""

from __future__ import annotations

import time

from navakankari.engine.boards import BOARDS
from navakankari.firmware.core.menu import BRIGHTNESS_VALUES, layout
from navakankari.firmware.core.status import StatusKind
from sim_daemon import sim_daemon

HOLD = 0.3


def test_brightness_chosen_on_the_board_reaches_the_leds(tmp_path):
    lay = layout(BOARDS["morris"])
    with sim_daemon(tmp_path, menu=True, menu_hold=HOLD) as running:
        daemon = running.daemon
        sim = daemon.board.simulation
        leds = daemon.board.leds
        cap = running.call(lambda: leds.brightness)

        def wait_for(check, within: float = 30.0) -> None:  # type: ignore[no-untyped-def]
            deadline = time.monotonic() + within
            while not running.call(check):
                assert time.monotonic() < deadline
                time.sleep(0.02)

        def choose(point: str) -> None:
            running.call(lambda: sim.place(point))
            wait_for(lambda: daemon.session.status.armed)
            running.call(lambda: sim.lift(point))

        wait_for(lambda: daemon.session.status.kind == StatusKind.MENU)
        choose(lay.brightness)
        wait_for(lambda: daemon.session.status.menu_step == "brightness")
        choose(lay.slots[1])
        wait_for(lambda: daemon.session.status.menu_step == "variant")
        # The loop sets the LEDs once the choice is stored, which can be after the next step
        # shows in the session's status.
        wait_for(lambda: leds.brightness == cap * BRIGHTNESS_VALUES[1])
        frames = running.call(lambda: leds.frames_written)
        assert frames > 0
