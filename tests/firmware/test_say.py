"""`navakankari say`: a short game's sentences as the board says them, and written to WAV
files by espeak-ng where it is installed."""

from __future__ import annotations

import shutil

import pytest
from navakankari.engine.presets import preset
from navakankari.engine.translator import ENGLISH
from navakankari.firmware.cli import main as cli
from navakankari.firmware.cli.say import SHORT_GAME, game_utterances
from navakankari.firmware.daemon.voice import wav_seconds


def test_a_short_game_against_the_computer_is_said_sentence_by_sentence():
    said = game_utterances(SHORT_GAME.split(), preset("nine-mens-morris"), "en", ENGLISH)
    texts = [u.text for u in said]
    assert texts[:4] == [
        "White to place a pebble on a free point.",
        "White placed a pebble on d6. Black (the computer) is thinking.",
        "Black plays a4: put a black pebble on a4.",
        "Black placed a pebble on a4. White to place a pebble on a free point.",
    ]
    assert ("White placed a pebble on d7. White closed a mill: lift one of the lit black "
            "pebbles (a4 or b4) to take it.") in texts
    assert texts[-1] == "Black took the pebble on c4. White to place a pebble on a free point."
    # The computer's moves are said again until carried out; nothing else repeats.
    assert {u.text.split(":")[0] for u in said if u.repeat} == \
        {"Black plays a4", "Black plays b4", "Black plays f4", "Black plays e4",
         "Black plays g4 xc4", "Black placed a pebble on g4. Black plays xc4"}


def test_a_record_the_rules_refuse_is_named(capsys):
    assert cli.main(["say", "--game", "d6 d6", "--wav", "/nonexistent"]) == 1
    assert "navakankari say:" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_sentences_are_written_to_wav_files(tmp_path, capsys):
    assert cli.main(["say", "--game", "d6 a4", "--language", "en", "--wav", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for language in ("en",):
        files = sorted((tmp_path / language).glob("*.wav"))
        assert [f.name for f in files] == ["01.wav", "02.wav", "03.wav", "04.wav"]
        assert all(0.5 < wav_seconds(f.read_bytes()) < 15 for f in files)
        assert f"{tmp_path / language}: 4 sentences" in out
    assert cli.main(["say", "white, d6", "--language", "gu", "--wav", str(tmp_path / "w.wav")]) == 0
    assert wav_seconds((tmp_path / "w.wav").read_bytes()) > 0.3
    assert cli.main(["say", "--language", "xx", "hello"]) == 2


def test_without_language_it_speaks_the_environments_as_every_command_does(capsys, monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "hi_IN.UTF-8")
    assert cli.main(["say"]) == 2
    assert capsys.readouterr().err.strip() == \
        "navakankari say: कहने को कुछ नहीं (शब्द दें, या --game)"
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert cli.main(["say"]) == 2
    assert capsys.readouterr().err.strip() == \
        "navakankari say: nothing to say (give words, or --game)"
