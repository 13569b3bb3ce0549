"""The tests' way to put a message on a game's topic as a player would: sealed for it."""

from __future__ import annotations

from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.messages import Message
from navakankari.firmware.online.wire import game_topic, seal


def on(code: GameCode, side: str, what: str, message: Message) -> tuple[str, bytes]:
    """The topic and the payload of `message` published on `side`'s `what` topic."""
    name = game_topic(code, side, what)
    return name, seal(code, name, message)
