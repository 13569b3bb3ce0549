"""The first line of a recording: the game it plays, or how the board's menu stood.

A game chosen on the board is recorded from the moment the menu opened, so its replay must go
through the same menu: the same "same as last time", the same variants offered, the same
timing and the same toss. That line carries them, as a comment the event reader skips
(`# navakankari-menu {...}`), so `navakankari replay FILE` finds out from the file itself.
Any other game (started on the page, by a command, by the configuration) is recorded from its
start position and its line names it: `# navakankari-game {"variant", "white", "black"}`
(and `"first": "black"` when black moves first).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .menu import GameChoice, MenuSettings

PREFIX = "# navakankari-menu "
GAME_PREFIX = "# navakankari-game "


@dataclass
class Clocked:
    """Raw events waiting to be written, timed from `t0`: the session time at which the
    recording's event time 0 falls."""

    t0: float = 0.0
    pending: list[tuple[float, str, bool]] = field(default_factory=list)


class MenuLineError(ValueError):
    """The recording's menu line is not readable; the message names the line."""


@dataclass(frozen=True)
class MenuStart:
    """How the menu stood when the recording began."""

    last: GameChoice  #: "the same as last time"
    variants: tuple[str, ...]  #: the variants the board offered
    settings: MenuSettings
    seed: int = 0  #: with the time of the last edge, decides a toss
    online: bool = False  #: the menu offered a player at another board


def _choice(game: GameChoice) -> dict[str, str]:
    """A game choice as a line holds it: the side that moves first only when it is black,
    so a line written before black could begin reads the same."""
    fields = dataclasses.asdict(game)
    if game.first == "white":
        del fields["first"]
    return fields


def _read_choice(data: object) -> GameChoice:
    if not isinstance(data, dict):
        raise ValueError("a game must be a table of variant and players")
    game = GameChoice(**data)
    if not all(isinstance(v, str) for v in (game.variant, game.white, game.black)):
        raise ValueError("the variant and players must be names")
    return game


def format_line(start: MenuStart) -> str:
    """The comment line (no newline) that `parse_line` reads back."""
    fields = {"last": _choice(start.last), "variants": list(start.variants),
              "settings": dataclasses.asdict(start.settings), "seed": start.seed}
    if start.online:  # written only when offered, so older lines read the same
        fields["online"] = True
    return PREFIX + json.dumps(fields)


def parse_line(line: str, where: str = "<line>") -> MenuStart | None:
    """The menu line's contents; None for any other line; MenuLineError if it is damaged."""
    if not line.startswith(PREFIX):
        return None
    try:
        data = json.loads(line[len(PREFIX):])
        last = _read_choice(data["last"])
        variants = data["variants"]
        seed = data["seed"]
        online = data.get("online", False)
        # A line from before the help step or the adaptive computer: that menu had neither;
        # one from before the speech and language steps offered both on the brightness step.
        settings = MenuSettings(**{"assist": False, "adaptive": False, "speech_step": False,
                                   **data["settings"]})
        if not isinstance(online, bool):
            raise ValueError(f"online must be true or false, not {online!r}")
        if not isinstance(variants, list) or not variants or \
                not all(isinstance(v, str) for v in variants):
            raise ValueError("variants must be a list of names")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
    except (ValueError, KeyError, TypeError) as exc:
        raise MenuLineError(f"{where}: the menu line is not readable: {exc}") from None
    return MenuStart(last, tuple(variants), settings, seed, online)


def format_game_line(game: GameChoice) -> str:
    """The comment line (no newline) naming the game a recording plays; `parse_game_line`
    reads it back."""
    return GAME_PREFIX + json.dumps(_choice(game))


def parse_game_line(line: str, where: str = "<line>") -> GameChoice | None:
    """The game a game line names; None for any other line; MenuLineError if it is damaged."""
    if not line.startswith(GAME_PREFIX):
        return None
    try:
        game = _read_choice(json.loads(line[len(GAME_PREFIX):]))
    except (ValueError, TypeError) as exc:
        raise MenuLineError(f"{where}: the game line is not readable: {exc}") from None
    return game


def _head(lines: Iterable[str], name: str) -> Iterator[tuple[str, str]]:
    """The comment lines before a recording's first event, with where each is."""
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        if not text.startswith("#"):
            return  # the events began
        yield text, f"{name}:{number}"


def find(lines: Iterable[str], name: str = "<recording>") -> MenuStart | None:
    """The menu line of a recording (before its first event), if it has one."""
    for text, where in _head(lines, name):
        start = parse_line(text, where)
        if start is not None:
            return start
    return None


def find_game(lines: Iterable[str], name: str = "<recording>") -> GameChoice | None:
    """The game line of a recording (before its first event), if it has one."""
    for text, where in _head(lines, name):
        game = parse_game_line(text, where)
        if game is not None:
            return game
    return None
