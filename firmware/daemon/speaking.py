"""The board's voice in a running daemon: the session's reports heard, the sentences handed
to the speech thread (speech.py) to be said aloud, or kept numbered for the page to say.

On the board the sentences are said aloud. In the simulator the page says them: it is told
each one (`Speech.recent`, numbered) and plays it with the browser's own voice where it has
one for the language, else the WAV the daemon makes (`Speech.wav`).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Mapping

from navakankari.engine.game import Game
from navakankari.engine.translator import ENGLISH, Translator
from navakankari.hal.words import Phrase

from ..core.announce import Announcer, Utterance
from ..core.update import Update
from ..core.status import StatusKind
from .speech import Saying
from .voice import Voice

log = logging.getLogger(__name__)

RECENT = 20
"""Sentences the page may still ask for (numbered); older ones are gone."""


class Speech:
    """The board's voice in a running daemon. `speaker` says the sentences aloud (the
    speech process, or a speech thread in a test);
    None leaves the saying to the page (the simulator). Called in the loop's thread; what
    takes time happens in the speech thread."""

    def __init__(self, speaker: Saying | None, *, enabled: bool, language: str = "en",
                 tr: Translator = ENGLISH, voice: Voice | None = None,
                 way_in: bool = False) -> None:
        self.speaker = speaker
        #: With speech off, say how to turn it on each time the menu shows (a speaker is
        #: there to hear it), once a visit
        self.way_in = way_in
        self._way_in_said = False  #: said in this visit of the menu
        self.announcer = Announcer(language, tr)
        self.enabled = enabled  #: the session's choice, else the configuration's (the service)
        self.voice = voice or Voice()
        self.count = 0  #: sentences said since start: the page asks for the newest by number
        self.recent: deque[tuple[int, Utterance]] = deque(maxlen=RECENT)
        self._listeners: list[Callable[[], None]] = []
        self._problems: dict[str, str | None] = {}
        self._far_board: bool | None = None

    @property
    def aloud(self) -> bool:
        return self.speaker is not None

    @property
    def problem(self) -> Phrase | None:
        return self.speaker.problem if self.speaker is not None else None

    def heard(self, game: Game, update: Update, far_away: str = "",
              level: int | None = None) -> None:
        """A report of the session: say what it means (the announcer keeps following the
        game while speech is off, so turning it on does not say old news); `level`, the
        adaptive computer's as the status words take it."""
        utterance = self.announcer.hear_update(game, update, far_away=far_away, level=level)
        if utterance is not None and self.enabled:
            self.say(utterance)
        elif self.way_in and not self.enabled and not self._way_in_said:
            hint = self.announcer.way_in(update.status)
            if hint is not None:
                self._way_in_said = True  # once a visit: a player who wants silence keeps it
                self.say(hint)
        if update.status.kind is not StatusKind.MENU:
            self._way_in_said = False  # the visit is over: the next one says it again

    def set_language(self, language: str, tr: Translator) -> None:
        """Speak `language` from the next sentence on (the board's language changed)."""
        if language != self.announcer.language:
            self.announcer.language, self.announcer.tr = language, tr

    def say(self, utterance: Utterance) -> None:
        self.count += 1
        self.recent.append((self.count, utterance))
        if self.speaker is not None:
            self.speaker.say(utterance)
        for listener in list(self._listeners):
            listener()

    def look(self, problems: Mapping[str, str | None], far_board: bool | None) -> None:
        """What the board shows beside the game, looked at after each frame: a problem said
        when it appears or changes (by its source: "computer", "leds"), the other board of
        an online game when it goes or comes back (None: no such board)."""
        # What is seen is kept before it is said: saying it tells the page, which looks again.
        for source, text in problems.items():
            before, self._problems[source] = self._problems.get(source), text
            if text and text != before and self.enabled:
                self.say(self.announcer.problem(text))
        before_far, self._far_board = self._far_board, far_board
        if far_board is not None and before_far is not None and far_board != before_far \
                and self.enabled:
            self.say(self.announcer.far_board(far_board))

    def add_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` after each sentence is handed on (the page); returns a function
        that removes it."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def utterance(self, number: int) -> Utterance | None:
        """A recent sentence by its number, for the page; None when it is gone."""
        return next((u for n, u in self.recent if n == number), None)

    def wav(self, number: int) -> bytes | None:
        """A recent sentence as a WAV (takes espeak-ng's time: call it off the loop)."""
        utterance = self.utterance(number)
        return None if utterance is None else self.voice.wav(utterance.text, utterance.language)

    def close(self) -> None:
        if self.speaker is not None:
            self.speaker.close()
