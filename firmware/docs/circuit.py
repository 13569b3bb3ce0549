"""The electrical model of a buildable profile: every part, every pin, and the net each pin
sits on. The schematic, the wiring table, the KiCad netlist, the bill of materials and the
power budget are all read from this one model, and `erc.check` judges it, so a drawing cannot
connect what the model does not.

Own model rather than SKiDL: a few frozen dataclasses hold all we need (pins with a kind and a
voltage limit, nets as sets of pins), need no KiCad symbol libraries, and stay easy to copy and
break on purpose in the tests. Pin numbers and limits are the data sheets' (wiring/electrical.md
names each source).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from navakankari.hal.profile import GpioSensorConfig, MatrixSensorConfig, Mcp23017SensorConfig, Profile

PinKind = Literal["power_out", "power_in", "ground", "input", "output", "open_collector", "bidir",
                  "passive", "nc"]
"""power_out: a supply (the 5 V supply, the Pi's 3V3 regulator); power_in: a part's supply pin;
input: must not float; output: drives its part's supply level; open_collector: only sinks;
bidir: a GPIO with its own pull (never floats); passive: resistor, capacitor, diode, switch."""

POWER_NETS: dict[str, float] = {"5V": 5.0, "3V3": 3.3, "GND": 0.0}
"""The three power nets and their voltage."""

PI_GPIO_MAX_V = 3.3
"""The Pi's GPIOs are 3.3 V pins, not 5 V tolerant (wiring/electrical.md)."""

SensorKind = Literal["hall", "reed"]


@dataclass(frozen=True)
class Pin:
    """One pin of a part. `domain` is the supply a power pin belongs to (power_out, and the
    Pi's own 5V pins); `vmax` the most a signal pin may see; `vih` the lowest high level it
    reads (a fraction of its part's supply when `vih_ratio`)."""

    number: str
    name: str
    kind: PinKind
    domain: str | None = None
    vmax: float | None = None
    vih: float | None = None
    vih_ratio: bool = False
    pull_up: bool = False
    """A pull-up on the part itself, always there (the Pi's 1.8 kΩ on GPIO2/3)."""


@dataclass(frozen=True)
class Part:
    """A component: reference, what it is (`kind`, the BOM key), value, pins, the supply range
    of its power_in pins, and the worst-case current it draws from its supply pin."""

    ref: str
    kind: str
    value: str
    pins: tuple[Pin, ...]
    supply: tuple[float, float] | None = None
    current_ma: float = 0.0
    footprint: str = ""
    description: str = ""
    io_level: float | None = None
    """The high level its outputs drive when it is not its supply (the Pi: fed 5 V, 3.3 V GPIOs)."""
    maker: str = ""
    mpn: str = ""
    """The manufacturer and its part number, where the part is one maker's (the data sheet the
    documents cite); empty for parts any maker's will do (resistors, capacitors, headers)."""

    def pin(self, key: str) -> Pin:
        """A pin by number or name."""
        for p in self.pins:
            if key in (p.number, p.name):
                return p
        raise KeyError(f"{self.ref} has no pin {key!r}")

    def node(self, key: str) -> str:
        return f"{self.ref}.{self.pin(key).number}"


@dataclass(frozen=True)
class Net:
    """A net: a name and its nodes, each `REF.PIN` (pin number)."""

    name: str
    nodes: tuple[str, ...]
    wires: tuple[tuple[str, str], ...] = ()
    """How to wire it (a tree over the nodes); empty: daisy-chained in node order."""


@dataclass(frozen=True)
class Circuit:
    """One buildable profile's electrical model."""

    name: str
    title: str
    sensor_kind: SensorKind
    parts: tuple[Part, ...]
    nets: tuple[Net, ...]
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Part references by drawing group (power, leds, sensors, expanders), in drawing order."""

    def part(self, ref: str) -> Part:
        for p in self.parts:
            if p.ref == ref:
                return p
        raise KeyError(f"no part {ref!r}")

    def net(self, name: str) -> Net:
        for n in self.nets:
            if n.name == name:
                return n
        raise KeyError(f"no net {name!r}")

    def net_of(self, node: str) -> str | None:
        """The net a node sits on (the first, if a faulty model puts it on two)."""
        for n in self.nets:
            if node in n.nodes:
                return n.name
        return None

    def pin_of(self, node: str) -> tuple[Part, Pin]:
        ref, _, number = node.partition(".")
        part = self.part(ref)
        return part, part.pin(number)

    def with_nets(self, nets: Iterable[Net]) -> Circuit:
        return replace(self, nets=tuple(nets))

    def with_parts(self, parts: Iterable[Part]) -> Circuit:
        return replace(self, parts=tuple(parts))


# --- parts ----------------------------------------------------------------------------------

HEADER: dict[int, str | int] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}
"""The 40-pin header: physical pin -> BCM GPIO number, or the supply it carries."""

HEADER_PIN = {gpio: pin for pin, gpio in HEADER.items() if isinstance(gpio, int)}
"""BCM GPIO -> physical header pin."""

PI_FUNCTIONS: dict[int, tuple[str, bool]] = {
    2: ("I2C1 SDA", False), 3: ("I2C1 SCL", False), 4: ("1-Wire", False), 7: ("SPI0 CE1", True),
    8: ("SPI0 CE0", True), 10: ("SPI0 MOSI", True), 11: ("SPI0 SCLK", True), 14: ("UART TX", True),
}
"""GPIOs a Pi function drives once enabled (the interfaces the Pi's configuration tool turns on):
the function and whether it drives both levels (push-pull) or only sinks (I2C and 1-Wire,
open-drain). A
sensor on one of them must not be able to drive against it (a series resistor, or an
open-drain output where the function is open-drain too)."""

PI_PULLED_UP = (2, 3)
"""GPIO2/3 carry 1.8 kΩ pull-ups to 3V3 on every Pi board (for I2C1)."""

PI_GND_PINS = (6, 9, 14)
"""The GND pins the supply's return current uses: one per 5V pin and one more."""


def pi_header() -> Part:
    """The Pi's 40-pin header: 3V3 pins are the Pi's regulator (a supply of the 3V3 domain),
    5V pins its 5 V rail (fed from, or feeding, the 5V net), GPIOs 3.3 V pins."""
    pins = []
    for number, use in HEADER.items():
        if use == "3V3":
            pins.append(Pin(str(number), "3V3", "power_out", domain="3V3"))
        elif use == "5V":
            pins.append(Pin(str(number), "5V", "power_in", domain="5V"))
        elif use == "GND":
            pins.append(Pin(str(number), "GND", "ground"))
        else:
            pins.append(Pin(str(number), f"GPIO{use}", "bidir", vmax=PI_GPIO_MAX_V, pull_up=use in PI_PULLED_UP))
    return Part("PI", "raspberry-pi", "Raspberry Pi 40-pin header", tuple(pins), supply=(4.75, 5.25),
                current_ma=1000.0, footprint="Connector_PinSocket_2.54mm:PinSocket_2x20_P2.54mm_Vertical",
                description="Raspberry Pi 3B+/4/5/Zero 2 W", io_level=PI_GPIO_MAX_V)


def supply() -> Part:
    return Part("PSU", "supply-5v", "5.1 V 3 A",
                (Pin("1", "+5V", "power_out", domain="5V"), Pin("2", "GND", "ground")),
                footprint="TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal",
                description="5 V supply", maker="Phoenix Contact", mpn="MKDS 1,5/ 2-5,08")


def polyfuse(ref: str = "F1") -> Part:
    """Bourns MF-R300: a resettable PTC fuse, 3 A hold, 6 A trip, 30 V (MF-R series data sheet).
    KiCad's library has no MF-R300 footprint; its MF-RHT300 has the same 5.1 mm radial leads
    (its outline is narrower than the MF-R300's body)."""
    return Part(ref, "polyfuse", "MF-R300", (Pin("1", "1", "passive"), Pin("2", "2", "passive")),
                footprint="Fuse:Fuse_Bourns_MF-RHT300", description="resettable fuse, 3 A hold",
                maker="Bourns", mpn="MF-R300")


AO4407_PINS = (("1", "S"), ("2", "S"), ("3", "S"), ("4", "G"), ("5", "D"), ("6", "D"), ("7", "D"), ("8", "D"))
"""AO4407 SOIC-8: 1-3 source, 4 gate, 5-8 drain."""


def reverse_protection(ref: str = "Q1") -> Part:
    """AO4407 P-channel MOSFET in the 5 V feed: drain from the fuse, source to the 5V rail, gate
    to GND. With the supply the right way round its body diode lifts the source and VGS = -5 V
    turns it on (under 30 mΩ); reversed, the diode blocks and the gate keeps it off. The source
    pins pass the 5 V supply on, so they are the 5V net's source in the model."""
    kinds = {"S": "power_out", "G": "input", "D": "passive"}
    pins = tuple(Pin(n, name, kinds[name], domain="5V" if name == "S" else None)  # type: ignore[arg-type]
                 for n, name in AO4407_PINS)
    return Part(ref, "AO4407", "AO4407", pins, footprint="Package_SO:SOIC-8_3.9x4.9mm_P1.27mm",
                description="P-MOSFET, reverse-polarity protection", maker="Alpha & Omega", mpn="AO4407")


AHCT125_PINS = (
    ("1", "1OE", "input"), ("2", "1A", "input"), ("3", "1Y", "output"), ("4", "2OE", "input"),
    ("5", "2A", "input"), ("6", "2Y", "output"), ("7", "GND", "ground"), ("8", "3Y", "output"),
    ("9", "3A", "input"), ("10", "3OE", "input"), ("11", "4Y", "output"), ("12", "4A", "input"),
    ("13", "4OE", "input"), ("14", "VCC", "power_in"),
)
"""74AHCT125 DIP-14: nOE active low (a high nOE floats nY)."""


def ahct125(ref: str = "U1") -> Part:
    pins = tuple(Pin(n, name, kind, vih=2.0 if kind == "input" else None)  # type: ignore[arg-type]
                 for n, name, kind in AHCT125_PINS)
    return Part(ref, "74AHCT125", "74AHCT125", pins, supply=(4.5, 5.5),
                footprint="Package_DIP:DIP-14_W7.62mm", description="quad buffer, TTL inputs",
                maker="Texas Instruments", mpn="SN74AHCT125N")


MCP23017_FIXED = {
    "9": ("VDD", "power_in"), "10": ("VSS", "ground"), "11": ("NC", "nc"), "12": ("SCL", "input"),
    "13": ("SDA", "open_collector"), "14": ("NC", "nc"), "15": ("A0", "input"), "16": ("A1", "input"),
    "17": ("A2", "input"), "18": ("RESET", "input"), "19": ("INTB", "open_collector"),
    "20": ("INTA", "open_collector"),
}
"""MCP23017 DIP-28 besides the ports: GPB0-7 are pins 1-8, GPA0-7 pins 21-28. INTA/INTB are
push-pull at power-up but idle (no interrupt is enabled); the backend sets IOCON.ODR on every
chip before it enables any interrupt, so as drawn they are open-drain and need the INT pull-up.
GPA7/GPB7 are output-only on current silicon (the backend makes them outputs): a sensor there
cannot be read."""

MCP23017_OUTPUT_ONLY = ("GPA7", "GPB7")


def mcp23017(ref: str, address: int) -> Part:
    pins = []
    for number in range(1, 29):
        if 1 <= number <= 8 or 21 <= number <= 28:
            name = f"GPB{number - 1}" if number <= 8 else f"GPA{number - 21}"
            pins.append(Pin(str(number), name, "output" if name in MCP23017_OUTPUT_ONLY else "bidir"))
        else:
            name, kind = MCP23017_FIXED[str(number)]
            pins.append(Pin(str(number), name, kind))  # type: ignore[arg-type]
    return Part(ref, "MCP23017", f"MCP23017 0x{address:02x}", tuple(pins), supply=(1.8, 5.5),
                current_ma=1.0, footprint="Package_DIP:DIP-28_W7.62mm", description="I2C expander",
                maker="Microchip", mpn="MCP23017-E/SP")


def ws2812b(ref: str, brightness: float) -> Part:
    """WS2812B: 1 VDD, 2 DOUT, 3 VSS, 4 DIN; DIN reads high from 0.7 VDD."""
    pins = (Pin("1", "VDD", "power_in"), Pin("2", "DOUT", "output"), Pin("3", "VSS", "ground"),
            Pin("4", "DIN", "input", vih=0.7, vih_ratio=True))
    return Part(ref, "WS2812B", "WS2812B", pins, supply=(3.5, 5.3),
                current_ma=60.0 * brightness + 1.0,
                footprint="Connector_Wire:SolderWire-0.15sqmm_1x04_P4mm_D0.5mm_OD1.5mm",
                description="RGB LED, 60 mA full white", maker="Worldsemi", mpn="WS2812B")


def drv5032(ref: str) -> Part:
    """DRV5032FC in TO-92 (LPG): 1 VCC, 2 GND, 3 OUT (open-drain, low near a magnet): it only
    sinks, so it needs a pull-up and can never drive a pin high."""
    return Part(ref, "DRV5032FC", "DRV5032FC",
                (Pin("1", "VCC", "power_in"), Pin("2", "GND", "ground"), Pin("3", "OUT", "open_collector")),
                supply=(1.65, 5.5), current_ma=0.0016, footprint="Package_TO_SOT_THT:TO-92_Inline",
                description="omnipolar hall switch, open-drain", maker="Texas Instruments", mpn="DRV5032FCLPG")


def drv5032fa(ref: str) -> Part:
    """DRV5032FA (not used by the shipped builds): the push-pull version, which drives its
    output high and so fights any other driver on its net."""
    return replace(drv5032(ref), kind="DRV5032FA", value="DRV5032FA",
                   pins=(Pin("1", "VCC", "power_in"), Pin("2", "GND", "ground"), Pin("3", "OUT", "output")),
                   description="omnipolar hall switch, push-pull", mpn="DRV5032FALPG")


def a3144(ref: str) -> Part:
    """A3144 (not used by the shipped builds): 1 VCC, 2 GND, 3 OUT (open collector)."""
    return Part(ref, "A3144", "A3144",
                (Pin("1", "VCC", "power_in"), Pin("2", "GND", "ground"), Pin("3", "OUT", "open_collector")),
                supply=(4.5, 24.0), current_ma=9.0, footprint="Package_TO_SOT_THT:TO-92_Inline",
                description="unipolar hall switch, open collector")


def ky003(ref: str) -> Part:
    """A KY-003 module (not used): an A3144 with its own pull-up to the module's supply, so
    its output drives the supply level (modelled as a push-pull output)."""
    return Part(ref, "KY-003", "KY-003 module",
                (Pin("1", "S", "output"), Pin("2", "VCC", "power_in"), Pin("3", "GND", "ground")),
                supply=(4.5, 24.0), current_ma=9.0, description="hall module with a pull-up")


def reed(ref: str) -> Part:
    return Part(ref, "reed", "MACD-14", (Pin("1", "1", "passive"), Pin("2", "2", "passive")),
                footprint="Connector_Wire:SolderWire-0.15sqmm_1x02_P4mm_D0.5mm_OD1.5mm",
                description="reed switch, NO, 14 mm glass", maker="Littelfuse", mpn="MACD-14")


def resistor(ref: str, ohms: float) -> Part:
    value = f"{ohms / 1000:g}k" if ohms >= 1000 else f"{ohms:g}"
    return Part(ref, f"R{value}", value, (Pin("1", "1", "passive"), Pin("2", "2", "passive")),
                footprint="Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
                description=f"{value} ohm")


def is_resistor(part: Part) -> bool:
    """Resistors are the parts whose kind is R and a value (R330, R10k)."""
    return part.kind[:1] == "R" and part.kind[1:2].isdigit()


def is_capacitor(part: Part) -> bool:
    return part.kind[:1] == "C" and part.kind[1:2].isdigit()


def ohms(part: Part) -> float:
    v = part.value
    return float(v[:-1]) * 1000 if v.endswith("k") else float(v)


def capacitor(ref: str, microfarads: float, polarised: bool = False) -> Part:
    value = f"{microfarads:g}u" if microfarads >= 1 else f"{microfarads * 1000:g}n"
    names = ("+", "-") if polarised else ("1", "2")
    return Part(ref, f"C{value}", value,
                (Pin("1", names[0], "passive"), Pin("2", names[1], "passive")),
                footprint="Capacitor_THT:CP_Radial_D10.0mm_P5.00mm" if polarised
                else "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm",
                description=f"{value}F")


def microfarads(part: Part) -> float:
    v = part.value
    return float(v[:-1]) if v.endswith("u") else float(v[:-1]) / 1000


def diode(ref: str) -> Part:
    """BAT43 Schottky: 1 K (cathode, the band), 2 A."""
    return Part(ref, "BAT43", "BAT43", (Pin("1", "K", "passive"), Pin("2", "A", "passive")),
                footprint="Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal", description="Schottky diode",
                maker="STMicroelectronics", mpn="BAT43")


# --- building a profile's model ---------------------------------------------------------------


class _Builder:
    def __init__(self) -> None:
        self.parts: dict[str, Part] = {}
        self.nets: dict[str, list[str]] = {}
        self.wires: dict[str, list[tuple[str, str]]] = {}
        self.groups: dict[str, list[str]] = {}
        self.tails: dict[tuple[str, str], tuple[Part, str]] = {}

    def add(self, part: Part, group: str) -> Part:
        self.parts[part.ref] = part
        self.groups.setdefault(group, []).append(part.ref)
        return part

    def connect(self, net: str, *nodes: tuple[Part, str], after: tuple[Part, str] | None = None) -> None:
        """Put pins on a net, wired one to the next; the first from `after` (default: the
        net's first pin, its source)."""
        names = [part.node(pin) for part, pin in nodes]
        have = self.nets.setdefault(net, [])
        wires = self.wires.setdefault(net, [])
        prev = after[0].node(after[1]) if after else (have[0] if have else None)
        for n in names:
            if prev is not None:
                wires.append((prev, n))
            prev = n
        have.extend(names)

    def bus(self, net: str, key: str, *nodes: tuple[Part, str]) -> None:
        """Pins on a net wired as one bus per `key` (the sensors' 3V3, say): each bus starts
        at the net's source and runs from part to part."""
        tail = self.tails.get((net, key))
        self.connect(net, *nodes, after=tail)
        self.tails[(net, key)] = nodes[-1]

    def circuit(self, name: str, title: str, sensor_kind: SensorKind) -> Circuit:
        nets = tuple(Net(n, tuple(nodes), tuple(self.wires[n])) for n, nodes in self.nets.items())
        groups = {g: tuple(refs) for g, refs in self.groups.items()}
        return Circuit(name, title, sensor_kind, tuple(self.parts.values()), nets, groups)


def led_data_gpio(profile: Profile) -> int:
    """The GPIO the LED chain's data leaves the Pi on (SPI0 MOSI for SPI LEDs)."""
    led = profile.leds
    return led.pin if led.backend == "neopixel" and led.pin is not None else 10


def signal_gpios(profile: Profile) -> set[int]:
    """The GPIOs a wire goes to: the sensors' and the LED data pin. (SPI0's other pins are
    held by the driver but carry no wire.)"""
    return set(profile.sensors.gpios()) | {led_data_gpio(profile)}


def sensor_kinds(profile: Profile) -> tuple[SensorKind, ...]:
    """The sensor builds a profile allows, the recommended first: the matrix needs reeds."""
    return ("reed",) if isinstance(profile.sensors, MatrixSensorConfig) else ("hall", "reed")


def build_circuit(profile: Profile, name: str, sensor_kind: SensorKind | None = None) -> Circuit:
    """The model of a buildable profile with hall switches (`hall`) or reed switches (`reed`;
    the matrix allows only these). Raises ValueError for a sim profile."""
    s = profile.sensors
    kind = sensor_kind or sensor_kinds(profile)[0]
    if kind not in sensor_kinds(profile):
        raise ValueError(f"{name}: the {s.backend} build cannot use {kind} sensors")
    if profile.leds.backend == "sim" or s.backend == "sim":
        raise ValueError(f"{name}: a simulated profile has no circuit")
    b = _Builder()
    pi = b.add(pi_header(), "power")
    _feed(b, pi)
    _leds(b, profile, pi)
    if isinstance(s, GpioSensorConfig):
        for point in profile.points:
            gpio = s.pins[point]
            _sensor(b, kind, point, (pi, str(HEADER_PIN[gpio])), series=PI_FUNCTIONS.get(gpio, ("", False))[1])
    elif isinstance(s, MatrixSensorConfig):
        _matrix(b, profile, s, pi)
    elif isinstance(s, Mcp23017SensorConfig):
        _expanders(b, profile, s, pi, kind)
    return b.circuit(name, profile.name, kind)


def _feed(b: _Builder, pi: Part) -> None:
    """The 5 V supply through the resettable fuse and the reverse-polarity MOSFET to the 5V
    rail; the Pi fed on both 5V pins, its return current on three GND pins, each on its own
    wire (no supply current runs from header pin to header pin)."""
    psu = b.add(supply(), "power")
    fuse = b.add(polyfuse("F1"), "power")
    q = b.add(reverse_protection("Q1"), "power")
    b.connect("5V_SUPPLY", (psu, "+5V"), (fuse, "1"))
    b.connect("5V_FUSED", (fuse, "2"), (q, "5"), (q, "6"), (q, "7"), (q, "8"))
    b.connect("5V", (q, "1"), (q, "2"), (q, "3"), (pi, "2"))
    b.connect("5V", (pi, "4"), after=(q, "1"))
    b.connect("GND", (psu, "GND"), (q, "G"))
    for number in PI_GND_PINS:
        b.connect("GND", (pi, str(number)), after=(psu, "GND"))
    b.connect("3V3", (pi, "1"))


def _leds(b: _Builder, profile: Profile, pi: Part) -> None:
    u1 = b.add(ahct125("U1"), "power")
    c_u1 = b.add(capacitor("C2", 0.1), "power")
    r1 = b.add(resistor("R1", 330), "power")
    c1 = b.add(capacitor("C1", 1000, polarised=True), "power")
    gpio = led_data_gpio(profile)
    b.connect("LED_3V3", (pi, str(HEADER_PIN[gpio])), (u1, "1A"))
    b.connect("5V", (u1, "VCC"), (c_u1, "1"))
    b.connect("GND", (u1, "GND"), (c_u1, "2"))
    b.connect("GND", (u1, "1OE"), (u1, "2OE"), (u1, "2A"), (u1, "3A"), (u1, "3OE"), (u1, "4A"), (u1, "4OE"),
              after=(u1, "GND"))
    b.connect("5V", (c1, "+"))
    b.connect("GND", (c1, "-"))
    b.connect("LED_5V", (u1, "1Y"), (r1, "1"))
    prev: tuple[Part, str] = (r1, "2")
    vdd, vss = (c1, "+"), (c1, "-")
    for i in range(profile.leds.count):
        led = b.add(ws2812b(f"LED{i}", profile.leds.brightness), "leds")
        b.connect(f"DIN{i}", prev, (led, "DIN"))
        b.connect("5V", (led, "VDD"), after=vdd)
        b.connect("GND", (led, "VSS"), after=vss)
        prev, vdd, vss = (led, "DOUT"), (led, "VDD"), (led, "VSS")


def _sensor(b: _Builder, kind: SensorKind, point: str, to: tuple[Part, str], series: bool = False) -> None:
    """One point's sensor on the net `S_<point>` with `to` (a GPIO or an expander pin), pulled
    up to 3V3 by 10 kΩ; a hall switch with its 100 nF beside it. With `series` (a GPIO a Pi
    function drives push-pull) the sensor sits behind 1 kΩ on `S_<point>_R`, so neither can
    drive the other harder than 3.3 mA."""
    net = f"S_{point}"
    if series:
        rs = b.add(resistor(f"RS_{point}", 1000), "sensors")
        b.connect(net, to, (rs, "1"))
        to, net = (rs, "2"), f"S_{point}_R"
    pull = b.add(resistor(f"RP_{point}", 10_000), "sensors")
    if kind == "hall":
        hall = b.add(drv5032(f"H_{point}"), "sensors")
        cap = b.add(capacitor(f"C_{point}", 0.1), "sensors")
        b.connect(net, to, (hall, "OUT"), (pull, "1"))
        b.bus("3V3", "sensors", (pull, "2"), (hall, "VCC"), (cap, "1"))
        b.bus("GND", "sensors", (hall, "GND"), (cap, "2"))
    else:
        sw = b.add(reed(f"SW_{point}"), "sensors")
        b.connect(net, to, (sw, "1"), (pull, "1"))
        b.bus("GND", "sensors", (sw, "2"))
        b.bus("3V3", "sensors", (pull, "2"))


def _matrix(b: _Builder, profile: Profile, s: MatrixSensorConfig, pi: Part) -> None:
    for r, gpio in enumerate(s.rows):
        b.connect(f"ROW{r}", (pi, str(HEADER_PIN[gpio])))
    for c, gpio in enumerate(s.columns):
        pull = b.add(resistor(f"RC{c}", 10_000), "pullups")
        b.connect(f"COL{c}", (pi, str(HEADER_PIN[gpio])), (pull, "1"))
        b.bus("3V3", "pullups", (pull, "2"))
    for point in profile.points:
        r, c = s.cells[point]
        sw = b.add(reed(f"SW_{point}"), "sensors")
        d = b.add(diode(f"D_{point}"), "sensors")
        b.connect(f"COL{c}", (sw, "1"))
        b.connect(f"M_{point}", (sw, "2"), (d, "A"))
        b.connect(f"ROW{r}", (d, "K"))


def _expanders(b: _Builder, profile: Profile, s: Mcp23017SensorConfig, pi: Part, kind: SensorKind) -> None:
    b.connect("SDA", (pi, str(HEADER_PIN[2])))
    b.connect("SCL", (pi, str(HEADER_PIN[3])))
    b.connect("INT", (pi, str(HEADER_PIN[s.interrupt_pin])))
    chips = []
    for i, address in enumerate(s.addresses):
        u = b.add(mcp23017(f"U{i + 2}", address), "expanders")
        c = b.add(capacitor(f"C{i + 3}", 0.1), "expanders")
        chips.append(u)
        b.bus("3V3", "expanders", (u, "VDD"), (c, "1"), (u, "RESET"))
        b.bus("GND", "expanders", (u, "VSS"), (c, "2"))
        b.connect("SDA", (u, "SDA"))
        b.connect("SCL", (u, "SCL"))
        b.connect("INT", (u, "INTA"))
        if i == 0:  # INTA is open-drain once set up: the line's pull-up, drawn
            pull = b.add(resistor("RINT", 10_000), "expanders")
            b.connect("INT", (pull, "1"))
            b.bus("3V3", "expanders", (pull, "2"))
        bits = address - 0x20
        for a in range(3):
            b.bus("3V3" if bits >> a & 1 else "GND", "expanders", (u, f"A{a}"))
    for point in profile.points:
        chip, bit = s.channels[point]
        port = f"GP{'AB'[bit // 8]}{bit % 8}"
        _sensor(b, kind, point, (chips[chip], port))


def circuits(profile: Profile, name: str) -> tuple[Circuit, ...]:
    """Every sensor build of a profile, the recommended first."""
    return tuple(build_circuit(profile, name, k) for k in sensor_kinds(profile))
