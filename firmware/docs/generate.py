"""Pinout tables (Markdown), wiring diagrams (SVG), and for every buildable profile its
circuit model written out as a wiring table (its KiCad schematic: `firmware/docs/kicad/`).

    python -m navakankari.firmware.docs            # rewrite wiring/docs/ and wiring/*-wiring.csv
    python -m navakankari.firmware.docs --check    # exit 1 if a checked-in file is out of date

Generated, never edited by hand, so the documents always say what the profiles say. A circuit
that fails the electrical rules check is not written: generation stops with its faults.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from navakankari.wiring import PROFILE_DIR

from navakankari.hal.profile import (
    RESERVED_GPIOS,
    GpioSensorConfig,
    MatrixSensorConfig,
    Mcp23017SensorConfig,
    Profile,
    load_profile,
    profile_names,
)
from .plate import Layout, board_drawing, draw_board, grid_mm, is_buildable
from .bom import bom_markdown, power_markdown
from .circuit import HEADER, Circuit, circuits, signal_gpios
from .erc import check as erc_check
from .netlist import wiring_csv
from .svgdraw import Drawing

DOCS_DIR = PROFILE_DIR / "docs"
WIRING_DIR = PROFILE_DIR
"""The generator writes under this folder: docs/ and the wiring tables beside the profiles."""


class ElectricalError(RuntimeError):
    """A profile's circuit breaks an electrical rule; its documents must not be written."""


def power_uses(circuit: Circuit | None) -> dict[int, str]:
    """Header pin -> what its supply pin is wired to in the model (5V, 3V3 and GND pins)."""
    if circuit is None:
        return {}
    what = {"DRV5032FC": "sensors", "R10k": "pull-ups", "MCP23017": "expanders", "WS2812B": "LEDs",
            "74AHCT125": "level shifter", "supply-5v": "the 5 V supply"}
    uses = {}
    for pin in circuit.part("PI").pins:
        net = circuit.net_of(f"PI.{pin.number}")
        if pin.name not in ("3V3", "5V", "GND") or net is None:
            continue
        kinds = []
        for node in circuit.net(net).nodes:
            kind = circuit.pin_of(node)[0].kind
            if kind in what and what[kind] not in kinds:
                kinds.append(what[kind])
        if "sensors" in kinds and "pull-ups" in kinds:  # the sensors' own pull-ups
            kinds.remove("pull-ups")
        if pin.name == "5V":
            uses[int(pin.number)] = "5V in: supply via F1, Q1"
        elif pin.name == "3V3":
            uses[int(pin.number)] = "3V3 out: " + ", ".join(kinds)
        else:
            uses[int(pin.number)] = "GND: common ground"
    return uses




def held_only(profile: Profile) -> set[int]:
    """GPIOs the profile's drivers hold but no wire goes to (SPI0's CE0/CE1/MISO/SCLK when the
    LEDs use only its MOSI): left unconnected, and drawn so."""
    return set(profile.gpios()) - signal_gpios(profile) if profile.leds.backend != "sim" else set()


HELD_NOTE = " (held, no wire)"


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


def pinout_markdown(profile: Profile, name: str, circuit: Circuit | None = None) -> str:
    held = held_only(profile)
    uses: dict[int | str, str] = {gpio: use + (HELD_NOTE if gpio in held else "")
                                  for gpio, use in profile.gpios().items()}
    uses.update({f"pin{k}": v for k, v in power_uses(circuit).items()})
    s, led = profile.sensors, profile.leds
    lines = [
        f"# {profile.name}",
        "",
        f"Generated from `{name}.toml` by `python -m navakankari.firmware.docs`; do not edit.",
        "",
        f"- Points: {len(profile.points)}",
        f"- Sensors: `{s.backend}`" + _sensor_note(profile),
        f"- LEDs: `{led.backend}`, {led.count} on the chain, order {led.pixel_order}, "
        f"brightness cap {led.brightness:g}" + (f", data on GPIO{led.pin}" if led.pin is not None else ""),
        "",
    ]
    if is_buildable(profile):
        kicad = f"../kicad/{name}/{name}"
        lines += [f"Schematic (KiCad): [PDF]({kicad}.pdf), [SVG]({kicad}.svg), project folder "
                  f"[../kicad/{name}/](../kicad/{name}/), netlist [{name}.net]({kicad}.net); board drawing: "
                  f"[{name}-board.svg]({name}-board.svg); wiring table: "
                  f"[../{name}-wiring.csv](../{name}-wiring.csv).", ""]
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
                f"| {_use(left, uses, odd)} | {_gpio(left)} | {odd} | {odd + 1} | {_gpio(right)} "
                f"| {_use(right, uses, odd + 1)} |"
            )
        lines.append("")
    lines += ["## Points", "", "| point | sensor | LED index |", "|---|---|---|"]
    for point in profile.points:
        lines.append(f"| {point} | {sensor_label(profile, point)} | {led.index[point]} |")
    return "\n".join(lines) + "\n"


def _sensor_note(profile: Profile) -> str:
    s = profile.sensors
    if isinstance(s, GpioSensorConfig):
        return (", one per GPIO: a DRV5032FC hall switch (VCC to 3V3 with 100 nF beside it, OUT to the "
                "GPIO; open-drain, 10 kΩ pull-up to 3V3), or a reed switch from the GPIO to GND with the same "
                "pull-up (the `-reed` schematic and wiring table); on a GPIO that UART TX or SPI0 drives when "
                "enabled, 1 kΩ in series between the sensor and the GPIO")
    if isinstance(s, MatrixSensorConfig):
        return (
            f", {len(s.rows)} rows x {len(s.columns)} columns scanned at {s.scan_hz:g} Hz; "
            "one reed switch and one BAT43 Schottky diode per point, cathode (band) towards the row; "
            "10 kΩ from each column to 3V3"
        )
    if isinstance(s, Mcp23017SensorConfig):
        chips = ", ".join(f"0x{a:02x}" for a in s.addresses)
        return (
            f", MCP23017 at {chips} on I2C bus {s.i2c_bus} powered from 3V3, INTA pins tied together to "
            f"GPIO{s.interrupt_pin} with a 10 kΩ pull-up to 3V3; RESET to 3V3; GPA7/GPB7 unused (output-only); "
            "a DRV5032FC with a 10 kΩ pull-up and 100 nF on each expander pin (or a reed switch to GND "
            "with 10 kΩ to 3V3)"
        )
    return ""


def _gpio(entry: str | int) -> str:
    return f"GPIO{entry}" if isinstance(entry, int) else ""


def _use(entry: str | int, uses: dict[int | str, str], pin: int) -> str:
    if isinstance(entry, str):
        return uses.get(f"pin{pin}", entry)
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


SUPPLY_COLOURS = {"5V": "#c22", "3V3": "#d27d00", "GND": "#222"}


def wiring_drawing(profile: Profile, circuit: Circuit | None = None) -> Drawing:
    """Header pins (left) and the board with each point's sensor and LED index (right); the
    supply pins say what the circuit model wires to them."""
    uses = profile.gpios()
    supplies = power_uses(circuit)
    d = Drawing(980, 600, font_size=11)
    d.text(20, 28, profile.name, size=16, extra=' font-weight="bold"')
    if uses:
        d.text(250, 52, "Raspberry Pi 40-pin header", anchor="middle", extra=' font-weight="bold"')
        d.rect(232, 62, 36, 488, 'rx="4" fill="#eee" stroke="#555"')
        held = held_only(profile)
        for pin, entry in HEADER.items():
            x = 242 if pin % 2 else 258
            y = 74 + 24 * ((pin - 1) // 2)
            used = isinstance(entry, int) and entry in uses
            if used and entry in held:  # the driver holds it, no wire: an open blue ring
                d.circle((x, y), 5, 'fill="#fff" stroke="#1a75c2" stroke-width="1.5"')
            else:
                fill = "#1a75c2" if used else SUPPLY_COLOURS.get(str(entry), "#ccc")
                d.circle((x, y), 5, f'fill="{fill}"')
            label = f"GPIO{entry}" if isinstance(entry, int) else entry
            if used:
                label = f"{label}: {uses[entry]}"  # type: ignore[index]
                if entry in held:
                    label += ", no wire"
                    used = False
            elif pin in supplies:
                label = supplies[pin]
                used = True
            anchor, lx = ("end", 228) if pin % 2 else ("start", 272)
            d.text(lx, y + 4, f"{pin} {label}", anchor=anchor, extra=' font-weight="bold"' if used else "")
    d.text(740, 52, "Board: sensor (red) and LED index (blue)", anchor="middle", extra=' font-weight="bold"')
    labels = {p: _short_sensor(profile, p) for p in profile.points}
    if all(grid_mm(p) is not None for p in profile.points):
        draw_board(d, profile, Layout((560, 100), 1.5), sensor_labels=labels, detail=False)
    else:  # names that are not board coordinates: a plain list
        for i, p in enumerate(profile.points):
            d.text(560, 100 + 16 * i, f"{p}: {labels[p]}, LED {profile.leds.index[p]}")
    d.text(560, 556, "arrows: LED data chain, from LED 0", extra=' fill="#1a75c2"')
    d.text(560, 572, "(LED 0's DIN: Pi -> 74AHCT125 -> 330 Ω)", extra=' fill="#1a75c2"')
    return d


def wiring_svg(profile: Profile, circuit: Circuit | None = None) -> str:
    return wiring_drawing(profile, circuit).svg()


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


def checked_circuits(profile: Profile, name: str) -> tuple[Circuit, ...]:
    """The profile's circuit models (recommended sensors first), each passing the electrical
    rules check; raises ElectricalError naming every fault otherwise."""
    built = circuits(profile, name)
    faults = [f"{name} ({c.sensor_kind} sensors): {v}" for c in built for v in erc_check(c, profile)]
    if faults:
        raise ElectricalError("\n".join(faults))
    return built


def circuit_files(name: str, built: tuple[Circuit, ...]) -> dict[str, str]:
    """The wiring table of each sensor build: the recommended one plainly named, the
    alternative with its sensor kind in the name. (Their schematics and netlists are KiCad's,
    in wiring/kicad/: `python -m navakankari.firmware.docs.kicad`.)"""
    return {f"{kicad_stem(name, i, c)}-wiring.csv": wiring_csv(c) for i, c in enumerate(built)}


def kicad_stem(name: str, index: int, circuit: Circuit) -> str:
    """A sensor build's name: the profile's for the recommended one, with the sensor kind after
    it for the alternative."""
    return name if index == 0 else f"{name}-{circuit.sensor_kind}"


def generated_files() -> dict[str, str]:
    """Path under wiring/ -> content: for every profile, its pinout table and wiring diagram
    in docs/; for every buildable one (real LEDs, a 24- or 19-point board) its board drawing,
    and from its circuit models the wiring tables (beside the profile); and the bill of
    materials and power budget over the buildable ones."""
    files = {}
    buildable = []
    for name in profile_names():
        profile = load_profile(name)
        built = checked_circuits(profile, name) if is_buildable(profile) else ()
        first = built[0] if built else None
        files[f"docs/{name}.md"] = pinout_markdown(profile, name, first)
        files[f"docs/{name}.svg"] = wiring_svg(profile, first)
        if built:
            files[f"docs/{name}-board.svg"] = board_drawing(profile).svg()
            files.update(circuit_files(name, built))
            buildable.append((name, profile, built))
    files["docs/bill-of-materials.md"] = bom_markdown(buildable)
    files["docs/power-budget.md"] = power_markdown(buildable)
    return files


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m navakankari.firmware.docs", description=__doc__.splitlines()[0]
    )
    parser.add_argument("out", nargs="?", type=Path, default=WIRING_DIR,
                        help=f"folder for docs/ and the wiring tables (default {WIRING_DIR})")
    parser.add_argument("--check", action="store_true", help="report stale files instead of writing")
    args = parser.parse_args(argv)
    return write_generated(generated_files(), args.out, check=args.check)


def write_generated(files: Mapping[str, str | bytes], out: Path, *, check: bool) -> int:
    """Write the files that differ (or, with `check`, name them and return 1)."""
    stale = []
    for filename, content in files.items():
        path = out / filename
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        current = path.read_bytes() if path.exists() else None
        if current == data:
            continue
        stale.append(filename)
        if not check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    for filename in stale:
        print(("stale: " if check else "wrote: ") + str(out / filename))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
