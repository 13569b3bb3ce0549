"""Clearing the board during a game: confirm to end it, or put the pebbles back."""

from __future__ import annotations

import pytest
from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.firmware.core import lights
from navakankari.firmware.core.clockwork import drive, run_until
from navakankari.firmware.core.palette import PALETTE, Role
from navakankari.firmware.core.players import HAND
from navakankari.firmware.core.session import CLEARED, Session
from navakankari.firmware.core.status import MismatchReason, StatusKind
from navakankari.firmware.core.tracker import confirm_point
from navakankari.firmware.store.database import Store
from navakankari.sim.hands import ScriptedHands
from tables import SETTINGS, random_game

HANDS = {Side.WHITE: HAND, Side.BLACK: HAND}
VARIANTS = ["nine-mens-morris", "six-mens-morris", "morabaraba", "nau-keti-keta"]
HOLD = SETTINGS.clear_hold



class Board:
    """A session with a store, and hands on one clock."""

    def __init__(self, variant: str, store: Store, plies: int = 8, *,
                 on_confirm: bool = False) -> None:
        """A game of `plies` by hand (`on_confirm`: with a pebble on the confirm point)."""
        self.rules = preset(variant)
        self.store = store
        self.session = Session(self.rules, HANDS, settings=SETTINGS, store=store)
        self.board = self.session.game.board
        self.hands = ScriptedHands((), pause=0.5)
        self.now = 0.0
        point = confirm_point(self.board)
        ref = next(g for g in (random_game(self.rules, seed=s, plies=plies) for s in range(50))
                   if g.outcome() is None and not g.pending_removals
                   and (not on_confirm or point in g.board.names(g.occupancy)))
        start = new_game(self.rules)
        self.hands.setup(self.board.names(start.occupancy))
        for action in ref.history:
            self.hands.perform(self.board, action)
        self.run()
        assert self.session.record() == ref.record()
        self.record = ref.record()
        self.position = frozenset(self.board.names(self.session.game.occupancy))

    def run(self, until: float | None = None) -> "Board":
        """Feed the gestures so far; run the clock to `until` (None: until nothing is due)."""
        events = self.hands.events[:]
        self.hands.events.clear()
        for event in events:
            self.now = run_until(self.session, event.t, self.now)
            self.session.feed(event)
            self.now = max(self.now, event.t)
            self.session.tick(self.now)
        self.now = run_until(self.session, until, self.now)
        self.hands.t = max(self.hands.t, self.now)
        return self

    def to_hands(self) -> "Board":
        """Run to the time the hands have reached."""
        return self.run(self.hands.t)

    def clear(self) -> "Board":
        for p in sorted(self.hands.occupied):
            self.hands.lift(p, chatter=2).wait(0.15)
        self.hands.wait(0.5)
        return self.run()

    @property
    def status(self):
        return self.session.status


def test_the_confirm_point_is_the_one_nearest_the_centre():
    assert confirm_point(new_game(preset("nine-mens-morris")).board) == "d5"
    assert confirm_point(new_game(preset("morabaraba")).board) == "d5"
    assert confirm_point(new_game(preset("six-mens-morris")).board) == "d5"
    assert confirm_point(new_game(preset("nau-keti-keta")).board) == "d4"


@pytest.mark.parametrize("variant", VARIANTS)
def test_clearing_then_confirming_ends_the_game_and_starts_a_new_one(variant, store):
    b = Board(variant, store)
    old = b.session.game_id
    b.clear()
    s = b.status
    point = confirm_point(b.board)
    assert s.kind == StatusKind.CLEARING and s.confirm_point == point
    assert s.confirm_hold == HOLD and not s.holding and not s.armed
    assert set(s.to_fill) == b.position and s.to_empty == ()
    roles = lights.roles(b.session.game, s, b.now)
    assert roles[point] == Role.CONFIRM_CLEAR
    assert all(roles[p] == Role.TO_FILL for p in b.position - {point})
    assert b.session.status.to_dict()["confirm_point"] == point  # what the web page reads
    b.hands.place(point).wait(HOLD / 2)
    b.to_hands()
    assert b.status.holding and not b.status.armed
    assert lights.roles(b.session.game, b.status, b.now) == {point: Role.CONFIRM_HOLD}
    b.hands.wait(HOLD / 2 + 0.1)
    b.to_hands()
    assert b.status.armed and b.session.game_id == old
    assert lights.render(b.session.game, b.status, b.now) == {point: PALETTE[Role.CONFIRM_LIFT].colour}
    b.hands.lift(point, chatter=2).wait(0.5)
    b.run()
    new = b.session.game_id
    assert new != old and b.session.record() == "" and b.session.rules == b.rules
    stored = store.load(old)
    assert stored.finished and stored.outcome == {"winner": None, "reason": CLEARED}
    assert stored.actions == tuple(b.record.split())
    start = frozenset(b.board.names(new_game(b.rules).occupancy))
    if start:  # Nau Keti Keta: set up both armies first
        assert b.status.kind == StatusKind.MISMATCH and b.status.reason == MismatchReason.RESTORE
        assert set(b.status.to_fill) == start
        b.hands.setup(sorted(start))
        b.run()
    assert b.status.kind == StatusKind.IDLE
    # A restart resumes the new game, never the cleared one.
    again = Session(b.rules, HANDS, settings=SETTINGS, store=store, occupied=start, now=b.now)
    assert again.game_id == new and again.record() == ""
    assert store.last_unfinished().id == new


@pytest.mark.parametrize("variant", VARIANTS)
def test_putting_the_pebbles_back_continues_the_game(variant, store):
    b = Board(variant, store, on_confirm=True)
    old = b.session.game_id
    b.clear()
    assert b.status.kind == StatusKind.CLEARING
    point = confirm_point(b.board)
    # Back one by one; the confirm point first, with a long pause, is not a confirmation.
    order = sorted(b.position, key=lambda p: p != point)
    for p in order:
        b.hands.place(p, chatter=2).wait(HOLD + 1 if p == point else 0.3)
        b.run()
        assert b.session.game_id == old
        if p != order[-1]:
            assert b.status.kind == StatusKind.CLEARING
            assert b.status.armed == (p == point)  # alone long enough, but never lifted
    assert b.status.kind == StatusKind.IDLE
    assert b.session.record() == b.record
    assert store.last_unfinished().id == old and store.load(old).actions == tuple(b.record.split())
    # The game goes on from where it was.
    action = b.session.game.legal_actions()[0]
    b.hands.perform(b.board, action)
    b.run()
    assert b.session.record() == f"{b.record} {action.text}"


@pytest.mark.parametrize("variant", ["nine-mens-morris", "nau-keti-keta"])
def test_a_short_hold_or_chatter_on_the_confirm_point_does_not_confirm(variant, store):
    b = Board(variant, store)
    old = b.session.game_id
    b.clear()
    point = confirm_point(b.board)
    b.hands.place(point).wait(HOLD - 0.5).lift(point).wait(1.0)  # too short
    b.run()
    assert b.status.kind == StatusKind.CLEARING and not b.status.armed
    for _ in range(3):  # a sensor chattering for seconds, now and then a little quieter
        for _ in range(30):
            b.hands.edge(point, True)
            b.hands.wait(0.05)
            b.hands.edge(point, False)
            b.hands.wait(0.05)
        b.hands.wait(0.5)
    b.to_hands()
    assert b.status.faulty == (point,)  # and its light says so
    b.hands.wait(HOLD)
    b.run()
    assert b.status.kind == StatusKind.CLEARING and not b.status.armed
    assert b.status.faulty == ()  # quiet again
    # Held long enough, but with another pebble down too: not the gesture.
    other = next(p for p in b.board.points if p != point)
    b.hands.place(point).wait(HOLD + 0.5).place(other).wait(0.5).lift(point).wait(0.5)
    b.hands.lift(other).wait(0.5)
    b.run()
    assert b.session.game_id == old and b.status.kind == StatusKind.CLEARING
    assert not b.status.armed


def test_one_pebble_knocked_off_is_a_mistake_not_a_clearing(store):
    session = Session(preset("nine-mens-morris"), HANDS, settings=SETTINGS, store=store)
    hands = ScriptedHands((), pause=0.5)
    hands.place("d6").wait(0.5).lift("d6").wait(2.0)
    drive(session, hands.events)
    assert session.status.kind == StatusKind.MISMATCH and session.status.to_fill == ("d6",)


def test_a_restart_on_an_empty_board_offers_to_end_the_game(store):
    b = Board("nine-mens-morris", store)
    old = b.session.game_id
    again = Session(b.rules, HANDS, settings=SETTINGS, store=store, now=100.0)
    assert again.game_id == old and again.status.kind == StatusKind.CLEARING
    hands = ScriptedHands((), t=100.0)
    hands.place("d5").wait(HOLD + 0.5).lift("d5").wait(0.5)
    drive(again, hands.events, now=100.0)
    assert again.game_id != old and again.status.kind == StatusKind.IDLE
