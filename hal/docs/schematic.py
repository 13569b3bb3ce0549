"""A schematic per circuit model: every part with every pin, every connected pin a wire that
ends in its net's name. Drawn from the model alone (no wire is placed by hand), so the picture
cannot join what the model keeps apart: each wire element carries `data-net` and `data-pin`,
and a test reads them back and compares them with the model's nets.

Pins with the same net name are joined, as with net labels in any schematic tool; the power
nets are coloured (5V red, 3V3 orange, GND black) so a reader sees at once what sits on 5 V.
"""

from __future__ import annotations

from collections.abc import Sequence

from .circuit import Circuit, Part, Pin
from .svgdraw import Drawing

BOX = 'fill="#f7f7f7" stroke="#333" stroke-width="1.2"'
NET_COLOURS = {"5V": "#c22", "3V3": "#d27d00", "GND": "#222"}
DATA = "#1a75c2"
PITCH = 14.0  #: px between pins
STUB = 20.0  #: px of wire from the box to the net name
NAME_SIZE = 8.0
LABEL_SIZE = 9.0
EM = 0.68


def net_colour(net: str) -> str:
    if net in NET_COLOURS:
        return NET_COLOURS[net]
    return DATA if net.startswith(("LED_", "DIN")) else "#2a7a2a"


def _text_width(text: str, size: float) -> float:
    return EM * size * len(text)


def _sides(part: Part) -> tuple[list[Pin | None], list[Pin | None]]:
    """Pins on the left and right of the box, in drawing order (None: an empty row)."""
    pins = list(part.pins)
    if part.ref == "PI":  # the header as it is: odd pins left, even pins right
        return [p for p in pins if int(p.number) % 2], [p for p in pins if not int(p.number) % 2]
    if part.kind in ("74AHCT125",):
        order = [[2, 1, 4, 5, 13, 12, 7], [14, 3, 6, 10, 9, 8, 11]]
        return [[part.pin(str(n)) for n in side] for side in order]  # type: ignore[return-value]
    if part.kind == "MCP23017":
        left = [part.pin(str(n)) for n in (9, 10, 12, 13, 18, 15, 16, 17, 20, 19, 11, 14)]
        right = [part.pin(str(n)) for n in [*range(21, 29), *range(1, 9)]]
        return left, right  # type: ignore[return-value]
    half = (len(pins) + 1) // 2
    if part.kind == "WS2812B":
        return [part.pin("DIN"), part.pin("VSS")], [part.pin("DOUT"), part.pin("VDD")]
    if part.kind in ("DRV5032FC", "DRV5032FA"):
        return [part.pin("VCC"), part.pin("GND")], [part.pin("OUT")]
    return pins[:half], pins[half:]  # type: ignore[return-value]


def part_size(part: Part) -> tuple[float, float]:
    left, right = _sides(part)
    inner = max((_text_width(f"{p.number} {p.name}", NAME_SIZE) for p in left + right if p), default=0)
    width = max(44.0, 2 * inner + 14) if left and right else max(44.0, inner + 14)
    rows = max(len(left), len(right))
    return width, 8 + PITCH * rows


def draw_part(d: Drawing, circuit: Circuit, part: Part, x: float, y: float) -> None:
    """The part's box at (x, y) (top left), its title above, and one wire per connected pin
    ending in the net's name."""
    left, right = _sides(part)
    width, height = part_size(part)
    d.rect(x, y, width, height, BOX)
    d.text(x + width / 2, y - 4, f"{part.ref} {part.value}" if part.ref != part.value else part.ref,
           size=9, anchor="middle", extra=' font-weight="bold"')
    for side, pins in ((-1, left), (1, right)):
        for row, pin in enumerate(pins):
            if pin is None:
                continue
            py = y + 4 + PITCH * row + PITCH / 2
            node = f"{part.ref}.{pin.number}"
            net = circuit.net_of(node)
            inside = f"{pin.number} {pin.name}" if pin.name != pin.number else pin.number
            grey = "" if net else ' fill="#999"'
            if side < 0:
                d.text(x + 4, py + 3, inside, size=NAME_SIZE, extra=grey)
                edge, end, anchor = x, x - STUB, "end"
            else:
                if not left:
                    d.text(x + 4, py + 3, inside, size=NAME_SIZE, extra=grey)
                else:
                    d.text(x + width - 4, py + 3, inside, size=NAME_SIZE, anchor="end", extra=grey)
                edge, end, anchor = x + width, x + width + STUB, "start"
            if net is None:
                continue
            colour = net_colour(net)
            d.wire((edge, py), (end, py), net, node, colour)
            d.text(end + (-2 if side < 0 else 2), py + 3, net, size=LABEL_SIZE, anchor=anchor,
                   extra=f' fill="{colour}"')


def footprint(part: Part) -> tuple[float, float]:
    """Room a part takes with its wires and net names."""
    width, height = part_size(part)
    left, right = _sides(part)
    return width + 2 * (STUB + 46), height + 18


def _grid(d: Drawing, circuit: Circuit, refs: Sequence[str], x0: float, y0: float, columns: int,
          cell: tuple[float, float]) -> float:
    """Parts in rows of `columns`; returns the y below the last row."""
    y = y0
    for i, ref in enumerate(refs):
        part = circuit.part(ref)
        col, row = i % columns, i // columns
        draw_part(d, circuit, part, x0 + col * cell[0] + STUB + 46, y0 + row * cell[1])
        y = y0 + (row + 1) * cell[1]
    return y


def schematic(circuit: Circuit) -> Drawing:
    """The whole circuit: supply, Pi header, level shifter and its parts, expanders, then the
    LED chain and every sensor (with its pull-up or diode)."""
    groups = circuit.groups
    power = [r for r in groups.get("power", ()) if r != "PI"]
    expanders = list(groups.get("expanders", ()))
    leds = list(groups.get("leds", ()))
    sensors = [*groups.get("pullups", ()), *groups.get("sensors", ())]
    width = 1500.0
    d = Drawing(width, 100, font_size=11)
    d.text(20, 26, f"{circuit.title}: schematic ({circuit.sensor_kind} sensors)", size=16,
           extra=' font-weight="bold"')
    d.text(20, 44, "Generated from the circuit model; every line is a wire of the net named at its end, "
           "and pins with the same net name are joined.", size=10)
    d.text(20, 58, "5V (red), from the supply through F1 and Q1, feeds the supply side of the 74AHCT125, "
           "the LEDs and the Pi's 5V pins only; sensors, pull-ups and expanders are on 3V3 (orange).", size=10)
    # the Pi on the left, the other power parts and expanders in columns beside it
    pi = circuit.part("PI")
    draw_part(d, circuit, pi, 90, 90)
    top = 90 + part_size(pi)[1] + 30
    x = 330.0
    y = 90.0
    column_bottom = y
    column_width = 0.0
    for ref in power + expanders:
        part = circuit.part(ref)
        w, h = footprint(part)
        if y + h > 90 + max(part_size(pi)[1], 300) and y > 90:
            x += column_width
            y, column_width = 90.0, 0.0
        draw_part(d, circuit, part, x + STUB + 46, y)
        column_width = max(column_width, w)
        y += h + 8
        column_bottom = max(column_bottom, y)
    top = max(top, column_bottom + 20)
    d.text(20, top, f"LEDs: {len(leds)} WS2812B, data from DIN0 through the chain", size=11,
           extra=' font-weight="bold"')
    cell = (max((footprint(circuit.part(r))[0] for r in leds), default=1) + 4, 52.0)
    columns = max(1, int((width - 40) // cell[0]))
    top = _grid(d, circuit, leds, 20, top + 26, columns, cell) + 10
    extra = [k for k, g in (("pull-ups", "R10k"), ("diodes", "BAT43"))
             if any(circuit.part(r).kind == g for r in sensors)]
    d.text(20, top, f"Sensors{' with their ' + ' and '.join(extra) if extra else ''} ({len(sensors)} parts)",
           size=11, extra=' font-weight="bold"')
    sizes = [footprint(circuit.part(r)) for r in sensors]
    cell = (max((w for w, _ in sizes), default=1) + 4, max((h for _, h in sizes), default=1) + 8)
    columns = max(1, int((width - 40) // cell[0]))
    top = _grid(d, circuit, sensors, 20, top + 26, columns, cell)
    d.height = top + 10
    d.resize()
    return d
