"""The circuit models, and the documents written from them held to them: schematic wires,
the wiring table, the KiCad netlist, the bill of materials and the power budget."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest

from navakankari.hal import load_profile, profile_names
from navakankari.hal.docs import generate as docs
from navakankari.hal.docs.board import is_buildable
from navakankari.hal.docs.bom import LINES, NOT_IN_BOM, count, net_loads
from navakankari.hal.docs.circuit import HEADER, Circuit, build_circuit, circuits
from navakankari.hal.docs.erc import check
from navakankari.hal.docs.netlist import kicad_netlist

WIRING = Path(__file__).resolve().parents[2] / "wiring"
SVG = "{http://www.w3.org/2000/svg}"


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


def _svg_wires(path: Path) -> list[tuple[str, str]]:
    root = ElementTree.parse(path).getroot()
    wires = []
    for el in root.iter():
        if el.tag in (f"{SVG}line", f"{SVG}polyline", f"{SVG}path"):
            assert el.get("data-net"), f"{path.name}: a {el.tag[len(SVG):]} without a net"
            wires.append((el.get("data-net", ""), el.get("data-pin", "")))
    return wires


@pytest.mark.parametrize(("name", "stem", "circuit"), BUILDS, ids=IDS)
def test_the_schematic_draws_exactly_the_models_nets(name: str, stem: str, circuit: Circuit) -> None:
    wires = _svg_wires(WIRING / "docs" / f"{stem}-schematic.svg")
    drawn: dict[str, str] = {}
    for net, pin in wires:
        assert drawn.setdefault(pin, net) == net, f"{pin} drawn on {drawn[pin]} and {net}"
    model = {node: net.name for net in circuit.nets for node in net.nodes}
    assert drawn == model
    assert {n for n, _ in wires} == {n.name for n in circuit.nets}


def test_the_schematic_check_sees_a_wire_on_the_wrong_net(tmp_path: Path) -> None:
    text = (WIRING / "docs" / "direct-24-schematic.svg").read_text()
    bad = text.replace('data-net="3V3" data-pin="PI.1"', 'data-net="5V" data-pin="PI.1"')
    assert bad != text
    (tmp_path / "bad.svg").write_text(bad)
    drawn = dict((pin, net) for net, pin in _svg_wires(tmp_path / "bad.svg"))
    circuit = build_circuit(load_profile("direct-24"), "direct-24")
    assert drawn["PI.1"] != circuit.net_of("PI.1")


def test_the_matrix_pullups_and_the_expander_sensors_are_drawn() -> None:
    matrix = dict((pin, net) for net, pin in _svg_wires(WIRING / "docs" / "matrix-24-schematic.svg"))
    for c in range(8):
        assert matrix[f"RC{c}.1"] == f"COL{c}" and matrix[f"RC{c}.2"] == "3V3"
    assert matrix["D_a7.1"] == "ROW0" and matrix["D_a7.2"] == "M_a7" and matrix["SW_a7.1"] == "COL7"
    mcp = dict((pin, net) for net, pin in _svg_wires(WIRING / "docs" / "mcp23017-24-schematic.svg"))
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


def _sexp(text: str) -> list:
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+', text)
    stack: list[list] = [[]]
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t[1:-1].replace('\\"', '"') if t.startswith('"') else t)
    assert len(stack) == 1
    return stack[0][0]


def _field(node: list, key: str) -> list:
    return next(x for x in node[1:] if isinstance(x, list) and x[0] == key)


@pytest.mark.parametrize(("name", "stem", "circuit"), BUILDS, ids=IDS)
def test_the_kicad_netlist_is_the_model(name: str, stem: str, circuit: Circuit) -> None:
    text = (WIRING / "docs" / f"{stem}.net").read_text()
    assert text == kicad_netlist(circuit, f"{name}.toml")
    tree = _sexp(text)
    assert tree[0] == "export" and _field(tree, "version")[1] == "E"
    comps = {_field(c, "ref")[1]: _field(c, "value")[1] for c in _field(tree, "components")[1:]}
    assert comps == {p.ref: p.value for p in circuit.parts}
    nets = {}
    for net in _field(tree, "nets")[1:]:
        nodes = [f"{_field(n, 'ref')[1]}.{_field(n, 'pin')[1]}" for n in net[1:] if n[0] == "node"]
        nets[_field(net, "name")[1]] = tuple(nodes)
    assert nets == {n.name: n.nodes for n in circuit.nets}
    stamps = [_field(c, "tstamps")[1] for c in _field(tree, "components")[1:]]
    assert len(set(stamps)) == len(stamps) and all(re.fullmatch(r"[0-9a-f-]{36}", s) for s in stamps)


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
