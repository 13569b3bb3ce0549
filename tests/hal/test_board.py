"""Backend selection: argument, then NAVAKANKARI_BACKEND, then the profile."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from navakankari.hal import BackendError, open_board, load_profile
from navakankari.hal.backends.gpiozero_sensors import GpioZeroSensors
from navakankari.hal.backends.neopixel_leds import NeoPixelStrip
from navakankari.sim import ManualClock, SimulatedBoard

ROOT = Path(__file__).resolve().parents[2]


def test_environment_forces_the_simulator_for_any_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NAVAKANKARI_BACKEND", "sim")
    clock = ManualClock(3.0)
    with open_board(load_profile("matrix-24"), clock=clock) as board:
        assert isinstance(board.simulation, SimulatedBoard)
        events = []
        board.sensors.start(events.append)
        board.simulation.place("d5")
        assert board.sensors.read() == {"d5"} and events[0].t == 3.0
        board.leds.show({"d5": (255, 255, 255)})
        assert board.simulation.leds.lit == {"d5": (255, 255, 255)}
        assert board.leds.brightness == load_profile("matrix-24").leds.brightness


def test_sim_profiles_open_the_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NAVAKANKARI_BACKEND", raising=False)
    with open_board(load_profile("sim-19")) as board:
        assert board.sensors.points == load_profile("sim-19").points


def test_only_the_simulator_may_be_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NAVAKANKARI_BACKEND", "gpio")
    with pytest.raises(BackendError, match="NAVAKANKARI_BACKEND"):
        open_board(load_profile("sim-24"))


def test_real_profile_opens_real_backends(
    monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory, neopixel_capture: list[bytes]
) -> None:
    monkeypatch.delenv("NAVAKANKARI_BACKEND", raising=False)
    board = open_board(load_profile("direct-24"))
    assert isinstance(board.sensors, GpioZeroSensors)
    assert isinstance(board.leds, NeoPixelStrip)
    assert board.simulation is None
    board.close()
    board.close()
    assert neopixel_capture[-1] == bytes(72)  # closing turns the LEDs off


def test_importing_the_packages_loads_no_hardware_library() -> None:
    code = (
        "import sys, navakankari.hal, navakankari.sim, navakankari.hal.board;"
        "bad = {'gpiozero', 'RPi', 'board', 'neopixel', 'neopixel_spi', 'adafruit_mcp230xx', 'busio'};"
        "print(sorted(bad & {m.split('.')[0] for m in sys.modules}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("folder", ["hal", "sim"])
def test_hardware_and_simulator_know_no_game(folder: str) -> None:
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(("navakankari.engine", "navakankari.firmware")), path


def test_a_pin_in_use_is_a_backend_error(monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory) -> None:
    monkeypatch.delenv("NAVAKANKARI_BACKEND", raising=False)
    from gpiozero import DigitalInputDevice

    with DigitalInputDevice(7):
        with pytest.raises(BackendError, match="GPIO7|7"):
            open_board(load_profile("direct-24"))
