"""The on-board menu: every path on both boards, worked by scripted hands with knocks,
hesitations and slides, on the injected clock."""

from __future__ import annotations

import random

import pytest
from navakankari.engine.boards import BOARDS
from navakankari.engine.game import Side
from navakankari.engine.player import MAX_LEVEL
from navakankari.engine.presets import PRESETS, preset
from navakankari.engine.variants import new_game
from navakankari.firmware.core import lights
from navakankari.firmware.core.clockwork import drive, run_until
from navakankari.firmware.core.menu import (
    BRIGHTNESS_VALUES,
    GameChoice,
    Kind,
    Menu,
    MenuSettings,
    Step,
    layout,
    playable,
    player_specs,
)
from navakankari.firmware.core.palette import Role
from navakankari.firmware.i18n.catalogs import translations
from navakankari.hal.words import Phrase, phrase_of
from navakankari.firmware.core.players import HAND, PlayerSpec
from navakankari.firmware.core.session import CLEARED, Session
from navakankari.firmware.core.status import MismatchReason, StatusKind
from navakankari.firmware.core.tracker import confirm_point
from navakankari.firmware.core.wording import status_text
from navakankari.firmware.store.database import Store
from navakankari.sim.hands import ScriptedHands
from tables import SETTINGS

MENU = MenuSettings(hold=1.0, lift=0.3)
HANDS = {Side.WHITE: HAND, Side.BLACK: HAND}
MORRIS_POINTS = BOARDS["morris"].points
NKK_POINTS = BOARDS["lau-kata-kati"].points
BOTH = ("nine-mens-morris", "nau-keti-keta")  # a 24-point and a 19-point board



class MenuBoard:
    """A session with the menu, a store, and noisy hands on one clock."""

    def __init__(self, variant: str, store: Store | None, *, seed: int = 1,
                 players=HANDS) -> None:  # type: ignore[no-untyped-def]
        self.rules = preset(variant)
        self.board = new_game(self.rules).board
        self.session = Session(self.rules, players, settings=SETTINGS, store=store, menu=MENU,
                               variants=playable(self.board.points), seed=seed)
        self.hands = ScriptedHands((), rng=random.Random(seed), chatter=3, pause=0.5)
        self.now = 0.0
        self.steps: list[str] = []

    def run(self, until: float | None = None) -> "MenuBoard":
        events = self.hands.events[:]
        self.hands.events.clear()
        if until is None:
            self.now = drive(self, events, now=self.now)
        else:
            for event in events:
                self.now = run_until(self, event.t, self.now)
                self.feed(event)
                self.now = max(self.now, event.t)
                self.tick(self.now)
            self.now = run_until(self, until, self.now)
        self.hands.t = max(self.hands.t, self.now)
        return self

    # the clockwork protocol, noting each menu step passed through
    def feed(self, event) -> None:  # type: ignore[no-untyped-def]
        self.session.feed(event)

    def tick(self, now: float) -> None:
        self.session.tick(now)
        status = self.session.status
        if status.kind == StatusKind.MENU and (not self.steps or self.steps[-1] != status.menu_step):
            self.steps.append(status.menu_step)

    def deadline(self) -> float | None:
        return self.session.deadline()

    @property
    def status(self):  # type: ignore[no-untyped-def]
        return self.session.status

    def point(self, kind: Kind, value: str = "") -> str:
        menu = self.session.menu
        assert menu is not None, "the menu is not shown"
        return next(c.point for c in menu.choices() if c.kind == kind and (not value or c.value == value))

    def choose(self, kind: Kind, value: str = "", *, noise: bool = True) -> "MenuBoard":
        """Hold a pebble on the choice, then lift it; before that, with `noise`, a knocked
        pebble on another lit point and a hesitation on this one, which choose nothing."""
        point = self.point(kind, value)
        h = self.hands
        if noise:
            step, picked = self.status.menu_step, self.status.picked
            other = next(c.point for c in self.session.menu.choices() if c.point != point)
            h.place(other, chatter=0).wait(0.05).lift(other, chatter=0).wait(0.4)
            h.place(point).wait(MENU.hold * 0.6).lift(point).wait(0.8)
            self.run()
            assert (self.status.menu_step, self.status.picked) == (step, picked)
            assert not self.status.armed
        h.place(point).wait(MENU.hold + 0.3)
        self.run()
        assert self.status.kind == StatusKind.MENU and self.status.armed
        assert self.status.confirm_point == point
        assert lights.roles(self.session.game, self.status, self.now) == {point: Role.CONFIRM_LIFT}
        h.lift(point).wait(MENU.lift + 0.5)
        return self.run()


def test_the_layout_of_each_board():
    morris = layout(BOARDS["morris"])
    assert (morris.same, morris.back, morris.takeback, morris.brightness) == ("d5", "d3", "c5", "e5")
    assert (morris.speech, morris.language) == ("d6", "e4")  # above the centre; right, below
    assert morris.slots[:8] == ("a7", "d7", "g7", "b6", "f6", "a4", "b4", "c4")
    assert len(morris.slots) == 18
    nkk = layout(BOARDS["lau-kata-kati"])
    assert (nkk.same, nkk.back, nkk.takeback, nkk.brightness) == ("d4", "d3", "c5", "e5")
    assert (nkk.speech, nkk.language) == ("d5", "e3")
    assert len(nkk.slots) == 13
    # A menu recorded before speech and the language had points of their own.
    before = layout(BOARDS["morris"], own_steps=False)
    assert before.slots[:8] == ("a7", "d7", "g7", "b6", "d6", "f6", "a4", "b4")
    assert (before.speech, before.language, len(before.slots)) == ("", "", 20)
    for board in BOARDS.values():
        for own in (True, False):
            lay = layout(board, own)
            assert lay.same == confirm_point(board)
            points = [lay.same, lay.back, lay.takeback, lay.brightness, *lay.slots,
                      *((lay.speech, lay.language) if own else ())]
            assert sorted(points) == sorted(board.points)


def test_the_variants_come_from_the_presets_and_the_profile(monkeypatch):
    assert playable(MORRIS_POINTS) == tuple(n for n, r in PRESETS.items()
                                            if r.board != "lau-kata-kati")
    assert playable(NKK_POINTS) == ("nau-keti-keta",)
    assert set(playable(set(MORRIS_POINTS) | {"d4"})) == set(PRESETS)
    # A preset added later (the engine's "both fly at three") shows up without a change here.
    monkeypatch.setitem(PRESETS, "navakankari-flying", preset("navakankari").replace(
        name="navakankari-flying"))
    assert "navakankari-flying" in playable(MORRIS_POINTS)
    menu = Menu(BOARDS["morris"], playable(MORRIS_POINTS), player_specs(MAX_LEVEL), None)
    assert "navakankari-flying" in [c.value for c in menu.choices() if c.kind == Kind.VARIANT]


def test_a_menu_recorded_before_the_speech_and_language_steps_replays_as_it_was():
    from navakankari.firmware.core.recording_head import MenuStart, format_line, parse_line

    old = MenuSettings(speech_step=False)
    menu = Menu(BOARDS["morris"], playable(MORRIS_POINTS), player_specs(MAX_LEVEL), None,
                settings=old)
    assert {c.kind for c in menu.choices()} == {Kind.VARIANT, Kind.BRIGHTNESS}
    menu.see({"e5"}, 0.0)
    menu.tick(old.hold)
    menu.see((), old.hold + 0.1)
    menu.tick(old.hold + 0.1 + old.lift)
    kinds = [c.kind for c in menu.choices()]
    assert menu.step.value == "brightness" and kinds.count(Kind.LANGUAGE) == 8
    assert kinds.count(Kind.SPEECH) == 2
    # A menu line written then has no speech_step, and reads as that menu.
    last = GameChoice("navakankari", "hand", "hand")
    line = format_line(MenuStart(last, ("navakankari",), old, 1))
    assert ', "speech_step": false' in line
    read = parse_line(line.replace(', "speech_step": false', ""))
    assert read is not None and read.settings == old
    read = parse_line(format_line(MenuStart(last, ("navakankari",), MenuSettings(), 1)))
    assert read is not None and read.settings.speech_step


def test_players_are_every_level_of_the_engine_and_the_adaptive_computer():
    levels = tuple(f"computer:{n}" for n in range(1, MAX_LEVEL + 1))
    assert player_specs(MAX_LEVEL) == ("hand", *levels, "computer:adaptive", "remote")
    # a recording from before the adaptive computer replays through the menu it was made with
    assert player_specs(MAX_LEVEL, adaptive=False) == ("hand", *levels, "remote")
    for spec in player_specs(MAX_LEVEL):
        PlayerSpec.parse(spec)
    menu = Menu(BOARDS["morris"], playable(MORRIS_POINTS), player_specs(MAX_LEVEL), None)
    menu._s.step = Step.WHITE
    offered = {c.value: c.label for c in menu.choices() if c.kind == Kind.PLAYER}
    assert offered["computer:adaptive"] == "the computer, adapting its level to you"


def test_a_board_too_small_for_the_choices_is_a_clear_error():
    with pytest.raises(ValueError, match="menu points"):
        Menu(BOARDS["lau-kata-kati"], ("nau-keti-keta",), player_specs(20), None)


# -- the paths ---------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", BOTH)
def test_at_start_up_the_menu_shows_and_the_same_as_last_time_is_one_placement(variant, store):
    b = MenuBoard(variant, store).run()
    s = b.status
    assert s.kind == StatusKind.MENU and s.menu_step == "variant"
    assert b.session.game_id is None and store.games() == []  # nothing stored yet
    same = confirm_point(b.board)
    roles = lights.roles(b.session.game, s, b.now)
    assert roles[same] == Role.MENU_SAME
    assert roles[b.point(Kind.VARIANT, variant)] == Role.MENU_CURRENT
    assert "the same as last time" in status_text(b.session.game, s)
    b.choose(Kind.SAME)
    assert b.session.menu is None and b.session.rules.name == variant
    assert b.session.players == HANDS and b.session.game_id is not None
    start = set(b.board.names(new_game(b.rules).occupancy))
    if start:  # the board asks for the armies
        assert b.status.kind == StatusKind.MISMATCH and b.status.reason == MismatchReason.RESTORE
        assert set(b.status.to_fill) == start
        b.hands.setup(sorted(start))
        b.run()
    assert b.status.kind == StatusKind.IDLE
    first = b.session.game.legal_actions()[0]
    b.hands.perform(b.board, first)
    b.run()
    assert b.session.record() == first.text


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize("starter", ["white", "black"])
def test_choosing_every_step(variant, starter, store):
    b = MenuBoard(variant, store).run()
    target = b.session.dispatch.variants()[-1]
    b.choose(Kind.VARIANT, target)
    assert b.status.menu_step == "white" and b.status.picked == (target,)
    assert "who plays white" in status_text(b.session.game, b.status)
    b.choose(Kind.PLAYER, "hand")
    b.choose(Kind.PLAYER, f"computer:{MAX_LEVEL}")
    assert b.status.menu_step == "assist-white"  # the hand's help; the computer gets none
    assert "the help white gets" in status_text(b.session.game, b.status)
    b.choose(Kind.ASSIST, "3")
    assert b.status.menu_step == "starter"
    assert b.status.picked[-1] == "white help: move quality"
    b.choose(Kind.STARTER, starter)
    # Each side keeps the player chosen for it; the starter only moves first.
    expected = {Side.WHITE: PlayerSpec("hand", assist=3),
                Side.BLACK: PlayerSpec("computer", MAX_LEVEL)}
    assert b.session.menu is None and b.session.rules.name == target
    assert b.session.players == expected
    assert str(b.session.game.turn) == starter == str(b.session.first)
    assert b.steps == ["variant", "white", "black", "assist-white", "starter"]
    stored = store.load(b.session.game_id)
    assert stored.rules.name == target
    assert stored.players == {str(s): str(p) for s, p in expected.items()}
    assert (stored.start is None) == (starter == "white")
    assert b.session.keeper.choice == GameChoice(target, "hand:3", f"computer:{MAX_LEVEL}",
                                                 starter)


@pytest.mark.parametrize("variant", BOTH)
def test_every_step_can_go_back(variant, store):
    b = MenuBoard(variant, store).run()
    v = b.session.dispatch.variants()[0]
    b.choose(Kind.VARIANT, v).choose(Kind.BACK)
    assert b.status.menu_step == "variant" and b.status.picked == ()
    b.choose(Kind.VARIANT, v).choose(Kind.PLAYER, "remote").choose(Kind.BACK)
    assert b.status.menu_step == "white" and b.status.picked == (v,)
    b.choose(Kind.PLAYER, "computer:1").choose(Kind.PLAYER, "hand").choose(Kind.BACK)
    assert b.status.menu_step == "black"
    assert b.status.picked == (v, "white the computer at level 1")
    b.choose(Kind.PLAYER, "remote").choose(Kind.STARTER, "white")
    assert b.session.players == {Side.WHITE: PlayerSpec("computer", 1),
                                 Side.BLACK: PlayerSpec("remote")}
    assert b.steps == ["variant", "white", "variant", "white", "black", "white", "black",
                       "assist-black", "black", "starter"]


def toss_game(variant: str, seed: int) -> tuple[str, dict, list[str]]:
    """Choose a toss; the result the lights stopped on, the players, the steps."""
    b = MenuBoard(variant, None, seed=seed).run()
    b.choose(Kind.VARIANT, variant).choose(Kind.PLAYER, "hand")
    b.choose(Kind.PLAYER, "computer:2").choose(Kind.ASSIST, "1")
    h = b.hands
    point = b.point(Kind.STARTER, "toss")
    h.place(point).wait(MENU.hold + 0.3).lift(point).wait(SETTINGS.settle + MENU.lift + 0.15)
    b.run(until=h.t)
    status = b.status
    assert status.menu_step == "toss" and status.toss_ring
    end = status.toss_start + status.toss_steps * status.toss_step
    role = lights.roles(b.session.game, status, end)
    assert list(role.values()) == [Role.TOSS_WHITE if status.toss_result == "white"
                                   else Role.TOSS_BLACK]
    assert "a toss" in status_text(b.session.game, status)
    b.run()  # on until the toss is over and the game begins
    assert str(b.session.game.turn) == status.toss_result  # its side moves first
    return status.toss_result, dict(b.session.players), b.steps


@pytest.mark.parametrize("variant", BOTH)
def test_a_toss_runs_round_the_board_and_stops_on_a_colour(variant):
    results = set()
    for seed in range(1, 9):
        result, players, steps = toss_game(variant, seed)
        assert steps[-1] == "toss"
        # The hand keeps white, whoever the toss lets start.
        assert players == {Side.WHITE: HAND, Side.BLACK: PlayerSpec("computer", 2)}
        assert toss_game(variant, seed)[0] == result  # the same seed and hands: the same toss
        results.add(result)
    assert results == {"white", "black"}


def test_the_toss_light_moves_and_stops_on_the_colour_of_the_result():
    board = BOARDS["morris"]
    menu = Menu(board, ("nine-mens-morris",), player_specs(3), None,
                settings=MENU, rng=random.Random(5))
    lay = menu.layout

    def choose(point: str, t: float) -> float:
        menu.see({point}, t)
        menu.tick(t + MENU.hold)
        menu.see((), t + MENU.hold + 0.1)
        return t + MENU.hold + 0.1 + MENU.lift

    t = 0.0
    for point in (lay.slots[0], lay.slots[0], lay.slots[1], lay.slots[1]):  # ..., white's help
        t = choose(point, t)
        assert menu.tick(t) is None
    t = choose(lay.slots[2], t)  # the toss
    assert menu.tick(t) is None
    view = menu.view(t)
    toss = view.toss
    assert view.step == Step.TOSS and toss is not None and toss.steps >= 2 * len(lay.slots)
    from navakankari.firmware.core.status import Status

    status = Status(StatusKind.MENU, "white", t, toss_ring=toss.ring, toss_start=toss.start,
                    toss_step=toss.step, toss_steps=toss.steps, toss_result=toss.result)
    game = new_game(preset("nine-mens-morris"))
    seen = []
    now = t
    while now is not None and now < toss.start + toss.steps * toss.step + 1:
        frame = lights.roles(game, status, now)
        assert len(frame) == 1
        seen.append(next(iter(frame.items())))
        now = lights.next_change(game, status, now)
    assert len(seen) == toss.steps + 1  # one frame per step, none after it stops
    assert [p for p, _ in seen[:3]] == list(lay.slots[:3])
    last_role = seen[-1][1]
    assert last_role == (Role.TOSS_WHITE if toss.result == "white" else Role.TOSS_BLACK)
    assert menu.deadline() == toss.end
    chosen = menu.tick(toss.end)
    assert chosen is not None and chosen.kind == Kind.STARTER


@pytest.mark.parametrize("variant", BOTH)
def test_brightness_from_the_board(variant, store):
    b = MenuBoard(variant, store).run()
    b.choose(Kind.BRIGHTNESS)
    assert b.status.menu_step == "brightness"
    assert "LED brightness" in status_text(b.session.game, b.status)
    b.choose(Kind.BACK)
    assert b.status.menu_step == "variant" and b.session.brightness == 1.0
    b.choose(Kind.BRIGHTNESS).choose(Kind.BRIGHTNESS_VALUE, f"{BRIGHTNESS_VALUES[1]:g}")
    assert b.session.brightness == BRIGHTNESS_VALUES[1] and b.status.menu_step == "variant"


@pytest.mark.parametrize("variant", BOTH)
def test_speech_on_and_off_from_the_board_and_kept(variant, store):
    b = MenuBoard(variant, store).run()
    assert b.session.speech is None  # never chosen: the configuration decides
    speech = b.session.menu.layout.speech
    assert f"{speech} speech (turns it on)" in status_text(b.session.game, b.status)
    b.choose(Kind.SPEECH_STEP)  # one pebble on one point: speech is on, and its step shown
    assert b.session.speech is True and b.status.menu_step == "speech"
    assert store.setting("speech") == "on"
    text = status_text(b.session.game, b.status)
    on, off = b.point(Kind.SPEECH, "on"), b.point(Kind.SPEECH, "off")
    assert f"{on} speech on" in text and f"{off} speech off" in text and "LED" not in text
    b.choose(Kind.SPEECH, "off", noise=False)
    assert b.session.speech is False and b.status.menu_step == "variant"
    assert store.setting("speech") == "off"
    b.choose(Kind.SPEECH_STEP, noise=False).choose(Kind.BACK, noise=False)
    assert b.session.speech is True and b.status.menu_step == "variant"  # back keeps it on
    b.choose(Kind.BRIGHTNESS, noise=False)
    assert {kind for _, kind, _ in b.status.choices} == {"brightness-value", "back"}
    assert b.session.brightness == 1.0  # the brightness is its own choice


@pytest.mark.parametrize("variant", BOTH)
def test_the_language_chosen_by_pebbles_on_the_board_and_kept(variant, store):
    b = MenuBoard(variant, store).run()
    assert b.session.language == "en"
    b.choose(Kind.LANGUAGE_STEP)
    assert b.status.menu_step == "language"
    assert b.status.current == (b.point(Kind.LANGUAGE, "en"),)  # the one spoken now
    text = status_text(b.session.game, b.status)
    # Every language is lit by its own name in its own script.
    for code, name in (("gu", "ગુજરાતી"), ("kn", "ಕನ್ನಡ"), ("hi", "हिन्दी"), ("en", "English")):
        assert f"{b.point(Kind.LANGUAGE, code)} {name}" in text
    b.choose(Kind.LANGUAGE, "kn", noise=False)
    assert b.session.language == "kn" and store.setting("language") == "kn"
    assert b.status.menu_step == "variant"
    # The menu now speaks Kannada, the languages' names stay each in its own script.
    words = status_text(b.session.game, b.status, tr=b.session.dispatch.tr)
    assert "ಆರಿಸಿ" in words and "choose" not in words
    b.choose(Kind.LANGUAGE_STEP)
    assert "ગુજરાતી" in status_text(b.session.game, b.status, tr=b.session.dispatch.tr)
    assert b.status.current == (b.point(Kind.LANGUAGE, "kn"),)
    # A restart speaks the language kept, whatever the configuration says.
    again = Session(b.rules, HANDS, settings=SETTINGS, store=store, menu=MENU,
                    variants=playable(b.board.points), language="hi")
    assert again.language == "kn"


def play_and_clear(b: MenuBoard, plies: int) -> str:
    """Play `plies` legal actions by hand, then clear the board with the gesture."""
    game = b.session.game
    for _ in range(plies):
        b.hands.perform(b.board, game.legal_actions()[0])
        b.run()
    record = b.session.record()
    for p in sorted(b.hands.occupied):
        b.hands.lift(p).wait(0.15)
    point = confirm_point(b.board)
    b.hands.wait(0.6).place(point).wait(SETTINGS.clear_hold + 0.3).lift(point).wait(0.6)
    b.run()
    return record


@pytest.mark.parametrize("variant", BOTH)
def test_after_the_clear_board_gesture_the_menu_can_take_back_the_last_move(variant, store):
    b = MenuBoard(variant, store).run()
    b.choose(Kind.SAME)
    start = sorted(b.board.names(new_game(b.rules).occupancy))
    b.hands.setup(start)
    b.run()
    gid = b.session.game_id
    record = play_and_clear(b, 4)
    assert b.status.kind == StatusKind.MENU
    assert store.load(gid).outcome == {"winner": None, "reason": CLEARED}
    assert b.point(Kind.TAKEBACK) == layout(b.board).takeback
    b.choose(Kind.TAKEBACK)
    assert b.session.menu is None and b.session.game_id == gid
    assert b.session.record() == " ".join(record.split()[:-1])
    assert not store.load(gid).finished and store.last_unfinished().id == gid
    assert b.status.kind == StatusKind.MISMATCH and b.status.reason == MismatchReason.RESTORE
    want = set(b.board.names(b.session.game.occupancy))
    for p in sorted(want):
        b.hands.place(p).wait(0.15)
    b.hands.wait(0.5)
    b.run()
    assert b.status.kind == StatusKind.IDLE


@pytest.mark.parametrize("variant", BOTH)
def test_a_game_that_ends_then_an_empty_board_shows_the_menu(variant, store):
    from tables import random_game

    rules = preset(variant)
    ref = next(g for g in (random_game(rules, seed=s, plies=400) for s in range(40))
               if g.outcome() is not None and g.outcome().winner is not None)
    b = MenuBoard(variant, store).run()
    b.choose(Kind.SAME)
    start = sorted(b.board.names(new_game(rules).occupancy))
    b.hands.setup(start)
    b.hands.chatter = 0
    for action in ref.history:
        b.hands.perform(b.board, action)
    b.run()
    assert b.session.record() == ref.record() and b.status.kind == StatusKind.OVER
    for p in sorted(b.hands.occupied):
        b.hands.lift(p).wait(0.1)
    b.hands.wait(0.5)
    b.run()
    assert b.status.kind == StatusKind.MENU
    assert b.point(Kind.TAKEBACK)  # the finished game can be reopened too
    b.choose(Kind.SAME)
    assert b.session.record() == "" and b.session.menu is None


def test_nau_keti_keta_armies_set_up_in_the_menu_start_the_same_game(store):
    b = MenuBoard("nau-keti-keta", store).run()
    start = sorted(b.board.names(new_game(b.rules).occupancy))
    b.hands.setup(start)
    b.run()
    assert b.session.menu is None and b.status.kind == StatusKind.IDLE
    assert b.session.rules.name == "nau-keti-keta"


@pytest.mark.parametrize("variant", BOTH)
def test_knocks_slides_and_two_pebbles_choose_nothing(variant, store):
    b = MenuBoard(variant, store).run()
    lay = layout(b.board)
    v = b.point(Kind.VARIANT, b.session.dispatch.variants()[0])
    h = b.hands
    # Knocks: pebbles brushed over lit points, each shorter than the settle time.
    for p in lay.slots[:6]:
        h.place(p, chatter=2).wait(0.08).lift(p, chatter=2).wait(0.05)
    h.wait(1.0)
    # A slide across lit points to an unlit... every point is lit here: slide off the board
    # edge instead, passing over choices.
    h.place(v).wait(0.3)
    h.slide([v, lay.slots[1], lay.slots[2], lay.slots[3]])
    h.wait(0.5).lift(lay.slots[3]).wait(1.0)
    # Held long enough, then slid to another point (not lifted): nothing.
    h.place(v).wait(MENU.hold + 0.3)
    h.slide([v, lay.slots[4]], step=0.1)
    h.wait(0.5).lift(lay.slots[4]).wait(1.0)
    # Two pebbles down, one on a choice held long: nothing.
    h.place(v).place(lay.slots[5]).wait(MENU.hold + 0.5).lift(lay.slots[5]).wait(0.1)
    h.lift(v).wait(1.0)
    b.run()
    assert b.steps == ["variant"] and b.status.picked == () and b.session.menu is not None
    assert b.status.kind == StatusKind.MENU and not b.status.holding


def test_the_computer_is_not_asked_while_the_menu_shows(store):
    b = MenuBoard("nine-mens-morris", store,
                  players={Side.WHITE: PlayerSpec("computer", 1), Side.BLACK: HAND}).run()
    assert b.session.answers.computer_request() is None
    with pytest.raises(ValueError, match="menu") as refused:
        b.session.answers.remote_move("d6", b.now)
    refusal = phrase_of(refused.value)  # the page words it in its language
    assert isinstance(refusal, Phrase) and "मेनू" in refusal.words(translations("hi"))
    b.choose(Kind.SAME)
    assert b.session.answers.computer_request() is not None


def test_the_menu_settings_are_checked():
    with pytest.raises(ValueError, match="hold"):
        MenuSettings(hold=-1)
    with pytest.raises(ValueError, match="toss"):
        MenuSettings(toss_laps=0)


def test_the_same_as_last_time_is_the_last_stored_game(store):
    game = store.new_game(preset("lasker"), {"white": "computer:2", "black": "hand"})
    store.finish(game, {"winner": None, "reason": "cleared"})  # unfinished, it is resumed
    b = MenuBoard("nine-mens-morris", store).run()
    assert b.session.menu.last == GameChoice("lasker", "computer:2", "hand")
    b.choose(Kind.SAME)
    assert b.session.rules.name == "lasker"
    assert b.session.players[Side.WHITE] == PlayerSpec("computer", 2)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 6])  # tosses either side wins
def test_a_game_chosen_on_the_board_is_stored_with_its_menu_and_replays_to_it(seed, store, tmp_path,
                                                                              capsys):
    """The stored recording of a game chosen on the board starts with the menu; replayed
    with --menu it makes the same choices (the toss included) and the same game."""
    import json

    from navakankari.firmware.cli import main as cli

    b = MenuBoard("nine-mens-morris", store, seed=0)
    b.hands.t = 0.7 + seed * 0.0371  # the toss depends on when the hands act
    b.run()
    b.choose(Kind.VARIANT, "lasker").choose(Kind.PLAYER, "hand").choose(Kind.PLAYER, "computer:1")
    b.choose(Kind.ASSIST, "2")  # the hand's help: kept in the recording, replayed the same
    h = b.hands
    point = b.point(Kind.STARTER, "toss")
    h.place(point).wait(MENU.hold + 0.3).lift(point).wait(3.0)
    b.run()
    session = b.session
    assert session.menu is None and session.rules.name == "lasker"
    from navakankari.engine.player import RandomPlayer
    from navakankari.firmware.core.players import computer_turn

    computer = {side: RandomPlayer(int(side)) for side in Side}  # as the replay's (seed 0)
    for _ in range(3):  # hands answer the computer's moves, the computer answers theirs
        request = session.answers.computer_request()
        if request is not None:
            actions = computer_turn(computer[request.side], request.game)
            session.answers.offer(request, actions, b.now)
            for a in actions:
                h.perform(b.board, a)
        else:
            h.perform(b.board, session.game.legal_actions()[0])
        b.run()
    assert len(session.game.history) >= 3
    path = tmp_path / "menu.jsonl"
    path.write_text(store.events_jsonl(session.game_id))
    assert cli.main(["replay", str(path), "--variant", "nine-mens-morris", "--menu",
                     "--profile", "sim-24", "--menu-hold", f"{MENU.hold:g}", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    # The recording's first line says how the menu stood: no switch is needed.
    assert path.read_text().startswith("# navakankari-menu ")
    assert cli.main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == result
    assert result["variant"] == "lasker"
    assert (result["white"], result["black"]) == (str(session.players[Side.WHITE]),
                                                  str(session.players[Side.BLACK]))
    assert result["white"] == "hand:2"  # the help chosen, replayed; the hand keeps white
    first = session.game.copy()
    while first.history:
        first.pop()
    assert result["first"] == str(first.turn)  # the toss's side moved first, replayed too
    assert result["actions"] == [a.text for a in session.game.history]


def test_the_status_line_words_each_step_and_the_held_pebble(store):
    b = MenuBoard("nine-mens-morris", store).run()
    game = b.session.game
    text = status_text(game, b.status)
    assert text.startswith("menu, choose the game: hold a pebble on a lit point for 1 s")
    assert "d5 the same as last time (nine-mens-morris, white a hand on the board, black a hand on the board)" in text
    assert "e5 LED brightness" in text and "c5" not in text  # nothing to take back yet
    point = b.point(Kind.VARIANT, "lasker")
    b.hands.place(point).wait(0.5)
    b.run(until=b.hands.t)
    assert status_text(game, b.status) == \
        f"keep the pebble on {point} for 1 s, then lift it, to choose lasker"
    assert lights.roles(game, b.status, b.now) == {point: Role.CONFIRM_HOLD}
    b.hands.wait(1.0)
    b.run(until=b.hands.t)
    assert status_text(game, b.status) == f"lift the pebble from {point} now to choose lasker"
    b.hands.lift(point).wait(1.0)
    b.run()
    text = status_text(game, b.status)
    assert text.startswith("menu, choose who plays white (lasker)")
    assert "a7 a hand on the board" in text and f"computer at level {MAX_LEVEL}" in text
    assert "remote (the companion)" in text and "d3 back" in text
    roles = lights.roles(game, b.status, b.now)
    assert roles[layout(b.board).back] == Role.MENU_BACK
    assert roles["a7"] == Role.MENU_CURRENT  # hand, as last time


def test_each_hand_side_chooses_its_help_and_back_undoes_it(store):
    b = MenuBoard("nine-mens-morris", store).run()
    b.choose(Kind.VARIANT, "nine-mens-morris").choose(Kind.PLAYER, "hand")
    b.choose(Kind.PLAYER, "hand")
    assert b.status.menu_step == "assist-white"
    assert b.status.current == (b.point(Kind.ASSIST, "1"),)  # last time's: the default
    assert [label for _, kind, label in b.status.choices if kind == "assist"] == [
        "help: none", "help: legal moves", "help: threats", "help: move quality",
        "help: best move on request"]
    b.choose(Kind.ASSIST, "4")
    assert b.status.menu_step == "assist-black"
    assert "the help black gets" in status_text(b.session.game, b.status)
    b.choose(Kind.BACK)
    assert b.status.menu_step == "assist-white" and b.status.picked[-1] == "black a hand on the board"
    b.choose(Kind.ASSIST, "0").choose(Kind.ASSIST, "3").choose(Kind.STARTER, "white")
    assert b.session.players == {Side.WHITE: PlayerSpec("hand", assist=0),
                                 Side.BLACK: PlayerSpec("hand", assist=3)}
    assert store.load(b.session.game_id).players == {"white": "hand:0", "black": "hand:3"}
    assert b.steps == ["variant", "white", "black", "assist-white", "assist-black",
                       "assist-white", "assist-black", "starter"]


def _step_roles(b: MenuBoard) -> set[Role]:
    """The lights of the step's own choices (not the fixed points, not last time's)."""
    roles = lights.roles(b.session.game, b.status, b.now)
    fixed = {Role.MENU_BACK, Role.MENU_SAME, Role.MENU_CURRENT, Role.MENU_TAKEBACK}
    return set(roles.values()) - fixed


def test_each_step_lights_its_choices_in_its_own_colour(store):
    b = MenuBoard("nine-mens-morris", store).run()
    b.choose(Kind.SAME)
    b.run()
    play_and_clear(b, 4)  # a game to take back: c5 takes back, e5 is the brightness
    roles = lights.roles(b.session.game, b.status, b.now)
    lay = layout(b.board)
    assert roles[lay.takeback] == Role.MENU_TAKEBACK
    assert roles[lay.brightness] == Role.MENU_BRIGHTNESS
    assert _step_roles(b) == {Role.MENU_CHOICE, Role.MENU_BRIGHTNESS}
    seen = [("variant", {Role.MENU_CHOICE})]
    b.choose(Kind.VARIANT, "lasker")
    seen.append((b.status.menu_step, _step_roles(b)))
    b.choose(Kind.PLAYER, "hand")
    seen.append((b.status.menu_step, _step_roles(b)))
    b.choose(Kind.PLAYER, "hand")
    seen.append((b.status.menu_step, _step_roles(b)))
    b.choose(Kind.ASSIST, "2")
    seen.append((b.status.menu_step, _step_roles(b)))
    b.choose(Kind.ASSIST, "2")
    roles = lights.roles(b.session.game, b.status, b.now)
    assert b.status.menu_step == "starter"
    assert [roles[b.point(Kind.STARTER, v)] for v in ("white", "black", "toss")] == [
        Role.MENU_WHITE, Role.MENU_BLACK, Role.MENU_TOSS]
    assert seen == [("variant", {Role.MENU_CHOICE}), ("white", {Role.MENU_WHITE}),
                    ("black", {Role.MENU_BLACK}), ("assist-white", {Role.MENU_HELP_WHITE}),
                    ("assist-black", {Role.MENU_HELP_BLACK})]
    b.choose(Kind.BACK).choose(Kind.BACK).choose(Kind.BACK).choose(Kind.BACK)
    b.choose(Kind.BACK)
    b.choose(Kind.BRIGHTNESS)
    assert b.status.menu_step == "brightness" and _step_roles(b) == {Role.MENU_BRIGHTNESS}


def test_after_a_choice_the_step_it_was_made_in_does_not_light_again(store):
    """Between the lift and the next step (the settle, then the board empty for `lift`
    seconds) only the chosen point stays lit, as it was armed: no frame of the old step."""
    b = MenuBoard("nine-mens-morris", store).run()
    for kind, value in ((Kind.VARIANT, "lasker"), (Kind.PLAYER, "hand")):
        step = b.status.menu_step
        point = b.point(kind, value)
        b.hands.place(point).wait(MENU.hold + 0.3)
        b.run()
        assert b.status.armed
        b.hands.lift(point, chatter=0)
        lifted = b.hands.t
        b.run(until=lifted)
        frames = []
        t = lifted
        while b.status.menu_step == step:
            t += 0.01
            b.run(until=t)
            frames.append(lights.roles(b.session.game, b.status, b.now))
            assert t < lifted + 2, "the choice was never made"
        assert all(f == {point: Role.CONFIRM_LIFT} for f in frames[:-1]), frames
        assert len(frames) > 20  # the settle and `lift` took this many hundredths
        assert Role.CONFIRM_LIFT not in frames[-1].values()  # the next step, at once


def test_a_game_black_began_resumes_so_and_the_same_as_last_time_begins_so_again(store):
    b = MenuBoard("nine-mens-morris", store).run()
    b.choose(Kind.VARIANT, "lasker").choose(Kind.PLAYER, "hand").choose(Kind.PLAYER, "hand")
    b.choose(Kind.ASSIST, "1").choose(Kind.ASSIST, "1").choose(Kind.STARTER, "black")
    assert b.session.first == Side.BLACK and b.status.turn == "black"
    for point in ("d6", "f4"):  # black's pebble, then white's
        b.hands.place(point).wait(0.6)
        b.run()
    assert b.session.record() == "d6 f4"
    again = MenuBoard("nine-mens-morris", store).run()  # a restart: the game resumes
    assert again.session.game_id == b.session.game_id and again.session.first == Side.BLACK
    assert again.session.record() == "d6 f4" and again.status.turn == "black"
    # Ended (the new session's sensors read an empty board): the menu opens.
    again.session.end_game(again.now, {"winner": None, "reason": CLEARED}, "cleared")
    again.run()
    assert again.session.menu is not None
    assert again.session.menu.last == GameChoice("lasker", "hand", "hand", "black")
    again.choose(Kind.SAME)
    assert again.session.menu is None and again.session.first == Side.BLACK
    assert again.session.game.turn == Side.BLACK and again.session.record() == ""


class _Heard:
    """A speaker that keeps what it is given."""

    problem = None

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, utterance) -> None:  # type: ignore[no-untyped-def]
        self.said.append(utterance.text)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("variant", BOTH)
def test_with_speech_off_the_menu_says_once_how_to_turn_it_on(variant, store):
    from navakankari.firmware.core.update import Update
    from navakankari.firmware.daemon.speaking import Speech
    from navakankari.firmware.i18n.catalogs import translations

    b = MenuBoard(variant, store).run()
    b.session.dispatch.set_language("hi", b.now)
    speaker = _Heard()
    speech = Speech(speaker, enabled=False, language="hi", tr=translations("hi"), way_in=True)
    silent = Speech(_Heard(), enabled=False, language="hi", tr=translations("hi"))

    def hear() -> None:
        speech.enabled = bool(b.session.speech)
        for voice in (speech, silent):
            voice.heard(b.session.game, Update("status", b.status, 0))

    hear()
    point = b.session.menu.layout.speech
    assert len(speaker.said) == 1 and point in speaker.said[0]
    assert "कंकड़" in speaker.said[0] and "Speech" not in speaker.said[0]  # in Hindi
    hear()
    b.choose(Kind.BRIGHTNESS, noise=False)
    hear()
    b.choose(Kind.BACK, noise=False)
    hear()
    assert len(speaker.said) == 1  # once a visit: a player who wants silence keeps it
    assert silent.speaker.said == []  # no speaker to hear it: nothing said
    b.choose(Kind.SPEECH_STEP, noise=False)  # the pebble the sentence asked for
    hear()
    assert b.session.speech is True and len(speaker.said) == 2
    on = b.point(Kind.SPEECH, "on")
    assert on in speaker.said[1]  # the speech step, said with its points


@pytest.mark.parametrize("variant", BOTH)
def test_with_speech_off_each_visit_of_the_menu_says_how_to_turn_it_on(variant, store):
    """Said once a visit, not once a run: a player who comes back to the menu after a game
    (or who missed it the first time) hears the way in again; within a visit it is not
    repeated, so a player who wants silence keeps it while choosing."""
    from navakankari.firmware.core.update import Update
    from navakankari.firmware.daemon.speaking import Speech

    b = MenuBoard(variant, store).run()
    speaker = _Heard()
    speech = Speech(speaker, enabled=False, way_in=True)

    def hear() -> None:
        speech.heard(b.session.game, Update("status", b.status, 0))

    hear()
    hear()
    assert len(speaker.said) == 1 and "Speech is off" in speaker.said[0]
    b.choose(Kind.SAME)  # a game: the visit is over
    b.hands.setup(sorted(b.board.names(new_game(b.rules).occupancy)))
    b.run()
    hear()
    assert b.status.kind != StatusKind.MENU and len(speaker.said) == 1
    play_and_clear(b, 2)  # the game cleared away: the menu again
    assert b.status.kind == StatusKind.MENU
    hear()
    hear()
    assert len(speaker.said) == 2 and speaker.said[1] == speaker.said[0]
