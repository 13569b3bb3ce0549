"""The electrical rules check: each rule fails on a fault planted in a copy of a shipped model,
with a message that names the net and the pins."""

from __future__ import annotations

from dataclasses import replace

import pytest

from navakankari.hal import load_profile
from navakankari.firmware.docs import erc, generate
from navakankari.firmware.docs.circuit import (
    Circuit,
    Net,
    a3144,
    build_circuit,
    capacitor,
    ky003,
    resistor,
)
from navakankari.firmware.docs.erc import Violation, check


def model(name: str = "direct-24", kind: str | None = None) -> tuple[Circuit, object]:
    profile = load_profile(name)
    return build_circuit(profile, name, kind), profile  # type: ignore[arg-type]


def move(c: Circuit, node: str, net: str) -> Circuit:
    """The node taken off its net and put on `net` (made if new)."""
    nets = [Net(n.name, tuple(x for x in n.nodes if x != node)) for n in c.nets]
    if net not in {n.name for n in nets}:
        nets.append(Net(net, ()))
    return c.with_nets(Net(n.name, n.nodes + (node,)) if n.name == net else n for n in nets)


def add(c: Circuit, node: str, net: str) -> Circuit:
    return c.with_nets(Net(n.name, n.nodes + (node,)) if n.name == net else n for n in c.nets)


def drop(c: Circuit, node: str) -> Circuit:
    return c.with_nets(Net(n.name, tuple(x for x in n.nodes if x != node)) for n in c.nets)


def drop_part(c: Circuit, ref: str) -> Circuit:
    c = c.with_parts(p for p in c.parts if p.ref != ref)
    return c.with_nets(Net(n.name, tuple(x for x in n.nodes if not x.startswith(ref + "."))) for n in c.nets)


def swap_part(c: Circuit, ref: str, part) -> Circuit:
    return c.with_parts(part if p.ref == ref else p for p in c.parts)


def rules(faults: list[Violation]) -> set[str]:
    return {v.rule for v in faults}


def only(faults: list[Violation], rule: str) -> Violation:
    found = [v for v in faults if v.rule == rule]
    assert found, f"no {rule} in {[str(v) for v in faults]}"
    return found[0]


def test_a_shipped_model_passes() -> None:
    c, p = model()
    assert check(c, p) == []


def test_the_drawn_fault_3v3_pin_on_the_5v_rail_is_caught() -> None:
    """The old schematics' red wire: the Pi's 3V3 pin 1 joined to the +5 V rail."""
    c, p = model()
    v = only(check(move(c, "PI.1", "5V"), p), "power-nets-joined")
    assert v.net == "5V" and "PI.1" in v.nodes and "Q1.1" in v.nodes
    assert "joins 5V and 3V3" in v.message and "PI.1 (3V3)" in v.message


def test_two_power_nets_joined_through_ground_is_caught() -> None:
    c, p = model()
    v = only(check(move(c, "PSU.2", "3V3"), p), "power-nets-joined")
    assert v.net == "3V3" and "PSU.2 (GND)" in v.message


def test_a_supply_net_without_its_source_is_caught() -> None:
    c, p = model()
    v = only(check(drop(c, "PI.1"), p), "power-net-without-source")
    assert v.net == "3V3" and "H_a7.1" in v.nodes and "3V3 has no supply" in v.message


def test_a_supply_pin_on_the_wrong_net_is_caught() -> None:
    c, p = model()
    v = only(check(move(c, "U1.14", "3V3"), p), "supply-pin")
    assert v.net == "3V3" and v.nodes == ("U1.14",) and "4.5-5.5 V" in v.message
    v = only(check(move(c, "LED3.3", "3V3"), p), "supply-pin")
    assert "LED3.3 (VSS)" in v.message and "not GND" in v.message
    v = only(check(move(c, "PI.2", "3V3"), p), "supply-pin")
    assert "PI.2 (5V) is a 5V pin on net 3V3" in v.message


def test_an_a3144_on_3v3_is_below_its_supply_range() -> None:
    c, p = model()
    v = only(check(swap_part(c, "H_a7", replace(a3144("H_a7"))), p), "supply-pin")
    assert v.nodes == ("H_a7.1",) and "4.5-24 V" in v.message


def test_a_5v_pullup_on_a_gpio_is_caught() -> None:
    c, p = model("direct-24", "reed")
    v = only(check(move(c, "RP_a7.2", "5V"), p), "gpio-over-3v3")
    assert v.net == "S_a7" and "PI.3 (GPIO2)" in v.message and "5 V" in v.message


def test_a_sensor_module_powered_at_5v_with_its_own_pullup_is_caught() -> None:
    c, p = model()
    c = swap_part(c, "H_a7", ky003("H_a7"))  # its pins: 1 S, 2 VCC, 3 GND
    c = move(move(move(c, "H_a7.1", "S_a7"), "H_a7.2", "5V"), "H_a7.3", "GND")
    v = only(check(c, p), "gpio-over-3v3")
    assert v.net == "S_a7" and "H_a7.1" in v.nodes and "PI.3" in v.nodes


def test_a_gpio_on_the_5v_side_of_the_level_shifter_is_caught() -> None:
    c, p = model()
    faults = check(move(c, "PI.12", "LED_5V"), p)
    v = only(faults, "gpio-over-3v3")
    assert v.net == "LED_5V" and "PI.12 (GPIO18)" in v.message and "U1.3 (1Y)" in v.message
    assert "U1.2 (1A)" in only(faults, "floating-input").message


def test_an_int_pull_up_to_5v_puts_5v_on_the_interrupt_gpio() -> None:
    c, p = model("mcp23017-24")
    v = only(check(move(c, "RINT.2", "5V"), p), "gpio-over-3v3")
    assert v.net == "INT" and "PI.11 (GPIO17)" in v.message and "(from net 5V)" in v.message


@pytest.mark.parametrize(("name", "node", "pin"), [
    ("direct-24", "U1.5", "2A"), ("direct-24", "U1.1", "1OE"), ("direct-24", "U1.13", "4OE"),
    ("mcp23017-24", "U2.18", "RESET"), ("mcp23017-24", "U3.15", "A0"), ("mcp23017-24", "U2.17", "A2"),
])
def test_a_floating_input_is_caught(name: str, node: str, pin: str) -> None:
    c, p = model(name)
    v = only(check(drop(c, node), p), "floating-input")
    assert v.nodes == (node,) and f"{node} ({pin})" in v.message and "no net" in v.message


def test_an_input_on_an_undriven_net_is_caught() -> None:
    c, p = model()
    v = only(check(move(c, "U1.9", "SPARE"), p), "floating-input")
    assert v.net == "SPARE" and "U1.9 (3A)" in v.message


def test_a_pin_on_two_nets_is_caught() -> None:
    c, p = model()
    v = only(check(add(c, "PI.12", "GND"), p), "pin-on-two-nets")
    assert v.nodes == ("PI.12",) and "GND and LED_3V3" in v.message


def test_a_net_naming_a_missing_pin_is_caught() -> None:
    c, p = model()
    v = only(check(add(c, "U1.15", "GND"), p), "unknown-pin")
    assert v.net == "GND" and "U1.15" in v.message


def test_a_profile_gpio_the_model_does_not_wire_is_caught() -> None:
    c, p = model()
    v = only(check(drop(c, "PI.3"), p), "gpio-unwired")
    assert "GPIO2 (PI.3)" in v.message


def test_a_wired_gpio_the_profile_does_not_use_is_caught() -> None:
    c, p = model("mcp23017-24")
    v = only(check(add(c, "PI.40", "INT"), p), "gpio-not-in-profile")
    assert v.net == "INT" and "PI.40 (GPIO21)" in v.message


def test_a_sensor_count_unlike_the_profile_is_caught() -> None:
    c, p = model()
    v = only(check(drop_part(c, "H_g1"), p), "sensor-count")
    assert "23 sensors in the model, 24 points" in v.message


def test_an_led_count_unlike_the_profile_is_caught() -> None:
    c, p = model()
    problem = only(check(drop_part(c, "LED23"), p), "led-count")
    assert "23 LEDs in the model, 24 on the profile's chain" in problem.message


def test_led_data_straight_from_the_pi_is_caught() -> None:
    c, p = model()
    c = move(drop(drop(c, "R1.2"), "U1.2"), "PI.12", "DIN0")
    faults = check(c, p)
    v = only(faults, "led-data-path")
    assert v.net == "DIN0" and "LED0.4 (DIN)" in v.message and "PI.12 (GPIO18)" in v.message
    level = only(faults, "input-level")
    assert "reads high from 3.50 V" in level.message and "3.3 V only" in level.message


def test_a_shifter_powered_from_3v3_is_caught() -> None:
    c, p = model()
    faults = check(move(move(c, "U1.14", "3V3"), "C2.1", "3V3"), p)
    assert "led-data-path" in rules(faults) and "supply-pin" in rules(faults)


def test_a_missing_series_resistor_is_caught() -> None:
    c, p = model()
    c = move(drop_part(c, "R1"), "U1.3", "DIN0")
    v = only(check(c, p), "series-resistor")
    assert v.net == "DIN0" and "U1.3 (1Y)" in v.message and "no series resistor" in v.message


def test_a_series_resistor_of_the_wrong_value_is_caught() -> None:
    c, p = model()
    v = only(check(swap_part(c, "R1", resistor("R1", 10_000)), p), "series-resistor")
    assert "10k ohm" in v.message


def test_a_missing_or_reversed_bulk_capacitor_is_caught() -> None:
    c, p = model()
    assert "bulk-capacitor" in rules(check(drop_part(c, "C1"), p))
    reversed_ = move(move(c, "C1.1", "GND"), "C1.2", "5V")
    assert only(check(reversed_, p), "bulk-capacitor").net == "5V"
    small = swap_part(c, "C1", capacitor("C1", 100, polarised=True))
    assert "1000 µF" in only(check(small, p), "bulk-capacitor").message


def test_a_missing_decoupling_capacitor_is_caught() -> None:
    c, p = model("mcp23017-24")
    v = only(check(drop_part(c, "C4"), p), "decoupling")
    assert v.nodes == ("U3.9",) and "U3" in v.message


def test_generation_refuses_a_faulty_model(monkeypatch: pytest.MonkeyPatch) -> None:
    real = generate.circuits

    def faulty(profile, name):
        built = real(profile, name)
        return (move(built[0], "PI.1", "5V"), *built[1:])

    monkeypatch.setattr(generate, "circuits", faulty)
    with pytest.raises(generate.ElectricalError, match="power-nets-joined: net 5V joins 5V and 3V3"):
        generate.generated_files()


def test_the_erc_command_passes_on_the_shipped_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    assert erc.main() == 0
    out = capsys.readouterr().out
    assert "matrix-24 (reed): pass" in out and "mcp23017-24 (hall): pass" in out
