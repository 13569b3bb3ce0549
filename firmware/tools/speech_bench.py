"""`navakankari bench daemon --speech`: the daemon loop's time from a settled sensor change to
the new LED frame, with speech off and then on, so that speaking is seen not to slow it.

The real daemon loop runs on the simulated board in real time, two simulated hands playing
random legal actions and fidgeting once a turn (thinking_bench's hands), for the same time
and seed each way. With speech on, every report is said as on a board: espeak-ng into aplay,
started and stopped by the speech thread, on ALSA's null device (no sound card needed). The
null device does not pace playback, so each sentence ends when it is made: more processes
are started than a real speaker would allow, which is the harder case for the loop. The
sentences are made and played from the speech process (speech_process.py), not the
daemon's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any
from typing import TYPE_CHECKING

from ..core.players import HAND
from ..daemon.speaking import Speech
from ..daemon.speech_process import SpeakerProcess
from ..daemon.speech_service import speech_service
from ..daemon.voice import Voice, installed
from .bench import _spread
from .thinking_bench import Latencies, measure

if TYPE_CHECKING:
    from ..daemon.loop import Daemon


def _keep_speech(kept: list[Speech]) -> Callable[["Daemon"], Coroutine[Any, Any, None]]:
    """A service that keeps the daemon's Speech for the figures after the run."""
    async def keep(daemon: "Daemon") -> None:
        while daemon.speech is None:
            await asyncio.sleep(0.05)
        kept.append(daemon.speech)
    return keep


def loop_latency(out: Callable[[str], None], seconds: float, seed: int = 0) -> dict[str, Latencies]:
    """Both runs' figures, printed as they come."""
    missing = installed()
    if missing:
        out(f"speech: {' and '.join(missing)} not installed (sudo apt install espeak-ng "
            "alsa-utils): not measured")
        return {}
    figures = {}
    for label, on in (("speech off", False), ("speech on", True)):
        kept: list[Speech] = []
        service = speech_service(Voice(device="null"), default=on)
        run = figures[label] = measure(seconds, seed, black=HAND,
                                       services=[service, _keep_speech(kept)])
        said = ""
        speaker = kept[0].speaker if on and kept else None
        if isinstance(speaker, SpeakerProcess):
            said = (f"; {speaker.started} sentences said by the speech process (espeak-ng into "
                    f"aplay), {speaker.dropped} dropped, problem: {speaker.problem or 'none'}")
        out(f"daemon loop, hand vs hand, {seconds:.0f} s, {label}: settled change -> LED frame "
            f"{_spread(run.idle, 'frames', with_max=True)}; an action stored "
            f"{_spread(run.commits, 'frames', with_max=True)}{said}")
    return figures


def run(out: Callable[[str], None] = print, quick: bool = False) -> None:
    loop_latency(out, 20.0 if quick else 60.0)
