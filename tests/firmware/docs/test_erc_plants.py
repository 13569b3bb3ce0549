"""Faults a reviewer found, each planted in a copy of every buildable model it fits, and the
rule that reports it; and the wiring tables' pin names held to their own ends."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import pytest
from test_circuit import BUILDS, IDS
from test_erc import drop, drop_part, move, only, swap_part

from navakankari.hal import load_profile
from navakankari.firmware.docs.circuit import (
    HEADER_PIN,
    PI_FUNCTIONS,
    Circuit,
    Net,
    Part,
    drv5032,
    drv5032fa,
    resistor,
)
from navakankari.firmware.docs.erc import check

WIRING = Path(__file__).resolve().parents[3] / "wiring"


MCP = [b for b in BUILDS if b[0].startswith("mcp23017")]
MATRIX = [b for b in BUILDS if b[0].startswith("matrix")]
HALL = [b for b in BUILDS if b[2].sensor_kind == "hall"]


def faults(name: str, c: Circuit) -> list:
    return check(c, load_profile(name))


def with_part(c: Circuit, part: Part, pins: dict[str, str]) -> Circuit:
    """A new part, each named pin put on a net (made if new)."""
    c = c.with_parts((*c.parts, part))
    for key, net in pins.items():
        c = move(c, part.node(key), net)
    return c


def free_gpio(c: Circuit, gpio: int) -> tuple[Circuit, str]:
    """GPIO `gpio`'s header pin taken off whatever it is on, on a net of its own."""
    node = f"PI.{HEADER_PIN[gpio]}"
    return move(c, node, "PLANT"), node


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_a_push_pull_sensor_on_uart_tx_is_caught(name: str, stem: str, c: Circuit) -> None:
    c, node = free_gpio(c, 14)
    c = with_part(c, drv5032fa("X1"), {"OUT": "PLANT", "VCC": "3V3", "GND": "GND"})
    v = only(faults(name, c), "pi-function")
    assert v.nodes[:2] == (node, "X1.3") and "UART TX" in v.message and "PI.8 (GPIO14)" in v.message


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_a_reed_straight_on_an_spi_pin_is_caught(name: str, stem: str, c: Circuit) -> None:
    """A switch to GND on SPI0 SCLK: the function's high meets GND when the switch closes."""
    from navakankari.firmware.docs.circuit import reed

    c, node = free_gpio(c, 11)
    c = with_part(c, reed("X1"), {"1": "PLANT", "2": "GND"})
    v = only(faults(name, c), "pi-function")
    assert "SPI0 SCLK" in v.message and "net GND" in v.message


def test_every_sensor_on_a_push_pull_function_pin_sits_behind_its_resistor() -> None:
    """The shipped fix, taken out: the sensor's side joined straight to the GPIO."""
    checked = 0
    for name, _, c in BUILDS:
        for net in c.nets:
            if not net.name.endswith("_R"):
                continue
            point = net.name[2:-2]
            gpio_net = f"S_{point}"
            pi = next(n for n in c.net(gpio_net).nodes if n.startswith("PI."))
            assert PI_FUNCTIONS[int(c.pin_of(pi)[1].name[4:])][1]
            joined = drop_part(c, f"RS_{point}")
            joined = joined.with_nets(Net(n.name, n.nodes + c.net(net.name).nodes[1:]) if n.name == gpio_net
                                      else n for n in joined.nets if n.name != net.name)
            assert "pi-function" in {v.rule for v in faults(name, joined)}, (name, point)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_two_push_pull_outputs_on_one_net_are_caught(name: str, stem: str, c: Circuit) -> None:
    v = only(faults(name, move(c, "U1.6", "LED_5V")), "outputs-joined")
    assert v.net == "LED_5V" and set(v.nodes) == {"U1.3", "U1.6"} and "U1.6 (2Y)" in v.message


@pytest.mark.parametrize(("name", "stem", "c"), MCP, ids=[s for _, s, _ in MCP])
def test_expander_int_outputs_joined_while_push_pull_are_caught(name: str, stem: str, c: Circuit) -> None:
    def push_pull(part: Part) -> Part:
        return replace(part, pins=tuple(replace(p, kind="output") if p.name.startswith("INT") else p
                                        for p in part.pins))

    c = swap_part(swap_part(c, "U2", push_pull(c.part("U2"))), "U3", push_pull(c.part("U3")))
    v = only(faults(name, c), "outputs-joined")
    assert v.net == "INT" and "U2.20 (INTA)" in v.message and "U3.20 (INTA)" in v.message


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_an_open_drain_output_with_no_pull_up_is_caught(name: str, stem: str, c: Circuit) -> None:
    c, _ = free_gpio(c, 21 if name.startswith("mcp") else 17 if name.startswith("direct") else 16)
    c = with_part(c, drv5032("X1"), {"OUT": "PLANT", "VCC": "3V3", "GND": "GND"})
    v = only(faults(name, c), "open-drain-pull-up")
    assert v.net == "PLANT" and v.nodes == ("X1.3",) and "no pull-up" in v.message


@pytest.mark.parametrize(("name", "stem", "c"), HALL + MCP, ids=[s for _, s, _ in HALL + MCP])
def test_a_shipped_pull_up_taken_out_is_caught(name: str, stem: str, c: Circuit) -> None:
    """The INT line's pull-up, or a hall switch's (one on a GPIO without the Pi's own 1.8 kΩ:
    on GPIO2/3 the Pi's pull-up is enough, and the check knows it)."""
    if c.sensor_kind == "reed":
        ref, nets = "RINT", {"INT"}
    else:
        point = next(p for p in load_profile(name).points
                     if not {"PI.3", "PI.5"} & set(c.net(f"S_{p}").nodes))
        ref, nets = f"RP_{point}", {f"S_{point}", f"S_{point}_R"}
    assert only(faults(name, drop_part(c, ref)), "open-drain-pull-up").net in nets
    on_sda = next((p for p in load_profile(name).points if "PI.3" in c.net(f"S_{p}").nodes), None)
    if on_sda and c.sensor_kind == "hall":
        assert not [v for v in faults(name, drop_part(c, f"RP_{on_sda}")) if v.rule == "open-drain-pull-up"]


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_the_pis_5v_pins_on_no_net_are_caught(name: str, stem: str, c: Circuit) -> None:
    found = [v for v in faults(name, drop(drop(c, "PI.2"), "PI.4")) if v.rule == "pi-supply"]
    assert {v.nodes for v in found} == {("PI.2",), ("PI.4",)} and "on no net" in found[0].message


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_the_pis_return_current_on_one_gnd_pin_is_caught(name: str, stem: str, c: Circuit) -> None:
    v = only(faults(name, drop(drop(c, "PI.9"), "PI.14")), "pi-supply")
    assert v.net == "GND" and v.nodes == ("PI.6",) and "1 GND pin(s)" in v.message


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_a_feed_without_fuse_or_reverse_protection_is_caught(name: str, stem: str, c: Circuit) -> None:
    no_fuse = move(drop_part(c, "F1"), "PSU.1", "5V_FUSED")
    assert "resettable fuse" in only(faults(name, no_fuse), "feed-protection").message
    no_fet = drop_part(c, "Q1")
    no_fet = move(move(no_fet, "F1.2", "5V"), "PSU.2", "GND")
    v = only(faults(name, move(no_fet, "PSU.1", "5V")), "feed-protection")
    assert v.nodes == ("PSU.1",) and "no reverse-polarity protection" in v.message


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_a_mosfet_turned_round_or_with_its_gate_off_ground_is_caught(name: str, stem: str, c: Circuit) -> None:
    turned = c
    for n in ("1", "2", "3"):
        turned = move(turned, f"Q1.{n}", "5V_FUSED")
    for n in ("5", "6", "7", "8"):
        turned = move(turned, f"Q1.{n}", "5V")
    assert "MOSFET turned round" in only(faults(name, turned), "feed-protection").message
    v = only(faults(name, move(c, "Q1.4", "5V")), "feed-protection")
    assert v.nodes == ("Q1.4",) and "Q1.4 (G) of Q1 is on 5V, not GND" in v.message


@pytest.mark.parametrize(("name", "stem", "c"), MATRIX, ids=[s for _, s, _ in MATRIX])
def test_a_reversed_matrix_diode_is_caught(name: str, stem: str, c: Circuit) -> None:
    point = load_profile(name).points[5]
    k, a = c.net_of(f"D_{point}.1"), c.net_of(f"D_{point}.2")
    c = move(move(c, f"D_{point}.1", a), f"D_{point}.2", k)  # type: ignore[arg-type]
    v = only(faults(name, c), "matrix-diode")
    assert v.nodes == (f"D_{point}.1", f"D_{point}.2") and f"cathode (band) on {a}" in v.message


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_a_used_shifter_channel_with_oe_tied_to_disable_is_caught(name: str, stem: str, c: Circuit) -> None:
    v = only(faults(name, move(c, "U1.1", "5V")), "shifter-enable")
    assert v.nodes == ("U1.1", "U1.3") and "U1.1 (1OE) is on 5V" in v.message and "disabled" in v.message


@pytest.mark.parametrize(("name", "stem", "c"), MCP, ids=[s for _, s, _ in MCP])
def test_a_sensor_on_gpa7_is_caught(name: str, stem: str, c: Circuit) -> None:
    net = f"S_{load_profile(name).points[0]}"  # on U2 GPA0
    v = only(faults(name, move(drop(c, "U2.21"), "U2.28", net)), "expander-output-only")
    assert v.nodes[0] == "U2.28" and "U2.28 (GPA7)" in v.message and "output-only" in v.message


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_a_missing_bypass_capacitor_is_blamed_on_its_own_part(name: str, stem: str, c: Circuit) -> None:
    v = only(faults(name, drop_part(c, "C2")), "decoupling")
    assert v.nodes == ("U1.14",) and "of U1 " in v.message
    if name.startswith("mcp"):
        for cap, ref in (("C3", "U2"), ("C4", "U3")):
            found = [x for x in faults(name, drop_part(c, cap)) if x.rule == "decoupling"]
            assert [x.nodes for x in found] == [(f"{ref}.9",)], cap
    if c.sensor_kind == "hall":
        point = load_profile(name).points[3]
        found = [x for x in faults(name, drop_part(c, f"C_{point}")) if x.rule == "decoupling"]
        assert [x.nodes for x in found] == [(f"H_{point}.1",)]


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_a_5v_source_on_a_gpio_net_is_caught_and_named(name: str, stem: str, c: Circuit) -> None:
    """In every build: a resistor from 5V onto a net a GPIO reads (its pull-up moved to 5V)."""
    pull = next(p for p in c.parts if p.kind == "R10k" and c.net_of(p.node("2")) == "3V3")
    c = move(c, pull.node("2"), "5V")
    found = [v for v in faults(name, c) if v.rule == "gpio-over-3v3"]
    assert found and all("can reach 5 V (from net 5V)" in v.message for v in found)
    assert any(n.startswith("PI.") for v in found for n in v.nodes)


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_a_gpio_modelled_as_a_driver_drives_3v3_not_the_pis_5v(name: str, stem: str, c: Circuit) -> None:
    """GPIO14 as an output: the Pi is fed 5 V but drives 3.3 V, so no 5 V is blamed on it;
    a real 5 V source on its net is the one named."""
    pi = c.part("PI")
    c = swap_part(c, "PI", replace(pi, pins=tuple(replace(p, kind="output") if p.number == "8" else p
                                                  for p in pi.pins)))
    c, _ = free_gpio(c, 14)
    assert not [v for v in faults(name, c) if v.rule == "gpio-over-3v3"]
    c = with_part(c, resistor("X1", 10_000), {"1": "PLANT", "2": "5V"})
    v = only(faults(name, c), "gpio-over-3v3")
    assert v.nodes[0] == "PI.8" and "PI.8 (GPIO14) is on net PLANT, which can reach 5 V (from net 5V)" in v.message


def _rows(stem: str) -> list[dict[str, str]]:
    with (WIRING / f"{stem}-wiring.csv").open(newline="") as f:
        return list(csv.DictReader(f))


def row_faults(c: Circuit, rows: list[dict[str, str]]) -> list[str]:
    """Rows whose from_pin/to_pin are not the pin names of their own from/to ends."""
    out = []
    for i, row in enumerate(rows):
        for end, name in ((row["from"], row["from_pin"]), (row["to"], row["to_pin"])):
            if c.pin_of(end)[1].name != name:
                out.append(f"row {i + 2}: {end} is {c.pin_of(end)[1].name}, not {name}")
    return out


@pytest.mark.parametrize(("name", "stem", "c"), BUILDS, ids=IDS)
def test_each_wiring_row_names_its_own_ends_pins(name: str, stem: str, c: Circuit) -> None:
    rows = _rows(stem)
    assert row_faults(c, rows) == []
    i = next(i for i, r in enumerate(rows) if r["from_pin"] != r["to_pin"])
    swapped = [dict(r) for r in rows]
    swapped[i]["from_pin"], swapped[i]["to_pin"] = rows[i]["to_pin"], rows[i]["from_pin"]
    assert len(row_faults(c, swapped)) == 2 and row_faults(c, swapped)[0].startswith(f"row {i + 2}:")



def test_the_electrical_document_names_every_rule_the_check_has() -> None:
    import re

    from navakankari.firmware.docs import erc

    source = Path(erc.__file__).read_text()
    rules = set(re.findall(r'self\.fail\("([a-z0-9-]+)"', source))
    text = (WIRING / "electrical.md").read_text()
    section = text[text.index("## The electrical rules check"):text.index("## Where the figures come from")]
    assert len(rules) > 20 and rules == set(re.findall(r"`([a-z0-9]+(?:-[a-z0-9]+)*)`", section))
