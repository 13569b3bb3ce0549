from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from navakankari.firmware.cli import main as cli
from navakankari.firmware.system.service import (
    install_steps,
    render_unit,
    run_steps,
    script_path,
    shipped_unit,
    uninstall_steps,
)
from navakankari.hal import load_profile, profile_names
from navakankari.hal.needs import MODELS, unit_needs

def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def test_the_shipped_unit_has_what_the_board_needs():
    lines = _lines(shipped_unit())
    for want in ("Type=notify", "NotifyAccess=main", "Restart=on-failure", "WatchdogSec=15",
                 "User=navakankari", "SupplementaryGroups=gpio spi i2c",
                 "DeviceAllow=char-gpiochip rw", "DeviceAllow=char-spi rw",
                 "DeviceAllow=char-i2c rw", "StateDirectory=navakankari", "NoNewPrivileges=yes",
                 "ProtectSystem=strict"):
        assert want in lines, want
    assert not any(ln.startswith("PrivateDevices") for ln in lines)


def _devices(unit: str) -> list[str]:
    return [ln.partition("=")[2] for ln in _lines(unit) if ln.startswith("DeviceAllow=")]


def _unit(profile: str, **kw) -> str:
    return render_unit(["/opt/navakankari/bin/navakankari"], config=Path("/etc/navakankari/x.toml"),
                       needs=unit_needs(load_profile(profile)), **kw)


# What each shipped profile's backends open on a Pi 3B+, 4B, Zero 2 W or 5 (read in the
# libraries' sources; see navakankari.hal.needs), and the speaker's ALSA devices on a real
# board (speech may be turned on from the menu or the page): the unit allows these and nothing
# more.
EXPECTED = {
    "direct-24": (["char-gpiochip rw", "/dev/vcio rw", "/dev/mem rw", "/dev/pio0 rw",
                   "char-alsa rw"], "root", ""),
    "direct-19": (["char-gpiochip rw", "/dev/vcio rw", "/dev/mem rw", "/dev/pio0 rw",
                   "char-alsa rw"], "root", ""),
    "matrix-24": (["char-gpiochip rw", "/dev/vcio rw", "/dev/mem rw", "/dev/pio0 rw",
                   "char-alsa rw"], "root", ""),
    "mcp23017-24": (["/dev/i2c-1 rw", "char-gpiochip rw", "/dev/spidev0.0 rw", "char-alsa rw"],
                    "navakankari", "audio gpio i2c spi"),
    "matrix-spi-24": (["char-gpiochip rw", "/dev/spidev0.0 rw", "char-alsa rw"], "navakankari",
                      "audio gpio spi"),
    "direct-spi-19": (["char-gpiochip rw", "/dev/spidev0.0 rw", "char-alsa rw"], "navakankari",
                      "audio gpio spi"),
    "sim-24": ([], "navakankari", ""),
}


def test_every_shipped_profile_has_its_expected_devices():
    assert set(EXPECTED) | {"sim-19", "sim-25"} == set(profile_names())


@pytest.mark.parametrize("profile", sorted(EXPECTED))
def test_the_unit_allows_exactly_the_devices_the_profile_opens(profile):
    devices, user, groups = EXPECTED[profile]
    unit = _unit(profile)
    lines = _lines(unit)
    assert sorted(_devices(unit)) == sorted(devices)
    assert f"User={user}" in lines
    assert [ln for ln in lines if ln.startswith("SupplementaryGroups")] == \
        ([f"SupplementaryGroups={groups}"] if groups else [])
    assert "DevicePolicy=closed" in lines


def test_render_points_at_this_installation_and_root_only_when_asked():
    unit = _unit("mcp23017-24")
    assert "ExecStart=/opt/navakankari/bin/navakankari run --config /etc/navakankari/x.toml" in unit
    assert "User=navakankari" in unit and "DeviceAllow=/dev/mem" not in unit
    forced = _unit("mcp23017-24", root=True)
    assert "User=root" in forced and not any(ln.startswith("SupplementaryGroups") for ln in _lines(forced))


def test_install_writes_the_unit_and_enables_it(tmp_path):
    calls = []

    def runner(cmd, check):
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 0)

    steps = install_steps(needs=unit_needs(load_profile("mcp23017-24")),
                          config=tmp_path / "etc" / "navakankari.toml", unit_dir=tmp_path / "units")
    out: list[str] = []
    assert run_steps(steps, dry_run=False, out=out.append, runner=runner, which=lambda c: c) == 0
    unit = (tmp_path / "units" / "navakankari.service").read_text()
    assert f"ExecStart={script_path()[0]} run --config {tmp_path / 'etc' / 'navakankari.toml'}" in unit
    assert (tmp_path / "etc" / "navakankari.toml").exists()
    assert calls[0][0] == "sh" and "useradd" in calls[0][2] and "--groups audio,gpio,i2c,spi " in calls[0][2]
    assert calls[1:] == [["systemctl", "daemon-reload"],
                         ["systemctl", "enable", "--now", "navakankari.service"]]
    # A second install keeps the edited config.
    (tmp_path / "etc" / "navakankari.toml").write_text("[game]\n")
    run_steps(steps, dry_run=False, out=out.append, runner=runner, which=lambda c: c)
    assert (tmp_path / "etc" / "navakankari.toml").read_text() == "[game]\n"


def test_install_with_a_config_runs_the_unit_with_that_config(tmp_path, capsys):
    config = tmp_path / "board.toml"
    config.write_text('[board]\nprofile = "direct-24"\n')
    assert cli.main(["service", "install", "--dry-run", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    unit = out[out.index("[Unit]"):]
    assert f"ExecStart={script_path()[0]} run --config {config} --realtime\n" in unit
    assert sorted(_devices(unit)) == sorted(EXPECTED["direct-24"][0])
    assert "User=root" in unit and "useradd" not in out
    # The config exists, so the dry run says it is kept rather than printing what it would write.
    assert f"# {config} exists: kept as it is\n" in out
    assert f"cat > {config}" not in out and "[tracker]" not in out


def test_install_refuses_a_config_whose_profile_is_bad(tmp_path, capsys):
    config = tmp_path / "board.toml"
    config.write_text('[board]\nprofile = "no-such-profile"\n')
    assert cli.main(["service", "install", "--dry-run", "--config", str(config)]) == 2
    assert "no such profile" in capsys.readouterr().err


def test_install_refuses_a_variant_the_profile_has_no_points_for(tmp_path, capsys):
    config = tmp_path / "board.toml"
    config.write_text('[game]\nvariant = "navakankari"\n[board]\nprofile = "direct-spi-19"\n')
    assert cli.main(["service", "install", "--dry-run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "no sensors for a4, b4" in err and "nau-keti-keta" in err
    config.write_text('[game]\nvariant = "nau-keti-keta"\n[board]\nprofile = "direct-spi-19"\n')
    assert cli.main(["service", "install", "--dry-run", "--config", str(config)]) == 0


def test_the_unit_does_not_restart_a_configuration_that_cannot_work():
    from navakankari.firmware.daemon.config import EXIT_CONFIG
    from navakankari.firmware.store.database import EXIT_STORE_UNUSABLE

    lines = [line for line in shipped_unit().splitlines() if line.startswith("RestartPrevent")]
    assert lines == [f"RestartPreventExitStatus={EXIT_STORE_UNUSABLE} {EXIT_CONFIG}"]


def test_a_failing_command_stops_the_install(tmp_path):
    steps = uninstall_steps(tmp_path)
    out: list[str] = []
    rc = run_steps(steps, dry_run=False, out=out.append, which=lambda c: c,
                   runner=lambda cmd, check: subprocess.CompletedProcess(cmd, 5))
    assert rc == 5 and "failed" in out[-1]


def test_dry_run_prints_and_does_nothing(tmp_path, capsys):
    assert cli.main(["service", "install", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "systemctl enable --now navakankari.service" in out
    assert f"ExecStart={script_path()[0]} run --config /etc/navakankari/navakankari.toml" in out
    assert cli.main(["service", "uninstall", "--dry-run"]) == 0
    assert "systemctl disable --now navakankari.service" in capsys.readouterr().out
    assert cli.main(["service", "status", "--dry-run"]) == 0
    assert capsys.readouterr().out == "systemctl status navakankari.service --no-pager\n"


def test_on_a_pi_the_unit_follows_its_model(tmp_path):
    from navakankari.firmware.system.service import unit_needs_of

    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    pi5 = render_unit(["/x"], config=Path("/c.toml"), needs=unit_needs_of("direct-24", model))
    assert sorted(_devices(pi5)) == ["/dev/pio0 rw", "char-alsa rw", "char-gpiochip rw"]
    assert "User=navakankari" in pi5 and "SupplementaryGroups=audio gpio" in _lines(pi5)
    model.write_text("Raspberry Pi 4 Model B Rev 1.4\x00")
    pi4 = render_unit(["/x"], config=Path("/c.toml"), needs=unit_needs_of("direct-24", model))
    assert sorted(_devices(pi4)) == ["/dev/mem rw", "/dev/vcio rw", "char-alsa rw",
                                     "char-gpiochip rw"]
    assert "User=root" in pi4
    # Not a Pi (a dry run on a laptop): every supported model.
    every = unit_needs_of("direct-24", tmp_path / "absent")
    assert every.models == MODELS and every.root


def _quiet_install(monkeypatch) -> list[list[str]]:
    """Installs record their steps instead of running them."""
    from navakankari.firmware.system import service

    ran: list[list[str]] = []
    monkeypatch.setattr(service, "run_steps", lambda steps, dry_run: ran.append(
        [s.describe for s in steps]) or 0)
    return ran


def test_a_dry_run_off_a_pi_warns(tmp_path, capsys, monkeypatch):
    from navakankari.firmware.system import service

    monkeypatch.setattr(service, "MODEL_FILE", tmp_path / "absent")
    assert cli.main(["service", "install", "--dry-run"]) == 0
    captured = capsys.readouterr()
    assert "navakankari service: warning: not a supported Raspberry Pi " \
           f"({tmp_path / 'absent'} is missing)" in captured.err
    assert "[Service]" in captured.out
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 4 Model B Rev 1.4\x00")
    monkeypatch.setattr(service, "MODEL_FILE", model)
    assert cli.main(["service", "install", "--dry-run"]) == 0
    # (a checkout under /tmp draws its own warning about the venv; not this one's business)
    assert "Raspberry Pi" not in capsys.readouterr().err
    model.write_text("Raspberry Pi 2 Model B Rev 1.1\x00")
    assert cli.main(["service", "install", "--dry-run"]) == 0
    assert "(this is a Raspberry Pi 2 Model B Rev 1.1)" in capsys.readouterr().err


@pytest.mark.parametrize(("script", "config", "setting"), [
    ("/tmp/venv/bin/navakankari", None, "PrivateTmp=yes"),
    ("/var/tmp/nk/bin/navakankari", None, "PrivateTmp=yes"),
    ("/home/pi/venv/bin/navakankari", None, "ProtectHome=yes"),
    ("/opt/navakankari/bin/navakankari", "/home/pi/board.toml", "ProtectHome=yes"),
])
def test_what_the_unit_hides_is_refused(capsys, monkeypatch, script, config, setting):
    from navakankari.firmware.system import service

    monkeypatch.setattr(service, "script_path", lambda: [script])
    ran = _quiet_install(monkeypatch)
    hidden = config or script
    args = ["service", "install"] + (["--config", config] if config else [])
    assert cli.main([*args, "--dry-run"]) == 0  # a dry run says so and shows the rest
    err = capsys.readouterr().err
    assert f"navakankari service: warning: {hidden} is under " in err and f"({setting})" in err
    assert len(ran) == 1
    assert cli.main(args) == 2  # an install stops before doing anything
    err = capsys.readouterr().err
    assert f"navakankari service: {hidden} is under " in err and "/opt/navakankari" in err
    assert len(ran) == 1


def test_an_installation_in_opt_is_not_refused(capsys, monkeypatch):
    from navakankari.firmware.system import service

    monkeypatch.setattr(service, "script_path", lambda: ["/opt/navakankari/bin/navakankari"])
    ran = _quiet_install(monkeypatch)
    assert cli.main(["service", "install"]) == 0 and len(ran) == 1
    assert "is under" not in capsys.readouterr().err


def test_an_install_without_the_pi_groups_explains_instead_of_failing_in_useradd(
        tmp_path, capsys, monkeypatch):
    """Plain Debian has no gpio/spi/i2c groups: useradd --groups failed there. The install
    now stops first and says how Raspberry Pi OS makes them; with them it goes on."""
    from navakankari.firmware.system import service

    monkeypatch.setattr(service, "script_path", lambda: ["/opt/navakankari/bin/navakankari"])
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 3 Model B Rev 1.2\x00")
    monkeypatch.setattr(service, "MODEL_FILE", model)
    config = tmp_path / "etc" / "board.toml"
    config.parent.mkdir()
    config.write_text('[board]\nprofile = "matrix-spi-24"\n')
    monkeypatch.setattr(service, "hidden_from_unit", lambda paths: [])  # tmp_path is under /tmp
    ran = _quiet_install(monkeypatch)
    have: set[str] = {"i2c", "audio"}  # Debian's base-passwd makes the audio group
    monkeypatch.setattr(service, "_group_exists", lambda name: name in have)
    assert cli.main(["service", "install", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "this system has no group gpio, spi:" in err and "groupadd --system" in err
    assert 'SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"' in err and "i2c-dev" not in err
    assert ran == []
    assert cli.main(["service", "install", "--root", "--config", str(config)]) == 0  # no group
    have |= {"gpio", "spi"}
    assert cli.main(["service", "install", "--config", str(config)]) == 0
    assert len(ran) == 2
