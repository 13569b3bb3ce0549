"""Teaching: each action's quality class, the opponent's threats and blunders, on positions
with known answers (a mill in one, a forced blockade, a double threat, the endgame
database) and on random positions of every variant."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from navakankari.engine import endgame
from navakankari.engine.game import Side
from navakankari.engine.hint import (
    DROP_MARGIN,
    KEEP_MARGIN,
    Judge,
    Quality,
    ReasonKind,
    ThreatKind,
    blunder,
    classify,
    judge,
    passed,
    threats,
)
from navakankari.engine.presets import PRESETS
from navakankari.engine.search import MATE_BOUND, WIN
from navakankari.engine.variants import game_from_position, new_game
from navakankari.firmware.cli import main as cli
from search_helpers import morris_fen, random_playout

NMM = "nine-mens-morris"
#: Fixed depth, budget out of reach: the same answer on every machine.
DEPTH = {"budget": 10**7, "max_depth": 3}

MILL_IN_ONE = morris_fen("a7 d7 g4 b2", "a1 d1 f4 b6 d5", "w")
BLOCKADE = morris_fen("a4 d2 d6 g7 g4", "a1 d1 a7 d7", "w")
DOUBLE_THREAT = morris_fen("a7 g1", "d7 g4", "b", hands=(7, 7))


def _game(fen: str, variant: str = NMM):
    return game_from_position(variant, fen)


def test_classes_follow_the_drop_from_the_best():
    assert classify(0, 0) is Quality.KEEPS
    assert classify(-(KEEP_MARGIN - 1), 0) is Quality.KEEPS
    assert classify(-KEEP_MARGIN, 0) is Quality.WORSE
    assert classify(-DROP_MARGIN, 0) is Quality.DROPS
    assert classify(-(WIN - 3), 0) is Quality.LOSES
    assert classify(WIN - 9, WIN - 1) is Quality.KEEPS  # a slower win is still a win
    assert classify(0, WIN - 1) is Quality.WORSE  # a win thrown away, not lost
    assert classify(-(WIN - 2), -(WIN - 8)) is Quality.KEEPS  # lost whatever is played


def test_a_mill_in_one_is_the_best_action_and_breaking_the_two_drops():
    game = _game(MILL_IN_ONE)
    j = judge(game, **DEPTH)
    assert j.best == "g4-g7"
    assert j.quality("g4-g7") is Quality.KEEPS
    assert j.quality("a7-a4") in (Quality.WORSE, Quality.DROPS)
    assert game.position() == MILL_IN_ONE  # restored


def test_a_forced_blockade_is_found_and_shown_as_a_threat_to_the_blocked_side():
    game = _game(BLOCKADE)
    j = judge(game, **DEPTH)
    assert j.best == "g4-g1"
    assert [v.action for v in j.verdicts if v.quality is Quality.KEEPS] == ["g4-g1"]
    assert j.value >= WIN - 2
    seen = threats(passed(game), deep=True)
    assert seen.by is Side.WHITE
    assert seen.points(ThreatKind.BLOCKADE) == ("g1",)
    assert threats(passed(game)).points() == ()  # no mill to close: the plain level shows none


def test_a_double_threat_is_seen_and_a_blunder_that_allows_it_says_so():
    game = _game(DOUBLE_THREAT)
    seen = threats(game, deep=True)
    assert [(t.kind, t.point, t.mills) for t in seen.items] == [
        (ThreatKind.DOUBLE, "a1", ("a1-d1-g1", "a7-a4-a1"))]
    j = judge(game, **DEPTH)
    for block in ("a1", "a4", "d1"):  # each breaks one of the two lines
        assert j.quality(block) is not Quality.DROPS, block
    dropping = [v.action for v in j.verdicts if v.quality is Quality.DROPS]
    assert dropping
    warning = blunder(game, dropping[0], j)
    assert warning is not None and warning.quality is Quality.DROPS
    assert f"{dropping[0]} lets white play a1 next turn and make two mills at once" \
        in warning.reason
    assert j.verdict(dropping[0]).reason.kind is ReasonKind.DOUBLE


def test_a_mill_threat_names_the_mill_and_the_blunder_words_say_it_takes_a_pebble():
    # Black to move; white has b2 f2 and a pebble on d1 that steps to d2.
    fen = morris_fen("b2 f2 d1 a7", "d3 g7 b6 c5 e4", "b")
    game = _game(fen)
    seen = threats(game)
    assert [(t.kind, t.point, t.action, t.mills) for t in seen.items] == [
        (ThreatKind.MILL, "d2", "d1-d2", ("b2-d2-f2",))]
    j = judge(game, **DEPTH)
    assert j.quality("d3-d2") is Quality.KEEPS  # the block
    warning = blunder(game, "g7-g4", j)
    assert warning is not None
    assert warning.reason.startswith("g7-g4 lets white close a mill at d2 next turn")
    reason = j.verdict("g7-g4").reason
    assert (reason.kind, reason.action, reason.mill) == (ReasonKind.MILL, "d1-d2", "b2-d2-f2")
    assert blunder(game, "d3-d2", j) is None


def test_threats_do_not_apply_to_nau_keti_keta():
    seen = threats(new_game("nau-keti-keta"), deep=True)
    assert not seen.applies and seen.items == ()


def test_origin_judges_the_destinations_of_one_pebble_against_the_whole_position():
    game = _game(MILL_IN_ONE)
    whole = judge(game, **DEPTH)
    lift = Judge().judge(game, origin="g4", **DEPTH)
    assert {v.action for v in lift.verdicts} == {"g4-g7", "g4-g1"}
    assert lift.by_target("g4") == {"g7": Quality.KEEPS, "g1": whole.quality("g4-g1")}
    # The value is the whole position's (a ply deeper, so not always the same figure).
    assert lift.value >= max(v.score for v in lift.verdicts)


# -- the endgame database -----------------------------------------------------------------
def _db_verdict(game, mover: Side) -> int:
    """+1 / 0 / -1 for `mover` of the position just reached, from the table alone."""
    outcome = game.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else (1 if outcome.winner == mover else -1)
    if game.turn == mover:  # a removal owed: the best of them
        best = -1
        for removal in game.legal_actions():
            game.push(removal)
            best = max(best, _db_verdict(game, mover))
            game.pop()
        return best
    d = endgame.shared().probe(game)
    assert d is not None
    return 0 if d == 0 else (-1 if d % 2 == 0 else 1)


def _db_positions(n: int, seed: int = 7):
    rng = random.Random(seed)
    points = game_from_position(NMM, morris_fen("a1 a4 a7", "g1 g4 g7")).board.points
    out = []
    while len(out) < n:
        chosen = rng.sample(points, 6)
        fen = morris_fen(" ".join(chosen[:3]), " ".join(chosen[3:]), rng.choice("wb"))
        game = game_from_position(NMM, fen)
        if game.outcome() is None:
            out.append(game)
    return out


EXPECTED = {(1, 1): Quality.KEEPS, (0, 0): Quality.KEEPS, (-1, -1): Quality.KEEPS,
            (1, 0): Quality.WORSE, (1, -1): Quality.LOSES, (0, -1): Quality.LOSES}


def test_every_class_is_the_database_verdict_in_three_against_three():
    judge_ = Judge()
    seen = set()
    for game in _db_positions(60):
        mover = game.turn
        j = judge_.judge(game)
        assert j.exact and j.depth == 0
        after = {}
        for action in game.legal_actions():
            game.push(action)
            after[action.text] = _db_verdict(game, mover)
            game.pop()
        best = max(after.values())
        for text, verdict in after.items():
            assert j.quality(text) is EXPECTED[(best, verdict)], (game.position(), text)
            seen.add((best, verdict))
        assert after[j.best] == best
    assert {(1, 1), (1, -1), (-1, -1)} <= seen


def test_the_hint_keeps_a_won_position_won():
    judge_ = Judge()
    rng = random.Random(3)
    won = [g for g in _db_positions(40, seed=11) if judge_.judge(g).value > 0][:6]
    assert won
    for game in won:
        mover = game.turn
        for _ in range(60):
            if game.outcome() is not None:
                break
            if game.turn == mover:
                game.push(game.parse(judge_.judge(game).best))
            else:
                game.push(rng.choice(game.legal_actions()))
        assert game.outcome() is not None and game.outcome().winner == mover


# -- every variant -----------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32 - 1), st.integers(0, 120))
def test_every_action_gets_one_class_and_the_best_keeps(name, seed, plies):
    game = random_playout(new_game(PRESETS[name]), random.Random(seed), plies)
    if game.outcome() is not None:
        with pytest.raises(Exception, match="over"):
            judge(game, max_depth=1)
        return
    before = game.position()
    j = judge(game, budget=10**7, max_depth=1)
    assert [v.action for v in j.verdicts] == [a.text for a in game.legal_actions()]
    assert all(isinstance(v.quality, Quality) for v in j.verdicts)
    assert j.quality(j.best) is Quality.KEEPS
    assert game.position() == before
    seen = threats(game, deep=True)
    assert seen.applies == (PRESETS[name].game == "morris")


def test_json_shape():
    j = judge(_game(BLOCKADE), **DEPTH)
    data = j.to_dict()
    assert data["best"] == "g4-g1"
    assert data["actions"]["g4-g1"] == "keeps"
    assert set(data["actions"].values()) <= {q.value for q in Quality}


# -- navakankari hint ---------------------------------------------------------------------

def test_hint_prints_every_action_with_its_class_and_the_best(capsys):
    assert cli.main(["hint", "--position", BLOCKADE, "--budget", "20000"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "g4-g1 keeps  (best)" in lines
    assert "best g4-g1" in lines
    assert sum(1 for ln in lines if ln.split()[1:2] and ln.split()[1] in
               ("keeps", "worse", "drops", "loses")) == 9
    assert lines[-1] == "threats: none"


def test_hint_says_its_reasons_in_the_language_asked_for(capsys, monkeypatch):
    from navakankari.engine.variants import new_game
    from navakankari.firmware.i18n.catalogs import translations

    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")

    game = new_game("nine-mens-morris")
    for text in "a7 b6 g7 d5 f6".split():  # white threatens a7-d7-g7 on d7
        game.push(game.parse(text))
    position = game.position()
    assert cli.main(["hint", "--position", position, "--budget", "20000"]) == 0
    english = [ln for ln in capsys.readouterr().out.splitlines() if "  - " in ln]
    assert cli.main(["hint", "--position", position, "--budget", "20000",
                     "--language", "ta"]) == 0
    tamil = [ln for ln in capsys.readouterr().out.splitlines() if "  - " in ln]
    assert english and len(tamil) == len(english)
    white = translations("ta").gettext("white")
    assert all(" lets " not in ln for ln in tamil) and all(white in ln for ln in tamil)
    assert [ln.split("  - ")[0] for ln in tamil] == [ln.split("  - ")[0] for ln in english]
    monkeypatch.setenv("LANG", "ta_IN.UTF-8")  # no --language: the environment's, as the board
    assert cli.main(["hint", "--position", position, "--budget", "20000"]) == 0
    assert [ln for ln in capsys.readouterr().out.splitlines() if "  - " in ln] == tamil


def test_hint_json_names_the_best_and_each_class(capsys):
    assert cli.main(["hint", "--position", BLOCKADE, "--json", "--budget", "20000"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best"] == "g4-g1"
    assert data["actions"]["g4-g1"] == "keeps"
    assert len(data["actions"]) == 9


def test_hint_in_three_against_three_is_exact(capsys):
    fen = morris_fen("a1 a4 b6", "g1 g4 f2", "w")
    assert cli.main(["hint", "--position", fen]) == 0
    assert "judged by the endgame database (exact)" in capsys.readouterr().out


def test_hint_says_threats_do_not_apply_without_mills(capsys):
    assert cli.main(["hint", "--variant", "nau-keti-keta", "--budget", "2048"]) == 0
    assert "threats: none (nau-keti-keta has no mills)" in capsys.readouterr().out


def test_a_bad_position_or_an_ended_game_is_one_line_and_exit_2(capsys):
    assert cli.main(["hint", "--position", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("navakankari: position has 1 field;") and err.count("\n") == 1
    over = morris_fen("a1 a4 a7", "g1 g4", "b")
    assert cli.main(["hint", "--position", over]) == 2
    err = capsys.readouterr().err
    assert "the game is over" in err and err.count("\n") == 1


def test_three_against_four_is_judged_exactly_by_the_database():
    table = endgame.table_for(PRESETS[NMM])
    assert table is not None and table.three_four
    rng = random.Random(5)
    points = game_from_position(NMM, morris_fen("a1 a4 a7", "g1 g4 g7")).board.points
    judged = compared = 0
    while judged < 12:
        chosen = rng.sample(points, 7)
        three, four = " ".join(chosen[:3]), " ".join(chosen[3:])
        white, black = (three, four) if rng.random() < 0.5 else (four, three)
        game = game_from_position(NMM, morris_fen(white, black, rng.choice("wb")))
        if game.outcome() is not None or table.result(game) is None:
            continue
        judged += 1
        mover = game.turn
        j = Judge().judge(game)
        assert j.exact and j.depth == 0 and j.nodes == 0
        after = {}
        for action in game.legal_actions():
            game.push(action)
            outcome = game.outcome()
            if outcome is not None:
                after[action.text] = 0 if outcome.winner is None else (
                    1 if outcome.winner == mover else -1)
            elif game.turn != mover:  # no removal owed: the database says
                r = table.result(game)
                after[action.text] = 0 if r is None or r == 0 else (-1 if r > 0 else 1)
            game.pop()
        best = max(after.values()) if len(after) == len(j.verdicts) else None
        compared += best is not None
        for text, verdict in after.items():
            if best is not None:
                assert j.quality(text) is EXPECTED[(best, verdict)], (game.position(), text)
            if verdict == -1 and j.value > -MATE_BOUND:
                assert j.quality(text) is Quality.LOSES
    assert compared >= 6
