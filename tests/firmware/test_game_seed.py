"""Each game on the board gets a seed: kept in the store and the record, handed to the
computer's search, and the same after a restart."""

from __future__ import annotations

import itertools

from navakankari.engine.game import Side
from navakankari.engine.player_spec import PlayerSpec
from navakankari.engine.presets import preset
from navakankari.engine.record import format_record, parse_record
from navakankari.firmware.core.players import HAND
from navakankari.firmware.core.session import Session
from navakankari.firmware.store.database import Store
from navakankari.firmware.store.records import game_record
from tables import SETTINGS

RULES = preset("nine-mens-morris")
PLAYERS = {Side.WHITE: PlayerSpec("computer", 2), Side.BLACK: HAND}


def test_each_game_s_seed_is_kept_handed_to_the_search_and_written_in_its_record(tmp_path):
    path = tmp_path / "games.sqlite3"
    seeds = itertools.count(41)
    store = Store(path)
    session = Session(RULES, PLAYERS, settings=SETTINGS, store=store,
                      game_seeds=lambda: next(seeds))
    assert session.game_seed == 41 and store.load(session.game_id).seed == 41
    request = session.answers.computer_request()
    assert request is not None and request.seed == 41
    session.new_game(0.0)
    assert session.game_seed == 42 and store.load(session.game_id).seed == 42
    text = format_record(game_record(store.load(session.game_id), "test board"))
    assert '[Seed "42"]' in text and parse_record(text).seed == 42
    store.close()

    store = Store(path)  # a restart resumes the game with its seed
    session = Session(RULES, PLAYERS, settings=SETTINGS, store=store,
                      game_seeds=lambda: next(seeds))
    assert session.game_seed == 42
    request = session.answers.computer_request()
    assert request is not None and request.seed == 42
    store.close()
