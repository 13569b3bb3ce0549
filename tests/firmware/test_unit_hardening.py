"""The unit `service install` writes, for every shipped profile on every supported Pi model:
what `systemd-analyze security --offline=true` makes of it (3.0 at most), `systemd-analyze
verify`, and the daemon doing all it does under the unit's seccomp filters (unit_sandbox.py)."""

from __future__ import annotations

import ctypes.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from navakankari.firmware.system.service import (
    ROOT_CAPABILITIES,
    Network,
    render_unit,
    script_path,
)
from navakankari.hal import load_profile, profile_names
from navakankari.hal.needs import MODELS, needs, unit_needs
from sim_daemon import COMMAND, run_process

ANALYZE = shutil.which("systemd-analyze")
SECCOMP = ctypes.util.find_library("seccomp")
SANDBOX = Path(__file__).with_name("unit_sandbox.py")
MOST = 3.0
NETWORKS = {"lan": Network("0.0.0.0", 8080), "loopback": Network("127.0.0.1", 8080),
            "no-web": Network("127.0.0.1", 0), "online": Network("127.0.0.1", 8080, True)}
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed "
                                   "(tests/run.sh installs the systemd package)")


def _cases() -> list[tuple[str, str]]:
    return [(p, m) for p in sorted(profile_names()) for m in ["any", *(m.key for m in MODELS)]]


def _unit(profile: str, model: str, network: Network = NETWORKS["lan"]) -> str:
    p = load_profile(profile)
    n = unit_needs(p) if model == "any" else needs(p, next(m for m in MODELS if m.key == model))
    return render_unit(script_path(), config=Path("/etc/navakankari/navakankari.toml"), needs=n,
                       network=network)


def exposure(unit_text: str, folder: Path) -> float:
    """The overall exposure level `systemd-analyze security --offline=true` gives the unit."""
    path = folder / "navakankari.service"  # --offline needs a file named as a unit
    path.write_text(unit_text, encoding="utf-8")
    result = subprocess.run([ANALYZE, "security", "--offline=true", f"--threshold={MOST * 10:g}",
                             str(path)], capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for navakankari\.service: (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    level = float(found.group(1))
    assert (result.returncode == 0) == (level <= MOST), (level, result.returncode)
    return level


@needs_analyze
@pytest.mark.parametrize(("profile", "model"), _cases())
def test_every_unit_exposes_little(tmp_path, profile, model):
    for name, network in NETWORKS.items():
        level = exposure(_unit(profile, model, network), tmp_path)
        assert level <= MOST, f"{profile} on {model}, {name}: {level}"


@needs_analyze
def test_a_root_unit_keeps_only_raw_io(tmp_path):
    unit = _unit("direct-24", "4B")
    assert "User=root" in unit
    assert f"CapabilityBoundingSet={' '.join(ROOT_CAPABILITIES)}\n" in unit
    assert "\nAmbientCapabilities=\n" in unit
    # 2.2: the analyzer counts setpriority and sched_setscheduler (given back so that the
    # search runs below the loop; without CAP_SYS_NICE a process can only lower a priority,
    # or take the realtime one LimitRTPRIO= allows) as @resources allowed, 0.2, and
    # RestrictRealtime=no (the loop's realtime priority) 0.1.
    assert exposure(unit, tmp_path) <= 2.2
    user = _unit("direct-24", "5")  # the Pi 5's PIO block: no root, no capability
    assert "User=navakankari" in user and "\nCapabilityBoundingSet=\n" in user


def test_the_network_follows_the_configuration():
    lan, loopback, none = (NETWORKS[k].lines() for k in ("lan", "loopback", "no-web"))
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n" in lan
    assert "\nIPAddress" not in lan
    assert "IPAddressDeny=any\nIPAddressAllow=localhost\n" in loopback
    assert "RestrictAddressFamilies=AF_UNIX\nIPAddressDeny=any\n" in none
    assert "IPAddressAllow" not in none
    online = NETWORKS["online"].lines()  # a broker by host name: any address may be it
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n" in online
    assert "\nIPAddressDeny=" not in online


def test_proc_is_narrowed_only_where_nothing_reads_the_pis_model():
    assert "ProcSubset=pid" in _unit("sim-24", "any") and "PrivateDevices=yes" in _unit("sim-24", "any")
    for profile in ("direct-24", "mcp23017-24", "matrix-spi-24"):
        lines = _unit(profile, "any").splitlines()
        assert "ProcSubset=pid" not in lines and "PrivateDevices=yes" not in lines
        assert "ProtectProc=invisible" in lines


@needs_analyze
@pytest.mark.parametrize("profile", ["direct-24", "mcp23017-24", "sim-24"])
@pytest.mark.parametrize("network", sorted(NETWORKS))
def test_systemd_analyze_verify_passes(tmp_path, profile, network):
    # verify checks that ExecStart's program exists and is executable: the unit points at
    # this installation's own `navakankari` script (script_path()), which does.
    assert Path(script_path()[0]).exists()
    unit = tmp_path / "navakankari.service"
    unit.write_text(_unit(profile, "any", NETWORKS[network]))
    result = subprocess.run([ANALYZE, "verify", "--man=no", "--generators=no", str(unit)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "navakankari.service" not in result.stderr, result.stderr


# -- the daemon under the unit's seccomp filters ---------------------------------------------
needs_seccomp = pytest.mark.skipif(ANALYZE is None or SECCOMP is None,
                                   reason="needs systemd-analyze and libseccomp")
SECCOMP_KEYS = ("SystemCallFilter", "SystemCallErrorNumber", "MemoryDenyWriteExecute",
                "SystemCallArchitectures", "LockPersonality")


def test_every_unit_has_the_same_seccomp_filters():
    """So the sandboxed runs below, under one unit's filters, speak for all."""
    def filters(text: str) -> list[str]:
        return [ln for ln in text.splitlines() if ln.startswith(SECCOMP_KEYS)]

    first = filters(_unit("sim-24", "any"))
    assert any(ln.startswith("SystemCallFilter=@system-service") for ln in first)
    assert "MemoryDenyWriteExecute=yes" in first and "SystemCallErrorNumber=EPERM" in first
    for profile, model in _cases():
        assert filters(_unit(profile, model)) == first, (profile, model)


def _sandboxed(unit: Path, *command: str, **kw) -> list[str]:
    return [sys.executable, str(SANDBOX), str(unit), *command]


@needs_seccomp
def test_the_engine_and_libraries_load_under_the_filters(tmp_path):
    unit = tmp_path / "navakankari.service"
    unit.write_text(_unit("mcp23017-24", "any"))
    probe = """
import ctypes, mmap, socket, sqlite3, os
import gpiod, gpiozero, neopixel_spi, adafruit_platformdetect
import navakankari.engine.search as search
from navakankari.engine import native
print("engine", "compiled" if native.state().active else "python", search.__file__)
# The C core is called through ctypes, and calls back into Python through a libffi closure:
# that must not need memory both writable and executable.
from navakankari.engine import core, new_game, preset
info = search.Searcher().search(new_game(preset("nine-mens-morris")), max_depth=4)
print("core", core.available(), info.depth)
try:
    mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    print("wx allowed")
except OSError as exc:
    print("wx refused", exc.errno)
try:
    socket.socket(socket.AF_NETLINK, socket.SOCK_RAW)
    print("netlink allowed")
except OSError as exc:
    print("netlink refused", exc.errno)
try:
    os.sched_setaffinity(0, os.sched_getaffinity(0))
    print("affinity allowed")
except OSError as exc:
    print("affinity refused", exc.errno)
# The search and advice processes lower their own priority (setpriority, given back alone).
from navakankari.engine.search_process import lower_priority
before = os.getpriority(os.PRIO_PROCESS, 0)
print("lowered", lower_priority(3), os.getpriority(os.PRIO_PROCESS, 0) - before)
"""
    result = subprocess.run(_sandboxed(unit, sys.executable, "-c", probe), capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # The filters are live (what they forbid fails) and everything the daemon loads loaded.
    assert "wx refused 1" in out and "netlink refused 97" in out and "affinity refused 1" in out
    assert "lowered True 3" in out
    from navakankari.engine import native

    if native.state().active:  # where the build exists, the compiled modules loaded
        assert "engine compiled" in out and ".so" in out
        assert "core True 4" in out


@needs_seccomp
def test_the_daemon_plays_serves_and_notifies_under_the_filters(tmp_path):
    config, unit = tmp_path / "navakankari.toml", tmp_path / "navakankari.service"

    def command(port: int) -> list[str]:
        """The daemon under the unit made for its page's `port` (a store of its own, were it
        started again on a fresh port): one hand placement and the
        computer's reply (a longer script could name a point the computer has taken by
        then, and the hands would stop short of "done")."""
        config.write_text(f"""
[game]
variant = "nine-mens-morris"
white = "hand"
black = "computer:2"
menu = false
[tracker]
settle = 0.05
grow = 0.1
grace = 0.3
[board]
profile = "sim-24"
[store]
path = "{tmp_path / f'games-{port}.sqlite3'}"
[web]
address = "127.0.0.1"
port = {port}
pin = "2468"
""")
        unit.write_text(_unit("sim-24", "any", Network("127.0.0.1", port)))
        return _sandboxed(unit, *COMMAND, "run", "--config", str(config), "--sim-hands", "d6",
                          "--realtime")

    notify = tmp_path / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(30)
    env = {**os.environ, "NAVAKANKARI_BACKEND": "sim", "NOTIFY_SOCKET": str(notify)}
    env.pop("JOURNAL_STREAM", None)
    proc, port, log = run_process(command, env)
    try:
        assert "READY=1" in listener.recv(4096).decode()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as reply:
            assert b'"variant": "nine-mens-morris"' in reply.read()
        assert log.wait_for("sim-hands: done", timeout=60), "\n".join(log.lines)
        text = "\n".join(log.lines)
        assert "computer plays" in text and [p for p, _ in log.stored()][-1:] == [2], text
        # The loop's realtime priority under the filters (given to root; a user needs the
        # unit's LimitRTPRIO=, which the sandbox sets too).
        assert "the loop runs at realtime 1" in text, text
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        listener.close()
    rest = "\n".join(log.lines)
    assert proc.returncode == 0, rest


@needs_seccomp
def test_the_assistance_worker_process_runs_under_the_filters(tmp_path):
    """The advice is made in a spawned worker process (daemon/advice.py): it starts, loads
    the engine and answers under the unit's filters too."""
    unit = tmp_path / "navakankari.service"
    unit.write_text(_unit("sim-24", "any"))
    probe = tmp_path / "probe.py"
    probe.write_text("""
import concurrent.futures, multiprocessing
from navakankari.engine.variants import new_game
from navakankari.engine.advice import advise_position
if __name__ == "__main__":
    g = new_game("nine-mens-morris")
    spawn = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn) as worker:
        advice = worker.submit(advise_position, g.rules, g.position(), 0, g.key, 3,
                               4096).result(timeout=60)
    print("advice", len(advice.judgement.verdicts))
""")
    result = subprocess.run(_sandboxed(unit, sys.executable, str(probe)), capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "advice 24" in result.stdout


@needs_seccomp
@pytest.mark.skipif(shutil.which("espeak-ng") is None or shutil.which("aplay") is None,
                    reason="espeak-ng or aplay is not installed (tests/run.sh installs them)")
def test_speech_is_made_and_played_under_the_filters(tmp_path):
    """espeak-ng into aplay (on ALSA's null device), as the speech thread starts them, under
    the unit of a board without a web page (AF_UNIX only)."""
    unit = tmp_path / "navakankari.service"
    text = _unit("matrix-spi-24", "any", NETWORKS["no-web"])
    assert "DeviceAllow=char-alsa rw" in text and "SupplementaryGroups=audio gpio spi" in text
    unit.write_text(text)
    probe = """
from navakankari.firmware.core.announce import Utterance
from navakankari.firmware.daemon.voice import Voice, wav_seconds
print("wav", round(wav_seconds(Voice().wav("white, d6", "gu")), 1) > 0.3)
playing = Voice(device="null").start(Utterance("white, d6", "hi"))
for p in playing.processes:
    p.wait(30)
print("played", playing.poll())
"""
    result = subprocess.run(_sandboxed(unit, sys.executable, "-c", probe), capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "wav True" in result.stdout and "played 0" in result.stdout, result.stdout
