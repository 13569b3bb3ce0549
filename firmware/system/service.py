"""Install, remove and inspect the systemd unit (`navakankari service install|uninstall|status`).

The unit shipped in this package (navakankari.service) is written to /etc/systemd/system
with ExecStart pointing at the `navakankari` script of the interpreter running this
command and at the configuration given, and the user, groups and DeviceAllow= lines taken
from what the configured wiring profile's backends open (`navakankari.hal.needs`): NeoPixels
on PWM/PCM need /dev/vcio and /dev/mem and so root on a Pi 1-4; every other backend runs as a
dedicated user in just the groups its devices belong to.
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
from typing import TYPE_CHECKING, Any

from .audio import speaker_needs

if TYPE_CHECKING:
    from navakankari.hal.needs import Needs

log = logging.getLogger(__name__)

UNIT_NAME = "navakankari.service"
UNIT_DIR = Path("/etc/systemd/system")
CONFIG_DIR = Path("/etc/navakankari")
SERVICE_USER = "navakankari"


@dataclass(frozen=True)
class Step:
    """One thing the installer does: run a command, or write a file."""

    describe: str
    command: tuple[str, ...] = ()
    path: Path | None = None
    text: str = ""
    only_if_missing: bool = False


def shipped_unit() -> str:
    return resources.files("navakankari.firmware.system").joinpath(UNIT_NAME).read_text(encoding="utf-8")


def script_path() -> list[str]:
    """How to start this installation's daemon: the `navakankari` script next to the
    interpreter, or the interpreter running the CLI module."""
    script = Path(sys.executable).with_name("navakankari")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "navakankari.firmware.cli"]


MODEL_FILE = Path("/proc/device-tree/model")


def unit_needs_of(profile_name: str, model_file: Path = MODEL_FILE) -> Needs:
    """What the profile's backends open on this Pi, or on any supported Pi when this is not
    one (a dry run on a laptop). Raises ProfileError for a bad profile."""
    from navakankari.hal.needs import model_named, needs, unit_needs
    from navakankari.hal.profile import load_profile

    profile = load_profile(profile_name)
    try:
        model = model_named(model_file.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        model = None
    return speaker_needs(needs(profile, model) if model else unit_needs(profile))


# What a root unit keeps of its capabilities: rpi_ws281x opens /dev/mem (PWM/PCM NeoPixels),
# which the kernel's open_port() allows only with CAP_SYS_RAWIO; /dev/mem and /dev/vcio are
# root's by their owner bits, so no CAP_DAC_OVERRIDE is needed.
ROOT_CAPABILITIES = ("CAP_SYS_RAWIO",)
LOOPBACK = ("127.0.0.1", "::1", "localhost")


@dataclass(frozen=True)
class Network:
    """What the daemon's configuration asks of the network: the web companion's address and
    port (port 0: no companion), and whether online play reaches a broker. Decides
    RestrictAddressFamilies= and IPAddressAllow=."""

    web_address: str = "0.0.0.0"
    web_port: int = 8080
    broker: bool = False  #: [online] broker set: outbound connections to it (by name, any IP)

    def lines(self) -> str:
        families = "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n"
        if self.broker:
            return ("# Online play reaches its broker, named by host name (any address), so no\n"
                    "# IPAddressDeny=. Install again after changing [online] or [web].\n"
                    + families)
        if not self.web_port:
            return ("# No web companion configured: no IP sockets at all; journal and sd_notify\n"
                    "# only. Install again after setting [web] port.\n"
                    "RestrictAddressFamilies=AF_UNIX\nIPAddressDeny=any\n")
        if self.web_address in LOOPBACK:
            return (f"# The web companion listens on {self.web_address} only: nothing else is\n"
                    "# reached. Install again after changing [web] address.\n"
                    + families + "IPAddressDeny=any\nIPAddressAllow=localhost\n")
        return (f"# The web companion listens on {self.web_address}: phones on the network (and a\n"
                "# broker, for online play) are reached, so no IPAddressDeny=.\n" + families)


# Folders the unit hides from the daemon: its own empty /tmp and /var/tmp (PrivateTmp=yes),
# and no home folder at all (ProtectHome=yes).
HIDDEN = {"/tmp": "PrivateTmp=yes", "/var/tmp": "PrivateTmp=yes", "/home": "ProtectHome=yes",
          "/root": "ProtectHome=yes", "/run/user": "ProtectHome=yes"}


def hidden_from_unit(paths: Sequence[str | Path]) -> list[str]:
    """One line for each path (the daemon's script, its configuration) that the unit hides
    from the daemon it starts: the service would fail at once."""
    out = []
    for path in paths:
        for folder, setting in HIDDEN.items():
            if Path(path) == Path(folder) or Path(folder) in Path(path).parents:
                out.append(f"{path} is under {folder}, which the unit hides from the daemon "
                           f"({setting}): install from a venv in /opt/navakankari and keep the "
                           "configuration in /etc/navakankari")
                break
    return out


def not_a_pi(model_file: Path | None = None) -> str | None:
    """A warning when this machine is not a supported Raspberry Pi, else None."""
    from navakankari.hal.needs import model_named, supported_models

    model_file = model_file or MODEL_FILE
    try:
        text = model_file.read_text(encoding="utf-8", errors="replace").strip("\x00 \n")
    except OSError:
        text = ""
    if text and model_named(text):
        return None
    what = f"this is a {text}" if text else f"{model_file} is missing"
    return (f"not a supported Raspberry Pi ({what}): the unit allows what the profile opens "
            f"on any of {supported_models()}; install it on the Pi itself")


# Raspberry Pi OS's groups for the devices, and the lines of its udev rules (99-com.rules)
# that give each group its devices; plain Debian has neither.
GROUP_RULES = {
    "gpio": ('SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"',
             'KERNEL=="gpiomem", GROUP="gpio", MODE="0660"'),
    "spi": ('SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"',),
    "i2c": ('SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"',),
}
GROUP_RULES_FILE = Path("/etc/udev/rules.d/99-navakankari-groups.rules")


def _group_exists(name: str) -> bool:
    import grp  # POSIX only

    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def missing_groups(groups: Sequence[str],
                   exists: Callable[[str], bool] | None = None) -> str | None:
    """Why the service user cannot join `groups` on this system, and how to make them as
    Raspberry Pi OS has them; None when they all exist."""
    exists = exists or _group_exists
    missing = [g for g in groups if not exists(g)]
    if not missing:
        return None
    rules = [line for g in missing for line in GROUP_RULES.get(g, ())]
    return (f"this system has no group {', '.join(missing)}: Raspberry Pi OS makes "
            f"gpio, spi and i2c and gives them the devices through its udev rules, and the "
            f"service user joins them. On another system make them as it does: "
            f"`sudo groupadd --system NAME` for each, and these lines in {GROUP_RULES_FILE}, "
            f"then `sudo udevadm control --reload && sudo udevadm trigger`:\n  "
            + "\n  ".join(rules) + "\n(or install with --root, which needs no group)")


def before_install(config: Path, *, dry_run: bool, model_file: Path | None = None,
                   groups: Sequence[str] = (),
                   group_exists: Callable[[str], bool] | None = None) -> tuple[list[str], bool]:
    """What to say before installing, and whether to go on: a machine that is not a Pi is
    warned about; a script or configuration the unit would hide, or a group the service user
    should join that does not exist, stops an install (a dry run only warns, it changes
    nothing)."""
    lines = [f"warning: {w}" for w in (not_a_pi(model_file),) if w]
    stops = hidden_from_unit([script_path()[0], config])
    no_group = missing_groups(groups, group_exists)
    stops += [no_group] if no_group else []
    lines += [f"warning: {h}" if dry_run else h for h in stops]
    return lines, dry_run or not stops


def render_unit(exec_start: Sequence[str], *, config: Path, needs: Needs,
                root: bool = False, network: Network = Network()) -> str:
    """The shipped unit with this installation's ExecStart, and the user, groups, devices,
    capabilities and network the profile's backends and the configuration need
    (`navakankari.hal.needs`); nothing else is allowed."""
    needs = speaker_needs(needs)
    text = shipped_unit()
    command = " ".join(shlex.quote(a) for a in exec_start) + f" run --config {shlex.quote(str(config))} --realtime"
    text = re.sub(r"^ExecStart=.*$", f"ExecStart={command}", text, flags=re.M)
    root = root or needs.root
    if root:
        text = re.sub(r"^User=.*$", "User=root", text, flags=re.M)
        text = re.sub(r"^Group=.*$", "Group=root", text, flags=re.M)
        text = re.sub(r"^CapabilityBoundingSet=.*$",
                      f"CapabilityBoundingSet={' '.join(ROOT_CAPABILITIES)}", text, flags=re.M)
    groups = "" if root or not needs.groups else f"SupplementaryGroups={' '.join(needs.groups)}\n"
    text = re.sub(r"^SupplementaryGroups=.*\n", groups, text, flags=re.M)
    models = ", ".join(m.name for m in needs.models)
    allow = f"# What the profile's backends open on: {models}\n"
    allow += "".join(f"DeviceAllow={a}\n" for a in needs.device_allow())
    if not needs.devices:  # the simulated board: no device, no hardware detection in /proc
        allow = "# The profile opens no device.\nPrivateDevices=yes\nProcSubset=pid\n"
    text = re.sub(r"^DeviceAllow=.*\n", "", text, flags=re.M)
    text = re.sub(r"^RestrictAddressFamilies=.*\n", network.lines(), text, flags=re.M)
    return text.replace("DevicePolicy=closed\n", "DevicePolicy=closed\n" + allow)


def install_steps(*, needs: Needs, root: bool = False,
                  config: Path = CONFIG_DIR / "navakankari.toml",
                  unit_dir: Path = UNIT_DIR, network: Network = Network()) -> list[Step]:
    """Create the service user (unless root), write the config if missing, the unit, start."""
    needs = speaker_needs(needs)
    unit = render_unit(script_path(), config=config, needs=needs, root=root, network=network)
    root = root or needs.root
    groups = needs.groups
    steps = []
    if not root:
        # A user made by an earlier install (another profile) joins the groups this one
        # needs, so that /etc/group (what doctor reads) agrees with SupplementaryGroups=.
        member = f"--groups {','.join(groups)} " if groups else ""
        join = f"usermod -aG {','.join(groups)} {SERVICE_USER}" if groups else "true"
        steps.append(Step(f"create the system user {SERVICE_USER}" + (f" in {' '.join(groups)}" if groups else ""),
                          ("sh", "-c", f"if id -u {SERVICE_USER} >/dev/null 2>&1; then {join}; "
                           f"else useradd --system --no-create-home --shell /usr/sbin/nologin "
                           f"{member}{SERVICE_USER}; fi")))
    example = resources.files("navakankari.firmware.daemon").joinpath("navakankari.example.toml")
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
              runner: Callable[..., subprocess.CompletedProcess[Any]] = subprocess.run,
              which: Callable[[str], str | None] = shutil.which) -> int:
    """Carry out (or with dry_run, print) each step; stops at the first failure."""
    for step in steps:
        if step.path is not None:
            if step.only_if_missing and step.path.exists():
                out(f"# {step.path} exists: kept as it is" if dry_run else f"kept {step.path}")
                continue
            if dry_run:
                out(f"# {step.describe}")
                out(f"cat > {step.path} <<'EOF'\n{step.text.rstrip()}\nEOF")
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
