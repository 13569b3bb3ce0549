"""A schematic per profile: power, the level shifter, the LED chain and one sensor channel.

Pin numbers are the DIP packages' (74AHCT125: TI SCLS264 / NXP 74HCT125 table 2; MCP23017:
Microchip DS20001952, DIP-28). Drawn from the profile, so the GPIOs, the chain length, the
expander addresses and the matrix lines are the profile's.
"""

from __future__ import annotations

from ..profile import GpioSensorConfig, MatrixSensorConfig, Mcp23017SensorConfig, Profile
from .svgdraw import Drawing

WIRE = 'stroke="#222" stroke-width="1.5"'
RED = 'stroke="#c22" stroke-width="1.5"'
BLUE = 'stroke="#1a75c2" stroke-width="1.5"'
BOX = 'fill="#f7f7f7" stroke="#333" stroke-width="1.5"'

SHIFTER_PINS = {
    1: "1OE", 2: "1A", 3: "1Y", 4: "2OE", 5: "2A", 6: "2Y", 7: "GND",
    8: "3Y", 9: "3A", 10: "3OE", 11: "4Y", 12: "4A", 13: "4OE", 14: "VCC",
}
"""74AHCT125, DIP-14 / SOIC-14: each nOE is active low; a high nOE floats its nY."""

MCP23017_PINS = {
    "VDD": 9, "VSS": 10, "SCL": 12, "SDA": 13, "A0": 15, "A1": 16, "A2": 17, "RESET": 18,
    "INTB": 19, "INTA": 20,
}
"""MCP23017 DIP-28: GPB0-7 are pins 1-8, GPA0-7 pins 21-28."""


def _gnd(d: Drawing, x: float, y: float) -> None:
    d.line((x, y), (x, y + 8), WIRE)
    for i, w in enumerate((9, 6, 3)):
        d.line((x - w, y + 8 + 3 * i), (x + w, y + 8 + 3 * i), WIRE)


def _resistor(d: Drawing, x0: float, y: float, x1: float) -> None:
    """A resistor drawn horizontally between x0 and x1."""
    mid = (x0 + x1) / 2
    d.line((x0, y), (mid - 15, y), WIRE)
    d.rect(mid - 15, y - 5, 30, 10, 'fill="#fff" stroke="#222" stroke-width="1.5"')
    d.line((mid + 15, y), (x1, y), WIRE)


def _capacitor(d: Drawing, x: float, y_top: float, y_bottom: float) -> None:
    mid = (y_top + y_bottom) / 2
    d.line((x, y_top), (x, mid - 3), WIRE)
    d.line((x - 9, mid - 3), (x + 9, mid - 3), 'stroke="#222" stroke-width="2.5"')
    d.line((x - 9, mid + 3), (x + 9, mid + 3), 'stroke="#222" stroke-width="2.5"')
    d.line((x, mid + 3), (x, y_bottom), WIRE)


def _power_and_leds(d: Drawing, profile: Profile) -> None:
    led = profile.leds
    data_gpio = led.pin if led.backend == "neopixel" else 10
    how = "PWM" if led.backend == "neopixel" else "SPI0 MOSI"
    # supply and rails
    d.rect(20, 60, 150, 56, BOX)
    d.text(30, 80, "5 V supply", extra=' font-weight="bold"')
    d.text(30, 96, "3 A (Pi 5: 5 A)", size=10)
    d.text(30, 109, "see the power budget", size=10)
    d.line((170, 72), (930, 72), RED)
    d.text(720, 66, "+5 V (thick wire to the LEDs)", size=10, extra=' fill="#c22"')
    d.line((170, 106), (200, 106), WIRE)
    d.line((200, 106), (200, 290), WIRE)
    d.line((200, 290), (930, 290), WIRE)
    d.text(940, 304, "GND (joined: supply, Pi, level shifter, LEDs)", size=10, anchor="end")
    # the Pi
    d.rect(40, 150, 130, 110, BOX)
    d.text(50, 170, "Raspberry Pi", extra=' font-weight="bold"')
    d.text(50, 190, f"GPIO{data_gpio} ({how})", size=10)
    d.text(50, 206, "5V pin 2/4: +5 V", size=10)
    d.text(50, 222, "GND pin 6", size=10)
    d.text(50, 238, "3V3 pin 1/17: sensors", size=10)
    d.polyline(((170, 180), (240, 180), (240, 156), (300, 156)), BLUE)  # data to 1A
    d.polyline(((170, 236), (185, 236), (185, 72)), RED)
    d.circle((185, 72), 3, 'fill="#c22"')
    d.line((105, 260), (105, 290), WIRE)
    d.line((105, 290), (200, 290), WIRE)
    # the 74AHCT125
    x0, y0 = 300, 140
    d.rect(x0, y0, 120, 130, BOX)
    d.text(x0 + 60, y0 - 8, "74AHCT125 (5 V)", anchor="middle", extra=' font-weight="bold"')
    left = [2, 1, 4, 5, 13, 12, 7]
    right = [14, 3, 6, 10, 9, 8, 11]
    for i, pin in enumerate(left):
        d.text(x0 + 6, y0 + 20 + 17 * i, f"{pin} {SHIFTER_PINS[pin]}", size=9)
    for i, pin in enumerate(right):
        d.text(x0 + 114, y0 + 20 + 17 * i, f"{SHIFTER_PINS[pin]} {pin}", size=9, anchor="end")
    d.text(236, 150, f"GPIO{data_gpio}", size=9, anchor="end", extra=' fill="#1a75c2"')
    # OE pins 1, 4, 13, unused inputs 5, 12 and GND (7) on the left, to GND
    d.polyline(((x0, y0 + 33), (x0 - 30, y0 + 33), (x0 - 30, 290)), WIRE)
    for i in (2, 3, 4, 5, 6):
        d.line((x0, y0 + 16 + 17 * i), (x0 - 30, y0 + 16 + 17 * i), WIRE)
    # VCC (14) to +5 V, with 100 nF to GND beside it
    d.polyline(((x0 + 120, y0 + 16), (540, y0 + 16)), RED)
    d.line((450, y0 + 16), (450, 72), RED)
    _capacitor(d, 540, y0 + 16, 200)
    _gnd(d, 540, 200)
    d.text(552, 182, "100 nF", size=10)
    # 3OE (10) and 3A (9) to GND as well; 2Y 3Y 4Y open
    d.polyline(((x0 + 120, y0 + 67), (x0 + 135, y0 + 67), (x0 + 135, 290)), WIRE)
    d.line((x0 + 120, y0 + 84), (x0 + 135, y0 + 84), WIRE)
    d.text(x0 - 40, 308, "all four OE (1, 4, 10, 13) to GND;", size=10)
    d.text(x0 - 40, 321, "unused inputs 2A, 3A, 4A (5, 9, 12) to GND;", size=10)
    d.text(x0 - 40, 334, "2Y, 3Y, 4Y (6, 8, 11) left open", size=10)
    # 1Y through the series resistor to DIN of LED 0
    d.polyline(((x0 + 120, y0 + 33), (510, y0 + 33), (510, 220), (620, 220)), BLUE)
    _resistor(d, 620, 220, 700)
    d.text(660, 208, "330 Ω (300-500)", size=10, anchor="middle")
    # 1000 uF across the supply at the first LED
    _capacitor(d, 690, 72, 140)
    _gnd(d, 690, 140)
    d.text(700, 100, "1000 µF 10 V", size=10)
    d.text(700, 113, "(+ to 5 V)", size=10)
    # the chain
    count = led.count
    shown = [0, 1, count - 1] if count > 3 else list(range(count))
    xs = [740, 820, 900]
    prev = (700, 220)
    for x, index in zip(xs, shown):
        d.rect(x - 24, 190, 48, 60, BOX)
        d.text(x, 210, f"LED {index}", size=10, anchor="middle", extra=' font-weight="bold"')
        d.text(x, 226, "DIN DOUT", size=8, anchor="middle")
        d.line((x, 190), (x, 72), RED)
        d.line((x, 250), (x, 290), WIRE)
        d.line(prev, (x - 24, 220), BLUE)
        prev = (x + 24, 220)
    if count > 3:
        d.text(860, 268, "...", anchor="middle")
    d.text(820, 176, f"WS2812B x {count}", size=10, anchor="middle")


def _direct_sensor(d: Drawing, profile: Profile, s: GpioSensorConfig) -> None:
    d.text(20, 360, f"Sensors: one GPIO each ({len(s.pins)}), pin per point in the pinout table",
           extra=' font-weight="bold"')
    # reed
    d.text(40, 390, "Reed switch", extra=' font-weight="bold"')
    d.polyline(((60, 420), (180, 420)), WIRE)
    d.text(60, 412, "GPIOn", size=10)
    d.line((180, 420), (200, 410), WIRE)
    d.line((205, 420), (240, 420), WIRE)
    _gnd(d, 240, 420)
    d.text(190, 445, "NO reed", size=10, anchor="middle")
    d.line((120, 420), (120, 470), WIRE)
    _resistor_v(d, 120, 470, 530)
    d.text(130, 505, "10 kΩ to 3V3", size=10)
    d.text(40, 560, "the Pi's own pull-up (about 50 kΩ) also works for short wires;", size=10)
    d.text(40, 574, "10 kΩ stays clean beside the LED data line over half a metre", size=10)
    _hall(d, 420)


def _resistor_v(d: Drawing, x: float, y0: float, y1: float) -> None:
    mid = (y0 + y1) / 2
    d.line((x, y0), (x, mid - 15), WIRE)
    d.rect(x - 5, mid - 15, 10, 30, 'fill="#fff" stroke="#222" stroke-width="1.5"')
    d.line((x, mid + 15), (x, y1), WIRE)
    d.text(x, y1 + 12, "3V3", size=9, anchor="middle")


def _hall(d: Drawing, x: float) -> None:
    d.text(x, 390, "or a hall switch: DRV5032FA (3.3 V, omnipolar, push-pull)", extra=' font-weight="bold"')
    d.rect(x + 20, 405, 90, 70, BOX)
    d.text(x + 65, 425, "DRV5032FA", size=10, anchor="middle")
    d.text(x + 26, 445, "VCC", size=9)
    d.text(x + 26, 465, "GND", size=9)
    d.text(x + 104, 455, "OUT", size=9, anchor="end")
    d.line((x + 20, 441), (x - 10, 441), RED)
    d.text(x - 14, 444, "3V3", size=9, anchor="end")
    d.line((x + 20, 461), (x + 5, 461), WIRE)
    _gnd(d, x + 5, 461)
    d.line((x + 110, 451), (x + 200, 451), WIRE)
    d.text(x + 120, 444, "to GPIOn", size=10)
    d.text(x, 505, "low when a magnet of either pole is near; no pull-up needed (push-pull);", size=10)
    d.text(x, 519, "1.6 µA each at 3 V (20 Hz versions, TI SLVSDC7 datasheet)", size=10)
    d.text(x, 533, "Not the A3144 (discontinued, 4.5 V minimum, 4-9 mA each) nor KY-003", size=10)
    d.text(x, 547, "modules (their pull-up goes to 5 V, above the Pi's 3.3 V inputs)", size=10)


def _matrix_sensor(d: Drawing, profile: Profile, s: MatrixSensorConfig) -> None:
    rows = ", ".join(f"GPIO{p}" for p in s.rows)
    cols = ", ".join(f"GPIO{p}" for p in s.columns)
    d.text(20, 360, f"Sensors: {len(s.rows)} x {len(s.columns)} matrix, reed switches only",
           extra=' font-weight="bold"')
    d.text(20, 378, f"rows (driven low in turn): {rows}", size=10)
    d.text(20, 392, f"columns (read, pull-up): {cols}", size=10)
    # two rows x two columns, each cell a switch and a BAT43
    for r in range(2):
        y = 440 + 70 * r
        d.line((60, y), (520, y), WIRE)
        d.text(56, y + 4, f"row {r}", size=10, anchor="end")
    for c in range(2):
        x = 180 + 200 * c
        d.line((x, 410), (x, 560), WIRE)
        d.text(x + 4, 406, f"column {c}", size=10)
        d.line((x, 410), (x, 400), WIRE)
        for r in range(2):
            y = 440 + 70 * r
            # from the column: switch, then diode (anode), cathode (band) to the row
            d.polyline(((x, y - 25), (x + 30, y - 25)), WIRE)
            d.line((x + 30, y - 25), (x + 45, y - 33), WIRE)
            d.line((x + 48, y - 25), (x + 60, y - 25), WIRE)
            d.raw(f'<path d="M{x + 60},{y - 31} L{x + 60},{y - 19} L{x + 72},{y - 25} z" fill="#222"/>')
            d.line((x + 72, y - 31), (x + 72, y - 19), 'stroke="#222" stroke-width="2"')
            d.polyline(((x + 72, y - 25), (x + 90, y - 25), (x + 90, y)), WIRE)
    d.text(560, 440, "each switch in series with a BAT43 Schottky diode,", size=10)
    d.text(560, 454, "band (cathode) towards the row: no ghost readings", size=10)
    d.text(560, 474, "BAT43: 0.26-0.33 V at 2 mA (ST datasheet), far below", size=10)
    d.text(560, 488, "the Pi's 0.8 V low level; a 1N4148 drops about 0.5 V", size=10)
    d.text(560, 508, f"10 kΩ from each column to 3V3 ({len(s.columns)} resistors) for long wires", size=10)


def _mcp_sensor(d: Drawing, profile: Profile, s: Mcp23017SensorConfig) -> None:
    d.text(20, 360, f"Sensors: {len(s.addresses)} x MCP23017 on I2C bus {s.i2c_bus} (3.3 V)",
           extra=' font-weight="bold"')
    for i, address in enumerate(s.addresses):
        x = 40 + 300 * i
        d.rect(x, 380, 170, 170, BOX)
        d.text(x + 85, 398, f"MCP23017 0x{address:02x}", size=10, anchor="middle", extra=' font-weight="bold"')
        bits = address - 0x20
        rows = [
            f"{MCP23017_PINS['VDD']} VDD: 3V3 (100 nF to GND)",
            f"{MCP23017_PINS['VSS']} VSS: GND",
            f"{MCP23017_PINS['SDA']} SDA: GPIO2",
            f"{MCP23017_PINS['SCL']} SCL: GPIO3",
            f"{MCP23017_PINS['RESET']} RESET: 3V3",
            *(f"{MCP23017_PINS[f'A{b}']} A{b}: {'3V3' if bits >> b & 1 else 'GND'}" for b in range(3)),
            f"{MCP23017_PINS['INTA']} INTA: GPIO{s.interrupt_pin}",
        ]
        for j, row in enumerate(rows):
            d.text(x + 8, 416 + 15 * j, row, size=9)
    x = 40 + 300 * len(s.addresses)
    d.text(x, 396, "INTA of every chip to the same GPIO:", size=10)
    d.text(x, 410, "open-drain, mirrored (set by the software)", size=10)
    d.text(x, 430, "GPA0-GPA6 (pins 21-27), GPB0-GPB6 (1-7):", size=10)
    d.text(x, 444, "one switch each, to GND; GPA7/GPB7 unused", size=10)
    d.text(x, 464, "pull-ups: the chip's own (about 100 kΩ);", size=10)
    d.text(x, 478, "add 10 kΩ to 3V3 on each input for long wires", size=10)
    d.text(x, 498, "SDA/SCL: the Pi's 1.8 kΩ pull-ups suffice", size=10)


def schematic(profile: Profile) -> Drawing:
    d = Drawing(960, 600, font_size=11)
    d.text(20, 30, f"{profile.name}: schematic", size=16, extra=' font-weight="bold"')
    _power_and_leds(d, profile)
    s = profile.sensors
    if isinstance(s, GpioSensorConfig):
        _direct_sensor(d, profile, s)
    elif isinstance(s, MatrixSensorConfig):
        _matrix_sensor(d, profile, s)
    elif isinstance(s, Mcp23017SensorConfig):
        _mcp_sensor(d, profile, s)
    return d
