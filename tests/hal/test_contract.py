"""What every sensor and LED backend must do alike (simulated board included)."""

from __future__ import annotations

import pytest

from navakankari.hal import LedError, SensorError, SensorEvent

from hal_harness import BRIGHTNESS, LedHarness, SensorHarness

# --- sensors -------------------------------------------------------------------------------


def test_points_come_from_the_profile(sensor_harness: SensorHarness) -> None:
    assert sensor_harness.sensors.points == sensor_harness.profile.points  # type: ignore[attr-defined]


def test_read_follows_the_pebbles(sensor_harness: SensorHarness) -> None:
    h = sensor_harness
    assert h.sensors.read() == frozenset()
    h.place("a7")
    h.place("d6")
    h.place("g1")
    assert h.sensors.read() == {"a7", "d6", "g1"}
    h.lift("d6")
    assert h.sensors.read() == {"a7", "g1"}


def test_events_carry_point_state_and_injected_time(sensor_harness: SensorHarness) -> None:
    h = sensor_harness
    events: list[SensorEvent] = []
    h.sensors.start(events.append)
    h.clock.set(101.5)
    h.place("d6")
    h.settle()
    h.clock.set(102.25)
    h.lift("d6")
    h.place("e3")
    h.settle()
    assert events[0] == SensorEvent("d6", True, 101.5)
    assert sorted(events[1:], key=lambda e: e.point) == [
        SensorEvent("d6", False, 102.25),
        SensorEvent("e3", True, 102.25),
    ]


def test_pebbles_there_before_start_are_not_events(sensor_harness: SensorHarness) -> None:
    h = sensor_harness
    h.place("c4")
    events: list[SensorEvent] = []
    h.sensors.start(events.append)
    h.settle()
    assert events == []
    h.lift("c4")
    h.settle()
    assert [(e.point, e.present) for e in events] == [("c4", False)]


def test_stop_ends_events_and_start_resumes(sensor_harness: SensorHarness) -> None:
    h = sensor_harness
    events: list[SensorEvent] = []
    h.sensors.start(events.append)
    h.sensors.stop()
    h.place("b4")
    h.settle()
    assert events == []
    h.sensors.start(events.append)
    h.lift("b4")
    h.settle()
    assert [(e.point, e.present) for e in events] == [("b4", False)]


def test_start_twice_is_refused(sensor_harness: SensorHarness) -> None:
    sensor_harness.sensors.start(lambda e: None)
    with pytest.raises(SensorError):
        sensor_harness.sensors.start(lambda e: None)


def test_close_is_idempotent_and_final(sensor_harness: SensorHarness) -> None:
    s = sensor_harness.sensors
    s.start(lambda e: None)
    s.close()
    s.close()
    assert s.closed
    with pytest.raises(SensorError):
        s.read()
    with pytest.raises(SensorError):
        s.start(lambda e: None)


def test_context_manager_closes(sensor_harness: SensorHarness) -> None:
    with sensor_harness.sensors as s:
        assert not s.closed
    assert s.closed


# --- LEDs ----------------------------------------------------------------------------------


GAMMA = 2.6  # the WS2812 correction the hardware notes settle on


def _expected(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """What the LED must be sent for a requested colour: each channel through the gamma curve
    out = 255 * (in / 255) ** gamma, then scaled by the brightness cap, rounded to a byte."""
    r, g, b = (round(255 * (c / 255) ** GAMMA * BRIGHTNESS) for c in rgb)
    return (r, g, b)


def test_show_lights_named_points_and_darkens_the_rest(led_harness: LedHarness) -> None:
    strip = led_harness.strip
    strip.show({"a7": (255, 0, 0), "d7": (0, 128, 255)})
    frame = led_harness.frames()[-1]
    assert len(frame) == 24
    assert frame[0] == _expected((255, 0, 0))
    assert frame[1] == _expected((0, 128, 255))
    assert frame[2:] == [(0, 0, 0)] * 22
    assert (frame[0], frame[1]) == ((64, 0, 0), (0, 11, 64))  # worked by hand
    strip.show({"g1": (10, 200, 30)})
    frame = led_harness.frames()[-1]
    assert frame[:23] == [(0, 0, 0)] * 23 and frame[23] == _expected((10, 200, 30))
    assert frame[23] == (0, 34, 0)  # 10 and 30 fall below the first step: dark
    assert strip.frames_written == 2


def test_brightness_cap_and_gamma_reach_the_leds(led_harness: LedHarness) -> None:
    led_harness.strip.show({"a7": (255, 255, 255), "d7": (128, 64, 0)})
    frame = led_harness.frames()[-1]
    assert frame[0] == (64, 64, 64)  # full white capped at a quarter
    assert frame[1] == (round((128 / 255) ** 2.6 * 255 * 0.25), round((64 / 255) ** 2.6 * 255 * 0.25), 0)
    assert frame[1] == (11, 2, 0)


def test_one_frame_per_show(led_harness: LedHarness) -> None:
    before = len(led_harness.frames())
    led_harness.strip.show({p: (255, 0, 0) for p in led_harness.strip.points})
    assert len(led_harness.frames()) == before + 1


def test_set_and_flush_build_a_frame(led_harness: LedHarness) -> None:
    strip = led_harness.strip
    before = len(led_harness.frames())
    strip.set("b6", (255, 255, 255))
    strip.set("f2", (0, 0, 255))
    assert len(led_harness.frames()) == before
    strip.flush()
    frame = led_harness.frames()[-1]
    assert frame[3] == (64, 64, 64) and frame[20] == (0, 0, 64)


def test_off_and_close_turn_everything_dark(led_harness: LedHarness) -> None:
    strip = led_harness.strip
    strip.show({"a7": (255, 255, 255)})
    strip.off()
    assert led_harness.frames()[-1] == [(0, 0, 0)] * 24
    strip.show({"a7": (255, 255, 255)})
    strip.close()
    strip.close()
    assert led_harness.frames()[-1] == [(0, 0, 0)] * 24
    with pytest.raises(LedError):
        strip.show({})


@pytest.mark.parametrize(
    "frame", [{"zz": (1, 2, 3)}, {"a7": (256, 0, 0)}, {"a7": (1, 2)}, {"a7": (1.0, 2, 3)}]
)
def test_bad_frames_are_refused(led_harness: LedHarness, frame: dict) -> None:
    with pytest.raises(LedError):
        led_harness.strip.show(frame)
