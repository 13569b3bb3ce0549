"""A circuit model as a KiCad 9 schematic: each part drawn by its library symbol, each pin
wired by a short stub to its net (a power symbol for the supplies, a net label for the rest),
a no-connect flag on every pin the model leaves unused on purpose, and a PWR_FLAG on each
supply net the model feeds through a part KiCad cannot see as a source.

Nothing here decides a connection: every label, flag and power symbol is read from the
model, so KiCad's ERC judges the model. A pin the model leaves open that must not float
(an input, a supply pin) gets no flag, and the ERC reports it.

Placement is a flow: the model's drawing groups one band each, parts left to right, ids made
from names (uuid5), so the same model gives the same file byte for byte.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from ..circuit import Circuit, Part, is_capacitor
from ..svgdraw import Box
from . import library
from .library import LibPin, Symbol
from .sexpr import Node, Text, dump, find_all
from .symbols import symbol_for

VERSION = "20250114"
GRID = 1.27
STUB = 2.54
FONT = 1.27
CHAR_W = 1.0
"""Width of one label character at 1.27 mm text (a little more than KiCad's own)."""

POWER_SYMBOLS = {"5V": "power:+5V", "3V3": "power:+3V3", "GND": "power:GND"}
"""Supply nets drawn with KiCad's power symbols (whose net names are +5V, +3V3, GND)."""

KICAD_NET_NAMES = {"5V": "+5V", "3V3": "+3V3", "GND": "GND"}
"""The model's supply net -> the net name KiCad gives it."""

PAPERS = (("A4", 297.0, 210.0), ("A3", 420.0, 297.0), ("A2", 594.0, 420.0), ("A1", 841.0, 594.0),
          ("A0", 1189.0, 841.0))
MARGIN = 15.24
TITLE_BLOCK_H = 40.64
GROUP_TITLES = {"power": "Supply, Pi header and LED data level shifter", "leds": "LED chain",
                "sensors": "Sensors", "expanders": "I2C expanders", "pullups": "Column pull-ups"}

FLAGGED_KINDS = {"output", "open_collector", "bidir", "nc"}
"""Model pin kinds that may be left unused: their open pins get a no-connect flag."""


def _n(v: float) -> str:
    v = round(v, 4)
    return "0" if v == 0 else f"{v:g}"


def _uuid(project: str, what: str) -> Text:
    return Text(str(uuid.uuid5(uuid.NAMESPACE_URL, f"navakankari:{project}/{what}")))


def _snap(v: float, step: float = 2.54) -> float:
    return round(math.ceil(v / step - 1e-9) * step, 4)


def _outward(pin: LibPin) -> tuple[int, int]:
    """The sheet direction (Y down) pointing away from the body at a pin."""
    a = math.radians(pin.angle)
    return (-round(math.cos(a)), round(math.sin(a)))


@dataclass(frozen=True)
class Unit:
    """One placed unit of a part's symbol."""

    part: Part
    symbol: Symbol
    unit: int
    pins: tuple[LibPin, ...]


def _body_box(symbol: Symbol, unit: int) -> Box:
    """The unit's drawing in sheet orientation (Y down) around its origin, pins included."""
    xs: list[float] = [0.0]
    ys: list[float] = [0.0]
    for sub in find_all(symbol.tree, "symbol"):
        u = int(str(sub[1]).rsplit("_", 2)[-2])
        if u not in (0, unit):
            continue
        for item in sub[2:]:
            if not isinstance(item, list):
                continue
            for key in ("start", "end", "center", "mid", "xy"):
                for pt in _all(item, key):
                    xs.append(float(str(pt[1])))
                    ys.append(-float(str(pt[2])))
    return Box(min(xs), min(ys), max(xs), max(ys))


def _all(node: list[Node], key: str) -> Iterable[list[Node]]:
    for x in node:
        if isinstance(x, list):
            if x and x[0] == key:
                yield x
            yield from _all(x, key)


class Sheet:
    """Builds the schematic's items."""

    def __init__(self, circuit: Circuit, project: str) -> None:
        self.circuit = circuit
        self.project = project
        self.root = _uuid(project, "root")
        self.items: list[Node] = []
        self.symbols: dict[str, Symbol] = {}
        self.power_count = 0
        self.flag_count = 0
        self.counter = 0

    def uid(self, what: str) -> Text:
        self.counter += 1
        return _uuid(self.project, f"{what}#{self.counter}")

    # --- items ---------------------------------------------------------------------------

    def wire(self, a: tuple[float, float], b: tuple[float, float]) -> None:
        self.items.append(["wire", ["pts", ["xy", _n(a[0]), _n(a[1])], ["xy", _n(b[0]), _n(b[1])]],
                           ["stroke", ["width", "0"], ["type", "default"]], ["uuid", self.uid("wire")]])

    def label(self, name: str, at: tuple[float, float], out: tuple[int, int]) -> None:
        angle, justify = {(1, 0): (0, "left"), (-1, 0): (180, "right"), (0, -1): (90, "left"),
                          (0, 1): (270, "right")}[out]
        self.items.append(["label", Text(name), ["at", _n(at[0]), _n(at[1]), str(angle)],
                           ["effects", ["font", ["size", _n(FONT), _n(FONT)]], ["justify", justify, "bottom"]],
                           ["uuid", self.uid("label")]])

    def no_connect(self, at: tuple[float, float]) -> None:
        self.items.append(["no_connect", ["at", _n(at[0]), _n(at[1])], ["uuid", self.uid("nc")]])

    def text(self, words: str, at: tuple[float, float], size: float = 2.54) -> None:
        self.items.append(["text", Text(words), ["exclude_from_sim", "no"], ["at", _n(at[0]), _n(at[1]), "0"],
                           ["effects", ["font", ["size", _n(size), _n(size)], ["bold", "yes"]],
                            ["justify", "left", "bottom"]],
                           ["uuid", self.uid("text")]])

    def place(self, symbol: Symbol, ref: str, value: str, at: tuple[float, float], *, unit: int = 1,
              rotation: int = 0, footprint: str = "", hidden_ref: bool = False,
              ref_at: tuple[float, float] | None = None, value_at: tuple[float, float] | None = None,
              description: str = "", justify: str = "", field_angle: int = 0, maker: str = "",
              mpn: str = "") -> None:
        self.symbols.setdefault(symbol.lib_id, symbol)
        key = f"{ref}/{unit}" if not ref.startswith("#") else f"{ref}"
        ref_pos = ref_at or at
        val_pos = value_at or at

        def prop(name: str, text: str, pos: tuple[float, float], hide: bool) -> list[Node]:
            eff: list[Node] = ["effects", ["font", ["size", _n(FONT), _n(FONT)]]]
            if justify and not hide:
                eff.append(["justify", justify])
            if hide:
                eff.append(["hide", "yes"])
            angle = field_angle if not hide else 0
            return ["property", Text(name), Text(text), ["at", _n(pos[0]), _n(pos[1]), str(angle)], eff]

        node: list[Node] = [
            "symbol", ["lib_id", Text(symbol.lib_id)], ["at", _n(at[0]), _n(at[1]), str(rotation)],
            ["unit", str(unit)], ["exclude_from_sim", "no"], ["in_bom", "no" if ref.startswith("#") else "yes"],
            ["on_board", "no" if ref.startswith("#") else "yes"], ["dnp", "no"],
            ["uuid", _uuid(self.project, f"symbol/{key}")],
            prop("Reference", ref, ref_pos, hidden_ref),
            prop("Value", value, val_pos, False),
            prop("Footprint", footprint, at, True),
            prop("Datasheet", "", at, True),
            prop("Description", description, at, True),
        ]
        if mpn:  # the BOM's manufacturer columns
            node += [prop("Manufacturer", maker, at, True), prop("MPN", mpn, at, True)]
        for pin in symbol.pins:
            if pin.unit in (0, unit):
                node.append(["pin", Text(pin.number), ["uuid", _uuid(self.project, f"pin/{key}/{pin.number}")]])
        node.append(["instances", ["project", Text(self.project),
                                   ["path", Text(f"/{self.root}"), ["reference", Text(ref)], ["unit", str(unit)]]]])
        self.items.append(node)

    def power(self, net: str, at: tuple[float, float], out: tuple[int, int]) -> None:
        """A power symbol for `net` whose pin sits at `at`, its drawing pointing along `out`."""
        sym = library.load(POWER_SYMBOLS[net])
        down = net == "GND"
        # the symbol's drawing points down (GND) or up (+5V): rotate it onto `out`
        natural = (0, 1) if down else (0, -1)
        rotation = {((0, 1), (0, 1)): 0, ((0, 1), (1, 0)): 90, ((0, 1), (0, -1)): 180, ((0, 1), (-1, 0)): 270,
                    ((0, -1), (0, -1)): 0, ((0, -1), (-1, 0)): 90, ((0, -1), (0, 1)): 180,
                    ((0, -1), (1, 0)): 270}[(natural, out)]
        self.power_count += 1
        reach = 4.2 if out[1] else 3.2 + CHAR_W * len(KICAD_NET_NAMES[net]) / 2
        value_at = (at[0] + out[0] * reach, at[1] + out[1] * reach + (0.6 if out[1] > 0 else 0))
        # a field's angle turns with its symbol: 90 more keeps the name horizontal
        self.place(sym, f"#PWR{self.power_count:03d}", KICAD_NET_NAMES[net], at, rotation=rotation,
                   hidden_ref=True, value_at=value_at, field_angle=90 if rotation in (90, 270) else 0)

    def pwr_flag(self, net: str, at: tuple[float, float]) -> None:
        """A PWR_FLAG on `net` drawn at `at`: a power symbol (or label) and a short wire."""
        self.flag_count += 1
        flag = library.load("power:PWR_FLAG")
        below = (at[0], at[1] + 5.08)
        self.wire(at, below)
        if net == "GND":
            self.place(flag, f"#FLG{self.flag_count:02d}", "PWR_FLAG", at, hidden_ref=True,
                       value_at=(at[0], at[1] - 4.4))
            self.power(net, below, (0, 1))
        else:
            if net in POWER_SYMBOLS:
                self.power(net, at, (0, -1))
            else:
                self.label(net, at, (0, -1))
            self.place(flag, f"#FLG{self.flag_count:02d}", "PWR_FLAG", below, rotation=180, hidden_ref=True,
                       value_at=(below[0], below[1] + 4.4))

    # --- the tree ------------------------------------------------------------------------

    def tree(self, paper: str, title: str, comments: list[str]) -> list[Node]:
        lib_symbols: list[Node] = ["lib_symbols", *[s.tree for _, s in sorted(self.symbols.items())]]
        block: list[Node] = ["title_block", ["title", Text(title)]]
        for i, c in enumerate(comments, start=1):
            block.append(["comment", str(i), Text(c)])
        return ["kicad_sch", ["version", VERSION], ["generator", Text("eeschema")],
                ["generator_version", Text("9.0")], ["uuid", self.root], ["paper", Text(paper)],
                block, lib_symbols, *self.items,
                ["sheet_instances", ["path", Text("/"), ["page", Text("1")]]], ["embedded_fonts", "no"]]


# --- what each pin ends in ---------------------------------------------------------------------


def _flag_open(part: Part, number: str, circuit: Circuit) -> bool:
    """Whether an open pin is unused on purpose: outputs and the Pi's GPIOs may stay open, and
    a supply pin may when another pin of that supply on the same part is wired (the Pi's
    eight GND pins are one inside it). Inputs and a part's only supply pin may not."""
    pin = part.pin(number)
    if pin.kind in FLAGGED_KINDS:
        return True
    if pin.kind in ("power_in", "ground", "power_out"):
        return any(p.name == pin.name and p.number != number and circuit.net_of(f"{part.ref}.{p.number}")
                   for p in part.pins)
    return False


def driven_nets(circuit: Circuit) -> set[str]:
    """Nets the model feeds: those holding a supply's output or a supply's ground, and the
    supply nets reached from an output through series parts with only passive pins (a fuse, a
    diode; not a capacitor, and never from ground)."""
    driven: set[str] = set()
    sources = {p.ref for p in circuit.parts if any(q.kind == "power_out" for q in p.pins)}
    for net in circuit.nets:
        for node in net.nodes:
            part, pin = circuit.pin_of(node)
            if pin.kind == "power_out" or (pin.kind == "ground" and part.ref in sources):
                driven.add(net.name)
    changed = True
    while changed:
        changed = False
        for part in circuit.parts:
            if is_capacitor(part) or not all(p.kind == "passive" for p in part.pins):
                continue
            ends = {n for p in part.pins if (n := circuit.net_of(f"{part.ref}.{p.number}")) is not None}
            if ends & driven - {"GND"}:
                for name in ends - driven:
                    if name in POWER_SYMBOLS:
                        driven.add(name)
                        changed = True
    return driven


def units_of(circuit: Circuit) -> dict[str, list[Unit]]:
    """Each part's symbol units, with the visible pins each one draws."""
    units: dict[str, list[Unit]] = {}
    for part in circuit.parts:
        sym = symbol_for(part)
        units[part.ref] = [Unit(part, sym, u, tuple(p for p in sym.pins if p.unit in ((0, u) if u == 1 else (u,))
                                                   and not p.hidden))
                           for u in range(1, sym.units + 1)]
    return units


def _pin_end(circuit: Circuit, unit: Unit, pin: LibPin) -> tuple[str, str]:
    """What the pin's stub ends in: ("power", net), ("label", net), ("nc", ""), ("open", "")."""
    net = circuit.net_of(f"{unit.part.ref}.{pin.number}")
    if net is None:
        return ("nc", "") if _flag_open(unit.part, pin.number, circuit) else ("open", "")
    return ("power", net) if net in POWER_SYMBOLS else ("label", net)


def _extent(circuit: Circuit, unit: Unit) -> Box:
    """The unit's footprint on the sheet with its stubs, labels and power symbols."""
    b = _body_box(unit.symbol, unit.unit)
    # reference and value written beside the body's right corners
    text = CHAR_W * max(len(unit.part.ref) + 1, len(unit.part.value)) + 1.27
    if _vertical_pins(unit):
        x0, y0, x1, y1 = b.x0, b.y0 - 2.54, b.x1 + text, b.y1 + 2.54
    else:
        mid = (b.x0 + b.x1) / 2
        x0, y0, x1, y1 = min(b.x0, mid - text / 2), b.y0 - 2.54, max(b.x1, mid + text / 2), b.y1 + 2.54
    for pin in unit.pins:
        kind, net = _pin_end(circuit, unit, pin)
        px, py = pin.x, -pin.y
        ox, oy = _outward(pin)
        reach = 0.0
        side = 1.3
        if kind == "label":
            reach = STUB + CHAR_W * len(net) + 1.0
        elif kind == "power":
            reach = STUB + (5.0 if oy else 3.5 + CHAR_W * len(KICAD_NET_NAMES[net]))
            side = 2.0
        tip = (px + ox * reach, py + oy * reach)
        x0, x1 = min(x0, tip[0], px - side), max(x1, tip[0], px + side)
        y0, y1 = min(y0, tip[1], py - side), max(y1, tip[1], py + side)
    return Box(x0, y0, x1, y1)


def _group_order(circuit: Circuit) -> list[tuple[str, list[str]]]:
    groups = dict(circuit.groups)
    grouped = {r for refs in groups.values() for r in refs}
    rest = [p.ref for p in circuit.parts if p.ref not in grouped]
    order = [(g, list(refs)) for g, refs in groups.items()]
    if rest:
        order.append(("other", rest))
    return order


def _layout(circuit: Circuit, units: dict[str, list[Unit]], width: float) -> tuple[
        list[tuple[Unit, float, float]], list[tuple[str, float, float]], float]:
    """Origins for every unit in bands of `width` mm; returns the placements, the band titles
    and the height used."""
    placed: list[tuple[Unit, float, float]] = []
    titles: list[tuple[str, float, float]] = []
    y = 0.0
    gap = 5.08
    for group, refs in _group_order(circuit):
        titles.append((GROUP_TITLES.get(group, group.capitalize()), 0.0, y + 3.81))
        y += 7.62
        x, row_h = 0.0, 0.0
        for ref in refs:
            for unit in units[ref]:
                box = _extent(circuit, unit)
                w, h = box.x1 - box.x0, box.y1 - box.y0
                if x > 0 and x + w > width:
                    x, y, row_h = 0.0, y + row_h + gap, 0.0
                placed.append((unit, _snap(x - box.x0), _snap(y - box.y0)))
                x += w + gap
                row_h = max(row_h, h + 2.54)
        y += row_h + gap + 2.54
    return placed, titles, y


def _paper(circuit: Circuit, units: dict[str, list[Unit]]) -> tuple[str, float, float,
                                                                     list[tuple[Unit, float, float]],
                                                                     list[tuple[str, float, float]]]:
    for name, w, h in PAPERS:
        placed, titles, used = _layout(circuit, units, w - 2 * MARGIN)
        if used <= h - MARGIN - TITLE_BLOCK_H - 12.7 or name == PAPERS[-1][0]:
            return name, w, h, placed, titles
    raise AssertionError("unreachable")


def schematic(circuit: Circuit, project: str, comments: list[str]) -> str:
    """The KiCad 9 schematic (.kicad_sch text) of a circuit model, as project `project`."""
    units = units_of(circuit)
    paper, _, _, placed, titles = _paper(circuit, units)
    sheet = Sheet(circuit, project)
    ox, oy = MARGIN, MARGIN
    for words, x, y in titles:
        sheet.text(words, (ox + x, oy + y))
    for unit, ux, uy in placed:
        x, y = ox + ux, oy + uy
        box = _body_box(unit.symbol, unit.unit)
        part = unit.part
        ref_at, value_at, justify = _field_places(unit, box, x, y)
        sheet.place(unit.symbol, part.ref, part.value, (x, y), unit=unit.unit, footprint=part.footprint,
                    description=part.description, ref_at=ref_at, value_at=value_at, justify=justify,
                    maker=part.maker, mpn=part.mpn)
        for pin in unit.pins:
            kind, net = _pin_end(circuit, unit, pin)
            at = (x + pin.x, y - pin.y)
            out = _outward(pin)
            end = (at[0] + out[0] * STUB, at[1] + out[1] * STUB)
            if kind == "nc":
                sheet.no_connect(at)
            elif kind in ("power", "label"):
                sheet.wire(at, end)
                if kind == "power":
                    sheet.power(net, end, out)
                else:
                    sheet.label(net, end, out)
    _flags(sheet, circuit, placed, ox, oy)
    title = f"{circuit.title} ({circuit.sensor_kind} sensors)"
    return dump(sheet.tree(paper, title, comments)) + "\n"


def _vertical_pins(unit: Unit) -> bool:
    return any(_outward(p)[1] for p in unit.pins)


def _field_places(unit: Unit, box: Box, x: float, y: float) -> tuple[
        tuple[float, float], tuple[float, float], str]:
    """Where the reference and value go, and their justification: above and below the body,
    centred; beside its right corners when pins leave from the top or bottom (their stubs
    and labels are there)."""
    if _vertical_pins(unit):
        return (x + box.x1 + 0.635, y + box.y0 - 0.635), (x + box.x1 + 0.635, y + box.y1 + 1.905), "left"
    mid = x + (box.x0 + box.x1) / 2
    return (mid, y + box.y0 - 1.27), (mid, y + box.y1 + 1.905), ""


def _flags(sheet: Sheet, circuit: Circuit, placed: list[tuple[Unit, float, float]], ox: float, oy: float) -> None:
    """PWR_FLAGs on the supply nets the model drives where no pin KiCad sees is a source,
    drawn in a row right of the first band's parts."""
    kicad_sources: set[str] = set()
    needs: set[str] = set()
    for unit, _, _ in placed:
        for pin in unit.pins:
            net = circuit.net_of(f"{unit.part.ref}.{pin.number}")
            if net is None:
                continue
            if pin.etype == "power_out":
                kicad_sources.add(net)
            if pin.etype == "power_in":
                needs.add(net)
    nets = sorted((needs & driven_nets(circuit)) - kicad_sources)
    first_band = [(u, x, y) for u, x, y in placed if u.part.ref in circuit.groups.get("power", ())] or placed[:1]
    right = max(x + _extent(circuit, u).x1 for u, x, y in first_band) + 10.16
    top = min(y for _, _, y in first_band)
    for i, net in enumerate(nets):
        sheet.pwr_flag(net, (_snap(ox + right + 12.7 * i), _snap(oy + top)))
