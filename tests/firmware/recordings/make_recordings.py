"""Writes the JSONL recordings in this folder and the results they must replay to.

The expected result comes from the script that made the gestures (the truth), never from
the tracker. Run: .venv/bin/python tests/firmware/recordings/make_recordings.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from navakankari.engine.player import MAX_LEVEL
from navakankari.engine.presets import preset
from navakankari.engine.game import Side
from navakankari.engine.variants import new_game, start_game, start_position
from navakankari.firmware.core.menu import GameChoice, MenuSettings, layout, playable, player_specs
from navakankari.firmware.core.recording_head import MenuStart, format_line
from navakankari.hal import load_profile
from navakankari.sim.hands import ScriptedHands

MENU = MenuSettings()
OLD_MENU = MenuSettings(assist=False)
"""The menu recorded before it had the help step (the recording's line says so)."""

HERE = Path(__file__).parent


def write(name: str, variant: str, hands: ScriptedHands, game, *, white: str = "hand",  # type: ignore[no-untyped-def]
          black: str = "hand", args: tuple[str, ...] = (), head: str = "") -> None:
    with open(HERE / f"{name}.jsonl", "w", encoding="utf-8") as out:
        if head:  # the menu's line, as the store writes it for a game chosen on the board
            out.write(head + "\n")
        for e in hands.events:
            out.write(json.dumps({"t": round(e.t, 6), "point": e.point, "present": e.present}) + "\n")
    outcome = game.outcome()
    expected: dict = {"variant": variant}
    if args:
        expected["args"] = list(args)
    expected["result"] = {"actions": [a.text for a in game.history], "position": game.position(),
                          "outcome": outcome.to_dict() if outcome else None,
                          "variant": game.rules.name, "white": white, "black": black,
                          "first": str(start_game(game.rules, first_position(game)).turn)}
    (HERE / f"{name}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


def first_position(game):  # type: ignore[no-untyped-def]
    """The position `game` began from."""
    probe = game.copy()
    while probe.history:
        probe.pop()
    return probe.position()


def scripted(name: str, variant: str, record: str, *, seed: int, order: str = "hop",
             mistakes: bool = False, gap: float = 0.12) -> None:
    rules = preset(variant)
    game = new_game(rules)
    rng = random.Random(seed)
    hands = ScriptedHands((), rng=rng, chatter=5, pause=0.6)
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


def random_record(variant: str, seed: int, plies: int, first: Side = Side.WHITE) -> str:
    rng = random.Random(seed)
    game = start_game(variant, start_position(variant, first))
    while game.outcome() is None and len(game.history) < plies:
        game.push(rng.choice(game.legal_actions()))
    return game.record()


def choose(hands: ScriptedHands, point: str, *, knock: str | None = None) -> None:
    """A menu choice by hand: a knock elsewhere and a hesitation first (neither chooses),
    then the pebble held on the point past the hold time and lifted."""
    if knock is not None:
        hands.place(knock, chatter=0).wait(0.05).lift(knock, chatter=0).wait(0.5)
    hands.place(point).wait(0.5).lift(point).wait(0.8)
    hands.place(point).wait(MENU.hold + 0.4).lift(point).wait(MENU.lift + 0.8)


def menu_session(name: str, seed: int) -> None:
    """Power-on in the menu (the daemon's default game: navakankari, hand against hand, on
    the simulator's 25 points), then: Nau Keti Keta; white remote, back, white hand; black
    hand; black starts (so black moves first); the armies set up; a few moves."""
    profile_points = load_profile("sim-25").points
    lay = layout(new_game(preset("navakankari")).board)
    variants = playable(profile_points)
    players = player_specs(MAX_LEVEL)
    rng = random.Random(seed)
    hands = ScriptedHands((), rng=rng, chatter=4, pause=0.6)
    hands.wait(0.5)
    choose(hands, lay.slots[variants.index("nau-keti-keta")], knock=lay.slots[0])
    choose(hands, lay.slots[players.index("remote")])
    choose(hands, lay.back, knock=lay.slots[3])
    choose(hands, lay.slots[players.index("hand")])
    choose(hands, lay.slots[players.index("hand")])
    choose(hands, lay.slots[1])  # black starts
    variant = "nau-keti-keta"
    game = start_game(variant, start_position(variant, Side.BLACK))
    hands.setup(game.board.names(game.occupancy))
    for token in random_record(variant, seed, 12, Side.BLACK).split():
        action = game.parse_action(token)
        hands.perform(game.board, action, order="take-first")
        game.push(action)
    write(name, "navakankari", hands, game,
          args=("--menu", "--profile", "sim-25", "--menu-hold", f"{MENU.hold:g}"),
          head=format_line(MenuStart(GameChoice("navakankari", "hand", "hand"), variants,
                                     OLD_MENU)))


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
    menu_session("menu-to-nau-keti-keta", seed=7)
