"""The MCP23017 backend: the real Adafruit driver on a fake I2C bus that models the chips."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hal_harness import McpHarness
from hal_fakes import GPINTEN, GPIO, GPPU, IOCON, IODIR, FakeI2C
from navakankari.hal import load_profile
from navakankari.hal import SensorEvent
from navakankari.hal.backends.mcp23017_sensors import Mcp23017Sensors
from navakankari.sim import ManualClock


def test_both_chips_are_set_up_for_interrupt_on_change(mock_factory: MockFactory) -> None:
    h = McpHarness(mock_factory, ManualClock())
    for chip in h.bus.chips.values():
        assert chip.reg16(IODIR) == 0x7F7F  # GPA7/GPB7 outputs, as current silicon requires
        assert chip.reg16(GPPU) == 0x7F7F
        assert chip.reg16(GPINTEN) == 0x7F7F
        assert chip.regs[IOCON] == 0x44
    assert mock_factory.pin(h.profile.sensors.interrupt_pin).pull == "up"
    h.sensors.close()


def test_an_interrupt_reads_both_chips_and_releases_the_line(mock_factory: MockFactory) -> None:
    clock = ManualClock(1.0)
    h = McpHarness(mock_factory, clock)
    events: list[SensorEvent] = []
    h.sensors.start(events.append)
    h.place("g1")  # chip 1, GPB2
    assert events == [SensorEvent("g1", True, 1.0)]
    assert not h.bus.int_low
    clock.advance(0.5)
    h.place("c4")  # chip 0, GPB4: needs the mirrored INT
    assert events[-1] == SensorEvent("c4", True, 1.5)
    assert not h.bus.int_low
    assert h.bus.fights == [] and h.bus.output_only_reads == []  # GPIO read with GPA7/GPB7 outputs
    h.sensors.close()


def test_a_change_before_start_does_not_leave_the_line_stuck(mock_factory: MockFactory) -> None:
    h = McpHarness(mock_factory, ManualClock())
    h.place("a7")
    assert h.bus.int_low
    events: list[SensorEvent] = []
    h.sensors.start(events.append)
    assert not h.bus.int_low and events == []
    h.lift("a7")
    assert events == [SensorEvent("a7", False, 0.0)]
    h.sensors.close()


def test_a_missing_chip_is_reported(mock_factory: MockFactory) -> None:
    bus = FakeI2C([0x20])
    with pytest.raises(ValueError, match="0x21"):
        Mcp23017Sensors([0x20, 0x21], 17, {"a7": (0, 0), "d7": (1, 0)}, i2c=bus)


def test_a_bus_passed_in_is_not_closed(mock_factory: MockFactory) -> None:
    h = McpHarness(mock_factory, ManualClock())
    h.sensors.close()
    assert not h.bus.deinit_called


def test_a_change_while_the_other_chip_is_read_is_not_lost(mock_factory: MockFactory) -> None:
    """INT stays low with no new edge when chip 0 changes while chip 1 is being read."""
    h = McpHarness(mock_factory, ManualClock())
    events: list[SensorEvent] = []
    h.sensors.start(events.append)
    once = []

    def change_chip_0(address: int, register: int) -> None:
        if address == 0x21 and not once:
            once.append(True)
            h.place("a7")  # chip 0, GPA0

    h.bus.during_read = change_chip_0
    h.place("g1")  # chip 1
    assert {e.point for e in events} == {"g1", "a7"}
    assert not h.bus.int_low
    h.sensors.close()


def test_a_missing_chip_releases_the_bus_it_opened(mock_factory: MockFactory) -> None:
    bus = FakeI2C([0x20])
    with pytest.raises(ValueError, match="0x21"):
        Mcp23017Sensors([0x20, 0x21], 17, {"a7": (0, 0), "d7": (1, 0)}, open_i2c=lambda: bus)
    assert bus.deinit_called


def test_a_busy_interrupt_pin_releases_the_bus_it_opened(mock_factory: MockFactory) -> None:
    from gpiozero import DigitalInputDevice
    from gpiozero.exc import GPIOPinInUse

    holder = DigitalInputDevice(17)
    bus = FakeI2C([0x20, 0x21])
    with pytest.raises(GPIOPinInUse):
        Mcp23017Sensors([0x20, 0x21], 17, {"a7": (0, 0), "d7": (1, 0)}, open_i2c=lambda: bus)
    assert bus.deinit_called
    holder.close()
    # The pin and a new bus are free again: the backend opens.
    again = FakeI2C([0x20, 0x21])
    Mcp23017Sensors([0x20, 0x21], 17, {"a7": (0, 0), "d7": (1, 0)}, open_i2c=lambda: again).close()
    assert again.deinit_called


def test_a_change_during_set_up_never_makes_two_int_outputs_fight(mock_factory: MockFactory) -> None:
    """A pebble lands while the chips are set up: the first chip read asserts INT, and every
    other chip's INT is already open-drain, not driving its power-on push-pull high."""
    clock = ManualClock()
    profile = load_profile("mcp23017-24")
    s = profile.sensors
    bus = FakeI2C(s.addresses)
    landed: list[int] = []

    def land(address: int, register: int) -> None:
        if not landed:
            landed.append(address)
            bus.ground(address, 0, True)

    bus.during_read = land
    sensors = Mcp23017Sensors(s.addresses, s.interrupt_pin, s.channels, i2c=bus, clock=clock)
    assert landed and bus.int_low and bus.fights == []
    assert bus.output_only_reads == []
    sensors.close()


def test_the_fake_sees_push_pull_int_outputs_fight() -> None:
    """The old order (one chip set up and interrupting while the next is still at power-on)."""
    bus = FakeI2C([0x20, 0x21])
    first = bus.chips[0x20]
    for reg, value in ((IOCON, 0x44), (GPPU, 0xFF), (GPINTEN, 0xFF)):
        first.write(reg, value)
    bus.ground(0x20, 0, True)
    assert bus.fights == [{0x20: "low", 0x21: "high"}]


def test_reading_with_gpa7_an_input_is_seen_by_the_fake() -> None:
    bus = FakeI2C([0x20])
    buf = bytearray(2)
    assert bus.try_lock()
    bus.writeto_then_readfrom(0x20, bytes([GPIO]), buf)
    bus.unlock()
    assert bus.output_only_reads == [(0x20, "GPA7"), (0x20, "GPB7")]


def test_a_sensor_on_an_output_only_pin_is_refused() -> None:
    with pytest.raises(ValueError, match="GPA7/GPB7"):
        Mcp23017Sensors([0x20], 17, {"a7": (0, 7)}, i2c=FakeI2C([0x20]))
