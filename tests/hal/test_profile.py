"""The wiring-profile loader: shipped profiles load, and every mistake names file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from navakankari.hal import Profile, ProfileError, dump_profile, load_profile, profile_names
from navakankari.hal.profile import GpioSensorConfig, parse_profile
from navakankari.wiring import PROFILE_DIR

SHIPPED = ["direct-19", "direct-24", "direct-spi-19", "matrix-24", "matrix-spi-24", "mcp23017-24", "sim-19",
           "sim-24", "sim-25"]

GOOD = """\
[board]
name = "three points"
points = ["a1", "b2", "c3"]

[sensors]
backend = "gpiozero"

[sensors.pins]
a1 = 4
b2 = 5
c3 = 6

[leds]
backend = "neopixel"
pin = 18
brightness = 0.2

[leds.index]
a1 = 0
b2 = 1
c3 = 2
"""


def _error(text: str, tmp_path: Path) -> ProfileError:
    path = tmp_path / "board.toml"
    path.write_text(text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    return info.value


def test_every_shipped_profile_loads() -> None:
    assert profile_names() == SHIPPED
    for name in SHIPPED:
        profile = load_profile(name)
        assert set(profile.leds.index) == set(profile.points)
        assert len(profile.points) == int(name.rsplit("-", 1)[1])


def test_a_good_profile_loads_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text(GOOD)
    profile = load_profile(path)
    assert profile.points == ("a1", "b2", "c3")
    assert profile.sensors == GpioSensorConfig({"a1": 4, "b2": 5, "c3": 6})
    assert profile.leds.brightness == 0.2 and profile.leds.count == 3
    assert profile.source == str(path)


@pytest.mark.parametrize("name", SHIPPED)
def test_dump_reads_back_equal(name: str) -> None:
    profile = load_profile(name)
    assert parse_profile(dump_profile(profile)) == profile


def test_shipped_profiles_are_what_dump_writes_after_their_comments() -> None:
    for path in PROFILE_DIR.glob("*.toml"):
        text = path.read_text()
        body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
        assert body == dump_profile(load_profile(path)), path.name


@pytest.mark.parametrize(
    ("old", "new", "line", "key", "problem"),
    [
        ("c3 = 6\n", "c3 = 6\nz9 = 7\n", 12, "[sensors.pins] z9", "unknown point 'z9'"),
        ("b2 = 5\n", "", 8, "[sensors.pins]", "missing point b2"),
        ("c3 = 6\n", "c3 = 4\n", 11, "[sensors.pins] c3", "GPIO4 is used twice: sensor a1 and sensor c3"),
        ("b2 = 5\n", "b2 = 28\n", 10, "[sensors.pins] b2", "not on the Pi's header"),
        ("b2 = 5\n", "b2 = 1\n", 10, "[sensors.pins] b2", "reserved for ID_SC (HAT ID EEPROM)"),
        ("b2 = 5\n", "b2 = 18\n", 15, "[leds] pin", "GPIO18 is used twice: sensor b2 and LED data"),
        ("pin = 18\n", "pin = 17\n", 15, "[leds] pin", "GPIO17 cannot drive WS2812 LEDs"),
        ("b2 = 1\nc3 = 2\n", "b2 = 1\nc3 = 3\n", 21, "[leds.index] c3", "LED index 3 out of range 0..2"),
        (
            "b2 = 1\nc3 = 2\n",
            "b2 = 1\nc3 = 1\n",
            21,
            "[leds.index] c3",
            "LED index 1 is used twice: b2 and c3",
        ),
        ('backend = "gpiozero"', 'backend = "pigpio"', 6, "[sensors] backend", "unknown backend 'pigpio'"),
        ('backend = "neopixel"', 'backend = "apa102"', 14, "[leds] backend", "unknown backend 'apa102'"),
        ("brightness = 0.2", "brightness = 1.5", 16, "[leds] brightness", "must be a number within 0..1"),
        ('"b2", "c3"]', '"b2", "b2"]', 3, "[board] points", "point 'b2' listed twice"),
    ],
)
def test_each_mistake_names_file_line_key_and_problem(
    tmp_path: Path, old: str, new: str, line: int, key: str, problem: str
) -> None:
    assert old in GOOD
    error = _error(GOOD.replace(old, new, 1), tmp_path)
    assert str(error).startswith(f"{tmp_path / 'board.toml'}:{line}: {key}: ")
    assert problem in error.problem
    assert (error.line, error.key) == (line, key)


def test_toml_syntax_error_reports_tomllibs_line(tmp_path: Path) -> None:
    error = _error(GOOD.replace("b2 = 5", "b2 = = 5"), tmp_path)
    assert error.line == 10 and error.key == "toml"
    assert "line 10" in error.problem


def test_missing_table_is_named(tmp_path: Path) -> None:
    error = _error(GOOD.split("[leds]")[0], tmp_path)
    assert error.key == "[leds]" and "missing table [leds]" in error.problem


def test_matrix_cells_and_spi_pins_are_checked(tmp_path: Path) -> None:
    matrix = (PROFILE_DIR / "matrix-24.toml").read_text()
    error = _error(matrix.replace("d7 = [0, 0]", "d7 = [0, 1]"), tmp_path)
    assert error.key == "[sensors.cells] g7" and "cell [0, 1] is used twice: d7 and g7" in error.problem
    error = _error(matrix.replace("columns = [4, 17, 27, 22", "columns = [4, 17, 27, 5"), tmp_path)
    assert error.key == "[sensors] columns"
    assert "GPIO5 is used twice: matrix row 0 and matrix column 3" in error.problem
    mcp = (PROFILE_DIR / "mcp23017-24.toml").read_text()
    error = _error(mcp.replace("interrupt_pin = 17", "interrupt_pin = 9"), tmp_path)
    assert error.key == "[leds] pin" and "GPIO9 is used twice: expander INT and SPI0" in error.problem
    error = _error(mcp.replace("interrupt_pin = 17", "interrupt_pin = 3"), tmp_path)
    assert "GPIO3 is used twice: I2C SCL and expander INT" in error.problem


def test_unknown_profile_name_lists_the_shipped_ones() -> None:
    with pytest.raises(ProfileError, match="direct-24"):
        load_profile("no-such-board")


def test_profile_is_a_frozen_value() -> None:
    profile = load_profile("sim-19")
    assert isinstance(profile, Profile)
    with pytest.raises(AttributeError):
        profile.name = "x"  # type: ignore[misc]


def test_profile_gpios_are_the_sensors_and_the_leds_pins() -> None:
    profile = load_profile("matrix-spi-24")
    gpios = profile.gpios()
    assert gpios[5] == "matrix row 0" and gpios[26] == "matrix column 7"
    assert gpios[10] == "LED data (SPI0)" and gpios[11] == "SPI0"
    assert gpios == {**profile.sensors.gpios(), **profile.leds.gpios()}
    assert load_profile("sim-24").gpios() == {}
