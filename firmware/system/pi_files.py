"""What a Raspberry Pi's own files say, read under a root folder (`/`, or a fake Pi in a
test) by a normal user: config.txt's settings for one model, the accounts and groups, who
may pass a path or use a device node, the owners of GPIO lines, and the unit's state.
Unreadable files read as empty: the checks then say what is missing."""

from __future__ import annotations

import importlib.util
import stat
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from navakankari.hal.needs import PiModel

from .service import UNIT_NAME

ON = ("on", "true", "yes", "1", "")


@dataclass(frozen=True)
class BootConfig:
    """The settings of config.txt that apply to one model (its [piN] sections and [all])."""

    path: Path | None
    settings: Mapping[str, str] = field(default_factory=dict)
    params: Mapping[str, str] = field(default_factory=dict)
    overlays: tuple[tuple[str, Mapping[str, str]], ...] = ()

    def param_on(self, *names: str) -> bool:
        return any(self.params.get(n, "off").lower() in ON for n in names if n in self.params)


def parse_config_txt(text: str, model: PiModel, path: Path | None = None) -> BootConfig:
    """Later lines win, as the firmware reads them; unknown [filters] are taken not to apply."""
    settings: dict[str, str] = {}
    params: dict[str, str] = {}
    overlays: list[tuple[str, dict[str, str]]] = []
    applies = True
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1].strip().lower()
            applies = name == "all" or name in model.sections
            continue
        if not applies or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if key == "dtparam":
            for item in value.split(","):
                k, _, v = item.partition("=")
                params[k.strip()] = v.strip()
        elif key == "dtoverlay" and value:
            name, *args = value.split(",")
            overlays.append((name.strip(), {k.strip(): v.strip() for k, _, v in
                                            (a.partition("=") for a in args)}))
        else:
            settings[key] = value
    return BootConfig(path, settings, params, tuple(overlays))


@dataclass(frozen=True)
class Account:
    """A user as the checks need it: ids and every group it is in."""

    name: str
    uid: int
    gid: int
    groups: frozenset[str]


def read_accounts(root: Path) -> tuple[dict[str, Account], dict[str, int]]:
    """Users (with every group they are in) and group ids, from /etc/passwd and /etc/group."""
    gids: dict[str, int] = {}
    members: dict[str, set[str]] = {}
    by_gid: dict[int, str] = {}
    for line in read_text(root / "etc/group").splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit():
            gids[parts[0]] = int(parts[2])
            by_gid[int(parts[2])] = parts[0]
            for user in filter(None, parts[3].split(",")):
                members.setdefault(user, set()).add(parts[0])
    users = {}
    for line in read_text(root / "etc/passwd").splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit() and parts[3].isdigit():
            name, uid, gid = parts[0], int(parts[2]), int(parts[3])
            groups = members.get(name, set()) | ({by_gid[gid]} if gid in by_gid else set())
            users[name] = Account(name, uid, gid, frozenset(groups))
    return users, gids


def read_text(path: Path) -> str:
    """The file's text, or "" when it cannot be read (a missing file is a finding, not an error)."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def systemctl_state(unit: str = UNIT_NAME) -> str:
    """`systemctl is-active`'s answer, or "unknown" where systemd cannot be asked."""
    try:
        result = subprocess.run(["systemctl", "is-active", unit], capture_output=True, text=True,
                                timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return result.stdout.strip() or "unknown"


def gpiod_line_users(root: Path, pins: Iterable[int]) -> dict[int, str] | None:
    """Owners of the pins on the Pi's header GPIO controller; None when it cannot be read."""
    try:
        import gpiod  # only on a Pi
    except ImportError:
        return None
    labels = {"pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"}
    for path in sorted((root / "dev").glob("gpiochip*")):
        try:
            with gpiod.Chip(str(path)) as chip:
                if chip.get_info().label not in labels:
                    continue
                users = {}
                for pin in pins:
                    info = chip.get_line_info(pin)
                    if info.used:
                        users[pin] = info.consumer or "the kernel"
                return users
        except (OSError, ValueError):
            return None
    return None


def importable(name: str) -> bool:
    """Whether this Python can import the module `name` (without importing it)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:  # "RPi.GPIO" without an RPi package
        return False


def group_can_use(node: Path, group: str | None, gids: Mapping[str, int]) -> bool:
    st = node.stat()
    if st.st_mode & 0o006 == 0o006:
        return True
    return group is not None and st.st_gid == gids.get(group) and st.st_mode & 0o060 == 0o060


def blocked_at(root: Path, path: Path, account: Account, gids: Mapping[str, int]) -> str | None:
    """The first folder (or the file) on `path` the account cannot pass, or None."""
    group_ids = {gids[g] for g in account.groups if g in gids} | {account.gid}
    parts = path.parts
    for i in range(1, len(parts) + 1):
        here = Path(*parts[:i])
        try:
            st = (root / here.relative_to("/")).stat()
        except OSError:
            return str(here)
        need = stat.S_IXOTH if i < len(parts) else stat.S_IROTH
        if st.st_uid == account.uid:
            ok = st.st_mode & (need << 6)
        elif st.st_gid in group_ids:
            ok = st.st_mode & (need << 3)
        else:
            ok = st.st_mode & need
        if not ok:
            return str(here)
    return None
