"""The board's settings kept in the store: the LED brightness chosen on the board, and speech
turned on or off on the board or the page (the language has language.py). A kept value
outlives a restart and wins over the configuration.
"""

from __future__ import annotations

import logging

from ..store.database import Store
from . import menu as board_menu

log = logging.getLogger(__name__)

BRIGHTNESS_KEY = "led_brightness"
"""The store's setting that keeps the LED brightness chosen on the board across restarts."""

SPEECH_KEY = "speech"
"""The store's setting that keeps spoken announcements turned on or off on the board or the
page ("on", "off"; none: the configuration decides)."""


def kept_brightness(store: Store | None) -> float:
    """The brightness last chosen on the board; the whole cap when none was, or when the kept
    value is damaged (said in the log)."""
    text = store.setting(BRIGHTNESS_KEY) if store is not None else None
    if text is None:
        return 1.0
    try:
        return board_menu.parse_brightness(text)
    except ValueError as exc:
        log.warning("%s in the store; the LEDs use the wiring profile's cap", exc)
        return 1.0


def keep_brightness(store: Store | None, brightness: float) -> float:
    """Keep the brightness chosen on the board (a fraction of the cap); returns it."""
    log.info("LED brightness %g of the cap", brightness)
    if store is not None:
        store.set_setting(BRIGHTNESS_KEY, board_menu.format_brightness(brightness))
    return brightness


def kept_speech(store: Store | None) -> bool | None:
    """Speech as last turned on or off on the board or the page; None when it never was (or
    the kept value is damaged, said in the log): the configuration decides."""
    text = store.setting(SPEECH_KEY) if store is not None else None
    if text is not None and text not in ("on", "off"):
        log.warning("speech setting %r in the store is neither on nor off: the "
                    "configuration decides", text)
    return {"on": True, "off": False}.get(text or "")


def keep_speech(store: Store | None, on: bool) -> bool:
    """Keep speech turned on or off; returns `on`."""
    log.info("speech %s", "on" if on else "off")
    if store is not None:
        store.set_setting(SPEECH_KEY, "on" if on else "off")
    return on
