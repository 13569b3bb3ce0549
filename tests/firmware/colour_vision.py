"""The palette as people with each common colour vision deficiency see the board's light.

Every role's colour is taken as the LED emits it, through the production path: the strip's
correction (gamma, then the brightness cap: hal/leds.py correction_table) and the screen
colour of that light (hal/leds.py on_screen, relative to the brightest light the cap allows,
as the eye adapts to the board). The deficiencies are simulated with ColorAide's Brettel
(1997) dichromat model, full severity, in linear light; colours are compared by CIEDE2000
in CIELab (D65), also ColorAide's.

Two lights a frame can hold together must be told apart: by colour, or by a second channel,
the way they move (`channel`: steady, pulsing, a slow or a fast blink). Run it to print the
table of every pair that must be told apart by colour:

    .venv/bin/python tests/firmware/colour_vision.py
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Mapping
from pathlib import Path

from coloraide import Color

from navakankari.firmware.core.lights import ANY_TIME, SHOWN_TOGETHER
from navakankari.firmware.core.palette import (
    PALETTE,
    TOLD_APART_OVER_TIME,
    Animation,
    Look,
    Role,
    blink_speed,
)
from navakankari.hal.leds import correction_table, on_screen
from navakankari.hal.profile import load_profile, profile_names

DEFICIENCIES = ("deuteranopia", "protanopia", "tritanopia")
_FILTER = {"deuteranopia": "deutan", "protanopia": "protan", "tritanopia": "tritan"}
VISIONS = ("normal", *DEFICIENCIES)

MIN_DELTA_E = 15.0
"""CIEDE2000 between two lights told apart by colour alone, under every vision. About 2 is
a difference seen side by side; 10 to 15, where the eye reads two colours rather than two
shades of one, was chosen to hold for two small lights a few centimetres apart at a glance."""

Rgb = tuple[int, int, int]


def caps() -> list[tuple[float, float]]:
    """(brightness cap, gamma) of every shipped wiring profile."""
    return sorted({(load_profile(n).leds.brightness, load_profile(n).leds.gamma)
                   for n in profile_names()})


def emitted(colour: Rgb, cap: float, gamma: float) -> Rgb:
    """The screen colour of the light an LED emits when asked for `colour`."""
    table = correction_table(cap, gamma)
    return on_screen(tuple(table[c] for c in colour), cap)  # type: ignore[arg-type]


def seen(rgb: Rgb, vision: str) -> Color:
    colour = Color("srgb", [c / 255 for c in rgb])
    if vision == "normal":
        return colour
    return colour.filter(_FILTER[vision], method="brettel", space="srgb-linear")


def delta_e(a: Rgb, b: Rgb, vision: str) -> float:
    return float(seen(a, vision).delta_e(seen(b, vision), method="2000"))


def channel(look: Look) -> str:
    """How a light moves, the second channel beside its colour."""
    if look.animation == Animation.BLINK:
        return f"{blink_speed(look.period)} blink"
    return look.animation.value


def told_apart(palette: Mapping[Role, Look] = PALETTE) -> list[tuple[Role, Role]]:
    """Every pair of roles one frame can hold (and the sides' colours shown in turn)."""
    pairs = {frozenset(p) for group in SHOWN_TOGETHER
             for p in itertools.combinations(group | {ANY_TIME}, 2)}
    pairs |= {frozenset(p) for p in TOLD_APART_OVER_TIME}
    out = [tuple(sorted(p, key=lambda r: list(Role).index(r))) for p in pairs]
    return sorted(out, key=lambda p: (list(Role).index(p[0]), list(Role).index(p[1])))  # type: ignore[return-value]


QUALITY = (Role.QUALITY_KEEPS, Role.QUALITY_WORSE, Role.QUALITY_DROPS, Role.QUALITY_LOSES)
REMOTE = (Role.REMOTE_FROM, Role.REMOTE_TO)


def _ordered(a: Role, b: Role) -> tuple[Role, Role]:
    order = list(Role)
    return (a, b) if order.index(a) < order.index(b) else (b, a)


ALSO_BY_COLOUR: tuple[tuple[Role, Role], ...] = (
    (Role.TURN_BLACK, Role.HINT), (Role.FREE_BLACK, Role.HINT), (Role.TURN_BLACK, Role.THREAT),
    *((q, Role.THREAT) for q in QUALITY),
    *sorted({_ordered(r, o) for group in SHOWN_TOGETHER for r in REMOTE if r in group
             for o in group | {ANY_TIME} if o not in REMOTE},
            key=lambda p: (list(Role).index(p[0]), list(Role).index(p[1]))),
)
"""Pairs that move differently but are told apart by colour too: the best move beside black's
lights, a threat beside black's lights and the quality lights, and a far-away player's move
beside every light shown with it (its own colour says whose move it is)."""


def by_colour(palette: Mapping[Role, Look] = PALETTE) -> list[tuple[Role, Role]]:
    """The pairs told apart by colour: both move the same way, or ALSO_BY_COLOUR."""
    return [*ALSO_BY_COLOUR, *((a, b) for a, b in told_apart(palette)
                               if channel(palette[a]) == channel(palette[b])
                               and (a, b) not in ALSO_BY_COLOUR)]


def table(palette: Mapping[Role, Look], cap: float, gamma: float
          ) -> list[tuple[Role, Role, dict[str, float]]]:
    """Each pair told apart by colour: its CIEDE2000 under each vision."""
    return [(a, b, {v: delta_e(emitted(palette[a].colour, cap, gamma),
                               emitted(palette[b].colour, cap, gamma), v) for v in VISIONS})
            for a, b in by_colour(palette)]


def format_table(rows: list[tuple[Role, Role, dict[str, float]]]) -> str:
    lines = [f"{'pair':<34}" + "".join(f"{v:>14}" for v in VISIONS)]
    for a, b, d in rows:
        flag = " <" if min(d.values()) < MIN_DELTA_E else ""
        lines.append(f"{a.value + ' / ' + b.value:<34}"
                     + "".join(f"{d[v]:>14.1f}" for v in VISIONS) + flag)
    return "\n".join(lines)


def main() -> None:
    for cap, gamma in caps():
        print(f"CIEDE2000 of the emitted light, cap {cap:g}, gamma {gamma:g} "
              f"(< marks a pair under {MIN_DELTA_E:g}):")
        print(format_table(table(PALETTE, cap, gamma)))
        moving = [f"{a.value} ({channel(PALETTE[a])}) / {b.value} ({channel(PALETTE[b])})"
                  for a, b in told_apart() if (a, b) not in by_colour()]
        print(f"\ntold apart by how they move ({len(moving)} pairs): " + "; ".join(moving))
        print()


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    main()
