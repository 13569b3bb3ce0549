"""The address a phone on the same network opens, with the PIN, as a link and a QR code.

The PIN travels in the address's fragment (`#pin=...`), which a browser never sends to the
server, so it reaches neither the access log nor the network. The companion offers the link
only where a phone can reach it: when it listens beyond localhost.
"""

from __future__ import annotations

import logging
import socket
from dataclasses import dataclass

import segno

from .names import LOCAL, WILDCARDS, url_host

log = logging.getLogger(__name__)


def qr_svg(text: str, *, document: bool = False) -> str:
    """`text` as an SVG QR code, for a phone's camera: inline in a page, or a `document`
    of its own (with its namespace, as an <img> needs)."""
    qr = segno.make_qr(text, error="m")
    if not document:
        return str(qr.svg_inline(scale=4))
    import io

    out = io.BytesIO()
    qr.save(out, kind="svg", scale=4)
    return out.getvalue().decode()


@dataclass(frozen=True)
class PhoneLink:
    url: str | None  #: None while the companion listens on localhost only
    why_not: str = ""  #: what to set when there is no link

    def qr_svg(self) -> str:
        """The link as an inline SVG QR code ("" when there is none)."""
        return qr_svg(self.url) if self.url else ""

    def qr_text(self) -> str:
        """The link as a QR code of terminal half-blocks (for the log)."""
        if not self.url:
            return ""
        import io

        out = io.StringIO()
        segno.make_qr(self.url, error="m").terminal(out=out, compact=True, border=2)
        return out.getvalue()


def own_address() -> str | None:
    """This machine's address on its default route (no packet is sent), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def phone_link(address: str, port: int, pin: str | None) -> PhoneLink:
    """The link for a companion listening on `address`:`port`."""
    if address in LOCAL:
        return PhoneLink(None, f"the companion listens on {address} only, which no phone can "
                               "reach: set [web] address = \"0.0.0.0\" in the configuration "
                               "(navakankari sim: --address 0.0.0.0)")
    host = address
    if address in WILDCARDS:
        host = own_address() or f"{socket.gethostname()}.local"
    fragment = f"#pin={pin}" if pin else ""
    return PhoneLink(f"http://{url_host(host)}:{port}/{fragment}")


def log_link(link: PhoneLink) -> None:
    """Say in the log (the journal) how a phone connects."""
    if link.url is None:
        log.info("%s", link.why_not)
        return
    log.info("a phone on the same network opens %s\n%s", link.url, link.qr_text())
