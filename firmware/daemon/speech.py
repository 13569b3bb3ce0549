"""Spoken announcements, said one after another off the loop that reads the sensors.

The loop only hands sentences over (`Speaker.say`, which never waits for a process); a
worker thread starts the synthesizer and the player (voice.py) and watches them. What is
said when is decided by `SpeechQueue`, which is pure apart from the processes it is given:
time is passed in, so its rules are tested with a clock that does not run.

The rules: an utterance marked `interrupt` cuts the one being said short and drops what
waits (the hands act now: a lifted pebble, a mistake); any other waits its turn, replacing
a waiting one of the same `topic`; at most `limit` wait. An utterance with `repeat` is said
again after that many seconds of silence until another one comes (the computer's move,
until the hands carry it out).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from navakankari.hal.words import N_, Phrase
from navakankari.hal.scheduling import Scheduling

if TYPE_CHECKING:
    from ..core.announce import Utterance

log = logging.getLogger(__name__)

POLL = 0.05
"""Seconds between looks at a sentence being said (the worker thread's, not the loop's)."""
LIMIT = 4
KEPT = 20
"""Utterances that may wait; the oldest is dropped beyond this (the board has moved on)."""

SYNTH_ENDED = N_("speech failed: the synthesizer or player ended with status {status}")
SYNTH_UNSTARTED = N_("speech failed: the synthesizer could not be started ({problem})")
PROCESS_UNSTARTED = N_("speech failed: the speech process could not be started ({problem})")
PROCESS_ENDED = N_("speech failed: the speech process has ended")
PROCESS_STUCK = N_("speech failed: the speech process stopped reading")
PROBLEMS = (SYNTH_ENDED, SYNTH_UNSTARTED, PROCESS_UNSTARTED, PROCESS_ENDED, PROCESS_STUCK)
"""Why speech fails, as the page shows it and the speech process reports it."""


class Playing(Protocol):
    """A sentence being said: the synthesizer and player processes, or a test's fake."""

    def poll(self) -> int | None:
        """None while it is still being said, else its exit status."""

    def terminate(self) -> None:
        """Stop saying it now."""


Start = Callable[["Utterance"], Playing]


class Saying(Protocol):
    """What says sentences for the daemon: a `Speaker` (its own thread) or the speech process
    (speech_process.SpeakerProcess)."""

    @property
    def problem(self) -> Phrase | None:
        """Why the last sentence could not be said, until one is."""

    def say(self, utterance: Utterance) -> None:
        """Take a sentence; returns at once."""

    def close(self) -> None:
        """Cut short what is being said, and stop."""


class SpeechQueue:
    """What is said now and what waits. Not thread-safe: `Speaker` holds a lock around it."""

    def __init__(self, start: Start, *, limit: int = LIMIT) -> None:
        self._start = start
        self._limit = limit
        self._waiting: deque[Utterance] = deque()
        self._current: tuple[Utterance, Playing] | None = None
        self._repeat: tuple[Utterance, float] | None = None  #: (utterance, when) to say again
        self.said: deque[Utterance] = deque(maxlen=KEPT)  #: the last utterances started
        self.started = 0  #: utterances started since the queue was made
        self.cut = 0  #: utterances cut short by a newer one
        self.failures = 0  #: utterances that could not be started or ended with an error
        self.problem: Phrase | None = None  #: why the last one failed, until one succeeds
        self.on_failure: Callable[[Phrase], None] | None = None  #: told why each one failed

    @property
    def speaking(self) -> Utterance | None:
        return self._current[0] if self._current is not None else None

    @property
    def waiting(self) -> tuple[Utterance, ...]:
        return tuple(self._waiting)

    def offer(self, utterance: Utterance, now: float) -> None:
        """Take a new utterance; it is started by the next `step`."""
        self._repeat = None
        if utterance.interrupt:
            self._waiting.clear()
            self._cut_short()
        elif utterance.topic:
            self._waiting = deque(u for u in self._waiting if u.topic != utterance.topic)
        self._waiting.append(utterance)
        while len(self._waiting) > self._limit:
            dropped = self._waiting.popleft()
            log.debug("not said (the board moved on): %s", dropped.text)

    def stop(self) -> None:
        """Say nothing more: the one being said is cut short, nothing waits or repeats."""
        self._waiting.clear()
        self._repeat = None
        self._cut_short()

    def _cut_short(self) -> None:
        if self._current is not None:
            utterance, playing = self._current
            if playing.poll() is None:
                playing.terminate()
                self.cut += 1
            self._current = None

    def step(self, now: float) -> float | None:
        """Look at the sentence being said and start the next; returns when to look again
        (None: not before an utterance is offered)."""
        if self._current is not None:
            utterance, playing = self._current
            status = playing.poll()
            if status is None:
                return now + POLL
            self._current = None
            if status != 0:
                self._failed(utterance, Phrase(SYNTH_ENDED, status=status))
            else:
                self.problem = None
            if utterance.repeat > 0 and not self._waiting:
                self._repeat = (utterance, now + utterance.repeat)
        if not self._waiting and self._repeat is not None:
            utterance, when = self._repeat
            if now < when:
                return when
            self._repeat = None
            self._waiting.append(utterance)
        while self._waiting:
            utterance = self._waiting.popleft()
            try:
                playing = self._start(utterance)
            except OSError as exc:
                self._failed(utterance, Phrase(SYNTH_UNSTARTED, problem=exc))
                continue
            self._current = (utterance, playing)
            self.said.append(utterance)
            self.started += 1
            return now + POLL
        return None

    def _failed(self, utterance: Utterance, why: Phrase) -> None:
        self.failures += 1
        if self.problem != why:
            log.error("speech: %s (%r)", why, utterance.text)
        self.problem = why
        if self.on_failure is not None:
            self.on_failure(why)


class Speaker:
    """A `SpeechQueue` run by its own thread. `say` may be called from any thread and only
    appends to an inbox: the queue, and every process start and stop, belong to the speech
    thread, so the loop that reads the sensors never waits on them. `close` cuts short what
    is being said and ends the thread."""

    def __init__(self, start: Start, *, clock: Callable[[], float] = time.monotonic,
                 limit: int = LIMIT) -> None:
        self.queue = SpeechQueue(start, limit=limit)
        self._clock = clock
        self._inbox: deque[Utterance] = deque()  # appends and pops are atomic
        self._wake = threading.Event()
        self._closing = False
        self._listeners: list[Callable[[Utterance], None]] = []
        self._thread = threading.Thread(target=self._run, args=(Scheduling.current(),),
                                        name="speech", daemon=True)
        self._thread.start()

    def say(self, utterance: Utterance) -> None:
        self._inbox.append(utterance)
        self._wake.set()

    @property
    def problem(self) -> Phrase | None:
        return self.queue.problem

    def _run(self, scheduling: Scheduling) -> None:
        scheduling.apply()  # the daemon loop's (navakankari.hal.scheduling)
        queue = self.queue
        while not self._closing:
            self._wake.clear()
            while self._inbox:
                queue.offer(self._inbox.popleft(), self._clock())
            before = queue.started
            wake = queue.step(self._clock())
            for utterance in list(queue.said)[len(queue.said) - (queue.started - before):]:
                for listener in list(self._listeners):
                    listener(utterance)
            if self._inbox:
                continue
            self._wake.wait(None if wake is None else max(0.0, wake - self._clock()))
        queue.stop()

    def add_listener(self, callback: Callable[[Utterance], None]) -> None:
        """Call `callback(utterance)` (in the speech thread) as each utterance starts."""
        self._listeners.append(callback)

    def close(self, timeout: float = 2.0) -> None:
        self._closing = True
        self._wake.set()
        self._thread.join(timeout)
