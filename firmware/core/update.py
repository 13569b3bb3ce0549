"""What the session tells its subscribers after every change (`Session.subscribe`)."""

from __future__ import annotations

from dataclasses import dataclass

from .status import Status


@dataclass(frozen=True)
class Update:
    """Told to subscribers after every change: why, the actions just committed, the status."""

    reason: str  #: "actions", "status", "new-game", "takeback", "players", "forced", "problem",
    #: "advice", "speech" (turned on or off), "language"; the menu's "menu", "brightness"
    status: Status
    ply: int
    actions: tuple[str, ...] = ()
