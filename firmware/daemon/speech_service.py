"""Spoken announcements as one of the daemon's services: the session's reports in, sentences
out (speaking.py), until the daemon stops."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from navakankari.engine.translator import ENGLISH, Translator

from ..core.update import Update
from ..core.status import adaptive_level
from .speaking import Speech
from .speech import Speaker, Start
from .speech_process import SpeakerProcess
from .voice import Voice

if TYPE_CHECKING:
    from .loop import Daemon


def speech_service(voice: Voice, *, default: bool, aloud: bool = True,
                   translate: Callable[[str], Translator] = lambda code: ENGLISH,
                   start: Start | None = None, way_in: bool = False,
                   ) -> Callable[["Daemon"], Coroutine[Any, Any, None]]:
    """A daemon service that keeps `daemon.speech` and says what the session reports until
    the daemon stops: aloud through `voice` in the speech process (or `start`, a test's
    player, in a speech thread), or with `aloud` false by the page (the simulator).
    `default`: the configuration's [speech] enabled, which the session's choice (the
    menu's, the page's, kept in the store) overrides. `translate(code)`: a language's
    catalog: the board's language is spoken, and followed when it changes. `way_in`: a
    speaker is there, so with speech off each visit of the menu says how to turn it on."""

    async def speak(daemon: "Daemon") -> None:
        session = daemon.session
        assert session is not None

        def enabled() -> bool:
            return session.speech if session.speech is not None else default

        speaker = None if not aloud else Speaker(start) if start is not None \
            else SpeakerProcess(voice)
        speech = Speech(speaker, language=session.language, tr=translate(session.language),
                        enabled=enabled(), voice=voice, way_in=way_in and speaker is not None)

        def heard(update: Update) -> None:
            speech.enabled = enabled()  # turned on or off in the menu or on the page
            if session.language != speech.announcer.language:  # chosen in the menu or page
                speech.set_language(session.language, translate(session.language))
            speech.heard(session.game, update,
                         level=adaptive_level(session.players, session.game.turn))

        daemon.speech = speech
        # What the board shows as the service starts (the menu, a resumed game) is said too.
        heard(Update("status", session.status, len(session.game.history)))
        unsubscribe = session.subscribe(heard)
        remove = speech.add_listener(daemon.changed)

        def look() -> None:
            online = daemon.online.state() if daemon.online is not None else None
            far = online.get("opponent_online") if online else None
            leds, computer = daemon.led_failure, session.problem
            speech.look({"computer": computer.words(speech.announcer.tr) if computer else None,
                         "leds": leds.words(speech.announcer.tr) if leds else None},
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
