"""`navakankari doctor` on fake Raspberry Pis: folders laid out as the Pi's files are.

A correctly set-up Pi of each model and profile passes; then one setting at a time is broken
and the doctor must name it and its fix.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import pytest
from navakankari.firmware.cli import main as cli
from navakankari.firmware.system import doctor
from navakankari.firmware.system.doctor import Doctor
from navakankari.firmware.system.findings import Finding, fix_lines
from navakankari.firmware.system.pi_files import gpiod_line_users, parse_config_txt
from navakankari.firmware.system.service import render_unit
from navakankari.hal import load_profile
from navakankari.hal.needs import MODELS, PiModel, needs

PI3B, PI3, PI4, ZERO2, PI5 = MODELS
PROFILES = ["direct-24", "direct-19", "matrix-24", "mcp23017-24", "matrix-spi-24", "direct-spi-19"]
SCRIPT = "/opt/navakankari/bin/navakankari"
CONFIG = "/etc/navakankari/navakankari.toml"

# Raspberry Pi OS Bookworm's config.txt, as the image ships it (comments shortened).
STOCK_CONFIG = """\
# For more options and information see http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""
CMDLINE = "console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait quiet\n"


class FakePi:
    """A Pi set up as wiring/INSTALL.md says, for `profile` on `model`."""

    def __init__(self, root: Path, model: PiModel, profile: str) -> None:
        self.root = root
        self.model = model
        self.profile = load_profile(profile)
        self.needs = needs(self.profile, model)
        self.state = "active"
        self.users: dict[int, str] | None = {}
        self.missing: set[str] = set()
        root.chmod(0o755)  # "/" of a Pi; pytest makes its folders 0700
        gid = os.getgid()
        self.write("proc/device-tree/model", f"{model.name} Rev 1.0\x00")
        lines = [f"dtparam={'i2c_arm' if i == 'i2c' else i}=on" for i in self.needs.on]
        lines += [f"dtparam={'i2c_arm' if i == 'i2c' else i}=off" for i in self.needs.off
                  if i in ("i2c", "spi", "audio", "i2s")]
        lines += list(self.needs.config_lines)
        self.write("boot/firmware/config.txt", STOCK_CONFIG + "\n".join(lines) + "\n")
        self.write("boot/firmware/cmdline.txt", CMDLINE)
        modules = ["spidev", "i2c_dev", "vc4", "brcmfmac"]
        if "audio" not in self.needs.off:
            modules.append("snd_bcm2835")
        self.write("proc/modules", "".join(f"{m} 16384 0 - Live 0x0\n" for m in modules))
        self.write("etc/group", f"root:x:0:\ngpio:x:{gid}:pi,navakankari\nspi:x:{gid}:pi,navakankari\n"
                   f"i2c:x:{gid}:pi,navakankari\naudio:x:{gid}:pi,navakankari\n"
                   "navakankari:x:999:\npi:x:1000:\n")
        self.write("etc/passwd", "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000::/home/pi:/bin/bash\n"
                   "navakankari:x:999:999::/nonexistent:/usr/sbin/nologin\n")
        self.dev("gpiochip0")
        self.dev("gpiochip4")
        # A USB speaker (the jack's PWM may be the LEDs'), espeak-ng and aplay installed.
        self.dev("snd/controlC0")
        self.dev("snd/pcmC0D0p")
        self.write("proc/asound/cards", " 0 [Device         ]: USB-Audio - USB2.0 Device\n"
                   "                      Generic USB2.0 Device at usb-xhci-hcd.0-1, full speed\n")
        for program in ("usr/bin/espeak-ng", "usr/bin/aplay"):
            self.write(program, "", mode=0o755)
        for voice in ("lang/gmw/en", "en_dict", "lang/inc/gu", "gu_dict"):
            self.write(f"usr/lib/aarch64-linux-gnu/espeak-ng-data/{voice}", "")
        for i in self.needs.on:
            self.dev({"spi": "spidev0.0", "i2c": "i2c-1"}[i])
        for device in self.needs.devices:
            if "*" not in device.path and device.path != "/dev/i2c-1":
                self.dev(device.path.removeprefix("/dev/"))
        self.write(SCRIPT[1:], "#!/opt/navakankari/bin/python\n", mode=0o755)
        self.write(CONFIG[1:], "[board]\n", mode=0o644)
        self.install_unit(SCRIPT)

    def write(self, rel: str, text: str, mode: int = 0o644) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in [path.parent, *path.parent.parents]:
            if parent == self.root:
                break
            parent.chmod(0o755)
        path.write_text(text)
        path.chmod(mode)
        return path

    def dev(self, name: str, mode: int = 0o660) -> None:
        self.write(f"dev/{name}", "", mode)

    def install_unit(self, script: str, profile: str | None = None) -> None:
        # What `service install` writes on this model.
        chosen = load_profile(profile) if profile else self.profile
        unit = render_unit([script], config=Path(CONFIG), needs=needs(chosen, self.model))
        self.write("etc/systemd/system/navakankari.service", unit)

    def edit(self, rel: str, append: str = "", replace: tuple[str, str] | None = None) -> None:
        path = self.root / rel
        text = path.read_text()
        if replace:
            text = text.replace(*replace)
        path.write_text(text + append)

    def doctor(self) -> Doctor:
        return Doctor(self.root, self.profile, Path(CONFIG), service_state=lambda: self.state,
                      line_users=lambda root, pins: self.users,
                      has_module=lambda name: name not in self.missing)

    def problems(self) -> list[Finding]:
        return [f for f in self.doctor().run() if f.blocking]


@pytest.fixture
def fake_pi(tmp_path: Path):
    return functools.partial(FakePi, tmp_path)


@pytest.mark.parametrize("model", MODELS, ids=[m.key for m in MODELS])
@pytest.mark.parametrize("profile", PROFILES)
def test_a_correctly_set_up_pi_passes(fake_pi, model, profile) -> None:
    pi = fake_pi(model, profile)
    findings = pi.doctor().run()
    assert [f for f in findings if f.blocking] == []
    assert fix_lines(findings) == []
    assert {"model", "service", "pins"} <= {f.check for f in findings}


def _only(pi: FakePi, check: str) -> Finding:
    problems = pi.problems()
    assert [f.check for f in problems] == [check], problems
    return problems[0]


def test_i2c_on_under_direct_sensors_is_named_with_its_line(fake_pi) -> None:
    pi = fake_pi(PI4, "direct-24")
    pi.edit("boot/firmware/config.txt", "dtparam=i2c_arm=on\n",
            replace=("dtparam=i2c_arm=off\n", ""))
    f = _only(pi, "i2c")
    assert "GPIO2 (sensor a7)" in f.message and f.lines == ("dtparam=i2c_arm=off",)
    assert fix_lines([f]) == ["[all]", "dtparam=i2c_arm=off"]


def test_the_serial_console_on_the_sensor_pins(fake_pi) -> None:
    pi = fake_pi(ZERO2, "direct-24")
    pi.edit("boot/firmware/config.txt", "enable_uart=1\n")
    pi.edit("boot/firmware/cmdline.txt", replace=("console=tty1", "console=serial0,115200 console=tty1"))
    f = _only(pi, "serial")
    assert "GPIO14 (sensor e4)" in f.message and "short its TXD" in f.message
    assert f.lines == ("enable_uart=0",) and "remove console=serial0,115200 from cmdline.txt" in f.fix


def test_a_serial_console_left_in_cmdline_is_only_a_note(fake_pi) -> None:
    pi = fake_pi(PI4, "direct-24")
    pi.edit("boot/firmware/cmdline.txt", replace=("console=tty1", "console=serial0,115200 console=tty1"))
    assert pi.problems() == []
    assert any(f.check == "serial" and f.note for f in pi.doctor().run())


@pytest.mark.parametrize("model, profile, setting, check, why", [
    (PI3, "direct-24", "spi", "spi", "GPIO7 (sensor f6)"),
    (PI4, "matrix-24", "audio", "audio", "PWM block"),
])
def test_an_interface_on_that_must_be_off(fake_pi, model, profile, setting, check, why) -> None:
    pi = fake_pi(model, profile)
    pi.edit("boot/firmware/config.txt", replace=(f"dtparam={setting}=off", f"dtparam={setting}=on"))
    f = _only(pi, check)
    assert why in f.message and f.lines == (f"dtparam={setting}=off",)


def test_the_audio_driver_still_loaded_asks_for_the_blacklist(fake_pi) -> None:
    pi = fake_pi(PI3, "direct-19")
    pi.edit("proc/modules", "snd_bcm2835 24576 1 - Live 0x0\n")
    f = _only(pi, "audio")
    assert "blacklist snd_bcm2835" in f.fix and "/etc/modprobe.d/snd-blacklist.conf" in f.fix


def test_one_wire_on_a_sensor_pin(fake_pi) -> None:
    pi = fake_pi(PI4, "direct-24")
    pi.edit("boot/firmware/config.txt", "dtoverlay=w1-gpio\n")
    f = _only(pi, "1-wire")
    assert "GPIO4, which is sensor g7" in f.message and "delete the line dtoverlay=w1-gpio" in f.fix


@pytest.mark.parametrize("model, line", [(PI3, "core_freq=250"), (ZERO2, "core_freq=250"),
                                         (PI4, "core_freq_min=500")])
def test_spi_leds_without_the_core_clock(fake_pi, model, line) -> None:
    pi = fake_pi(model, "mcp23017-24")
    pi.edit("boot/firmware/config.txt", replace=(line + "\n", ""))
    f = _only(pi, "core clock")
    assert f.lines == (line,) and model.name in f.message


def test_spi_and_i2c_off_for_the_expander_profile(fake_pi) -> None:
    pi = fake_pi(PI5, "mcp23017-24")
    pi.edit("boot/firmware/config.txt", replace=("dtparam=i2c_arm=on\ndtparam=spi=on\n", ""))
    problems = pi.problems()
    assert [f.check for f in problems] == ["spi", "i2c"]
    assert fix_lines(problems) == ["[all]", "dtparam=spi=on", "dtparam=i2c_arm=on"]


def test_spi_on_but_not_yet_rebooted(fake_pi) -> None:
    pi = fake_pi(PI4, "matrix-spi-24")
    (pi.root / "dev/spidev0.0").unlink()
    f = _only(pi, "spi")
    assert "reboot" in f.fix and f.lines == ()


def test_a_setting_in_another_models_section_does_not_count(fake_pi) -> None:
    pi = fake_pi(PI3, "matrix-spi-24")
    pi.edit("boot/firmware/config.txt", replace=("core_freq=250", "[pi4]\ncore_freq=250\n[all]"))
    assert _only(pi, "core clock").lines == ("core_freq=250",)


def test_the_service_user_missing_a_group(fake_pi) -> None:
    pi = fake_pi(PI4, "mcp23017-24")
    pi.edit("etc/group", replace=("spi:x:" + str(os.getgid()) + ":pi,navakankari",
                                  "spi:x:" + str(os.getgid()) + ":pi"))
    f = _only(pi, "groups")
    assert "navakankari is not in spi" in f.message and f.fix == "sudo usermod -aG spi navakankari"


def test_a_pi5_pio_device_only_root_may_open(fake_pi) -> None:
    pi = fake_pi(PI5, "direct-24")
    (pi.root / "dev/pio0").chmod(0o600)
    f = _only(pi, "devices")
    assert "/dev/pio0" in f.message and 'SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"' in f.fix


def test_pwm_leds_need_a_root_unit(fake_pi) -> None:
    pi = fake_pi(PI4, "direct-24")
    pi.install_unit(SCRIPT, profile="mcp23017-24")
    f = _only(pi, "user")
    assert "need root" in f.message and "service install" in f.fix


def test_the_service_not_installed_or_not_running(fake_pi) -> None:
    pi = fake_pi(PI4, "mcp23017-24")
    pi.state = "failed"
    assert "journalctl -u navakankari" in _only(pi, "service").fix
    (pi.root / "etc/systemd/system/navakankari.service").unlink()
    f = _only(pi, "service")
    assert "not installed" in f.message and f"service install --config {CONFIG}" in f.fix


def test_the_spi_drivers_own_chip_select_lines_are_not_a_conflict(fake_pi) -> None:
    pi = fake_pi(PI3B, "matrix-spi-24")
    pi.state = "inactive"
    pi.users = {7: "spi-bcm2835", 8: "spi-bcm2835"}
    assert [f.check for f in pi.problems()] == ["service"]
    pi.users = {7: "spi-bcm2835", 17: "spi-bcm2835"}  # a matrix column is not SPI0's
    problems = pi.problems()
    assert [f.check for f in problems] == ["service", "pins"]
    assert "GPIO17" in problems[1].message and "GPIO7" not in problems[1].message


def test_a_venv_in_a_closed_home_folder(fake_pi) -> None:
    pi = fake_pi(PI4, "mcp23017-24")
    script = "/home/pi/venv/bin/navakankari"
    pi.write(script[1:], "#!/home/pi/venv/bin/python\n", mode=0o755)
    (pi.root / "home/pi").chmod(0o700)
    pi.install_unit(script)
    f = _only(pi, "install")
    assert "navakankari cannot read /home/pi/venv/bin/navakankari: /home/pi" in f.message
    assert "/opt/navakankari" in f.fix


def test_pins_held_by_another_program_but_not_by_the_service(fake_pi) -> None:
    pi = fake_pi(PI4, "matrix-spi-24")
    pi.users = {17: "gpio-ir"}
    pi.state = "active"
    assert pi.problems() == []  # the running service holds its own pins
    pi.state = "inactive"
    problems = pi.problems()
    assert [f.check for f in problems] == ["service", "pins"]
    assert "GPIO17 (matrix column 1) by 'gpio-ir'" in problems[1].message


@pytest.mark.parametrize("model, module", [(PI4, "_rpi_ws281x"), (PI5, "adafruit_raspberry_pi5_neopixel_write")])
def test_the_led_driver_missing_from_the_install(fake_pi, model, module) -> None:
    pi = fake_pi(model, "direct-24")
    pi.missing = {module}
    f = _only(pi, "packages")
    assert module in f.message and "pip install" in f.fix


def test_an_unsupported_model_is_told_which_models_and_why(fake_pi) -> None:
    pi = fake_pi(PI4, "direct-24")
    pi.write("proc/device-tree/model", "Raspberry Pi 2 Model B Rev 1.1\x00")
    f = _only(pi, "model")
    assert "'Raspberry Pi 2 Model B Rev 1.1'" in f.message
    assert "Raspberry Pi 3 Model B, Raspberry Pi 3 Model B Plus" in f.fix and "64-bit" in f.fix


def test_the_plain_3b_is_a_3b_not_a_3b_plus(fake_pi) -> None:
    pi = fake_pi(PI3B, "matrix-spi-24")
    pi.write("proc/device-tree/model", "Raspberry Pi 3 Model B Rev 1.2\x00")
    assert pi.problems() == []


def test_the_older_os_keeps_config_txt_in_boot(fake_pi) -> None:
    pi = fake_pi(PI3, "mcp23017-24")
    (pi.root / "boot/firmware/config.txt").rename(pi.root / "boot/config.txt")
    (pi.root / "boot/firmware/cmdline.txt").rename(pi.root / "boot/cmdline.txt")
    assert pi.problems() == []


def test_config_txt_later_lines_win_and_params_split() -> None:
    boot = parse_config_txt("dtparam=i2c_arm=on,spi=on\ndtparam=spi=off # no\n[pi5]\ncore_freq=1\n", PI4)
    assert boot.param_on("i2c_arm") and not boot.param_on("spi") and "core_freq" not in boot.settings


def _running_service(monkeypatch) -> None:
    """The command's Doctor sees the service running, no pin held, every package there."""
    monkeypatch.setattr(doctor, "Doctor", functools.partial(
        Doctor, service_state=lambda: "active", line_users=lambda root, pins: {},
        has_module=lambda name: True))


def test_the_command_exits_non_zero_and_prints_the_lines(fake_pi, capsys, monkeypatch) -> None:
    pi = fake_pi(PI4, "direct-24")
    _running_service(monkeypatch)
    config = pi.write(CONFIG[1:], '[board]\nprofile = "direct-24"\n')
    assert cli.main(["doctor", "--root", str(pi.root), "--config", str(config)]) == 0
    assert "Nothing would stop the board." in capsys.readouterr().out
    pi.edit("boot/firmware/config.txt", replace=("dtparam=audio=off", "dtparam=audio=on"))
    pi.edit("boot/firmware/config.txt", "dtparam=i2c_arm=on\n")
    assert cli.main(["doctor", "--root", str(pi.root)]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM audio:" in out and "PROBLEM i2c:" in out and "2 problems would stop" in out
    assert cli.main(["doctor", "--root", str(pi.root), "--fix-lines"]) == 1
    assert capsys.readouterr().out.splitlines() == ["[all]", "dtparam=i2c_arm=off", "dtparam=audio=off"]


def test_a_variant_the_profile_has_no_points_for(fake_pi, capsys, monkeypatch) -> None:
    pi = fake_pi(PI3B, "direct-spi-19")
    _running_service(monkeypatch)
    config = pi.write(CONFIG[1:], '[game]\nvariant = "navakankari"\n'
                      '[board]\nprofile = "direct-spi-19"\n')
    assert cli.main(["doctor", "--root", str(pi.root), "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM variant: navakankari is played on the morris board" in out, out
    assert "nau-keti-keta" in out
    config.write_text('[game]\nvariant = "nau-keti-keta"\n[board]\nprofile = "direct-spi-19"\n')
    assert cli.main(["doctor", "--root", str(pi.root), "--config", str(config)]) == 0


def test_line_owners_unreadable_is_a_note(fake_pi) -> None:
    pi = fake_pi(PI4, "matrix-spi-24")
    assert gpiod_line_users(pi.root, [17]) is None  # no real GPIO controller here
    pi.users = None
    findings = pi.doctor().run()
    assert not any(f.blocking for f in findings)
    assert any(f.check == "pins" and f.note and "gpio group" in f.message for f in findings)


def test_selftest_is_stopped_early_with_the_reason(fake_pi, monkeypatch) -> None:
    monkeypatch.delenv("NAVAKANKARI_BACKEND", raising=False)
    pi = fake_pi(PI4, "direct-24")
    run = functools.partial(doctor.preflight, pi.profile, "selftest", root=pi.root)
    assert "sudo systemctl stop navakankari" in run(euid=0, service_state=lambda: "active")
    why = run(euid=1000, service_state=lambda: "inactive")
    assert "GPIO18 need root on a Raspberry Pi 4 Model B" in why and "sudo " in why
    assert run(euid=0, service_state=lambda: "inactive") is None
    pi5 = fake_pi(PI5, "direct-24")
    assert doctor.preflight(pi5.profile, "selftest", root=pi5.root, euid=1000,
                            service_state=lambda: "inactive") is None
    monkeypatch.setenv("NAVAKANKARI_BACKEND", "sim")  # the simulated board needs neither
    assert run(euid=1000, service_state=lambda: "active") is None


def test_the_packages_are_looked_up_in_this_interpreter(fake_pi) -> None:
    pi = fake_pi(PI4, "matrix-24")
    found = {f.message for f in Doctor(pi.root, pi.profile, Path(CONFIG)).packages(PI4)}
    assert "gpiod is installed" in found  # the dev extra installs it, as the pi extra does
    assert "RPi.GPIO is missing: the matrix scan uses the RPi.GPIO API" in found  # not on x86


def test_fix_lines_says_what_no_line_puts_right(tmp_path, capsys) -> None:
    # Not a Pi: a problem, and no config.txt line mends it. Before, this printed nothing.
    assert cli.main(["doctor", "--root", str(tmp_path), "--fix-lines"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # stdout stays fit to append to config.txt
    assert "navakankari doctor: no config.txt line to add, and these problems are left:" \
        in captured.err
    assert "model: not a supported Raspberry Pi" in captured.err


def test_fix_lines_with_lines_names_what_they_leave(fake_pi, capsys, monkeypatch) -> None:
    pi = fake_pi(PI4, "direct-24")
    monkeypatch.setattr(doctor, "Doctor", functools.partial(
        Doctor, service_state=lambda: "failed", line_users=lambda root, pins: {},
        has_module=lambda name: True))
    pi.edit("boot/firmware/config.txt", replace=("dtparam=audio=off", "dtparam=audio=on"))
    assert cli.main(["doctor", "--root", str(pi.root), "--fix-lines"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["[all]", "dtparam=audio=off"]
    assert "these lines do not put right:" in captured.err and "service:" in captured.err


def test_doctor_says_when_the_configuration_is_absent(tmp_path, fake_pi, capsys) -> None:
    cli.main(["doctor", "--root", str(tmp_path)])
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("config /etc/navakankari/navakankari.toml (absent: the built-in defaults)")
    pi = fake_pi(PI4, "direct-24")
    cli.main(["doctor", "--root", str(pi.root)])
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("config /etc/navakankari/navakankari.toml")


# -- the speaker ----------------------------------------------------------------------------------
def _speech(pi: FakePi, **setting) -> list[Finding]:
    from navakankari.firmware.system.audio import SpeechSetting

    d = pi.doctor()
    d.speech = SpeechSetting(**setting)
    return [f for f in d.run() if f.check == "speech"]


def test_the_speaker_is_found_and_its_user_may_open_it(fake_pi) -> None:
    pi = fake_pi(PI4, "mcp23017-24")
    (f,) = _speech(pi, enabled=True, device="plughw:CARD=Device", language="gu")
    assert f.ok and "espeak-ng speaks gu on plughw:CARD=Device (cards: Device)" in f.message
    pi.edit("etc/group", replace=("audio:x:" + str(os.getgid()) + ":pi,navakankari",
                                  "audio:x:" + str(os.getgid()) + ":pi"))
    assert "navakankari is not in audio" in _only(pi, "groups").message
    pi.edit("etc/group", replace=("audio:x:" + str(os.getgid()) + ":pi",
                                  "audio:x:" + str(os.getgid()) + ":pi,navakankari"))
    (pi.root / "dev/snd/pcmC0D0p").chmod(0o600)
    f = _only(pi, "devices")
    assert "/dev/pcmC0D0p is not read-write for the audio group" in f.message


def test_speech_on_without_espeak_or_a_voice_or_a_card_is_named(fake_pi) -> None:
    pi = fake_pi(PI4, "mcp23017-24")
    (f,) = _speech(pi, enabled=True, language="kn")
    assert f.blocking and "espeak-ng has no voice for kn" in f.message
    (f,) = _speech(pi, enabled=True, device="plughw:CARD=Headphones")
    assert f.blocking and "names card Headphones, which is not here (cards: Device)" in f.message
    (pi.root / "proc/asound/cards").write_text("--- no soundcards ---\n")
    (f,) = _speech(pi, enabled=True)
    assert f.blocking and "no sound card" in f.message
    (pi.root / "usr/bin/aplay").unlink()
    (f,) = _speech(pi, enabled=True)
    assert f.blocking and f.message == "aplay missing: speech is on"
    assert f.fix == "sudo apt install espeak-ng alsa-utils"
    (f,) = _speech(pi, enabled=False)  # off: the menu or the page could still turn it on
    assert not f.ok and not f.blocking and "speech cannot be turned on" in f.message


def test_the_jack_is_not_for_speech_when_the_leds_drive_its_pwm(fake_pi) -> None:
    pi = fake_pi(PI4, "direct-24")  # NeoPixels on GPIO18: PWM, which the jack also uses
    (pi.root / "proc/asound/cards").write_text(
        " 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n"
        " 1 [Device         ]: USB-Audio - USB2.0 Device\n")
    (f,) = _speech(pi, enabled=True, device="plughw:CARD=Headphones")
    assert f.blocking and "the Pi's jack" in f.message and "PWM" in f.message
    (f,) = _speech(pi, enabled=True, device="hw:1,0")
    assert f.ok
    assert pi.problems() == []


@pytest.mark.parametrize("device, card", [("", None), ("default", None), ("null", None),
                                          ("plughw:CARD=Device,DEV=0", "Device"),
                                          ("hw:1,0", "1"), ("plughw:1", "1"),
                                          ('sysdefault:CARD="Headphones"', "Headphones")])
def test_the_card_an_alsa_device_names(device, card) -> None:
    from navakankari.firmware.system.audio import device_card

    assert device_card(device) == card


def test_the_command_reads_speech_from_the_configuration(fake_pi, capsys, monkeypatch) -> None:
    pi = fake_pi(PI4, "direct-24")
    _running_service(monkeypatch)
    config = pi.write(CONFIG[1:], '[speech]\nenabled = true\ndevice = "plughw:CARD=Headphones"\n')
    assert cli.main(["doctor", "--root", str(pi.root), "--config", str(config)]) == 1
    assert "PROBLEM speech: [speech] device 'plughw:CARD=Headphones' names card Headphones" \
        in capsys.readouterr().out
    config.write_text('[speech]\nenabled = true\ndevice = "plughw:CARD=Device"\n')
    assert cli.main(["doctor", "--root", str(pi.root), "--config", str(config)]) == 0
    assert "espeak-ng speaks en on plughw:CARD=Device" in capsys.readouterr().out


DOCTOR_TERMS = re.compile(
    r"^(?:ok|note|PROBLEM)\s+[\w -]+:|Raspberry Pi \d[^:;(),]*|`[^`]*`|\S*[/=_.]\S*|"
    r"\[\w+\]\s*\w+|sudo [^;()]*|journalctl[^;]*|pip install \S+|"
    r"\b(?:navakankari(?: doctor)?|espeak-ng|aplay|GPIO\d*|SPI\d?|I2C\d?|I2S|PWM|PCM|LEDs?|USB|"
    r"HDMI|API|NeoPixels?|Blinka|MCP23017|TXD|venv|udev|Raspberry Pi(?: OS)?|Pi|Zero W?|"
    r"aarch64|wheels|lgpio|gpiod|gpioinfo|C core|doctor|selftest|calibrate|gpio|root|"
    r"ok|note|PROBLEM|1-Wire|bit|\w+-\w+)\b")
"""What stays as it is in every language in doctor's report: commands, files, settings, the
names of parts, interfaces and programs, and the report's marks and check names."""


@pytest.mark.parametrize("code", ["hi", "gu", "kn", "te", "mr", "bn", "ta"])
def test_doctor_reports_in_the_makers_language(fake_pi, code, capsys, monkeypatch) -> None:
    pi = fake_pi(PI4, "matrix-24")
    pi.edit("boot/firmware/config.txt", "dtparam=i2c_arm=on\nenable_uart=1\n",
            replace=("dtparam=audio=off", "dtparam=audio=on"))
    pi.edit("boot/firmware/config.txt", "dtoverlay=w1-gpio,gpiopin=17\n")
    pi.write("proc/asound/cards", "")
    pi.state, pi.users, pi.missing = "failed", {22: "gpio-ir"}, {"RPi.GPIO"}
    monkeypatch.setattr(doctor, "Doctor", functools.partial(
        Doctor, service_state=lambda: pi.state, line_users=lambda root, pins: pi.users,
        has_module=lambda name: name not in pi.missing))
    run = ["doctor", "--root", str(pi.root), "--profile", "matrix-24", "--language"]
    english = cli.main([*run, "en"]), capsys.readouterr().out
    said = cli.main([*run, code]), capsys.readouterr().out
    assert said[0] == english[0] == 1
    lines, before = said[1].splitlines(), english[1].splitlines()
    assert len(lines) == len(before) > 12

    def left(text: str) -> str:  # the profile's own name stays; its pins' uses are worded
        for name in sorted({pi.profile.name, pi.state}, key=len, reverse=True):
            text = text.replace(name, " ")
        return DOCTOR_TERMS.sub(" ", text)

    for line, was in zip(lines, before):
        assert line != was or not re.findall(r"[a-z]{3,}", left(was)), line
        assert re.findall(r"[A-Za-z]{3,}", left(line)) == [], line
