"""`navakankari doctor`: check a Raspberry Pi against its wiring profile and say what to change.

Everything is read from files a normal user can read, under a root folder (`/`, or a fake Pi
in a test): /proc/device-tree/model, /boot/firmware/config.txt (/boot/config.txt before
Bookworm), cmdline.txt, /proc/modules, /dev, /etc/passwd, /etc/group and the installed unit.
What the profile needs comes from `navakankari.hal.needs`, the table the unit follows too.

Pins claimed by others: /sys/kernel/debug/gpio would list every owner but only root may read
it. So the kernel drivers are found from config.txt (the overlays that take a pin) and
/proc/modules, and the owners of the profile's lines are asked of the GPIO character device
(`line_users`, through gpiod; members of the gpio group may read it).
"""

from __future__ import annotations

import importlib.util
import shlex
import stat
import subprocess
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from navakankari.hal.needs import (
    PIO,
    Needs,
    PiModel,
    model_named,
    needs,
    supported_models,
)
from navakankari.engine.translator import ENGLISH, Translator
from navakankari.hal.profile import SPI0_GPIOS, Profile

from .audio import (
    PACKAGES,
    PI_JACK,
    SpeechSetting,
    device_card,
    espeak_data,
    programs_missing,
    sound_cards,
    speaker_needs,
    voice_installed,
)
from .service import SERVICE_USER, UNIT_NAME

ON = ("on", "true", "yes", "1", "")
W1_OVERLAYS = ("w1-gpio", "w1-gpio-pullup")
W1_DEFAULT_PIN = 4
PIO_UDEV_RULE = 'SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"'
SERIAL_CONSOLES = ("serial0", "ttyAMA0", "ttyS0")
SPI_DRIVERS = ("spi-bcm2835", "spi0", "spi-dw")  # the consumer names of SPI0's own CS lines


@dataclass(frozen=True)
class Finding:
    """One check: `ok`, or what is wrong (`message`) and what to do (`fix`); `lines` are
    config.txt lines that put it right; a `note` does not stop the board."""

    check: str
    ok: bool
    message: str
    fix: str = ""
    lines: tuple[str, ...] = ()
    note: bool = False

    @property
    def blocking(self) -> bool:
        return not self.ok and not self.note


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
    name: str
    uid: int
    gid: int
    groups: frozenset[str]


def read_accounts(root: Path) -> tuple[dict[str, Account], dict[str, int]]:
    """Users (with every group they are in) and group ids, from /etc/passwd and /etc/group."""
    gids: dict[str, int] = {}
    members: dict[str, set[str]] = {}
    by_gid: dict[int, str] = {}
    for line in _read(root / "etc/group").splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit():
            gids[parts[0]] = int(parts[2])
            by_gid[int(parts[2])] = parts[0]
            for user in filter(None, parts[3].split(",")):
                members.setdefault(user, set()).add(parts[0])
    users = {}
    for line in _read(root / "etc/passwd").splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit() and parts[3].isdigit():
            name, uid, gid = parts[0], int(parts[2]), int(parts[3])
            groups = members.get(name, set()) | ({by_gid[gid]} if gid in by_gid else set())
            users[name] = Account(name, uid, gid, frozenset(groups))
    return users, gids


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _systemctl_state(unit: str = UNIT_NAME) -> str:
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


def _installed(name: str) -> bool:
    """Whether this Python can import the module `name` (without importing it)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:  # "RPi.GPIO" without an RPi package
        return False


@dataclass
class Doctor:
    """Checks one Pi (under `root`) against `profile`; the three callables are injected in tests."""

    root: Path
    profile: Profile
    config_file: Path
    service_state: Callable[[], str] = _systemctl_state
    line_users: Callable[[Path, Iterable[int]], dict[int, str] | None] = gpiod_line_users
    has_module: Callable[[str], bool] | None = None
    variant_problem: str | None = None  #: why the configured variant does not fit the profile
    speech: SpeechSetting = SpeechSetting()  #: the configuration's [speech] and language

    def run(self) -> list[Finding]:
        model_text = _read(self.root / "proc/device-tree/model").strip("\x00 \n")
        model = model_named(model_text)
        if model is None:
            seen = f"this is {model_text!r}" if model_text else "/proc/device-tree/model is missing"
            return [Finding("model", False, f"not a supported Raspberry Pi: {seen}",
                            f"the board runs on a {supported_models()}")]
        n = speaker_needs(needs(self.profile, model))
        boot = self.boot_config(model)
        findings = [Finding("model", True, f"{model_text}: supported")]
        if self.variant_problem:
            findings.append(Finding("variant", False, self.variant_problem,
                                    f"edit [game] variant in {self.config_file}"))
        findings += self.interfaces(n, boot, model)
        findings += self.packages(model)
        findings += self.speaker(n)
        state = self.service_state()
        findings += self.service(n, state)
        findings += self.pins(n, boot, state)
        return findings

    # -- config.txt ------------------------------------------------------------------------
    def boot_config(self, model: PiModel) -> BootConfig:
        for rel in ("boot/firmware/config.txt", "boot/config.txt"):
            path = self.root / rel
            text = _read(path)
            if text and not (rel == "boot/config.txt" and "boot/firmware/config.txt" in text):
                return parse_config_txt(text, model, path)
        return BootConfig(None)

    def _where(self, boot: BootConfig) -> str:
        return "/" + str(boot.path.relative_to(self.root)) if boot.path else "/boot/firmware/config.txt"

    def interfaces(self, n: Needs, boot: BootConfig, model: PiModel) -> list[Finding]:
        where = self._where(boot)
        out = []
        dev = self.root / "dev"
        states = {
            "spi": (boot.param_on("spi"), "SPI", "dtparam=spi", (dev / "spidev0.0").exists()),
            "i2c": (boot.param_on("i2c_arm", "i2c"), "I2C", "dtparam=i2c_arm",
                    (dev / "i2c-1").exists()),
            "audio": (boot.param_on("audio"), "analog audio", "dtparam=audio",
                      "snd_bcm2835" in self.modules),
            "i2s": (boot.param_on("i2s"), "I2S audio", "dtparam=i2s", None),
        }
        for key, (on, label, line, now) in states.items():
            if key in n.on:
                if not on:
                    out.append(Finding(key, False, f"{label} is off, but {self._why_on(key)}",
                                       f"add {line}=on to {where} and reboot", (f"{line}=on",)))
                elif now is False:
                    out.append(Finding(key, False, f"{label} is on in {where} but not yet running",
                                       "reboot (config.txt is read at boot)"))
                else:
                    out.append(Finding(key, True, f"{label} is on"))
            elif key in n.off:
                if on:
                    out.append(Finding(key, False, f"{label} is on, but {n.off[key]}",
                                       f"add {line}=off to {where} and reboot", (f"{line}=off",)))
                elif key == "audio" and now:
                    out.append(Finding(key, False, "the analog audio driver snd_bcm2835 is loaded, "
                                       f"but {n.off[key]}", "put `blacklist snd_bcm2835` in "
                                       "/etc/modprobe.d/snd-blacklist.conf and reboot"))
                else:
                    out.append(Finding(key, True, f"{label} is off"))
        out += self.uart(n, boot, model, where)
        for line in n.config_lines:
            key, _, value = line.partition("=")
            if boot.settings.get(key) == value:
                out.append(Finding("core clock", True, f"{line} (SPI LEDs keep their timing)"))
            else:
                out.append(Finding("core clock", False, f"SPI LEDs on a {model.name} need {line}: "
                                   "the SPI clock follows the core clock",
                                   f"add {line} to {where} and reboot", (line,)))
        return out

    @staticmethod
    def _why_on(key: str) -> str:
        return {"spi": "the LEDs are sent on SPI0 (/dev/spidev0.0)",
                "i2c": "the MCP23017 expanders are on I2C1"}.get(key, "the profile needs it")

    def cmdline(self) -> list[str]:
        for rel in ("boot/firmware/cmdline.txt", "boot/cmdline.txt"):
            text = _read(self.root / rel)
            if text:
                return text.split()
        return []

    def uart(self, n: Needs, boot: BootConfig, model: PiModel, where: str) -> list[Finding]:
        if "uart" not in n.off:
            return []
        if model.pi5:
            on = boot.param_on("uart0") or any(o.startswith("uart0") for o, _ in boot.overlays)
            line = "dtparam=uart0=off"
        else:
            on = boot.settings.get("enable_uart", "0") == "1"
            line = "enable_uart=0"
        consoles = [a for a in self.cmdline() if a.startswith("console=")
                    and a.partition("=")[2].split(",")[0] in SERIAL_CONSOLES]
        fix_console = f"; remove {' '.join(consoles)} from cmdline.txt" if consoles else ""
        if on:
            return [Finding("serial", False, f"the serial port is on GPIO14/15, but {n.off['uart']}"
                            + " (a closed switch would short its TXD)",
                            f"add {line} to {where}{fix_console} and reboot", (line,))]
        if consoles and not model.pi5:
            return [Finding("serial", False, f"cmdline.txt has {' '.join(consoles)}: turning the "
                            "serial port on would put a login console on the sensors of GPIO14/15",
                            f"remove {' '.join(consoles)} from cmdline.txt", note=True)]
        return [Finding("serial", True, "the serial port is off GPIO14/15")]

    @cached_property
    def modules(self) -> frozenset[str]:
        """The loaded kernel modules (/proc/modules), read once."""
        return frozenset(ln.split()[0] for ln in _read(self.root / "proc/modules").splitlines()
                         if ln.split())

    # -- packages in the install --------------------------------------------------------------
    def packages(self, model: PiModel) -> list[Finding]:
        has = self.has_module or _installed
        wanted = []
        if self.profile.leds.backend in ("neopixel", "neopixel_spi") or \
                self.profile.sensors.backend == "mcp23017":
            wanted.append(("gpiod", "gpiod", "Blinka 10 opens the Pi's pins through it"))
        if self.profile.leds.backend == "neopixel":
            wanted.append(("adafruit_raspberry_pi5_neopixel_write",
                           "--pre Adafruit-Blinka-Raspberry-Pi5-Neopixel", "it drives NeoPixels on a Pi 5")
                          if model.pi5 else ("_rpi_ws281x", "rpi_ws281x", "it drives NeoPixels on a Pi 1-4"))
        if self.profile.sensors.backend == "matrix":
            wanted.append(("RPi.GPIO", "rpi-lgpio", "the matrix scan uses the RPi.GPIO API"))
        out = []
        for module, package, why in wanted:
            if has(module):
                out.append(Finding("packages", True, f"{module} is installed"))
            else:
                out.append(Finding("packages", False, f"{module} is missing: {why}",
                                   f"install it into the board's venv: pip install {package} "
                                   "(or reinstall with '.[pi]')"))
        return out

    # -- the speaker ---------------------------------------------------------------------------
    def speaker(self, n: Needs) -> list[Finding]:
        """espeak-ng, aplay, the language's voice and the sound card. With speech off in the
        configuration a problem is a note: the menu or the page may still turn it on."""
        setting, on = self.speech, self.speech.enabled
        why = "speech is on" if on else "speech cannot be turned on"
        missing = programs_missing(self.root)
        if missing:
            return [Finding("speech", False, f"{' and '.join(missing)} missing: {why}",
                            f"sudo apt install {PACKAGES}", note=not on)]
        out = []
        data = espeak_data(self.root)
        if data is None or not voice_installed(data, setting.language):
            out.append(Finding("speech", False, f"espeak-ng has no voice for {setting.language}"
                               f": {why} in it", "sudo apt install --reinstall espeak-ng-data",
                               note=not on))
        cards = sound_cards(self.root)
        card = device_card(setting.device)
        if not cards:
            out.append(Finding("speech", False, "no sound card (/proc/asound/cards): nothing to "
                               "speak on", "plug in a USB speaker, or use the Pi's HDMI or jack "
                               "(dtparam=audio=on, where the LEDs leave the jack free)",
                               note=not on))
        elif card is not None and card not in cards and card not in cards.values():
            out.append(Finding("speech", False, f"[speech] device {setting.device!r} names card "
                               f"{card}, which is not here (cards: {', '.join(cards.values())})",
                               f"set [speech] device in {self.config_file} to one of "
                               "`aplay -L`", note=not on))
        elif "audio" in n.off and card in (PI_JACK, *(k for k, v in cards.items() if v == PI_JACK)):
            out.append(Finding("speech", False, f"[speech] device is the Pi's jack, but "
                               f"{n.off['audio']}", "use a USB speaker (plughw:CARD=Device) or "
                               f"HDMI: set [speech] device in {self.config_file}", note=not on))
        if not out:
            where = setting.device or "the default device"
            out.append(Finding("speech", True, f"espeak-ng speaks {setting.language} on "
                               f"{where} (cards: {', '.join(cards.values())})"
                               + ("" if on else "; speech is off")))
        return out

    # -- service, user, devices, install -------------------------------------------------------
    def unit(self) -> dict[str, str]:
        text = _read(self.root / "etc/systemd/system" / UNIT_NAME)
        keys: dict[str, str] = {}
        for line in text.splitlines():
            key, sep, value = line.partition("=")
            if sep and not line.startswith("#"):
                keys.setdefault(key.strip(), value.strip())
        return keys

    def service(self, n: Needs, state: str) -> list[Finding]:
        unit = self.unit()
        install = f"sudo /opt/navakankari/bin/navakankari service install --config {self.config_file}"
        if not unit:
            return [Finding("service", False, f"{UNIT_NAME} is not installed",
                            f"install it from the board's venv: {install}")]
        out = []
        if state == "active":
            out.append(Finding("service", True, f"{UNIT_NAME} is running (stop it before "
                               "selftest or calibrate: sudo systemctl stop navakankari)"))
        else:
            out.append(Finding("service", False, f"{UNIT_NAME} is {state}",
                               "see why: journalctl -u navakankari -b; start it: "
                               "sudo systemctl start navakankari"))
        user = unit.get("User", SERVICE_USER)
        if n.root and user != "root":
            out.append(Finding("user", False, f"the service runs as {user}, but the LEDs "
                               "need root on this model (/dev/mem, /dev/vcio)", f"reinstall: {install}"))
            return out
        out += self.account(n, user)
        out += self.readable(user, unit.get("ExecStart", ""))
        return out

    @cached_property
    def accounts(self) -> tuple[dict[str, Account], dict[str, int]]:
        """Users and group ids (/etc/passwd, /etc/group), read once."""
        return read_accounts(self.root)

    def account(self, n: Needs, user: str) -> list[Finding]:
        if user == "root":
            return [Finding("user", True, "the service runs as root")]
        users, gids = self.accounts
        account = users.get(user)
        if account is None:
            return [Finding("user", False, f"the service user {user} does not exist",
                            "reinstall the service (it creates the user)")]
        out = []
        missing = [g for g in n.groups if g not in account.groups]
        if missing:
            out.append(Finding("groups", False, f"{user} is not in {', '.join(missing)}",
                               f"sudo usermod -aG {','.join(missing)} {user}"))
        else:
            out.append(Finding("groups", True, f"{user} is in {', '.join(n.groups) or 'no extra group'}"))
        for device in n.devices:
            nodes = sorted((self.root / "dev").glob(device.path.removeprefix("/dev/")))
            if not nodes:
                if device is PIO:
                    out.append(Finding("devices", False, "/dev/pio0 is missing: the Pi 5 NeoPixel "
                                       "driver needs it", "update the Pi's firmware and kernel "
                                       "(sudo apt full-upgrade) and reboot"))
                continue  # SPI and I2C nodes: the interface checks say what to turn on
            for node in nodes:
                if not _group_can_use(node, device.group, gids):
                    fix = (f"add the udev rule {PIO_UDEV_RULE} to /etc/udev/rules.d/99-com.rules "
                           "and reboot") if device is PIO else \
                        f"give {node.name} to the {device.group} group (Raspberry Pi OS's udev rules do)"
                    out.append(Finding("devices", False, f"/dev/{node.name} is not read-write for "
                                       f"the {device.group} group", fix))
        return out

    def readable(self, user: str, exec_start: str) -> list[Finding]:
        """Can the service user reach the script and the config (every folder on the way)?"""
        if user == "root" or not exec_start:
            return []
        users, gids = self.accounts
        account = users.get(user)
        if account is None:
            return []
        words = shlex.split(exec_start)
        paths = [words[0]]
        if "--config" in words[:-1]:
            paths.append(words[words.index("--config") + 1])
        out = []
        for path in paths:
            blocked = _blocked_at(self.root, Path(path), account, gids)
            if blocked is None:
                out.append(Finding("install", True, f"{user} can read {path}"))
            else:
                out.append(Finding("install", False, f"{user} cannot read {path}: {blocked} "
                                   "is closed to it", "install the venv where the service user can "
                                   "read it (wiring/INSTALL.md: /opt/navakankari), or "
                                   f"sudo chmod o+rx {blocked}"))
        return out

    # -- pins -----------------------------------------------------------------------------------
    def pins(self, n: Needs, boot: BootConfig, state: str) -> list[Finding]:
        out = []
        for name, args in boot.overlays:
            if name in W1_OVERLAYS:
                pin = int(args.get("gpiopin", W1_DEFAULT_PIN))
                if pin in n.pins:
                    out.append(Finding("1-wire", False, f"1-Wire ({name}) holds GPIO{pin}, which is "
                                       f"{n.pins[pin]}", f"delete the line dtoverlay={name}"
                                       f"{''.join(f',{k}={v}' for k, v in args.items())} from "
                                       f"{self._where(boot)} and reboot"))
        if not out and "w1_gpio" in self.modules:
            out.append(Finding("1-wire", False, "the 1-Wire driver w1_gpio is loaded and holds a "
                               "pin (GPIO4 unless configured otherwise)",
                               "remove dtoverlay=w1-gpio from config.txt and reboot",
                               note=W1_DEFAULT_PIN not in n.pins))
        users = self.line_users(self.root, sorted(n.pins))
        if users:
            # The SPI controller's driver holds its chip-select lines (GPIO7/8) as GPIOs: those
            # are the profile's own SPI0, not another program's pins.
            users = {p: who for p, who in users.items()
                     if not (p in SPI0_GPIOS and n.pins[p].endswith("SPI0") and
                             who.startswith(SPI_DRIVERS))}
        if users is None:
            out.append(Finding("pins", True, "the owners of the GPIO lines could not be read "
                               "(run doctor as a member of the gpio group to see them)", note=True))
        elif users and state == "active":
            out.append(Finding("pins", True, f"{len(users)} of the profile's pins are held, by the "
                               "running service", note=True))
        elif users:
            held = ", ".join(f"GPIO{p} ({n.pins[p]}) by {who!r}" for p, who in sorted(users.items()))
            out.append(Finding("pins", False, f"pins are already held: {held}",
                               "stop the program or remove the overlay that holds them "
                               "(gpioinfo names every line's owner)"))
        else:
            out.append(Finding("pins", True, "no other program or driver holds the profile's pins"))
        return out


def _group_can_use(node: Path, group: str | None, gids: Mapping[str, int]) -> bool:
    st = node.stat()
    if st.st_mode & 0o006 == 0o006:
        return True
    return group is not None and st.st_gid == gids.get(group) and st.st_mode & 0o060 == 0o060


def _blocked_at(root: Path, path: Path, account: Account, gids: Mapping[str, int]) -> str | None:
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


def preflight(profile: Profile, command: str, *, root: Path = Path("/"), euid: int | None = None,
              service_state: Callable[[], str] = _systemctl_state,
              tr: Translator = ENGLISH) -> str | None:
    """Why `selftest` or `calibrate` cannot open the board here, before it tries: the
    service holds the pins, or the LEDs need root on this model (in `tr`'s language). None
    when nothing stops it (always on a computer that is no supported Pi, where the simulated
    board runs)."""
    import os
    import sys

    from navakankari.hal.board import BACKEND_ENV, SIM

    model = model_named(_read(root / "proc/device-tree/model"))
    if model is None or os.environ.get(BACKEND_ENV, "").strip() == SIM:
        return None
    if service_state() == "active":
        return tr.gettext("{unit} is running and holds the board's pins: sudo systemctl stop "
                          "navakankari, then run {command} again").format(unit=UNIT_NAME,
                                                                        command=command)
    euid = os.geteuid() if euid is None else euid
    if needs(profile, model).root and euid != 0:
        script = Path(sys.executable).with_name("navakankari")
        return tr.gettext("The LEDs on GPIO{pin} need root on a {model} (/dev/mem, /dev/vcio): "
                          "sudo {script} {command} ...").format(
            pin=profile.leds.pin, model=model.name, script=script, command=command)
    return None


def report(findings: list[Finding], out: Callable[[str], None] = print) -> None:
    for f in findings:
        mark = "ok     " if f.ok else ("note   " if f.note else "PROBLEM")
        out(f"{mark} {f.check}: {f.message}" + (f"\n          fix: {f.fix}" if not f.ok and f.fix else ""))
    blocking = sum(f.blocking for f in findings)
    out(f"{blocking} problem(s) would stop the board." if blocking else "Nothing would stop the board.")


def fix_lines(findings: list[Finding]) -> list[str]:
    """The config.txt lines that put the findings right, under [all] so they apply."""
    lines = list(dict.fromkeys(line for f in findings if not f.ok for line in f.lines))
    return ["[all]", *lines] if lines else []


def report_fix_lines(findings: list[Finding], out: Callable[[str], None] = print,
                     say: Callable[[str], None] = print) -> None:
    """`doctor --fix-lines`: the lines alone on `out` (to append to config.txt), and on `say`
    what they leave unfixed, so an empty answer is never silent."""
    lines = fix_lines(findings)
    for line in lines:
        out(line)
    left = [f for f in findings if f.blocking and not f.lines]
    if not lines:
        say("navakankari doctor: no config.txt line to add" + (":" if left else ""))
    elif left:
        say("navakankari doctor: these lines do not put right:")
    for f in left:
        say(f"  {f.check}: {f.message}" + (f" (fix: {f.fix})" if f.fix else ""))

