"""Pinout tables (Markdown) and wiring diagrams (SVG) generated from the wiring profiles.

    python -m navakankari.hal.docs            # rewrite wiring/docs/ from the shipped profiles
    python -m navakankari.hal.docs --check    # exit 1 if a checked-in file is out of date

Generated, never edited by hand, so the documents always say what the profiles say.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from navakankari.wiring import PROFILE_DIR

from ..profile import (
    RESERVED_GPIOS,
    GpioSensorConfig,
    MatrixSensorConfig,
    Mcp23017SensorConfig,
    Profile,
    load_profile,
    profile_names,
)
from .board import Layout, board_drawing, draw_board, grid_mm, is_buildable
from .bom import bom_markdown, power_markdown
from .schematic import schematic
from .svgdraw import Drawing

DOCS_DIR = PROFILE_DIR / "docs"

HEADER: dict[int, str | int] = {
    1: "3V3",
    2: "5V",
    3: 2,
    4: "5V",
    5: 3,
    6: "GND",
    7: 4,
    8: 14,
    9: "GND",
    10: 15,
    11: 17,
    12: 18,
    13: 27,
    14: "GND",
    15: 22,
    16: 23,
    17: "3V3",
    18: 24,
    19: 10,
    20: "GND",
    21: 9,
    22: 25,
    23: 11,
    24: 8,
    25: "GND",
    26: 7,
    27: 0,
    28: 1,
    29: 5,
    30: "GND",
    31: 6,
    32: 12,
    33: 13,
    34: "GND",
    35: 19,
    36: 16,
    37: 26,
    38: 20,
    39: "GND",
    40: 21,
}
"""The 40-pin header: physical pin -> BCM GPIO number, or the supply it carries."""


def sensor_label(profile: Profile, point: str) -> str:
    s = profile.sensors
    if isinstance(s, GpioSensorConfig):
        return f"GPIO{s.pins[point]}"
    if isinstance(s, MatrixSensorConfig):
        r, c = s.cells[point]
        return f"row {r} (GPIO{s.rows[r]}) x column {c} (GPIO{s.columns[c]})"
    if isinstance(s, Mcp23017SensorConfig):
        chip, bit = s.channels[point]
        return f"0x{s.addresses[chip]:02x} GP{'AB'[bit // 8]}{bit % 8}"
    return "simulated"


def pinout_markdown(profile: Profile, name: str) -> str:
    uses = profile.gpios()
    s, led = profile.sensors, profile.leds
    lines = [
        f"# {profile.name}",
        "",
        f"Generated from `{name}.toml` by `python -m navakankari.hal.docs`; do not edit.",
        "",
        f"- Points: {len(profile.points)}",
        f"- Sensors: `{s.backend}`" + _sensor_note(profile),
        f"- LEDs: `{led.backend}`, {led.count} on the chain, order {led.pixel_order}, "
        f"brightness cap {led.brightness:g}" + (f", data on GPIO{led.pin}" if led.pin is not None else ""),
        "",
    ]
    if is_buildable(profile):
        lines += [f"Schematic: [{name}-schematic.svg]({name}-schematic.svg); board drawing: "
                  f"[{name}-board.svg]({name}-board.svg).", ""]
    if uses:
        lines += [
            "## 40-pin header",
            "",
            "| use | GPIO | pin | pin | GPIO | use |",
            "|---|---|---|---|---|---|",
        ]
        for odd in range(1, 41, 2):
            left, right = HEADER[odd], HEADER[odd + 1]
            lines.append(
                f"| {_use(left, uses)} | {_gpio(left)} | {odd} | {odd + 1} | {_gpio(right)} | {_use(right, uses)} |"
            )
        lines.append("")
    lines += ["## Points", "", "| point | sensor | LED index |", "|---|---|---|"]
    for point in profile.points:
        lines.append(f"| {point} | {sensor_label(profile, point)} | {led.index[point]} |")
    return "\n".join(lines) + "\n"


def _sensor_note(profile: Profile) -> str:
    s = profile.sensors
    if isinstance(s, GpioSensorConfig):
        return (", each switch between its GPIO and GND (internal pull-up; add 10 kΩ to 3V3 per "
                "input for wires over about 20 cm)")
    if isinstance(s, MatrixSensorConfig):
        return (
            f", {len(s.rows)} rows x {len(s.columns)} columns scanned at {s.scan_hz:g} Hz; "
            "one BAT43 Schottky diode per switch, cathode (band) towards the row"
        )
    if isinstance(s, Mcp23017SensorConfig):
        chips = ", ".join(f"0x{a:02x}" for a in s.addresses)
        return (
            f", MCP23017 at {chips} on I2C bus {s.i2c_bus}, INT pins tied together to "
            f"GPIO{s.interrupt_pin}; each switch between its expander pin and GND; RESET to 3V3"
        )
    return ""


def _gpio(entry: str | int) -> str:
    return f"GPIO{entry}" if isinstance(entry, int) else ""


def _use(entry: str | int, uses: dict[int, str]) -> str:
    if isinstance(entry, str):
        return entry
    if entry in RESERVED_GPIOS:
        return "reserved: HAT ID EEPROM"
    return uses.get(entry, "")


_GRID = re.compile(r"([a-z])([1-9])")


def _positions(points: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Board positions: coordinate names on their grid, other names in a row."""
    cells = {p: _GRID.fullmatch(p) for p in points}
    if all(cells.values()):
        cols = sorted({m.group(1) for m in cells.values() if m})
        rows = sorted({int(m.group(2)) for m in cells.values() if m}, reverse=True)
        return {p: (cols.index(m.group(1)), rows.index(int(m.group(2)))) for p, m in cells.items() if m}
    return {p: (i % 8, i // 8) for i, p in enumerate(points)}


def wiring_drawing(profile: Profile) -> Drawing:
    """Header pins (left) and the board with each point's sensor and LED index (right)."""
    uses = profile.gpios()
    d = Drawing(980, 600, font_size=11)
    d.text(20, 28, profile.name, size=16, extra=' font-weight="bold"')
    if uses:
        d.text(250, 52, "Raspberry Pi 40-pin header", anchor="middle", extra=' font-weight="bold"')
        d.rect(232, 62, 36, 488, 'rx="4" fill="#eee" stroke="#555"')
        for pin, entry in HEADER.items():
            x = 242 if pin % 2 else 258
            y = 74 + 24 * ((pin - 1) // 2)
            used = isinstance(entry, int) and entry in uses
            fill = "#d33" if used else ("#fc3" if entry in ("5V", "3V3") else "#999")
            d.circle((x, y), 5, f'fill="{fill}"')
            label = f"GPIO{entry}" if isinstance(entry, int) else entry
            if used:
                label = f"{label}: {uses[entry]}"  # type: ignore[index]
            anchor, lx = ("end", 228) if pin % 2 else ("start", 272)
            d.text(lx, y + 4, f"{pin} {label}", anchor=anchor, extra=' font-weight="bold"' if used else "")
    d.text(740, 52, "Board: sensor (red) and LED index (blue)", anchor="middle", extra=' font-weight="bold"')
    labels = {p: _short_sensor(profile, p) for p in profile.points}
    if all(grid_mm(p) is not None for p in profile.points):
        draw_board(d, profile, Layout((560, 100), 1.5), sensor_labels=labels, detail=False)
    else:  # names that are not board coordinates: a plain list
        for i, p in enumerate(profile.points):
            d.text(560, 100 + 16 * i, f"{p}: {labels[p]}, LED {profile.leds.index[p]}")
    d.text(560, 560, "arrows: LED data chain, from LED 0 (DIN from the Pi)", extra=' fill="#1a75c2"')
    return d


def wiring_svg(profile: Profile) -> str:
    return wiring_drawing(profile).svg()


def _short_sensor(profile: Profile, point: str) -> str:
    s = profile.sensors
    if isinstance(s, GpioSensorConfig):
        return f"GPIO{s.pins[point]}"
    if isinstance(s, MatrixSensorConfig):
        r, c = s.cells[point]
        return f"R{r} C{c}"
    if isinstance(s, Mcp23017SensorConfig):
        chip, bit = s.channels[point]
        return f"{s.addresses[chip]:02x}:{'AB'[bit // 8]}{bit % 8}"
    return "sim"


def generated_files() -> dict[str, str]:
    """File name -> content: for every profile in wiring/, its pinout table and wiring diagram;
    for every buildable one (real LEDs, a 24- or 19-point board) its board drawing and
    schematic; and the bill of materials and power budget over the buildable ones."""
    files = {}
    buildable = []
    for name in profile_names():
        profile = load_profile(name)
        files[f"{name}.md"] = pinout_markdown(profile, name)
        files[f"{name}.svg"] = wiring_svg(profile)
        if is_buildable(profile):
            files[f"{name}-board.svg"] = board_drawing(profile).svg()
            files[f"{name}-schematic.svg"] = schematic(profile).svg()
            buildable.append((name, profile))
    files["bill-of-materials.md"] = bom_markdown(buildable)
    files["power-budget.md"] = power_markdown(buildable)
    return files


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m navakankari.hal.docs", description=__doc__.splitlines()[0]
    )
    parser.add_argument("out", nargs="?", type=Path, default=DOCS_DIR, help=f"folder (default {DOCS_DIR})")
    parser.add_argument("--check", action="store_true", help="report stale files instead of writing")
    args = parser.parse_args(argv)
    return write_generated(generated_files(), args.out, check=args.check)


def write_generated(files: dict[str, str], out: Path, *, check: bool) -> int:
    """Write the files that differ (or, with `check`, name them and return 1)."""
    stale = []
    for filename, content in files.items():
        path = out / filename
        current = path.read_bytes() if path.exists() else None
        if current == content.encode("utf-8"):
            continue
        stale.append(filename)
        if not check:
            out.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content.encode("utf-8"))
    for filename in stale:
        print(("stale: " if check else "wrote: ") + str(out / filename))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
