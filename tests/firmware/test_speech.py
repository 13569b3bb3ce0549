"""The speech queue (what is said when, cut short, repeated) with a clock that does not run and
player processes that end when the test says; the thread that runs it; and the real espeak-ng
where it is installed (tests/run.sh installs it)."""

from __future__ import annotations

import os
import shutil
import threading

import pytest
from navakankari.firmware.core.announce import Utterance
from navakankari.firmware.daemon.speech import POLL, Speaker, SpeechQueue
from navakankari.firmware.daemon.voice import (
    VOICES,
    Voice,
    VoiceError,
    pcm_wav,
    voices_in,
    wav_fixed,
    wav_seconds,
)


class FakePlaying:
    """A player process: says its sentence until `finish()`; `terminate()` cuts it short."""

    def __init__(self, utterance: Utterance) -> None:
        self.utterance = utterance
        self.status: int | None = None
        self.terminated = False

    def poll(self) -> int | None:
        return self.status

    def terminate(self) -> None:
        self.terminated = True
        self.status = -15

    def finish(self, status: int = 0) -> None:
        self.status = status


class Starter:
    def __init__(self, fail: bool = False) -> None:
        self.started: list[FakePlaying] = []
        self.fail = fail

    def __call__(self, utterance: Utterance) -> FakePlaying:
        if self.fail:
            raise FileNotFoundError(2, "No such file or directory", "espeak-ng")
        self.started.append(FakePlaying(utterance))
        return self.started[-1]

    @property
    def texts(self) -> list[str]:
        return [p.utterance.text for p in self.started]


def say(text: str, **kw) -> Utterance:
    return Utterance(text, "en", **kw)


def test_utterances_are_said_one_after_another():
    start = Starter()
    q = SpeechQueue(start)
    assert q.step(0.0) is None  # nothing to say: no wake-up
    q.offer(say("white, d6"), 0.0)
    q.offer(say("black to move"), 0.0)
    assert q.step(0.0) == POLL
    assert start.texts == ["white, d6"]
    assert q.step(0.5) == 0.5 + POLL  # still speaking: the second waits
    assert start.texts == ["white, d6"]
    start.started[0].finish()
    q.step(1.0)
    assert start.texts == ["white, d6", "black to move"]
    start.started[1].finish()
    assert q.step(2.0) is None
    assert [u.text for u in q.said] == ["white, d6", "black to move"]
    assert q.cut == 0


def test_an_interrupting_utterance_cuts_short_and_drops_what_waits():
    start = Starter()
    q = SpeechQueue(start)
    q.offer(say("white, d6"), 0.0)
    q.offer(say("black to move"), 0.0)
    q.step(0.0)
    q.offer(say("d5 goes to d6 or d7", interrupt=True), 0.3)
    assert start.started[0].terminated
    assert q.waiting == (say("d5 goes to d6 or d7", interrupt=True),)
    q.step(0.3)
    assert start.texts == ["white, d6", "d5 goes to d6 or d7"]
    assert q.cut == 1


def test_a_newer_utterance_of_a_topic_replaces_the_waiting_one():
    start = Starter()
    q = SpeechQueue(start)
    q.offer(say("white, d6"), 0.0)
    q.step(0.0)
    q.offer(say("black to move", topic="turn"), 0.1)
    q.offer(say("the menu: the game", topic="menu"), 0.1)
    q.offer(say("white to move", topic="turn"), 0.2)
    assert [u.text for u in q.waiting] == ["the menu: the game", "white to move"]


def test_at_most_limit_wait_and_the_oldest_go():
    q = SpeechQueue(Starter(), limit=2)
    for k in range(5):
        q.offer(say(f"s{k}"), 0.0)
    assert [u.text for u in q.waiting] == ["s3", "s4"]


def test_a_repeating_utterance_is_said_again_after_silence_until_another_comes():
    start = Starter()
    q = SpeechQueue(start)
    q.offer(say("the computer plays d2 to d3", repeat=8.0), 0.0)
    q.step(0.0)
    start.started[0].finish()
    assert q.step(2.0) == 10.0  # silence, then again at 2 + 8
    assert q.step(9.9) == 10.0
    q.step(10.0)
    assert start.texts == ["the computer plays d2 to d3"] * 2
    start.started[1].finish()
    assert q.step(12.0) == 20.0
    q.offer(say("black, d3"), 13.0)  # carried out: said, and the repeating stops
    q.step(13.0)
    start.started[2].finish()
    assert q.step(14.0) is None
    assert start.texts[-1] == "black, d3"


def test_a_repeat_waits_for_what_was_offered_meanwhile():
    start = Starter()
    q = SpeechQueue(start)
    q.offer(say("the computer plays d3", repeat=5.0), 0.0)
    q.step(0.0)
    q.offer(say("a sensor chatters"), 1.0)  # any newer utterance ends the repeating
    start.started[0].finish()
    q.step(2.0)
    start.started[1].finish()
    assert q.step(3.0) is None
    assert start.texts == ["the computer plays d3", "a sensor chatters"]


def test_a_synthesizer_that_cannot_start_is_a_problem_not_an_end():
    start = Starter(fail=True)
    q = SpeechQueue(start)
    q.offer(say("white, d6"), 0.0)
    assert q.step(0.0) is None
    assert q.failures == 1 and "could not be started" in str(q.problem)
    start.fail = False
    q.offer(say("black, d5"), 1.0)
    q.step(1.0)
    start.started[0].finish()
    q.step(2.0)
    assert q.problem is None


def test_a_player_that_fails_is_counted():
    start = Starter()
    q = SpeechQueue(start)
    q.offer(say("white, d6"), 0.0)
    q.step(0.0)
    start.started[0].finish(1)
    q.step(0.5)
    assert q.failures == 1 and "status 1" in str(q.problem)


def test_stop_cuts_short_and_forgets():
    start = Starter()
    q = SpeechQueue(start)
    q.offer(say("one", repeat=3.0), 0.0)
    q.offer(say("two"), 0.0)
    q.step(0.0)
    q.stop()
    assert start.started[0].terminated and q.waiting == () and q.step(10.0) is None


def test_the_speaker_thread_says_what_it_is_given_and_returns_at_once():
    started = threading.Event()
    seen: list[Utterance] = []
    start = Starter()

    def starter(u: Utterance) -> FakePlaying:
        playing = start(u)
        started.set()
        return playing

    speaker = Speaker(starter)
    speaker.add_listener(seen.append)
    try:
        speaker.say(say("white, d6"))
        assert started.wait(5.0)
        started.clear()
        speaker.say(say("lift the pebble", interrupt=True))
        assert started.wait(5.0)
        assert start.started[0].terminated
    finally:
        speaker.close()
    assert start.started[1].terminated  # closing cuts short what is being said
    assert [u.text for u in seen] == ["white, d6", "lift the pebble"]


# -- the synthesizer's command lines and its WAV ------------------------------------------------
def test_commands():
    voice = Voice(rate=140, device="plughw:CARD=Device")
    assert voice.synth_command("gu") == ["espeak-ng", "-v", "gu", "-s", "140", "--stdout", "--stdin"]
    assert voice.synth_command("kn", "/tmp/x.wav")[-3:] == ["-w", "/tmp/x.wav", "--stdin"]
    assert voice.play_command() == ["aplay", "-q", "-D", "plughw:CARD=Device", "-"]
    assert Voice().play_command() == ["aplay", "-q", "-"]
    with pytest.raises(VoiceError, match="no voice for language 'xx'"):
        voice.synth_command("xx")


def test_wav_fixed_round_trips_and_mends_a_streamed_header():
    frames = bytes(range(256)) * 40
    made = pcm_wav(frames, 22050)
    assert wav_fixed(made) == made
    assert wav_seconds(made) == pytest.approx(len(frames) / 2 / 22050)
    streamed = bytearray(made)
    streamed[4:8] = b"\xff\xff\xff\x7f"  # as espeak-ng --stdout writes it
    streamed[40:44] = b"\xff\xff\xff\x7f"
    assert wav_fixed(bytes(streamed) + b"\x01") == made  # an odd trailing byte dropped
    for bad in (b"", b"RIFF" + bytes(60), made[:30]):
        with pytest.raises(VoiceError):
            wav_fixed(bad)
    with pytest.raises(VoiceError):
        wav_seconds(b"not a wav")


def test_voices_read_from_the_listing():
    listing = ("Pty Language       Age/Gender VoiceName          File  Other Languages\n"
               " 2  en-gb           --/M      English_(Great_Britain) gmw/en  (en 2)\n"
               " 5  gu              --/M      Gujarati           inc/gu\n")
    found = voices_in(listing)
    assert found["en"] and found["gu"] and not found["kn"]
    assert set(found) == set(VOICES)


needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (tests/run.sh installs it)")


@needs_espeak
def test_every_language_has_a_voice_in_the_installed_espeak():
    from navakankari.firmware.daemon.voice import voices_installed

    assert voices_installed() == {lang: True for lang in VOICES}


@needs_espeak
@pytest.mark.parametrize("language,text", [("en", "white, d6"), ("gu", "સફેદ, ડી છ"),
                                           ("kn", "ಬಿಳಿ, ಡಿ ಆರು")])
def test_espeak_writes_a_wav_of_the_sentence(language, text):
    data = Voice().wav(text, language)
    seconds = wav_seconds(data)
    assert 0.3 < seconds < 5.0
    assert wav_fixed(data) == data


@needs_espeak
@pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay is not installed (alsa-utils)")
def test_the_pipeline_says_a_sentence_and_is_cut_short(tmp_path):
    """espeak-ng into aplay on ALSA's null device (no sound card needed): a sentence ends by
    itself, and a long one is stopped at once with both processes gone; the synthesizer runs
    below the daemon's priority."""
    voice = Voice(device="null")
    playing = voice.start(Utterance("white, d6", "en"))
    for p in playing.processes:
        p.wait(10)
    assert playing.poll() == 0
    long = voice.start(Utterance("white, d6. " * 60, "hi"))
    assert long.poll() is None
    base = os.getpriority(os.PRIO_PROCESS, 0)
    synth, play = long.processes  # the synthesizer below the daemon, the player beside it
    assert os.getpriority(os.PRIO_PROCESS, synth.pid) == min(19, base + 10)
    assert os.getpriority(os.PRIO_PROCESS, play.pid) == base
    long.terminate()
    assert all(p.poll() is not None for p in long.processes)
