"""Calibration learns a scrambled board's wiring and writes a profile the loader accepts."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from navakankari.hal import SensorEvent, load_profile, open_board
from navakankari.hal.tools.calibrate import (
    Calibration,
    CalibrationError,
    Stage,
    calibrated_profile,
    point_channels,
    channel_profile,
    run_calibration,
    write_profile,
)
from navakankari.sim import ManualClock


def _scramble(n: int, seed: int) -> list[int]:
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return order


@pytest.mark.parametrize("name", ["direct-24", "matrix-24", "mcp23017-24", "direct-19"])
def test_a_scrambled_board_is_learned(name: str, tmp_path: Path) -> None:
    profile = load_profile(name)
    raw, channels = channel_profile(profile)
    wire = dict(zip(profile.points, [raw.points[i] for i in _scramble(len(profile.points), 1)]))
    led_at = dict(
        zip(range(profile.leds.count), [profile.points[i] for i in _scramble(len(profile.points), 2)])
    )
    cal = Calibration(profile.points, profile.leds.count)
    t = 0.0
    while not cal.done:
        if cal.stage is Stage.NAMES:
            point = cal.prompt().removeprefix("Put a pebble on ")
        else:
            (lit,) = [n for n, c in cal.frame().items() if c == (255, 255, 255)]
            point = led_at[int(lit.removeprefix("led"))]
        t += 1
        cal.on_event(SensorEvent(wire[point], True, t))
        assert cal.prompt() == "Take the pebble off"
        cal.on_event(SensorEvent(wire[point], False, t + 0.5))
    learned = calibrated_profile(profile, channels, cal.channel_of, cal.led_of)
    assert learned.leds.index == {p: i for i, p in led_at.items()}
    assert point_channels(learned) == {p: channels[wire[p]] for p in profile.points}
    assert type(learned.sensors) is type(profile.sensors)
    path = tmp_path / "learned.toml"
    write_profile(learned, path, note="calibrated")
    assert load_profile(path) == learned


def test_a_channel_already_taken_is_refused_with_a_note() -> None:
    cal = Calibration(["a1", "b2"], 2)
    cal.on_event(SensorEvent("gpio4", True, 0))
    cal.on_event(SensorEvent("gpio4", False, 1))
    cal.on_event(SensorEvent("gpio4", True, 2))
    assert cal.notes == ["gpio4 already belongs to a1: try again"]
    assert cal.prompt() == "Put a pebble on b2"


def test_an_incomplete_calibration_is_not_written() -> None:
    profile = load_profile("direct-19")
    _, channels = channel_profile(profile)
    with pytest.raises(CalibrationError, match="not calibrated: a7"):
        calibrated_profile(profile, channels, {}, {})


def test_run_calibration_on_the_simulator_keeping_sensors() -> None:
    """The maker answers each lit LED; LEDs were chained in reverse."""
    profile = load_profile("sim-19")
    clock = ManualClock()
    out = io.StringIO()
    boards = []

    def opener(raw):
        board = open_board(raw, clock=clock, backend="sim")
        boards.append(board)
        return board

    def sleep(dt: float) -> None:
        clock.advance(dt)
        sim = boards[0].simulation
        last = out.getvalue().splitlines()[-1]
        if last.startswith("Put a pebble on the lit point (LED"):
            led = int(last.rsplit(" ", 1)[1].rstrip(")"))
            channel = f"ch{len(profile.points) - 1 - led}"
            if channel not in sim.pebbles:
                sim.place(channel)
        elif last == "Take the pebble off":
            for channel in list(sim.pebbles):
                sim.lift(channel)

    learned = run_calibration(profile, opener, keep_sensors=True, clock=clock, sleep=sleep, out=out)
    assert learned.leds.index == {p: len(profile.points) - 1 - i for i, p in enumerate(profile.points)}
    assert boards[0].leds.closed
