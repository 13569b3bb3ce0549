"""The tracker's mistake handling on every preset, from positions met in play."""

from __future__ import annotations

import pytest
from navakankari.engine.actions import ActionKind
from navakankari.engine.presets import PRESETS, preset
from navakankari.engine.variants import new_game
from navakankari.firmware.core.status import MismatchReason, StatusKind
from tables import SETTINGS, Following, Table, random_game

ALL = sorted(PRESETS)


def _touched(a) -> int:
    return a.empties | a.fills | (1 << a.origin if a.origin >= 0 else 0)


def _two_apart(game):
    """Two legal non-capturing actions that touch different points, or None."""
    acts = [a for a in game.legal_actions() if a.kind != ActionKind.JUMP]
    for i, a in enumerate(acts):
        for b in acts[i + 1:]:
            if not _touched(a) & _touched(b):
                return a, b
    return None


def _position(variant: str, plies: int, *, two_apart: bool = False):
    """A game in progress with a pebble that can move (not removing)."""
    rules = preset(variant)
    for seed in range(500):
        game = random_game(rules, seed=seed, plies=plies)
        if (game.outcome() is None and not game.pending_removals
                and any(a.kind in (ActionKind.MOVE, ActionKind.JUMP) for a in game.legal_actions())
                and (not two_apart or _two_apart(game))):
            return game
    raise AssertionError("no position found")


def _names(game, mask):
    return game.board.names(mask)


@pytest.mark.parametrize("variant", ALL)
def test_a_lift_put_back_commits_nothing(variant):
    ref = _position(variant, 30)
    t = Table(preset(variant), ref.record())
    action = next(a for a in t.game.legal_actions() if a.origin >= 0)
    origin = t.game.board.points[action.origin]
    t.hands.lift(origin).wait(1.5)
    t.run(t.hands.t)
    assert t.status.kind == StatusKind.IN_PROGRESS and t.status.lifted == (origin,)
    t.hands.place(origin, chatter=3)
    t.run()
    assert t.record == ref.record() and t.status.kind == StatusKind.IDLE


@pytest.mark.parametrize("variant", ALL)
def test_a_pebble_on_a_point_it_may_not_go_to_is_shown_and_put_right(variant):
    ref = _position(variant, 30)
    t = Table(preset(variant), ref.record())
    game, board = t.game, t.game.board
    empty = [p for p in range(board.size) if not game.occupancy >> p & 1]
    diffs = {(a.empties, a.fills) for a in game.legal_actions()}
    pick = next((a.origin, x) for a in game.legal_actions() if a.origin >= 0 for x in empty
                if ((1 << a.origin), (1 << x)) not in diffs
                and not any(u.empties & (1 << a.origin) and u.fills & (1 << x) or
                            (u.empties >> a.origin & 1 and x in u.path)
                            for u in game.legal_actions()))
    origin, wrong = board.points[pick[0]], board.points[pick[1]]
    t.hands.lift(origin).wait(0.2).place(wrong).wait(SETTINGS.settle + SETTINGS.grace + 0.1)
    t.run(t.hands.t)
    s = t.status
    assert s.kind == StatusKind.MISMATCH and s.reason == MismatchReason.MISTAKE
    assert s.pairs == ((wrong, origin),)
    t.hands.lift(wrong).wait(0.2).place(origin).wait(0.6)
    t.run()
    assert t.status.kind == StatusKind.IDLE and t.record == ref.record()
    action = game.legal_actions()[0]
    t.hands.perform(board, action)
    t.run()
    assert t.record == f"{ref.record()} {action.text}"


@pytest.mark.parametrize("variant", ALL)
def test_two_actions_at_once_commit_nothing_until_one_is_undone(variant):
    ref = _position(variant, 30, two_apart=True)
    t = Table(preset(variant), ref.record())
    game, board = t.game, t.game.board
    first, second = _two_apart(game)
    t.hands.perform(board, first, gap=0.03).wait(0.02)
    t.hands.perform(board, second, gap=0.03).wait(2.0)
    t.run()
    assert t.record == ref.record() and t.status.kind == StatusKind.MISMATCH
    # Undo the second by hand: the first is what the board shows, and it is committed.
    names = board.points
    if second.kind == ActionKind.PLACE:
        t.hands.lift(names[second.target])
    else:
        t.hands.lift(names[second.target]).wait(0.1).place(names[second.origin])
    t.run()
    assert t.record == f"{ref.record()} {first.text}"


@pytest.mark.parametrize("variant", ALL)
def test_takeback_to_an_earlier_position_guides_the_board(variant):
    ref = _position(variant, 30)
    record = ref.record().split()
    t = Table(preset(variant), " ".join(record))
    while len(t.game.history) > len(record) - 3:
        t.game.pop()
    t.tracker.sync(t.now)
    s = t.status
    assert s.kind == StatusKind.MISMATCH and s.reason == MismatchReason.RESTORE
    expected = set(_names(t.game, t.game.occupancy))
    for p in s.to_empty:
        t.hands.lift(p).wait(0.05)
    for p in s.to_fill:
        t.hands.place(p).wait(0.05)
    t.run()
    assert t.hands.occupied == expected
    assert t.status.kind in (StatusKind.IDLE, StatusKind.REMOVAL)
    action = t.game.legal_actions()[0]
    t.hands.perform(t.game.board, action)
    t.run()
    assert t.record == " ".join(record[:-3] + [action.text])


def test_new_game_on_a_full_board_guides_it_empty():
    ref = _position("twelve-mens-morris", 40)
    t = Table(preset("twelve-mens-morris"), ref.record())
    fresh = new_game(preset("twelve-mens-morris"))
    tracker = Following(fresh, settings=SETTINGS, occupied=t.hands.occupied, now=t.now)
    assert tracker.status.kind == StatusKind.MISMATCH
    assert set(tracker.status.to_empty) == t.hands.occupied and tracker.status.to_fill == ()
