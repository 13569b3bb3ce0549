"""A sensor that chatters without end is shown as faulty and ignored until it is quiet."""

from __future__ import annotations

import logging
import random

import pytest
from navakankari.engine.presets import preset
from navakankari.firmware.core import lights
from navakankari.firmware.core.palette import PALETTE, Role
from navakankari.firmware.core.status import StatusKind
from navakankari.firmware.core.tracker import TrackerSettings
from navakankari.sim.hands import ScriptedHands
from tables import SETTINGS, Table, random_game

NINE = preset("nine-mens-morris")


def chatter(hands: ScriptedHands, point: str, seconds: float, gap: float = 0.04) -> None:
    """A sensor flipping every `gap` seconds, ending where it was."""
    state = point in hands.occupied
    for _ in range(round(seconds / gap / 2)):
        hands.edge(point, not state)
        hands.wait(gap)
        hands.edge(point, state)
        hands.wait(gap)


def test_a_chattering_sensor_is_shown_and_ignored_until_quiet(caplog):
    caplog.set_level(logging.WARNING, "navakankari.firmware.core.tracker")
    t = Table(NINE, "d6 a1")
    chatter(t.hands, "g7", SETTINGS.fault_window + 0.5)
    t.hands.place("d2")  # the other sensors are still followed
    chatter(t.hands, "g7", 1.0)
    t.at(0.0)
    s = t.status
    assert s.faulty == ("g7",) and t.tracker.faulty == {"g7"}
    assert t.record == "d6 a1 d2"
    frame = lights.render(t.game, s, s.since)
    assert frame["g7"] == PALETTE[Role.SENSOR_FAULT].colour
    assert lights.roles(t.game, s, s.since)["g7"] == Role.SENSOR_FAULT
    # Quiet for a while: read again, nothing was committed on it.
    end = t.hands.t
    t.run(end + SETTINGS.fault_quiet - 0.1)
    assert t.status.faulty == ("g7",)
    t.run()
    assert t.status.faulty == () and t.status.kind == StatusKind.IDLE
    assert t.record == "d6 a1 d2"
    # It starts again: shown again, the warning is not repeated.
    chatter(t.hands, "g7", SETTINGS.fault_window + 0.5)
    t.at(0.0)
    assert t.status.faulty == ("g7",)
    t.run()
    warnings = [r for r in caplog.records if "chatters" in r.getMessage()]
    assert len(warnings) == 1 and "g7" in warnings[0].getMessage()


def test_a_faulty_sensor_that_ends_with_a_pebble_on_it_is_read_once_quiet():
    t = Table(NINE, "d6 a1")
    chatter(t.hands, "g7", SETTINGS.fault_window + 0.5)
    t.hands.place("g7")
    t.at(1.0)
    assert t.record == "d6 a1" and t.status.faulty == ("g7",)
    t.run()
    assert t.record == "d6 a1 g7" and t.status.faulty == ()


def test_slower_or_shorter_chatter_than_the_window_is_not_a_fault():
    t = Table(NINE, "d6 a1")
    chatter(t.hands, "g7", SETTINGS.fault_window - 0.3)  # a long burst, but it ends
    t.run()
    assert t.status.faulty == () and t.record == "d6 a1"


@pytest.mark.parametrize("variant", ["nine-mens-morris", "lasker", "nau-keti-keta"])
def test_whole_games_with_heavy_bounces_never_flag_a_sensor(variant, caplog):
    caplog.set_level(logging.WARNING, "navakankari.firmware.core.tracker")
    rules = preset(variant)
    ref = random_game(rules, seed=4, plies=60)
    t = Table(rules)
    t.hands.rng = random.Random(3)
    t.hands.chatter = 10  # up to 20 extra edges on every lift and set-down
    t.hands.pause = 0.5
    for action in ref.history:
        t.hands.perform(t.game.board, action)
    t.run()
    assert t.record == ref.record()
    assert not [r for r in caplog.records if "chatters" in r.getMessage()]


def test_fault_settings_are_checked():
    with pytest.raises(ValueError, match="fault_edges"):
        TrackerSettings(fault_edges=0)
    with pytest.raises(ValueError, match="fault_quiet"):
        TrackerSettings(fault_quiet=-1)
