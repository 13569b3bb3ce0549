from __future__ import annotations

import io
import random
import re
import sqlite3

import pytest
from navakankari.engine.game import Side
from navakankari.engine.player import RandomPlayer
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.firmware.cli.replay import read_recording, replay, summary
from navakankari.firmware.core.clockwork import drive
from navakankari.firmware.core.players import HAND, PlayerSpec, computer_turn
from navakankari.firmware.core.menu import MenuSettings
from navakankari.firmware.core.session import Session
from navakankari.firmware.core.status import MismatchReason, StatusKind
from navakankari.firmware.i18n.catalogs import LANGUAGES, SOURCE, translations
from navakankari.firmware.store.database import Store
from navakankari.hal.words import Phrase, phrase_of
from navakankari.sim.hands import ScriptedHands
from tables import SETTINGS, random_game

NINE = preset("nine-mens-morris")
HANDS = {Side.WHITE: HAND, Side.BLACK: HAND}
VS_COMPUTER = {Side.WHITE: HAND, Side.BLACK: PlayerSpec("computer", 1)}



def play(session: Session, hands: ScriptedHands, now: float) -> float:
    events = hands.events[:]
    hands.events.clear()
    return drive(session, events, now=now)


def test_the_store_uses_wal_and_full_sync(tmp_path, store):
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_committed_actions_are_stored_and_a_new_session_resumes_them(store):
    session = Session(NINE, HANDS, settings=SETTINGS, store=store)
    hands = ScriptedHands((), pause=0.5)
    for p in ("d6", "a4", "e3"):
        hands.place(p).wait(0.5)
    now = play(session, hands, 0.0)
    assert session.record() == "d6 a4 e3"
    stored = store.last_unfinished()
    assert stored is not None and stored.actions == ("d6", "a4", "e3")
    assert stored.rules == NINE and stored.players == {"white": "hand", "black": "hand"}
    # Restart with a pebble moved while the daemon was down: resume, show what to fix.
    again = Session(NINE, {Side.WHITE: HAND, Side.BLACK: PlayerSpec("computer")},
                    settings=SETTINGS, store=store, occupied={"d6", "a4", "b2"}, now=100.0)
    assert again.players[Side.BLACK] == HAND  # the stored game's players
    assert again.rules == NINE and again.record() == "d6 a4 e3"
    s = again.status
    assert s.kind == StatusKind.MISMATCH and s.reason == MismatchReason.RESTORE
    assert s.to_fill == ("e3",) and s.to_empty == ("b2",)
    assert again.game_id == session.game_id == stored.id  # the same game, not a new one
    assert store.games() == [store.load(stored.id)]
    assert now == 1.0 + SETTINGS.settle  # e3 set down at 1.0 s, committed once settled


def test_actions_are_in_the_store_before_subscribers_hear_of_them(store):
    session = Session(NINE, HANDS, settings=SETTINGS, store=store)
    seen = []

    def listener(update):
        if update.actions:
            other = sqlite3.connect(str(store.path))
            rows = other.execute("SELECT text FROM actions ORDER BY ply").fetchall()
            other.close()
            seen.append((update.actions, [r[0] for r in rows]))

    unsubscribe = session.subscribe(listener)
    hands = ScriptedHands((), pause=0.5)
    hands.place("d6").wait(0.5).place("a1").wait(0.5)
    play(session, hands, 0.0)
    assert seen == [(("d6",), ["d6"]), (("a1",), ["d6", "a1"])]
    unsubscribe()
    hands.place("g7").wait(0.5)
    play(session, hands, 10.0)
    assert len(seen) == 2


def test_a_placement_and_its_removal_settled_together_are_both_stored(store):
    session = Session(NINE, HANDS, settings=SETTINGS, store=store)
    commits = []
    session.subscribe(lambda update: commits.append(update.actions) if update.actions else None)
    hands = ScriptedHands((), pause=0.5)
    for p in ("a7", "b6", "d7", "f6"):
        hands.place(p).wait(0.5)
    hands.place("g7").wait(0.05).lift("b6").wait(0.5)  # faster than the settle time
    now = play(session, hands, 0.0)
    assert commits[-1] == ("g7", "xb6")  # one commit of two actions
    assert store.load(session.game_id).actions == ("a7", "b6", "d7", "f6", "g7", "xb6")
    hands.place("b6").wait(0.5)  # play on after it: the next ply follows the removal
    play(session, hands, now)
    assert store.load(session.game_id).actions == ("a7", "b6", "d7", "f6", "g7", "xb6", "b6")


def test_the_store_keeps_every_action_of_one_append(store):
    game = store.new_game(NINE, {"white": "hand", "black": "hand"}, created=1.0)
    store.append(game, 0, ["a7", "b6", "d7", "f6"], t=2.0)
    store.append(game, 4, ["g7", "xb6"], t=3.0)
    store.append(game, 6, ["a1"], t=4.0)
    assert store.load(game).actions == ("a7", "b6", "d7", "f6", "g7", "xb6", "a1")
    rows = store._db.execute("SELECT ply, text, t FROM actions WHERE game = ? ORDER BY ply",
                             (game,)).fetchall()
    assert rows == [(0, "a7", 2.0), (1, "b6", 2.0), (2, "d7", 2.0), (3, "f6", 2.0),
                    (4, "g7", 3.0), (5, "xb6", 3.0), (6, "a1", 4.0)]


def test_the_computer_is_asked_and_its_turn_is_shown_then_followed(store):
    session = Session(NINE, VS_COMPUTER, settings=SETTINGS, store=store)
    hands = ScriptedHands((), pause=0.5)
    hands.place("d6").wait(0.5)
    now = play(session, hands, 0.0)
    assert session.status.kind == StatusKind.THINKING
    request = session.answers.computer_request()
    assert request is not None and request.side == Side.BLACK
    assert session.answers.computer_request() is request
    actions = computer_turn(RandomPlayer(seed=1), request.game)
    assert session.answers.offer(request, actions, now)
    assert session.status.kind == StatusKind.EXECUTING
    assert session.status.forced == tuple(a.text for a in actions)
    hands.t = now + 0.5
    for a in actions:
        hands.perform(session.game.board, a)
    now = play(session, hands, now)
    assert session.record() == "d6 " + " ".join(a.text for a in actions)
    assert session.status.kind == StatusKind.IDLE
    assert store.last_unfinished().actions == tuple(session.record().split())


def test_a_stale_computer_answer_is_ignored_after_a_takeback(store):
    session = Session(NINE, VS_COMPUTER, settings=SETTINGS, store=store)
    hands = ScriptedHands((), pause=0.5)
    hands.place("d6").wait(0.5)
    now = play(session, hands, 0.0)
    request = session.answers.computer_request()
    session.takeback(now)
    assert session.record() == "" and store.last_unfinished().actions == ()
    assert session.status.kind == StatusKind.MISMATCH and session.status.to_empty == ("d6",)
    assert not session.answers.offer(request, computer_turn(RandomPlayer(seed=1), request.game), now)


def test_takeback_to_an_earlier_position_and_play_on(store):
    session = Session(NINE, HANDS, settings=SETTINGS, store=store)
    hands = ScriptedHands((), pause=0.5)
    for p in ("d6", "a4", "e3", "b2"):
        hands.place(p).wait(0.5)
    now = play(session, hands, 0.0)
    session.takeback_to(now, 2)
    assert session.record() == "d6 a4"
    assert set(session.status.to_empty) == {"e3", "b2"}
    hands.t = now + 1
    hands.lift("e3").wait(0.3).lift("b2").wait(0.5).place("g7").wait(0.5)
    now = play(session, hands, now)
    assert session.record() == "d6 a4 g7"
    assert store.last_unfinished().actions == ("d6", "a4", "g7")


def test_remote_moves_are_shown_and_only_they_are_accepted(store):
    players = {Side.WHITE: HAND, Side.BLACK: PlayerSpec("remote")}
    session = Session(NINE, players, settings=SETTINGS, store=store)
    hands = ScriptedHands((), pause=0.5)
    hands.place("d6").wait(0.5)
    now = play(session, hands, 0.0)
    with pytest.raises(ValueError):
        session.takeback_to(now, 5)
    session.answers.remote_move("a1", now)
    assert session.status.kind == StatusKind.EXECUTING and session.status.forced_to == ("a1",)
    hands.t = now + 0.5
    hands.place("g1").wait(2.0)
    now = play(session, hands, now)
    assert session.record() == "d6"
    hands.lift("g1").wait(0.3).place("a1").wait(0.5)
    play(session, hands, now)
    assert session.record() == "d6 a1"


@pytest.mark.parametrize("code", [c for c in LANGUAGES if c != SOURCE])
def test_a_remote_move_for_a_side_played_here_is_refused_in_the_players_language(store, code):
    session = Session(NINE, HANDS, settings=SETTINGS, store=store)
    with pytest.raises(ValueError) as refused:
        session.answers.remote_move("d6", 0.0)
    phrase = phrase_of(refused.value)
    assert isinstance(phrase, Phrase) and phrase == "white is not a remote player"
    words = phrase.words(translations(code))
    assert translations(code).gettext("white") in words and not re.search("[A-Za-z]", words)


def test_setting_up_the_start_position_after_a_game_starts_the_next(store):
    finished = random_game(NINE, seed=3, plies=400)
    assert finished.outcome() is not None
    session = Session(NINE, HANDS, settings=SETTINGS, store=store)
    hands = ScriptedHands((), pause=0.3)
    replica = new_game(NINE)
    for a in finished.history:
        hands.perform(replica.board, a)
        replica.push(a)
    now = play(session, hands, 0.0)
    assert session.record() == finished.record()
    first_id = session.game_id
    stored = store.load(first_id)
    assert stored.finished and stored.actions == tuple(finished.record().split())
    # Black won: white is down to two pebbles (seed 3 ends so).
    assert finished.pieces(Side.WHITE).bit_count() + finished.in_hand(Side.WHITE) == 2
    assert stored.outcome == finished.outcome().to_dict()
    assert stored.outcome["winner"] == "black"
    assert session.status.kind == StatusKind.OVER
    for p in sorted(hands.occupied):
        hands.lift(p).wait(0.1)
    play(session, hands, now)
    assert session.game_id != first_id and session.record() == ""
    assert session.status.kind == StatusKind.IDLE


def test_the_stored_raw_events_replay_to_the_same_game(store):
    rules = preset("navakankari")
    ref = random_game(rules, seed=5, plies=60)
    session = Session(rules, HANDS, settings=SETTINGS, store=store)
    hands = ScriptedHands((), rng=random.Random(2), chatter=3, pause=0.5)
    replica = new_game(rules)
    for a in ref.history:
        hands.perform(replica.board, a)
        replica.push(a)
    play(session, hands, 3.0)
    session.flush_events()
    assert session.record() == ref.record()
    text = store.events_jsonl(session.game_id)
    again = replay(read_recording(io.StringIO(text)), rules, settings=SETTINGS)
    assert summary(again)["actions"] == [a.text for a in ref.history]
    assert summary(again)["position"] == ref.position()


def test_nau_keti_keta_replay_sets_up_then_plays():
    rules = preset("nau-keti-keta")
    ref = random_game(rules, seed=9, plies=30)
    hands = ScriptedHands((), chatter=2, rng=random.Random(1), pause=0.5)
    start = new_game(rules)
    hands.setup(start.board.names(start.occupancy))
    for a in ref.history:
        hands.perform(start.board, a, order="take-first")
        start.push(a)
    session = replay(hands.events, rules, settings=SETTINGS)
    out = summary(session)
    assert out["actions"] == [a.text for a in ref.history]
    assert out["position"] == ref.position()


def test_replay_with_a_computer_side_answers_it():
    players = {Side.WHITE: HAND, Side.BLACK: PlayerSpec("computer", 1)}
    session = replay(ScriptedHands(()).place("d6").wait(0.5).events, NINE, players=players,
                     settings=SETTINGS)
    assert session.status.kind == StatusKind.EXECUTING
    assert len(session.game.history) == 1 and len(session.status.forced) == 1


def test_events_are_bounded(tmp_path):
    store = Store(tmp_path / "g.sqlite3", events_kept=50)
    session = Session(NINE, HANDS, settings=SETTINGS, store=store)
    hands = ScriptedHands((), pause=0.0)
    for _ in range(200):
        hands.place("d6").wait(0.01).lift("d6").wait(0.01)
    play(session, hands, 0.0)
    session.flush_events()
    assert len(store.events(session.game_id)) == 50
    store.close()


def test_the_status_is_json_ready(store):
    import json
    session = Session(NINE, VS_COMPUTER, settings=SETTINGS, store=store)
    status = json.loads(json.dumps(session.status.to_dict()))
    assert session.rules.name == "nine-mens-morris"
    assert {str(s): str(p) for s, p in session.players.items()} == {
        "white": "hand", "black": "computer:1"}
    assert status["kind"] == "idle" and len(session.frame(0.0)) == 24


def test_set_players_mid_game(store):
    session = Session(NINE, HANDS, settings=SETTINGS, store=store)
    session.set_players(0.0, {Side.WHITE: PlayerSpec("computer", 2)})
    assert session.status.kind == StatusKind.THINKING
    assert store.last_unfinished().players["white"] == "computer:2"


def test_the_bench_measures_commits():
    from navakankari.firmware.tools.bench import settle_to_frame

    commits, others = settle_to_frame("six-mens-morris", store_dir=None, games=1)
    assert len(commits) > 10 and all(s >= 0 for s in commits + others)


def test_a_game_of_another_variant_is_resumed_the_configured_one_is_for_new_games(store, caplog):
    """The configuration's variant names the default for a new game: a game chosen on the
    board (or the page) is the board's game, and a restart resumes it."""
    session = Session(NINE, HANDS, settings=SETTINGS, store=store)
    hands = ScriptedHands((), pause=0.5)
    hands.place("d6").wait(0.5)
    play(session, hands, 0.0)
    with caplog.at_level("INFO", logger="navakankari"):
        again = Session(preset("lasker"), HANDS, settings=SETTINGS, store=store,
                        occupied={"d6"}, menu=MenuSettings(),
                        variants=("navakankari", "nine-mens-morris", "lasker"))
    assert again.rules == NINE and again.record() == "d6"
    assert again.game_id == session.game_id and again.menu is None
    assert "resumed game" in caplog.text and "not resuming" not in caplog.text
    # Without the profile's variants (no menu), a game on the same board is resumed too.
    assert Session(preset("lasker"), HANDS, settings=SETTINGS, store=store,
                   occupied={"d6"}).game_id == session.game_id


def test_a_game_this_board_cannot_play_is_not_resumed(store, caplog):
    kata = preset("nau-keti-keta")
    game = store.new_game(kata, {"white": "hand", "black": "computer:2"})
    store.append(game, 0, ["c3-d4"])
    # On a board with both (the simulator's), it is resumed whatever the default says.
    both = Session(NINE, HANDS, settings=SETTINGS, store=store,
                   variants=("nine-mens-morris", "nau-keti-keta"))
    assert (both.rules, both.game_id, both.record()) == (kata, game, "c3-d4")
    with caplog.at_level("INFO", logger="navakankari"):
        other = Session(NINE, HANDS, settings=SETTINGS, store=store,
                        variants=("nine-mens-morris", "lasker"))
    assert other.rules == NINE and other.record() == ""
    assert other.game_id != game
    assert store.load(game).finished  # the old one is closed as abandoned
    assert f"not resuming game {game}: it is nau-keti-keta, which this board cannot play" \
        in caplog.text


def test_a_computer_answer_arriving_while_the_board_is_disturbed_is_shown_later(store):
    session = Session(NINE, VS_COMPUTER, settings=SETTINGS, store=store)
    hands = ScriptedHands((), pause=0.5)
    hands.place("d6")
    now = play(session, hands, 0.0)
    request = session.answers.computer_request()
    hands.lift("d6").wait(2.0)  # someone knocks the pebble off while the computer thinks
    now = play(session, hands, now)
    assert session.status.kind == StatusKind.MISMATCH
    actions = computer_turn(RandomPlayer(seed=1), request.game)
    assert session.answers.offer(request, actions, now)
    assert session.status.kind == StatusKind.MISMATCH
    hands.place("d6").wait(0.5)
    now = play(session, hands, now)
    assert session.status.kind == StatusKind.EXECUTING
    assert session.status.forced == tuple(a.text for a in actions)


def test_takeback_turn_undoes_the_hands_turn_and_the_computers_answer(store):
    session = Session(NINE, VS_COMPUTER, settings=SETTINGS, store=store)
    game = session.game
    for text in "a7 b6 d7 f6 g4 b2 g1 d2 g7 xd2 a1".split():
        game.play(text)  # white (hand) closed a mill with g7 and took d2; black answered a1
    session.takeback_turn(0.0)
    assert session.record() == "a7 b6 d7 f6 g4 b2 g1 d2"
    # Nothing is on the board: a takeback asks for its position, it is not a clearing.
    assert session.status.kind == StatusKind.MISMATCH
    session.takeback_turn(0.0)
    assert session.record() == "a7 b6 d7 f6 g4 b2"
    session.takeback_to(0.0, 0)
    session.takeback_turn(0.0)
    assert session.record() == ""


def test_start_up_in_the_menu_logs_no_game_until_one_starts(store, caplog):
    """The menu's default ("the same as last time") is no game: the log says the menu opened,
    not that a game began."""
    with caplog.at_level("INFO", logger="navakankari"):
        session = Session(NINE, VS_COMPUTER, settings=SETTINGS, store=store, menu=MenuSettings())
    assert session.menu is not None
    assert "new game" not in caplog.text
    with caplog.at_level("INFO", logger="navakankari"):
        session.new_game(1.0)
    assert "new game: nine-mens-morris, white hand, black computer:1" in caplog.text


def test_a_new_game_during_one_names_the_colours_of_the_pebbles_left_standing():
    """Nau Keti Keta c3-d4 e5xc3, then a new game: the black pebble on c3 (white's start
    point) goes to e5 and a white one is set on c3, not taken for white and left there."""
    nkk = preset("nau-keti-keta")
    start = new_game(nkk)
    session = Session(nkk, HANDS, settings=SETTINGS,
                      occupied=set(start.board.names(start.occupancy)))
    hands = ScriptedHands(start.board.names(start.occupancy), pause=0.5)
    hands.lift("c3").wait(0.1).place("d4").wait(0.6)
    hands.lift("e5").wait(0.1).lift("d4").wait(0.1).place("c3").wait(0.6)
    now = play(session, hands, 0.0)
    assert session.record() == "c3-d4 e5xc3"
    session.new_game(now + 1.0)
    s = session.status
    assert s.kind == StatusKind.MISMATCH and s.reason == MismatchReason.RESTORE
    assert s.steps == (("move", "black", "c3", "e5"), ("set", "white", "", "c3"))
    assert wording_of(session) == ("set the board to the game's position: move the black "
                                   "pebble from c3 to e5; set a white pebble on c3")


def wording_of(session: Session) -> str:
    from navakankari.firmware.core.wording import status_text

    return status_text(session.game, session.status)


def test_a_game_asked_for_by_name_starts_without_the_menu(store):
    lasker = preset("lasker")
    named = {Side.WHITE: PlayerSpec("computer", 6), Side.BLACK: HAND}
    session = Session(lasker, named, settings=SETTINGS, store=store,
                      menu=MenuSettings(hold=1.0, lift=0.3), start_named=True)
    assert session.menu is None
    assert session.rules == lasker and session.players == named
    first = session.game_id
    assert store.last_unfinished().players == {"white": "computer:6", "black": "hand"}
    # Asked for again (a restart of the same command): the unfinished game is resumed.
    again = Session(lasker, named, settings=SETTINGS, store=store,
                    menu=MenuSettings(hold=1.0, lift=0.3), start_named=True)
    assert again.game_id == first and again.menu is None
    # Another game asked for: it starts, the unfinished one is not resumed.
    other = Session(NINE, HANDS, settings=SETTINGS, store=store,
                    menu=MenuSettings(hold=1.0, lift=0.3), start_named=True)
    assert other.game_id != first and other.rules == NINE and other.players == HANDS
    # Nothing asked for: the unfinished game is resumed, whatever the defaults say.
    plain = Session(lasker, named, settings=SETTINGS, store=store,
                    menu=MenuSettings(hold=1.0, lift=0.3))
    assert plain.game_id == other.game_id and plain.rules == NINE
