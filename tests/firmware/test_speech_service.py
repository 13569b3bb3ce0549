"""Speech in a running daemon: a scripted game on the simulated board, on a clock that does
not run, is said sentence by sentence; off by default; turned on and kept in the store."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from navakankari.firmware.core.players import PlayerSpec
from navakankari.firmware.daemon.config import Config
from navakankari.firmware.daemon.loop import Daemon
from navakankari.engine.presets import preset
from navakankari.firmware.core.board_settings import SPEECH_KEY, kept_speech
from navakankari.firmware.core.session import Session
from navakankari.firmware.daemon.speaking import Speech
from navakankari.firmware.daemon.speech_service import speech_service
from navakankari.firmware.daemon.voice import Voice
from navakankari.firmware.store.database import Store
from navakankari.hal import load_profile, open_board
from navakankari.sim.clock import ManualClock
from virtual_time import run_virtual

FAST = dict(tracker_settle=0.05, tracker_grow=0.1, tracker_grace=0.3)


class Player:
    """The speaker's player: each sentence ends as soon as it is asked about."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.started = threading.Event()

    def __call__(self, utterance):
        self.texts.append(utterance.text)
        self.started.set()
        return self

    def poll(self) -> int:
        return 0

    def terminate(self) -> None:
        pass


def _daemon(tmp_path: Path, clock: ManualClock, script: list[str], *, enabled: bool,
            start=None, language: str = "en") -> Daemon:
    from navakankari.firmware.i18n.catalogs import translations

    config = Config(game_variant="nine-mens-morris", game_white=PlayerSpec("hand"),
                    game_black=PlayerSpec("hand"), board_profile="sim-24",
                    store_path=str(tmp_path / "games.sqlite3"), game_menu=False,
                    board_language=language, **FAST)
    board = open_board(load_profile("sim-24"), backend="sim", clock=clock)
    service = speech_service(Voice(), default=enabled, start=start, aloud=start is not None,
                             translate=translations)
    return Daemon(config, board, clock=clock, sim_script=script, services=[service])


def _play(daemon: Daemon, clock: ManualClock, plies: int) -> list[str]:
    said: list[str] = []

    async def main():
        task = asyncio.create_task(daemon.run())
        while daemon.session is None or len(daemon.session.game.history) < plies:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        said.extend(u.text for _, u in daemon.speech.recent)
        daemon.stop()
        return await task

    assert run_virtual(main(), clock, stores=[daemon.store]) == 0
    return said


def test_a_scripted_game_is_said_move_by_move_and_aloud(tmp_path):
    clock = ManualClock(1000.0)
    player = Player()
    daemon = _daemon(tmp_path, clock, ["d6", "a4", "e3"], enabled=True, start=player)
    said = _play(daemon, clock, 3)
    assert said == [
        "White to place a pebble on a free point.",
        "White placed a pebble on d6. Black to place a pebble on a free point.",
        "Black placed a pebble on a4. White to place a pebble on a free point.",
        "White placed a pebble on e3. Black to place a pebble on a free point.",
    ]
    assert player.started.wait(5.0) and player.texts[0] == said[0]
    assert daemon.speech is None  # the service ended with the daemon


def test_the_board_says_it_in_its_language(tmp_path):
    from navakankari.engine.game import Side
    from navakankari.engine.hint_words import side_words
    from navakankari.firmware.i18n.catalogs import translations

    clock = ManualClock(1000.0)
    daemon = _daemon(tmp_path, clock, ["d6"], enabled=True, start=Player(), language="kn")
    said = _play(daemon, clock, 1)
    kn = translations("kn")
    assert said[-1].startswith(side_words(Side.WHITE, kn)) and "d6" in said[-1]
    assert kn.gettext("{side} placed a pebble on {point}.").format(
        side=side_words(Side.WHITE, kn), point="d6") in said[-1]


def test_speech_is_off_by_default_and_the_page_hears_nothing(tmp_path):
    clock = ManualClock(1000.0)
    daemon = _daemon(tmp_path, clock, ["d6"], enabled=False)
    assert _play(daemon, clock, 1) == []


def test_turned_on_it_is_kept_in_the_store_over_the_configuration(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    assert kept_speech(store) is None  # never chosen: the configuration decides
    session = Session(preset("nine-mens-morris"), store=store)
    heard = []
    session.subscribe(heard.append)
    session.dispatch.set_speech(True)
    assert heard[-1].reason == "speech" and session.speech is True
    assert store.setting(SPEECH_KEY) == "on" and kept_speech(store) is True
    session.dispatch.set_speech(False)
    assert kept_speech(store) is False
    assert Session(preset("nine-mens-morris"), store=store).speech is False  # the next start
    store.set_setting(SPEECH_KEY, "loud")  # damaged: the configuration decides
    assert kept_speech(store) is None
    store.close()


def test_the_page_turns_speech_on_and_gets_each_sentence_and_its_wav(tmp_path):
    import json
    import shutil
    import urllib.error
    import urllib.request

    from sim_daemon import api, sim_daemon, until
    from navakankari.firmware.daemon.voice import wav_seconds

    with sim_daemon(tmp_path) as running:
        state = api(running, "/api/state")
        assert state["speech"] == {"enabled": False, "aloud": False, "number": 0,
                                   "problem": None, "recent": []}
        assert api(running, "/api/speech", {"on": True}) == {"ok": True}
        api(running, "/api/hand", {"op": "place", "point": "d6", "colour": "white"})
        speech = until("the move said", lambda: (s := api(running, "/api/state")["speech"])
                       ["number"] and s)
        (said,) = speech["recent"]
        assert said["text"] == "White placed a pebble on d6. Black to place a pebble on a free point."
        assert said["language"] == "en" and said["interrupt"]

        def get(query: str) -> tuple[int, bytes, str]:
            try:
                with urllib.request.urlopen(f"{running.url}/api/speech.wav?{query}",
                                            timeout=20) as r:
                    return r.status, r.read(), r.headers["Content-Type"]
            except urllib.error.HTTPError as exc:
                return exc.code, exc.read(), exc.headers["Content-Type"]

        if shutil.which("espeak-ng"):
            status, body, kind = get(f"n={said['number']}")
            assert status == 200 and kind == "audio/wav" and wav_seconds(body) > 1.0
        status, body, _ = get("n=99")
        assert status == 404 and "no sentence 99" in json.loads(body)["error"]
        assert get("n=-1")[0] == 400 and get("n=" + "9" * 40)[0] == 400
        try:
            api(running, "/api/speech", {"on": "yes"})
            raise AssertionError("a bad value was taken")
        except urllib.error.HTTPError as exc:
            assert exc.code == 409  # a request the board refuses (RequestError)
    store = Store(tmp_path / "games.sqlite3")
    assert store.setting(SPEECH_KEY) == "on"  # kept for the next start
    store.close()


def test_problems_and_the_other_board_are_said_when_they_change():
    speech = Speech(None, enabled=True)
    speech.look({"computer": None, "leds": None}, None)
    speech.look({"computer": "the engine at /x is not installed", "leds": None}, None)
    speech.look({"computer": "the engine at /x is not installed", "leds": None}, None)
    speech.look({"computer": None, "leds": None}, True)  # an online game: its board is there
    speech.look({"computer": None, "leds": None}, False)
    speech.look({"computer": None, "leds": None}, True)
    assert [u.text for _, u in speech.recent] == [
        "A problem: the engine at /x is not installed",
        "The other board is offline: its moves will come when it is back.",
        "The other board is back."]
    quiet = Speech(None, enabled=False)
    quiet.look({"leds": "the LEDs could not be written"}, None)
    assert not quiet.recent


def test_a_problem_is_said_once_though_saying_it_makes_the_board_look_again():
    """Saying a sentence tells the page (the daemon's `changed`), which looks again at once:
    what was seen is kept before it is said, so nothing is said twice (it recursed)."""
    speech = Speech(None, enabled=True)
    seen = {"computer": "the engine failed", "leds": None}
    far = {"board": True}
    speech.add_listener(lambda: speech.look(seen, far["board"]))
    speech.look(seen, True)
    far["board"] = False
    speech.look(seen, False)
    assert [u.text for _, u in speech.recent] == [
        "A problem: the engine failed",
        "The other board is offline: its moves will come when it is back."]


def test_the_board_speaks_the_language_it_is_set_to():
    from navakankari.firmware.core.update import Update

    class Marked:
        def gettext(self, message):
            return f"<{message}>"

        def ngettext(self, one, many, n):
            return f"<{one if n == 1 else many}>"

        def pgettext(self, context, message):
            return f"<{message}>"

    session = Session(preset("nine-mens-morris"))
    speech = Speech(None, enabled=True)
    speech.set_language("gu", Marked())
    speech.heard(session.game, Update("status", session.status, 0))
    (said,) = [u for _, u in speech.recent]
    assert said.language == "gu" and said.text.startswith("<")
