"""What the board says in each situation: a session played by simulated hands with an
Announcer listening, as the daemon's speech service listens; and the lift's words, with and
without each destination's quality, on status values."""

from __future__ import annotations

import gettext

from navakankari.engine.game import Side
from navakankari.engine.player import RandomPlayer
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.firmware.core.announce import REPEAT, Announcer, Utterance, played_words, quality_words
from navakankari.firmware.core.menu import MenuSettings
from navakankari.firmware.core.players import HAND, PlayerSpec, computer_turn
from navakankari.firmware.core.session import Session
from navakankari.firmware.core.status import Status, StatusKind
from navakankari.sim.hands import ScriptedHands
from navakankari.firmware.core.clockwork import drive
from tables import SETTINGS, random_game

NINE = preset("nine-mens-morris")
HANDS = {Side.WHITE: HAND, Side.BLACK: HAND}
VS_COMPUTER = {Side.WHITE: HAND, Side.BLACK: PlayerSpec("computer", 1)}


class Listening:
    """A session with an Announcer subscribed, as the speech service has it."""

    def __init__(self, session: Session, announcer: Announcer | None = None) -> None:
        self.session = session
        self.announcer = announcer or Announcer()
        self.said: list[Utterance] = []
        self.hands = ScriptedHands((), pause=0.5)
        self.now = 0.0
        session.subscribe(self._heard)

    def _heard(self, update) -> None:
        said = self.announcer.hear_update(self.session.game, update)
        if said is not None:
            self.said.append(said)

    def play(self, *points: str) -> list[str]:
        """Place pebbles on `points` (or do `perform`ed actions), run until settled; the texts
        said meanwhile."""
        before = len(self.said)
        for p in points:
            self.hands.place(p).wait(0.5)
        self.flush()
        return [u.text for u in self.said[before:]]

    def flush(self) -> None:
        events = self.hands.events[:]
        self.hands.events.clear()
        self.now = drive(self.session, events, now=self.now)
        self.hands.t = max(self.hands.t, self.now)


def test_each_placement_says_the_move_and_whose_turn():
    board = Listening(Session(NINE, HANDS, settings=SETTINGS))
    assert board.play("d6") == ["White placed a pebble on d6. Black to place a pebble on a free point."]
    assert board.play("a4") == ["Black placed a pebble on a4. White to place a pebble on a free point."]
    assert all(u.interrupt and u.repeat == 0 for u in board.said)


def test_a_mill_says_which_pebbles_may_be_taken_and_the_taking_is_said():
    board = Listening(Session(NINE, HANDS, settings=SETTINGS))
    board.play("a7", "b2", "d7", "f2")
    (said,) = board.play("g7")
    assert said == ("White placed a pebble on g7. White closed a mill: lift one of the lit "
                    "black pebbles (b2 or f2) to take it.")
    board.hands.lift("f2").wait(0.5)
    board.flush()
    assert board.said[-1].text == "White took the pebble on f2. Black to place a pebble on a free point."


def test_the_computers_move_is_said_until_it_is_carried_out():
    board = Listening(Session(NINE, VS_COMPUTER, settings=SETTINGS))
    board.play("d6")
    assert board.said[-1].text == "White placed a pebble on d6. Black (the computer) is thinking."
    assert not board.said[-1].interrupt  # said after what came before it, not over it
    request = board.session.answers.computer_request()
    actions = computer_turn(RandomPlayer(seed=1), request.game)
    assert board.session.answers.offer(request, actions, board.now)
    said = board.said[-1]
    point = actions[0].text
    assert said.text == f"Black plays {point}: put a black pebble on {point}."
    assert said.repeat == REPEAT and not said.interrupt
    for a in actions:
        board.hands.perform(board.session.game.board, a)
    board.flush()
    assert board.said[-1].text == (f"Black placed a pebble on {point}. "
                                   "White to place a pebble on a free point.")
    assert board.said[-1].repeat == 0  # a newer utterance: the repeating stops (speech.py)


def test_the_computers_move_partly_carried_out_is_not_said_again_at_once():
    game = new_game(NINE)
    announcer = Announcer()
    move = dict(forced=("d2-d3",), forced_from=("d2",), forced_to=("d3",))
    said = announcer.hear(game, Status(StatusKind.EXECUTING, "black", **move))
    assert said is not None and said.repeat == REPEAT
    assert announcer.hear(game, Status(StatusKind.EXECUTING, "black", lifted=("d2",),
                                       destinations=("d3",), **move)) is None


def test_a_mistake_says_what_to_fix_and_the_fix_is_heard():
    board = Listening(Session(NINE, HANDS, settings=SETTINGS))
    board.play("d6")
    board.hands.lift("d6").wait(2.0)  # white lifts its own pebble while black is to place
    board.flush()
    said = board.said[-1]
    assert said.interrupt and said.text.startswith("That is not a legal move: set a white pebble on d6")
    board.hands.place("d6").wait(2.0)
    board.flush()
    assert board.said[-1].text == "Black to place a pebble on a free point."


def test_the_menu_says_its_step_and_choices_but_not_each_moment_of_a_hold():
    session = Session(NINE, HANDS, settings=SETTINGS, menu=MenuSettings(hold=1.0),
                      variants=("nine-mens-morris", "navakankari"))
    board = Listening(session)
    board.announcer.hear(session.game, session.status)
    first = board.announcer.hear(session.game, session.status)
    assert first is None  # the same status is not said twice
    said = Announcer().hear(session.game, session.status)
    assert said is not None and said.text.startswith("Menu, choose the game")
    assert "hold a pebble on a lit point for 1 s, then lift it" in said.text
    point = session.status.choices[0][0]
    board.hands.place(point).wait(0.5)
    board.flush()
    holding = [u.text for u in board.said]
    board.hands.wait(1.0)
    board.flush()
    assert any(t.startswith(f"Lift the pebble from {point} now to choose") for t in
               [u.text for u in board.said]), (holding, board.said)


def lifted(**kw) -> Status:
    return Status(StatusKind.IN_PROGRESS, "white", lifted=("d5",), destinations=("d6", "e5", "c5"),
                  **kw)


def test_lifting_a_pebble_says_where_it_can_go_and_at_assistance_3_how_good_each_is():
    game = new_game(NINE)
    announcer = Announcer()
    said = announcer.hear(game, lifted())
    assert said.text == "White lifted the pebble from d5: put it on a lit point (d6, e5 or c5)."
    assert said.interrupt
    # The quality comes from the advice worker a moment later: only it is said then.
    quality = (("d6", "keeps"), ("e5", "drops"), ("c5", "keeps"))
    said = announcer.hear(game, lifted(quality=quality))
    assert said.text == "Good moves: d6, c5. A mistake: e5."
    assert announcer.hear(game, lifted(quality=quality)) is None
    assert quality_words(lifted(quality=(("d6", "loses"),))) == "This loses the game: d6."
    # Set back: nothing to say (the lift said it); the turn is not said again.
    assert announcer.hear(game, Status(StatusKind.IDLE, "white")) is None


def test_the_help_asked_for_and_a_blunder_are_said():
    game = new_game(NINE)
    announcer = Announcer()
    announcer.hear(game, Status(StatusKind.IDLE, "white"))
    said = announcer.hear(game, Status(StatusKind.IDLE, "white", hint=("d6",),
                                       advice="the best move is d6"))
    assert said.text == "The best move is d6."


def test_a_sensor_fault_is_said():
    game = new_game(NINE)
    said = Announcer().hear(game, Status(StatusKind.IDLE, "white", faulty=("c4",)))
    assert "the sensor of c4 chatters: check its wiring and magnet" in said.text


class Marked(gettext.NullTranslations):
    """A language whose every word is marked, to show the sentences come from the catalog."""

    def gettext(self, message):
        return f"<{message}>"

    def ngettext(self, singular, plural, n):
        return f"<{singular if n == 1 else plural}>"


def test_the_ears_own_sentences_come_from_the_catalog():
    game = random_game(NINE, 3, 1)
    (action,) = game.history
    assert played_words(action, Side.WHITE, Marked()) == f"<<white> placed a pebble on {action.target_name}.>"
    assert quality_words(lifted(quality=(("d6", "keeps"), ("e5", "keeps"))), Marked()) == \
        "<Good moves: d6, e5.>"
    assert Announcer("gu", Marked()).problem("x").language == "gu"


def test_lifting_a_pebble_on_the_board_says_its_destinations():
    """Lasker lets a pebble move while pebbles are still placed: a real lift, said."""
    board = Listening(Session(preset("lasker"), HANDS, settings=SETTINGS))
    board.play("a7", "g1")
    board.hands.lift("a7").wait(0.5)
    board.flush()
    said = board.said[-1]
    assert said.interrupt
    assert said.text == "White lifted the pebble from a7: put it on a lit point (d7 or a4)."
    board.hands.place("d7").wait(0.5)
    board.flush()
    assert board.said[-1].text == "White moved from a7 to d7. Black to place a pebble on a free point."


def test_a_sentence_ends_as_its_language_ends_one():
    game = new_game(NINE)
    said = Announcer("hi", Marked()).hear(game, Status(StatusKind.IDLE, "white"))
    assert said.text.endswith(">।")
    said = Announcer("gu", Marked()).hear(game, Status(StatusKind.IDLE, "white"))
    assert said.text.endswith(">.")
