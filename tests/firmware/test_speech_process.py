"""The speech process: the line the daemon writes for each sentence (read back, refused when
bad), a process that does not read never holds up `say`, and espeak-ng into aplay run by the
real process where they are installed."""

from __future__ import annotations

import shutil
import sys
import time

import pytest
from navakankari.firmware.core.announce import Utterance
from navakankari.firmware.daemon.speech_process import (
    MAX_LINE,
    LineError,
    SpeakerProcess,
    parse_utterance_line,
    utterance_line,
)
from navakankari.firmware.daemon.voice import Voice


@pytest.mark.parametrize("utterance", [
    Utterance("White placed a pebble on d6.", "en"),
    Utterance("સફેદ, ડી છ", "gu", interrupt=True, topic="in-progress"),
    Utterance("Black plays d2-d3.", "kn", repeat=8.0, topic="executing"),
])
def test_a_line_round_trips(utterance):
    line = utterance_line(utterance)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert parse_utterance_line(line) == utterance


@pytest.mark.parametrize("line, why", [
    (b"not json\n", "not JSON"), (b"[1]\n", "not an object"), (b"\xff\xfe\n", "not JSON"),
    (b'{"text": "", "language": "en"}\n', "text must be"),
    (b'{"text": "x", "language": "xx"}\n', "no voice for language 'xx'"),
    (b'{"text": "x", "language": ["en"]}\n', "no voice for language"),
    (b'{"text": "x", "language": "en", "repeat": true}\n', "repeat must be"),
    (b'{"text": "x", "language": "en", "repeat": 1e9}\n', "repeat must be"),
    (b'{"text": "x", "language": "en", "interrupt": 1}\n', "interrupt must be"),
    (b"[" * 100_000 + b"\n", "a line of"),
    (b"[" * 2000 + b"]" * 2000 + b"\n", "not JSON"),  # nested past the parser's depth
])
def test_a_bad_line_is_refused_by_name(line, why):
    with pytest.raises(LineError, match=why):
        parse_utterance_line(line)
    assert len(b"[" * 100_000) > MAX_LINE


def test_saying_never_waits_for_a_process_that_does_not_read():
    speaker = SpeakerProcess(Voice(), command=[sys.executable, "-c", "import time; time.sleep(60)"])
    assert speaker._process is None  # nothing to say yet: no process (speech off costs none)
    try:
        start = time.monotonic()
        for _ in range(200):  # ~200 kB: far more than a pipe holds
            speaker.say(Utterance("x" * 1000, "en"))
        assert time.monotonic() - start < 2.0
        assert speaker.dropped > 0
    finally:
        speaker.close(timeout=5.0)


needs_speech = pytest.mark.skipif(shutil.which("espeak-ng") is None or shutil.which("aplay") is None,
                                  reason="espeak-ng or aplay is not installed (tests/run.sh installs them)")


def _until(condition, within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "the speech process did not report"
        time.sleep(0.05)


@needs_speech
def test_the_process_says_sentences_and_reports_a_device_it_cannot_play_on():
    speaker = SpeakerProcess(Voice(device="null"))
    try:
        speaker.say(Utterance("White placed a pebble on d6.", "en"))
        speaker.say(Utterance("ಬಿಳಿ, ಡಿ ಆರು", "kn"))
        _until(lambda: speaker.started == 2)
        assert speaker.problem is None
    finally:
        speaker.close()
    broken = SpeakerProcess(Voice(device="no-such-device"))
    try:
        broken.say(Utterance("White placed a pebble on d6.", "en"))
        _until(lambda: broken.problem is not None)
        assert "ended with status" in str(broken.problem)
    finally:
        broken.close()
