"""The KiCad projects in wiring/kicad: KiCad's own ERC passes on every build and fails the
faults planted in a model, KiCad's netlist is the model's and the wiring table's, and the
generated files (kicad-cli's exports included) are byte-identical when made again."""

from __future__ import annotations

import csv
import io
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from navakankari.hal import load_profile
from navakankari.firmware.docs.circuit import Circuit, build_circuit
from navakankari.firmware.docs.erc import check as our_check
from navakankari.firmware.docs.kicad import generate, library, project, sexpr
from navakankari.firmware.docs.kicad.generate import Build, Result
from navakankari.firmware.docs.netlist import wiring_csv

KICAD_DIR = Path(__file__).resolve().parents[3] / "wiring" / "kicad"

pytestmark = pytest.mark.timeout(1200)
"""Making every project (16 ERC runs and exports, two boards placed, routed and checked) takes
about two minutes of CPU: minutes more on a busy machine than the suite's usual bound."""


@pytest.fixture(scope="module")
def kicad_cli() -> None:
    """KiCad's command line: these tests skip without it, except in CI, where they fail."""
    if shutil.which("kicad-cli") is None:
        message = "kicad-cli is not installed (KiCad 9; tests/run.sh installs it on Debian 12)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def made(kicad_cli: None) -> dict[str, Result]:
    """Every build made once: ERC and kicad-cli's exports (the slow part, run in parallel)."""
    return generate.make_all()


BUILDS = generate.builds()
STEMS = [b.stem for b in BUILDS]


def test_every_buildable_profile_and_sensor_build_is_a_project() -> None:
    assert sorted(STEMS) == sorted(p.name for p in KICAD_DIR.iterdir() if p.is_dir())
    assert "matrix-24-reed" not in STEMS and "mcp23017-24-reed" in STEMS


@pytest.mark.parametrize("stem", STEMS)
def test_kicads_erc_finds_nothing(made: dict[str, Result], stem: str) -> None:
    """ERC on every schematic; on the laid-out carrier board also DRC with schematic parity."""
    assert made[stem].violations == ()


@pytest.mark.parametrize("stem", generate.BOARDS)
def test_the_carrier_board_is_routed_and_exported_for_ordering(made: dict[str, Result], stem: str) -> None:
    files = made[stem].files
    fab = {name.rsplit("/", 1)[1] for name in files if name.startswith(f"{stem}/fab/")}
    layers = {"F_Cu.gtl", "B_Cu.gbl", "F_Mask.gts", "B_Mask.gbs", "F_Paste.gtp", "F_Silkscreen.gto",
              "B_Silkscreen.gbo", "Edge_Cuts.gm1", "job.gbrjob", "pos.csv", "bom.csv"}
    assert fab == {f"{stem}-{x}" for x in layers} | {f"{stem}.drl"}
    board = files[f"{stem}/{stem}.kicad_pcb"].decode()
    assert board.count("(segment") > 100 and board.count("(via") > 10 and "(zone" in board
    bom = files[f"{stem}/fab/{stem}-bom.csv"].decode()
    assert '"F1","MF-R300"' in bom and '"Q1","AO4407"' in bom and '"U1","74AHCT125"' in bom
    rows = list(csv.DictReader(io.StringIO(bom)))
    mpn = {r["Reference"]: r["Manufacturer part number"] for r in rows}
    assert (mpn["F1"], mpn["Q1"], mpn["U1"], mpn["J2"], mpn["J4"]) == (
        "MF-R300", "AO4407", "SN74AHCT125N", "B3B-XH-A", "MKDS 1,5/ 2-5,08")
    for row in rows:  # one maker's parts carry its name and part number; resistors, capacitors, headers none
        generic = row["Reference"][0] in "RC" or row["Reference"] in ("J1", "J3")
        assert bool(row["Manufacturer"]) == bool(row["Manufacturer part number"]) != generic, row
    if stem.startswith("mcp23017"):
        assert '"U2","MCP23017 0x20"' in bom and '"U3","MCP23017 0x21"' in bom and '"R2","10k"' in bom
    assert files[f"{stem}/{stem}-3d.png"].startswith(b"\x89PNG")


def test_regenerated_files_are_byte_identical(made: dict[str, Result], tmp_path: Path) -> None:
    files = generate.generated_files(made)
    on_disk = sorted(str(p.relative_to(KICAD_DIR)) for p in KICAD_DIR.rglob("*") if p.is_file())
    assert sorted(files) == on_disk
    for name, data in files.items():
        assert (KICAD_DIR / name).read_bytes() == data, name


@pytest.mark.parametrize("build", BUILDS, ids=STEMS)
def test_kicads_netlist_is_the_models_nets_and_the_wiring_table(made: dict[str, Result], build: Build) -> None:
    text = made[build.stem].files[f"{build.stem}/{build.stem}.net"].decode()
    kicad = {project.model_net_name(n): nodes for n, nodes in project.netlist_nets(text).items()}
    model = {net.name: frozenset(net.nodes) for net in build.circuit.nets}
    for name, nodes in model.items():
        assert kicad.get(name) == nodes, name
    extra = {n: nodes for n, nodes in kicad.items() if n not in model}
    assert all(n.startswith("unconnected-(") and len(nodes) == 1 for n, nodes in extra.items()), extra
    rows = list(csv.DictReader(io.StringIO(wiring_csv(build.circuit))))
    assert rows
    for row in rows:
        assert {row["from"], row["to"]} <= kicad[row["net"]], row


def _fault(circuit: Circuit, what: str) -> Circuit:
    nets = {n.name: n for n in circuit.nets}
    if what == "two outputs joined":  # LED1's DOUT wired back to LED0's
        a, b = nets["DIN1"], nets["DIN2"]
        nets["DIN1"] = replace(a, nodes=a.nodes + ("LED1.2",), wires=())
        nets["DIN2"] = replace(b, nodes=tuple(x for x in b.nodes if x != "LED1.2"), wires=())
    elif what == "a floating input":  # the level shifter's used OE taken off GND
        g = nets["GND"]
        nets["GND"] = replace(g, nodes=tuple(x for x in g.nodes if x != "U1.1"), wires=())
    elif what == "an undriven supply net":  # whatever feeds 5V taken off it
        v = nets["5V"]
        nets["5V"] = replace(v, nodes=tuple(x for x in v.nodes if circuit.pin_of(x)[1].kind != "power_out"),
                             wires=())
    return circuit.with_nets(n for n in nets.values() if n.nodes)


FAULTS = {
    "two outputs joined": {"pin_to_pin"},
    "a floating input": {"pin_not_connected"},
    "an undriven supply net": {"power_pin_not_driven"},
}
"""Each fault and what KiCad's ERC calls it."""

OURS = {"two outputs joined": "outputs-joined", "a floating input": "floating-input",
        "an undriven supply net": "power-net-without-source"}
"""The same faults as our own rules check names them."""


@pytest.mark.parametrize("what", OURS)
def test_our_check_fails_the_same_faults(what: str) -> None:
    profile = load_profile("direct-24")
    found = our_check(_fault(build_circuit(profile, "direct-24"), what), profile)
    assert OURS[what] in {v.rule for v in found}


def test_kicads_erc_fails_the_faults_planted_in_the_model(kicad_cli: None, tmp_path: Path) -> None:
    circuit = build_circuit(load_profile("direct-24"), "direct-24")

    def erc(what: str) -> set[str]:
        folder = tmp_path / what.replace(" ", "-")
        project.write(folder, project.project_files(_fault(circuit, what), "fault", []))
        return {v.type for v in project.erc(folder / "fault.kicad_sch")}

    with ThreadPoolExecutor(max_workers=generate.JOBS) as pool:
        found = dict(zip(FAULTS, pool.map(erc, FAULTS)))
    for what, expected in FAULTS.items():
        assert expected <= found[what], (what, found[what])


def test_sexpr_round_trips_a_schematic_and_rejects_malformed_text() -> None:
    text = (KICAD_DIR / "direct-24" / "direct-24.kicad_sch").read_text()
    tree = sexpr.parse(text)
    assert sexpr.dump(tree) + "\n" == text
    assert sexpr.parse(sexpr.dump(tree)) == tree
    quoted = sexpr.parse('(a "b \\"c\\" d" e)')
    assert quoted == ["a", 'b "c" d', "e"] and isinstance(quoted[1], sexpr.Text)
    assert not isinstance(quoted[2], sexpr.Text)
    for bad in ("(a (b)", "(a))", "a", "(a) (b)", '(a "b)', "(" * (sexpr.MAX_DEPTH + 1)):
        with pytest.raises(sexpr.SexprError):
            sexpr.parse(bad)
    with pytest.raises(sexpr.SexprError):
        sexpr.parse("(" + " " * sexpr.MAX_CHARS + ")")


@pytest.mark.parametrize("build", BUILDS, ids=STEMS)
def test_every_footprint_is_kicads_and_has_a_pad_for_each_pin(build: Build) -> None:
    if not Path(library.FOOTPRINT_DIRS[0]).is_dir() and not os.environ.get("KICAD9_FOOTPRINT_DIR"):
        if os.environ.get("CI"):
            pytest.fail("KiCad's footprint library is not installed (kicad-footprints)")
        pytest.skip("KiCad's footprint library is not installed (kicad-footprints)")
    for part in build.circuit.parts:
        assert part.footprint, part.ref
        pads = library.footprint_pads(part.footprint)
        assert {p.number for p in part.pins if p.kind != "nc"} <= pads, (part.ref, part.footprint)
