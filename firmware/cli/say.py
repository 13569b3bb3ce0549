"""`navakankari say`: the board's voice from the command line.

With words: say them on the speaker (to check the audio device a board is configured with),
or write them to a WAV file. With `--game`: play a short game by simulated hands against
the computer's moves given in the record (each shown, then carried out, as on the board),
and write every sentence the board says to a WAV file, in each language asked for, with its
length and the time espeak-ng took to make it.
"""

from __future__ import annotations

import argparse
import gettext
import logging
import sys
import time
from pathlib import Path

from navakankari.engine.actions import Action
from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.engine.rules import Rules
from navakankari.engine.translator import Translator
from navakankari.sim.hands import ScriptedHands

from ..core.announce import Announcer, Utterance
from ..core.clockwork import drive
from ..core.players import HAND, PlayerSpec
from ..core.session import Session
from ..core.update import Update
from ..daemon.voice import RATE, VOICES, Voice, VoiceError, wav_seconds
from .args import Commands, error_words

SHORT_GAME = "d6 a4 d5 b4 d7 xb4 f4 b6 e4 c4 g4 xc4"
"""Twelve actions of nine men's morris against the computer (black): both sides place, white
closes two mills and takes, the computer's moves are shown and carried out."""


def game_utterances(record: list[str], rules: Rules, language: str, tr: Translator,
                    computer: Side = Side.BLACK) -> list[Utterance]:
    """Every utterance the board makes while `record` is played on it: `computer`'s actions
    as the computer's (offered, shown, then carried out by the hands), the other side's by
    the hands alone."""
    players = {computer: PlayerSpec("computer", 1), computer.other: HAND}
    session = Session(rules, players, resume=False, auto_new_game=False)
    announcer = Announcer(language, tr)
    said: list[Utterance] = []

    def heard(update: Update) -> None:
        utterance = announcer.hear_update(session.game, update)
        if utterance is not None:
            said.append(utterance)

    heard(Update("status", session.status, 0))
    session.subscribe(heard)
    hands = ScriptedHands((), pause=0.6)
    now = 0.0
    k = 0
    while k < len(record):
        game = session.game
        turn: list[Action] = []
        probe = game.copy()
        side = probe.turn
        while k < len(record) and probe.turn == side and (not turn or side == computer):
            action = probe.parse(record[k])
            probe.push(action)
            turn.append(action)
            k += 1
        if side == computer:
            request = session.answers.computer_request()
            if request is None or not session.answers.offer(request, turn, now):
                raise ValueError(f"the computer could not play {' '.join(a.text for a in turn)}")
        hands.t = now + 1.0
        for action in turn:
            hands.perform(game.board, action)
        events = hands.events[:]
        hands.events.clear()
        now = drive(session, events, now=now)
    return said


def cmd_say(args: argparse.Namespace) -> int:
    from navakankari.firmware.i18n.catalogs import LANGUAGES, choose_language, translations

    if not args.verbose:  # the sentences only: the session's log lines would drown them
        logging.getLogger("navakankari").setLevel(logging.WARNING)
    voice = Voice(args.rate, args.device)
    languages = [code.strip() for code in (args.language or choose_language()).split(",")
                 if code.strip()]
    unknown = [code for code in languages if code not in LANGUAGES or code not in VOICES]
    # What it says of itself is in the first language asked for that it speaks.
    tr = translations(next((c for c in languages if c in LANGUAGES), choose_language()))
    if unknown or not languages:
        print(tr.gettext("navakankari say: no language {codes}; languages: {languages}").format(
            codes=", ".join(unknown) or "-", languages=", ".join(LANGUAGES)), file=sys.stderr)
        return 2
    try:
        if args.game is None:
            return _say_words(" ".join(args.words), languages[0], voice, args.wav, tr)
        if not args.wav:
            print(tr.gettext("navakankari say: --game writes WAV files: give --wav FOLDER"),
                  file=sys.stderr)
            return 2
        rules = preset(args.variant)
        for language in languages:
            utterances = game_utterances(args.game.split(), rules, language,
                                         translations(language))
            _write_all(utterances, Path(args.wav) / language, voice)
    except (VoiceError, ValueError, OSError) as exc:
        print(f"navakankari say: {error_words(exc, tr)}", file=sys.stderr)
        return 1
    return 0


def _say_words(text: str, language: str, voice: Voice, wav: str | None,
               tr: gettext.NullTranslations) -> int:
    if not text:
        print(tr.gettext("navakankari say: nothing to say (give words, or --game)"),
              file=sys.stderr)
        return 2
    if wav:
        data = voice.wav(text, language)
        Path(wav).write_bytes(data)
        print(f"{wav}: {wav_seconds(data):.2f} s")
        return 0
    try:
        playing = voice.start(Utterance(text, language))
    except OSError as exc:
        print(tr.gettext("navakankari say: cannot start espeak-ng or aplay: {problem}").format(
            problem=exc), file=sys.stderr)
        return 1
    for process in playing.processes:
        process.wait()
    status = playing.poll()
    if status:
        message = tr.gettext("navakankari say: aplay failed ({status}) on {device}") \
            if voice.device else tr.gettext("navakankari say: aplay failed ({status}) on the "
                                            "default device")
        print(message.format(status=status, device=voice.device), file=sys.stderr)
    return 1 if status else 0


def _write_all(utterances: list[Utterance], folder: Path, voice: Voice) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    total = made = 0.0
    for n, utterance in enumerate(utterances, 1):
        start = time.perf_counter()
        data = voice.wav(utterance.text, utterance.language)
        took = time.perf_counter() - start
        path = folder / f"{n:02d}.wav"
        path.write_bytes(data)
        seconds = wav_seconds(data)
        total += seconds
        made += took
        print(f"{path}  {seconds:5.2f} s  (made in {took * 1000:.0f} ms)  {utterance.text}",
              flush=True)
    print(f"{folder}: {len(utterances)} sentences, {total:.1f} s of speech, made in "
          f"{made:.2f} s", flush=True)


def register(sub: Commands) -> None:
    p = sub.add_parser(
        "say", help="say words on the speaker, or write a short game's sentences to WAV files",
        description="The board's voice (espeak-ng into aplay). With WORDS: say them on the "
                    "speaker (--device, as [speech] device) to check the audio, or write "
                    "them to a WAV file (--wav FILE). With --game: play the record on a "
                    "simulated board, black's moves as the computer's, and write every "
                    "sentence the board says to FOLDER/LANGUAGE/NN.wav for each language "
                    "(--language gu,kn,hi), printing each one's length.")
    p.add_argument("words", nargs="*", help="what to say")
    p.add_argument("--language", default=None,
                   help=f"language code(s), comma-separated ({', '.join(VOICES)}; default: the "
                        "environment's LANG, else English, as the board chooses)")
    p.add_argument("--device", default="", help="the ALSA device (default: the default one)")
    p.add_argument("--rate", type=int, default=RATE, help=f"words a minute (default {RATE})")
    p.add_argument("--wav", metavar="PATH", help="write a WAV file (a folder with --game)")
    p.add_argument("--game", nargs="?", const=SHORT_GAME, metavar="RECORD",
                   help=f"play this record (default: {SHORT_GAME})")
    p.add_argument("--variant", default="nine-mens-morris", help="the record's rules")
    p.set_defaults(func=cmd_say)
