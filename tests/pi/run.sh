#!/bin/bash
# The board on an emulated Raspberry Pi 3B: builds (or finds cached) a Debian bookworm arm64
# image from Debian's packages, boots it under QEMU 10's raspi3b machine, installs the project
# as wiring/INSTALL.md tells a maker, and checks the install, the engine's x86 results, doctor
# on a 3B and a 3B+, the hardened unit, games played by setting sensor levels from outside
# (qtest), the LED frames on SPI and a power cut mid-game. One PASS / FAIL / NOT POSSIBLE line
# per check, then a summary; exit status 1 if any check failed.
#
#   sudo tests/pi/run.sh            # PI_CACHE=/var/cache/navakankari-pi by default
#
# Not part of tests/run.sh: the first run builds the image (half an hour on a quiet machine,
# mostly mkinitramfs under qemu-user), every run then boots twice and runs pip install on the
# emulated Pi; the emulator runs niced, on one host thread, so on a busy machine each step
# takes several times as long (tests/pi/README.md has the times seen). Nothing is left
# running; binfmt_misc is left as it was found.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
export PI_CACHE="${PI_CACHE:-/var/cache/navakankari-pi}"
if [[ $EUID -ne 0 ]]; then
    echo "tests/pi/run.sh: run as root (mmdebstrap --mode=root, binfmt_misc)" >&2
    exit 2
fi
started=$(date +%s)
echo "== image (cached under $PI_CACHE by a hash of its inputs)"
image=$("$HERE/build-image.sh" | tail -1)
echo "   $image ($(( $(date +%s) - started )) s)"

work=$(mktemp -d /var/tmp/navakankari-pi-run.XXXXXX)
cleanup() {
    if [[ -f "$work/qemu.pid" ]] && kill -0 "$(cat "$work/qemu.pid")" 2>/dev/null; then
        kill -9 "$(cat "$work/qemu.pid")" || true
    fi
    rm -f "$work/sd.img"
    echo "   logs of this run: $work"
}
trap cleanup EXIT
cp --sparse=always "$image/sd.img" "$work/sd.img"  # each run starts from the built image
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "== checks"
rc=0
python3 "$HERE/checks.py" --image "$image" --qemu "$PI_CACHE/qemu-10" --work "$work" \
    --port "$port" || rc=$?
echo "== total: $(( $(date +%s) - started )) s"
exit $rc
