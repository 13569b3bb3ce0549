import asyncio
import threading

import pytest
from navakankari.engine.actions import ActionKind
from navakankari.engine.errors import GameOverError
from navakankari.engine.player import (
    DEFAULT_LEVEL,
    LEVELS,
    MAX_LEVEL,
    GreedyPlayer,
    Player,
    RandomPlayer,
    choose_async,
    level_info,
)
from navakankari.engine.player_spec import make_player
from navakankari.engine.presets import preset
from navakankari.engine.search import Searcher
from navakankari.engine.variants import game_from_position, new_game
from navakankari.firmware.cli.match import play_game, run_match
from search_helpers import morris_position


def test_levels_grow_in_budget_and_depth():
    assert [lv.number for lv in LEVELS] == list(range(1, MAX_LEVEL + 1))
    for lower, upper in zip(LEVELS, LEVELS[1:]):
        assert lower.budget < upper.budget
        assert lower.max_depth < upper.max_depth
        assert lower.margin >= upper.margin and lower.blunder >= upper.blunder
    assert LEVELS[-1].margin == 0 and LEVELS[-1].blunder == 0
    with pytest.raises(ValueError, match="1..6"):
        level_info(0)


def test_make_player_reads_specs():
    assert isinstance(make_player("random"), RandomPlayer)
    assert isinstance(make_player("greedy"), GreedyPlayer)
    assert make_player("computer:2").level.number == 2  # type: ignore[union-attr]
    assert make_player("computer:max").level.number == MAX_LEVEL  # type: ignore[union-attr]
    assert make_player("computer").level.number == DEFAULT_LEVEL  # type: ignore[union-attr]
    for bad, problem in (("computer:0", "computer level must be 1..6, max or adaptive, not '0'"),
                         ("computer:x", "computer level must be 1..6, max or adaptive, not 'x'"),
                         ("minimax", "unknown player 'minimax'")):
        with pytest.raises(ValueError, match=problem):
            make_player(bad)
    for elsewhere in ("hand", "hand:2", "remote", "online"):
        with pytest.raises(ValueError, match="is not a player the computer plays"):
            make_player(elsewhere)


def test_same_seed_same_choices_at_a_random_level():
    game = new_game(preset("nine-mens-morris"))
    clock = lambda: 0.0  # noqa: E731 - time stands still: only the depth cap ends the search
    first = [Player(1, seed=5, clock=clock).choose(game).text for _ in range(1)]
    picks_a = [Player(1, seed=s, clock=clock).choose(game).text for s in range(12)]
    picks_b = [Player(1, seed=s, clock=clock).choose(game).text for s in range(12)]
    assert picks_a == picks_b
    assert len(set(picks_a)) > 1  # level 1 varies its play
    assert first[0] == picks_a[5]


def test_greedy_closes_a_mill_and_removes():
    game = morris_position("nine-mens-morris", "d6 d5 a1", "b2 f4 c3", hands=(6, 6))
    player = GreedyPlayer(seed=3)
    assert player.choose(game).text == "d7"
    game.push(player.choose(game))
    removal = player.choose(game)
    assert removal.kind == ActionKind.REMOVE and removal in game.legal_actions()


def test_greedy_takes_the_longest_capture_in_nau_keti_keta():
    # White can take one (g1xe3, c5xe3) or two (d1xd3xd5).
    text = "***/***/O**/@/***/*@@/*OO w 0 1"
    game = game_from_position(preset("nau-keti-keta"), text)
    assert game.position() == text
    assert sorted(len(a.jumped) for a in game.legal_actions()) == [1, 1, 2]
    for seed in range(5):
        assert GreedyPlayer(seed=seed).choose(game).text == "d1xd3xd5"


def test_random_and_greedy_refuse_a_finished_game():
    game = morris_position("nine-mens-morris", "a7 d7 g7", "c3 e3")
    for player in (RandomPlayer(1), GreedyPlayer(1)):
        with pytest.raises(GameOverError):
            player.choose(game)


def test_choose_async_answers_without_blocking_the_loop():
    game = new_game(preset("navakankari"))

    async def main():
        ticks = 0
        task = asyncio.create_task(choose_async(game, 4, seed=2))
        while not task.done():
            ticks += 1
            await asyncio.sleep(0)
        return await task, ticks

    action, ticks = asyncio.run(main())
    assert action in game.legal_actions()
    assert game.history == []
    assert ticks > 1  # the loop ran other work while the search thought


def test_cancelling_choose_async_stops_the_search():
    game = new_game(preset("nine-mens-morris"))
    player = Player(MAX_LEVEL, clock=lambda: 0.0)  # no budget ever runs out
    stop = threading.Event()
    finished = threading.Event()
    original = player.choose

    def choose(g, s=None):
        try:
            return original(g, s)
        finally:
            finished.set()

    player.choose = choose  # type: ignore[method-assign]

    async def main():
        task = asyncio.create_task(player.choose_async(game, stop))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())  # waits for the worker thread: it returns only if the search stopped
    assert stop.is_set() and finished.is_set()


def test_play_game_ends_and_records_think_times():
    import random

    times = ([], [])
    result = play_game(new_game(preset("six-mens-morris")), GreedyPlayer(1), RandomPlayer(2),
                       random.Random(0), times=times)
    replayed = new_game(preset("six-mens-morris"))
    replayed.play_record(result.record)  # the record alone leads to the reported end
    assert replayed.outcome() == result.outcome and replayed.outcome() is not None
    assert len(replayed.history) == result.actions
    assert len(times[0]) + len(times[1]) + 2 == result.actions


def test_run_match_counts_games_and_repeats_with_a_seed():
    a = run_match("six-mens-morris", "greedy", "random", 3, seed=4)
    b = run_match("six-mens-morris", "greedy", "random", 3, seed=4)
    assert a.white_wins + a.draws + a.black_wins == 3
    assert [g.record for g in a.games] == [g.record for g in b.games]
    assert a.summary() == f"white {a.white_wins} draws {a.draws} black {a.black_wins}"


def test_near_best_choice_keeps_forced_results():
    from navakankari.engine.search import WIN, SearchInfo

    game = new_game(preset("nine-mens-morris"))
    a, b, c = game.legal_actions()[:3]
    player = Player(1, seed=0)
    lost = SearchInfo(a, -(WIN - 3), 2, 10, 0.0, root_scores=((a, -(WIN - 3)), (b, -(WIN - 5)),
                                                              (c, -(WIN - 2))))
    for _ in range(10):  # every action loses: the slowest loss is kept, never a crash
        assert player._near_best(lost).action == b
    won = SearchInfo(a, WIN - 3, 2, 10, 0.0, root_scores=((a, WIN - 3), (b, 40), (c, WIN - 5)))
    for _ in range(10):
        assert player._near_best(won).action == a
    plain = SearchInfo(a, 50, 2, 10, 0.0, root_scores=((a, 50), (b, 40), (c, -400)))
    assert {player._near_best(plain).action for _ in range(40)} == {a, b}


def test_the_old_level_spelling_still_works_with_a_warning():
    with pytest.warns(FutureWarning, match="write computer:2"):
        player = make_player("level:2")
    assert player.level.number == 2  # type: ignore[union-attr]
    assert player.name == "computer:2"  # type: ignore[union-attr]


def _duel(seed: int) -> str:
    """Level 3 against level 3, the person's side seeded alike every time, the computer's by
    `seed`: the record of a short game. The budgets are stretched so every search reaches the
    level's depth cap on a loaded machine too: the game then follows the seeds alone."""
    game = new_game(preset("nine-mens-morris"))
    sides = (Player(3, seed=0, budget_scale=1000), Player(3, seed=seed, budget_scale=1000))
    while game.outcome() is None and len(game.history) < 24:
        game.push(sides[int(game.turn)].choose(game))
    return game.record()


def test_a_level_varies_among_equal_moves_by_its_seed_so_no_game_repeats_by_itself():
    """The same person's moves met by the same level: the same seed plays the same game (a
    replay is exact), other seeds other games, and every choice scores as the best did."""
    assert _duel(1) == _duel(1)
    assert len({_duel(seed) for seed in range(1, 5)}) > 1
    game = new_game(preset("nine-mens-morris"))
    info = Player(3, seed=3, budget_scale=1000).think(game)
    best = max(score for _, score in info.root_scores)
    assert info.score == best and (info.action, best) in info.root_scores
    assert not level_info(MAX_LEVEL).vary  # the strongest plays its one best line


def test_level_3_guards_a_mill_the_person_would_step_out_of_and_run():
    """The running mill (the person steps out of a closed mill where no pebble of the
    computer's can follow, and next turn steps back in and takes) is stopped only by guarding
    the mill the turn before: the step out, any answer and the step back are three plies more,
    so a 3-ply search does not see it and level 3 does. Black's mill
    b2 b4 b6 stands with b4 free to step to a4 or c4."""
    from navakankari.firmware.cli.runner import _steps_out

    game = new_game(preset("navakankari"))
    for text in "g4 d2 d6 b4 e5 b2 f2 b6 xf2 f2 e4 a1 d5 g1 g7 d1 xd5 a7 d7 d5".split():
        game.play(text)  # white to move

    def runs_after(action: str) -> list[str]:
        after = game.copy()
        after.play(action)
        return [a.text for a in after.legal_actions()
                if a.kind is ActionKind.MOVE and _steps_out(after, a)]

    for native in (True, False):  # the C core and the Python search alike
        shallow = Searcher(native=native).search(game.copy(), max_depth=3).action.text
        assert runs_after(shallow), (native, shallow)
    clock = lambda: 0.0  # noqa: E731 - time stands still: only the depth cap ends the search
    for seed in range(4):
        chosen = Player(3, seed=seed, clock=clock).choose(game).text
        assert runs_after(chosen) == [], (seed, chosen)


def _through(moves: str, runner_side: int, level: int, depth: int | None = None) -> int:
    """For how many runner seeds the scripted mill runner (`runner_side`) closes a running mill
    within twelve actions after `moves` against `level` (capped at `depth` plies if given),
    every search ending at its depth cap (`runner_check.seeds_through`)."""
    import dataclasses

    from navakankari.firmware.cli.runner_check import seeds_through

    game = new_game(preset("navakankari"))
    for text in moves.split():
        game.play(text)
    assert int(game.turn) != runner_side

    def defender(seed: int) -> Player:
        player = Player(level, seed=seed, clock=lambda: 0.0)  # only the cap ends a search
        if depth is not None:
            player.level = dataclasses.replace(player.level, max_depth=depth)
        return player

    return seeds_through(game, len(game.history), runner_side, None, defender)


def test_level_3_keeps_a_running_mill_away_two_turns_before_the_step_out():
    """A running mill is decided turns before its pebble steps out: from this position (a game
    of the scripted mill runner, white the runner, black to move) a 4-ply search lets the
    runner close a running mill within twelve actions for every runner seed, and level 3, 6
    plies deep, for none (`navakankari.firmware.cli.runner_check` asks the same question of
    whole games)."""
    from navakankari.firmware.cli.runner_check import RUNNER_SEEDS

    moves = ("g4 e4 d6 d1 b4 e3 e5 d3 d2 c3 xd2 d2 c5 c4 a4 f6 b6 f2 f4 b4-b2 xd1 a4-b4 g4-g7 "
             "c5-d5 g7-d7 d5-c5 d2-d1 d3-d2 e5-d5 xd2 e3-d3 d7-g7 e4-e3 xd5 d1-d2 xf4")
    assert _through(moves, 0, 3, depth=4) == RUNNER_SEEDS
    assert _through(moves, 0, 3) == 0


def test_the_default_level_keeps_away_a_running_mill_level_3_lets_through():
    """Another runner's game (black the runner, white to move, in the placing): a 6-ply search
    (level 3) lets the runner close a running mill within twelve actions for two runner seeds
    of three, and the default level, 8 plies deep, for none."""
    moves = "c5 b2 b4 d2 f2 c4 d3 d5 d6 f4 d1 g7 g4 a7 a1 d7 xb4 b4 e3"
    assert _through(moves, 1, 3) >= 2
    assert _through(moves, 1, DEFAULT_LEVEL) == 0
