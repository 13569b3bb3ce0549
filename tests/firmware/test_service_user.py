"""The installer's user step, run by a real shell with `id`, `useradd` and `usermod` stood in
for: a new user is made in the profile's groups, an existing one joins them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from navakankari.firmware.system.service import install_steps
from navakankari.hal.needs import unit_needs
from navakankari.hal.profile import load_profile


def _run_user_step(tmp_path: Path, user_exists: bool) -> list[str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls"
    for name in ("useradd", "usermod"):
        (bin_dir / name).write_text(f'#!/bin/sh\necho "{name} $*" >> {log}\n')
    (bin_dir / "id").write_text(f"#!/bin/sh\nexit {0 if user_exists else 1}\n")
    for script in bin_dir.iterdir():
        script.chmod(0o755)
    steps = install_steps(needs=unit_needs(load_profile("mcp23017-24")),
                          config=tmp_path / "navakankari.toml", unit_dir=tmp_path / "units")
    command = steps[0].command
    assert command[:2] == ("sh", "-c")
    result = subprocess.run(list(command), env={"PATH": f"{bin_dir}:/usr/bin:/bin"},
                            check=False)
    assert result.returncode == 0
    return log.read_text().splitlines()


@pytest.mark.parametrize("user_exists", [False, True])
def test_the_service_user_ends_up_in_the_profiles_groups(tmp_path, user_exists):
    calls = _run_user_step(tmp_path, user_exists)
    if user_exists:
        assert calls == ["usermod -aG audio,gpio,i2c,spi navakankari"]
    else:
        assert calls == ["useradd --system --no-create-home --shell /usr/sbin/nologin "
                         "--groups audio,gpio,i2c,spi navakankari"]
