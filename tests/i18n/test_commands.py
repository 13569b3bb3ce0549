"""The commands and the daemon's warnings speak the players' language: the language chosen
as the daemon chooses it (option or configuration, else the environment's, else English),
and every sentence of selftest, calibrate, sim and the warnings beside the game worded
without an English fragment in each language."""

from __future__ import annotations

import errno
import io
import os
import re
import zlib

import pytest

from navakankari.firmware.cli.main import main
from navakankari.firmware.core import players
from navakankari.firmware.daemon import loop, speech
from navakankari.firmware.daemon.config import Config
from navakankari.firmware.i18n.catalogs import LANGUAGES, SOURCE, choose_language, translations
from navakankari.hal.words import BadPhrase, Phrase
from navakankari.firmware.store import database, recovery
from navakankari.firmware.system.doctor import preflight
from navakankari.hal import load_profile, open_board
from navakankari.hal.tools.calibrate import Calibration, CalibrationError
from navakankari.hal.sensors import SensorEvent
from navakankari.hal.tools.selftest import run_selftest
from navakankari.sim import ManualClock
from english_words import english_left
from selftest_hand import touching_hand

TRANSLATED = [code for code in LANGUAGES if code != SOURCE]


def test_the_language_is_the_option_else_the_environments_else_english():
    assert choose_language("gu", {"LANG": "hi_IN.UTF-8"}) == "gu"
    assert choose_language(None, {"LANG": "hi_IN.UTF-8"}) == "hi"
    assert choose_language(None, {"LC_MESSAGES": "ta_IN", "LANG": "hi_IN.UTF-8"}) == "ta"
    assert choose_language(None, {"LC_ALL": "kn_IN.UTF-8@x", "LC_MESSAGES": "ta"}) == "kn"
    assert choose_language(None, {"LANG": "fr_FR.UTF-8"}) == "en"
    assert choose_language(None, {"LC_ALL": "C.UTF-8", "LANG": "hi_IN"}) == "en"
    assert choose_language(None, {}) == "en"


def test_the_daemon_speaks_the_configured_language_else_the_environments(monkeypatch):
    monkeypatch.setenv("LANG", "mr_IN.UTF-8")
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    assert Config().language() == "mr"
    assert Config(board_language="bn").language() == "bn"


def test_a_phrase_from_another_process_round_trips_and_a_foreign_one_is_refused():
    notice = Phrase(speech.SYNTH_ENDED, status=1)
    read = Phrase.from_dict(notice.to_dict(), speech.PROBLEMS)
    assert (read, read.message, read.places) == (notice, notice.message, notice.places)
    assert read.words(translations("hi")) == notice.words(translations("hi")) != notice
    assert str(notice) == "speech failed: the synthesizer or player ended with status 1"
    for bad in ({"message": "rm -rf {x}", "places": {"x": "/"}}, "text", {"message": 3},
                {"message": speech.SYNTH_ENDED, "places": {"status": 1}},
                {"message": speech.SYNTH_ENDED, "places": {}},
                {"message": speech.SYNTH_ENDED, "places": {str(k): "" for k in range(20)}}):
        with pytest.raises(BadPhrase):
            Phrase.from_dict(bad, speech.PROBLEMS)
    long = Phrase.from_dict({"message": speech.SYNTH_UNSTARTED, "places": {"problem": "x" * 5000}},
                            speech.PROBLEMS)
    assert len(long.places[0][1]) == 300


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_warnings_beside_the_game_are_in_the_language(code):
    tr = translations(code)
    places = {"problem": "[Errno 28] No space left on device", "status": "1",
              "reason": "file is not a database", "kept": "/var/games.sqlite3.damaged-1",
              "path": "/var/games.sqlite3"}
    for message in (recovery.NOT_RESUMED, database.UNRECORDED, loop.LEDS_FAILED,
                    *speech.PROBLEMS):
        notice = Phrase(message, **{k: v for k, v in places.items() if "{" + k + "}" in message})
        words = notice.words(tr)
        assert words != str(notice), message
        assert english_left(words, *places.values()) == [], words


def _driven_selftest(tr) -> str:
    """The self-test on the simulated board, a maker touching each lit point."""
    clock = ManualClock()
    board = open_board(load_profile("sim-19"), clock=clock, backend="sim")
    out = io.StringIO()
    try:
        assert run_selftest(board, clock=clock, sleep=touching_hand(board, clock), out=out,
                            tr=tr).ok
    finally:
        board.close()
    return out.getvalue()


@pytest.mark.parametrize("code", TRANSLATED)
def test_selftest_and_calibrate_speak_the_makers_language(code):
    tr = translations(code)
    said = _driven_selftest(tr).splitlines()
    assert len(said) > 3 * 19
    for line in said:
        assert english_left(line) == [], line
    assert tr.ngettext("{passed} of {total} sensor passed", "{passed} of {total} sensors passed",
                       19).format(passed=19, total=19) == said[-1]
    calibration = Calibration(["a1", "b2"], 2, tr=tr)
    lines = [calibration.prompt()]
    for event in (SensorEvent("gpio4", True, 0), SensorEvent("gpio4", False, 1),
                  SensorEvent("gpio4", True, 2)):
        calibration.on_event(event)
        lines.append(calibration.prompt())
    calibration.skip()
    lines.append(calibration.prompt())
    calibration.on_event(SensorEvent("gpio9", True, 3))
    lines += calibration.notes
    lines += [CalibrationError(["a1"]).words(tr), CalibrationError(["a1", "b2"]).words(tr)]
    assert len(calibration.notes) == 2 and len(set(lines)) >= 6
    for line in lines:
        assert english_left(line, "gpio4", "gpio9") == [], line


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_commands_one_line_errors_are_in_the_language(code, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("NAVAKANKARI_BACKEND", raising=False)
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/model").write_text("Raspberry Pi 4 Model B\x00")
    tr = translations(code)
    profile = load_profile("direct-24")
    for why in (preflight(profile, "selftest", root=tmp_path, euid=0, tr=tr,
                          service_state=lambda: "active"),
                preflight(profile, "calibrate", root=tmp_path, euid=1000, tr=tr,
                          service_state=lambda: "inactive")):
        assert why is not None and english_left(why, "navakankari.service", "selftest",
                                                 "Raspberry Pi 4 Model B") == [], why
    missing = tmp_path / "nowhere" / "games.sqlite3"
    assert main(["sim", "--store", str(missing), "--language", code, "--no-browser"]) != 0
    error = capsys.readouterr().err.strip()
    assert error.startswith("navakankari sim: ") and str(missing.parent) in error
    assert english_left(error) == [], error


@pytest.mark.parametrize("code", TRANSLATED)
def test_run_refuses_a_variant_the_board_cannot_play_in_the_configured_language(code, tmp_path,
                                                                             capsys):
    from navakankari.firmware.daemon.config import EXIT_CONFIG

    config = tmp_path / "navakankari.toml"
    config.write_text(f'[game]\nvariant = "nau-keti-keta"\n[board]\nprofile = "direct-24"\n'
                      f'language = "{code}"\n', encoding="utf-8")
    assert main(["run", "--config", str(config)]) == EXIT_CONFIG
    error = capsys.readouterr().err.strip()
    assert error.startswith("navakankari run: nau-keti-keta ")
    from navakankari.engine.presets import PRESETS

    assert english_left(error, "navakankari run", *PRESETS, "lau-kata-kati", "[game] variant"
                        ) == [], error


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_bad_setting_is_named_in_the_makers_language(code, tmp_path, capsys, monkeypatch):
    assert main(["sim", "--pin", "12a4", "--language", code, "--no-browser",
                 "--store", str(tmp_path / "games.sqlite3")]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("navakankari sim: --pin: ") and "'12a4'" in error
    assert english_left(error, "navakankari sim: --pin", "'12a4'") == [], error
    # A configuration that cannot be read speaks the environment's language.
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", f"{code}_IN.UTF-8")
    config = tmp_path / "navakankari.toml"
    config.write_text("[speech]\nrate = 9000\n[game]\nmenu = 3\n", encoding="utf-8")
    assert main(["run", "--config", str(config)]) != 0
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"navakankari run: {config}: game.menu: ")
    assert english_left(error, f"navakankari run: {config}: game.menu", "true", "false") == [], \
        error


def _in_environment(monkeypatch, code: str) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", f"{code}_IN.UTF-8")


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_bad_player_spec_is_named_in_the_language(code, monkeypatch, capsys):
    """The engine's player specs keep their problem as data; the command words it."""
    from navakankari.engine.player_spec import PlayerSpec, PlayerSpecError

    _in_environment(monkeypatch, code)
    assert main(["new-game", "--white", "computer:9"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("navakankari new-game: --white: ") and "1..6" in error
    assert "'9'" in error and english_left(error, "navakankari new-game: --white", "'9'",
                                           "max", "adaptive") == [], error
    tr = translations(code)
    for text, names in (("hand:7", ["'7'"]), ("online:2", ["'online:2'"]),
                        ("robot", ["'robot'", *"hand computer engine remote online random "
                                   "greedy".split()]),
                        ("engine:stockfish?seconds=0", ["'engine:stockfish?seconds=0'",
                                                        "seconds", "'0'"])):
        with pytest.raises(PlayerSpecError) as info:
            PlayerSpec.parse(text, "game.black")
        said = info.value.words(tr)
        assert said.startswith("game.black: ") and said != str(info.value)
        assert english_left(said, "game.black", *names) == [], said


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_wiring_profile_error_names_its_file_and_line_in_the_language(code, tmp_path, capsys):
    """hal's profile errors are phrases: the file, the line, the key, the GPIO and the point
    stay; the words around them (and the pins' uses: sensor a7, LED data) are translated;
    tomllib's own words stay as they are inside a translated sentence with line and column."""
    tr = translations(code)
    profile = tmp_path / "board.toml"
    profile.write_text('[board]\npoints = ["a7"]\n[sensors]\nbackend = "gpiozero"\n'
                       '[sensors.pins]\na7 = 2\n[leds]\nbackend = "neopixel"\npin = 2\n'
                       '[leds.index]\na7 = 0\n', encoding="utf-8")
    assert main(["selftest", "--profile", str(profile), "--language", code]) == 2
    error = capsys.readouterr().err.strip()
    assert f"{profile}:9: [leds] pin: GPIO2 " in error
    assert tr.gettext("sensor {point}").format(point="a7") in error
    assert english_left(error, "navakankari selftest", str(profile), "[leds] pin") == [], error
    profile.write_text('[board]\npoints = ["a7"]\n[sensors]\nbackend = = 1\n', encoding="utf-8")
    assert main(["selftest", "--profile", str(profile), "--language", code]) == 2
    error = capsys.readouterr().err.strip()
    detail = "Invalid value"  # tomllib's own words, kept
    assert f"{profile}:4: toml: " in error and detail in error and " 4" in error and " 11" in error
    assert english_left(error, "navakankari selftest", str(profile), "toml", "TOML", detail
                        ) == [], error


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_configuration_that_is_not_toml_is_named_in_the_language(code, tmp_path, monkeypatch,
                                                                  capsys):
    _in_environment(monkeypatch, code)
    config = tmp_path / "navakankari.toml"
    config.write_text('[game]\nvariant = nine\n', encoding="utf-8")
    assert main(["run", "--config", str(config)]) != 0
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"navakankari run: {config}: toml: ") and " 2" in error \
        and " 11" in error and "Invalid value" in error
    assert english_left(error, f"navakankari run: {config}: toml", "TOML", "Invalid value") == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_backend_store_and_broker_errors_are_in_the_language(code, tmp_path, monkeypatch,
                                                                capsys):
    from navakankari.firmware.cli.args import error_words
    from navakankari.hal import BackendError

    tr = translations(code)
    monkeypatch.setenv("NAVAKANKARI_BACKEND", "gpio")
    with pytest.raises(BackendError) as backend:
        open_board(load_profile("sim-25"))
    said = error_words(backend.value, tr)
    assert "NAVAKANKARI_BACKEND='gpio'" in said and "'sim'" in said
    assert english_left(said, "NAVAKANKARI_BACKEND='gpio'", "'sim'") == [], said
    monkeypatch.delenv("NAVAKANKARI_BACKEND")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(database.StoreUnusableError) as store:
        database.Store(blocker / "games.sqlite3")
    said = error_words(store.value, tr)
    assert str(blocker / "games.sqlite3") in said and said != str(store.value)
    assert english_left(said, str(blocker / "games.sqlite3"), str(blocker)) == [], said
    assert main(["sim", "--broker", "ftp://board.local", "--language", code, "--no-browser",
                 "--store", str(tmp_path / "games.sqlite3")]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("navakankari sim: --broker: ") and "'ftp://board.local'" in error
    assert english_left(error, "navakankari sim: --broker", "'ftp://board.local'", "mqtt://",
                        "mqtts://", "ws://", "wss://") == [], error


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_commands_own_errors_are_in_the_language(code, tmp_path, monkeypatch, capsys):
    """say, replay, record, play, bench and build-endgame say what went wrong in the language of
    the environment (say: the one asked for), the files and options named as typed."""
    from navakankari.firmware.daemon.voice import MAX_TEXT, Voice, VoiceError

    _in_environment(monkeypatch, code)
    missing = tmp_path / "nowhere.sqlite3"
    wall = tmp_path / "a-file"
    wall.write_text("")
    runs = [(["say", "--language", code], ["navakankari say", "--game"]),
            (["say", "--language", "xx"], ["navakankari say", "xx", *LANGUAGES]),
            (["say", "--language", code, "--game", "d6"], ["navakankari say", "--game",
                                                           "--wav FOLDER", "WAV"]),
            (["replay"], ["navakankari replay", "FILE", "--export STORE"]),
            (["replay", "--export", str(missing)], ["navakankari replay", "--export",
                                                    str(missing)]),
            (["record", "--store", str(missing)], ["navakankari record", str(missing)]),
            (["play", "--white", "hand", "--black", "hand"], ["navakankari play",
                                                              "--white hand", "--black hand",
                                                              "hand"]),
            (["bench", "nosuch", "other"], ["navakankari bench", "nosuch", "other",
                                            "sections"]),
            (["build-endgame", "--out", str(wall / "x.bin")], ["navakankari build-endgame",
                                                              str(wall / "x.bin")])]
    from navakankari.firmware.cli.engine import BENCH_SECTIONS
    from navakankari.firmware.cli.soak import SOAK_SECTIONS

    for argv, names in runs:
        assert main(argv) != 0, argv
        error = capsys.readouterr().err.strip().splitlines()[-1]
        assert error.startswith(names[0]), (argv, error)
        left = english_left(error, *names, *BENCH_SECTIONS, *SOAK_SECTIONS, "Not a directory")
        assert left == [], (argv, error)
    with pytest.raises(VoiceError) as info:
        Voice().wav("a" * (MAX_TEXT + 1), code)
    said = info.value.words(translations(code))
    assert str(MAX_TEXT + 1) in said and english_left(said) == [], said


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_recording_that_is_not_one_is_named_in_the_language(code, tmp_path, monkeypatch,
                                                             capsys):
    """replay's recording errors (the simulator's reader) name the file and line, worded."""
    _in_environment(monkeypatch, code)
    recording = tmp_path / "r.jsonl"
    for text, names in (('{"t": 1, "point": "d6", "present": true}\n'
                         '{"t": 0.5, "point": "d6", "present": false}\n',
                         [f"{recording}:2", "t=0.5", "t=1"]),
                        ('{"t": 1, "point": 6, "present": true}\n',
                         [f"{recording}:1", "t", "point", "present", "true/false"]),
                        ("", [str(recording), "JSON Lines", '{"t": SECONDS, "point": "d6", '
                                                            '"present": true}'])):
        recording.write_text(text, encoding="utf-8")
        assert main(["replay", str(recording)]) == 2
        error = capsys.readouterr().err.strip()
        assert error.startswith(f"navakankari replay: {names[0]}"), error
        assert english_left(error, "navakankari replay", *names) == [], error


OVER = "OOO*****/********/@@****** b m s 3 0 2 0 0 0 0 0 0 0 0 0 1"
"""White a7 d7 g7 and black a1 d1: black has fewer than three pebbles, the game is over."""


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_engines_rule_texts_are_in_the_language(code, tmp_path, monkeypatch, capsys):
    """A bad position, an illegal action, an unknown variant, an unreadable record and an ended
    game, typed to the commands: the engine's own sentence in the language, its points,
    names and numbers as they were typed."""
    from navakankari.engine.presets import PRESETS

    _in_environment(monkeypatch, code)
    tr = translations(code)
    record = tmp_path / "game.pgn"
    twice = tmp_path / "twice.pgn"
    record.write_text('[Event "club"]\n\n1. d6 d6\n', encoding="utf-8")
    twice.write_text('[Event "a"]\n[Event "b"]\n', encoding="utf-8")
    runs = [(["hint", "--position", "O**/x b"], ["navakankari", "'/'"], "2"),
            (["hint", "--position", "********/********/******** w p p 0 10 0 9"],
             ["navakankari", "nine-mens-morris"], "10"),
            (["say", "--language", code, "--game", "d6 d6", "--wav", str(tmp_path / "said")],
             ["navakankari say"], "d6"),
            (["moves", "--variant", "nosuch"], ["navakankari", "'nosuch'", *PRESETS], "'nosuch'"),
            (["record", str(record)], ["navakankari record", str(record)], "1"),
            (["record", str(twice)], ["navakankari record", str(twice), "Event"], "2"),
            (["hint", "--position", OVER], ["navakankari"], tr.gettext("white")),
            (["moves", "--position", "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 mills:a7"],
             ["navakankari", "'mills:a7'", "'a7'", "a7-d7-g7=w2b1"], "a7-d7-g7=w2b1")]
    for argv, names, kept in runs:
        assert main(argv) != 0, argv
        error = capsys.readouterr().err.strip().splitlines()[-1]
        assert error.startswith(names[0]) and kept in error, (argv, error)
        assert english_left(error, *names) == [], (argv, error)
    assert main(["record", str(record)]) == 1
    said = capsys.readouterr().err
    assert "d6" in said and tr.gettext("black") in said, said


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_engines_other_errors_are_worded_in_the_language(code):
    """The errors no command above reaches: a game asked to act after its end, a point of
    another board, a player the computer does not play, rules that make no game, an installed
    engine that gives no answer, a program that cannot start, the endgame file and the
    build."""
    from navakankari.engine import endgame
    from navakankari.engine.errors import GameOverError, InvalidNotationError, InvalidRulesError
    from navakankari.engine.external import EnginePlayer, EngineSpec, ExternalEngineError
    from navakankari.engine.jump import JumpGame
    from navakankari.engine.native import NativeBuildError
    from navakankari.engine.player_spec import PlayerKindError, make_player
    from navakankari.engine.presets import preset
    from navakankari.engine.process import LineProcess, ProcessError
    from navakankari.engine.record import GameRecord
    from navakankari.engine.repeat import repeat_computer
    from navakankari.engine.rules import Rules
    from navakankari.engine.translator import Nn_
    from navakankari.engine.variants import game_from_position, new_game

    tr = translations(code)
    try:
        zlib.decompress(b"x")
    except zlib.error as exc:  # the library's own words stay as they are
        zlib_says = str(exc)
    cases = [(lambda: game_from_position(preset("nine-mens-morris"), OVER).play("a7-a4"), GameOverError, []),
             (lambda: new_game(preset("nau-keti-keta")).play("d4"), InvalidNotationError, ["'d4'", "a-b", "axbxc"]),
             (lambda: new_game(preset("navakankari")).play("D6"), InvalidNotationError, ["'D6'", "morris"]),
             (lambda: make_player("remote"), PlayerKindError, ["remote", "computer:1..computer:", "computer:max",
                                                               "computer:adaptive", "engine:PATH", "greedy",
                                                               "random"]),
             (lambda: repeat_computer(GameRecord(rules=preset("navakankari"))), ValueError, ["Seed"]),
             (lambda: Rules.from_dict({"bogus": 1, "zap": 2}), InvalidRulesError, ["bogus", "zap"]),
             (lambda: JumpGame(preset("nine-mens-morris")), InvalidRulesError, ["nine-mens-morris"]),
             (lambda: EnginePlayer(EngineSpec.parse("engine:/bin/true")).choose(new_game("nine-mens-morris")),
              ExternalEngineError, ["/bin/true", "uciok", "uci"]),
             (lambda: LineProcess(["/nonexistent/engine"]), ProcessError,
              ["/nonexistent/engine", os.strerror(errno.ENOENT)]),
             (lambda: endgame.decode(b"junk"), endgame.EndgameDataError, []),
             (lambda: endgame.decode(endgame.MAGIC + b"x"), endgame.EndgameDataError, [zlib_says])]
    for make, kind, names in cases:
        with pytest.raises(kind) as info:
            make()
        said = info.value.words(tr)
        assert said != str(info.value) and english_left(said, *names) == [], said
    built = NativeBuildError.counted(Nn_("mypyc made {count} file, expected {expected}",
                                         "mypyc made {count} files, expected {expected}"), 3, expected=7)
    assert "3" in built.words(tr) and "7" in built.words(tr) and "mypyc" in built.words(tr)


class _Broken:
    """A computer player that fails inside, in words that are a library's own."""

    name = "broken"

    def choose(self, game, stop=None):  # type: ignore[no-untyped-def]
        raise RuntimeError("libfoo: segfault in eval_board()")


def _failing_daemon(tmp_path, code: str, white: str, factory=None) -> dict:  # type: ignore[no-untyped-def]
    """The board in language `code`, white a computer player that fails: what the page's
    problem line, its status and the board's speech say once it has failed."""
    import asyncio
    import time

    from navakankari.firmware.companion.backend import DaemonBackend
    from navakankari.firmware.core.players import PlayerSpec
    from navakankari.firmware.daemon.loop import Daemon
    from navakankari.firmware.daemon.speech_service import speech_service
    from navakankari.firmware.daemon.voice import Voice

    config = Config(game_variant="nine-mens-morris", game_white=PlayerSpec.parse(white),
                    game_black=PlayerSpec("hand"), board_profile="sim-24", board_language=code,
                    store_path=str(tmp_path / "games.sqlite3"), game_menu=False,
                    tracker_settle=0.05, tracker_grow=0.1, tracker_grace=0.3)
    seen: dict = {}

    async def watch(daemon: Daemon) -> None:
        end = time.monotonic() + 20  # real time: the engine is another process
        while time.monotonic() < end and not seen:
            await asyncio.sleep(0.05)
            said = [u.text for _, u in daemon.speech.recent if u.topic == "problem"] \
                if daemon.speech is not None else []
            if daemon.session.problem is not None and said:
                state = DaemonBackend(daemon).snapshot(code)
                seen.update(problem=state["problem"], status=state["status"]["text"],
                            said=said, english=str(daemon.session.problem))
        daemon.stop()

    services = [speech_service(Voice(), default=True, aloud=False, translate=translations), watch]
    board = open_board(load_profile("sim-24"), backend="sim")
    extra = {} if factory is None else {"player_factory": factory}
    asyncio.run(Daemon(config, board, services=services, **extra).run())
    assert seen, "the computer player did not fail in time"
    return seen


@pytest.mark.parametrize("code", ["hi", "ta"])
def test_a_computer_player_that_fails_is_named_in_the_boards_language(code, tmp_path, caplog):
    """The page's problem line and the board's speech: an installed engine's illegal answer in
    its own wording (its program, answer and position as places), and a failure that keeps no
    wording named by its kind; its English detail is in the log only."""
    import sys
    from pathlib import Path

    tr = translations(code)
    fake = Path(__file__).parents[1] / "engine" / "fake_engine.py"
    script = tmp_path / "engine"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {fake} --mode illegal\n")
    script.chmod(0o755)
    seen = _failing_daemon(tmp_path, code, f"engine:{script}?seconds=0.05")
    problem = seen["problem"]
    assert "which is illegal here" in seen["english"] and problem != seen["english"]
    answered = re.search(r"answered (\S+), which", seen["english"])
    assert answered and answered[1] in problem and str(script) in problem
    position = re.search(r"in position (.+?) \(", seen["english"])
    assert position and position[1] in problem
    assert english_left(problem, position[1], answered[1]) == [], problem
    assert seen["said"] == [tr.gettext("A problem: {problem}").format(problem=problem)]
    assert english_left(seen["said"][0], position[1], answered[1]) == []

    with caplog.at_level("ERROR", logger="navakankari.firmware.daemon.loop"):
        seen = _failing_daemon(tmp_path / "second", code, "computer:1",
                               factory=lambda spec: _Broken())
    assert seen["english"] == players.UNEXPECTED_FAILURE
    assert seen["problem"] == tr.gettext(players.UNEXPECTED_FAILURE) != seen["english"]
    assert english_left(seen["problem"]) == [] and english_left(seen["said"][0]) == []
    assert "libfoo" not in seen["problem"] + seen["said"][0]
    assert "libfoo: segfault in eval_board()" in caplog.text  # for whoever reads the log


@pytest.mark.parametrize("code", ["en", "hi"])
def test_a_club_configuration_that_changed_shape_is_named_by_its_line(code, tmp_path,
                                                                     monkeypatch, capsys):
    """`navakankari broker` on a shipped file that no longer has a line it moves: the file
    and that line, as shipped, are named in the maker's language."""
    from navakankari.firmware.online import club

    _in_environment(monkeypatch, code)
    shipped, changed = club.CONF.read_text(), tmp_path / "navakankari.conf"
    monkeypatch.setattr(club, "CONF", changed)
    for old, new, named in (("listener 8883\n", "listener 8884\n", "'listener 8883'"),
                            ("keyfile /etc/mosquitto/navakankari/web.key\n", "",
                             "'keyfile /etc/mosquitto/navakankari/web.key'"),
                            (club.SHIPPED_DIR, "/srv/mosquitto/",
                             "'certfile /etc/mosquitto/navakankari/web.crt'")):
        changed.write_text(shipped.replace(old, new))
        assert main(["broker", "--folder", str(tmp_path / "b"), "--user", "asha:pw-1"]) == 1
        error = capsys.readouterr().err
        if code == "en":
            assert error == f"navakankari broker: {changed} no longer has the line {named}\n"
        else:
            assert error.startswith(f"navakankari broker: {changed} ") and named in error
            assert english_left(error, "navakankari broker", str(changed), named) == [], error


@pytest.mark.parametrize("damage, places", [
    ("UPDATE actions SET text = 'd6' WHERE ply = 2", ["'d6'", "d6"]),  # an illegal action
    ("UPDATE actions SET text = 'zz9' WHERE ply = 2", ["'zz9'", "morris"]),  # not notation
    ("UPDATE games SET players = '[1, 2]'", []),
    ("UPDATE games SET rules = '{not json'", [])])
def test_a_damaged_stored_game_resumed_in_hindi_is_named_in_hindi(damage, places, tmp_path):
    """The board resumes a stored game whose replay fails: the page's notice says why in the
    board's language, the engine's own wording inside it, nothing English but names."""
    import asyncio
    import sqlite3

    from navakankari.engine.presets import preset
    from navakankari.firmware.companion.backend import DaemonBackend
    from navakankari.firmware.core.players import PlayerSpec
    from navakankari.firmware.daemon.loop import Daemon

    path = tmp_path / "games.sqlite3"
    store = database.Store(path)
    game = store.new_game(preset("nine-mens-morris"), {"white": "hand", "black": "hand"})
    store.append(game, 0, ("d6", "d2", "f4"))
    store.close()
    con = sqlite3.connect(path)
    con.execute(damage)
    con.commit()
    con.close()
    config = Config(game_variant="nine-mens-morris", game_white=PlayerSpec("hand"),
                    game_black=PlayerSpec("hand"), board_profile="sim-24", board_language="hi",
                    store_path=str(path), game_menu=False)
    seen: dict = {}

    async def look(daemon: Daemon) -> None:
        seen.update(DaemonBackend(daemon).snapshot("hi"), english=str(daemon.store_notice))
        daemon.stop()

    asyncio.run(Daemon(config, open_board(load_profile("sim-24"), backend="sim"),
                       services=[look]).run())
    notice, [kept] = seen["notice"], [p for p in tmp_path.glob("games.sqlite3.damaged-*")
                                      if not p.name.endswith(("-wal", "-shm"))]
    assert seen["english"].startswith("the previous game could not be resumed")
    assert notice != seen["english"] and str(kept) in notice and str(path) in notice
    assert all(name in notice for name in places), notice
    assert english_left(notice, str(kept), str(path), *places) == [], notice


@pytest.mark.parametrize("code", ["en", "hi", "ta"])
def test_the_online_page_and_broker_commands_lines_are_in_the_language(code, tmp_path,
                                                                      monkeypatch, capsys):
    """`online-page` and `broker` in the environment's language: the page written and a folder
    it cannot write, a login not given as NAME:PASSWORD, a password mosquitto_passwd refuses
    and a machine without mosquitto; the files, options and programs named as typed, a
    program's own words kept. (The broker's lines once it runs: tests/online/test_club.py.)"""
    from navakankari.firmware.online.player_page import FILES
    from navakankari.firmware.tools import local_broker

    try:
        local_broker.mosquitto()
    except local_broker.BrokerMissingError as exc:
        pytest.skip(f"{exc}; tests/run.sh installs it through tests/debian-deps.sh")
    _in_environment(monkeypatch, code)
    www, blocker = tmp_path / "www", tmp_path / "a-file"
    blocker.write_text("")
    assert main(["online-page", str(www)]) == 0
    wrote = capsys.readouterr().out
    assert main(["online-page", str(blocker / "www")]) == 1
    unwritable = capsys.readouterr().err
    assert main(["broker", "--folder", str(tmp_path / "b"), "--user", "asha"]) == 2
    no_password = capsys.readouterr().err
    assert main(["broker", "--folder", str(tmp_path / "c"), "--user", "asha:" + "x" * 70000]) == 1
    refused = capsys.readouterr().err
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))
    monkeypatch.setattr(local_broker, "DEBIAN_DIRS", ())
    assert main(["broker", "--folder", str(tmp_path / "d"), "--user", "asha:pw-1"]) == 1
    missing = capsys.readouterr().err
    passwd_said = refused.partition("(1): ")[2].strip()  # mosquitto_passwd's own words
    assert "Password" in passwd_said, refused
    if code == "en":
        assert wrote == (f"wrote {len(FILES)} files to {www}: serve them as they are (a static "
                         "host, or Mosquitto's websockets listener with http_dir); the page asks "
                         "for the game code, the broker's ws:// or wss:// address and a login\n")
        assert unwritable == (f"navakankari online-page: cannot write {blocker / 'www'}: "
                              "Not a directory\n")
        assert no_password == "navakankari broker: --user 'asha': give NAME:PASSWORD\n"
        assert refused == f"navakankari broker: mosquitto_passwd failed (1): {passwd_said}\n"
        assert missing == ("navakankari broker: mosquitto is not installed (Debian: sudo apt-get "
                           "install mosquitto)\n")
        return
    assert str(len(FILES)) in wrote and str(www) in wrote
    assert english_left(wrote, str(www), "Mosquitto", "websockets", "http_dir") == [], wrote
    for said, names in ((unwritable, ["navakankari online-page", str(blocker / "www"),
                                      "Not a directory"]),
                        (no_password, ["navakankari broker", "--user 'asha'", "NAME:PASSWORD"]),
                        (refused, ["navakankari broker", "mosquitto_passwd", passwd_said]),
                        (missing, ["navakankari broker", "mosquitto"])):
        assert said.startswith(names[0] + ": ") and said.count("\n") == 1, said
        assert all(name in said for name in names) and english_left(said, *names) == [], said
