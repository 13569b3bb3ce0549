"""The carrier board's circuit: the on-board part of each model, with every net that leaves
the board on a pin of the LED-chain or sensor-harness connector."""

from __future__ import annotations

import pytest

from navakankari.hal import load_profile, profile_names
from navakankari.firmware.docs.plate import is_buildable
from navakankari.firmware.docs.carrier import HARNESS_CONNECTOR, LED_CONNECTOR, carrier_circuit, off_board
from navakankari.firmware.docs.circuit import Circuit, build_circuit

NAMES = [n for n in profile_names() if is_buildable(load_profile(n))]


def _pins(circuit: Circuit, ref: str) -> dict[str, str]:
    return {p.name: p.number for p in circuit.part(ref).pins if p.kind != "nc"}


@pytest.mark.parametrize("name", NAMES)
def test_every_net_leaving_the_board_is_on_its_connector(name: str) -> None:
    model = build_circuit(load_profile(name), name)
    carrier = carrier_circuit(model)
    away = off_board(model)
    assert not away & {p.ref for p in carrier.parts}
    assert {"J1", "J4", "F1", "Q1", "U1", "C1", "R1"} <= {p.ref for p in carrier.parts}
    assert carrier.part("J1").pins == model.part("PI").pins
    leds, harness = _pins(carrier, LED_CONNECTOR), _pins(carrier, HARNESS_CONNECTOR)
    assert set(leds) == {"DIN0", "5V", "GND"}
    for net in model.nets:
        refs = {n.partition(".")[0] for n in net.nodes}
        on = tuple(n.replace("PI.", "J1.").replace("PSU.", "J4.").replace("RINT.", "R2.") for n in net.nodes
                   if n.partition(".")[0] not in away)
        if not on:
            continue
        mine = carrier.net(net.name).nodes
        assert mine[:len(on)] == on, net.name
        reaches_sensors = bool(refs & away - set(model.groups["leds"]))
        assert (net.name in harness) == reaches_sensors, net.name
        if reaches_sensors:
            assert f"{HARNESS_CONNECTOR}.{harness[net.name]}" in mine


def test_the_expander_carrier_holds_the_expanders_and_the_int_pull_up() -> None:
    carrier = carrier_circuit(build_circuit(load_profile("mcp23017-24"), "mcp23017-24"))
    refs = {p.ref for p in carrier.parts}
    assert {"U2", "U3", "C3", "C4", "R2"} <= refs  # R2: the model's RINT, numbered for the board
    assert all(ref[-1].isdigit() for ref in refs)
    int_net = next(n for n in carrier.nets if n.name == "INT")
    assert "R2.1" in int_net.nodes
    assert set(_pins(carrier, HARNESS_CONNECTOR)) == {f"S_{p}" for p in load_profile("mcp23017-24").points} | {
        "3V3", "GND"}
