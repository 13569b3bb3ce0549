"""The pinout tables and diagrams in wiring/docs are exactly what the profiles generate."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest

from navakankari.engine.boards import BOARDS
from navakankari.engine.presets import PRESETS
from navakankari.firmware.docs import generate as docs
from navakankari.hal import load_profile, profile_names
from navakankari.firmware.docs.plate import (
    LED_HOLE_D,
    LED_OFFSET,
    MIN_WALL,
    RECESS_D,
    board_drawing,
    board_lines,
    grid_mm,
    is_buildable,
)
from navakankari.firmware.docs.bom import VARIANT_PEBBLES
from navakankari.firmware.docs.circuit import build_circuit, circuits
from navakankari.firmware.docs.svgdraw import Drawing

WIRING = Path(__file__).resolve().parents[3] / "wiring"
CHECKED_IN = WIRING / "docs"


def _tree(root: Path) -> list[str]:
    """The generated files under a wiring folder: docs/* and the wiring tables."""
    return sorted([f"docs/{p.name}" for p in (root / "docs").iterdir()]
                  + [p.name for p in root.glob("*-wiring.csv")])


def test_regenerating_gives_byte_identical_files(tmp_path: Path) -> None:
    assert docs.main([str(tmp_path)]) == 0
    generated = _tree(tmp_path)
    assert generated == _tree(WIRING)
    for name in generated:
        assert (tmp_path / name).read_bytes() == (WIRING / name).read_bytes(), name
    assert docs.main([str(WIRING), "--check"]) == 0


def test_check_reports_a_stale_file(tmp_path: Path, capsys) -> None:
    docs.main([str(tmp_path)])
    (tmp_path / "docs" / "direct-24.md").write_text("edited by hand\n")
    (tmp_path / "direct-24-wiring.csv").write_text("from,to,net\n")
    assert docs.main([str(tmp_path), "--check"]) == 1
    out = capsys.readouterr().out
    assert "stale: " in out and "direct-24.md" in out and "direct-24-wiring.csv" in out


def test_pinout_names_every_sensor_pin_and_the_led_pin() -> None:
    profile = load_profile("direct-24")
    text = docs.pinout_markdown(profile, "direct-24", build_circuit(profile, "direct-24"))
    assert "| 3V3 out: sensors |  | 1 | 2 |  | 5V in: supply via F1, Q1 |" in text
    assert "| sensor a7 | GPIO2 | 3 | 4 |  | 5V in: supply via F1, Q1 |" in text
    assert "| 11 | 12 | GPIO18 | LED data |" in text
    assert "| reserved: HAT ID EEPROM | GPIO0 | 27 | 28 | GPIO1 | reserved: HAT ID EEPROM |" in text
    assert text.count("\n| ") == 20 + 1 + 24 + 1  # header rows, header title, points, points title


def test_diagram_is_valid_svg_with_every_point() -> None:
    profile = load_profile("direct-19")
    root = ElementTree.fromstring(docs.wiring_svg(profile))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for point in profile.points:
        assert point in texts
    assert "GPIO4" in texts and "18" in texts


def _drawings():
    for name in profile_names():
        profile = load_profile(name)
        built = circuits(profile, name) if is_buildable(profile) else ()
        yield f"{name}.svg", docs.wiring_drawing(profile, built[0] if built else None)
        if built:
            yield f"{name}-board.svg", board_drawing(profile)


DRAWINGS = dict(_drawings())


@pytest.mark.parametrize("name", sorted(DRAWINGS))
def test_no_label_overlaps_another_or_leaves_the_page(name: str) -> None:
    d = DRAWINGS[name]
    assert d.overlapping_labels() == []
    outside = [b.text for b in d.labels if b.x0 < 0 or b.y0 < 0 or b.x1 > d.width or b.y1 > d.height]
    assert outside == []
    ElementTree.fromstring(d.svg())  # well-formed


@pytest.mark.parametrize("name", sorted(DRAWINGS))
def test_the_led_chain_runs_clear_of_every_label(name: str) -> None:
    d = DRAWINGS[name]
    profile = load_profile(name.removesuffix(".svg").removesuffix("-board"))
    if len(profile.points) > 1 and all(docs.grid_mm(p) for p in profile.points):
        assert len(d.routes) == len(profile.points) - 1
    assert d.labels_on_routes() == []


def test_the_layout_checks_can_fail() -> None:
    d = Drawing(200, 100)
    d.text(10, 20, "c5 label")
    d.text(30, 22, "d5 label")
    d.polyline(((0, 18), (200, 18)), "", route=True)
    assert d.overlapping_labels() == [("c5 label", "d5 label")]
    assert d.labels_on_routes() == ["c5 label", "d5 label"]


def test_every_profile_in_wiring_gets_its_documents() -> None:
    files = docs.generated_files()
    for name in profile_names():
        assert f"docs/{name}.md" in files and f"docs/{name}.svg" in files
        if is_buildable(load_profile(name)):
            assert {f"docs/{name}-board.svg", f"{name}-wiring.csv"} <= set(files)
            assert f"../kicad/{name}/{name}.pdf" in files[f"docs/{name}.md"]
            assert f"`{name}`" in files["docs/bill-of-materials.md"]
            assert f"`{name}`" in files["docs/power-budget.md"]
        else:
            assert f"{name}-wiring.csv" not in files


def test_board_lines_are_the_engines() -> None:
    morris, diagonals = board_lines(load_profile("direct-24").points)
    assert morris == BOARDS["morris"].lines and len(morris) == 16
    assert morris + diagonals == BOARDS["morris-diagonal"].lines and len(diagonals) == 4
    assert board_lines(load_profile("direct-19").points) == (BOARDS["lau-kata-kati"].lines, ())
    assert board_lines(load_profile("sim-25").points) == ((), ())  # no one board's points


def test_pebbles_per_variant_are_the_presets() -> None:
    listed = {}
    for presets, _board, per_side, diagonals in VARIANT_PEBBLES:
        for name in presets.split(", "):
            listed[name] = (per_side, diagonals)
    assert listed == {name: (r.pieces, r.board == "morris-diagonal") for name, r in PRESETS.items()}


def test_the_bom_counts_parts_from_the_profile() -> None:
    bom = docs.generated_files()["docs/bill-of-materials.md"]
    row = next(line for line in bom.splitlines() if line.startswith("| Schottky diode"))
    cells = [c.strip() for c in row.split("|")]
    head = next(line for line in bom.splitlines() if line.startswith("| part |"))
    names = [c.strip(" `") for c in head.split("|")[4:-2]]
    assert cells[4:-2][names.index("matrix-24")] == "24"
    assert "1N4148" not in bom
    expander = next(line for line in bom.splitlines() if line.startswith("| I/O expander"))
    assert [c.strip() for c in expander.split("|")][4:-2][names.index("mcp23017-24")] == "2"


def test_the_board_legend_counts_the_chain_not_the_points() -> None:
    from dataclasses import replace

    profile = load_profile("direct-24")
    longer = replace(profile, leds=replace(profile.leds, count=25))
    assert any(b.text.startswith("25 LEDs") for b in board_drawing(longer).labels)


def test_the_header_diagram_says_what_the_supply_pins_feed() -> None:
    profile = load_profile("mcp23017-24")
    texts = [b.text for b in docs.wiring_drawing(profile, build_circuit(profile, "mcp23017-24")).labels]
    assert "1 3V3 out: expanders, sensors" in texts
    assert "2 5V in: supply via F1, Q1" in texts and "4 5V in: supply via F1, Q1" in texts
    assert "6 GND: common ground" in texts and "9 GND: common ground" in texts and "14 GND: common ground" in texts
    assert "17 3V3" in texts  # not wired in the model, so not claimed


def test_the_led_hole_leaves_a_wall_of_wood_beside_every_recess() -> None:
    """Edge to edge, LED hole to the nearest recess (its own point's or a neighbour's): at
    least 1.5 mm of wood on every buildable board (16, 8) left 0.39 mm."""
    import math

    walls = []
    for name in profile_names():
        profile = load_profile(name)
        if not is_buildable(profile):
            continue
        centres = [grid_mm(p) for p in profile.points]
        for c in centres:
            assert c is not None
            hole = (c[0] + LED_OFFSET[0], c[1] + LED_OFFSET[1])
            walls.append(min(math.dist(hole, o) for o in centres if o) - RECESS_D / 2 - LED_HOLE_D / 2)
    assert min(walls) >= MIN_WALL
    assert min(walls) == pytest.approx(math.hypot(18, 8) - 15 - 2.5)


def test_the_header_diagram_draws_held_but_unwired_spi_pins_apart() -> None:
    """SPI0's CE0/CE1/MISO/SCLK are held by the LED driver but carry no wire: an open ring and
    "no wire", where MOSI (GPIO10, the LED data) is a filled dot."""
    svg = (CHECKED_IN / "mcp23017-24.svg").read_text()
    for pin, gpio in ((21, 9), (23, 11), (24, 8), (26, 7)):
        x, y = (242 if pin % 2 else 258), 74 + 24 * ((pin - 1) // 2)
        assert f'<circle cx="{x}" cy="{y}" r="5" fill="#fff" stroke="#1a75c2"' in svg, gpio
        assert f"GPIO{gpio}: SPI0, no wire" in svg
    assert '<circle cx="242" cy="290" r="5" fill="#1a75c2"/>' in svg  # pin 19, GPIO10
    assert "| SPI0 (held, no wire) | GPIO9 | 21 |" in (CHECKED_IN / "mcp23017-24.md").read_text()
