"""The speech thread in a process of its own, so that making and stopping sentences never takes
the daemon's interpreter from the loop that reads the sensors.

Starting espeak-ng and aplay, watching them and stopping them is Python work: in the
daemon's own process it competes for the interpreter with the loop. So the daemon starts
`python -m navakankari.firmware.daemon.speech_process` once and writes it one line of JSON a
sentence (`utterance_line`); that process runs the queue (speech.Speaker) and writes back a
line when a sentence starts and when saying fails, which a thread of the daemon reads while
it is otherwise blocked. A line that cannot be written at once (the process stuck) is
dropped and said in the log: the loop never waits on the pipe.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import IO, Any

from navakankari.hal.words import BadPhrase, Phrase
from navakankari.hal.scheduling import Scheduling

from ..core.announce import Utterance
from .speech import PROBLEMS, PROCESS_ENDED, PROCESS_STUCK, PROCESS_UNSTARTED, Speaker
from .voice import MAX_TEXT, RATE, RATES, VOICES, Voice

log = logging.getLogger(__name__)

MAX_LINE = 4 * MAX_TEXT + 200
"""Bytes of one line at most (a sentence in UTF-8 and its fields): a longer one is refused."""


class LineError(ValueError):
    """A line between the daemon and its speech process that is not an utterance."""


def utterance_line(utterance: Utterance) -> bytes:
    """One utterance as the line the daemon writes (`parse_utterance_line` reads it back)."""
    return json.dumps({"text": utterance.text, "language": utterance.language,
                       "interrupt": utterance.interrupt, "repeat": utterance.repeat,
                       "topic": utterance.topic}, ensure_ascii=False).encode("utf-8") + b"\n"


def parse_utterance_line(line: bytes) -> Utterance:
    """The utterance a line holds; LineError naming what is wrong."""
    if len(line) > MAX_LINE:
        raise LineError(f"a line of {len(line)} bytes (at most {MAX_LINE})")
    try:
        data = json.loads(line)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise LineError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise LineError("not an object")
    text, language = data.get("text"), data.get("language")
    interrupt, repeat = data.get("interrupt", False), data.get("repeat", 0.0)
    topic = data.get("topic", "")
    if not isinstance(text, str) or not text or len(text) > MAX_TEXT:
        raise LineError(f"text must be 1..{MAX_TEXT} characters")
    if not isinstance(language, str) or language not in VOICES:
        raise LineError(f"no voice for language {language!r}")
    if not isinstance(interrupt, bool) or not isinstance(topic, str) or len(topic) > 40:
        raise LineError("interrupt must be true or false, topic a short string")
    if isinstance(repeat, bool) or not isinstance(repeat, (int, float)) or not 0 <= repeat <= 600:
        raise LineError("repeat must be 0..600 seconds")
    return Utterance(text, language, interrupt=interrupt, repeat=float(repeat), topic=topic)


class SpeakerProcess:
    """The daemon's side: `say` writes a line and returns at once (speech.Speaker's
    interface); `problem` is the last failure the process reported, until a sentence is said.
    The process starts with the first sentence, so a board with speech off runs none."""

    def __init__(self, voice: Voice, *, command: Sequence[str] | None = None) -> None:
        self.command = list(command or [sys.executable, "-m", __name__, "--rate", str(voice.rate),
                                        "--device", voice.device, "--nice", str(voice.nice)])
        self.problem: Phrase | None = None
        self.started = 0  #: sentences the process reported started
        self.dropped = 0  #: lines that could not be written at once
        self._process: subprocess.Popen[bytes] | None = None
        self._reader: threading.Thread | None = None

    def _running(self) -> subprocess.Popen[bytes] | None:
        """The process, started now if it is not yet (or ended: started again)."""
        if self._process is not None and self._process.poll() is None:
            return self._process
        try:
            process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as exc:
            self.problem = Phrase(PROCESS_UNSTARTED, problem=exc)
            return None
        assert process.stdin is not None and process.stdout is not None
        os.set_blocking(process.stdin.fileno(), False)
        self._process = process
        self._reader = threading.Thread(target=self._read,
                                        args=(process.stdout, Scheduling.current()),
                                        name="speech-reports", daemon=True)
        self._reader.start()
        return process

    def say(self, utterance: Utterance) -> None:
        process = self._running()
        if process is None or process.stdin is None:
            return
        line = utterance_line(utterance)
        try:
            written = os.write(process.stdin.fileno(), line)
        except BlockingIOError:
            written = 0
        except BrokenPipeError:
            self.problem = Phrase(PROCESS_ENDED)
            return
        if written != len(line):  # a partial line would corrupt the next: end the process
            self.dropped += 1
            log.warning("speech: the speech process is not reading; not said: %s", utterance.text)
            if written:
                self.problem = Phrase(PROCESS_STUCK)
                process.kill()

    def _read(self, stream: IO[bytes], scheduling: Scheduling) -> None:
        scheduling.apply()  # the daemon loop's (navakankari.hal.scheduling)
        for line in stream:
            try:
                report = json.loads(line[:MAX_LINE])
            except ValueError:
                continue
            if not isinstance(report, dict):
                continue
            if report.get("started"):
                self.started += 1
                self.problem = None
            elif "problem" in report:
                try:
                    self.problem = Phrase.from_dict(report["problem"], PROBLEMS)
                except BadPhrase as exc:
                    log.warning("speech: the speech process reported a problem that %s", exc)

    def close(self, timeout: float = 3.0) -> None:
        process = self._process
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()  # end of input: the process cuts short and ends
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self._reader is not None:
            self._reader.join(timeout)


def _report(out: IO[str], **fields: Any) -> None:
    out.write(json.dumps(fields) + "\n")
    out.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Read utterances on stdin until it ends, saying them; report on stdout."""
    parser = argparse.ArgumentParser(prog="speech_process")
    parser.add_argument("--rate", type=int, default=RATE)
    parser.add_argument("--device", default="")
    parser.add_argument("--nice", type=int, default=Voice().nice)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    voice = Voice(max(RATES[0], min(RATES[1], args.rate)), args.device, args.nice)
    out = sys.stdout
    speaker = Speaker(voice.start)
    speaker.add_listener(lambda u: _report(out, started=True))
    speaker.queue.on_failure = lambda why: _report(out, problem=why.to_dict())
    stdin = sys.stdin.buffer
    try:
        while True:
            line = stdin.readline(MAX_LINE + 1)
            if not line:
                break
            try:
                speaker.say(parse_utterance_line(line))
            except LineError as exc:
                log.warning("speech: %s", exc)
                if not line.endswith(b"\n"):  # the rest of an overlong line
                    while (rest := stdin.readline(MAX_LINE + 1)) and not rest.endswith(b"\n"):
                        pass
    finally:
        speaker.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
