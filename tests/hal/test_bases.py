"""Behaviour written once in the SensorArray and LedStrip bases."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from navakankari.hal import LedStrip, SensorArray, SensorEvent, correction_table
from navakankari.sim import ManualClock


class LateEdgeSensors(SensorArray):
    """A backend whose pebble lands while its edge handlers are still being attached."""

    def __init__(self, points: Sequence[str] = ("a1", "b2")) -> None:
        super().__init__(points, clock=ManualClock(2.0))
        self.present: set[str] = set()

    def _read(self) -> Iterable[str]:
        return self.present

    def _start(self) -> None:
        self.present.add("b2")  # no handler yet: the edge itself is never seen


def test_an_edge_during_start_is_caught_up() -> None:
    sensors = LateEdgeSensors()
    events: list[SensorEvent] = []
    sensors.start(events.append)
    assert events == [SensorEvent("b2", True, 2.0)]


def test_point_names_and_led_indices_must_be_unique() -> None:
    with pytest.raises(ValueError):
        SimpleStrip({"a1": 0, "b2": 0})
    with pytest.raises(ValueError):
        LateEdgeSensors(["a1", "a1"])


class SimpleStrip(LedStrip):
    def __init__(self, index: dict[str, int], **kwargs) -> None:
        super().__init__(index, **kwargs)
        self.written: list[list[tuple[int, int, int]]] = []

    def _write(self, pixels: Sequence[tuple[int, int, int]]) -> None:
        self.written.append(list(pixels))


def test_correction_table_is_gamma_then_cap() -> None:
    table = correction_table(1.0)
    assert table[0] == 0 and table[255] == 255 and table[128] == 42
    assert correction_table(0.0) == bytes(256)
    assert list(correction_table(0.5, gamma=1.0))[::51] == [0, 26, 51, 76, 102, 128]
    with pytest.raises(ValueError):
        correction_table(1.1)


def test_brightness_can_be_lowered_at_run_time() -> None:
    strip = SimpleStrip({"a1": 0}, brightness=1.0)
    strip.show({"a1": (255, 255, 255)})
    strip.brightness = 0.1
    strip.show({"a1": (255, 255, 255)})
    assert strip.written == [[(255, 255, 255)], [(26, 26, 26)]]
    with pytest.raises(ValueError):
        strip.brightness = 2.0
    assert strip.brightness == 0.1


def test_led_indices_must_fit_the_chain() -> None:
    with pytest.raises(ValueError):
        SimpleStrip({"a1": 0, "b2": 2})
    assert SimpleStrip({"a1": 0, "b2": 2}, count=3).count == 3
