"""Board states that a special rule (clearing the board, a new game by setting up the start,
restoring after a takeback) could claim while they are really part of an action: each in
every physical order the tracker accepts, with gaps from 0.1 s to 1.5 s, on the injected clock.
"""

from __future__ import annotations

import functools
import random

import pytest
from navakankari.engine.actions import Action, ActionKind
from navakankari.engine.game import Game, Side
from navakankari.engine.presets import preset
from navakankari.engine.rules import Rules
from navakankari.engine.variants import game_from_position, new_game
from navakankari.firmware.core.clockwork import drive
from navakankari.firmware.core.players import HAND
from navakankari.firmware.core.session import CLEARED, Session
from navakankari.firmware.core.status import StatusKind
from navakankari.firmware.core.tracker import confirm_point
from navakankari.firmware.store.database import Store
from navakankari.sim.hands import JUMP_ORDERS, ScriptedHands
from tables import SETTINGS, Following, Table

NKK = preset("nau-keti-keta")
GAPS = (0.1, 0.12, 0.3, 0.5, 0.8, 1.0, 1.5)
HANDS = {Side.WHITE: HAND, Side.BLACK: HAND}


class Watched:
    """Drives a tracker or session (as the daemon does) and notes each status kind it
    passes through."""

    def __init__(self, target) -> None:  # type: ignore[no-untyped-def]
        self.target = target
        self.kinds: list[StatusKind] = []
        self.now = 0.0

    def feed(self, event) -> None:  # type: ignore[no-untyped-def]
        self.target.feed(event)

    def tick(self, now: float) -> None:
        self.target.tick(now)
        kind = self.target.status.kind
        if not self.kinds or self.kinds[-1] != kind:
            self.kinds.append(kind)

    def deadline(self) -> float | None:
        return self.target.deadline()

    def run(self, events) -> "Watched":  # type: ignore[no-untyped-def]
        self.now = drive(self, events, now=self.now)
        return self


@functools.lru_cache(maxsize=None)
def lone_capture(jumps: int) -> tuple[str, str]:
    """A natural Nau Keti Keta game (seeded random moves) whose last action is a lone
    pebble's capture of every remaining opposing pebble, `jumps` or more of them: the record
    before it, and that capture."""
    for seed in range(5000):
        rng = random.Random(seed)
        game = new_game(NKK)
        while game.outcome() is None and len(game.history) < 200:
            game.push(rng.choice(game.legal_actions()))
        last = game.history[-1]
        if (game.outcome() is not None and game.outcome().reason == "all-taken"
                and game.occupancy.bit_count() == 1 and len(last.jumped) >= jumps):
            game.pop()
            return game.record(), last.text
    raise AssertionError(f"no lone capture of {jumps} pebbles found")


@functools.lru_cache(maxsize=None)
def removal_to_two(variant: str) -> tuple[str, str, str]:
    """A natural game whose last action is a removal leaving the loser two pebbles: the
    record before the mill-closing move, that move and the removal."""
    for seed in range(5000):
        rng = random.Random(seed)
        game = new_game(preset(variant))
        while game.outcome() is None and len(game.history) < 400:
            game.push(rng.choice(game.legal_actions()))
        outcome = game.outcome()
        if (outcome is not None and outcome.reason == "too-few-pebbles"
                and game.history[-1].kind == ActionKind.REMOVE
                and game.history[-2].kind == ActionKind.MOVE):
            take, move = game.pop(), game.pop()
            return game.record(), move.text, take.text
    raise AssertionError(f"no {variant} game ending by a removal found")


def reproduction_game() -> Game:
    """White's lone c3 faces black's lone d4, white to move (black has just stepped there)."""
    game = game_from_position(NKK, "***/***/*@*/*/O**/***/*** b 0 1")
    game.play("d5-d4")
    return game


# -- the reproduction ----------------------------------------------------------------
@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("order", JUMP_ORDERS)
def test_a_lone_pebbles_capture_of_the_last_pebble_commits_and_wins(order, gap):
    game = reproduction_game()
    start = game.board.names(game.occupancy)
    tracker = Following(game, settings=SETTINGS, occupied=start)
    hands = ScriptedHands(start, rng=random.Random(1), chatter=3)
    hands.perform(game.board, game.parse_action("c3xe5"), order=order, gap=gap)
    w = Watched(tracker).run(hands.events)
    assert game.record() == "d5-d4 c3xe5"
    assert game.outcome().winner == Side.WHITE and game.outcome().reason == "all-taken"
    assert tracker.status.kind == StatusKind.OVER
    assert StatusKind.CLEARING not in w.kinds and StatusKind.MISMATCH not in w.kinds


@pytest.mark.parametrize("gap", (0.3, 1.5))
@pytest.mark.parametrize("order", JUMP_ORDERS)
def test_the_computers_capture_of_the_last_pebble_carried_out_by_hand(order, gap):
    game = reproduction_game()
    start = game.board.names(game.occupancy)
    tracker = Following(game, settings=SETTINGS, hands={Side.BLACK}, occupied=start)
    action = game.parse_action("c3xe5")
    tracker.set_forced([action], 0.0)
    hands = ScriptedHands(start, t=0.5)
    hands.perform(game.board, action, order=order, gap=gap)
    w = Watched(tracker).run(hands.events)
    assert game.record() == "d5-d4 c3xe5" and game.outcome().winner == Side.WHITE
    assert StatusKind.CLEARING not in w.kinds


def test_an_empty_board_that_no_action_explains_is_still_a_clearing():
    """The lone pebbles face each other but cannot capture: taking both off is clearing."""
    game = game_from_position(NKK, "***/***/*@*/*/***/O**/*** b 0 1")
    game.play("d5-d4")  # white's b2 cannot jump d4 from there
    assert all(a.kind != ActionKind.JUMP for a in game.legal_actions())
    start = game.board.names(game.occupancy)
    tracker = Following(game, settings=SETTINGS, occupied=start)
    hands = ScriptedHands(start)
    hands.lift("b2").wait(0.3).lift("d4").wait(1.0)
    Watched(tracker).run(hands.events)
    assert tracker.status.kind == StatusKind.CLEARING


# -- the last capture of a chain with several jumped pebbles -----------------------------------
@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("order", JUMP_ORDERS)
def test_the_last_capture_of_a_chain_taking_several_pebbles(order, gap):
    record, chain = lone_capture(jumps=2)
    t = Table(NKK, record)
    action = t.game.parse_action(chain)
    assert len(action.jumped) >= 2
    t.hands.chatter = 2
    t.hands.rng = random.Random(3)
    t.hands.perform(t.game.board, action, order=order, gap=gap)
    w = Watched(t.tracker).run(t.hands.events)
    assert t.record == f"{record} {chain}"
    assert t.game.outcome().reason == "all-taken" and t.status.kind == StatusKind.OVER
    assert StatusKind.CLEARING not in w.kinds


# -- a session: the ending, then the armies set up again, then clearing still works ------------
class Board:
    """A session resumed from a store at `record`, and hands on one clock."""

    def __init__(self, rules: Rules, record: str, store: Store) -> None:
        game = new_game(rules)
        game.play_record(record)
        gid = store.new_game(rules, {"white": "hand", "black": "hand"})
        store.append(gid, 0, record.split())
        occupied = game.board.names(game.occupancy)
        self.store = store
        self.session = Session(rules, HANDS, settings=SETTINGS, store=store, occupied=occupied)
        assert self.session.game_id == gid and self.session.record() == record
        self.board = game.board
        self.hands = ScriptedHands(occupied, rng=random.Random(5), chatter=2, pause=0.6)
        self.watch = Watched(self.session)

    def run(self) -> "Board":
        events = self.hands.events[:]
        self.hands.events.clear()
        self.watch.run(events)
        self.hands.t = max(self.hands.t, self.watch.now)
        return self

    @property
    def status(self):  # type: ignore[no-untyped-def]
        return self.session.status



SETUP_ORDERS = ("white-first", "black-first", "alternating", "reversed", "winner-stays")


def setup_points(game: Game, order: str, stays: str) -> list[str]:
    start = new_game(game.rules)
    white = list(start.board.names(start.pieces(Side.WHITE)))
    black = list(start.board.names(start.pieces(Side.BLACK)))
    if order == "white-first":
        points = white + black
    elif order == "black-first":
        points = black + white
    elif order == "alternating":
        points = [p for pair in zip(white, black) for p in pair]
    elif order == "reversed":
        points = (white + black)[::-1]
    else:
        points = black + white
    return [p for p in points if not (order == "winner-stays" and p == stays)]


@pytest.mark.parametrize("gap", (0.1, 0.5, 1.5))
@pytest.mark.parametrize("order", SETUP_ORDERS)
def test_after_such_an_ending_setting_up_the_armies_starts_a_game_and_clearing_works(
        order, gap, store):
    record, chain = lone_capture(jumps=2)
    b = Board(NKK, record, store)
    old = b.session.game_id
    action = b.session.game.parse_action(chain)
    b.hands.perform(b.board, action, order="take-first", gap=gap)
    b.run()
    assert b.session.record() == f"{record} {chain}" and b.status.kind == StatusKind.OVER
    assert store.load(old).outcome == {"winner": str(b.session.game.outcome().winner),
                                       "reason": "all-taken"}
    assert StatusKind.CLEARING not in b.watch.kinds
    winner = b.board.points[action.target]
    start = set(b.board.names(new_game(NKK).occupancy))
    if order != "winner-stays" or winner not in start:
        b.hands.lift(winner).wait(gap)
    for p in setup_points(b.session.game, order, winner):
        if p not in b.hands.occupied:
            b.hands.place(p).wait(gap)
    b.hands.wait(0.6)
    b.run()
    new = b.session.game_id
    assert new != old and b.session.record() == "" and b.status.kind == StatusKind.IDLE
    # The new game plays, and clearing it with the gesture ends it.
    first = b.session.game.parse_action("c3-d4")
    b.hands.perform(b.board, first, gap=gap)
    b.run()
    assert b.session.record() == "c3-d4"
    for p in sorted(b.hands.occupied):
        b.hands.lift(p).wait(0.1)
    b.hands.wait(1.0)
    b.run()
    assert b.status.kind == StatusKind.CLEARING
    point = confirm_point(b.board)
    b.hands.place(point).wait(SETTINGS.clear_hold + 0.5).lift(point).wait(1.0)
    b.run()
    assert store.load(new).outcome == {"winner": None, "reason": CLEARED}
    assert b.session.game_id not in (old, new)


# -- a morris removal that leaves the loser two pebbles -----------------------------------------
REMOVAL_ORDERS = ("move-then-take", "take-then-move", "lift-take-place")


@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("order", REMOVAL_ORDERS)
@pytest.mark.parametrize("variant", ["nine-mens-morris", "six-mens-morris"])
def test_a_removal_that_leaves_the_loser_two_pebbles(variant, order, gap, store):
    rules = preset(variant)
    record, move_text, take_text = removal_to_two(variant)
    b = Board(rules, record, store)
    old = b.session.game_id
    game = b.session.game
    move = game.parse_action(move_text)
    names = b.board.points
    a, to = names[move.origin], names[move.target]
    x = take_text[1:]
    h = b.hands
    if order == "move-then-take":
        h.lift(a).wait(gap).place(to).wait(gap).lift(x)
    elif order == "take-then-move":
        h.lift(x).wait(gap).lift(a).wait(gap).place(to)
    else:
        h.lift(a).wait(gap).lift(x).wait(gap).place(to)
    h.wait(0.6)
    b.run()
    assert b.session.record() == f"{record} {move_text} {take_text}"
    outcome = b.session.game.outcome()
    assert outcome.reason == "too-few-pebbles" and b.status.kind == StatusKind.OVER
    assert store.load(old).outcome == outcome.to_dict()
    assert StatusKind.CLEARING not in b.watch.kinds
    # Clearing the finished game's board is the new game's start position.
    for p in sorted(h.occupied):
        h.lift(p).wait(gap)
    h.wait(0.6)
    b.run()
    assert b.session.game_id != old and b.status.kind == StatusKind.IDLE
    assert store.load(old).outcome == outcome.to_dict()  # not overwritten as cleared
    h.place("d6").wait(0.6)
    b.run()
    assert b.session.record() == "d6"


# -- a takeback to the start -------------------------------------------------------------------
RESTORE_ORDERS = ("clear-then-set-up", "pairs", "fill-first")


def restore(hands: ScriptedHands, board, target: set[str], order: str, gap: float) -> None:  # type: ignore[no-untyped-def]
    """Put the board to `target` by hand."""
    to_empty = sorted(hands.occupied - target)
    to_fill = sorted(target - hands.occupied)
    if order == "clear-then-set-up":
        for p in sorted(hands.occupied):
            hands.lift(p).wait(gap)
        for p in sorted(target):
            hands.place(p).wait(gap)
    elif order == "pairs":
        for k in range(max(len(to_empty), len(to_fill))):
            if k < len(to_empty):
                hands.lift(to_empty[k]).wait(gap)
            if k < len(to_fill):
                hands.place(to_fill[k]).wait(gap)
    else:
        for p in to_fill:
            hands.place(p).wait(gap)
        for p in to_empty:
            hands.lift(p).wait(gap)
    hands.wait(0.6)


@pytest.mark.parametrize("gap", (0.1, 0.5, 1.5))
@pytest.mark.parametrize("order", RESTORE_ORDERS)
@pytest.mark.parametrize("ending", ["mid-game", "lone-capture", "removal-to-two"])
def test_a_takeback_to_the_start(ending, order, gap, store):
    if ending == "lone-capture":
        record, last = lone_capture(jumps=1)
        rules, record = NKK, f"{record} {last}"
    elif ending == "removal-to-two":
        rules = preset("nine-mens-morris")
        record = " ".join(removal_to_two("nine-mens-morris"))
    else:
        rules = preset("nine-mens-morris")
        record = "d6 a4 e3 b2 g7 d2 a1 f4"
    b = Board(rules, record, store)
    gid = b.session.game_id
    b.session.takeback_to(b.watch.now, 0)
    assert b.session.record() == ""
    start = set(b.board.names(new_game(rules).occupancy))
    restore(b.hands, b.board, start, order, gap)
    b.run()
    assert b.session.game_id == gid and b.session.record() == ""
    assert b.status.kind == StatusKind.IDLE
    assert StatusKind.CLEARING not in b.watch.kinds
    assert store.load(gid).actions == () and not store.load(gid).finished
    first = b.session.game.legal_actions()[0]
    b.hands.perform(b.board, first, gap=gap)
    b.run()
    assert b.session.record() == first.text


def test_the_searched_games_are_what_they_claim():
    record, chain = lone_capture(jumps=2)
    game = new_game(NKK)
    game.play_record(record)
    action: Action = game.parse_action(chain)
    game.push(action)
    assert game.occupancy.bit_count() == 1 and len(action.jumped) >= 2


@pytest.mark.parametrize("gap", (0.1, 0.5, 1.5))
@pytest.mark.parametrize("order", RESTORE_ORDERS)
def test_a_takeback_put_right_through_an_empty_board_is_no_clearing(order, gap, store):
    record = "d6 a4 e3 b2 g7 d2 a1 f4"
    b = Board(preset("nine-mens-morris"), record, store)
    b.session.takeback_to(b.watch.now, 4)
    restore(b.hands, b.board, set(b.board.names(b.session.game.occupancy)), order, gap)
    b.run()
    assert b.session.record() == "d6 a4 e3 b2" and b.status.kind == StatusKind.IDLE
    assert StatusKind.CLEARING not in b.watch.kinds
    # Once put right, clearing the board is a clearing again.
    for p in sorted(b.hands.occupied):
        b.hands.lift(p).wait(0.1)
    b.hands.wait(1.0)
    b.run()
    assert b.status.kind == StatusKind.CLEARING
