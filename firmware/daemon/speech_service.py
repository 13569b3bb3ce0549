"""Spoken announcements as one of the daemon's services: the session's reports in, sentences
out (speaking.py), until the daemon stops."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from navakankari.engine.translator import ENGLISH, Translator

from ..core.session import Update
from .speaking import Speech, kept_speech
from .speech import Start
from .voice import Voice

if TYPE_CHECKING:
    from .loop import Daemon


def speech_service(voice: Voice, *, enabled: bool, aloud: bool = True,
                   language: str = "en", tr: Translator = ENGLISH,
                   start: Start | None = None) -> Callable[["Daemon"], Awaitable[None]]:
    """A daemon service that keeps `daemon.speech` and says what the session reports until
    the daemon stops: aloud through `voice` (or `start`, a test's player), or with `aloud`
    false by the page (the simulator). `enabled`: the configuration's [speech] enabled,
    which a choice kept in the store overrides."""

    async def speak(daemon: "Daemon") -> None:
        session = daemon.session
        assert session is not None
        speech = Speech((start or voice.start) if aloud else None, language=language, tr=tr,
                        enabled=kept_speech(daemon.store, enabled), store=daemon.store,
                        voice=voice)
        daemon.speech = speech
        # What the board shows as the service starts (the menu, a resumed game) is said too.
        speech.heard(session.game, Update("status", session.status, len(session.game.history)))
        unsubscribe = session.subscribe(lambda update: speech.heard(session.game, update))
        remove = speech.add_listener(daemon.changed)

        def look() -> None:
            online = daemon.online.state() if daemon.online is not None else None
            far = online.get("opponent_online") if online else None
            speech.look({"computer": session.problem, "leds": daemon.led_failure},
                        far if isinstance(far, bool) else None)

        unlisten = daemon.add_frame_listener(look)
        try:
            await asyncio.Event().wait()
        finally:
            unlisten()
            remove()
            unsubscribe()
            daemon.speech = None
            speech.close()

    return speak
