"""The status in words: what a family at the board reads on the page."""

from __future__ import annotations

from navakankari.engine.game import Outcome, Reason, Side
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.firmware.core.status import MismatchReason, Status, StatusKind
from navakankari.firmware.core.wording import REASONS, outcome_text, status_text


def game(variant: str = "nine-mens-morris", record: str = ""):
    g = new_game(preset(variant))
    if record:
        g.play_record(record)
    return g


def test_idle_says_whose_turn_and_what_to_do():
    assert status_text(game(), Status(StatusKind.IDLE, "white")) == \
        "white to place a pebble on a free point"


def test_removal_names_the_takeable_pebbles():
    g = game(record="a7 b6 d7 f6 g7")
    status = Status(StatusKind.REMOVAL, "white", takeable=("b6", "f6"))
    assert status_text(g, status) == \
        "white closed a mill: lift one of the lit black pebbles (b6 or f6) to take it"


def test_a_lifted_pebble_points_to_its_destinations():
    status = Status(StatusKind.IN_PROGRESS, "white", lifted=("a7",), destinations=("a4", "d7"))
    assert status_text(game(), status) == \
        "white lifted the pebble from a7: put it on a lit point (a4 or d7)"


def test_a_mistake_says_what_to_put_right():
    g = game(record="a7")
    status = Status(StatusKind.MISMATCH, "black", to_empty=("d6",), to_fill=("a7",),
                    pairs=(("d6", "a7"),), steps=(("move", "white", "d6", "a7"),),
                    reason=MismatchReason.MISTAKE)
    assert status_text(g, status) == \
        "that is not a legal move: move the white pebble from d6 to a7"
    status = Status(StatusKind.MISMATCH, "black", to_fill=("a7",),
                    steps=(("set", "white", "", "a7"),), reason=MismatchReason.RESTORE)
    assert status_text(g, status) == \
        "set the board to the game's position: set a white pebble on a7"


def test_the_computers_move_is_spelt_out():
    status = Status(StatusKind.EXECUTING, "black", forced=("a1-a4", "xd7"),
                    forced_from=("a1",), forced_to=("a4",), forced_take=("d7",))
    assert status_text(game(), status) == ("black plays a1-a4 xd7: move the black pebble from "
                                           "a1 to a4, then take the white pebble off d7")


def test_clearing_asks_for_the_confirmation():
    status = Status(StatusKind.CLEARING, "white", confirm_point="d5", confirm_hold=3.0)
    assert "hold a pebble on d5 for 3 s, then lift it" in status_text(game(), status)
    armed = Status(StatusKind.CLEARING, "white", confirm_point="d5", confirm_hold=3.0,
                   holding=True, armed=True)
    assert status_text(game(), armed) == "lift the pebble from d5 now to end the game"


def test_a_chattering_sensor_is_named():
    status = Status(StatusKind.IDLE, "white", faulty=("c4",))
    assert "the sensor of c4 chatters" in status_text(game(), status)


def test_outcomes_in_words():
    assert outcome_text(Outcome(Side.WHITE, "too-few-pebbles")) == \
        "white wins: black has fewer than three pebbles"
    assert outcome_text(Outcome(None, "board-full")) == "draw: the board is full"
    assert outcome_text(Outcome(Side.BLACK, "blocked")) == "black wins: white cannot move"


def test_the_boards_endings_are_kept_apart_from_the_rules():
    from navakankari.firmware.store.database import BoardEnding

    assert {e.value for e in BoardEnding}.isdisjoint(r.value for r in Reason)
    assert BoardEnding.CLEARED.outcome() == {"winner": None, "reason": "cleared"}


def test_every_reason_has_words():
    assert set(REASONS) == set(Reason)
    for reason in Reason:
        text = outcome_text(Outcome(Side.WHITE, reason))
        assert "{" not in text and "-" not in text, text


def test_many_points_to_put_right_are_grouped():
    g = new_game(preset("nau-keti-keta"))
    steps = (("lift", "", "a4", ""), ("lift", "", "g4", ""), ("set", "black", "", "a7"),
             ("set", "black", "", "d7"), ("set", "white", "", "c3"), ("set", "white", "", "d3"))
    status = Status(StatusKind.MISMATCH, "white", to_fill=("a7", "d7", "c3", "d3"),
                    to_empty=("a4", "g4"), steps=steps, reason=MismatchReason.RESTORE)
    assert status_text(g, status) == (
        "set the board to the game's position: lift the pebbles on a4 and g4; "
        "set black pebbles on a7 and d7; set white pebbles on c3 and d3")


def test_the_way_back_names_the_colour_of_every_pebble():
    """Nau Keti Keta c3-d4 e5xc3 b2xd4 taken back: the white pebble goes back to b2, and a
    black one is set on c3 (never the white one moved onto black's point)."""
    g = game("nau-keti-keta", "c3-d4 e5xc3")
    steps = (("move", "white", "d4", "b2"), ("lift", "black", "e3", ""),
             ("lift", "black", "e5", ""), ("set", "black", "", "c3"))
    status = Status(StatusKind.MISMATCH, "white", steps=steps, reason=MismatchReason.RESTORE)
    assert status_text(g, status) == (
        "set the board to the game's position: move the white pebble from d4 to b2; "
        "lift the black pebbles on e3 and e5; set a black pebble on c3")


def test_a_jump_names_the_colour_it_takes():
    status = Status(StatusKind.IN_PROGRESS, "white", captures=("c3",))
    assert status_text(game("nau-keti-keta"), status) == "take the jumped black pebble off c3"


def test_the_end_of_a_game_says_how_the_next_one_starts():
    from navakankari.firmware.core.wording import next_game_text

    nine, nkk = game(), game("nau-keti-keta")
    assert next_game_text(nine, menu=True, auto_new_game=True) == \
        "to play again, take every pebble off the board, then choose on its menu"
    assert next_game_text(nine, menu=False, auto_new_game=True) == \
        "to play again, take every pebble off the board (a new game of nine-mens-morris starts)"
    assert next_game_text(nkk, menu=False, auto_new_game=True) == \
        "to play again, set the pebbles out on their starting points"
    assert next_game_text(nkk, menu=False, auto_new_game=False) == \
        "to play again, start a new game"


def test_the_legend_names_every_light_once_and_the_readme_holds_it():
    from pathlib import Path

    from navakankari.firmware.core.palette import Role
    from navakankari.firmware.core.wording import LEGEND, legend_table

    roles = [role for _, rows in LEGEND for role, _, _ in rows]
    assert sorted(roles) == sorted(Role) and len(roles) == len(set(roles))
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert legend_table() in readme
    assert "| `blunder` | red, blinks fast |" in legend_table()
    assert "| `hint` | cyan, blinks slowly |" in legend_table()


def test_a_player_far_away_is_named_not_called_the_computer():
    game = new_game(preset("nine-mens-morris"))
    thinking = Status(kind=StatusKind.THINKING, turn="white")
    assert status_text(game, thinking) == "white (the computer) is thinking"
    assert status_text(game, thinking, "Ravi") == "Ravi (white) is to play"
    forced = Status(kind=StatusKind.EXECUTING, turn="white", forced=("d6",), forced_to=("d6",))
    assert status_text(game, forced, "Ravi").startswith("Ravi (white) plays d6: ")
    assert "computer" not in status_text(game, forced, "Ravi")


def test_two_mills_at_once_say_how_many_pebbles_are_still_owed():
    from navakankari.engine.game import Side
    from navakankari.firmware.core.announce import Announcer
    from navakankari.firmware.core.status import StatusKind, matching_status

    game = new_game("navakankari")  # a pebble per mill closed
    game.play_record("a1 d7 a7 g1 b4 d1 c4 f2 a4")  # a4 closes a1-a4-a7 and a4-b4-c4
    hands = {Side.WHITE, Side.BLACK}
    announcer = Announcer()
    status = matching_status(game, (), hands)
    assert (status.kind, status.owed, status.taken) == (StatusKind.REMOVAL, 2, 0)
    assert status_text(game, status) == ("white closed 2 mills: take 2 black pebbles, one at a "
                                         "time: lift one of the lit ones (d7, f2, d1 or g1)")
    assert announcer.hear(game, status, ("a4",)).text == (
        "White placed a pebble on a4. White closed 2 mills: take 2 black pebbles, one at a "
        "time: lift one of the lit ones (d7, f2, d1 or g1).")
    game.play("xd7")
    status = matching_status(game, (), hands)
    assert (status.kind, status.owed, status.taken) == (StatusKind.REMOVAL, 1, 1)
    said = status_text(game, status)
    assert said == "white takes 1 more black pebble: lift one of the lit ones (f2, d1 or g1)"
    assert "closed" not in said  # not the mill's sentence again
    assert announcer.hear(game, status, ("xd7",)).text == (
        "White took the pebble on d7. White takes 1 more black pebble: lift one of the "
        "lit ones (f2, d1 or g1).")
    game.play("xf2")
    assert matching_status(game, (), hands).kind is StatusKind.IDLE
    # One mill, one pebble: the mill's own sentence.
    one = new_game("nine-mens-morris")  # a pebble per move, however many mills
    one.play_record("a1 d7 a7 g1 b4 d1 c4 f2 a4")
    status = matching_status(one, (), hands)
    assert status.owed == 1 and status_text(one, status).startswith("white closed a mill: lift")


def test_the_computer_adapting_to_the_person_names_the_level_it_plays_at():
    from navakankari.engine.player_spec import PlayerSpec, at_level
    from navakankari.firmware.core.announce import Announcer
    from navakankari.firmware.core.status import adaptive_level
    from navakankari.firmware.i18n.catalogs import translations

    adaptive = at_level(PlayerSpec.parse("computer:adaptive"), 4)
    players = {Side.WHITE: adaptive, Side.BLACK: PlayerSpec.parse("hand")}
    assert adaptive_level(players, Side.WHITE) == 4
    assert adaptive_level(players, Side.BLACK) is None  # the person's turn
    fixed = {Side.WHITE: PlayerSpec.parse("computer:4"), Side.BLACK: PlayerSpec.parse("hand")}
    assert adaptive_level(fixed, Side.WHITE) is None
    game = new_game(preset("nine-mens-morris"))
    thinking = Status(kind=StatusKind.THINKING, turn="white")
    level = adaptive_level(players, game.turn)
    assert status_text(game, thinking, level=level) == (
        "white (the computer, adapting, now level 4) is thinking")
    hindi = translations("hi")
    assert status_text(game, thinking, tr=hindi, level=level) == (
        "सफ़ेद (कंप्यूटर, अनुसार ढलता है, अभी स्तर 4) सोच रहा है")
    said = Announcer("en").hear(game, thinking, level=level)
    assert said is not None and said.text == (
        "White (the computer, adapting, now level 4) is thinking.")
