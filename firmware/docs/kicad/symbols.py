"""Which symbol draws each part of the model: KiCad's library symbol where KiCad has the part
with the model's pin numbers, else a symbol of the project's own library made from the
model's pins (the DRV5032, and the Pi's header, which KiCad's Raspberry_Pi_2_3 symbol draws
with its eight GND pins stacked as one, so it cannot show which of them are wired)."""

from __future__ import annotations

from ..circuit import Part, Pin, is_capacitor, is_resistor
from . import library
from .library import Symbol
from .sexpr import Node, Text

PROJECT_LIBRARY = "navakankari"

KICAD_TYPES = {
    "power_out": "power_out", "power_in": "power_in", "ground": "power_in", "input": "input",
    "output": "output", "open_collector": "open_collector", "bidir": "bidirectional",
    "passive": "passive", "nc": "no_connect",
}
"""The model's pin kinds as KiCad's electrical pin types."""

LIBRARY_SYMBOLS = {
    "supply-5v": "Connector:Screw_Terminal_01x02",
    "74AHCT125": "74xx:74AHCT125",
    "MCP23017": "Interface_Expansion:MCP23017_SP",
    "WS2812B": "LED:WS2812B",
    "reed": "Switch:SW_Reed",
    "BAT43": "Diode:BAT43",
    "SMBJ5.0A": "Diode:SMBJ5.0A",
    "polyfuse": "Device:Polyfuse",
    # KiCad has no AO4407; the IRF7404 is a P-channel MOSFET in SO-8 with the same pins
    # (1-3 source, 4 gate, 5-8 drain)
    "AO4407": "Transistor_FET:IRF7404",
    "SS34": "Diode:SS34",
    "1N5819": "Diode:1N5819",
}
"""Model part kind -> KiCad library symbol."""


def library_id(part: Part) -> str | None:
    """The KiCad library symbol for a part, or None when the project draws its own."""
    if is_resistor(part):
        return "Device:R"
    if is_capacitor(part):
        return "Device:C_Polarized" if part.pins[0].name == "+" else "Device:C"
    if part.kind.startswith("conn-1x"):
        return f"Connector_Generic:Conn_01x{part.kind[7:]}"
    if part.kind.startswith("conn-2x"):
        return f"Connector_Generic:Conn_02x{part.kind[7:]}_Odd_Even"
    return LIBRARY_SYMBOLS.get(part.kind)


def symbol_for(part: Part) -> Symbol:
    """The flattened symbol drawing a part: KiCad's when its pin numbers are the model's."""
    lib_id = library_id(part)
    if lib_id is not None:
        try:
            sym = library.load(lib_id)
        except library.LibraryError:
            sym = None
        if sym is not None and {p.number for p in sym.pins} == {p.number for p in part.pins}:
            return sym
    return project_symbol(part)


def symbol_name(part: Part) -> str:
    """The project library's name for a part's symbol: the Pi's header, else its kind."""
    if part.kind == "raspberry-pi":
        return "RPi_GPIO_Header"
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in part.kind)


def _font(hide: bool = False) -> list[Node]:
    eff: list[Node] = ["effects", ["font", ["size", "1.27", "1.27"]]]
    if hide:
        eff.append(["hide", "yes"])
    return eff


def _prop(name: str, value: str, x: float, y: float, hide: bool = False) -> list[Node]:
    return ["property", Text(name), Text(value), ["at", _n(x), _n(y), "0"], _font(hide)]


def _n(v: float) -> str:
    return f"{round(v, 4):g}"


def _pin(pin: Pin, x: float, y: float, angle: int) -> list[Node]:
    return ["pin", KICAD_TYPES[pin.kind], "line", ["at", _n(x), _n(y), str(angle)], ["length", "2.54"],
            ["name", Text(pin.name), _font()], ["number", Text(pin.number), _font()]]


def _side(pin: Pin) -> str:
    if pin.kind == "power_in":
        return "top"
    if pin.kind == "ground":
        return "bottom"
    if pin.kind in ("input", "passive", "nc"):
        return "left"
    return "right"


def project_symbol(part: Part) -> Symbol:
    """A symbol for a part KiCad's libraries lack, drawn from the model's pins: the Pi's header
    as the 2 x 20 connector it is (odd pins left, even right, in physical order), any other
    part as a box with supply pins on top, ground below, inputs left and outputs right."""
    name = symbol_name(part)
    if part.kind == "raspberry-pi":
        rows = (len(part.pins) + 1) // 2
        half_w, top = 10.16, 1.27 * (rows - 1) + 2.54
        body = (-half_w, top, half_w, -top)
        pins = []
        for i, pin in enumerate(part.pins):
            y = top - 2.54 - 2.54 * (i // 2)
            pins.append(_pin(pin, -half_w - 2.54, y, 0) if i % 2 == 0 else _pin(pin, half_w + 2.54, y, 180))
    else:
        sides: dict[str, list[Pin]] = {"top": [], "bottom": [], "left": [], "right": []}
        for pin in part.pins:
            sides[_side(pin)].append(pin)
        tall = max(len(sides["left"]), len(sides["right"]), 1)
        wide = max(len(sides["top"]), len(sides["bottom"]), 1)
        half_w = max(5.08, 2.54 * ((wide + 1) // 2) + 2.54)
        # pin names of top and bottom pins run vertically into the body: room for both
        half_h = max(7.62 if sides["top"] and sides["bottom"] else 5.08, 2.54 * ((tall + 1) // 2) + 1.27)
        body = (-half_w, half_h, half_w, -half_h)
        pins = []
        for key, angle in (("left", 0), ("right", 180), ("top", 270), ("bottom", 90)):
            row = sides[key]
            for i, pin in enumerate(row):
                off = 2.54 * (i - (len(row) - 1) / 2)
                if key in ("left", "right"):
                    x = -half_w - 2.54 if key == "left" else half_w + 2.54
                    pins.append(_pin(pin, x, -off, angle))
                else:
                    y = half_h + 2.54 if key == "top" else -half_h - 2.54
                    pins.append(_pin(pin, off, y, angle))
    x0, y0, x1, y1 = body
    tree: list[Node] = [
        "symbol", Text(f"{PROJECT_LIBRARY}:{name}"), ["pin_names", ["offset", "1.016"]],
        ["exclude_from_sim", "no"], ["in_bom", "yes"], ["on_board", "yes"],
        _prop("Reference", "J" if part.kind == "raspberry-pi" else "U", 0, y0 + 1.27),
        _prop("Value", part.value, 0, y1 - 1.27),
        _prop("Footprint", part.footprint, 0, 0, hide=True),
        _prop("Datasheet", "", 0, 0, hide=True),
        _prop("Description", part.description, 0, 0, hide=True),
        ["symbol", Text(f"{name}_0_1"),
         ["rectangle", ["start", _n(x0), _n(y0)], ["end", _n(x1), _n(y1)],
          ["stroke", ["width", "0.254"], ["type", "default"]], ["fill", ["type", "background"]]]],
        ["symbol", Text(f"{name}_1_1"), *pins],
        ["embedded_fonts", "no"],
    ]
    return library.from_tree(f"{PROJECT_LIBRARY}:{name}", tree)


def library_file(symbols: list[Symbol]) -> list[Node]:
    """The project's symbol library holding `symbols` (named without the library prefix)."""
    out: list[Node] = ["kicad_symbol_lib", ["version", "20241209"], ["generator", Text("navakankari")],
                       ["generator_version", Text("9.0")]]
    for sym in symbols:
        tree = list(sym.tree)
        tree[1] = Text(sym.lib_id.partition(":")[2])
        out.append(tree)
    return out
