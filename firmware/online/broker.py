"""Where the broker is and how to log in: `mqtt://`, `mqtts://`, `ws://` and `wss://` URLs.

A laptop may carry `user:password@` in the URL for trying things out; a board reads its
password from a file. The password never appears in a log line, a page or the store: this
value's text and repr leave it out.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from navakankari.hal.words import N_, Phrase, Words

SCHEMES = {"mqtt": (1883, False, "tcp"), "mqtts": (8883, True, "tcp"),
           "ws": (80, False, "websockets"), "wss": (443, True, "websockets")}


class BrokerAddressError(ValueError):
    """A broker URL or login that cannot be used; says what is wrong, as a catalog message
    (`problem`, a phrase) the commands word in the maker's language (`words`)."""

    def __init__(self, message: str, /, **places: object) -> None:
        self.problem = Phrase(message, **places)
        super().__init__(self.problem)

    def words(self, tr: Words) -> str:
        return self.problem.words(tr)


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    tls: bool = False
    transport: str = "tcp"
    path: str = ""  #: the websocket path ("/mqtt" unless the URL names one)
    username: str = ""
    password: str = field(default="", repr=False)
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""

    @classmethod
    def parse(cls, url: str, *, password_file: str = "", ca_file: str = "",
              cert_file: str = "", key_file: str = "", username: str = "") -> BrokerAddress:
        """Read a broker URL (and a password file, if given; it wins over a URL's password)."""
        parts = urlsplit(url.strip())
        if parts.scheme not in SCHEMES:
            raise BrokerAddressError(N_("broker {url}: the scheme must be one of {choices}"),
                                     url=repr(_safe(url)),
                                     choices=", ".join(s + "://" for s in SCHEMES))
        default_port, tls, transport = SCHEMES[parts.scheme]
        if not parts.hostname:
            raise BrokerAddressError(N_("broker {url} names no host"), url=repr(_safe(url)))
        try:
            port = parts.port or default_port
        except ValueError:
            raise BrokerAddressError(N_("broker {url}: the port is not a number from 1 to 65535"),
                                     url=repr(_safe(url))) from None
        password = unquote(parts.password or "")
        if password_file:
            try:
                password = Path(password_file).read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise BrokerAddressError(N_("broker password file {file}: {problem}"),
                                         file=password_file, problem=exc.strerror or exc) from None
        path = parts.path or ("/mqtt" if transport == "websockets" else "")
        if parts.query or parts.fragment:
            raise BrokerAddressError(N_("broker {url}: no query or fragment, please"),
                                     url=repr(_safe(url)))
        return cls(parts.hostname, port, tls, transport, path,
                   username or unquote(parts.username or ""), password, ca_file, cert_file,
                   key_file)

    def __str__(self) -> str:
        """The URL without the password (for logs and the page)."""
        scheme = next(s for s, (_, tls, tr) in SCHEMES.items()
                      if tls == self.tls and tr == self.transport)
        user = f"{self.username}@" if self.username else ""
        path = self.path if self.transport == "websockets" else ""
        return f"{scheme}://{user}{self.host}:{self.port}{path}"

    def tls_context(self) -> ssl.SSLContext | None:
        """The TLS context for mqtts/wss: the system's CAs, or the given CA file; a client
        certificate where the broker asks for one."""
        if not self.tls:
            return None
        try:
            context = ssl.create_default_context(cafile=self.ca_file or None)
            if self.cert_file:
                context.load_cert_chain(self.cert_file, self.key_file or None)
        except (OSError, ssl.SSLError) as exc:
            raise BrokerAddressError(N_("broker TLS files: {problem}"), problem=exc) from None
        return context


def _safe(url: str) -> str:
    """A URL as typed, with any password replaced, for an error message."""
    parts = urlsplit(url.strip())
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)
