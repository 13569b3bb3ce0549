"""What a wiring profile asks of the Pi it runs on: the device nodes its backends open, the
groups that open them without root, the interfaces that must be on or off, the config.txt
lines its LEDs need. The systemd unit (`service install`) and `navakankari doctor` both follow
this one table, so the unit allows exactly what the backends open.

Where each device comes from (read in the libraries' sources):
- gpiozero through lgpio, rpi-lgpio (the matrix's RPi.GPIO API) and Blinka's `digitalio`
  (libgpiod; `neopixel.NeoPixel` makes its pin a `DigitalInOut`) request lines on
  /dev/gpiochipN.
- rpi_ws281x on GPIO12/18 (PWM) or GPIO21 (PCM) asks the VideoCore mailbox for DMA memory
  (/dev/vcio, else it mknods /tmp/mailbox-PID) and maps registers through /dev/mem: root.
  On GPIO10 it writes /dev/spidev0.0 and sets the pin's function through /dev/gpiomem.
- neopixel_spi and Blinka's `busio.SPI` on SPI0 open /dev/spidev0.0; `busio.I2C` opens
  /dev/i2c-N.
- On a Pi 5, `neopixel_write` goes to Adafruit-Blinka-Raspberry-Pi5-Neopixel, which opens
  /dev/pio0 (root:root unless a udev rule gives it to the gpio group).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .profile import (
    I2C_GPIOS,
    SPI0_GPIOS,
    SPI_LED_GPIO,
    GpioSensorConfig,
    MatrixSensorConfig,
    Mcp23017SensorConfig,
    Profile,
)

UART_GPIOS = (14, 15)
PCM_LED_GPIO = 21


@dataclass(frozen=True)
class PiModel:
    """A supported Raspberry Pi: how /proc/device-tree/model names it, its config.txt filter
    sections, and the core clock lines SPI LEDs need on it (rpi_ws281x's README, SPI)."""

    key: str
    name: str
    sections: tuple[str, ...]
    spi_clock: tuple[str, ...]
    blinka_board: str

    @property
    def pi5(self) -> bool:
        return self.key == "5"


# The Pis that run 64-bit Raspberry Pi OS (ARMv8: the aarch64 wheels of lgpio and gpiod, the
# engine's C core built for it). A Pi 1, 2 (before v1.2), Zero or Zero W cannot.
MODELS: tuple[PiModel, ...] = (
    PiModel("3B", "Raspberry Pi 3 Model B", ("pi3",), ("core_freq=250",), "RASPBERRY_PI_3B"),
    PiModel("3B+", "Raspberry Pi 3 Model B Plus", ("pi3", "pi3+"), ("core_freq=250",),
            "RASPBERRY_PI_3B_PLUS"),
    PiModel("4B", "Raspberry Pi 4 Model B", ("pi4",), ("core_freq_min=500",), "RASPBERRY_PI_4B"),
    PiModel("Zero 2 W", "Raspberry Pi Zero 2 W", ("pi0", "pi02"), ("core_freq=250",),
            "RASPBERRY_PI_ZERO_2_W"),
    PiModel("5", "Raspberry Pi 5", ("pi5",), (), "RASPBERRY_PI_5"),
)


SUPPORTED_WHY = ("the install is made for 64-bit Raspberry Pi OS (aarch64 wheels for lgpio and "
                 "gpiod, the engine's C core); a Pi 1, 2, Zero or Zero W cannot run it")


def supported_models() -> str:
    """The supported models and why, as doctor and `service install` say it."""
    return f"{', '.join(m.name for m in MODELS)} ({SUPPORTED_WHY})"


def model_named(text: str) -> PiModel | None:
    """The model whose name starts /proc/device-tree/model ("Raspberry Pi 4 Model B Rev 1.4");
    the longest name wins, so a "3 Model B Plus" is not taken for a "3 Model B"."""
    text = text.strip("\x00 \n")
    matches = [m for m in MODELS if text.startswith(m.name)]
    return max(matches, key=lambda m: len(m.name)) if matches else None


@dataclass(frozen=True)
class Device:
    """A device node a backend opens; `unit` is its systemd DeviceAllow= form; `group` opens
    it without root on Raspberry Pi OS (None: root only)."""

    path: str
    unit: str
    group: str | None
    why: str


GPIOCHIP = Device("/dev/gpiochip*", "char-gpiochip", "gpio", "GPIO lines (lgpio, libgpiod)")
GPIOMEM = Device("/dev/gpiomem", "/dev/gpiomem", "gpio", "rpi_ws281x sets GPIO10 to SPI MOSI")
SPIDEV = Device("/dev/spidev0.0", "/dev/spidev0.0", "spi", "SPI0 chip select 0: the LED data")
VCIO = Device("/dev/vcio", "/dev/vcio", None, "rpi_ws281x's VideoCore mailbox (DMA memory)")
MEM = Device("/dev/mem", "/dev/mem", None, "rpi_ws281x's DMA, PWM/PCM, GPIO and clock registers")
PIO = Device("/dev/pio0", "/dev/pio0", "gpio", "the Pi 5 PIO block that sends the LED data")


def i2c_device(bus: int) -> Device:
    return Device(f"/dev/i2c-{bus}", f"/dev/i2c-{bus}", "i2c", "the MCP23017 expanders")


@dataclass(frozen=True)
class Needs:
    """What one profile needs on one model (or, from `unit_needs`, on every model).

    `on`: interfaces that must be enabled ("spi", "i2c"); `off`: interfaces that must be
    disabled, with the reason ("uart", "i2c", "spi", "audio", "i2s"); `config_lines`: other
    config.txt lines (the core clock for SPI LEDs); `pins`: every GPIO the profile uses.
    """

    profile: str
    models: tuple[PiModel, ...]
    devices: tuple[Device, ...]
    root: bool
    on: tuple[str, ...] = ()
    off: Mapping[str, str] = field(default_factory=dict)
    config_lines: tuple[str, ...] = ()
    pins: Mapping[int, str] = field(default_factory=dict)

    @property
    def groups(self) -> tuple[str, ...]:
        """Groups a non-root service user must be in to open every device."""
        return tuple(sorted({d.group for d in self.devices if d.group}))

    def device_allow(self) -> list[str]:
        """The unit's DeviceAllow= values, in a fixed order."""
        return [f"{d.unit} rw" for d in self.devices]


def _sensor_devices(profile: Profile) -> tuple[list[Device], list[str]]:
    s = profile.sensors
    if isinstance(s, (GpioSensorConfig, MatrixSensorConfig)):
        return [GPIOCHIP], []
    if isinstance(s, Mcp23017SensorConfig):
        return [i2c_device(s.i2c_bus), GPIOCHIP], ["i2c"]
    return [], []


def _led_devices(profile: Profile, model: PiModel) -> tuple[list[Device], list[str], dict[str, str], tuple[str, ...]]:
    """Devices, interfaces on, interfaces off and config lines of the LED backend."""
    led = profile.leds
    if led.backend == "neopixel_spi":
        return [SPIDEV], ["spi"], {}, model.spi_clock
    if led.backend != "neopixel" or led.pin is None:
        return [], [], {}, ()
    if model.pi5:
        return [GPIOCHIP, PIO], [], {}, ()
    if led.pin == SPI_LED_GPIO:
        return [GPIOCHIP, SPIDEV, GPIOMEM], ["spi"], {}, model.spi_clock
    if led.pin == PCM_LED_GPIO:
        return [GPIOCHIP, VCIO, MEM], [], {"i2s": "the LEDs on GPIO21 use the PCM block"}, ()
    return [GPIOCHIP, VCIO, MEM], [], {"audio": f"the LEDs on GPIO{led.pin} use the PWM block, "
                                               "which analog audio also drives"}, ()


def _pins_off(pins: Mapping[int, str], on: Iterable[str]) -> dict[str, str]:
    """Interfaces whose pins the profile uses for something else."""
    off = {}
    for name, gpios in (("i2c", I2C_GPIOS), ("spi", SPI0_GPIOS), ("uart", UART_GPIOS)):
        used = [g for g in gpios if g in pins]
        if name not in on and used:
            off[name] = ", ".join(f"GPIO{g} is {pins[g]}" for g in used)
    return off


def needs(profile: Profile, model: PiModel) -> Needs:
    """What `profile` needs on `model`."""
    devices, on = _sensor_devices(profile)
    led_devices, led_on, off, lines = _led_devices(profile, model)
    devices += led_devices
    on += led_on
    pins = profile.gpios()
    off = {**_pins_off(pins, on), **off}
    unique = tuple(dict.fromkeys(devices))
    root = any(d.group is None for d in unique)
    return Needs(profile.name, (model,), unique, root, tuple(dict.fromkeys(on)), off, lines, pins)


def unit_needs(profile: Profile, models: Iterable[PiModel] = MODELS) -> Needs:
    """What the profile needs on any of `models`: the unit allows this, so an SD card moved
    from a Pi 4 to a Pi 5 still starts the board."""
    each = [needs(profile, m) for m in models]
    devices = tuple(dict.fromkeys(d for n in each for d in n.devices))
    return Needs(
        profile.name,
        tuple(models),
        devices,
        any(n.root for n in each),
        tuple(dict.fromkeys(i for n in each for i in n.on)),
        {k: v for n in each for k, v in n.off.items()},
        tuple(dict.fromkeys(line for n in each for line in n.config_lines)),
        each[0].pins if each else {},
    )
