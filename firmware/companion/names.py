"""Which names the companion answers to, so a page elsewhere cannot use a visitor's browser
to reach it (DNS rebinding: a foreign name that resolves to the board).

A request's `Host`, and its `Origin` when a browser sends one, must name the board: the
configured address, localhost, the machine's own host names (`pi`, `pi.local`, its FQDN), or
the address the request itself arrived on (a phone that typed the board's IP address).
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

WILDCARDS = ("", "0.0.0.0", "::")
LOCAL = ("localhost", "127.0.0.1", "::1")


def own_names(address: str) -> frozenset[str]:
    """The names this machine answers to, with the configured address."""
    names = set(LOCAL)
    if address not in WILDCARDS:
        names.add(address)
    host = socket.gethostname()
    if host:
        names.update({host, f"{host}.local"})
        try:
            names.add(socket.getfqdn(host))
        except OSError:  # pragma: no cover - a resolver that fails outright
            pass
    return frozenset(_norm(n) for n in names if n)


def url_host(host: str) -> str:
    """A host as written in a URL: an IPv6 address goes in brackets ("[::1]")."""
    return f"[{host}]" if ":" in host else host


def local_url(address: str, port: int, path: str = "/") -> str:
    """The companion's URL from this machine: one listening on every address (a wildcard)
    is reached on 127.0.0.1."""
    host = "127.0.0.1" if address in WILDCARDS else address
    return f"http://{url_host(host)}:{port}{path}"


def _norm(name: str) -> str:
    return name.strip().lower().rstrip(".").strip("[]")


def host_name(header: str) -> str:
    """The name in a `Host` header, without the port: "[::1]:8080" -> "::1"."""
    header = header.strip()
    if header.startswith("["):
        return _norm(header[1:].partition("]")[0])
    name, colon, port = header.rpartition(":")
    if colon and port.isdigit() and ":" not in name:
        return _norm(name)
    return _norm(header)


def origin_name(origin: str) -> str | None:
    """The host name of an `Origin` header; None when it names none ("null")."""
    try:
        parts = urlsplit(origin.strip())
        return _norm(parts.hostname) if parts.scheme in ("http", "https") and parts.hostname \
            else None
    except ValueError:
        return None


def allowed(name: str | None, names: frozenset[str], arrived_on: str | None) -> bool:
    if not name:
        return False
    return name in names or (arrived_on is not None and name == _norm(arrived_on))
