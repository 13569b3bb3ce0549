"""The checks tests/pi/run.sh runs on the emulated Raspberry Pi 3B (QEMU's raspi3b machine).

Boots the image build-image.sh made, installs the project as wiring/INSTALL.md tells a maker,
and prints one line per check: PASS, FAIL, or NOT POSSIBLE where the emulator lacks what a
Pi has (and why), then a summary. Sensor levels are set from outside through QEMU's qtest
socket (the BCM2837 GPIO block's GPSET/GPCLR registers); QEMU's GPIO model has no pull-ups and
raises no edge interrupts, so every sensor pin is first set high (a pull-up's level) and the
daemon sees changes through its reads (the matrix scan, the direct-GPIO poll).

Standard library only: it runs on the host, which needs no venv of the project.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
GPIO_BASE = 0x3F200000
GPSET, GPCLR, GPLEV = 0x1C, 0x28, 0x34
SPI_BIT0, SPI_BIT1 = 0xC0, 0xF8  # hal/backends/neopixel_leds.py
STORE = "/var/lib/navakankari/games.sqlite3"
CONFIG = "/etc/navakankari/navakankari.toml"
VENV = "/opt/navakankari"
# Raspberry Pi OS's groups for the devices and the lines of its udev rules (99-com.rules)
# that give them their devices; the default user "pi" is in all three.
PI_OS_RULES = """\
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"
SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"
"""
# A Nau Keti Keta board as a one-row matrix with SPI LEDs: QEMU's GPIO inputs do not follow
# the row the scan drives low (a column set low reads low on every row), so each point has a
# column of its own; the scan, the RPi.GPIO API (rpi-lgpio) and the LEDs are the real ones.
MATRIX_COLUMNS = [3, 4, 5, 6, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27]
NKK_POINTS = ["a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "d4", "c3", "d3", "e3",
              "b2", "d2", "f2", "a1", "d1", "g1"]


def matrix_profile() -> str:
    lines = ["[board]", 'name = "Nau Keti Keta 19 points, 1 x 19 matrix (emulator), SPI LEDs"',
             "points = [" + ", ".join(f'"{p}"' for p in NKK_POINTS) + "]", "",
             "[sensors]", 'backend = "matrix"', "rows = [2]",
             f"columns = {MATRIX_COLUMNS}", "scan_hz = 100", "", "[sensors.cells]"]
    lines += [f"{p} = [0, {i}]" for i, p in enumerate(NKK_POINTS)]
    lines += ["", "[leds]", 'backend = "neopixel_spi"', "pin = 10", 'pixel_order = "GRB"',
              "brightness = 0.25", "gamma = 2.6", f"count = {len(NKK_POINTS)}", "", "[leds.index]"]
    lines += [f"{p} = {i}" for i, p in enumerate(NKK_POINTS)]
    return "\n".join(lines) + "\n"


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())}] {text}", flush=True)


class Report:
    """One line per check, and the summary."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str, str]] = []

    def add(self, status: str, name: str, detail: str) -> None:
        self.lines.append((status, name, detail))
        print(f"{status:<12} {name}: {detail}", flush=True)

    def passed(self, name: str, detail: str) -> None:
        self.add("PASS", name, detail)

    def failed(self, name: str, detail: str) -> None:
        self.add("FAIL", name, detail)

    def impossible(self, name: str, why: str) -> None:
        self.add("NOT POSSIBLE", name, why)

    def check(self, ok: bool, name: str, detail: str) -> bool:
        (self.passed if ok else self.failed)(name, detail)
        return ok

    def summary(self) -> int:
        counts = {s: sum(1 for x, _, _ in self.lines if x == s)
                  for s in ("PASS", "FAIL", "NOT POSSIBLE")}
        print("\n== summary: " + ", ".join(f"{n} {s}" for s, n in counts.items()), flush=True)
        for status, name, _ in self.lines:
            print(f"   {status:<12} {name}")
        return 1 if counts["FAIL"] else 0


class Qtest:
    """QEMU's qtest socket: read and write the BCM2837's GPIO registers from outside."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(30)
        self.sock.connect(str(path))
        self.buf = b""

    def _ask(self, line: str) -> str:
        self.sock.sendall(line.encode() + b"\n")
        while b"\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise OSError("qtest socket closed")
            self.buf += chunk
        answer, _, self.buf = self.buf.partition(b"\n")
        text = answer.decode()
        if not text.startswith("OK"):
            raise OSError(f"qtest: {line!r} -> {text!r}")
        return text

    def set_level(self, pin: int, high: bool) -> None:
        register = GPIO_BASE + (GPSET if high else GPCLR) + 4 * (pin // 32)
        self._ask(f"writel {register:#x} {1 << (pin % 32):#x}")

    def level(self, pin: int) -> bool:
        value = int(self._ask(f"readl {GPIO_BASE + GPLEV + 4 * (pin // 32):#x}").split()[1], 16)
        return bool(value >> (pin % 32) & 1)

    def close(self) -> None:
        self.sock.close()


class Guest:
    """One QEMU raspi3b run of the work copy of the image, reached by ssh as `pi`."""

    def __init__(self, image: Path, work: Path, qemu: Path, port: int) -> None:
        self.image, self.work, self.qemu, self.port = image, work, qemu, port
        self.proc: subprocess.Popen[bytes] | None = None
        self.boots = 0

    def boot(self, dtb: str, timeout: float = 900,
             before: Callable[[Qtest], None] | None = None) -> float:
        """Start QEMU and wait for ssh; `before` gets the qtest socket as soon as QEMU
        serves it, before the guest's kernel runs (sensor levels the daemon must find)."""
        self.boots += 1
        started = time.monotonic()
        qtest = self.work / "qtest.sock"
        qtest.unlink(missing_ok=True)
        env = dict(os.environ, QEMU_MODULE_DIR=str(self.qemu / "usr/lib/x86_64-linux-gnu/qemu"))
        # One host thread for the guest's four cores (thread=single), niced: the machine is
        # shared, and the emulator would otherwise take a host core per guest core.
        argv = ["nice", "-n", os.environ.get("PI_NICE", "10"),
                str(self.qemu / "usr/bin/qemu-system-aarch64"),
                "-L", str(self.qemu / "usr/share/qemu"), "-M", "raspi3b",
                "-accel", "tcg,thread=single",
                "-kernel", str(self.image / "vmlinuz"), "-initrd", str(self.image / "initrd.img"),
                "-dtb", str(self.image / dtb),
                "-append", "console=ttyAMA0,115200 root=/dev/mmcblk0 rootfstype=ext4 rootwait rw",
                "-drive", f"file={self.work / 'sd.img'},if=sd,format=raw",
                "-netdev", f"user,id=n,hostfwd=tcp:127.0.0.1:{self.port}-:22",
                "-device", "usb-net,netdev=n", "-display", "none", "-nodefaults",
                "-serial", f"file:{self.work / f'serial-{self.boots}.log'}",
                "-qtest", f"unix:{qtest},server=on,wait=off"]
        self.proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                                     stdout=open(self.work / f"qemu-{self.boots}.log", "wb"),
                                     stderr=subprocess.STDOUT)
        (self.work / "qemu.pid").write_text(str(self.proc.pid))  # run.sh's cleanup kills it
        if before is not None:
            while not qtest.exists() and self.proc.poll() is None:
                time.sleep(0.05)
            before(self.qtest())
        said = started
        while time.monotonic() - started < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"QEMU ended ({self.proc.returncode}); see {self.work}")
            if self.ssh("true", timeout=20, connect=15).returncode == 0:
                return time.monotonic() - started
            if time.monotonic() - said > 30:
                said = time.monotonic()
                log(f"   booting ({dtb}): {said - started:.0f} s")
            time.sleep(5)
        raise RuntimeError(f"no ssh after {timeout:.0f} s; see {self.work}/serial-{self.boots}.log")

    def qtest(self) -> Qtest:
        return Qtest(self.work / "qtest.sock")

    def ssh(self, command: str, *, timeout: float = 600, user: str = "pi",
            data: bytes | None = None, connect: float = 120) -> subprocess.CompletedProcess[str]:
        """`command` as `user`; a connection that fails (ssh's own status 255, no output: a
        busy emulated guest can take longer than `connect` to say its banner) is tried
        twice more."""
        argv = ["ssh", "-q", "-i", str(self.image / "id_ed25519"), "-p", str(self.port),
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", f"ConnectTimeout={connect:.0f}", "-o", "BatchMode=yes",
                f"{user}@127.0.0.1", command]
        for attempt in range(3):
            try:
                out = subprocess.run(argv, input=data if data is not None else b"",
                                     capture_output=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                return subprocess.CompletedProcess(argv, 124, "", f"timed out after {timeout:.0f} s")
            if out.returncode != 255 or out.stdout or connect < 60 or attempt == 2:
                break
            time.sleep(10)
        return subprocess.CompletedProcess(argv, out.returncode, out.stdout.decode(errors="replace"),
                                           out.stderr.decode(errors="replace"))

    def long(self, command: str, what: str, timeout: float) -> tuple[subprocess.CompletedProcess[str], float]:
        """A long command, with a progress line every minute."""
        started = time.monotonic()
        argv = ["ssh", "-q", "-i", str(self.image / "id_ed25519"), "-p", str(self.port),
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "BatchMode=yes", "pi@127.0.0.1", command]
        out_path = self.work / f"{what.replace(' ', '-')}.log"
        with open(out_path, "w") as out:
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, text=True)
            while proc.poll() is None:
                if time.monotonic() - started > timeout:
                    proc.kill()
                    break
                time.sleep(5)
                spent = time.monotonic() - started
                if int(spent) % 60 < 5:
                    tail = out_path.read_text(errors="replace").strip().splitlines()[-1:] or [""]
                    log(f"   {what}: {spent:.0f} s ({tail[0][:100]})")
        text = out_path.read_text(errors="replace")
        return subprocess.CompletedProcess(argv, proc.returncode if proc.returncode is not None
                                           else 124, text, ""), time.monotonic() - started

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.proc = None

    def shutdown(self) -> None:
        if self.proc is None:
            return
        self.ssh("sudo systemctl poweroff", timeout=30)
        try:
            self.proc.wait(timeout=180)
        except subprocess.TimeoutExpired:
            pass
        self.kill()


#: Files of the clone neither the install nor the checks read: the KiCad documents (six
#: sevenths of the tree), which would take minutes through ssh under emulation.
NOT_COPIED = ("wiring/kicad/",)


def sources() -> bytes:
    """The project's files (as git lists them, as they are in the work tree, but NOT_COPIED),
    as a gzipped tar."""
    names = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True,
                           check=True).stdout.decode().split("\0")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=6) as tar:
        for name in names:
            path = REPO / name
            if name and path.is_file() and not name.startswith(NOT_COPIED):
                tar.add(path, arcname=name)
    return buf.getvalue()


LOCAL_CAS: list[bytes] = []


def local_cas() -> None:
    """The host's own CA certificates (/usr/local/share/ca-certificates), as a tar: where the
    host reaches the package index through a TLS-inspecting proxy, the guest needs them."""
    found = sorted(Path("/usr/local/share/ca-certificates").glob("*.crt"))
    if found and not LOCAL_CAS:
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            for path in found:
                tar.add(path, arcname=path.name)
        LOCAL_CAS.append(buf.getvalue())


def engine_path() -> Path:
    """A folder whose navakankari/engine is this tree's engine/ (a namespace package, as the
    installed one is), made once per run in a temporary folder."""
    if not ENGINE_PATH:
        folder = Path(tempfile.mkdtemp(prefix="navakankari-engine-"))
        (folder / "navakankari").mkdir()
        (folder / "navakankari" / "engine").symlink_to(REPO / "engine")
        ENGINE_PATH.append(folder)
    return ENGINE_PATH[0]


ENGINE_PATH: list[Path] = []


def config_text(variant: str, profile: str, black: str = "computer:1") -> str:
    return (f'[game]\nvariant = "{variant}"\nwhite = "hand"\nblack = "{black}"\nmenu = false\n'
            f'[board]\nprofile = "{profile}"\n')


class Game:
    """A short game played from outside: a level set low is a pebble on that point (the
    sensors' pull-up reads high on an empty one); the store says what was committed, and the
    engine on the Pi what the board should show after each action."""

    def __init__(self, guest: Guest, qt: Qtest, pins: dict[str, int], variant: str) -> None:
        self.guest, self.qt, self.pins, self.variant = guest, qt, pins, variant
        self.on: set[str] = set()

    def position(self, actions: list[str]) -> dict:
        """position.py run on the host with this tree's engine (pure Python, the standard
        library only): under emulation one command in the guest takes tens of seconds, and
        the engine's equality on arm64 is a check of its own."""
        out = subprocess.run([sys.executable, "-S", str(HERE / "position.py"), self.variant,
                              *actions], capture_output=True, text=True, timeout=120,
                             env=dict(os.environ, PYTHONPATH=str(engine_path())))
        if out.returncode != 0:
            raise RuntimeError(f"position.py failed: {out.stderr[-300:]}")
        return json.loads(out.stdout)

    def show(self, occupied: set[str]) -> None:
        """The hand lifts what is no longer there, then puts down what is new."""
        for point in sorted(self.on - occupied):
            self.qt.set_level(self.pins[point], True)
        time.sleep(0.05)
        for point in sorted(occupied - self.on):
            self.qt.set_level(self.pins[point], False)
        self.on = set(occupied)

    def levels(self) -> None:
        """Every point as the board has it (at start, or after a boot: QEMU forgot them)."""
        for point, pin in self.pins.items():
            self.qt.set_level(pin, point not in self.on)

    def stored(self) -> tuple[int, list[str]] | None:
        code = ("import sqlite3, json; c = sqlite3.connect('%s'); "
                "g = c.execute('select id from games order by id desc limit 1').fetchone(); "
                "print(json.dumps([g[0], [r[0] for r in c.execute("
                "'select text from actions where game=? order by ply', (g[0],))]]) if g else 'null')"
                % STORE)
        out = self.guest.ssh(f"sudo test -e {STORE} && sudo python3 -c {shlex.quote(code)}",
                             timeout=60)
        if out.returncode != 0 or not out.stdout.strip():
            return None
        value = json.loads(out.stdout.strip())
        return None if value is None else (value[0], value[1])

    def until(self, count: int, timeout: float = 300) -> tuple[int, list[str]] | None:
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            got = self.stored()
            if got is not None and len(got[1]) >= count:
                return got
            time.sleep(3)
        return self.stored()


def computer_lines(guest: Guest) -> list[list[str]]:
    out = guest.ssh("sudo journalctl -u navakankari -b --no-pager -o cat", timeout=120).stdout
    return [line.split("computer plays", 1)[1].split() for line in out.splitlines()
            if "computer plays" in line]


def play(guest: Guest, game: Game, report: Report, name: str, moves: int,
         on_action: Callable[[list[str]], None] | None = None) -> tuple[int, list[str]] | None:
    """White (a hand) plays the first legal action; black (the computer) answers and a hand
    carries its action out; until the store holds `moves` actions of the game."""
    got = game.stored()
    actions = got[1] if got else []
    while len(actions) < moves:
        pos = game.position(actions)
        if pos["over"]:
            break
        if pos["turn"] == "white":
            played = [pos["legal"][0]]
            log(f"   {name}: white (a hand) plays {played[0]}")
        else:
            seen = len(computer_lines(guest))
            started = time.monotonic()
            lines: list = []
            while time.monotonic() - started < 300:
                lines = computer_lines(guest)
                if len(lines) > seen or (lines and pos["legal"] and lines[-1][0] in pos["legal"]):
                    break
                time.sleep(3)
            if not lines:
                report.failed(name, "the computer did not answer")
                return None
            played = lines[-1]
            log(f"   {name}: black (computer) plays {' '.join(played)}; a hand carries it out")
        game.show(set(game.position(actions + played)["occupied"]))
        got = game.until(len(actions) + len(played))
        if got is None or len(got[1]) < len(actions) + len(played):
            report.failed(name, f"{' '.join(played)} was not stored (store: {got})")
            return None
        actions = got[1]
        if on_action is not None:
            on_action(actions)
    return game.stored()


def decode_frame(length: int, data: bytes, leds: int) -> list[tuple[int, int, int]] | None:
    """RGB of each LED from a transfer of `length` bytes whose bytes from SKIP are `data`:
    neopixel_spi sends a reset of zero bytes (as many as 80 us take at its rate) on each side
    of one byte a bit, GRB order. None if the frame is not of that shape."""
    reset, odd = divmod(length - 24 * leds, 2)
    start = reset - SKIP
    if odd or start < 0 or data[:start] != bytes(start):
        return None
    out = []
    for i in range(leds):
        chunk = data[start + i * 24:start + (i + 1) * 24]
        if len(chunk) < 24 or any(b not in (SPI_BIT0, SPI_BIT1) for b in chunk):
            return None
        bits = "".join("1" if b == SPI_BIT1 else "0" for b in chunk)
        g, r, b = (int(bits[k:k + 8], 2) for k in (0, 8, 16))
        out.append((r, g, b))
    return out


# The bytes of each SPI transfer, as the controller's driver gets them: a kprobe on
# bcm2835_spi_transfer_one(ctlr, spi, transfer) fetches the length and 512 bytes from the
# 56th (the spi:spi_transfer_start tracepoint keeps only the first 64, and neopixel_spi sends
# 62 zero bytes of reset first). struct spi_transfer starts with tx_buf, rx_buf, len.
SKIP = 56
KPROBE = f"p:nk/frame bcm2835_spi_transfer_one len=+16($arg3):u32 tx=+{SKIP}(+0($arg3)):x64[64]"


def trace_spi(guest: Guest) -> str:
    """Sets the kprobe (given on stdin: its $arg3 and parentheses are not for a shell); ''
    when set, else what the kernel said. Appended by the shell's `>>`: `tee -a` on
    kprobe_events fails with EINVAL on the guest's 6.1 kernel, even for a bare probe."""
    out = guest.ssh("sudo sh -c 'cat >> /sys/kernel/tracing/kprobe_events'"
                    " && echo 1 | sudo tee /sys/kernel/tracing/events/nk/frame/enable >/dev/null"
                    " && echo | sudo tee /sys/kernel/tracing/trace >/dev/null",
                    data=KPROBE.encode() + b"\n", timeout=60)
    if out.returncode == 0:
        return ""
    said = guest.ssh("sudo cat /sys/kernel/tracing/error_log", timeout=60).stdout
    return " ".join((out.stderr + " " + said).split())[-300:]


def spi_frames(guest: Guest) -> list[tuple[int, bytes]]:
    """Every SPI transfer traced since tracing began: its length and its bytes from SKIP."""
    return parse_trace(guest.ssh("sudo cat /sys/kernel/tracing/trace", timeout=120).stdout)


def parse_trace(text: str) -> list[tuple[int, bytes]]:
    """(length, bytes from SKIP) of each `nk/frame` line of the kernel's trace: the kprobe
    prints the bytes as 64 little-endian u64 values."""
    frames = []
    for length, values in re.findall(r"len=(\d+) tx=\{([0-9a-fx,]*)\}", text):
        data = b"".join(int(v, 16).to_bytes(8, "little") for v in values.split(",") if v)
        frames.append((int(length), data))
    return frames


def unit_state(guest: Guest) -> dict[str, str]:
    out = guest.ssh("sudo systemctl show navakankari -p ActiveState -p SubState -p NRestarts "
                    "-p ExecMainStatus -p MainPID", timeout=60).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def wait_active(guest: Guest, timeout: float = 900) -> dict[str, str]:
    started = time.monotonic()
    state = unit_state(guest)
    while time.monotonic() - started < timeout:
        state = unit_state(guest)
        if state.get("ActiveState") == "active" or state.get("SubState") == "failed":
            break
        time.sleep(5)
    return state


def denials(guest: Guest) -> list[str]:
    out = guest.ssh("sudo journalctl -u navakankari -b --no-pager -o cat", timeout=120).stdout
    bad = re.compile(r"denied|EPERM|Operation not permitted|Traceback|seccomp|SIGSYS", re.I)
    return [line for line in out.splitlines() if bad.search(line)]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--image", required=True, type=Path)
    ap.add_argument("--qemu", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--port", type=int, default=10022)
    args = ap.parse_args()
    report = Report()
    guest = Guest(args.image, args.work, args.qemu, args.port)
    reference = json.loads((HERE / "x86-reference.json").read_text())
    try:
        run(guest, report, reference)
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        report.failed("run", f"stopped: {exc}")
    finally:
        guest.shutdown()
        for folder in ENGINE_PATH:
            shutil.rmtree(folder, ignore_errors=True)
    return report.summary()


def what_the_emulator_lacks(report: Report) -> None:
    """The NOT POSSIBLE lines, first: what a Pi has and QEMU's raspi3b has not."""
    report.impossible("edge interrupts", "QEMU's BCM2835 GPIO model raises none: /proc/interrupts "
                      "counts 0 for a requested edge; the direct-GPIO game is seen through the backend's poll")
    report.impossible("pull-ups", "QEMU's GPIO model has no pull-ups (inputs read 0 after boot): "
                      "the checks set every sensor pin high from outside")
    report.impossible("PWM/PCM LEDs (rpi_ws281x)", "no VideoCore mailbox (/dev/vcio) and no PWM in "
                      "QEMU: ws2811_init fails with code -9")
    report.impossible("MCP23017 expanders", "QEMU has no MCP23017 model (only pca9552/pca9554)")
    report.impossible("speed", "TCG emulation says nothing about a Pi's speed: no timing here is "
                      "a Pi's")


def run(guest: Guest, report: Report, reference: dict) -> None:
    what_the_emulator_lacks(report)
    log("boot 1: the Raspberry Pi 3 Model B device tree")
    took = guest.boot("bcm2837-rpi-3-b-nk-nospidma.dtb")
    report.passed("boot (3B)", f"ssh answered {took:.0f} s after QEMU started")
    guest.ssh(f"sudo date -s @{int(time.time())}", timeout=60)  # no RTC: TLS needs the date
    up = guest.ssh("mkdir -p ~/navakankari && tar -xz -C ~/navakankari", data=sources(), timeout=900)
    if up.returncode != 0:
        raise RuntimeError(f"copying the sources failed: {up.stderr}")
    local_cas()
    if LOCAL_CAS:  # a host behind a TLS-inspecting proxy: pip trusts what the host trusts
        # One bundle, Debian's and the host's, named in pip.conf: update-ca-certificates
        # would rehash every certificate, minutes under emulation.
        up = guest.ssh("d=$(mktemp -d) && tar -x -C $d && cat /etc/ssl/certs/ca-certificates.crt"
                       " $d/*.crt | sudo tee /etc/pip-ca.pem >/dev/null && rm -r $d"
                       " && printf '[global]\\ncert = /etc/pip-ca.pem\\n'"
                       " | sudo tee /etc/pip.conf >/dev/null", data=LOCAL_CAS[0], timeout=900)
        log(f"   the host's local CA certificates given to pip ({up.returncode})")

    # -- the documented install (wiring/INSTALL.md, step 3) ---------------------------------
    log("install: as wiring/INSTALL.md step 3 (pip builds rpi_ws281x: several minutes)")
    steps = (f'sudo python3 -m venv {VENV} && sudo {VENV}/bin/pip install "$HOME/navakankari[pi]" '
             f'&& sudo rm -rf "$HOME/navakankari/build" "$HOME"/navakankari/*.egg-info')
    out, took = guest.long(steps, "pip install", 3600)  # 40 min was too short under load
    if not report.check(out.returncode == 0, "install (pip install .[pi])",
                        f"{took:.0f} s" if out.returncode == 0 else out.stdout[-400:]):
        return
    out, took = guest.long(f"sudo {VENV}/bin/navakankari build-engine", "build-engine", 900)
    report.check(out.returncode == 0, "install (build-engine)", f"{took:.0f} s; "
                 + " ".join(out.stdout.strip().splitlines()[-1:]))

    # -- the engine's x86 results on arm64 -------------------------------------------------
    log("engine: perft and fixed-depth searches against the x86 figures")
    out, took = guest.long(f"{VENV}/bin/python ~/navakankari/tests/pi/engine_reference.py",
                           "engine figures", 1800)
    try:
        figures = json.loads(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        figures = {}
    differ = sorted(k for k in reference if figures.get(k) != reference[k])
    report.check(not differ, "engine on arm64 = x86 (perft, fixed-depth searches, C core and "
                 "Python)", f"{len(reference) - len(differ)} of {len(reference)} figures equal"
                 + (f"; differ: {', '.join(differ)} ({ {k: figures.get(k) for k in differ} })"
                    if differ else f" (core built: {figures.get('core')})"))

    board_checks(guest, report, reference)


def board_checks(guest: Guest, report: Report, reference: dict) -> None:
    """Everything after the install: service install, doctor, the unit, the games, the LEDs,
    the power cut, the matrix profile and a configuration that cannot work."""
    # -- service install on plain Debian: no Raspberry Pi OS groups -------------------------
    cli = f"sudo {VENV}/bin/navakankari"
    guest.ssh(f"sudo mkdir -p /etc/navakankari && echo {shlex.quote(config_text('nau-keti-keta', 'direct-spi-19'))}"
              f" | sudo tee {CONFIG} >/dev/null")
    out = guest.ssh(f"{cli} service install --config {CONFIG}", timeout=1200)
    report.check(out.returncode == 2 and "this system has no group" in out.stderr
                 and "useradd" not in out.stderr,
                 "service install without the gpio/spi/i2c groups explains",
                 " ".join(out.stderr.split())[:160])
    guest.ssh("sudo groupadd --system gpio; sudo groupadd --system spi; sudo groupadd --system i2c;"
              " sudo usermod -aG gpio,spi,i2c pi; "
              f"echo {shlex.quote(PI_OS_RULES)} | sudo tee /etc/udev/rules.d/99-com.rules >/dev/null;"
              " sudo udevadm control --reload && sudo udevadm trigger && sudo udevadm settle")

    # -- a variant the profile has no points for -----------------------------------------------
    guest.ssh(f"echo {shlex.quote(config_text('navakankari', 'direct-spi-19'))} | sudo tee /tmp/wrong.toml >/dev/null")
    out = guest.ssh(f"{cli} service install --dry-run --config /tmp/wrong.toml")
    report.check(out.returncode == 2 and "no sensors for" in out.stderr,
                 "service install refuses a variant the profile has no points for",
                 " ".join(out.stderr.split())[:160])

    # -- doctor on the 3B ----------------------------------------------------------------------
    doctor_check(guest, report, "3B", cli)

    # -- the hardened unit, a game through the direct-GPIO poll, LED frames through SPI --------
    qt = guest.qtest()
    profile = tomllib.loads((REPO / "wiring/direct-spi-19.toml").read_text())
    pins = {p: int(v) for p, v in profile["sensors"]["pins"].items()}
    led_order = sorted(profile["leds"]["index"], key=profile["leds"]["index"].get)
    game = Game(guest, qt, pins, "nau-keti-keta")
    game.on = set(game.position([])["occupied"])
    game.levels()  # the pebbles set out as the game starts
    traced = trace_spi(guest)
    # The one change to the installed unit: emulated, the daemon's start (an interpreter and
    # its modules) can outlast systemd's 90 s for READY=1; a Pi starts it in seconds.
    guest.ssh("sudo mkdir -p /etc/systemd/system/navakankari.service.d && printf "
              "'[Service]\\nTimeoutStartSec=900\\n' | sudo tee "
              "/etc/systemd/system/navakankari.service.d/emulated.conf >/dev/null")
    log("unit: service install (direct-spi-19, computer:1 as black; emulated start: "
        "TimeoutStartSec=900 in a drop-in)")
    out = guest.ssh(f"{cli} service install --config {CONFIG}", timeout=1200)
    state = wait_active(guest)
    report.check(out.returncode == 0 and state.get("ActiveState") == "active",
                 "hardened unit starts (direct-spi-19)", f"{state}" + (
                     "" if out.returncode == 0 else f"; {out.stdout[-200:]} {out.stderr[-200:]}"))
    exposure = guest.ssh("sudo systemd-analyze security navakankari --no-pager | tail -1").stdout.strip()
    got = play(guest, game, report, "game (direct GPIO, polled)", 4)
    frames = spi_frames(guest)
    if got is not None:
        report.check(len(got[1]) >= 4, "game (direct GPIO, polled): committed actions in the store",
                     f"game {got[0]}: {' '.join(got[1])}")
    computer = guest.ssh("sudo journalctl -u navakankari -b --no-pager -o cat "
                         "| grep -c 'computer plays'").stdout.strip()
    # From /: in the home folder the source tree's folder named navakankari would be imported.
    engine_line = guest.ssh(f"cd / && {VENV}/bin/python -c 'from navakankari.engine import core; "
                            "print(core.available())'").stdout.strip()
    state = unit_state(guest)
    bad = denials(guest)
    report.check(state.get("ActiveState") == "active" and state.get("NRestarts") == "0" and not bad,
                 "hardened unit stays up, no denial",
                 f"{state.get('ActiveState')}, NRestarts={state.get('NRestarts')}, computer "
                 f"moves {computer} (Nau Keti Keta: Python search); {exposure}"
                 + (f"; journal: {bad[:3]}" if bad else ""))
    priority_check(guest, report, state.get("MainPID", "0"))
    probe = core_under_filters(guest)
    report.check(probe.startswith("core True") and reference["search core start 5"]["pv"] in probe,
                 "the C core's callback under the unit's filters (MemoryDenyWriteExecute, seccomp)",
                 f"{probe} (core built: {engine_line})")
    if not traced:
        leds_check(report, frames, led_order)
    else:
        report.failed("LED frames leave through SPI with the colours lit",
                      f"the kprobe on bcm2835_spi_transfer_one could not be set: {traced}")

    # -- QEMU killed mid-game, booted again (as a 3B+) ----------------------------------------
    log("power cut: QEMU killed mid-game; boot 2 with the Raspberry Pi 3 Model B Plus tree")
    qt.close()
    guest.kill()

    def pebbles_still_there(qt: Qtest) -> None:
        game.qt = qt
        game.levels()  # QEMU forgot the levels; the pebbles are still on the board

    took = guest.boot("bcm2837-rpi-3-bplus-nk-nospidma.dtb", before=pebbles_still_there)
    qt = game.qt
    guest.ssh(f"sudo date -s @{int(time.time())}", timeout=60)
    state = wait_active(guest)
    resumed = game.stored()
    more = play(guest, game, report, "game after the power cut", 6)
    report.check(got is not None and resumed is not None and resumed[0] == got[0]
                 and resumed[1][:len(got[1])] == got[1] and more is not None
                 and more[0] == got[0] and len(more[1]) >= 6,
                 "QEMU killed mid-game and booted again: the game resumed",
                 f"before {got}; after boot ({took:.0f} s, unit {state.get('ActiveState')}) "
                 f"{resumed}; then {more}")
    doctor_check(guest, report, "3B+", cli)

    # -- a matrix profile --------------------------------------------------------------------
    log("matrix: a 1 x 19 matrix profile (the scan through rpi-lgpio), SPI LEDs")
    guest.ssh(f"{cli} service uninstall >/dev/null; sudo rm -f {STORE}*")
    guest.ssh(f"echo {shlex.quote(matrix_profile())} | sudo tee /etc/navakankari/matrix-19.toml >/dev/null;"
              f" echo {shlex.quote(config_text('nau-keti-keta', '/etc/navakankari/matrix-19.toml'))}"
              f" | sudo tee {CONFIG} >/dev/null")
    mpins = dict(zip(NKK_POINTS, MATRIX_COLUMNS))
    mgame = Game(guest, qt, mpins, "nau-keti-keta")
    mgame.on = set(mgame.position([])["occupied"])
    mgame.levels()
    out = guest.ssh(f"{cli} service install --config {CONFIG}", timeout=1200)
    state = wait_active(guest)
    if report.check(out.returncode == 0 and state.get("ActiveState") == "active",
                    "hardened unit starts (matrix)", f"{state} {out.stderr[-200:]}"):
        got = play(guest, mgame, report, "game (matrix scan)", 4)
        if got is not None:
            report.check(len(got[1]) >= 4, "game (matrix scan): committed actions in the store",
                         f"game {got[0]}: {' '.join(got[1])}")
    # -- a configuration that cannot work: failed once, not retried, the reason in status -----
    guest.ssh(f"echo {shlex.quote(config_text('navakankari', '/etc/navakankari/matrix-19.toml'))}"
              f" | sudo tee {CONFIG} >/dev/null; sudo systemctl restart navakankari", timeout=300)
    started = time.monotonic()  # the start fails once the daemon has read its configuration
    while unit_state(guest).get("ActiveState") not in ("failed", "inactive") \
            and time.monotonic() - started < 900:
        time.sleep(10)
    time.sleep(30)  # past RestartSec=2, several times over
    state = unit_state(guest)
    status = guest.ssh("sudo systemctl status navakankari --no-pager -n 5").stdout
    report.check(state.get("ActiveState") == "failed" and state.get("ExecMainStatus") == "78"
                 and state.get("NRestarts") == "0" and "no sensors for" in status,
                 "a configuration that cannot work is not restarted; systemctl status says why",
                 f"{state}; " + " ".join(x.strip() for x in status.splitlines()
                                         if "no sensors" in x or "status=78" in x)[:300])
    qt.close()


CORE_PROBE = ("from navakankari.engine import core, new_game, preset;"
              "from navakankari.engine.search import Searcher;"
              "i = Searcher().search(new_game(preset('nine-mens-morris')), max_depth=5);"
              "print('core', core.available(), 'nodes', i.nodes, 'pv', ' '.join(a.text for a in i.pv))")


PRIORITIES = r"""
import glob, sys
def stat(path):  # fields after the command's closing parenthesis: state is 3, nice 19, rt 40
    f = open(path).read().rsplit(")", 1)[1].split()
    return f"{'FF' if f[38] == '1' else 'RR' if f[38] == '2' else 'TS'} {f[37] if f[38] in '12' else f[16]}"
pid = sys.argv[1]
print("threads", *sorted(stat(t + "/stat") for t in glob.glob(f"/proc/{pid}/task/*")), sep="|")
kids = " ".join(open(t + "/children").read() for t in glob.glob(f"/proc/{pid}/task/*")).split()
print("processes", *sorted(stat(f"/proc/{k}/stat") for k in kids), sep="|")
"""


def priority_check(guest: Guest, report: Report, pid: str) -> None:
    """The loop and its threads at realtime priority 1 (LimitRTPRIO=1), its processes (the
    search) ordinary and 10 levels lower: read from /proc on the running unit."""
    out = guest.ssh(f"sudo python3 -c {shlex.quote(PRIORITIES)} {pid}", timeout=120).stdout
    seen = {line.split("|")[0]: line.split("|")[1:] for line in out.splitlines() if "|" in line}
    threads, children = seen.get("threads", []), seen.get("processes", [])
    said = guest.ssh("sudo journalctl -u navakankari -b --no-pager -o cat | grep 'the loop runs at'"
                     " | tail -1", timeout=120).stdout.strip()
    realtime = bool(threads) and all(t == "FF 1" for t in threads)
    ordinary = bool(children) and all(c == "TS 10" for c in children)
    report.check(realtime and ordinary and said.endswith("realtime 1"),
                 "the loop and its threads at realtime 1, its processes ordinary at nice 10",
                 f"threads {threads}; processes {children}; journal: {said!r}")


def core_under_filters(guest: Guest) -> str:
    """A search in the C core (whose stop check is a ctypes callback into Python) run under
    the installed unit's own sandbox: the unit copied as a oneshot running a probe."""
    unit = guest.ssh("cat /etc/systemd/system/navakankari.service").stdout
    keep = []
    for line in unit.splitlines():
        key = line.split("=", 1)[0]
        if key in ("Type", "NotifyAccess", "WatchdogSec", "Restart", "RestartSec",
                   "RestartPreventExitStatus", "ExecStart", "WantedBy"):
            continue
        keep.append(line)
        if line.strip() == "[Service]":
            keep += ["Type=oneshot", "TimeoutStartSec=900", f"ExecStart={VENV}/bin/python -c \"{CORE_PROBE}\""]
    guest.ssh("sudo tee /etc/systemd/system/nk-core-probe.service >/dev/null",
              data="\n".join(keep).encode() + b"\n")
    guest.ssh("sudo systemctl daemon-reload && sudo systemctl start nk-core-probe", timeout=900)
    out = guest.ssh("sudo journalctl -u nk-core-probe --no-pager -o cat | grep -E '^core|Error|denied'"
                    "; sudo rm -f /etc/systemd/system/nk-core-probe.service; "
                    "sudo systemctl daemon-reload").stdout
    return " ".join(out.split())


def doctor_check(guest: Guest, report: Report, model: str, cli: str) -> None:
    """doctor as INSTALL.md step 5 has a maker run it: its config.txt lines added, run again."""
    out = guest.ssh(f"{cli} doctor --fix-lines --config {CONFIG} 2>/dev/null")
    lines = [x for x in out.stdout.splitlines() if x.strip()]
    if lines:
        guest.ssh("sudo mkdir -p /boot/firmware && echo " + shlex.quote("\n".join(lines))
                  + " | sudo tee -a /boot/firmware/config.txt >/dev/null")
    out = guest.ssh(f"{cli} doctor --config {CONFIG}")
    text = out.stdout
    supported = re.search(r"ok\s+model: (Raspberry Pi 3 Model B[^:]*): supported", text)
    problems = [x for x in text.splitlines() if x.startswith("PROBLEM")]
    report.check(supported is not None and not any("pins" in p for p in problems)
                 and out.returncode == (1 if problems else 0),
                 f"doctor on the emulated {model}",
                 (f"{supported.group(1)} supported" if supported else "model not supported")
                 + f"; config.txt lines added: {lines[1:] if lines else 'none'}; "
                 + (f"problems: {problems}" if problems else "no problem"))


def leds_check(report: Report, frames: list[tuple[int, bytes]], points: list[str]) -> None:
    """Frames of one length, every byte a 0 or 1 bit pattern between the resets, and the
    colours lit (gamma and the 0.25 brightness cap applied), point by point."""
    name = "LED frames leave through SPI with the colours lit"
    if not frames:
        report.failed(name, "no SPI transfer traced (kprobe on bcm2835_spi_transfer_one)")
        return
    count = len(points)
    decoded = [decode_frame(n, data, count) for n, data in frames]
    lengths = sorted({n for n, _ in frames})
    last = next((d for d in reversed(decoded) if d), None)
    lit = {p: c for p, c in zip(points, last or []) if c != (0, 0, 0)}
    reset = (lengths[0] - 24 * count) // 2
    report.check(all(n == lengths[0] for n in lengths) and all(decoded) and bool(lit),
                 name, f"{len(frames)} transfers of {lengths} bytes ({reset} reset + 24 an LED "
                 f"x {count} + {reset}); last frame lit {lit}"
                 + ("" if all(decoded) else f"; {decoded.count(None)} not decodable"))


if __name__ == "__main__":
    sys.exit(main())
