"""The circuit models, and the documents written from them held to them: KiCad's netlist of
the schematic, the wiring table, the bill of materials and the power budget."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from navakankari.hal import load_profile, profile_names
from navakankari.firmware.docs import generate as docs
from navakankari.firmware.docs.plate import is_buildable
from navakankari.firmware.docs.bom import LINES, NOT_IN_BOM, count, net_loads
from navakankari.firmware.docs.circuit import HEADER, Circuit, build_circuit, circuits
from navakankari.firmware.docs.erc import check
from navakankari.firmware.docs.kicad.project import model_net_name, netlist_nets

WIRING = Path(__file__).resolve().parents[3] / "wiring"


def _builds() -> list[tuple[str, str, Circuit]]:
    out = []
    for name in profile_names():
        profile = load_profile(name)
        if is_buildable(profile):
            for i, c in enumerate(circuits(profile, name)):
                out.append((name, name if i == 0 else f"{name}-{c.sensor_kind}", c))
    return out


BUILDS = _builds()
IDS = [stem for _, stem, _ in BUILDS]


def test_every_buildable_profile_has_a_model_and_sims_have_none() -> None:
    assert {name for name, _, _ in BUILDS} == {n for n in profile_names() if not n.startswith("sim")}
    with pytest.raises(ValueError, match="simulated"):
        build_circuit(load_profile("sim-24"), "sim-24")
    with pytest.raises(ValueError, match="cannot use hall"):
        build_circuit(load_profile("matrix-24"), "matrix-24", "hall")


@pytest.mark.parametrize(("name", "stem", "circuit"), BUILDS, ids=IDS)
def test_the_erc_passes_on_every_shipped_build(name: str, stem: str, circuit: Circuit) -> None:
    assert [str(v) for v in check(circuit, load_profile(name))] == []


@pytest.mark.parametrize(("name", "stem", "circuit"), BUILDS, ids=IDS)
def test_5v_reaches_only_the_shifter_supply_the_leds_and_the_pis_5v_pins(
        name: str, stem: str, circuit: Circuit) -> None:
    on_5v = {circuit.pin_of(n)[0].kind + "." + circuit.pin_of(n)[1].name for n in circuit.net("5V").nodes}
    assert on_5v == {"AO4407.S", "raspberry-pi.5V", "74AHCT125.VCC", "C100n.1", "C1000u.+", "WS2812B.VDD"}
    on_3v3 = {circuit.pin_of(n)[0].kind + "." + circuit.pin_of(n)[1].name for n in circuit.net("3V3").nodes}
    assert "raspberry-pi.3V3" in on_3v3
    assert not {"WS2812B.VDD", "74AHCT125.VCC", "supply-5v.+5V"} & on_3v3
    assert circuit.net_of("PI.1") == "3V3" and circuit.net_of("PI.2") == "5V" and circuit.net_of("PI.4") == "5V"
    assert [circuit.net_of(f"PI.{n}") for n in (6, 9, 14)] == ["GND"] * 3
    assert circuit.net_of("PSU.1") == "5V_SUPPLY" and circuit.net_of("F1.2") == circuit.net_of("Q1.5") == "5V_FUSED"


def _kicad_nets(stem: str) -> dict[str, str]:
    """Node -> net in the checked-in netlist KiCad exported from the build's schematic (held
    to a fresh export by tests/hal/test_kicad.py)."""
    text = (WIRING / "kicad" / stem / f"{stem}.net").read_text()
    return {node: model_net_name(net) for net, nodes in netlist_nets(text).items() for node in nodes
            if not net.startswith("unconnected-(")}


@pytest.mark.parametrize(("name", "stem", "circuit"), BUILDS, ids=IDS)
def test_the_kicad_schematic_holds_exactly_the_models_nets(name: str, stem: str, circuit: Circuit) -> None:
    assert _kicad_nets(stem) == {node: net.name for net in circuit.nets for node in net.nodes}


def test_the_matrix_pullups_and_the_expander_sensors_are_drawn() -> None:
    matrix = _kicad_nets("matrix-24")
    for c in range(8):
        assert matrix[f"RC{c}.1"] == f"COL{c}" and matrix[f"RC{c}.2"] == "3V3"
    assert matrix["D_a7.1"] == "ROW0" and matrix["D_a7.2"] == "M_a7" and matrix["SW_a7.1"] == "COL7"
    mcp = _kicad_nets("mcp23017-24")
    assert mcp["U2.21"] == "S_a7" and mcp["H_a7.3"] == "S_a7" and mcp["U3.15"] == "3V3"
    assert mcp["U2.18"] == "3V3" and mcp["U2.20"] == mcp["U3.20"] == mcp["PI.11"] == "INT"


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize(("name", "stem", "circuit"), BUILDS, ids=IDS)
def test_the_wiring_table_wires_each_net_as_one_tree(name: str, stem: str, circuit: Circuit) -> None:
    path = WIRING / f"{stem}-wiring.csv"
    assert path.read_text().splitlines()[0].startswith("from,to,net")
    rows = _read_csv(path)
    by_net: dict[str, list[tuple[str, str]]] = {}
    for row in rows:
        for end in (row["from"], row["to"]):
            assert re.fullmatch(r"[A-Za-z0-9_]+\.[0-9]+", end), end
            assert circuit.net_of(end) == row["net"], f"{end} is not on {row['net']}"
        by_net.setdefault(row["net"], []).append((row["from"], row["to"]))
    for net in circuit.nets:
        if len(net.nodes) < 2:
            continue
        edges = by_net.pop(net.name)
        assert len(edges) == len(net.nodes) - 1, net.name
        reached, todo = {net.nodes[0]}, [net.nodes[0]]
        while todo:
            n = todo.pop()
            for a, b in edges:
                for x, y in ((a, b), (b, a)):
                    if x == n and y not in reached:
                        reached.add(y)
                        todo.append(y)
        assert reached == set(net.nodes), net.name
    assert by_net == {}


def test_the_wiring_table_names_header_pins_physically() -> None:
    rows = _read_csv(WIRING / "direct-24-wiring.csv")
    ends = {(r["from"], r["net"]) for r in rows} | {(r["to"], r["net"]) for r in rows}
    assert ("PI.1", "3V3") in ends and ("PI.2", "5V") in ends and ("PI.6", "GND") in ends
    assert ("PI.12", "LED_3V3") in ends  # GPIO18
    assert HEADER[12] == 18 and HEADER[1] == "3V3" and HEADER[2] == "5V"
    assert {h for h, g in HEADER.items() if g == "GND"} == {6, 9, 14, 20, 25, 30, 34, 39}
    assert {r["colour"] for r in rows if r["net"] == "5V"} == {"red"}


def test_the_bom_counts_what_the_models_hold() -> None:
    bom = docs.generated_files()["docs/bill-of-materials.md"]
    head = next(line for line in bom.splitlines() if line.startswith("| part |"))
    names = [c.strip(" `") for c in head.split("|")[4:-2]]
    covered = {k for line in LINES for k in line.kinds}
    for name in names:
        built = circuits(load_profile(name), name)
        for c in built:
            assert {p.kind for p in c.parts} - covered <= set(NOT_IN_BOM), name
        for line in LINES:
            if not line.kinds:
                continue
            row = next(r for r in bom.splitlines() if r.startswith(f"| {line.name} |"))
            cell = [x.strip() for x in row.split("|")[4:-2]][names.index(name)]
            first = count(built[0], line.kinds)
            alternative = count(built[1], line.kinds) if len(built) > 1 else 0
            assert cell == (str(first) if first else f"({alternative})" if alternative else "-"), (name, line.name)


def test_the_power_budget_sums_the_models_nets() -> None:
    profile = load_profile("direct-24")
    hall, reeds = circuits(profile, "direct-24")
    assert net_loads(hall)["5V"]["WS2812B"] == pytest.approx(24 * (60 * 0.25 + 1))
    assert net_loads(hall)["5V"]["raspberry-pi"] == 1000
    assert net_loads(reeds)["3V3"]["R10k"] == pytest.approx(24 * 3.3 / 10_000 * 1000)
    budget = docs.generated_files()["docs/power-budget.md"]
    assert "| `direct-24` | hall | 24 | 0.25 | 384 mA | 1000 mA | 7.96 mA | 1.39 A |" in budget
    assert "| `mcp23017-24` | hall | 24 | 0.25 | 384 mA | 1000 mA | 10.29 mA | 1.39 A |" in budget


@pytest.mark.parametrize(("name", "stem", "circuit"), BUILDS, ids=IDS)
def test_supply_current_never_runs_through_the_pis_header(name: str, stem: str, circuit: Circuit) -> None:
    """The LEDs' 5 V and GND come from the supply on their own wires: every power wire that
    touches the Pi goes straight to the protected 5V source (the MOSFET) or the supply's GND
    (3V3 is the Pi's own output)."""
    for row in _read_csv(WIRING / f"{stem}-wiring.csv"):
        ends = (row["from"], row["to"])
        if row["net"] in ("5V", "GND") and any(e.startswith("PI.") for e in ends):
            assert any(e.startswith("Q1." if row["net"] == "5V" else "PSU.") for e in ends), row


@pytest.mark.parametrize(("name", "stem", "circuit"), BUILDS, ids=IDS)
def test_every_part_one_maker_makes_has_its_part_number(name: str, stem: str, circuit: Circuit) -> None:
    """Each part is either one maker's, with that maker and the part number its data sheet
    gives, or a generic one (resistor, capacitor, the Pi's header); and the BOM line of each
    one-maker part names the same part number."""
    for part in circuit.parts:
        generic = part.kind == "raspberry-pi" or re.fullmatch(r"[RC][\d.]+[kmunp]?", part.kind) is not None
        assert bool(part.mpn) != generic, part
        assert bool(part.maker) == bool(part.mpn), part
        line = next((x for x in LINES if part.kind in x.kinds), None)
        if part.mpn and line is not None and part.kind != "supply-5v":  # that line is the supply, not its terminal
            assert part.mpn in line.number, (part.ref, line.number)
