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


def test_the_card_draws_each_light_in_the_colour_the_board_shows_and_names_them_all() -> None:
    from navakankari.firmware.core.palette import Role

    text = (CHECKED_IN / "menu-24.svg").read_text()
    root = ElementTree.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    words = " ".join(t.text or "" for t in root.iter(f"{ns}text"))
    for role, _, means in menu_svg.MENU_LIGHTS:
        assert means in words, role
    assert "white, steady: the choice made last time" in words
    fills = menu_svg.screen_colours("direct-24")
    lay = layout(BOARDS["morris"])
    at = {(c.get("cx"), c.get("cy")): c.get("fill") for c in root.iter(f"{ns}circle")
          if c.get("r") == "13"}  # the board's points
    drawn = {t.text: at[t.get("x"), str(float(t.get("y")) - 4).removesuffix(".0")]
             for t in root.iter(f"{ns}text") if t.get("text-anchor") == "middle"}
    assert set(drawn) == set(BOARDS["morris"].points)
    assert drawn[lay.takeback] == fills[Role.MENU_TAKEBACK] != drawn[lay.brightness]
    assert drawn[lay.brightness] == fills[Role.MENU_BRIGHTNESS]
    assert drawn[lay.same] == fills[Role.MENU_SAME] and drawn["a7"] == fills[Role.MENU_CHOICE]
    assert len({fills[r] for r in (Role.MENU_CHOICE, Role.MENU_WHITE, Role.MENU_BLACK,
                                   Role.MENU_TOSS, Role.MENU_BRIGHTNESS)}) == 5
