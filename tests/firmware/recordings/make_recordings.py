"""Writes the JSONL recordings in this folder and the results they must replay to.

The expected result comes from the script that made the gestures (the truth), never from
the tracker. Run: .venv/bin/python tests/firmware/recordings/make_recordings.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from navakankari.engine.game import new_game
from navakankari.engine.presets import preset
from navakankari.firmware.hands import Hands

HERE = Path(__file__).parent


def write(name: str, variant: str, hands: Hands, game) -> None:  # type: ignore[no-untyped-def]
    with open(HERE / f"{name}.jsonl", "w", encoding="utf-8") as out:
        for e in hands.events:
            out.write(json.dumps({"t": round(e.t, 6), "point": e.point, "present": e.present}) + "\n")
    outcome = game.outcome()
    expected = {"variant": variant,
                "result": {"actions": [a.text for a in game.history], "position": game.position(),
                           "outcome": outcome.to_dict() if outcome else None}}
    (HERE / f"{name}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


def scripted(name: str, variant: str, record: str, *, seed: int, order: str = "hop",
             mistakes: bool = False, gap: float = 0.12) -> None:
    rules = preset(variant)
    game = new_game(rules)
    rng = random.Random(seed)
    hands = Hands((), rng=rng, chatter=5, pause=0.6)
    hands.setup(game.board.names(game.occupancy))
    for k, token in enumerate(record.split()):
        action = game.parse_action(token)
        if mistakes and k % 7 == 3 and action.origin >= 0:
            # The pebble set on a point it may not go to, left there past the grace period,
            # then put back where it came from.
            names = game.board.points
            legal = {a.target for a in game.legal_actions() if a.origin == action.origin}
            wrong = [p for p in names if p not in hands.occupied and names.index(p) not in legal]
            if wrong:
                origin, bad = names[action.origin], rng.choice(wrong)
                hands.lift(origin).wait(0.3).place(bad).wait(1.5).lift(bad).wait(0.2)
                hands.place(origin).wait(0.6)
        if k % 5 == 2 and action.origin >= 0:
            # A lift put back before the real move.
            origin = game.board.points[action.origin]
            hands.lift(origin).wait(0.5).place(origin).wait(0.6)
        hands.perform(game.board, action, order=order, gap=gap)
        game.push(action)
    write(name, variant, hands, game)


def random_record(variant: str, seed: int, plies: int) -> str:
    rng = random.Random(seed)
    game = new_game(preset(variant))
    while game.outcome() is None and len(game.history) < plies:
        game.push(rng.choice(game.legal_actions()))
    return game.record()


def lone_capture_record(variant: str, jumps: int) -> str:
    """The first seeded random game that ends with a lone pebble taking every remaining
    opposing pebble, `jumps` or more of them, in one capture."""
    for seed in range(5000):
        rng = random.Random(seed)
        game = new_game(preset(variant))
        while game.outcome() is None and len(game.history) < 200:
            game.push(rng.choice(game.legal_actions()))
        if (game.outcome() is not None and game.occupancy.bit_count() == 1
                and len(game.history[-1].jumped) >= jumps):
            return game.record()
    raise AssertionError("no such game")


if __name__ == "__main__":
    scripted("navakankari-mills", "navakankari", "a7 b6 d7 f6 g4 b2 g1 d2 g7 xb6 xd2 d6", seed=1)
    scripted("nine-mens-morris-full", "nine-mens-morris",
             random_record("nine-mens-morris", 3, 400), seed=2, mistakes=True)
    scripted("lasker-moves-in-placement", "lasker", random_record("lasker", 4, 60), seed=3)
    scripted("nau-keti-keta-take-first", "nau-keti-keta", random_record("nau-keti-keta", 1, 60),
             seed=4, order="take-first")
    scripted("nau-keti-keta-hop", "nau-keti-keta", random_record("nau-keti-keta", 5, 60),
             seed=5, order="hop", mistakes=True)
    # Taken first and carried slowly: the board is empty for longer than the settle time
    # before the lone pebble lands.
    scripted("nau-keti-keta-lone-capture", "nau-keti-keta", lone_capture_record("nau-keti-keta", 3),
             seed=6, order="take-first", gap=0.5)
