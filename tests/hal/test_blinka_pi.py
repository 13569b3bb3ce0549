"""The real Blinka on each supported Pi, as the board runs it: `BLINKA_FORCEBOARD` set and
`BLINKA_OS_AGNOSTIC` unset, in a fresh interpreter so nothing from this test run leaks in.

This is the one path that runs the library as a Pi would; everything else in tests/hal uses
the OS-agnostic board, which hides a missing platform package (gpiod: `import board` failed on
every Pi until the `pi` extra declared it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from navakankari.hal import load_profile
from navakankari.hal.needs import MODELS, needs

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
ON_A_PI = {"platform_machine": "aarch64", "sys_platform": "linux", "python_version": "3.11"}
UNUSED = {"adafruit-blinka-raspberry-pi-pwm"}  # pwmio only; nothing here imports it

PLAIN = "import board, busio, digitalio; print(type(board.D18).__module__)"

# Blinka tells a Pi 1-4 by the chip (BCM2XXX) and the revision code in /proc/cpuinfo, which a
# laptop lacks: BLINKA_FORCECHIP names the chip and the revision below stands in for the one
# line of /proc/cpuinfo. Everything else is the real library on its Raspberry Pi path.
PROBE = r"""
import json, os, sys
from adafruit_blinka.agnostic import detector
_cpuinfo = detector.get_cpuinfo_field
detector.get_cpuinfo_field = lambda f: sys.argv[1] if f == "Revision" else _cpuinfo(f)
import board, busio, digitalio
from adafruit_blinka.agnostic import detector
from adafruit_blinka.platform_dependencies import get_platform_dependencies
from navakankari.hal.board import open_leds, open_sensors
from navakankari.hal import load_profile

out = {
    "any_raspberry_pi": detector.board.any_raspberry_pi,
    "pin_module": type(board.D18).__module__,
    "pins": [p.id for p in (board.SDA, board.SCL, board.MOSI, board.SCLK, board.D18)],
    "requirements": [r for _, r in get_platform_dependencies(detector)],
}

def error(call):
    try:
        call()
    except Exception as exc:
        return [type(exc).__name__, str(exc)]
    return None

out["gpio"] = error(lambda: digitalio.DigitalInOut(board.D18))
out["spi_leds"] = error(lambda: open_leds(load_profile("mcp23017-24").leds))
out["i2c"] = error(lambda: busio.I2C(board.SCL, board.SDA))
out["pwm_leds"] = error(lambda: __import__("neopixel_write"))
print(json.dumps(out))
"""


REVISIONS = {"3B": "a02082", "3B+": "a020d3", "4B": "c03112", "Zero 2 W": "902120", "5": "d04170"}


def _run(board_id: str, *args: str, chip: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BLINKA_")}
    env["BLINKA_FORCEBOARD"] = board_id
    if chip:
        env["BLINKA_FORCECHIP"] = chip
    result = subprocess.run([sys.executable, "-c", *args], env=env, capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()[-1]


@pytest.mark.parametrize("model", MODELS, ids=[m.blinka_board for m in MODELS])
def test_import_board_busio_digitalio_as_a_maker_would(model) -> None:
    """Only BLINKA_FORCEBOARD: what `python -c "import board, busio, digitalio"` does."""
    assert _run(model.blinka_board, PLAIN) == \
        "adafruit_blinka.microcontroller.generic_linux.raspberry_pi_pin"


def _pi_extra() -> dict[str, Requirement]:
    extra = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]["pi"]
    reqs = [Requirement(r) for r in extra]
    return {r.name.lower().replace("_", "-"): r for r in reqs
            if r.marker is None or r.marker.evaluate(ON_A_PI)}


@pytest.fixture(scope="module", params=MODELS, ids=[m.blinka_board for m in MODELS])
def probed(request: pytest.FixtureRequest) -> tuple:
    model = request.param
    out = _run(model.blinka_board, PROBE, REVISIONS[model.key], chip="BCM2XXX")
    return model, json.loads(out)


def test_board_busio_and_digitalio_import_with_the_pi_pin_module(probed) -> None:
    model, out = probed
    assert out["any_raspberry_pi"]
    assert out["pin_module"] == "adafruit_blinka.microcontroller.generic_linux.raspberry_pi_pin"
    assert out["pins"] == [2, 3, 10, 11, 18]


def test_the_pi_extra_declares_what_blinka_asks_for_on_this_model(probed) -> None:
    model, out = probed
    declared = _pi_extra()
    for text in out["requirements"]:
        wanted = Requirement(text)
        name = wanted.name.lower().replace("_", "-")
        if name in UNUSED:
            continue
        assert name in declared, f"{model.key}: Blinka asks for {text}, the pi extra lacks it"
        if name == "gpiod":
            assert declared[name].specifier == wanted.specifier


def test_the_real_libraries_reach_for_the_devices_the_needs_table_names(probed) -> None:
    """On this laptop the Pi's devices are absent, so each library fails where it opens one:
    the device it names must be one the profile's needs (and so the unit) allow."""
    model, out = probed
    spi_devices = [d.path for d in needs(load_profile("mcp23017-24"), model).devices]
    if not Path("/dev/spidev0.0").exists():
        assert out["spi_leds"] == ["OSError", "/dev/spidev0.0 does not exist"]
        assert "/dev/spidev0.0" in spi_devices
    if not Path("/dev/i2c-1").exists():  # busio tries bus 1 for SCL/SDA and words the failure
        assert "(1, 3, 2)" in out["i2c"][1] and "Make sure I2C is enabled" in out["i2c"][1]
        assert "/dev/i2c-1" in spi_devices
    # No pinctrl-bcm*/rp1 gpiochip here: libgpiod finds no header controller for GPIO18.
    assert out["gpio"][0] in ("RuntimeError", "PermissionError")


def test_the_led_driver_blinka_wants_is_the_one_the_extra_installs_on_a_pi(probed) -> None:
    """x86 does not get rpi_ws281x or the Pi 5 PIO driver (markers), so Blinka names it."""
    model, out = probed
    wanted = "adafruit_raspberry_pi5_neopixel_write" if model.pi5 else "_rpi_ws281x"
    assert out["pwm_leds"][0] == "RuntimeError" and f"'{wanted}' was not found" in out["pwm_leds"][1]
    package = "adafruit-blinka-raspberry-pi5-neopixel" if model.pi5 else "rpi-ws281x"
    assert package in _pi_extra()


def test_import_board_turns_off_blinkas_interactive_installer(monkeypatch) -> None:
    from navakankari.hal.backends.blinka import SKIP_CHECK_ENV, import_board

    monkeypatch.delenv(SKIP_CHECK_ENV, raising=False)
    assert import_board().__name__ == "board"
    assert os.environ[SKIP_CHECK_ENV] == "1"
    monkeypatch.setenv(SKIP_CHECK_ENV, "0")  # a maker who wants Blinka's offer keeps it
    import_board()
    assert os.environ[SKIP_CHECK_ENV] == "0"
