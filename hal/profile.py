"""Wiring profiles: which backend reads the sensors, which pin or channel each point uses,
which LED index each point has. Loaded from TOML and checked before any pin is touched, so a
wiring mistake is reported with the file and line instead of as a dead sensor on the board.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from navakankari.wiring import PROFILE_DIR

from .words import N_, Nn_, Phrase, Words, toml_problem, words_of

HEADER_GPIOS = range(0, 28)
"""BCM GPIOs on the 40-pin header of every Pi since the B+."""
RESERVED_GPIOS = {0: "ID_SD (HAT ID EEPROM)", 1: "ID_SC (HAT ID EEPROM)"}
I2C_GPIOS = (2, 3)
SPI0_GPIOS = (7, 8, 9, 10, 11)
SPI_LED_GPIO = 10
"""SPI0 MOSI: the LED data pin of neopixel_spi, and of neopixel when it sends through SPI."""
NEOPIXEL_GPIOS = (10, 12, 18, 21)
"""Pins the Pi's PWM, PCM or SPI hardware can drive a WS2812 chain from."""
PIXEL_ORDERS = ("RGB", "GRB", "BRG", "RBG", "GBR", "BGR")
SENSOR_BACKENDS = ("gpiozero", "matrix", "mcp23017", "sim")
LED_BACKENDS = ("neopixel", "neopixel_spi", "sim")
MCP23017_ADDRESSES = range(0x20, 0x28)

# The uses of the pins that are not a point's (the pinout tables, doctor's findings).
I2C_SDA = N_("I2C SDA")
I2C_SCL = N_("I2C SCL")
EXPANDER_INT = N_("expander INT")
LED_DATA = N_("LED data")
LED_DATA_SPI0 = N_("LED data (SPI0)")
SPI0 = N_("SPI0")


def _matrix_row(i: int) -> Phrase:
    return Phrase(N_("matrix row {index}"), index=i)


def _matrix_column(i: int) -> Phrase:
    return Phrase(N_("matrix column {index}"), index=i)


def _twice(pin: object, first: str, second: str) -> Phrase:
    return Phrase(N_("GPIO{pin} is used twice: {first} and {second}"), pin=pin, first=first,
                  second=second)


class ProfileError(ValueError):
    """A wiring profile is wrong; the message names the file, line, key and problem. The
    problem is a `Phrase`, so the firmware says it in the maker's language (`words`)."""

    def __init__(self, source: str, line: int, key: str, problem: str) -> None:
        self.source = source
        self.line = line
        self.key = key
        self.problem = problem
        super().__init__(f"{self._where()}: {key}: {problem}")

    def _where(self) -> str:
        return f"{self.source}:{self.line}" if self.line else self.source

    def words(self, tr: Words) -> str:
        """The whole error in `tr`'s language: the file and line, the key, the problem."""
        return f"{self._where()}: {self.key}: {words_of(self.problem, tr)}"


@dataclass(frozen=True)
class GpioSensorConfig:
    """One GPIO per sensor, pulled up, switch to ground: a pebble reads low."""

    backend: ClassVar[str] = "gpiozero"
    pins: Mapping[str, int]

    def gpios(self) -> dict[int, str]:
        return {pin: Phrase(N_("sensor {point}"), point=point) for point, pin in self.pins.items()}


@dataclass(frozen=True)
class MatrixSensorConfig:
    """Rows driven low one at a time, columns read with pull-ups; one diode per switch."""

    backend: ClassVar[str] = "matrix"
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    cells: Mapping[str, tuple[int, int]]
    scan_hz: float = 100.0

    def gpios(self) -> dict[int, str]:
        used: dict[int, str] = {pin: _matrix_row(i) for i, pin in enumerate(self.rows)}
        used.update({pin: _matrix_column(i) for i, pin in enumerate(self.columns)})
        return used


@dataclass(frozen=True)
class Mcp23017SensorConfig:
    """MCP23017 expanders on I2C1 with their INT outputs tied together to one GPIO."""

    backend: ClassVar[str] = "mcp23017"
    addresses: tuple[int, ...]
    interrupt_pin: int
    channels: Mapping[str, tuple[int, int]]
    i2c_bus: int = 1

    def gpios(self) -> dict[int, str]:
        return {2: Phrase(I2C_SDA), 3: Phrase(I2C_SCL), self.interrupt_pin: Phrase(EXPANDER_INT)}


@dataclass(frozen=True)
class SimSensorConfig:
    """The simulated board: no pins."""

    backend: ClassVar[str] = "sim"

    def gpios(self) -> dict[int, str]:
        return {}


SensorConfig = GpioSensorConfig | MatrixSensorConfig | Mcp23017SensorConfig | SimSensorConfig


@dataclass(frozen=True)
class LedConfig:
    """A WS2812 chain: backend, data pin, colour order, brightness cap and each point's index."""

    backend: str
    index: Mapping[str, int]
    count: int
    pin: int | None = 18
    pixel_order: str = "GRB"
    brightness: float = 0.25
    gamma: float = 2.6

    def gpios(self) -> dict[int, str]:
        if self.backend == "neopixel_spi" or (self.backend == "neopixel" and self.pin == SPI_LED_GPIO):
            return {pin: Phrase(LED_DATA_SPI0) if pin == SPI_LED_GPIO else Phrase(SPI0)
                    for pin in SPI0_GPIOS}
        if self.backend == "neopixel" and self.pin is not None:
            return {self.pin: Phrase(LED_DATA)}
        return {}


@dataclass(frozen=True)
class Profile:
    """A checked wiring profile."""

    name: str
    points: tuple[str, ...]
    sensors: SensorConfig
    leds: LedConfig
    source: str = field(default="<profile>", compare=False)

    def gpios(self) -> dict[int, str]:
        """Every GPIO the profile uses, with its use (SPI0 and I2C pins included): the
        pinout tables, the Pi's interface checks and the unit all read this one list."""
        return {**self.sensors.gpios(), **self.leds.gpios()}


def profile_names() -> list[str]:
    """The profiles shipped in `navakankari.wiring`."""
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


def profile_path(path_or_name: str | Path) -> Path:
    """A file path as given, or the shipped profile of that name."""
    path = Path(path_or_name)
    if path.suffix == ".toml" or path.exists() or len(path.parts) > 1:
        return path
    return PROFILE_DIR / f"{path_or_name}.toml"


def load_profile(path_or_name: str | Path) -> Profile:
    """Read and check a profile file, or a shipped profile by name (`direct-24`)."""
    path = profile_path(path_or_name)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        known = ", ".join(profile_names())
        raise ProfileError(str(path), 0, "file", Phrase(N_("no such profile (shipped: {known})"),
                                                        known=known)) from None
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise ProfileError(str(path), line, "file", Phrase(
            N_("is not UTF-8 text (byte 0x{byte})"), byte=f"{exc.object[exc.start]:02x}")) from None
    except OSError as exc:
        raise ProfileError(str(path), 0, "file", Phrase(N_("cannot read it: {problem}"),
                                                        problem=exc.strerror)) from None
    return parse_profile(text, source=str(path))


def parse_profile(text: str, source: str = "<profile>") -> Profile:
    """Check a profile given as TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problem, line = toml_problem(exc)
        raise ProfileError(source, line, "toml", problem) from None
    return _Checker(text, source, data).profile()


# --- checking --------------------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"""^\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_-]+))\s*=""")


def key_line(text: str, table: str, key: str | None = None) -> int:
    """The line of `key` in `[table]` (or of the table header); tomllib gives no lines."""
    current = ""
    header_line = 0
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            current = header.group(1).replace(" ", "").replace('"', "")
            if current == table:
                header_line = number
            continue
        if current != table or key is None:
            continue
        found = _KEY.match(line)
        if found and key in found.groups():
            return number
    if header_line or "." not in table:
        return header_line or 1
    parent, _, sub = table.rpartition(".")
    return key_line(text, parent, sub)


class _Checker:
    def __init__(self, text: str, source: str, data: dict[str, Any]) -> None:
        self.text = text
        self.source = source
        self.data = data
        self.claims: dict[int, str] = {}

    def fail(self, table: str, key: str | None, problem: str) -> ProfileError:
        name = f"[{table}] {key}" if key else f"[{table}]"
        return ProfileError(self.source, key_line(self.text, table, key), name, problem)

    def table(self, parent: Mapping[str, Any], path: str, *, required: bool = True) -> dict[str, Any]:
        name = path.rpartition(".")[2]
        value = parent.get(name)
        if value is None:
            if required:
                raise self.fail(
                    path.rpartition(".")[0] or path,
                    None if "." not in path else name,
                    Phrase(N_("missing table [{table}]"), table=path),
                )
            return {}
        if not isinstance(value, dict):
            raise self.fail(path.rpartition(".")[0] or path, name, Phrase(N_("must be a table")))
        return value

    def int_value(self, table: str, key: str, value: Any, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.fail(table, key, Phrase(
                N_("must be an integer within {low}..{high}, not {value}"), low=low, high=high,
                value=repr(value)))
        return value

    def gpio(self, table: str, key: str, value: Any, owner: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value not in HEADER_GPIOS:
            raise self.fail(table, key, Phrase(
                N_("GPIO {value} is not on the Pi's header (BCM 2..27)"), value=repr(value)))
        if value in RESERVED_GPIOS:
            raise self.fail(table, key, Phrase(
                N_("GPIO{pin} is reserved for {use}"), pin=value, use=RESERVED_GPIOS[value]))
        if value in self.claims:
            raise self.fail(table, key, _twice(value, self.claims[value], owner))
        self.claims[value] = owner
        return value

    def per_point(self, table: str, mapping: Mapping[str, Any], points: Sequence[str]) -> None:
        for key in mapping:
            if key not in points:
                raise self.fail(table, key, Phrase(
                    N_("unknown point {point} (not in {points})"), point=repr(key),
                    points="[board] points"))
        missing = [p for p in points if p not in mapping]
        if missing:
            raise self.fail(table, None, Phrase.counted(
                Nn_("missing point {points}", "missing points {points}"), len(missing),
                points=", ".join(missing)))

    def profile(self) -> Profile:
        board = self.table(self.data, "board")
        points = board.get("points")
        if not isinstance(points, list) or not points or not all(isinstance(p, str) for p in points):
            raise self.fail("board", "points", Phrase(
                N_("must be a non-empty list of point names")))
        seen: set[str] = set()
        for p in points:
            if p in seen:
                raise self.fail("board", "points", Phrase(N_("point {point} listed twice"),
                                                            point=repr(p)))
            if not re.fullmatch(r"[A-Za-z0-9_]+", p):
                raise self.fail("board", "points", Phrase(
                    N_("point name {point} must be letters, digits or _"), point=repr(p)))
            seen.add(p)
        name = board.get("name", Path(self.source).stem)
        if not isinstance(name, str):
            raise self.fail("board", "name", Phrase(N_("must be a string")))
        sensors = self.sensors(tuple(points))
        leds = self.leds(tuple(points))
        return Profile(name=name, points=tuple(points), sensors=sensors, leds=leds, source=self.source)

    def backend(self, table: str, section: Mapping[str, Any], allowed: Sequence[str]) -> str:
        backend = section.get("backend")
        if not isinstance(backend, str) or backend not in allowed:
            raise self.fail(table, "backend", Phrase(
                N_("unknown backend {value} (one of {choices})"), value=repr(backend),
                choices=", ".join(allowed)))
        return backend

    def sensors(self, points: tuple[str, ...]) -> SensorConfig:
        section = self.table(self.data, "sensors")
        backend = self.backend("sensors", section, SENSOR_BACKENDS)
        if backend == "sim":
            return SimSensorConfig()
        if backend == "gpiozero":
            pins = self.table(section, "sensors.pins")
            self.per_point("sensors.pins", pins, points)
            return GpioSensorConfig(
                pins={p: self.gpio("sensors.pins", p, pins[p], Phrase(N_("sensor {point}"), point=p))
                      for p in points}
            )
        if backend == "matrix":
            return self.matrix(section, points)
        return self.mcp23017(section, points)

    def pin_list(self, section: Mapping[str, Any], key: str,
                 owner: Callable[[int], Phrase]) -> tuple[int, ...]:
        value = section.get(key)
        if not isinstance(value, list) or not value:
            raise self.fail("sensors", key, Phrase(
                N_("must be a non-empty list of GPIO numbers")))
        return tuple(self.gpio("sensors", key, pin, owner(i)) for i, pin in enumerate(value))

    def matrix(self, section: Mapping[str, Any], points: tuple[str, ...]) -> MatrixSensorConfig:
        rows = self.pin_list(section, "rows", _matrix_row)
        columns = self.pin_list(section, "columns", _matrix_column)
        scan_hz = section.get("scan_hz", 100)
        if not isinstance(scan_hz, (int, float)) or isinstance(scan_hz, bool) or not 1 <= scan_hz <= 1000:
            raise self.fail("sensors", "scan_hz", Phrase(
                N_("must be a number within {low}..{high}, not {value}"), low=1, high=1000,
                value=repr(scan_hz)))
        cells = self.table(section, "sensors.cells")
        self.per_point("sensors.cells", cells, points)
        taken: dict[tuple[int, int], str] = {}
        checked: dict[str, tuple[int, int]] = {}
        for p in points:
            cell = cells[p]
            if not (isinstance(cell, list) and len(cell) == 2):
                raise self.fail("sensors.cells", p, Phrase(N_("must be [row, column]")))
            r = self.int_value("sensors.cells", p, cell[0], 0, len(rows) - 1)
            c = self.int_value("sensors.cells", p, cell[1], 0, len(columns) - 1)
            if (r, c) in taken:
                raise self.fail("sensors.cells", p, Phrase(
                    N_("cell [{row}, {column}] is used twice: {first} and {second}"), row=r,
                    column=c, first=taken[(r, c)], second=p))
            taken[(r, c)] = p
            checked[p] = (r, c)
        return MatrixSensorConfig(rows=rows, columns=columns, cells=checked, scan_hz=float(scan_hz))

    def mcp23017(self, section: Mapping[str, Any], points: tuple[str, ...]) -> Mcp23017SensorConfig:
        addresses = section.get("addresses", [0x20, 0x21])
        if not isinstance(addresses, list) or not addresses:
            raise self.fail("sensors", "addresses", Phrase(
                N_("must be a non-empty list of I2C addresses")))
        for a in addresses:
            self.int_value("sensors", "addresses", a, MCP23017_ADDRESSES.start, MCP23017_ADDRESSES.stop - 1)
        if len(set(addresses)) != len(addresses):
            raise self.fail("sensors", "addresses", Phrase(N_("an I2C address is used twice")))
        bus = self.int_value("sensors", "i2c_bus", section.get("i2c_bus", 1), 0, 10)
        for pin, owner in zip(I2C_GPIOS, (I2C_SDA, I2C_SCL)):
            self.claims[pin] = Phrase(owner)
        interrupt = self.gpio("sensors", "interrupt_pin", section.get("interrupt_pin"),
                              Phrase(EXPANDER_INT))
        channels = self.table(section, "sensors.channels")
        self.per_point("sensors.channels", channels, points)
        taken: dict[tuple[int, int], str] = {}
        checked: dict[str, tuple[int, int]] = {}
        for p in points:
            ch = channels[p]
            if not (isinstance(ch, list) and len(ch) == 2):
                raise self.fail(
                    "sensors.channels", p, Phrase(
                        N_("must be [chip, pin] (chip: index in addresses, pin 0..15)"))
                )
            chip = self.int_value("sensors.channels", p, ch[0], 0, len(addresses) - 1)
            bit = self.int_value("sensors.channels", p, ch[1], 0, 15)
            if (chip, bit) in taken:
                raise self.fail(
                    "sensors.channels",
                    p,
                    Phrase(N_("channel [{chip}, {pin}] is used twice: {first} and {second}"),
                           chip=chip, pin=bit, first=taken[(chip, bit)], second=p),
                )
            taken[(chip, bit)] = p
            checked[p] = (chip, bit)
        return Mcp23017SensorConfig(tuple(addresses), interrupt, checked, bus)

    def leds(self, points: tuple[str, ...]) -> LedConfig:
        section = self.table(self.data, "leds")
        backend = self.backend("leds", section, LED_BACKENDS)
        order = section.get("pixel_order", "GRB")
        if order not in PIXEL_ORDERS:
            raise self.fail(
                "leds", "pixel_order", Phrase(N_("unknown pixel order {value} (one of {choices})"),
                                              value=repr(order), choices=", ".join(PIXEL_ORDERS))
            )
        brightness = section.get("brightness", 0.25)
        if (
            not isinstance(brightness, (int, float))
            or isinstance(brightness, bool)
            or not 0 <= brightness <= 1
        ):
            raise self.fail("leds", "brightness", Phrase(
                N_("must be a number within {low}..{high}, not {value}"), low=0, high=1,
                value=repr(brightness)))
        gamma = section.get("gamma", 2.6)
        if not isinstance(gamma, (int, float)) or isinstance(gamma, bool) or not 1 <= gamma <= 4:
            raise self.fail("leds", "gamma", Phrase(
                N_("must be a number within {low}..{high}, not {value}"), low=1, high=4,
                value=repr(gamma)))
        count = self.int_value("leds", "count", section.get("count", len(points)), 1, 1024)
        pin: int | None = None
        if backend == "neopixel" and section.get("pin", 18) != SPI_LED_GPIO:
            pin = self.led_pin(section.get("pin", 18), NEOPIXEL_GPIOS, Phrase(LED_DATA))
        elif backend in ("neopixel", "neopixel_spi"):
            # On GPIO10 rpi_ws281x sends through /dev/spidev0.0 too: the SPI0 driver holds all
            # of its pins (CE1, CE0, MISO, MOSI, SCLK), so no sensor may sit on them.
            pin = section.get("pin", SPI_LED_GPIO)
            if pin != SPI_LED_GPIO:
                raise self.fail("leds", "pin", Phrase(
                    N_("neopixel_spi sends on SPI0 MOSI, GPIO10, not {value}"), value=repr(pin)))
            for spi_pin in SPI0_GPIOS:
                self.led_pin(spi_pin, SPI0_GPIOS,
                             Phrase(LED_DATA_SPI0 if spi_pin == SPI_LED_GPIO else SPI0))
        index = self.table(section, "leds.index")
        self.per_point("leds.index", index, points)
        used: dict[int, str] = {}
        for p in points:
            i = index[p]
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < count:
                raise self.fail(
                    "leds.index", p, Phrase(
                        N_("LED index {value} out of range 0..{last} (count = {count})"),
                        value=repr(i), last=count - 1, count=count)
                )
            if i in used:
                raise self.fail("leds.index", p, Phrase(
                    N_("LED index {index} is used twice: {first} and {second}"), index=i,
                    first=used[i], second=p))
            used[i] = p
        return LedConfig(
            backend=backend,
            index={p: index[p] for p in points},
            count=count,
            pin=pin,
            pixel_order=order,
            brightness=float(brightness),
            gamma=float(gamma),
        )

    def led_pin(self, pin: Any, allowed: Sequence[int], owner: Phrase) -> int:
        if pin in self.claims:
            raise self.fail("leds", "pin", _twice(pin, self.claims[pin], owner))
        checked = self.gpio("leds", "pin", pin, owner)
        if checked not in allowed:
            raise self.fail("leds", "pin", Phrase(
                N_("GPIO{pin} cannot drive WS2812 LEDs (use one of {choices})"), pin=pin,
                choices=", ".join(map(str, allowed))))
        return checked


# --- writing ---------------------------------------------------------------------------------


def _toml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dump_profile(profile: Profile) -> str:
    """The profile as TOML that `parse_profile` reads back to an equal profile."""
    out = ["[board]", f"name = {_toml_str(profile.name)}", "points = ["]
    for start in range(0, len(profile.points), 8):
        out.append("    " + " ".join(f"{_toml_str(p)}," for p in profile.points[start : start + 8]))
    out += ["]", "", "[sensors]", f"backend = {_toml_str(profile.sensors.backend)}"]
    s = profile.sensors
    if isinstance(s, GpioSensorConfig):
        out += ["", "[sensors.pins]"] + [f"{p} = {s.pins[p]}" for p in profile.points]
    elif isinstance(s, MatrixSensorConfig):
        out += [f"rows = {list(s.rows)}", f"columns = {list(s.columns)}", f"scan_hz = {s.scan_hz:g}"]
        out += ["", "[sensors.cells]"] + [f"{p} = {list(s.cells[p])}" for p in profile.points]
    elif isinstance(s, Mcp23017SensorConfig):
        out += ["addresses = [" + ", ".join(f"0x{a:02x}" for a in s.addresses) + "]"]
        out += [f"i2c_bus = {s.i2c_bus}", f"interrupt_pin = {s.interrupt_pin}"]
        out += ["", "[sensors.channels]"] + [f"{p} = {list(s.channels[p])}" for p in profile.points]
    led = profile.leds
    out += ["", "[leds]", f"backend = {_toml_str(led.backend)}"]
    if led.pin is not None:
        out += [f"pin = {led.pin}"]
    out += [
        f"pixel_order = {_toml_str(led.pixel_order)}",
        f"brightness = {led.brightness:g}",
        f"gamma = {led.gamma:g}",
        f"count = {led.count}",
        "",
        "[leds.index]",
    ]
    out += [f"{p} = {led.index[p]}" for p in profile.points]
    return "\n".join(out) + "\n"
