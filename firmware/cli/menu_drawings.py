"""The board menu's layout drawn for each board, beside the wiring documents.

    python -m navakankari.firmware.cli.menu_drawings            # rewrite wiring/menu/
    python -m navakankari.firmware.cli.menu_drawings --check    # exit 1 if a checked-in file is stale
    python -m navakankari.firmware.cli.menu_drawings --language gu cards/   # the card in Gujarati

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
from navakankari.firmware.docs.generate import write_generated
from navakankari.wiring import PROFILE_DIR

from navakankari.hal.leds import correction_table, on_screen

from ..core.lights import menu_roles
from ..core.menu import Kind, Menu, MenuSettings, Step, playable, player_specs
from ..core.palette import PALETTE, Role
from ..core.wording import LEGEND, motion_words
from navakankari.engine.translator import ENGLISH, Translator
from navakankari.firmware.i18n.catalogs import LANGUAGES, SOURCE, translations
from navakankari.hal.words import N_

MENU_DIR = PROFILE_DIR / "menu"

BOARDS_DRAWN = {"menu-24.svg": ("morris", "direct-24"), "menu-19.svg": ("lau-kata-kati", "direct-19")}
"""File -> (board, the shipped profile whose variants it offers)."""

UNUSED = "#bbbbbb"

MENU_LIGHTS = (*next(rows for section, rows in LEGEND if section == "the menu"),
               (Role.CONFIRM_HOLD, N_("orange"), N_("a pebble held on a choice: keep holding it")),
               (Role.CONFIRM_LIFT, N_("white"), N_("held long enough: lift it to choose")))
"""The card's legend: every light the menu shows, in the page's words."""

COLUMNS = ((Step.VARIANT, N_("1. game")), (Step.WHITE, N_("2. white / 3. black")),
           (Step.ASSIST, N_("4. help (each hand)")), (Step.STARTER, N_("5. who starts")),
           (Step.BRIGHTNESS, N_("LED brightness")), (Step.SPEECH, N_("speech")),
           (Step.LANGUAGE, N_("language")))
HEADS = {Step.VARIANT: (Role.MENU_CHOICE,), Step.WHITE: (Role.MENU_WHITE, Role.MENU_BLACK),
         Step.ASSIST: (Role.MENU_HELP_WHITE, Role.MENU_HELP_BLACK),
         Step.STARTER: (Role.MENU_WHITE, Role.MENU_BLACK, Role.MENU_TOSS),
         Step.BRIGHTNESS: (Role.MENU_BRIGHTNESS,), Step.SPEECH: (Role.MENU_BRIGHTNESS,),
         Step.LANGUAGE: (Role.MENU_BRIGHTNESS,)}
"""The lights of each column's choices (a column for both sides shows both colours)."""


def screen_colours(profile: str) -> dict[Role, str]:
    """Each role as a screen shows the light the profile's LEDs emit for it (the page's
    legend and the simulator show the same), so the card matches the board."""
    leds = load_profile(profile).leds
    table = correction_table(leds.brightness, leds.gamma)
    return {role: "#%02x%02x%02x" % on_screen(tuple(table[c] for c in look.colour),  # type: ignore[arg-type]
                                              leds.brightness)
            for role, look in PALETTE.items()}


def _step_menu(board: Board, variants: Sequence[str], step: Step,
               tr: Translator = ENGLISH) -> Menu:
    """A menu shown at `step` (the choices leading there made with the first slots)."""
    from ..core.menu import GameChoice

    menu = Menu(board, variants, player_specs(MAX_LEVEL), GameChoice(variants[0], "hand", "hand"),
                can_takeback=True, settings=MenuSettings())
    menu.tr = tr
    paths: dict[Step, list[int | str]] = {
        Step.VARIANT: [], Step.WHITE: [0], Step.ASSIST: [0, 0, 1], Step.STARTER: [0, 1, 1],
        Step.BRIGHTNESS: ["brightness"], Step.SPEECH: ["speech"], Step.LANGUAGE: ["language"]}
    path = paths[step]
    t = 0.0
    for pick in path:
        point = menu.layout.slots[pick] if isinstance(pick, int) else getattr(menu.layout, pick)
        menu.see({point}, t)
        menu.tick(t + menu.settings.hold)
        menu.see((), t + menu.settings.hold + 0.1)
        t += menu.settings.hold + 0.1 + menu.settings.lift
        menu.tick(t)
        t += 1
    assert menu.view(t).step == step
    return menu


def _bright(fill: str) -> bool:
    """Whether a "#rrggbb" colour is light enough for dark text (WCAG's relative luminance)."""
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(fill[k:k + 2], 16)) for k in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.3


def menu_svg(board: Board, profile: str, tr: Translator = ENGLISH) -> str:
    """The printed card of the board's menu, in `tr`'s language (each language's name in
    its own script)."""
    variants = playable(load_profile(profile).points)
    menus = {step: _step_menu(board, variants, step, tr) for step, _ in COLUMNS}
    lay = menus[Step.VARIANT].layout
    coords = dict(zip(board.points, board.coordinates))
    xs = [x for x, _ in board.coordinates]
    ys = [y for _, y in board.coordinates]
    step_px, ox, oy = 52, 40, 100
    top = max(ys)

    def at(point: str) -> tuple[float, float]:
        x, y = coords[point]
        return ox + step_px * (x - min(xs)), oy + step_px * (top - y)

    fills = screen_colours(profile)
    labels = {(step, c.point): c.label if c.kind in (Kind.VARIANT, Kind.SPEECH_STEP)
              else c.label.split(" (")[0]
              for step, menu in menus.items() for c in menu.choices()}
    lit = {(step, point): role for step, menu in menus.items()
           for point, role in menu_roles(menu.step_name, [
               (c.point, c.kind.value, c.label) for c in menu.choices()]).items()}
    rows = [p for p in (lay.same, lay.takeback, lay.brightness, lay.speech, lay.language,
                        lay.back, *lay.slots)
            if any((step, p) in labels for step, _ in COLUMNS)]
    tx, col_w, row_h = ox + step_px * (max(xs) - min(xs)) + 60, 170, 17
    width = tx + 40 + col_w * len(COLUMNS) + 20
    height = max(oy + step_px * (top - min(ys)) + 70 + 18 * (len(MENU_LIGHTS) + 1),
                 oy + 30 + row_h * (len(rows) + 1))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width:g}" height="{height:g}" fill="white"/>',
        '<text x="20" y="28" font-size="16" font-weight="bold">'
        + escape(tr.gettext("The board's menu: {points}-point board ({profile})").format(
            points=len(board.points), profile=profile)) + '</text>',
        '<text x="20" y="48">' + escape(tr.gettext(
            "Choose with a pebble held alone on a lit point for the hold time (game.menu_hold, "
            "{seconds} s), then lifted. Every step after the first has \"back\".").format(
                seconds=f"{MenuSettings().hold:g}")) + '</text>',
    ]
    for line in board.lines:
        pts = " ".join("%g,%g" % at(p) for p in line)
        out.append(f'<polyline points="{pts}" fill="none" stroke="#888" stroke-width="2"/>')
    shown = {c.point: lit[Step.VARIANT, c.point] for c in menus[Step.VARIANT].choices()}
    shown[lay.back] = Role.MENU_BACK  # every later step's
    for point in board.points:
        x, y = at(point)
        fill = fills[shown[point]] if point in shown else UNUSED
        out.append(f'<circle cx="{x:g}" cy="{y:g}" r="13" fill="{fill}" stroke="#333"/>')
        text = "#222" if _bright(fill) else "white"  # a label readable on its light
        out.append(f'<text x="{x:g}" y="{y + 4:g}" text-anchor="middle" font-size="10" '
                   f'fill="{text}" font-weight="bold">{escape(point)}</text>')
    ly = oy + step_px * (top - min(ys)) + 50
    out.append(f'<text x="{ox - 14:g}" y="{ly - 14:g}" font-weight="bold">'
               + escape(tr.gettext("what the lights mean (the first step is drawn on the board)"))
               + '</text>')
    for k, (role, colour, words) in enumerate((*MENU_LIGHTS, (None, N_("grey"), N_("not used")))):
        y = ly + k * 18
        fill = UNUSED if role is None else fills[role]
        if role is None:
            meaning = tr.gettext("{colour}: {means}").format(colour=tr.gettext(colour),
                                                             means=tr.gettext(words))
        else:
            meaning = tr.gettext("{colour}, {motion}: {means}").format(
                colour=tr.gettext(colour), motion=motion_words(PALETTE[role], tr),
                means=tr.gettext(words))
        out.append(f'<circle cx="{ox:g}" cy="{y:g}" r="6" fill="{fill}" stroke="#333"/>')
        out.append(f'<text x="{ox + 12:g}" y="{y + 4:g}">{escape(meaning)}</text>')
    out.append(f'<text x="{tx:g}" y="{oy - 24:g}" font-weight="bold">'
               + escape(tr.gettext("point")) + '</text>')
    for c, (step, title) in enumerate(COLUMNS):
        cx = tx + 40 + c * col_w
        out.append(f'<text x="{cx:g}" y="{oy - 24:g}" font-weight="bold">'
                   f'{escape(tr.gettext(title))}</text>')
        for k, role in enumerate(HEADS[step]):
            out.append(f'<circle cx="{cx + 5 + 14 * k:g}" cy="{oy - 42:g}" r="5" '
                       f'fill="{fills[role]}" stroke="#333"/>')
    for r, point in enumerate(rows):
        y = oy + r * row_h
        if r % 2 == 0:
            out.append(f'<rect x="{tx - 4:g}" y="{y - 12:g}" width="{40 + col_w * len(COLUMNS):g}" '
                       f'height="{row_h}" fill="#f2f2f2"/>')
        out.append(f'<text x="{tx:g}" y="{y:g}" font-weight="bold">{escape(point)}</text>')
        for c, (step, _) in enumerate(COLUMNS):
            label = labels.get((step, point), "")
            if not label:
                continue
            cx = tx + 40 + c * col_w
            out.append(f'<circle cx="{cx + 4:g}" cy="{y - 4:g}" r="4" '
                       f'fill="{fills[lit[step, point]]}" stroke="#333"/>')
            out.append(f'<text x="{cx + 12:g}" y="{y:g}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def generated_files(language: str = SOURCE) -> dict[str, str]:
    """The cards, in `language` (English ones are kept in wiring/menu/; the others are
    written on request, named `menu-24.gu.svg`)."""
    tr = translations(language)
    suffix = "" if language == SOURCE else f".{language}"
    return {name.replace(".svg", f"{suffix}.svg"): menu_svg(BOARDS[board], profile, tr)
            for name, (board, profile) in BOARDS_DRAWN.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m navakankari.firmware.cli.menu_drawings",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=MENU_DIR,
                        help=f"folder (default {MENU_DIR})")
    parser.add_argument("--check", action="store_true", help="report stale files instead of writing")
    parser.add_argument("--language", choices=list(LANGUAGES), default=SOURCE,
                        help="the language of the cards (default English)")
    args = parser.parse_args(argv)
    return write_generated(generated_files(args.language), args.out, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
