"""The synthesizer: espeak-ng (packaged by Debian and Raspberry Pi OS), played through ALSA.

A sentence is made by `espeak-ng --stdout` and played by `aplay` from the same pipe, two
processes the speech thread can stop at once (speech.py). The same command line writes a
WAV for the page and the tests; espeak-ng writes its WAV header before it knows the length,
so `wav_fixed` puts the real sizes in.

espeak-ng 1.51 (Debian 12) has a voice for every language the board speaks: en, hi, gu,
kn, te, mr, bn and ta (`voices_installed` asks the installed one; doctor says which miss).
"""

from __future__ import annotations

import io
import logging
import os
import shutil
import struct
import subprocess
import wave
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from navakankari.hal.words import N_, Phrase, Words

if TYPE_CHECKING:
    from ..core.announce import Utterance

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
APLAY = "aplay"
VOICES: Mapping[str, str] = {"en": "en", "hi": "hi", "gu": "gu", "kn": "kn", "te": "te",
                             "mr": "mr", "bn": "bn", "ta": "ta"}
"""espeak-ng's voice for each language the board speaks (the catalogs' codes)."""
RATE = 150
"""Words a minute: a little slower than espeak-ng's 175, for point names said to a player."""
RATES = (80, 300)
SYNTH_NICE = 10
"""Nice levels the synthesizer runs below the daemon, as the search does (players.CHILD_NICE):
making a sentence takes a burst of CPU, and the loop reading the sensors goes first. The
player (aplay) keeps the daemon's priority, so the sound does not break up."""
SYNTH_TIMEOUT = 10.0
MAX_TEXT = 1000
"""Characters of one utterance at most: a sentence of the board's is far shorter."""


class VoiceError(ValueError):
    """A language without a voice, a bad WAV, or a synthesizer that failed; says which as a
    catalog message (`problem`, a phrase) that `say` words in the player's language (`words`)."""

    def __init__(self, message: str, /, **places: object) -> None:
        self.problem = Phrase(message, **places)
        super().__init__(self.problem)

    def words(self, tr: Words) -> str:
        return self.problem.words(tr)


@dataclass(frozen=True)
class Voice:
    """How sentences are said: espeak-ng's speed, and the ALSA device ("" = the default,
    "plughw:CARD=Headphones" for the Pi's jack, "plughw:CARD=Device" for many USB speakers)."""

    rate: int = RATE
    device: str = ""
    nice: int = SYNTH_NICE

    def synth_command(self, language: str, wav: str = "") -> list[str]:
        """espeak-ng reading the text from its standard input; the WAV to `wav`, or to its
        standard output."""
        if language not in VOICES:
            raise VoiceError(N_("no voice for language {language}; voices: {voices}"),
                             language=repr(language), voices=", ".join(VOICES))
        out = ["-w", wav] if wav else ["--stdout"]
        return [ESPEAK, "-v", VOICES[language], "-s", str(self.rate), *out, "--stdin"]

    def play_command(self) -> list[str]:
        """aplay reading a WAV from its standard input."""
        return [APLAY, "-q", *(["-D", self.device] if self.device else []), "-"]

    def start(self, utterance: Utterance) -> "Pipeline":
        """Begin saying `utterance` aloud; returns at once (speech.Start)."""
        text = _bounded(utterance.text)
        synth = subprocess.Popen(self.synth_command(utterance.language), stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        _lower(synth.pid, self.nice)
        try:
            play = subprocess.Popen(self.play_command(), stdin=synth.stdout,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError:
            synth.kill()
            synth.wait()
            raise
        assert synth.stdin is not None and synth.stdout is not None
        synth.stdout.close()  # aplay holds the pipe now: espeak-ng sees it close if aplay ends
        try:
            synth.stdin.write(text.encode("utf-8"))
            synth.stdin.close()
        except BrokenPipeError:
            pass
        return Pipeline((synth, play))

    def wav(self, text: str, language: str) -> bytes:
        """The sentence as a WAV file's bytes (the page, the tests, `bench speech`)."""
        try:
            done = subprocess.run(self.synth_command(language), input=_bounded(text).encode("utf-8"),
                                  capture_output=True, timeout=SYNTH_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise VoiceError(N_("{program} could not say it: {problem}"), program=ESPEAK,
                             problem=exc) from None
        if done.returncode != 0:
            raise VoiceError(N_("{program} failed ({status}): {problem}"), program=ESPEAK,
                             status=done.returncode,
                             problem=done.stderr.decode("utf-8", "replace").strip()[:200])
        return wav_fixed(done.stdout)


def _bounded(text: str) -> str:
    if len(text) > MAX_TEXT:
        raise VoiceError(N_("an utterance of {length} characters (at most {most})"),
                         length=len(text), most=MAX_TEXT)
    return text


def _lower(pid: int, increment: int) -> None:
    """Run process `pid` `increment` nice levels below this one (a sentence made a moment
    before is no harm: the start is not held up for it); as it is where refused."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + increment))
    except OSError:
        pass


class Pipeline:
    """The processes saying one sentence (speech.Playing): done when the last one is."""

    def __init__(self, processes: Sequence[subprocess.Popen[bytes]]) -> None:
        self.processes = tuple(processes)

    def poll(self) -> int | None:
        statuses = [p.poll() for p in self.processes]
        if statuses[-1] is None:
            return None
        for p in self.processes[:-1]:  # the player ended: the synthesizer cannot go on
            if p.poll() is None:
                p.kill()
            p.wait()
        if statuses[-1] != 0 and self.processes[-1].stderr is not None:
            log.warning("%s: %s", APLAY, self.processes[-1].stderr.read(500)
                        .decode("utf-8", "replace").strip())
        return statuses[-1]

    def terminate(self) -> None:
        for p in self.processes:
            if p.poll() is None:
                p.terminate()
        for p in self.processes:
            p.wait()


def installed() -> list[str]:
    """The programs speech needs that are missing from PATH."""
    return [name for name in (ESPEAK, APLAY) if shutil.which(name) is None]


def voices_installed(languages: Sequence[str] = tuple(VOICES)) -> dict[str, bool]:
    """Whether the installed espeak-ng has each language's voice (False for all when it is
    missing)."""
    try:
        done = subprocess.run([ESPEAK, "--voices"], capture_output=True, text=True,
                              timeout=SYNTH_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return {lang: False for lang in languages}
    return voices_in(done.stdout, languages)


def voices_in(listing: str, languages: Sequence[str] = tuple(VOICES)) -> dict[str, bool]:
    """Read `espeak-ng --voices`: each language's voice is there when a row's language is
    the voice's name or a variant of it ("en" is there as "en-gb")."""
    codes = {row.split()[1] for row in listing.splitlines()[1:] if len(row.split()) > 1}
    out = {}
    for lang in languages:
        voice = VOICES.get(lang, lang)
        out[lang] = any(code == voice or code.startswith(voice + "-") for code in codes)
    return out


# -- WAV ------------------------------------------------------------------------------------
def wav_fixed(data: bytes) -> bytes:
    """espeak-ng's streamed WAV with its header's sizes made true (it writes 0x7ffff...
    before it knows the length). Raises VoiceError for what is not a 16-bit PCM WAV."""
    if len(data) < 44 or data[:4] != b"RIFF" or data[8:16] != b"WAVEfmt ":
        raise VoiceError(N_("not a WAV file"))
    fmt_size = struct.unpack_from("<I", data, 16)[0]
    if fmt_size > 64:
        raise VoiceError(N_("a WAV format chunk of {size} bytes"), size=fmt_size)
    channels, rate, _, _, bits = struct.unpack_from("<HIIHH", data, 22)
    at = 20 + fmt_size
    if data[at:at + 4] != b"data" or bits != 16 or channels not in (1, 2) or not rate:
        raise VoiceError(N_("not a 16-bit PCM WAV"))
    frames = data[at + 8:]
    frames = frames[:len(frames) - len(frames) % (2 * channels)]
    return pcm_wav(frames, rate, channels)


def pcm_wav(frames: bytes, rate: int, channels: int = 1) -> bytes:
    """16-bit PCM samples as a WAV file."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)
    return out.getvalue()


def wav_seconds(data: bytes) -> float:
    """A WAV's length in seconds. Raises VoiceError for what wave cannot read."""
    try:
        with wave.open(io.BytesIO(data), "rb") as w:
            return w.getnframes() / w.getframerate()
    except (wave.Error, EOFError, ZeroDivisionError) as exc:
        raise VoiceError(N_("not a WAV file: {problem}"), problem=exc) from None
