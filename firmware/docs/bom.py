"""The bill of materials and the power budget, computed from the circuit models.

Electrical quantities are counted in each profile's circuit model (the one the schematic, the
netlist and the wiring table show); currents are summed per supply net of that model. Magnets,
pebbles and the plate come from the profile.
Prices are rough single-unit euro figures for hobby quantities (late 2026), to plan a budget,
not quotes. Part facts and where they were read are in wiring/build-guide.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from navakankari.hal.profile import Profile
from .plate import MAGNET_D, MAGNET_H, PEBBLE_D, PEBBLE_H
from .circuit import POWER_NETS, Circuit, is_resistor, ohms

VARIANT_PEBBLES: tuple[tuple[str, str, int, bool], ...] = (
    ("navakankari, navakankari-strict, navakankari-flying", "24-point", 9, False),
    ("nine-mens-morris", "24-point", 9, False),
    ("lasker", "24-point", 10, False),
    ("twelve-mens-morris, morabaraba", "24-point", 12, True),
    ("six-mens-morris", "inner 16 of the 24 points", 6, False),
    ("nau-keti-keta", "19-point", 9, False),
)
"""(presets, board, pebbles per side, needs the diagonal lines): held to the engine's presets
by a test (hal may not import the engine)."""


def pebbles_per_side(profile: Profile) -> int:
    """Enough for every variant the profile's board can play: 12 a side on the morris board."""
    nineteen = len(profile.points) == 19
    return max(n for _, board, n, _ in VARIANT_PEBBLES if board.startswith("19") == nineteen)


Build = tuple[str, Profile, tuple[Circuit, ...]]
"""A buildable profile: its name, the profile and its circuit models (recommended first)."""


def count(circuit: Circuit, kinds: tuple[str, ...]) -> int:
    """Parts of these kinds in a circuit model."""
    return sum(1 for part in circuit.parts if part.kind in kinds)


@dataclass(frozen=True)
class Line:
    """A line of the bill of materials: electrical parts are counted in the circuit models
    (`kinds`), the rest from the profile (`qty`)."""

    name: str
    number: str  #: a part number or what to ask for
    price: float  #: euro each, rough
    kinds: tuple[str, ...] = ()
    qty: Callable[[Profile], int] | None = None
    note: str = ""

    def quantities(self, build: Build) -> tuple[int, int]:
        """(in the recommended build, in the alternative build or 0)."""
        _, profile, built = build
        if self.qty is not None:
            return self.qty(profile), 0
        first = count(built[0], self.kinds)
        alternative = count(built[1], self.kinds) if len(built) > 1 else 0
        return first, alternative


LINES: tuple[Line, ...] = (
    Line("WS2812B LED on a round carrier board", "Worldsemi WS2812B-5050, 10 mm round breakout",
         0.30, ("WS2812B",), note="DIN/DOUT chained"),
    Line("hall switch (recommended)", "TI DRV5032FCLPG (TO-92, omnipolar, open-drain, 20 Hz)",
         0.70, ("DRV5032FC",), note="3.3 V, 10 kΩ pull-up, 100 nF beside it; not with the matrix"),
    Line("reed switch (alternative)", "Littelfuse MACD-14 (14 x 2.28 mm glass, 10-30 AT)",
         0.90, ("reed",), note="the matrix needs reeds; elsewhere (n) may replace the hall switches"),
    Line("Schottky diode", "BAT43 (DO-35)", 0.05, ("BAT43",), note="one per switch, band to the row"),
    Line("pull-up resistor 10 kΩ", "1/4 W metal film", 0.02, ("R10k",),
         note="to 3V3: one per sensor or matrix column, one on the expanders' INT line"),
    Line("series resistor 1 kΩ", "1/4 W metal film", 0.02, ("R1k",),
         note="between a sensor and a GPIO that UART or SPI0 drives when enabled"),
    Line("I/O expander", "Microchip MCP23017-E/SP (DIP-28)", 1.60, ("MCP23017",)),
    Line("level shifter", "TI SN74AHCT125N (DIP-14)", 0.50, ("74AHCT125",), note="all four OE to GND"),
    Line("capacitor 100 nF", "ceramic, 50 V", 0.05, ("C100n",), note="at each IC's and hall switch's supply"),
    Line("capacitor 1000 µF", "electrolytic, 10 V or more", 0.30, ("C1000u",), note="across 5 V at LED 0"),
    Line("resistor 330 Ω", "1/4 W (300-500 Ω)", 0.02, ("R330",), note="in the LED data line"),
    Line("magnet", f"NdFeB N35 disc {MAGNET_D:g} x {MAGNET_H:g} mm, axially magnetised", 0.10,
         qty=lambda p: 2 * pebbles_per_side(p), note="one per pebble, same pole down"),
    Line("pebble", f"wood or resin disc {PEBBLE_D:g} x {PEBBLE_H:g} mm, two colours", 0.30,
         qty=lambda p: 2 * pebbles_per_side(p), note="half of each colour"),
    Line("top plate", "birch plywood or hardwood 300 x 300 x 12 mm", 15.00, qty=lambda p: 1),
    Line("wire and connectors", "0.5 mm² for LED 5 V/GND, 0.14 mm² hook-up, 2x20 socket or proto HAT",
         10.00, qty=lambda p: 1, note="the wiring table lists every wire"),
    Line("resettable fuse", "Bourns MF-R300 (radial PTC, 3 A hold, 6 A trip, 30 V)", 0.40, ("polyfuse",),
         note="in the supply's + lead, first"),
    Line("P-channel MOSFET", "Alpha & Omega AO4407 (SOIC-8, -30 V, under 30 mΩ at -5 V)", 0.30, ("AO4407",),
         note="reverse-polarity protection after the fuse: drain in, source to 5V, gate to GND"),
    Line("5 V supply", "5.1 V 3 A (Pi 5: 5 A)", 10.00, ("supply-5v",),
         note="through the fuse and the MOSFET it feeds the LEDs, the level shifter and, on header pins 2/4, the Pi"),
)
"""Besides these: a Raspberry Pi 3B+, 4, Zero 2 W or 5 and a microSD card (not in the totals)."""
NOT_IN_BOM = ("raspberry-pi",)


def bom_markdown(builds: Sequence[Build]) -> str:
    names = [n for n, _, _ in builds]
    head = "| part | part number / what to ask for | € each | " + " | ".join(f"`{n}`" for n in names) + " | note |"
    lines = [
        "# Bill of materials",
        "",
        "Generated from the circuit models by `python -m navakankari.firmware.docs`; do not edit.",
        "Quantities per build (one column per profile), counted in the circuit model the schematic",
        "and the wiring table show; a number in brackets is what the alternative sensor build",
        "(reed switches) uses instead. Prices are rough single-unit euro figures for hobby",
        "quantities, to plan a budget, not quotes. Not counted: the Raspberry Pi (3B+, 4, Zero 2 W",
        "or 5) and its microSD card.",
        "",
        head,
        "|---|---|---|" + "---|" * len(names) + "---|",
    ]
    totals = [0.0] * len(names)
    for line in LINES:
        qty = [line.quantities(b) for b in builds]
        if not any(q or alt for q, alt in qty):
            continue
        for i, (q, _) in enumerate(qty):
            totals[i] += q * line.price
        cells = [str(q) if q else f"({alt})" if alt else "-" for q, alt in qty]
        lines.append(f"| {line.name} | {line.number} | {line.price:.2f} | " + " | ".join(cells)
                     + f" | {line.note} |")
    lines.append("| **total** | | | " + " | ".join(f"**{t:.0f} €**" for t in totals) + " | |")
    lines += [
        "",
        "Sensors: the DRV5032FC hall switch is the recommended part for the direct and I2C builds",
        "(3.3 V, either magnet pole, open-drain: it only pulls low, so it never drives a pin high);",
        "each has a 10 kΩ pull-up to 3V3 and 100 nF beside it. Reed switches work there too, each",
        "with the same pull-up (the `-reed` schematic and wiring table). A sensor on a GPIO that UART",
        "TX or SPI0 drives when enabled sits behind 1 kΩ, so neither can drive the other hard. The",
        "matrix build needs reed switches: a hall switch needs its own supply, which the matrix",
        "cannot give it.",
        "",
        "## Pebbles per variant",
        "",
        "| variants | board | pebbles per side | diagonal lines |",
        "|---|---|---|---|",
    ]
    for presets, board, n, diagonals in VARIANT_PEBBLES:
        lines.append(f"| {presets} | {board} | {n} | {'needed' if diagonals else '-'} |")
    lines += [
        "",
        "Twelve a side (24 pebbles) plays every variant of the 24-point board; Twelve Men's Morris",
        "and Morabaraba also need the four diagonal lines drawn (dashed in the board drawing).",
        "The 19-point Nau Keti Keta board needs 9 a side (18).",
    ]
    return "\n".join(lines) + "\n"


LED_FULL_WHITE_MA = 60.0  #: per WS2812B at full white (Adafruit NeoPixel Uberguide, "Powering")
LED_DARK_MA = 1.0  #: per WS2812B lit black (its controller), about
SOURCES = (
    "WS2812B: about 60 mA at full white (Adafruit NeoPixel Uberguide, \"Powering\"), about 1 mA dark;"
    " counted at the profile's brightness cap",
    "Raspberry Pi 3B+ or 4: about 1 A under load with nothing on USB (a Pi 5 more: give it its 5 A supply)",
    "DRV5032FC: 1.6 µA at 3 V, 20 Hz versions (TI SLVSDC7, features)",
    "10 kΩ pull-up to 3V3: 0.33 mA while its switch is closed (counted closed)",
    "MCP23017: 1 mA each, active, at most (about)",
)


def net_loads(circuit: Circuit) -> dict[str, dict[str, float]]:
    """Supply net -> {part kind: mA} at worst: each part's current on the net its supply pin
    sits on, each resistor from a supply net to a signal net at supply/R (its switch closed)."""
    loads: dict[str, dict[str, float]] = {net: {} for net in POWER_NETS if net != "GND"}
    for part in circuit.parts:
        nets = [circuit.net_of(f"{part.ref}.{p.number}") for p in part.pins]
        if is_resistor(part):
            supply = [n for n in nets if n in loads]
            if len(supply) == 1 and not all(n in POWER_NETS for n in nets):
                loads[supply[0]][part.kind] = (loads[supply[0]].get(part.kind, 0.0)
                                               + POWER_NETS[supply[0]] / ohms(part) * 1000)
            continue
        for pin, net in zip(part.pins, nets):
            if pin.kind == "power_in" and net in loads and part.current_ma:
                loads[net][part.kind] = loads[net].get(part.kind, 0.0) + part.current_ma
                break
    return loads


def power_markdown(builds: Sequence[Build]) -> str:
    lines = [
        "# Power budget",
        "",
        "Generated from the circuit models by `python -m navakankari.firmware.docs`; do not edit. Worst",
        "cases per supply net of each model: every LED at full white under the profile's",
        "brightness cap, every sensor closed. The Pi's 3V3 pins are its own regulator, fed from",
        "its 5 V, so the supply gives the 5V loads plus the 3V3 loads.",
        "",
        "| profile | sensors | LEDs | cap | 5V: LEDs | 5V: Pi | 3V3: sensors, pull-ups, expanders "
        "| from the 5 V supply |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, p, built in builds:
        for c in built:
            loads = net_loads(c)
            leds = loads["5V"].get("WS2812B", 0.0)
            pi = loads["5V"].get("raspberry-pi", 0.0)
            low = sum(loads["3V3"].values())
            total = sum(loads["5V"].values()) + low
            lines.append(f"| `{name}` | {c.sensor_kind} | {p.leds.count} | {p.leds.brightness:g} | {leds:.0f} mA "
                         f"| {pi:.0f} mA | {low:.2f} mA | {total / 1000:.2f} A |")
    lines += ["", "Currents used:", ""]
    lines += [f"- {s}" for s in SOURCES]
    lines += [
        "",
        "A supply of 3 A covers every shipped profile with a Pi 3B+, 4 or Zero 2 W; a Pi 5 wants",
        "its 5 A supply. The resettable fuse F1 (MF-R300) holds 3 A: a Pi 5 that powers USB devices",
        "as well can draw more, and then wants an MF-R400 (4 A hold) or MF-R500 (5 A) in its place.",
        "At cap 1.0, 24 LEDs alone could draw about 1.5 A: raise the cap only with a supply and",
        "wires sized for it.",
    ]
    return "\n".join(lines) + "\n"
