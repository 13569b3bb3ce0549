"""A stored game as a record a person keeps (`engine.record`): its players, date, board and
result, whether the rules ended it or the board did."""

from __future__ import annotations

import time

from navakankari.engine.record import GameRecord, record_of
from navakankari.engine.variants import start_game

from .database import DRAWN_REASONS, StoredGame

EVENT = "Navakankari board"


def game_record(stored: StoredGame, site: str) -> GameRecord:
    """`site` is the board's name. The stored outcome's reason is the record's termination:
    a rules ending, or one of the board's (cleared, abandoned) or a resignation; a game the
    board ended without a winner stays unresolved (`*`), as PGN has it. A game against the
    adaptive computer says the level it played at in a `Level` tag."""
    game = start_game(stored.rules, stored.start)
    for text in stored.actions:  # the store checked them as it loaded the game
        game.play(text)
    ending: dict[str, str] = {}
    if stored.outcome is not None:  # else the rules say, if the game is over
        winner, reason = stored.outcome.get("winner"), str(stored.outcome.get("reason"))
        ending["result"] = {"white": "1-0", "black": "0-1"}.get(
            str(winner), "1/2-1/2" if reason in DRAWN_REASONS else "*")
        ending["termination"] = reason
    return record_of(game, start=stored.start, white=stored.players.get("white", "?"),
                     black=stored.players.get("black", "?"), event=EVENT, site=site or "?",
                     seed=stored.seed, tags=(() if stored.level is None else
                                             (("Level", str(stored.level)),)),
                     date=time.strftime("%Y.%m.%d", time.localtime(stored.created)), **ending)
