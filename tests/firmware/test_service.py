from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from navakankari.firmware import cli
from navakankari.firmware.service import (
    install_steps,
    render_unit,
    run_steps,
    script_path,
    shipped_unit,
    uninstall_steps,
)

ANALYZE = shutil.which("systemd-analyze")


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


def test_render_points_at_this_installation_and_root_only_when_asked():
    unit = render_unit(["/opt/venv/bin/navakankari"], config=Path("/etc/navakankari/x.toml"))
    assert "ExecStart=/opt/venv/bin/navakankari run --config /etc/navakankari/x.toml" in unit
    assert "User=navakankari" in unit and "DeviceAllow=/dev/mem" not in unit
    root = render_unit(["/opt/venv/bin/navakankari"], config=Path("/c.toml"), root=True)
    assert "User=root" in root and "DeviceAllow=/dev/mem rw" in root


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
@pytest.mark.parametrize("root", [False, True])
def test_systemd_analyze_verify_passes(tmp_path, root):
    unit = tmp_path / "navakankari.service"
    unit.write_text(render_unit(script_path(), config=Path("/etc/navakankari/navakankari.toml"),
                                root=root))
    result = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert "navakankari.service" not in result.stderr, result.stderr


def test_install_writes_the_unit_and_enables_it(tmp_path):
    calls = []

    def runner(cmd, check):
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 0)

    steps = install_steps(root=False, config=tmp_path / "etc" / "navakankari.toml",
                          unit_dir=tmp_path / "units")
    out: list[str] = []
    assert run_steps(steps, dry_run=False, out=out.append, runner=runner, which=lambda c: c) == 0
    unit = (tmp_path / "units" / "navakankari.service").read_text()
    assert f"ExecStart={script_path()[0]}" in unit
    assert (tmp_path / "etc" / "navakankari.toml").exists()
    assert calls[0][0] == "sh" and "useradd" in calls[0][2]
    assert calls[1:] == [["systemctl", "daemon-reload"],
                         ["systemctl", "enable", "--now", "navakankari.service"]]
    # A second install keeps the edited config.
    (tmp_path / "etc" / "navakankari.toml").write_text("[game]\n")
    run_steps(steps, dry_run=False, out=out.append, runner=runner, which=lambda c: c)
    assert (tmp_path / "etc" / "navakankari.toml").read_text() == "[game]\n"


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
