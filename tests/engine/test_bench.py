from navakankari.firmware.tools import engine_bench as bench


def test_bench_prints_counts_and_rates():
    from navakankari.engine import core

    lines: list[str] = []
    bench.run(out=lines.append, quick=True)
    fast = [ln for ln in lines if "(C core)" in ln]
    assert len(lines) == 4 + len(fast)
    assert "endgame 3v3 file" in lines[-1] and "lookups/s" in lines[-1]
    python = [ln for ln in lines if "(Python)" in ln]
    assert "empty board depth 4 (Python): 255024 leaves" in python[0] and "leaves/s" in python[0]
    assert "moving phase depth 5 (Python): 9239 leaves" in python[1]
    assert "push+pop/s" in python[1]
    if core.available():  # two plies deeper in C: the counts the Python generator gives
        assert "empty board depth 6 (C core): 96223680 leaves" in fast[0]
        assert "moving phase depth 7 (C core): 449336 leaves" in fast[1]


def test_hint_bench_prints_each_variants_times_calibration_and_the_pi_estimate():
    from navakankari.engine.presets import PRESETS
    from navakankari.firmware.tools import hint_bench

    lines: list[str] = []
    hint_bench.run(out=lines.append, quick=True, n=1, shares=(0.3,))
    assert lines[0].startswith("board budget in search nodes: 32768 for morris, 4096 for jump")
    assert "Pi 4 estimate: laptop CPU time x 5" in lines[0]
    rows = lines[1:1 + len(PRESETS)]
    assert [ln.split(":")[0] for ln in rows] == list(PRESETS)
    for ln in rows:
        assert "advice p50" in ln and "Pi 4 estimate p99" in ln
        assert "1 positions, " in ln and " unstable, " in ln and " false alarms (" in ln
        assert " misses (" in ln
    assert any(ln.startswith("worst p99 on a Pi 4 (estimate): ") for ln in lines)
    assert lines[-1].startswith(f"all: {len(PRESETS)} positions, ")
    assert " 0 unstable, " in lines[-1]


def test_search_bench_times_the_same_fixed_depth_searches_in_each_engine():
    import re

    from navakankari.engine import core
    from navakankari.firmware.tools import search_bench

    lines: list[str] = []
    search_bench.run(out=lines.append, quick=True)
    fixed = [ln for ln in lines if " to depth " in ln]
    totals = [ln for ln in lines if ln.startswith("fixed-depth searches")]
    assert len(totals) == (2 if core.available() else 1)
    assert len(fixed) == 3 * len(totals)
    # Each engine finds the same: the nodes and the action of a search to a fixed depth.
    found = [re.sub(r"\((C core|Python)\)|[\d.]+ s CPU", "", ln) for ln in fixed]
    assert found[:3] == found[3:] or len(totals) == 1


def test_the_mill_runner_steps_out_of_a_mill_no_pebble_can_block_and_back_in():
    from navakankari.engine.actions import ActionKind
    from navakankari.engine.variants import new_game
    from navakankari.firmware.cli.runner import MillRunner, _in_own_mills

    game = new_game("nine-mens-morris")
    for text in "a7 b2 d7 f2 g7 xf2 f2 g1 d1 a1 b4 d2 e4 b6 c5 c4 c3 d3 e3".split():
        game.play(text)  # white's mill a7 d7 g7 stands, white to move
    runner = MillRunner(level=1, seed=3)
    out = runner.choose(game)
    assert out.kind is ActionKind.MOVE and out.origin in _in_own_mills(game)
    game.push(out)
    assert all(a.target != out.origin for a in game.legal_actions())  # black cannot block
    game.push(next(a for a in game.legal_actions() if a.kind is ActionKind.MOVE))
    back = runner.choose(game)
    assert (back.origin, back.target) == (out.target, out.origin)
    game.push(back)
    assert game.pending_removals and runner.choose(game).kind is ActionKind.REMOVE


def test_the_runner_bench_counts_the_running_mills_against_the_default_level():
    import re

    from navakankari.firmware.cli import runner as runner_bench

    lines: list[str] = []
    runner_bench.run(out=lines.append, quick=True)
    assert re.fullmatch(r"mill runner against computer:4, 6 games: runner \d+ wins, \d+ draws, "
                        r"\d+ losses \([\d.]+ % for the runner\)", lines[0])
    assert re.fullmatch(r"running mills closed by the runner: \d+ in \d+ games, at most \d+ in "
                        r"one", lines[1])
    assert lines[2].startswith("computer:4 think time: median ")


#: A game of the runner (black) against level 3 (`runner --games 6 --seed 11`, its sixth):
#: it ran one mill at actions 27 and 32 and another at 64 and 69.
RAN_TWICE = (
    "b4 a7 d2 g1 b2 a1 b6 xa1 f2 f4 d6 a4 c4 e4 g4 g7 d5 d7 c3 d2-d3 f2-d2 a4-a1 d5-c5 xd3 "
    "a1-d1 c5-d5 b4-a4 d5-c5 xa4 b2-b4 c5-d5 e4-e3 d5-c5 xe3 f4-f6 c5-d5 f6-f4 d5-c5 f4-e4 "
    "c3-d3 b4-a4 c4-b4 e4-e3 d3-c3 e3-d3 c5-c4 d3-e3 c4-c5 e3-d3 c5-c4 d3-e3 g4-f4 e3-d3 "
    "g1-g4 d1-g1 f4-e4 g1-d1 d2-f2 d1-g1 f2-f4 xd3 g1-d1 f4-f2 a4-a1 f2-f4 xa1 d1-a1 f4-f6 "
    "a1-a4 f6-f4 xa4")


def test_each_running_mill_is_named_with_its_action_and_mill():
    from navakankari.engine.variants import new_game
    from navakankari.firmware.cli.match import running_mill_closes

    game = new_game("navakankari")
    game.play_record(RAN_TWICE)
    closes = running_mill_closes(game)
    assert [(c.ply, c.side) for c in closes] == [(27, 1), (32, 1), (64, 1), (69, 1)]
    first, again, other, other_again = (c.mill for c in closes)
    assert first == again and other == other_again and first != other
    for c in closes:
        assert game.board.mill_masks.count(c.mill) == 1
        assert c.mill >> game.history[c.ply].target & 1  # the pebble stepped back into it


def test_a_runnable_mill_runs_again_whoever_defends_and_only_that_mill_counts():
    from navakankari.engine.player import RandomPlayer
    from navakankari.engine.variants import new_game
    from navakankari.firmware.cli.runner import MillRunner
    from navakankari.firmware.cli.runner_check import runs_again

    def position():
        game = new_game("nine-mens-morris")
        for text in "a7 b2 d7 f2 g7 xf2 f2 g1 d1 a1 b4 d2 e4 b6 c5 c4 c3 d3 e3".split():
            game.play(text)  # white's mill a7 d7 g7, which no black pebble can guard
        return game

    board = position().board
    top = board.mask(["a7", "d7", "g7"])
    assert top in board.mill_masks
    assert runs_again(position(), 0, RandomPlayer(seed=1), MillRunner(seed=0), top)
    assert runs_again(position(), 0, RandomPlayer(seed=1), MillRunner(seed=0), None)
    others = [m for m in board.mill_masks if m != top]
    assert not any(runs_again(position(), 0, RandomPlayer(seed=1), MillRunner(seed=0), m)
                   for m in others[:3])


def test_a_mill_that_only_stands_while_another_runs_is_not_counted_as_running():
    from navakankari.engine.player import RandomPlayer
    from navakankari.firmware.cli.runner import MillRunner
    from navakankari.firmware.cli.runner_check import runs_again
    from search_helpers import morris_position

    def position():  # type: ignore[no-untyped-def]
        # White's bottom mill a1 d1 g1 stands shut in by black's a4 d2 g4; its top mill
        # a7 d7 g7 runs (d7 to d6 and back, no black pebble next to d7).
        return morris_position("nine-mens-morris", "a1 d1 g1 a7 d7 g7 c4", "a4 d2 g4 b6 f6 e3")

    board = position().board
    top, bottom = board.mask(["a7", "d7", "g7"]), board.mask(["a1", "d1", "g1"])
    assert top in board.mill_masks and bottom in board.mill_masks
    # Four actions: the step out, black's answer, the step back in and its take, with the
    # bottom mill standing all the while.
    for seed in range(3):
        assert runs_again(position(), 0, RandomPlayer(seed=seed), MillRunner(seed=0), top, 4)
        assert runs_again(position(), 0, RandomPlayer(seed=seed), MillRunner(seed=0), None, 4)
        assert not runs_again(position(), 0, RandomPlayer(seed=seed), MillRunner(seed=0),
                              bottom, 4)


def test_the_check_plays_each_second_run_and_each_first_run_again():
    from navakankari.engine.game import Outcome, Reason
    from navakankari.firmware.cli.match import GameResult
    from navakankari.firmware.cli.runner import RunnerResult
    from navakankari.firmware.cli.runner_check import RUNNER_SEEDS, check

    game = GameResult(Outcome(None, Reason.ACTION_LIMIT), 73, RAN_TWICE)
    result = check(RunnerResult((game,), (1,), ()), depth=2)
    assert result.repeats_deep.positions == result.repeats_level.positions == 2
    assert result.firsts_deep.positions == result.firsts_level.positions == 1
    lines = result.report(2, "computer:3", 3)
    assert lines[0].startswith("second runs of one mill: 2, played again from the defender's "
                               f"turn after the first run's take (12 actions, {RUNNER_SEEDS} ")
    assert lines[1].startswith("  a 2-ply defender: through for every runner seed in ")
    assert lines[3].startswith("first running mills: 1, played again from the defender's "
                               "turn 3 of its moves before the close")


def test_the_check_command_prints_the_runners_report_then_the_checks(capsys):
    from navakankari.firmware.cli.runner_check import main

    assert main(["--games", "2", "--seed", "11", "--depth", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("mill runner against computer:4, 2 games: ")
    assert lines[3].startswith("second runs of one mill: ")
    assert lines[4].startswith("  a 2-ply defender: ") and lines[5].startswith("  computer:4: ")
    assert lines[6].startswith("first running mills: ")
