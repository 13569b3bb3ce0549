"""Legal-action lists and position strings against Sanmill's recorded games.

The data lives outside the project (../shared/conformance beside a checkout); the test
skips when it is absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from navakankari.engine.presets import preset
from navakankari.engine.variants import game_from_position, new_game

DATA = (Path(__file__).resolve().parents[2].parent / "shared" / "conformance"
        / "sanmill-nine-mens-morris-legal-moves.json")

pytestmark = pytest.mark.skipif(not DATA.exists(), reason="conformance data not present")


def load():
    return json.loads(DATA.read_text())


def test_perft_matches():
    data = load()
    game = new_game(preset("nine-mens-morris"))
    from navakankari.engine.perft import perft

    for depth, count in data["perft"]:
        if depth <= 4:
            assert perft(game, depth) == count


def test_every_recorded_position():
    data = load()
    rules = preset("nine-mens-morris")
    # Sanmill's recorder lists moves past threefold repetition and its move-count draw, so
    # the replayed game turns those two draws off; the positions themselves are unaffected.
    replay_rules = rules.replace(repetition_draw=None, quiet_move_limit=None)
    checked = 0
    for trajectory in data["trajectories"]:
        game = new_game(replay_rules)
        for step in trajectory["steps"]:
            fen = step["fen"]
            loaded = game_from_position(rules, fen)
            assert sorted(a.text for a in loaded.legal_actions()) == sorted(step["legal_uci"]), fen
            # The first fifteen fields are the position; Sanmill's recorder leaves the
            # move-count and move-number fields at 0 and 1.
            assert loaded.position().split()[:15] == fen.split()[:15]
            assert game.position().split()[:15] == fen.split()[:15], (trajectory["seed"], step["ply"])
            game.play(step["picked_uci"])
            checked += 1
    assert checked == sum(len(t["steps"]) for t in data["trajectories"])
