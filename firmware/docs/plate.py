"""The wooden board in millimetres: where points, recesses, sensors and LEDs go, and how the
LED chain runs. Drawn from a profile's point names (their grid positions) and LED indices.

The sizes are one buildable choice, not the only one: a 300 mm square top plate 12 mm thick,
points 40 mm apart, pebbles of 28 mm. The board lines are the engine's
(`navakankari.engine.boards`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from navakankari.engine.boards import BOARDS
from navakankari.hal.profile import Profile

from .svgdraw import Drawing, Point

PITCH = 40.0  #: mm between neighbouring grid points (a7 to d7 is 3 pitches)
PLATE = 300.0  #: mm, the square top plate
PLATE_THICKNESS = 12.0
RECESS_D, RECESS_DEPTH = 30.0, 1.0  #: the shallow round seat a pebble sits in
FLOOR = 3.0  #: mm of wood left between a sensor pocket and the recess floor
POCKET_DEPTH = PLATE_THICKNESS - RECESS_DEPTH - FLOOR  #: blind pockets drilled from below
PEBBLE_D, PEBBLE_H = 28.0, 8.0
MAGNET_D, MAGNET_H = 6.0, 3.0  #: N35 NdFeB disc, axially magnetised, in the pebble's base
LED_OFFSET: Point = (18.0, 8.0)
"""LED hole centre from the point centre (right, towards row 1): 19.7 mm out, which leaves
2.2 mm of wood between the hole and the pebble's recess (at least MIN_WALL)."""
MIN_WALL = 1.5  #: mm of wood at least between two cut-outs in the top face
LED_HOLE_D = 5.0  #: through the plate above the LED; the LED board sits in a 12 mm pocket below
LED_POCKET_D = 12.0
REED_LENGTH, REED_D = 14.0, 2.28  #: Littelfuse MACD-14 glass envelope (its datasheet)
REED_SLOT = (20.0, 4.0)  #: slot for a reed lying flat (glass plus the bent leads)
REED_SHIFT = -5.0  #: its centre this far from the point centre, away from the LED
HALL_POCKET_D = 8.0  #: DRV5032 in TO-92 (4 x 1.52 x 3 mm body) lying flat, branded face up

_GRID = re.compile(r"([a-g])([1-7])")


def grid_mm(point: str) -> Point | None:
    """A point's centre in mm from the top-left grid point a7 (x right, y down), or None for
    a name that is not a board coordinate."""
    m = _GRID.fullmatch(point)
    if m is None:
        return None
    return (PITCH * (ord(m.group(1)) - ord("a")), PITCH * (7 - int(m.group(2))))


#: The boards a maker builds, by the engine's names: the one whose lines are drawn, and the
#: one that adds the lines drawn dashed (Twelve Men's Morris and Morabaraba's diagonals).
BUILT_BOARDS = (("morris", "morris-diagonal"), ("lau-kata-kati", None))

Lines = tuple[tuple[str, ...], ...]


def board_lines(points: Sequence[str]) -> tuple[Lines, Lines]:
    """(lines, optional lines) of the board these points make: the engine's."""
    names = set(points)
    for plain, more in BUILT_BOARDS:
        board = BOARDS[plain]
        if names == set(board.points):
            extra = () if more is None else BOARDS[more].lines
            return board.lines, tuple(line for line in extra if line not in board.lines)
    return (), ()


def is_buildable(profile: Profile) -> bool:
    """A real board to build: a morris or Nau Keti Keta point set, real LEDs."""
    return profile.leds.backend != "sim" and board_lines(profile.points)[0] != ()


@dataclass(frozen=True)
class Layout:
    """Where a board sits on the page: `origin` is point a7's centre, `scale` px per mm."""

    origin: Point
    scale: float

    def at(self, mm: Point, offset: Point = (0.0, 0.0)) -> Point:
        return (self.origin[0] + self.scale * (mm[0] + offset[0]),
                self.origin[1] + self.scale * (mm[1] + offset[1]))

    def led(self, point: str) -> Point:
        centre = grid_mm(point)
        assert centre is not None
        return self.at(centre, LED_OFFSET)


def chain_routes(layout: Layout, chain: Sequence[str]) -> list[tuple[Point, ...]]:
    """One path per link of the LED chain, LED hole to LED hole: straight along a row (just
    below the points, clear of their names); to another row along the channel half a pitch
    off the row, then along the next LED's column (right of its point, left of its labels)."""
    routes: list[tuple[Point, ...]] = []
    half = layout.scale * PITCH / 2
    for a, b in zip(chain, chain[1:]):
        (ax, ay), (bx, by) = layout.led(a), layout.led(b)
        if ay == by:
            routes.append(((ax, ay), (bx, by)))
            continue
        lane = ay + (half if by > ay else -half) - layout.scale * LED_OFFSET[1]
        routes.append(((ax, ay), (ax, lane), (bx, lane), (bx, by)))
    return routes


def draw_board(d: Drawing, profile: Profile, layout: Layout, *, sensor_labels: dict[str, str],
               detail: bool) -> None:
    """The board's lines, each point with its name, sensor label and LED (index and hole), and
    the LED chain. `detail` adds recesses, sensor pockets and the optional diagonals."""
    s = layout.scale
    lines, diagonals = board_lines(profile.points)
    for line in lines:
        pts = [layout.at(grid_mm(p) or (0, 0)) for p in line]
        d.polyline(tuple(pts), 'stroke="#b9a58c" stroke-width="2"')
    if detail:
        for line in diagonals:
            pts = [layout.at(grid_mm(p) or (0, 0)) for p in line]
            d.polyline(tuple(pts), 'stroke="#b9a58c" stroke-width="2" stroke-dasharray="3 5"')
    d.raw('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
          'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#1a75c2"/></marker></defs>')
    chain = sorted(profile.points, key=lambda p: profile.leds.index[p])
    for route in chain_routes(layout, chain):
        d.polyline(route, 'stroke="#1a75c2" stroke-width="1.6" marker-end="url(#arrow)"', route=True)
    name_size = 11 if detail else 9
    for point in profile.points:
        centre = grid_mm(point)
        if centre is None:
            continue
        c = layout.at(centre)
        if detail:
            d.circle(c, s * RECESS_D / 2, 'fill="#f3ead9" stroke="#8a6d45" stroke-width="1"')
            sx, sy = layout.at(centre, (REED_SHIFT - REED_SLOT[0] / 2, -REED_SLOT[1] / 2))
            d.rect(sx, sy, s * REED_SLOT[0], s * REED_SLOT[1],
                   'fill="none" stroke="#a00" stroke-width="1" stroke-dasharray="3 2"')
            d.circle(c, s * HALL_POCKET_D / 2, 'fill="none" stroke="#a00" stroke-width="1"')
            d.text(c[0], c[1] - s * 5.5, point, size=name_size, anchor="middle", extra=' font-weight="bold"')
        else:
            d.circle(c, 9, 'fill="#fff" stroke="#333" stroke-width="2"')
            d.text(c[0], c[1] + 3, point, size=name_size, anchor="middle")
            label = sensor_labels.get(point, "")
            if label:
                d.text(c[0], c[1] - 13, label, size=9, anchor="middle", extra=' fill="#a00"')
        led = layout.led(point)
        d.circle(led, max(3.0, s * LED_HOLE_D / 2), 'fill="#fff" stroke="#1a75c2" stroke-width="1.5"')
        d.text(led[0] + s * 3.5, led[1] - s * 3, str(profile.leds.index[point]), size=9,
               extra=' fill="#1a75c2" font-weight="bold"')


def _dimension(d: Drawing, a: Point, b: Point, text: str, *, label_at: Point, anchor: str = "middle") -> None:
    d.line(a, b, 'stroke="#555" stroke-width="1" marker-start="url(#tick)" marker-end="url(#tick)"')
    d.text(label_at[0], label_at[1], text, size=11, anchor=anchor)


SECTION_SCALE = 5.0  #: px per mm in the cross-section


def _section(d: Drawing, x0: float, top: float) -> float:
    """A cross-section through one point (x along the row), to scale; returns its bottom."""
    k = SECTION_SCALE
    width = 64.0
    cx = x0 + k * width / 2  # the point centre
    plate_top = top + 24 + k * PEBBLE_H
    d.text(x0, top + 12, "Section through a point (2.5 x the scale of the plan)", size=11,
           extra=' font-weight="bold"')
    # pebble with its magnet
    seat = plate_top + k * RECESS_DEPTH  # the pebble's base rests on the recess floor
    # plate with the recess, a reed slot lying flat and the LED pocket and hole
    d.rect(x0, plate_top, k * width, k * PLATE_THICKNESS, 'fill="#e2c9a0" stroke="#8a6d45"')
    d.rect(cx - k * RECESS_D / 2, plate_top, k * RECESS_D, k * RECESS_DEPTH, 'fill="#fff"')
    d.rect(cx - k * PEBBLE_D / 2, seat - k * PEBBLE_H, k * PEBBLE_D, k * PEBBLE_H, 'fill="#eee" stroke="#333"')
    d.rect(cx - k * MAGNET_D / 2, seat - k * MAGNET_H, k * MAGNET_D, k * MAGNET_H, 'fill="#777"')
    pocket_top = plate_top + k * (RECESS_DEPTH + FLOOR)
    d.rect(cx + k * (REED_SHIFT - REED_SLOT[0] / 2), pocket_top, k * REED_SLOT[0], k * POCKET_DEPTH,
           'fill="#fff" stroke="#a00" stroke-dasharray="3 2"')
    d.rect(cx + k * (REED_SHIFT - REED_LENGTH / 2), pocket_top, k * REED_LENGTH, k * REED_D,
           'fill="#cde" stroke="#357"')
    lx = cx + k * LED_OFFSET[0]
    d.rect(lx - k * LED_POCKET_D / 2, plate_top + k * 4, k * LED_POCKET_D, k * (PLATE_THICKNESS - 4),
           'fill="#fff" stroke="#1a75c2"')
    d.rect(lx - k * LED_HOLE_D / 2, plate_top, k * LED_HOLE_D, k * 4, 'fill="#fff" stroke="#1a75c2"')
    d.rect(lx - k * 2.5, plate_top + k * 4, k * 5, k * 1.6, 'fill="#1a75c2"')
    bottom = plate_top + k * PLATE_THICKNESS
    notes = [
        f"pebble {PEBBLE_D:g} x {PEBBLE_H:g} mm, magnet {MAGNET_D:g} x {MAGNET_H:g} mm N35 in its base",
        f"plate {PLATE_THICKNESS:g} mm; recess {RECESS_D:g} mm wide, {RECESS_DEPTH:g} mm deep",
        f"sensor pocket from below {POCKET_DEPTH:g} mm deep, {FLOOR:g} mm of wood left",
        f"reed ({REED_LENGTH:g} x {REED_D:g} mm) flat in a {REED_SLOT[0]:g} x {REED_SLOT[1]:g} mm slot,",
        f"  its centre {-REED_SHIFT:g} mm off the point, away from the LED",
        "or a DRV5032 lying flat, branded face up,",
        f"  in a {HALL_POCKET_D:g} mm hole under the point centre",
        f"LED board in a {LED_POCKET_D:g} mm pocket {PLATE_THICKNESS - 4:g} mm deep,",
        f"  {LED_HOLE_D:g} mm hole above it ({LED_OFFSET[1]:g} mm in front of this section)",
    ]
    y = bottom + 22
    for note in notes:
        d.text(x0, y, note, size=10)
        y += 15
    return y


def board_drawing(profile: Profile) -> Drawing:
    """The dimensioned drawing of the top plate, seen from above, with the LED chain."""
    scale = 2.0
    plate_x, plate_y = 80.0, 110.0
    margin = (PLATE - 6 * PITCH) / 2
    layout = Layout((plate_x + scale * margin, plate_y + scale * margin), scale)
    d = Drawing(1240, 740, font_size=11)
    d.raw('<defs><marker id="tick" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="8" '
          'markerHeight="8"><path d="M5,0 L5,10" stroke="#555" stroke-width="2"/></marker></defs>')
    d.text(20, 30, f"{profile.name}: the top plate from above (mm)", size=16, extra=' font-weight="bold"')
    d.rect(plate_x, plate_y, scale * PLATE, scale * PLATE, 'fill="#fbf6ee" stroke="#8a6d45" stroke-width="2"')
    draw_board(d, profile, layout, sensor_labels={}, detail=True)
    right = plate_x + scale * PLATE
    a7, g7, a1 = layout.at((0, 0)), layout.at((6 * PITCH, 0)), layout.at((0, 6 * PITCH))
    _dimension(d, (plate_x, 60), (right, 60), f"{PLATE:g}", label_at=((plate_x + right) / 2, 55))
    _dimension(d, (a7[0], 88), (g7[0], 88), f"{6 * PITCH:g} (6 x {PITCH:g} between grid points)",
               label_at=((a7[0] + g7[0]) / 2, 83))
    _dimension(d, (plate_x, 100), (a7[0], 100), f"{margin:g}", label_at=((plate_x + a7[0]) / 2, 96))
    _dimension(d, (48, a7[1]), (48, a7[1] + scale * PITCH), f"{PITCH:g}", label_at=(44, a7[1] + 44),
               anchor="end")
    _dimension(d, (62, plate_y), (62, plate_y + scale * PLATE), f"{PLATE:g}",
               label_at=(58, a1[1] - 20), anchor="end")
    legend_x = right + 40
    y = plate_y
    legend = [
        ("LED chain", f"{profile.leds.count} LEDs; the numbers give the chain order:"),
        ("", "LED 0 takes DIN from the level shifter,"),
        ("", "each DOUT feeds the next LED's DIN"),
        ("LED", f"{LED_HOLE_D:g} mm hole, {LED_OFFSET[0]:g} mm right and {LED_OFFSET[1]:g} mm down"),
        ("", "from the point centre: clear of the pebble"),
        ("", "and of the board lines"),
        ("recess", f"{RECESS_D:g} mm wide, {RECESS_DEPTH:g} mm deep, for a {PEBBLE_D:g} mm pebble"),
        ("sensor", "dashed slot: a reed switch lying flat;"),
        ("", f"circle: {HALL_POCKET_D:g} mm hole for a hall switch"),
        ("calibrate", "any chain or sensor order works:"),
        ("", "`navakankari calibrate` learns it"),
    ]
    if board_lines(profile.points)[1]:
        legend.insert(9, ("diagonals", "dashed: Twelve Men's Morris, Morabaraba"))
    for key, text in legend:
        if key:
            d.text(legend_x, y, key, size=11, extra=' font-weight="bold"')
        d.text(legend_x + 78, y, text, size=10)
        y += 17
    _section(d, legend_x, y + 20)
    return d
