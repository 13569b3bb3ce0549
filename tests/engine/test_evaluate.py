import random

from navakankari.engine.evaluate import LOST, PIECE, evaluate
from navakankari.engine.presets import preset
from navakankari.engine.variants import game_from_position, new_game
from search_helpers import morris_position, random_playout


def _swap_morris(fen: str) -> str:
    """The same position with the colours and the side to move exchanged."""
    f = fen.split()
    f[0] = f[0].translate(str.maketrans("O@", "@O"))
    f[1] = "b" if f[1] == "w" else "w"
    f[4], f[5], f[6], f[7] = f[6], f[7], f[4], f[5]
    f[8], f[9] = f[9], f[8]
    return " ".join(f)


def test_the_score_does_not_depend_on_the_colour():
    rules = preset("navakankari")
    rng = random.Random(11)
    for _ in range(40):
        game = random_playout(new_game(rules), rng, rng.randrange(0, 60))
        swapped = game_from_position(rules, _swap_morris(game.position()))
        assert evaluate(game) == evaluate(swapped), game.position()


def test_a_pebble_more_is_about_a_pebble():
    # b6 makes no mill threat: the pebble and its steps. b2 beside d2, with f4 beside the
    # empty f2 and no black pebble near, is a mill white can close and run: more than that.
    even = morris_position("nine-mens-morris", "a7 g1 d2 f4", "c3 e5 b4 d6")
    more = morris_position("nine-mens-morris", "a7 g1 d2 f4 b6", "c3 e5 b4 d6")
    assert PIECE // 2 < evaluate(more) - evaluate(even) < 2 * PIECE
    runnable = morris_position("nine-mens-morris", "a7 g1 d2 f4 b2", "c3 e5 b4 d6")
    assert evaluate(runnable) - evaluate(more) > PIECE // 2


def test_a_mill_the_opponent_can_run_weighs_until_its_pebbles_are_guarded():
    """White's mill a7 d7 g7: a pebble steps out and back in and takes, again and again,
    while no black pebble stands beside the point it leaves; open (d7 on d6) it weighs the
    same, so stepping out is no relief for black. Black pebbles beside each point end it."""
    from navakankari.engine.evaluate import MorrisEvaluator, MorrisWeights
    from navakankari.engine.presets import preset

    rules = preset("nine-mens-morris")
    off = MorrisEvaluator(rules, MorrisWeights(runnable_own=0, runnable_opp=0))
    on = MorrisEvaluator(rules)
    w = MorrisWeights().runnable_opp
    closed = morris_position("nine-mens-morris", "a7 d7 g7 b2", "a1 g1 f2 c3", side="b")
    opened = morris_position("nine-mens-morris", "a7 d6 g7 b2", "a1 g1 f2 c3", side="b")
    guarded = morris_position("nine-mens-morris", "a7 d7 g7 b2", "a4 d6 g4 c3", side="b")
    assert on(closed) - off(closed) == -w  # black to move: white's mill weighs against it
    assert on(opened) - off(opened) == -w
    assert on(guarded) == off(guarded)

def test_two_threats_of_the_opponent_weigh_more_than_one():
    one = morris_position("nine-mens-morris", "b4 e4", "d7 g7 e3", hands=(7, 6))
    two = morris_position("nine-mens-morris", "b4 e4", "d7 g7 g4", hands=(7, 6))
    assert evaluate(two) < evaluate(one)


def test_a_threat_the_side_to_move_cannot_reach_weighs_like_two():
    # Black threatens b4 (a4, c4 and b6 beside it). On b2 a white pebble can block it; with
    # white's pebble on d3 instead nothing of white's reaches b4 and the pebble is lost.
    can = morris_position("navakankari", "b2 f6 g4 d1", "a4 c4 b6 g7 g1")
    cannot = morris_position("navakankari", "d3 f6 g4 d1", "a4 c4 b6 g7 g1")
    assert evaluate(cannot) < evaluate(can) - 40


def test_blocked_side_to_move_has_lost():
    # White's three pebbles on the outer corners are shut in and white may not fly.
    game = morris_position("navakankari", "a7 g7 a1", "d7 a4 g4 d1 b6 f6 b2 d2")
    assert game.legal_actions() == []
    assert evaluate(game) == -LOST


def test_nau_keti_keta_counts_material_and_hanging_pebbles():
    rules = preset("nau-keti-keta")
    start = new_game(rules)
    assert evaluate(start) == 0  # the start is symmetric
    # Black d2 to move. A white pebble on d3 can be jumped (d2xd4); on e3 it cannot.
    hanging = game_from_position(rules, "***/***/***/*/*O*/*@*/*** b 0 1")
    safe = game_from_position(rules, "***/***/***/*/**O/*@*/*** b 0 1")
    assert evaluate(hanging) > evaluate(safe)
    # A pebble more is about a pebble more.
    more = game_from_position(rules, "***/***/***/*/**O/*@*/@** b 0 1")
    assert PIECE // 2 < evaluate(more) - evaluate(safe) < 2 * PIECE


def test_mobility_outweighs_a_pebble_in_hand_when_large():
    # The same pebbles on the corners (two neighbours each) or on the crossings (four):
    # eight steps more for white are worth more than a pebble, even in the placing phase.
    corners = morris_position("nine-mens-morris", "a7 g7 a1 g1", "b6 f6 b2 f2", hands=(5, 5))
    crossings = morris_position("nine-mens-morris", "d6 b4 f4 d2", "b6 f6 b2 f2", hands=(5, 5))
    assert evaluate(crossings) - evaluate(corners) > PIECE


def test_edge_class_mobility_counts_every_step():
    # The evaluator counts steps and shut-in pebbles with every edge class in one int; a
    # plain count per pebble must agree on random positions of every morris board.
    from navakankari.engine.evaluate import MorrisEvaluator, MorrisWeights
    from navakankari.engine.presets import PRESETS

    none = dict(place_mill=0, place_two=0, place_mobility=0, place_blocked=0,
                move_mill=0, move_two=0, move_mobility=0, move_blocked=0)
    only_mobility = MorrisWeights(**{**none, "place_mobility": 1, "move_mobility": 1})
    only_blocked = MorrisWeights(**{**none, "place_blocked": 1, "move_blocked": 1})
    for name in PRESETS:
        rules = preset(name)
        if rules.game == "jump":
            continue
        base = MorrisEvaluator(rules, MorrisWeights(**none))
        mob = MorrisEvaluator(rules, only_mobility)
        blk = MorrisEvaluator(rules, only_blocked)
        adj = base.adj
        rng = random.Random(len(name))
        for _ in range(30):
            game = random_playout(new_game(rules), rng, rng.randrange(0, 70))
            if game.pending_removals or game.outcome() is not None:
                continue
            s = int(game.turn)
            own, opp = game.pieces(s), game.pieces(s ^ 1)
            placing = bool(game.in_hand(0) or game.in_hand(1))
            if not placing and rules.flying.value != "none" and (game.can_fly(0) or game.can_fly(1)):
                continue
            empty = base.full & ~(own | opp)
            steps = [sum((adj[p] & empty).bit_count() for p in base.bits(x)) for x in (own, opp)]
            shut = [sum(1 for p in base.bits(x) if not adj[p] & empty) for x in (own, opp)]
            if not placing and steps[0] == 0 and rules.blocked_loses:
                continue  # scored as lost outright
            assert mob(game) - base(game) == steps[0] - steps[1], game.position()
            assert blk(game) - base(game) == -(shut[0] - shut[1]), game.position()


def test_a_flying_side_has_no_mobility_and_no_blocked_pebbles():
    # White has three pebbles and flies: only black's steps and shut-in pebbles count.
    from navakankari.engine.evaluate import MorrisEvaluator, MorrisWeights

    none = dict(place_mill=0, place_two=0, place_mobility=0, place_blocked=0,
                move_mill=0, move_two=0, move_mobility=0, move_blocked=0)
    rules = preset("nine-mens-morris")
    base = MorrisEvaluator(rules, MorrisWeights(**none))
    mob = MorrisEvaluator(rules, MorrisWeights(**{**none, "move_mobility": 1}))
    blk = MorrisEvaluator(rules, MorrisWeights(**{**none, "move_blocked": 1}))
    # Black's steps: d1-d2, g1-g4, a4-b4 and d6 to b6, f6 or d5 (6); a1 is shut in by
    # black's own a4 and d1.
    game = morris_position("nine-mens-morris", "a7 d7 g7", "a1 d1 g1 a4 d6", side="w")
    assert game.can_fly(game.turn)
    assert mob(game) - base(game) == -6
    assert blk(game) - base(game) == 1
    # Seen from black, the steps count for it and white's shut-in pebbles do not.
    black = morris_position("nine-mens-morris", "a7 d7 g7", "a1 d1 g1 a4 d6", side="b")
    assert mob(black) - base(black) == 6
    assert blk(black) - base(black) == -1
