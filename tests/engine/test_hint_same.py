"""One judgement, the same every time: a position's verdicts do not depend on what was judged
before, on the process, on the machine's load, or on which search (the C core or Python)
made them. The budget is small so that the node limit ends most searches mid-iteration: the
case where a wall clock or a carried-over table would show."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

import pytest
from navakankari.engine import core
from navakankari.engine.hint import NODE_STEP, Judge, Judgement, budget_nodes
from navakankari.engine.presets import PRESETS
from navakankari.engine.search import Searcher
from navakankari.engine.variants import game_from_position, new_game
from navakankari.firmware.cli import main as cli
from search_helpers import random_playout

BUDGET = 2 * NODE_STEP
OTHERS = 50


def _budget(variant: str) -> int:
    """Nau Keti Keta is searched in Python, some ten times slower a node: half the nodes."""
    return NODE_STEP if PRESETS[variant].game == "jump" else BUDGET


def _positions(variant: str, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        game = random_playout(new_game(PRESETS[variant]), rng, rng.randrange(0, 50))
        if game.outcome() is None:
            out.append(game.position())
    return out


def _seen(j: Judgement) -> tuple[object, ...]:
    """Everything a judgement says about its position (not its time)."""
    return (j.best, j.value, j.depth, j.exact, j.nodes, j.verdicts)


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_a_position_judged_again_after_fifty_others_gets_the_same_verdicts(variant):
    first, *others = _positions(variant, OTHERS + 1, seed=len(variant))
    judge, budget = Judge(), _budget(variant)
    before = judge.judge(game_from_position(variant, first), budget=budget)
    for text in others:
        judge.judge(game_from_position(variant, text), budget=budget)
    after = judge.judge(game_from_position(variant, first), budget=budget)
    assert _seen(after) == _seen(before)
    assert _seen(Judge().judge(game_from_position(variant, first), budget=budget)) == \
        _seen(before)


def _judged_here() -> list[dict[str, object]]:
    judge = Judge()
    return [judge.judge(game_from_position(v, p), budget=_budget(v)).to_dict()
            for v in sorted(PRESETS) for p in _positions(v, 2, seed=3)]


_OTHER_PROCESS = """
import json, sys
sys.path.insert(0, {tests!r})
from test_hint_same import _judged_here
print(json.dumps(_judged_here()))
"""


def test_another_process_gets_the_same_verdicts():
    here = _judged_here()
    script = _OTHER_PROCESS.format(tests=os.path.dirname(__file__))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    assert json.loads(done.stdout) == here


_SPIN = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass\n"


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity")
def test_the_verdicts_hold_with_another_process_spinning_on_the_same_core():
    quiet = _judged_here()
    cpu = min(os.sched_getaffinity(0))
    mine = os.sched_getaffinity(0)
    # Bounded: the spinner ends by itself within the time given, and is ended below anyway.
    spinner = subprocess.Popen([sys.executable, "-c", _SPIN.format(seconds=60)])
    try:
        os.sched_setaffinity(spinner.pid, {cpu})
        os.sched_setaffinity(0, {cpu})
        start = time.process_time()
        loaded = _judged_here()
        assert spinner.poll() is None  # it spun all along
    finally:
        os.sched_setaffinity(0, mine)
        spinner.kill()
        spinner.wait(timeout=10)
    assert time.process_time() > start
    assert loaded == quiet


@pytest.mark.skipif(not core.available(), reason="the C core is not built")
@pytest.mark.parametrize("variant", sorted(v for v, r in PRESETS.items() if core.serves(r)))
def test_the_c_core_and_the_python_search_give_the_same_verdicts(variant):
    python = Judge(Searcher(native=False))
    c = Judge()
    for text in _positions(variant, 3, seed=5):
        game = game_from_position(variant, text)
        assert _seen(c.judge(game, budget=BUDGET)) == _seen(python.judge(game, budget=BUDGET))


def test_budgets_are_whole_node_steps():
    assert budget_nodes(1) == NODE_STEP
    assert budget_nodes(NODE_STEP) == NODE_STEP
    assert budget_nodes(NODE_STEP + 1) == 2 * NODE_STEP


def test_hint_json_judges_each_position_of_standard_input_in_turn(capsys, monkeypatch):
    texts = _positions("navakankari", 3, seed=9)
    first = texts[0]
    lines = "\n".join([first, *texts[1:], "", first]) + "\n"
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(lines))
    assert cli.main(["hint", "--variant", "navakankari", "--json", "--position", "-",
                     "--budget", str(BUDGET)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["position"] for o in out] == [*texts, first]
    assert out[-1] == out[0]
    alone = Judge().judge(game_from_position("navakankari", texts[1]), budget=BUDGET)
    assert out[1] == alone.to_dict()


def test_hint_json_answers_a_bad_position_with_its_error_and_judges_the_rest(capsys):
    good = _positions("nine-mens-morris", 1, seed=2)[0]
    assert cli.main(["hint", "--json", "--position", "nonsense", "--position", good,
                     "--budget", str(BUDGET)]) == 2
    bad, ok = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert bad["position"] == "nonsense" and "position has 1 field;" in bad["error"]
    assert ok["position"] == good and ok["best"] in ok["actions"]
