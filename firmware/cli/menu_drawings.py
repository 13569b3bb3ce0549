"""The board menu's layout drawn for each board, beside the wiring documents.

    python -m navakankari.firmware.cli.menu_drawings            # rewrite wiring/menu/
    python -m navakankari.firmware.cli.menu_drawings --check    # exit 1 if a checked-in file is stale

Generated from the menu itself (its layout, the variants of the shipped profile, the
engine's levels), never drawn by hand, so the drawing says what the board does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from html import escape
from pathlib import Path

from navakankari.engine.boards import BOARDS, Board
from navakankari.engine.player import MAX_LEVEL
from navakankari.hal import load_profile
from navakankari.hal.docs.generate import write_generated
from navakankari.wiring import PROFILE_DIR

from ..core.menu import Kind, Menu, MenuSettings, Step, playable, player_specs

MENU_DIR = PROFILE_DIR / "menu"

BOARDS_DRAWN = {"menu-24.svg": ("morris", "direct-24"), "menu-19.svg": ("lau-kata-kati", "direct-19")}
"""File -> (board, the shipped profile whose variants it offers)."""

FILLS = {Kind.SAME: "#2b2", Kind.BACK: "#d52", Kind.TAKEBACK: "#93d", Kind.BRIGHTNESS: "#93d"}
CHOICE_FILL = "#49c"

COLUMNS = ((Step.VARIANT, "1. game"), (Step.WHITE, "2. white / 3. black"),
           (Step.ASSIST, "4. help (each hand)"), (Step.STARTER, "5. who starts"),
           (Step.BRIGHTNESS, "LED brightness"))


def _step_menu(board: Board, variants: Sequence[str], step: Step) -> Menu:
    """A menu shown at `step` (the choices leading there made with the first slots)."""
    from ..core.menu import GameChoice

    menu = Menu(board, variants, player_specs(MAX_LEVEL), GameChoice(variants[0], "hand", "hand"),
                can_takeback=True, settings=MenuSettings())
    path = {Step.VARIANT: [], Step.WHITE: [0], Step.ASSIST: [0, 0, 1],
            Step.STARTER: [0, 1, 1], Step.BRIGHTNESS: ["brightness"]}[step]
    t = 0.0
    for pick in path:
        point = menu.layout.brightness if pick == "brightness" else menu.layout.slots[pick]
        menu.see({point}, t)
        menu.tick(t + menu.settings.hold)
        menu.see((), t + menu.settings.hold + 0.1)
        t += menu.settings.hold + 0.1 + menu.settings.lift
        menu.tick(t)
        t += 1
    assert menu.view(t).step == step
    return menu


def menu_svg(board: Board, profile: str) -> str:
    variants = playable(load_profile(profile).points)
    menus = {step: _step_menu(board, variants, step) for step, _ in COLUMNS}
    lay = menus[Step.VARIANT].layout
    coords = dict(zip(board.points, board.coordinates))
    xs = [x for x, _ in board.coordinates]
    ys = [y for _, y in board.coordinates]
    step_px, ox, oy = 52, 40, 100
    top = max(ys)

    def at(point: str) -> tuple[float, float]:
        x, y = coords[point]
        return ox + step_px * (x - min(xs)), oy + step_px * (top - y)

    labels = {(step, c.point): c.label.split(" (")[0]
              for step, menu in menus.items() for c in menu.choices()}
    rows = [p for p in (lay.same, lay.takeback, lay.brightness, lay.back, *lay.slots)
            if any((step, p) in labels for step, _ in COLUMNS)]
    tx, col_w, row_h = ox + step_px * (max(xs) - min(xs)) + 60, 170, 17
    width = tx + 40 + col_w * len(COLUMNS) + 20
    height = max(oy + step_px * (top - min(ys)) + 120, oy + 30 + row_h * (len(rows) + 1))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width:g}" height="{height:g}" fill="white"/>',
        f'<text x="20" y="28" font-size="16" font-weight="bold">The board\'s menu: '
        f'{len(board.points)}-point board ({escape(profile)})</text>',
        '<text x="20" y="48">Choose with a pebble held alone on a lit point for the hold time '
        '(game.menu_hold, 1 s), then lifted. Every step after the first has "back".</text>',
    ]
    for line in board.lines:
        pts = " ".join("%g,%g" % at(p) for p in line)
        out.append(f'<polyline points="{pts}" fill="none" stroke="#888" stroke-width="2"/>')
    kinds = {c.point: c.kind for c in menus[Step.VARIANT].choices()}
    kinds[lay.back] = Kind.BACK
    for point in board.points:
        x, y = at(point)
        fill = FILLS.get(kinds.get(point, Kind.VARIANT), CHOICE_FILL) if point in rows else "#bbb"
        out.append(f'<circle cx="{x:g}" cy="{y:g}" r="13" fill="{fill}" stroke="#333"/>')
        out.append(f'<text x="{x:g}" y="{y + 4:g}" text-anchor="middle" font-size="10" '
                   f'fill="white" font-weight="bold">{escape(point)}</text>')
    ly = oy + step_px * (top - min(ys)) + 40
    for k, (fill, words) in enumerate(((FILLS[Kind.SAME], "the same as last time"),
                                       (FILLS[Kind.TAKEBACK], "take back / brightness"),
                                       (FILLS[Kind.BACK], "back"),
                                       (CHOICE_FILL, "choices, in reading order"),
                                       ("#bbb", "not used"))):
        x = ox + (k % 2) * 170
        y = ly + (k // 2) * 20
        out.append(f'<circle cx="{x:g}" cy="{y:g}" r="6" fill="{fill}"/>')
        out.append(f'<text x="{x + 10:g}" y="{y + 4:g}">{escape(words)}</text>')
    out.append(f'<text x="{tx:g}" y="{oy - 24:g}" font-weight="bold">point</text>')
    for c, (_, title) in enumerate(COLUMNS):
        out.append(f'<text x="{tx + 40 + c * col_w:g}" y="{oy - 24:g}" '
                   f'font-weight="bold">{escape(title)}</text>')
    for r, point in enumerate(rows):
        y = oy + r * row_h
        if r % 2 == 0:
            out.append(f'<rect x="{tx - 4:g}" y="{y - 12:g}" width="{40 + col_w * len(COLUMNS):g}" '
                       f'height="{row_h}" fill="#f2f2f2"/>')
        out.append(f'<text x="{tx:g}" y="{y:g}" font-weight="bold">{escape(point)}</text>')
        for c, (step, _) in enumerate(COLUMNS):
            label = labels.get((step, point), "")
            out.append(f'<text x="{tx + 40 + c * col_w:g}" y="{y:g}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def generated_files() -> dict[str, str]:
    return {name: menu_svg(BOARDS[board], profile)
            for name, (board, profile) in BOARDS_DRAWN.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m navakankari.firmware.cli.menu_drawings",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=MENU_DIR,
                        help=f"folder (default {MENU_DIR})")
    parser.add_argument("--check", action="store_true", help="report stale files instead of writing")
    args = parser.parse_args(argv)
    return write_generated(generated_files(), args.out, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
