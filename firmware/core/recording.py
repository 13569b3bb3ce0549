"""The first line of a recording that starts in the board's menu.

A game chosen on the board is recorded from the moment the menu opened, so its replay must go
through the same menu: the same "same as last time", the same variants offered, the same
timing and the same toss. That line carries them, as a comment the event reader skips
(`# navakankari-menu {...}`), so `navakankari replay FILE` finds out from the file itself.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass

from .menu import GameChoice, MenuSettings

PREFIX = "# navakankari-menu "


class MenuLineError(ValueError):
    """The recording's menu line is not readable; the message names the line."""


@dataclass(frozen=True)
class MenuStart:
    """How the menu stood when the recording began."""

    last: GameChoice  #: "the same as last time"
    variants: tuple[str, ...]  #: the variants the board offered
    settings: MenuSettings
    seed: int = 0  #: with the time of the last edge, decides a toss


def format_line(start: MenuStart) -> str:
    """The comment line (no newline) that `parse_line` reads back."""
    return PREFIX + json.dumps({
        "last": dataclasses.asdict(start.last), "variants": list(start.variants),
        "settings": dataclasses.asdict(start.settings), "seed": start.seed})


def parse_line(line: str, where: str = "<line>") -> MenuStart | None:
    """The menu line's contents; None for any other line; MenuLineError if it is damaged."""
    if not line.startswith(PREFIX):
        return None
    try:
        data = json.loads(line[len(PREFIX):])
        last = GameChoice(**data["last"])
        variants = data["variants"]
        seed = data["seed"]
        settings = MenuSettings(**data["settings"])
        if not all(isinstance(v, str) for v in (last.variant, last.white, last.black)):
            raise ValueError("the last game's variant and players must be names")
        if not isinstance(variants, list) or not variants or \
                not all(isinstance(v, str) for v in variants):
            raise ValueError("variants must be a list of names")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
    except (ValueError, KeyError, TypeError) as exc:
        raise MenuLineError(f"{where}: the menu line is not readable: {exc}") from None
    return MenuStart(last, tuple(variants), settings, seed)


def find(lines: Iterable[str], name: str = "<recording>") -> MenuStart | None:
    """The menu line of a recording (before its first event), if it has one."""
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        if not text.startswith("#"):
            return None  # the events began: no menu line
        start = parse_line(text, f"{name}:{number}")
        if start is not None:
            return start
    return None
