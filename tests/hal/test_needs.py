"""What each profile asks of each supported Pi: devices, groups, root, interfaces, clocks."""

from __future__ import annotations

from pathlib import Path

import pytest

from navakankari.hal import ProfileError, dump_profile, load_profile
from navakankari.hal.needs import MODELS, model_named, needs, unit_needs
from navakankari.hal.profile import parse_profile

PI3B, PI3, PI4, ZERO2, PI5 = MODELS


def _devices(n) -> list[str]:
    return [d.path for d in n.devices]


def test_models_are_read_from_the_device_tree_string() -> None:
    assert model_named("Raspberry Pi 4 Model B Rev 1.4\x00") is PI4
    assert model_named("Raspberry Pi 5 Model B Rev 1.0\x00") is PI5
    assert model_named("Raspberry Pi 3 Model B Plus Rev 1.3\x00") is PI3
    assert model_named("Raspberry Pi Zero 2 W Rev 1.0\x00") is ZERO2
    assert model_named("Raspberry Pi 3 Model B Rev 1.2") is PI3B
    assert model_named("Raspberry Pi 2 Model B Rev 1.1") is None


def test_pwm_leds_need_root_the_mailbox_and_mem_on_a_pi_1_to_4_but_pio_on_a_pi_5() -> None:
    profile = load_profile("direct-24")
    for model in (PI3, PI4, ZERO2):
        n = needs(profile, model)
        assert _devices(n) == ["/dev/gpiochip*", "/dev/vcio", "/dev/mem"] and n.root
        assert set(n.off) == {"i2c", "spi", "uart", "audio"}
        assert "GPIO2 is sensor a7" in n.off["i2c"] and "GPIO14 is sensor e4" in n.off["uart"]
    pi5 = needs(profile, PI5)
    assert _devices(pi5) == ["/dev/gpiochip*", "/dev/pio0"] and not pi5.root
    assert pi5.groups == ("gpio",) and "audio" not in pi5.off


def test_spi_leds_need_spi_on_and_the_core_clock_of_each_model() -> None:
    profile = load_profile("mcp23017-24")
    assert needs(profile, PI3).config_lines == ("core_freq=250",)
    assert needs(profile, ZERO2).config_lines == ("core_freq=250",)
    assert needs(profile, PI4).config_lines == ("core_freq_min=500",)
    assert needs(profile, PI5).config_lines == ()
    n = needs(profile, PI5)
    assert _devices(n) == ["/dev/i2c-1", "/dev/gpiochip*", "/dev/spidev0.0"]
    assert n.on == ("i2c", "spi") and n.off == {} and n.groups == ("gpio", "i2c", "spi")


@pytest.mark.parametrize("name", ["matrix-spi-24", "direct-spi-19", "mcp23017-24"])
def test_the_pi5_ready_profiles_need_no_root_and_keep_spi0_free(name: str) -> None:
    n = unit_needs(load_profile(name))
    assert not n.root and "spi" in n.on and "spi" not in n.off
    uses = {pin: use for pin, use in n.pins.items() if pin in (7, 8, 9, 10, 11)}
    assert set(uses) == {7, 8, 9, 10, 11} and all("SPI0" in use for use in uses.values())


def test_a_neopixel_chain_on_gpio10_uses_rpi_ws281x_spi_mode() -> None:
    text = dump_profile(load_profile("matrix-24")).replace("pin = 18", "pin = 10")
    n = needs(parse_profile(text), PI4)
    assert _devices(n) == ["/dev/gpiochip*", "/dev/spidev0.0", "/dev/gpiomem"]
    assert not n.root and n.groups == ("gpio", "spi") and n.config_lines == ("core_freq_min=500",)


def test_a_neopixel_chain_on_gpio10_reserves_all_of_spi0(tmp_path: Path) -> None:
    text = dump_profile(load_profile("matrix-24")).replace("pin = 18", "pin = 10")
    text = text.replace("columns = [4, 17,", "columns = [8, 17,")
    path = tmp_path / "board.toml"
    path.write_text(text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("pin = 10"))
    assert info.value.line == line
    assert "GPIO8 is used twice: matrix column 0 and SPI0" in str(info.value)
