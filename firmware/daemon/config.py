"""The daemon's configuration: one TOML file, read with the standard library.

Every key has a documented default (see `firmware/daemon/navakankari.example.toml`), so an empty
file is a valid configuration. A bad value is a `ConfigError` that names the key.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import socket
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from navakankari.engine.errors import UnknownVariantError
from navakankari.engine.player import DEFAULT_LEVEL
from navakankari.engine.presets import PRESETS, preset
from navakankari.engine.translator import ENGLISH, Translator
from navakankari.firmware.i18n.catalogs import LANGUAGES, choose_language
from navakankari.hal.words import N_, phrase_of, toml_problem

from ..core.assist import HINTS_PER_TURN
from ..core.errors import ConfigError
from ..online.broker import BrokerAddress, BrokerAddressError
from ..core.menu import MenuSettings
from ..core.players import HAND, PlayerSpec, PlayerSpecError
from ..core.tracker import TrackerSettings
from .voice import RATE, RATES

DEFAULT_CONFIG_PATHS = ("/etc/navakankari/navakankari.toml",)
EXIT_CONFIG = 78
"""`run`'s exit status when the configuration cannot work (sysexits' EX_CONFIG): the unit's
RestartPreventExitStatus= stops systemd retrying what a restart cannot mend."""
CONFIG_ENV = "NAVAKANKARI_CONFIG"
TRUE_OR_FALSE = N_("must be true or false, not {value}")
IN_RANGE = N_("must be {low}..{high}, not {value}")
RENAMED_KEYS = {"online.page": "player_page"}
"""Former keys, still read (with a warning in the log), and what they are called now."""

log = logging.getLogger(__name__)


_TRACKER = TrackerSettings()
_MENU = MenuSettings()


@dataclass(frozen=True)
class Config:
    """Everything the daemon reads from its TOML file. Field names are `section_key`."""

    game_variant: str = "navakankari"
    game_white: PlayerSpec = HAND
    game_black: PlayerSpec = field(default_factory=lambda: PlayerSpec("computer", DEFAULT_LEVEL))
    game_menu: bool = True  #: the board's own menu whenever no game is in play
    game_menu_hold: float = _MENU.hold
    game_hints_per_turn: int = HINTS_PER_TURN  #: best moves a hand at assistance 4 may ask a turn
    tracker_settle: float = _TRACKER.settle
    tracker_grow: float = _TRACKER.grow
    tracker_grace: float = _TRACKER.grace
    tracker_clear_hold: float = _TRACKER.clear_hold
    tracker_fault_edges: int = _TRACKER.fault_edges
    tracker_fault_window: float = _TRACKER.fault_window
    tracker_fault_quiet: float = _TRACKER.fault_quiet
    board_profile: str = ""  #: "" = direct-24 (direct-19 for Nau Keti Keta)
    #: The language spoken until one is chosen on the board's menu or the page; "" = the
    #: environment's (LANG), else English (catalogs.choose_language)
    board_language: str = ""
    store_path: str = ""  #: "" = games.sqlite3 in the state directory
    store_events: int = 20_000
    web_address: str = "127.0.0.1"
    web_port: int = 8080
    web_pin: str = ""
    online_broker: str = ""  #: "" = no online play; else mqtt://, mqtts://, ws:// or wss://
    online_username: str = ""
    online_password_file: str = ""
    online_ca_file: str = ""  #: "" = the system's CAs
    online_cert_file: str = ""  #: a client certificate, where the broker asks for one
    online_key_file: str = ""
    online_board_name: str = ""  #: "" = this machine's name
    #: The browser player's page (its index.html), for the link and QR code beside a game
    #: code on the page; "" = a QR code of the code alone.
    online_player_page: str = ""
    log_level: str = "info"
    #: Spoken announcements (daemon/speech.py): off unless set here, in the menu or on the
    #: page (the last two are kept in the store and win); the ALSA device ("" = the default
    #: one) and espeak-ng's speed in words a minute.
    speech_enabled: bool = False
    speech_device: str = ""
    speech_rate: int = RATE

    def language(self) -> str:
        """The language of the board's words until the menu or the page chooses another:
        `[board] language`, else the environment's, else English."""
        return choose_language(self.board_language)

    def __post_init__(self) -> None:
        if not isinstance(self.game_variant, str):
            raise ConfigError.of("game.variant", N_("must be a string such as \"navakankari\", "
                                                    "not {value}"), value=repr(self.game_variant))
        try:
            preset(self.game_variant)
        except UnknownVariantError:
            raise ConfigError.of("game.variant", N_("unknown variant {value}; variants: "
                                                    "{variants}"),
                                 value=repr(self.game_variant), variants=", ".join(PRESETS)) from None
        if not isinstance(self.game_menu, bool):
            raise ConfigError.of("game.menu", TRUE_OR_FALSE, value=repr(self.game_menu))
        try:  # the tracker's and the menu's own checks, with their one range each
            self.tracker_settings()
        except ConfigError as exc:
            raise exc.again(f"tracker.{exc.key}") from None
        try:
            MenuSettings(hold=self.game_menu_hold)
        except ConfigError as exc:
            raise exc.again("game.menu_hold") from None
        if not isinstance(self.speech_enabled, bool):
            raise ConfigError.of("speech.enabled", TRUE_OR_FALSE, value=repr(self.speech_enabled))
        for key in ("store_events", "web_port", "game_hints_per_turn", "speech_rate"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError.of(_dotted(key), N_("must be an integer, not {value}"),
                                     value=repr(value))
        if not 0 <= self.game_hints_per_turn <= 100:
            raise ConfigError.of("game.hints_per_turn", IN_RANGE, low=0, high=100,
                                 value=self.game_hints_per_turn)
        if not RATES[0] <= self.speech_rate <= RATES[1]:
            raise ConfigError.of("speech.rate", N_("must be {low}..{high} words a minute, not "
                                                   "{value}"),
                                 low=RATES[0], high=RATES[1], value=self.speech_rate)
        if self.store_events < 0:
            raise ConfigError.of("store.events", N_("must be at least {low}, not {value}"), low=0,
                                 value=self.store_events)
        if not 0 <= self.web_port <= 65535:
            raise ConfigError.of("web.port", IN_RANGE, low=0, high=65535, value=self.web_port)
        if self.board_language and self.board_language not in LANGUAGES:
            raise ConfigError.of("board.language", N_("must be one of {choices}, not {value}"),
                                 choices=", ".join(LANGUAGES), value=repr(self.board_language))
        for key in ("board_profile", "store_path", "web_address", "web_pin", "log_level",
                    "speech_device",
                    *(f.name for f in dataclasses.fields(self) if f.name.startswith("online_"))):
            if not isinstance(getattr(self, key), str):
                raise ConfigError.of(_dotted(key), N_("must be a string, not {value}"),
                                     value=repr(getattr(self, key)))
        if self.web_pin != self.web_pin.strip():
            raise ConfigError.of("web.pin", N_("has spaces around it, which no one can type on "
                                               "the page: write {value}"),
                                 value=repr(self.web_pin.strip()))
        if self.web_pin and not (self.web_pin.isascii() and self.web_pin.isdigit()):
            raise ConfigError.of("web.pin", N_("must be digits (the page asks for it on a number "
                                               "pad), not {value}"), value=repr(self.web_pin))
        if self.log_level.lower() not in ("debug", "info", "warning", "error"):
            raise ConfigError.of("log.level", N_("must be debug, info, warning or error"))
        for key in ("game_white", "game_black"):
            if getattr(self, key).kind == "online":
                raise ConfigError.of(_dotted(key), N_(
                    "an online game starts from an invitation (the page, or navakankari invite "
                    "/ join), not from here"))
        if self.online_player_page and not self.online_player_page.startswith(("http://", "https://")):
            raise ConfigError.of("online.player_page", N_(
                "must be an http:// or https:// address (the browser player's index.html), not "
                "{value}"), value=repr(self.online_player_page))
        if self.online_broker:
            try:
                BrokerAddress.parse(self.online_broker)
            except BrokerAddressError as exc:
                raise ConfigError("online.broker", exc.problem) from None

    # -- derived values --------------------------------------------------------------------
    @property
    def profile(self) -> str:
        """The wiring profile to load: as configured, or the shipped one for the board."""
        if self.board_profile:
            return self.board_profile
        return "direct-19" if preset(self.game_variant).board == "lau-kata-kati" else "direct-24"

    def board_mismatch(self, points: Iterable[str], tr: Translator = ENGLISH) -> str | None:
        """Why the variant cannot be played on a profile with these sensor points, naming
        the variants it can play (in `tr`'s language); None when it can."""
        from navakankari.engine.boards import BOARDS

        from ..core.menu import playable

        rules = preset(self.game_variant)
        missing = set(BOARDS[rules.board].points) - set(points)
        if not missing:
            return None
        places = {"variant": rules.name, "board": rules.board,
                  "points": ", ".join(sorted(missing)), "fits": ", ".join(playable(points))}
        if not places["fits"]:
            return tr.gettext("{variant} is played on the {board} board; the wiring profile has "
                              "no sensors for {points}, and plays no variant").format(**places)
        return tr.gettext("{variant} is played on the {board} board; the wiring profile has no "
                          "sensors for {points} (set [game] variant to one it plays: {fits})"
                          ).format(**places)

    def tracker_settings(self) -> TrackerSettings:
        return TrackerSettings(
            settle=self.tracker_settle, grow=self.tracker_grow, grace=self.tracker_grace,
            clear_hold=self.tracker_clear_hold, fault_edges=self.tracker_fault_edges,
            fault_window=self.tracker_fault_window, fault_quiet=self.tracker_fault_quiet)

    def online_address(self) -> BrokerAddress | None:
        """The broker and the login for online play, or None when none is configured; the
        password comes from its file, never from this file."""
        if not self.online_broker:
            return None
        try:
            return BrokerAddress.parse(
                self.online_broker, password_file=self.online_password_file,
                ca_file=self.online_ca_file, cert_file=self.online_cert_file,
                key_file=self.online_key_file, username=self.online_username)
        except BrokerAddressError as exc:
            raise ConfigError("online.password_file", exc.problem) from None

    @property
    def board_name(self) -> str:
        return self.online_board_name or socket.gethostname()

    def menu_settings(self) -> "MenuSettings | None":
        return MenuSettings(hold=self.game_menu_hold) if self.game_menu else None

    def store_file(self) -> Path:
        """Where the games are kept: as configured, else systemd's StateDirectory, else
        ~/.local/state/navakankari."""
        if self.store_path:
            return Path(self.store_path).expanduser()
        state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
        base = Path(state) if state else Path.home() / ".local" / "state" / "navakankari"
        return base / "games.sqlite3"

    # -- dict / TOML -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, dict[str, Any]]:
        """Nested like the TOML file: {"game": {"variant": ...}, "tracker": {...}, ...}."""
        out: dict[str, dict[str, Any]] = {}
        for f in dataclasses.fields(self):
            section, _, key = f.name.partition("_")
            value = getattr(self, f.name)
            out.setdefault(section, {})[key] = str(value) if isinstance(value, PlayerSpec) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "") -> "Config":
        """The inverse of to_dict; unknown sections and keys are errors that name them."""
        names = {f.name: f for f in dataclasses.fields(cls)}
        sections = {n.partition("_")[0] for n in names}
        kwargs: dict[str, Any] = {}
        for section, table in data.items():
            if section not in sections:
                raise ConfigError.of(section, N_("unknown section; sections: {sections}"), source,
                                     sections=", ".join(sorted(sections)))
            if not isinstance(table, dict):
                raise ConfigError.of(section, N_("must be a table ([section])"), source)
            for key, value in table.items():
                if f"{section}.{key}" in RENAMED_KEYS:
                    old, key = f"{section}.{key}", RENAMED_KEYS[f"{section}.{key}"]
                    log.warning("%s%s is deprecated and will be removed; write %s.%s",
                                f"{source}: " if source else "", old, section, key)
                name = f"{section}_{key}"
                if name not in names:
                    known = sorted(n.partition("_")[2] for n in names if n.startswith(section + "_"))
                    raise ConfigError.of(f"{section}.{key}", N_("unknown key; keys: {keys}"),
                                         source, keys=", ".join(known))
                if name in ("game_white", "game_black"):
                    try:
                        value = PlayerSpec.parse(value, f"{section}.{key}")
                    except PlayerSpecError as exc:
                        raise ConfigError(exc.key, phrase_of(exc), source) from None
                elif ((name.startswith("tracker_") and name != "tracker_fault_edges"
                       or name == "game_menu_hold")
                      and isinstance(value, int) and not isinstance(value, bool)):
                    value = float(value)
                kwargs[name] = value
        try:
            return cls(**kwargs)
        except ConfigError as exc:
            raise exc.again(source=source) from None

    def replace(self, **changes: Any) -> "Config":
        return dataclasses.replace(self, **changes)


def _dotted(name: str) -> str:
    section, _, key = name.partition("_")
    return f"{section}.{key}"


def load_config(path: str | Path | None = None) -> Config:
    """Read a config file; with no path, $NAVAKANKARI_CONFIG or /etc/navakankari/navakankari.toml
    if present, else the defaults."""
    if path is None:
        env = os.environ.get(CONFIG_ENV)
        candidates = [env] if env else [p for p in DEFAULT_CONFIG_PATHS if Path(p).exists()]
        if not candidates:
            return Config()
        path = candidates[0]
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError.of("file", N_("cannot read {file}: {problem}"), str(path), file=path,
                             problem=exc.strerror) from None
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise ConfigError.of("file", N_("is not UTF-8 text (byte 0x{byte} on line {line})"),
                             str(path), byte=f"{exc.object[exc.start]:02x}", line=line) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problem, _ = toml_problem(exc)
        raise ConfigError.of("toml", problem.message, str(path), **dict(problem.places)) from None
    return Config.from_dict(data, str(path))
