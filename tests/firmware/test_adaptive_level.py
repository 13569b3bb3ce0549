"""The adaptive computer on the board: its level follows the person's results kept in the
store, across restarts, and the menu and the page offer it."""

from __future__ import annotations

import json
import sqlite3

from navakankari.engine.game import Side
from navakankari.engine.player import DEFAULT_LEVEL as D
from navakankari.engine.player_spec import ADAPTIVE_COMPUTER, at_level
from navakankari.engine.presets import preset
from navakankari.firmware.core.menu import Kind
from navakankari.firmware.core.players import HAND
from navakankari.firmware.core.session import Session
from navakankari.firmware.store.database import MIGRATIONS, BoardEnding, Store
from tables import SETTINGS
from test_menu import MenuBoard

RULES = preset("nine-mens-morris")
PLAYERS = {Side.WHITE: HAND, Side.BLACK: ADAPTIVE_COMPUTER}


def finish(session: Session, winner: str | None, reason: str = "resigned") -> None:
    """End the game in play with this result; a new one between the same players starts."""
    session.end_game(0.0, {"winner": winner, "reason": reason}, "a test")


def test_the_level_follows_the_results_kept_in_the_store_across_restarts(tmp_path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    session = Session(RULES, PLAYERS, settings=SETTINGS, store=store)
    assert session.adaptive_level == D and session.players[Side.BLACK].adaptive
    finish(session, "white")
    finish(session, None, BoardEnding.CLEARED.value)  # no result: it does not count
    assert session.adaptive_level == D
    finish(session, "white")  # the person's second win in a row
    assert session.adaptive_level == D + 1
    assert store.load(session.game_id).level == D + 1
    assert store.load(session.game_id).players["black"] == "computer:adaptive"
    store.close()

    store = Store(path)  # a restart resumes the game at the level it started at
    session = Session(RULES, PLAYERS, settings=SETTINGS, store=store)
    assert session.adaptive_level == D + 1 and session.players[Side.BLACK] == at_level(
        ADAPTIVE_COMPUTER, D + 1)
    finish(session, "black")
    finish(session, None, "repetition")  # a draw breaks the run
    finish(session, "black")
    assert session.adaptive_level == D + 1
    finish(session, "black")
    assert session.adaptive_level == D
    store.close()

    store = Store(path)
    assert Session(RULES, PLAYERS, settings=SETTINGS, store=store).adaptive_level == D
    store.close()


def test_a_store_from_before_the_level_and_seed_is_migrated_and_keeps_its_games(tmp_path
                                                                                 ) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, created REAL NOT NULL, rules TEXT NOT NULL,
            players TEXT NOT NULL, start TEXT, outcome TEXT,
            finished INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE actions (game INTEGER NOT NULL, ply INTEGER NOT NULL, text TEXT NOT NULL,
            t REAL NOT NULL, PRIMARY KEY (game, ply));""")
    old.execute("INSERT INTO games (created, rules, players) VALUES (1.0, ?, ?)",
                (json.dumps(RULES.to_dict()), '{"white": "hand", "black": "computer:2"}'))
    old.execute("INSERT INTO actions VALUES (1, 0, 'd6', 1.0)")
    old.commit()
    old.close()
    store = Store(path)
    stored = store.load(1)
    assert stored.actions == ("d6",) and stored.level is None and stored.seed is None
    assert store.adaptive_games() == []
    version = store._open.execute("PRAGMA user_version").fetchone()[0]
    assert version == len(MIGRATIONS)
    store.close()
    Store(path).close()  # opening a store at the version changes nothing


def test_the_menu_offers_the_adaptive_computer_at_the_stored_level(store) -> None:
    for _ in range(2):  # two wins of the person at the default level
        game = store.new_game(RULES, {"white": "computer:adaptive", "black": "hand"}, level=D)
        store.finish(game, {"winner": "black", "reason": "too-few-pebbles"})
    b = MenuBoard("nine-mens-morris", store).run()
    b.choose(Kind.VARIANT, "nine-mens-morris").choose(Kind.PLAYER, "computer:adaptive")
    b.choose(Kind.PLAYER, "hand").choose(Kind.ASSIST, "1").choose(Kind.STARTER, "white")
    assert b.session.menu is None
    assert str(b.session.players[Side.WHITE]) == "computer:adaptive"
    assert b.session.adaptive_level == D + 1 == b.session.players[Side.WHITE].level
    request = b.session.answers.computer_request()
    assert request is not None and request.level == D + 1


def test_its_record_says_the_level_so_its_turns_repeat_from_the_seed(store) -> None:
    from navakankari.engine.player import Player
    from navakankari.engine.record import format_record, parse_record
    from navakankari.engine.repeat import repeat_computer
    from navakankari.firmware.store.records import game_record
    from seeded_game import answered_placements

    game = answered_placements(RULES.name, Player(2), seed=9)
    stored = store.new_game(RULES, {"white": "hand", "black": "computer:adaptive"}, level=2,
                            seed=9)
    store.append(stored, 0, [a.text for a in game.history])
    text = format_record(game_record(store.load(stored), "test board"))
    assert '[Level "2"]' in text and '[Seed "9"]' in text
    repeated = repeat_computer(parse_record(text))
    assert repeated.repeats and repeated.checked == 4
    assert not repeat_computer(parse_record(text.replace('[Level "2"]', '[Level "1"]'))).repeats
