"""While the page reviews a game the board lights the move the review shows, and only that,
until the review ends, a hand touches the board, or the page stays silent too long."""

from __future__ import annotations

from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.firmware.core import lights
from navakankari.firmware.core.clockwork import drive
from navakankari.firmware.core.menu import MenuSettings
from navakankari.firmware.core.palette import Role
from navakankari.firmware.core.players import HAND
from navakankari.firmware.core.session import REVIEW_SECONDS, Session
from navakankari.firmware.core.status import StatusKind
from navakankari.sim.hands import ScriptedHands
from tables import SETTINGS

NINE = preset("nine-mens-morris")


def _session() -> tuple[Session, ScriptedHands, float]:
    session = Session(NINE, {Side.WHITE: HAND, Side.BLACK: HAND}, settings=SETTINGS)
    hands = ScriptedHands((), pause=0.5)
    for p in ("d6", "a4", "e3"):
        hands.place(p).wait(0.5)
    events = hands.events[:]
    hands.events.clear()
    now = drive(session, events, now=0.0)
    assert session.record() == "d6 a4 e3"
    return session, hands, now


def test_a_review_lights_its_move_and_nothing_else_until_it_ends():
    session, _, now = _session()
    updates = []
    session.subscribe(updates.append)
    game_lights = lights.roles(session.game, session.status, now)
    assert Role.REVIEW not in game_lights.values()
    session.show_review(now, ["a4", "z9"])  # a point of another board is left out
    assert session.status.review == ("a4",)
    assert lights.roles(session.game, session.status, now) == {"a4": Role.REVIEW}
    assert session.turn((), now).frame.keys() == {"a4"}  # what the loop shows the LEDs
    session.show_review(now + 1, [])  # the review's start position: the board dark
    assert lights.roles(session.game, session.status, now + 1) == {}
    assert session.record() == "d6 a4 e3"  # a review takes nothing back
    session.show_review(now + 2, None)
    assert session.status.review is None
    assert lights.roles(session.game, session.status, now + 2) == game_lights
    assert [u.reason for u in updates] == ["status"] * 3


def test_the_review_lights_end_after_a_while_or_when_a_hand_touches_the_board():
    session, hands, now = _session()
    session.show_review(now, ["e3"])
    assert session.deadline() == now + REVIEW_SECONDS
    session.tick(now + REVIEW_SECONDS - 1)
    assert session.status.review == ("e3",)
    session.tick(now + REVIEW_SECONDS)  # the page went quiet: the game's lights again
    assert session.status.review is None and session.status.kind == StatusKind.IDLE
    later = now + REVIEW_SECONDS + 1
    session.show_review(later, ["e3"])
    hands.t = later
    hands.place("b2").wait(0.5)
    drive(session, hands.events[:], now=later)  # a hand plays on: the review's lights go
    assert session.status.review is None and session.record() == "d6 a4 e3 b2"


def test_the_menu_gives_way_to_a_review_of_the_last_game_too():
    session = Session(NINE, {Side.WHITE: HAND, Side.BLACK: HAND}, settings=SETTINGS,
                      menu=MenuSettings())
    assert session.status.kind == StatusKind.MENU
    session.show_review(0.0, ["d6"])
    assert lights.roles(session.game, session.status, 0.0) == {"d6": Role.REVIEW}
    session.show_review(0.5, None)
    assert Role.MENU_CHOICE in lights.roles(session.game, session.status, 0.5).values()
