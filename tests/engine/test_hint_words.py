"""The teaching's sentences: each reason said with the points it names, and a red verdict on
the board carries the reason the search found."""

from __future__ import annotations

from navakankari.engine.game import Side
from navakankari.engine.hint import Judge, Quality, ReasonKind, blunder
from navakankari.engine.hint_words import blunder_words, quality_words, reason_words
from navakankari.engine.reasons import Reason
from navakankari.engine.variants import new_game

B = Side.BLACK


def test_a_mill_names_the_point_when_and_the_pebble_taken():
    mill = Reason(ReasonKind.MILL, B, "d7", "d7", "a7-d7-g7", "b6", 1)
    assert reason_words("b6", mill) == \
        "b6 lets black close a mill at d7 next turn and take your pebble on b6"
    later = Reason(ReasonKind.MILL, B, "d1-d2", "d2", "b2-d2-f2", None, 2)
    assert reason_words("a4-a1", later) == "a4-a1 lets black close a mill at d2 in 2 turns"


def test_a_move_out_of_ones_own_mill_says_so():
    opened = Reason(ReasonKind.MILL, B, "g4-g1", "g1", "a1-d1-g1", "f6", 1,
                    broken="f6-f4-f2")
    assert reason_words("f2-d2", opened) == (
        "f2-d2 takes the pebble out of your mill: black can then close a mill at g1 next "
        "turn and take your pebble on f6")


def test_double_threats_blockades_captures_and_lost_games():
    assert reason_words("g7", Reason(ReasonKind.DOUBLE, B, "a1", "a1", "x and y")) == \
        "g7 lets black play a1 next turn and make two mills at once: you can only stop one"
    assert reason_words("d2-d1", Reason(ReasonKind.DOUBLE, B, "b4-c4", "c4", "x and y")) \
        .startswith("d2-d1 lets black play b4-c4 next turn and make two mills at once")
    assert reason_words("d3-d2", Reason(ReasonKind.BLOCKADE, B, "g4-g1", "g1")) == \
        "d3-d2 lets black shut all your pebbles in next turn, and then you cannot move"
    assert reason_words("c3-c4", Reason(ReasonKind.CAPTURE, B, "d5xd3", "d3", taken="d4")) == \
        "c3-c4 lets black jump and take your pebble on d4 next turn"
    lost = Reason(ReasonKind.LOST, B, exact=True)
    assert reason_words("a1-a4", lost, Quality.LOSES) == \
        "after a1-a4, black can win whatever you do (the endgame tables are sure)"
    mill = Reason(ReasonKind.MILL, B, "d7", "d7", "a7-d7-g7", None, 2)
    assert reason_words("b6", mill, Quality.LOSES) == \
        "b6 loses the game: b6 lets black close a mill at d7 in 2 turns"


def test_no_figure_in_any_sentence_and_the_better_move_follows():
    mill = Reason(ReasonKind.MILL, B, "d7", "d7", "a7-d7-g7", "b6", 1)
    words = blunder_words("b6", mill, Quality.DROPS, "d7")
    assert words.endswith("; d7 was better") and "about" not in words
    assert len({quality_words(q) for q in Quality}) == len(Quality)


def test_a_red_placement_on_the_board_names_the_mill_the_opponent_closes():
    game = new_game("nine-mens-morris")
    for text in "a7 b6 g7 d5 f6".split():  # white threatens a7-d7-g7 on d7
        game.push(game.parse(text))
    judgement = Judge().judge(game)
    red = [v for v in judgement.verdicts if v.quality in (Quality.DROPS, Quality.LOSES)]
    assert red and judgement.quality("d7") is Quality.KEEPS
    for v in red:
        assert v.reason is not None and v.reason.turns == 1
        assert (v.reason.kind, v.reason.point, v.reason.by) == (ReasonKind.MILL, "d7",
                                                                 Side.WHITE)
    warning = blunder(game, red[0].action, judgement)
    assert warning is not None
    assert warning.reason.startswith(f"{red[0].action} lets white close a mill at d7 next turn")


def test_every_red_placement_names_a_mill_the_opponent_really_closes_next_turn():
    import random

    from search_helpers import random_playout

    checked = 0
    for variant in ("navakankari", "nine-mens-morris", "morabaraba"):
        rng = random.Random(len(variant))
        for _ in range(12):
            game = random_playout(new_game(variant), rng, rng.randrange(3, 14))
            if game.outcome() is not None or not game.in_hand(game.turn):
                continue
            judgement = Judge().judge(game, budget=8192)
            for v in judgement.verdicts:
                if v.quality not in (Quality.DROPS, Quality.LOSES) or v.origin is not None:
                    continue
                r = v.reason
                assert r is not None and r.by == game.turn.other, (game.position(), v)
                if r.kind is not ReasonKind.MILL or r.turns != 1:
                    continue
                game.push(game.parse(v.action))
                if game.turn != r.by:  # the placement closed a mill of its own: a removal
                    game.pop()
                    continue
                reply = game.parse(r.action)  # legal for the opponent now
                game.push(reply)
                assert game.turn == r.by and game.pending_removals  # a mill closed: it takes
                assert r.mill in {"-".join(game.board.names(m)) for m in game.last_mills()}
                if r.taken is not None:
                    assert game.parse(f"x{r.taken}")  # one of the mover's pebbles
                game.pop()
                game.pop()
                checked += 1
    assert checked >= 5
