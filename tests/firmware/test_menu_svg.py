"""The menu drawings in wiring/menu are exactly what the menu generates."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from navakankari.engine.boards import BOARDS
from navakankari.firmware.cli import menu_drawings as menu_svg
from navakankari.firmware.core.menu import layout

CHECKED_IN = Path(__file__).resolve().parents[2] / "wiring" / "menu"
README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_committed_drawings_equal_a_fresh_run(tmp_path: Path) -> None:
    assert menu_svg.main([str(tmp_path)]) == 0
    generated = sorted(p.name for p in tmp_path.iterdir())
    assert generated == sorted(p.name for p in CHECKED_IN.iterdir()) == ["menu-19.svg",
                                                                         "menu-24.svg"]
    for name in generated:
        assert (tmp_path / name).read_bytes() == (CHECKED_IN / name).read_bytes(), name
    assert menu_svg.main([str(CHECKED_IN), "--check"]) == 0


def test_check_reports_a_stale_drawing(tmp_path: Path, capsys) -> None:
    menu_svg.main([str(tmp_path)])
    (tmp_path / "menu-24.svg").write_text("<svg/>\n")
    assert menu_svg.main([str(tmp_path), "--check"]) == 1
    assert "stale: " in capsys.readouterr().out


def test_each_drawing_is_svg_with_every_point_and_the_choices() -> None:
    for name, (board_name, _) in menu_svg.BOARDS_DRAWN.items():
        text = (CHECKED_IN / name).read_text()
        root = ElementTree.fromstring(text)
        words = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
        board = BOARDS[board_name]
        assert set(board.points) <= words
        lay = layout(board)
        assert {lay.same, lay.back, lay.takeback, lay.brightness} <= words
        assert {"the same as last time", "back", "a toss decides", "remote"} <= words


def test_the_readme_shows_both_drawings() -> None:
    text = README.read_text()
    assert "](wiring/menu/menu-24.svg)" in text and "](wiring/menu/menu-19.svg)" in text
