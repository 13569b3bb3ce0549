"""Benchmark: how much the daemon grows while websocket viewers read nothing.

Starts `navakankari sim` in its own process, opens VIEWERS raw websocket connections that
never read (small receive buffers, so they stall at once), makes CHANGES changes through the
page's API (the simulator's hand lifting and putting down a pebble), and prints the daemon's
resident memory before and after, from /proc. Run: .venv/bin/python tests/firmware/viewer_memory.py
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from sim_daemon import sim_process

PIN = "424242"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def stalled_viewer(port: int) -> socket.socket:
    """A websocket client that completes the handshake and then never reads."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n").encode())
    return s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=2)
    parser.add_argument("--changes", type=int, default=7500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        daemon, port, _ = sim_process("--variant", "nine-mens-morris", "--black", "hand",
                                      "--pin", PIN, "--store", f"{tmp}/games.sqlite3",
                                      stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            opener = urllib.request.build_opener()

            def hand(body: dict) -> None:
                request = urllib.request.Request(
                    base + "/api/hand", data=json.dumps(body).encode(), method="POST",
                    headers={"Content-Type": "application/json", "X-Pin": PIN})
                with opener.open(request, timeout=30) as response:
                    response.read()

            hand({"op": "place", "point": "a7", "colour": "white"})
            viewers = [stalled_viewer(port) for _ in range(args.viewers)]
            for k in range(200):  # warm up, and fill the stalled viewers' buffers
                hand({"op": "lift" if k % 2 == 0 else "put", "point": "a7"})
            before = rss_mb(daemon.pid)
            started = time.monotonic()
            for k in range(args.changes):
                hand({"op": "lift" if k % 2 == 0 else "put", "point": "a7"})
            spent = time.monotonic() - started
            after = rss_mb(daemon.pid)
            time.sleep(2)
            later = rss_mb(daemon.pid)
            print(f"{args.viewers} stalled viewers, {args.changes} changes in {spent:.1f} s: "
                  f"daemon RSS {before:.1f} MB -> {after:.1f} MB (+{after - before:.1f} MB), "
                  f"{later:.1f} MB 2 s later")
            for v in viewers:
                v.close()
        finally:
            daemon.terminate()
            daemon.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
