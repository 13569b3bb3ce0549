"""Install, remove and inspect the systemd unit (`navakankari service install|uninstall|status`).

The unit shipped in this package (navakankari.service) is written to /etc/systemd/system
with ExecStart pointing at the `navakankari` script of the interpreter running this
command, and User= chosen by the LED backend of the configured wiring profile: NeoPixels
on PWM GPIO18 need /dev/mem (root on Pi 1-4); every other backend runs as a dedicated user
in the gpio, spi and i2c groups.
"""

from __future__ import annotations

import logging
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

log = logging.getLogger(__name__)

UNIT_NAME = "navakankari.service"
UNIT_DIR = Path("/etc/systemd/system")
CONFIG_DIR = Path("/etc/navakankari")
SERVICE_USER = "navakankari"
GROUPS = ("gpio", "spi", "i2c")


@dataclass(frozen=True)
class Step:
    """One thing the installer does: run a command, or write a file."""

    describe: str
    command: tuple[str, ...] = ()
    path: Path | None = None
    text: str = ""
    only_if_missing: bool = False


def shipped_unit() -> str:
    return resources.files("navakankari.firmware").joinpath(UNIT_NAME).read_text(encoding="utf-8")


def script_path() -> list[str]:
    """How to start this installation's daemon: the `navakankari` script next to the
    interpreter, or the interpreter running the CLI module."""
    script = Path(sys.executable).with_name("navakankari")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "navakankari.firmware.cli"]


def render_unit(exec_start: Sequence[str], *, config: Path, root: bool = False) -> str:
    """The shipped unit with this installation's ExecStart and user."""
    text = shipped_unit()
    command = " ".join(shlex.quote(a) for a in exec_start) + f" run --config {config}"
    text = re.sub(r"^ExecStart=.*$", f"ExecStart={command}", text, flags=re.M)
    if root:
        text = re.sub(r"^User=.*$", "User=root", text, flags=re.M)
        text = re.sub(r"^Group=.*$", "Group=root", text, flags=re.M)
        text = text.replace("DeviceAllow=/dev/gpiomem rw",
                            "DeviceAllow=/dev/gpiomem rw\nDeviceAllow=/dev/mem rw")
    return text


def needs_root(profile_name: str) -> bool:
    """NeoPixels driven by PWM/PCM (the `neopixel` backend) need /dev/mem on Pi 1-4."""
    from navakankari.hal.profile import ProfileError, load_profile

    try:
        profile = load_profile(profile_name)
    except ProfileError as exc:
        log.warning("cannot read profile %s (%s): assuming no root", profile_name, exc)
        return False
    return profile.leds.backend == "neopixel"


def install_steps(*, root: bool, config: Path = CONFIG_DIR / "navakankari.toml",
                  unit_dir: Path = UNIT_DIR) -> list[Step]:
    unit = render_unit(script_path(), config=config, root=root)
    steps = []
    if not root:
        steps.append(Step(f"create the system user {SERVICE_USER} in {' '.join(GROUPS)}",
                          ("sh", "-c", f"id -u {SERVICE_USER} >/dev/null 2>&1 || useradd --system "
                           f"--no-create-home --shell /usr/sbin/nologin --groups "
                           f"{','.join(GROUPS)} {SERVICE_USER}")))
    example = resources.files("navakankari.firmware").joinpath("navakankari.example.toml")
    steps += [
        Step(f"write {config} (kept if it exists)", path=config,
             text=example.read_text(encoding="utf-8"), only_if_missing=True),
        Step(f"write {unit_dir / UNIT_NAME}", path=unit_dir / UNIT_NAME, text=unit),
        Step("reload systemd", ("systemctl", "daemon-reload")),
        Step("enable and start the service", ("systemctl", "enable", "--now", UNIT_NAME)),
    ]
    return steps


def uninstall_steps(unit_dir: Path = UNIT_DIR) -> list[Step]:
    return [
        Step("stop and disable the service", ("systemctl", "disable", "--now", UNIT_NAME)),
        Step(f"remove {unit_dir / UNIT_NAME}", ("rm", "-f", str(unit_dir / UNIT_NAME))),
        Step("reload systemd", ("systemctl", "daemon-reload")),
    ]


def run_steps(steps: Sequence[Step], *, dry_run: bool, out: Callable[[str], None] = print,
              runner: Callable[..., subprocess.CompletedProcess] = subprocess.run,
              which: Callable[[str], str | None] = shutil.which) -> int:
    """Carry out (or with dry_run, print) each step; stops at the first failure."""
    for step in steps:
        if step.path is not None:
            if dry_run:
                out(f"# {step.describe}")
                out(f"cat > {step.path} <<'EOF'\n{step.text.rstrip()}\nEOF")
                continue
            if step.only_if_missing and step.path.exists():
                out(f"kept {step.path}")
                continue
            step.path.parent.mkdir(parents=True, exist_ok=True)
            step.path.write_text(step.text, encoding="utf-8")
            out(f"wrote {step.path}")
            continue
        line = " ".join(shlex.quote(a) for a in step.command)
        if dry_run:
            out(f"# {step.describe}\n{line}")
            continue
        if which(step.command[0]) is None:
            out(f"navakankari service: {step.command[0]} not found")
            return 1
        result = runner(list(step.command), check=False)
        if result.returncode != 0:
            out(f"navakankari service: `{line}` failed with exit code {result.returncode}")
            return result.returncode or 1
    return 0
