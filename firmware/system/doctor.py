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

import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from navakankari.hal.needs import (
    MODELS,
    PIO,
    Needs,
    UART_GPIOS,
    PiModel,
    model_named,
    needs,
)
from navakankari.engine.translator import ENGLISH, Translator
from navakankari.hal.profile import I2C_GPIOS, SPI0_GPIOS, Profile
from navakankari.hal.words import N_, words_of


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
from .findings import Finding
from .pi_files import (
    Account,
    BootConfig,
    blocked_at,
    gpiod_line_users,
    group_can_use,
    importable,
    parse_config_txt,
    read_accounts,
    read_text,
    systemctl_state,
)
from .service import SERVICE_USER, UNIT_NAME

W1_OVERLAYS = ("w1-gpio", "w1-gpio-pullup")
W1_DEFAULT_PIN = 4
PIO_UDEV_RULE = 'SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"'
SERIAL_CONSOLES = ("serial0", "ttyAMA0", "ttyS0")
SPI_DRIVERS = ("spi-bcm2835", "spi0", "spi-dw")  # the consumer names of SPI0's own CS lines


@dataclass
class Doctor:
    """Checks one Pi (under `root`) against `profile`; the three callables are injected in tests."""

    root: Path
    profile: Profile
    config_file: Path
    service_state: Callable[[], str] = systemctl_state
    line_users: Callable[[Path, Iterable[int]], dict[int, str] | None] = gpiod_line_users
    has_module: Callable[[str], bool] | None = None
    variant_problem: str | None = None  #: why the configured variant does not fit the profile
    speech: SpeechSetting = SpeechSetting()  #: the configuration's [speech] and language
    tr: Translator = ENGLISH  #: the maker's language: every finding is worded in it

    def _(self, message: str, **places: object) -> str:
        """One message of the catalogs in the maker's language, its places filled."""
        return self.tr.gettext(message).format(**places)

    def run(self) -> list[Finding]:
        _ = self._
        model_text = read_text(self.root / "proc/device-tree/model").strip("\x00 \n")
        model = model_named(model_text)
        if model is None:
            fix = _("the board runs on a {models}: the install is made for 64-bit Raspberry Pi "
                    "OS (aarch64 wheels for lgpio and gpiod, the engine's C core); a Pi 1, 2, "
                    "Zero or Zero W cannot run it", models=", ".join(m.name for m in MODELS))
            if model_text:
                return [Finding("model", False, _("not a supported Raspberry Pi: this is "
                                                  "{model}", model=repr(model_text)), fix)]
            return [Finding("model", False, _("not a supported Raspberry Pi: "
                                              "/proc/device-tree/model is missing"), fix)]
        n = speaker_needs(needs(self.profile, model))
        boot = self.boot_config(model)
        findings = [Finding("model", True, _("{model}: supported", model=model_text))]
        if self.variant_problem:
            findings.append(Finding("variant", False, self.variant_problem,
                                    _("edit [game] variant in {file}", file=self.config_file)))
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
            text = read_text(path)
            if text and not (rel == "boot/config.txt" and "boot/firmware/config.txt" in text):
                return parse_config_txt(text, model, path)
        return BootConfig(None)

    def _where(self, boot: BootConfig) -> str:
        return "/" + str(boot.path.relative_to(self.root)) if boot.path else "/boot/firmware/config.txt"

    def interfaces(self, n: Needs, boot: BootConfig, model: PiModel) -> list[Finding]:
        _ = self._
        where = self._where(boot)
        out = []
        dev = self.root / "dev"
        states = {
            "spi": (boot.param_on("spi"), "SPI", "dtparam=spi", (dev / "spidev0.0").exists()),
            "i2c": (boot.param_on("i2c_arm", "i2c"), "I2C", "dtparam=i2c_arm",
                    (dev / "i2c-1").exists()),
            "audio": (boot.param_on("audio"), _("analog audio"), "dtparam=audio",
                      "snd_bcm2835" in self.modules),
            "i2s": (boot.param_on("i2s"), _("I2S audio"), "dtparam=i2s", None),
        }
        for key, (on, label, line, now) in states.items():
            if key in n.on:
                if not on:
                    fix = f"{line}=on"
                    out.append(Finding(key, False, self._needed_off(key, label),
                                       _("add {line} to {file} and reboot", line=fix,
                                         file=where), (fix,)))
                elif now is False:
                    out.append(Finding(key, False, _("{interface} is on in {file} but not yet "
                                                     "running", interface=label, file=where),
                                       _("reboot (config.txt is read at boot)")))
                else:
                    out.append(Finding(key, True, _("{interface} is on", interface=label)))
            elif key in n.off:
                if on:
                    fix = f"{line}=off"
                    out.append(Finding(key, False, self._in_the_way(key, label, n),
                                       _("add {line} to {file} and reboot", line=fix,
                                         file=where), (fix,)))
                elif key == "audio" and now:
                    out.append(Finding(key, False, _(
                        "the analog audio driver snd_bcm2835 is loaded, but the LEDs on "
                        "GPIO{pin} use the PWM block, which analog audio also drives",
                        pin=self.profile.leds.pin), _(
                        "put `blacklist snd_bcm2835` in /etc/modprobe.d/snd-blacklist.conf "
                        "and reboot")))
                else:
                    out.append(Finding(key, True, _("{interface} is off", interface=label)))
        out += self.uart(n, boot, model, where)
        for line in n.config_lines:
            setting, _sep, value = line.partition("=")
            if boot.settings.get(setting) == value:
                out.append(Finding("core clock", True, _("{line} (SPI LEDs keep their timing)",
                                                         line=line)))
            else:
                out.append(Finding("core clock", False, _(
                    "SPI LEDs on a {model} need {line}: the SPI clock follows the core clock",
                    model=model.name, line=line),
                    _("add {line} to {file} and reboot", line=line, file=where), (line,)))
        return out

    def _needed_off(self, key: str, label: str) -> str:
        """An interface the profile needs, found off."""
        if key == "spi":
            return self._("SPI is off, but the LEDs are sent on SPI0 (/dev/spidev0.0)")
        if key == "i2c":
            return self._("I2C is off, but the MCP23017 expanders are on I2C1")
        return self._("{interface} is off, but the profile needs it", interface=label)

    def _in_the_way(self, key: str, label: str, n: Needs) -> str:
        """An interface found on whose pins or block the profile uses for something else."""
        if key == "audio":
            return self._("analog audio is on, but the LEDs on GPIO{pin} use the PWM block, "
                          "which analog audio also drives", pin=self.profile.leds.pin)
        if key == "i2s":
            return self._("I2S audio is on, but the LEDs on GPIO21 use the PCM block")
        return self._("{interface} is on, but the board uses its pins: {pins}", interface=label,
                      pins=self._pins_used(key, n))

    def _pins_used(self, key: str, n: Needs) -> str:
        """The interface's pins the profile uses, with what each is: `GPIO2 (sensor a7)`."""
        gpios = {"i2c": I2C_GPIOS, "spi": SPI0_GPIOS, "uart": UART_GPIOS}[key]
        return ", ".join(f"GPIO{g} ({words_of(n.pins[g], self.tr)})" for g in gpios if g in n.pins)

    def cmdline(self) -> list[str]:
        for rel in ("boot/firmware/cmdline.txt", "boot/cmdline.txt"):
            text = read_text(self.root / rel)
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
        _ = self._
        consoles = " ".join(a for a in self.cmdline() if a.startswith("console=")
                            and a.partition("=")[2].split(",")[0] in SERIAL_CONSOLES)
        if on:
            fix = (_("add {line} to {file}; remove {console} from cmdline.txt and reboot",
                     line=line, file=where, console=consoles) if consoles else
                   _("add {line} to {file} and reboot", line=line, file=where))
            return [Finding("serial", False, _(
                "the serial port is on GPIO14/15, but the board uses its pins: {pins} (a "
                "closed switch would short its TXD)", pins=self._pins_used("uart", n)),
                fix, (line,))]
        if consoles and not model.pi5:
            return [Finding("serial", False, _(
                "cmdline.txt has {console}: turning the serial port on would put a login "
                "console on the sensors of GPIO14/15", console=consoles),
                _("remove {console} from cmdline.txt", console=consoles), note=True)]
        return [Finding("serial", True, _("the serial port is off GPIO14/15"))]

    @cached_property
    def modules(self) -> frozenset[str]:
        """The loaded kernel modules (/proc/modules), read once."""
        return frozenset(ln.split()[0] for ln in read_text(self.root / "proc/modules").splitlines()
                         if ln.split())

    # -- packages in the install --------------------------------------------------------------
    def packages(self, model: PiModel) -> list[Finding]:
        has = self.has_module or importable
        wanted = []
        if self.profile.leds.backend in ("neopixel", "neopixel_spi") or \
                self.profile.sensors.backend == "mcp23017":
            wanted.append(("gpiod", "gpiod",
                           N_("{module} is missing: Blinka 10 opens the Pi's pins through it")))
        if self.profile.leds.backend == "neopixel":
            wanted.append(("adafruit_raspberry_pi5_neopixel_write",
                           "--pre Adafruit-Blinka-Raspberry-Pi5-Neopixel",
                           N_("{module} is missing: it drives NeoPixels on a Pi 5"))
                          if model.pi5 else
                          ("_rpi_ws281x", "rpi_ws281x",
                           N_("{module} is missing: it drives NeoPixels on a Pi 1-4")))
        if self.profile.sensors.backend == "matrix":
            wanted.append(("RPi.GPIO", "rpi-lgpio",
                           N_("{module} is missing: the matrix scan uses the RPi.GPIO API")))
        out = []
        for module, package, missing in wanted:
            if has(module):
                out.append(Finding("packages", True, self._("{module} is installed",
                                                             module=module)))
            else:
                out.append(Finding("packages", False, self._(missing, module=module), self._(
                    "install it into the board's venv: pip install {package} (or reinstall "
                    "with '.[pi]')", package=package)))
        return out

    # -- the speaker ---------------------------------------------------------------------------
    def speaker(self, n: Needs) -> list[Finding]:
        """espeak-ng, aplay, the language's voice and the sound card. With speech off in the
        configuration a problem is a note: the menu or the page may still turn it on."""
        _ = self._
        setting, on = self.speech, self.speech.enabled
        missing = ", ".join(programs_missing(self.root))
        if missing:
            return [Finding("speech", False, _("{programs} missing: speech is on", programs=missing)
                            if on else _("{programs} missing: speech cannot be turned on",
                                         programs=missing),
                            f"sudo apt install {PACKAGES}", note=not on)]
        out = []
        data = espeak_data(self.root)
        if data is None or not voice_installed(data, setting.language):
            out.append(Finding("speech", False, _(
                N_("espeak-ng has no voice for {language}: speech is on in it") if on else
                N_("espeak-ng has no voice for {language}: speech cannot be turned on in it"),
                language=setting.language), "sudo apt install --reinstall espeak-ng-data",
                note=not on))
        cards = sound_cards(self.root)
        card = device_card(setting.device)
        listed = ", ".join(cards.values())
        if not cards:
            out.append(Finding("speech", False, _("no sound card (/proc/asound/cards): nothing "
                                                  "to speak on"), _(
                "plug in a USB speaker, or use the Pi's HDMI or jack (dtparam=audio=on, where "
                "the LEDs leave the jack free)"), note=not on))
        elif card is not None and card not in cards and card not in cards.values():
            out.append(Finding("speech", False, _(
                "[speech] device {device} names card {card}, which is not here (cards: "
                "{cards})", device=repr(setting.device), card=card, cards=listed),
                _("set [speech] device in {file} to one of `aplay -L`", file=self.config_file),
                note=not on))
        elif "audio" in n.off and card in (PI_JACK, *(k for k, v in cards.items() if v == PI_JACK)):
            out.append(Finding("speech", False, _(
                "[speech] device is the Pi's jack, but the LEDs on GPIO{pin} use the PWM block, "
                "which analog audio also drives", pin=self.profile.leds.pin), _(
                "use a USB speaker (plughw:CARD=Device) or HDMI: set [speech] device in {file}",
                file=self.config_file), note=not on))
        if not out:
            if setting.device:
                said = _(N_("espeak-ng speaks {language} on {device} (cards: {cards})") if on
                         else N_("espeak-ng speaks {language} on {device} (cards: {cards}); "
                                 "speech is off"),
                         language=setting.language, device=setting.device, cards=listed)
            else:
                said = _(N_("espeak-ng speaks {language} on the default device (cards: "
                            "{cards})") if on
                         else N_("espeak-ng speaks {language} on the default device (cards: "
                                 "{cards}); speech is off"), language=setting.language,
                         cards=listed)
            out.append(Finding("speech", True, said))
        return out

    # -- service, user, devices, install -------------------------------------------------------
    def unit(self) -> dict[str, str]:
        text = read_text(self.root / "etc/systemd/system" / UNIT_NAME)
        keys: dict[str, str] = {}
        for line in text.splitlines():
            key, sep, value = line.partition("=")
            if sep and not line.startswith("#"):
                keys.setdefault(key.strip(), value.strip())
        return keys

    def service(self, n: Needs, state: str) -> list[Finding]:
        _ = self._
        unit = self.unit()
        install = f"sudo /opt/navakankari/bin/navakankari service install --config {self.config_file}"
        if not unit:
            return [Finding("service", False, _("{unit} is not installed", unit=UNIT_NAME),
                            _("install it from the board's venv: {command}", command=install))]
        out = []
        if state == "active":
            out.append(Finding("service", True, _(
                "{unit} is running (stop it before selftest or calibrate: sudo systemctl stop "
                "navakankari)", unit=UNIT_NAME)))
        else:
            out.append(Finding("service", False, _("{unit} is {state}", unit=UNIT_NAME,
                                                   state=state),
                               _("see why: journalctl -u navakankari -b; start it: sudo "
                                 "systemctl start navakankari")))
        user = unit.get("User", SERVICE_USER)
        if n.root and user != "root":
            out.append(Finding("user", False, _(
                "the service runs as {user}, but the LEDs need root on this model (/dev/mem, "
                "/dev/vcio)", user=user), _("reinstall: {command}", command=install)))
            return out
        out += self.account(n, user)
        out += self.readable(user, unit.get("ExecStart", ""))
        return out

    @cached_property
    def accounts(self) -> tuple[dict[str, Account], dict[str, int]]:
        """Users and group ids (/etc/passwd, /etc/group), read once."""
        return read_accounts(self.root)

    def account(self, n: Needs, user: str) -> list[Finding]:
        _ = self._
        if user == "root":
            return [Finding("user", True, _("the service runs as root"))]
        users, gids = self.accounts
        account = users.get(user)
        if account is None:
            return [Finding("user", False, _("the service user {user} does not exist", user=user),
                            _("reinstall the service (it creates the user)"))]
        out = []
        missing = [g for g in n.groups if g not in account.groups]
        if missing:
            out.append(Finding("groups", False, _("{user} is not in {groups}", user=user,
                                                  groups=", ".join(missing)),
                               f"sudo usermod -aG {','.join(missing)} {user}"))
        elif n.groups:
            out.append(Finding("groups", True, _("{user} is in {groups}", user=user,
                                                 groups=", ".join(n.groups))))
        else:
            out.append(Finding("groups", True, _("{user} needs no extra group", user=user)))
        for device in n.devices:
            nodes = sorted((self.root / "dev").glob(device.path.removeprefix("/dev/")))
            if not nodes:
                if device is PIO:
                    out.append(Finding("devices", False, _(
                        "/dev/pio0 is missing: the Pi 5 NeoPixel driver needs it"), _(
                        "update the Pi's firmware and kernel (sudo apt full-upgrade) and "
                        "reboot")))
                continue  # SPI and I2C nodes: the interface checks say what to turn on
            for node in nodes:
                if not group_can_use(node, device.group, gids):
                    fix = _("add the udev rule {rule} to /etc/udev/rules.d/99-com.rules and "
                            "reboot", rule=PIO_UDEV_RULE) if device is PIO else _(
                        "give {node} to the {group} group (Raspberry Pi OS's udev rules do)",
                        node=node.name, group=device.group)
                    out.append(Finding("devices", False, _(
                        "/dev/{node} is not read-write for the {group} group", node=node.name,
                        group=device.group), fix))
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
            blocked = blocked_at(self.root, Path(path), account, gids)
            if blocked is None:
                out.append(Finding("install", True, self._("{user} can read {file}", user=user,
                                                           file=path)))
            else:
                out.append(Finding("install", False, self._(
                    "{user} cannot read {file}: {folder} is closed to it", user=user, file=path,
                    folder=blocked), self._(
                    "install the venv where the service user can read it (wiring/INSTALL.md: "
                    "/opt/navakankari), or sudo chmod o+rx {folder}", folder=blocked)))
        return out

    # -- pins -----------------------------------------------------------------------------------
    def pins(self, n: Needs, boot: BootConfig, state: str) -> list[Finding]:
        _ = self._
        out = []
        for name, args in boot.overlays:
            if name in W1_OVERLAYS:
                pin = int(args.get("gpiopin", W1_DEFAULT_PIN))
                if pin in n.pins:
                    line = f"dtoverlay={name}{''.join(f',{k}={v}' for k, v in args.items())}"
                    out.append(Finding("1-wire", False, _(
                        "1-Wire ({overlay}) holds GPIO{pin}, which is {use}", overlay=name,
                        pin=pin, use=words_of(n.pins[pin], self.tr)), _(
                        "delete the line {line} from {file} and reboot", line=line,
                        file=self._where(boot))))
        if not out and "w1_gpio" in self.modules:
            out.append(Finding("1-wire", False, _(
                "the 1-Wire driver w1_gpio is loaded and holds a pin (GPIO4 unless configured "
                "otherwise)"), _("remove dtoverlay=w1-gpio from config.txt and reboot"),
                note=W1_DEFAULT_PIN not in n.pins))
        users = self.line_users(self.root, sorted(n.pins))
        if users:
            # The SPI controller's driver holds its chip-select lines (GPIO7/8) as GPIOs: those
            # are the profile's own SPI0, not another program's pins.
            users = {p: who for p, who in users.items()
                     if not (p in SPI0_GPIOS and n.pins[p].endswith("SPI0") and
                             who.startswith(SPI_DRIVERS))}
        if users is None:
            out.append(Finding("pins", True, _(
                "the owners of the GPIO lines could not be read (run doctor as a member of the "
                "gpio group to see them)"), note=True))
        elif users and state == "active":
            out.append(Finding("pins", True, self.tr.ngettext(
                "{n} of the profile's pins is held, by the running service",
                "{n} of the profile's pins are held, by the running service",
                len(users)).format(n=len(users)), note=True))
        elif users:
            held = ", ".join(_("GPIO{pin} ({use}) by {owner}", pin=p,
                               use=words_of(n.pins[p], self.tr),
                               owner=repr(who))
                             for p, who in sorted(users.items()))
            out.append(Finding("pins", False, _("pins are already held: {pins}", pins=held), _(
                "stop the program or remove the overlay that holds them (gpioinfo names every "
                "line's owner)")))
        else:
            out.append(Finding("pins", True, _("no other program or driver holds the profile's "
                                               "pins")))
        return out


def preflight(profile: Profile, command: str, *, root: Path = Path("/"), euid: int | None = None,
              service_state: Callable[[], str] = systemctl_state,
              tr: Translator = ENGLISH) -> str | None:
    """Why `selftest` or `calibrate` cannot open the board here, before it tries: the
    service holds the pins, or the LEDs need root on this model (in `tr`'s language). None
    when nothing stops it (always on a computer that is no supported Pi, where the simulated
    board runs)."""
    import os
    import sys

    from navakankari.hal.board import BACKEND_ENV, SIM

    model = model_named(read_text(root / "proc/device-tree/model"))
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
