"""The bill of materials and the power budget, computed from the buildable profiles.

Quantities come from each profile (points, LEDs on the chain, expanders, matrix lines).
Prices are rough single-unit euro figures for hobby quantities (late 2026), to plan a budget,
not quotes. Part facts and where they were read are in wiring/build-guide.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..profile import GpioSensorConfig, MatrixSensorConfig, Mcp23017SensorConfig, Profile
from .board import MAGNET_D, MAGNET_H, PEBBLE_D, PEBBLE_H

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


def _is_matrix(p: Profile) -> bool:
    return isinstance(p.sensors, MatrixSensorConfig)


def _hall_ok(p: Profile) -> int:
    return 0 if _is_matrix(p) else len(p.points)


def _pullups(p: Profile) -> int:
    s = p.sensors
    return len(s.columns) if isinstance(s, MatrixSensorConfig) else len(p.points)


def _expanders(p: Profile) -> int:
    s = p.sensors
    return len(s.addresses) if isinstance(s, Mcp23017SensorConfig) else 0


@dataclass(frozen=True)
class Part:
    name: str
    number: str  #: a part number or what to ask for
    price: float  #: euro each, rough
    qty: Callable[[Profile], int]
    note: str = ""
    instead: Callable[[Profile], int] | None = None
    """How many a build would use in place of another part (shown in brackets, not totalled)."""


PARTS: tuple[Part, ...] = (
    Part("WS2812B LED on a round carrier board", "Worldsemi WS2812B-5050, 10 mm round breakout",
         0.30, lambda p: p.leds.count, "DIN/DOUT chained"),
    Part("hall switch (recommended)", "TI DRV5032FALPG (TO-92, omnipolar, push-pull, 20 Hz)",
         0.70, _hall_ok, "3.3 V; not with the matrix"),
    Part("reed switch (alternative)", "Littelfuse MACD-14 (14 x 2.28 mm glass, 10-30 AT)",
         0.90, lambda p: len(p.points) if _is_matrix(p) else 0,
         "the matrix needs reeds; elsewhere (n) may replace the hall switches",
         instead=lambda p: 0 if _is_matrix(p) else len(p.points)),
    Part("Schottky diode", "BAT43 (DO-35)", 0.05,
         lambda p: len(p.points) if _is_matrix(p) else 0, "one per switch, band to the row"),
    Part("pull-up resistor 10 kΩ", "1/4 W metal film", 0.02, _pullups, "to 3V3, for long wires"),
    Part("I/O expander", "Microchip MCP23017-E/SP (DIP-28)", 1.60, _expanders),
    Part("level shifter", "TI SN74AHCT125N (DIP-14)", 0.50, lambda p: 1, "all four OE to GND"),
    Part("capacitor 100 nF", "ceramic, 50 V", 0.05, lambda p: 1 + _expanders(p), "at each IC's supply"),
    Part("capacitor 1000 µF", "electrolytic, 10 V or more", 0.30, lambda p: 1, "across 5 V at LED 0"),
    Part("resistor 330 Ω", "1/4 W (300-500 Ω)", 0.02, lambda p: 1, "in the LED data line"),
    Part("magnet", f"NdFeB N35 disc {MAGNET_D:g} x {MAGNET_H:g} mm, axially magnetised", 0.10,
         lambda p: 2 * pebbles_per_side(p), "one per pebble, same pole down"),
    Part("pebble", f"wood or resin disc {PEBBLE_D:g} x {PEBBLE_H:g} mm, two colours", 0.30,
         lambda p: 2 * pebbles_per_side(p), "half of each colour"),
    Part("top plate", "birch plywood or hardwood 300 x 300 x 12 mm", 15.00, lambda p: 1),
    Part("wire and connectors", "0.5 mm² for LED 5 V/GND, 0.14 mm² hook-up, 2x20 socket or proto HAT",
         10.00, lambda p: 1),
    Part("5 V supply", "5.1 V 3 A USB-C (Raspberry Pi 15 W; Pi 5: 27 W, 5 A)", 10.00, lambda p: 1),
)
"""Besides these: a Raspberry Pi 3B+, 4, Zero 2 W or 5 and a microSD card (not in the totals)."""


def bom_markdown(profiles: Sequence[tuple[str, Profile]]) -> str:
    names = [n for n, _ in profiles]
    head = "| part | part number / what to ask for | € each | " + " | ".join(f"`{n}`" for n in names) + " | note |"
    lines = [
        "# Bill of materials",
        "",
        "Generated from the profiles by `python -m navakankari.hal.docs`; do not edit. Quantities",
        "per build (one column per profile); prices are rough single-unit euro figures for hobby",
        "quantities, to plan a budget, not quotes. Not counted: the Raspberry Pi (3B+, 4, Zero 2 W",
        "or 5) and its microSD card.",
        "",
        head,
        "|---|---|---|" + "---|" * len(names) + "---|",
    ]
    totals = [0.0] * len(names)
    for part in PARTS:
        qty = [part.qty(p) for _, p in profiles]
        instead = [part.instead(p) if part.instead else 0 for _, p in profiles]
        if not any(qty) and not any(instead):
            continue
        for i, q in enumerate(qty):
            totals[i] += q * part.price
        cells = [str(q) if q else f"({alt})" if alt else "-" for q, alt in zip(qty, instead)]
        lines.append(f"| {part.name} | {part.number} | {part.price:.2f} | " + " | ".join(cells)
                     + f" | {part.note} |")
    lines.append("| **total** | | | " + " | ".join(f"**{t:.0f} €**" for t in totals) + " | |")
    lines += [
        "",
        "Sensors: the DRV5032FA hall switch is the recommended part for the direct and I2C builds",
        "(3.3 V, either magnet pole, no pull-up needed); reed switches work there too (swap the",
        "rows). The matrix build needs reed switches: a hall switch needs its own supply, which the",
        "matrix cannot give it.",
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
PI_MA = 1000.0  #: a Pi 3B+ or 4 under load, about, with nothing on USB
SENSOR_MA: dict[str, tuple[float, str]] = {
    "DRV5032FA": (0.0016, "1.6 µA at 3 V, 20 Hz versions (TI SLVSDC7)"),
    "reed, 10 kΩ pull-up": (0.33, "3.3 V / 10 kΩ while closed"),
    "reed, the Pi's pull-up": (0.066, "3.3 V / about 50 kΩ while closed"),
    "A3144 (not recommended)": (9.0, "4-9 mA each at 5 V, always"),
}
MCP23017_MA = 1.0  #: each, active, at most


def power_markdown(profiles: Sequence[tuple[str, Profile]]) -> str:
    lines = [
        "# Power budget",
        "",
        "Generated from the profiles by `python -m navakankari.hal.docs`; do not edit. Worst cases",
        f"at 5 V: every LED at full white under the profile's brightness cap (a WS2812B draws about "
        f"{LED_FULL_WHITE_MA:g} mA at full white, about {LED_DARK_MA:g} mA dark), every sensor closed.",
        "",
        "| profile | LEDs | cap | LEDs, worst | sensors: " + " | ".join(SENSOR_MA) + " | expanders | with a Pi 4 (about 1 A) |",
        "|---|---|---|---|" + "---|" * len(SENSOR_MA) + "---|---|",
    ]
    for name, p in profiles:
        n = p.leds.count
        leds = n * (LED_FULL_WHITE_MA * p.leds.brightness + LED_DARK_MA)
        sensors = []
        for kind, (ma, _) in SENSOR_MA.items():
            usable = not (_is_matrix(p) and not kind.startswith("reed"))
            sensors.append(f"{len(p.points) * ma:.2f} mA" if usable else "-")
        worst_sensor = max(len(p.points) * ma for kind, (ma, _) in SENSOR_MA.items()
                           if not (_is_matrix(p) and not kind.startswith("reed")))
        expanders = _expanders(p) * MCP23017_MA
        total = leds + worst_sensor + expanders + PI_MA
        lines.append(f"| `{name}` | {n} | {p.leds.brightness:g} | {leds:.0f} mA | " + " | ".join(sensors)
                     + f" | {expanders:.0f} mA | {total / 1000:.2f} A |")
    lines += [
        "",
        "The last column adds the worst sensor option the build allows. Sensor currents:",
        "",
    ]
    for kind, (_, source) in SENSOR_MA.items():
        lines.append(f"- {kind}: {source}")
    lines += [
        "",
        "A supply of 3 A covers every shipped profile with a Pi 3B+, 4 or Zero 2 W; a Pi 5 wants",
        "its 5 A supply. At cap 1.0, 24 LEDs alone could draw about 1.5 A: raise the cap only with",
        "a supply and wires sized for it.",
    ]
    return "\n".join(lines) + "\n"
