"""The pinout tables and diagrams in wiring/docs are exactly what the profiles generate."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from navakankari.hal import docs, load_profile

CHECKED_IN = Path(__file__).resolve().parents[2] / "wiring" / "docs"


def test_regenerating_gives_byte_identical_files(tmp_path: Path) -> None:
    assert docs.main([str(tmp_path)]) == 0
    generated = sorted(p.name for p in tmp_path.iterdir())
    assert generated == sorted(p.name for p in CHECKED_IN.iterdir())
    for name in generated:
        assert (tmp_path / name).read_bytes() == (CHECKED_IN / name).read_bytes(), name
    assert docs.main([str(CHECKED_IN), "--check"]) == 0


def test_check_reports_a_stale_file(tmp_path: Path, capsys) -> None:
    docs.main([str(tmp_path)])
    (tmp_path / "direct-24.md").write_text("edited by hand\n")
    assert docs.main([str(tmp_path), "--check"]) == 1
    assert "stale: " in capsys.readouterr().out


def test_pinout_names_every_sensor_pin_and_the_led_pin() -> None:
    profile = load_profile("direct-24")
    text = docs.pinout_markdown(profile, "direct-24")
    assert "| sensor a7 | GPIO2 | 3 | 4 |  | 5V |" in text
    assert "| 11 | 12 | GPIO18 | LED data |" in text
    assert "| reserved: HAT ID EEPROM | GPIO0 | 27 | 28 | GPIO1 | reserved: HAT ID EEPROM |" in text
    assert text.count("\n| ") == 20 + 1 + 24 + 1  # header rows, header title, points, points title


def test_diagram_is_valid_svg_with_every_point() -> None:
    profile = load_profile("direct-19")
    root = ElementTree.fromstring(docs.wiring_svg(profile))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for point in profile.points:
        assert point in texts
    assert "GPIO4" in texts and "LED 18" in texts
