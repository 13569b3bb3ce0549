from navakankari.firmware.cli import engine_bench as bench


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


def test_hint_bench_prints_each_variants_lift_times_and_the_pi_estimate():
    from navakankari.engine.presets import PRESETS
    from navakankari.firmware.cli import hint_bench

    lines: list[str] = []
    hint_bench.run(out=lines.append, quick=True, n=1)
    assert lines[0].startswith("Pi 4 estimate: laptop time x 5")
    assert [ln.split(":")[0] for ln in lines[1:-1]] == list(PRESETS)
    assert all("lift -> quality p50" in ln and "Pi 4 estimate p50" in ln for ln in lines[1:-1])
    assert lines[-1].startswith("worst p99 on a Pi 4 (estimate): ")


def test_search_bench_times_the_same_fixed_depth_searches_in_each_engine():
    import re

    from navakankari.engine import core
    from navakankari.firmware.cli import search_bench

    lines: list[str] = []
    search_bench.run(out=lines.append, quick=True)
    fixed = [ln for ln in lines if " to depth " in ln]
    totals = [ln for ln in lines if ln.startswith("fixed-depth searches")]
    assert len(totals) == (2 if core.available() else 1)
    assert len(fixed) == 3 * len(totals)
    # Each engine finds the same: the nodes and the action of a search to a fixed depth.
    found = [re.sub(r"\((C core|Python)\)|[\d.]+ s CPU", "", ln) for ln in fixed]
    assert found[:3] == found[3:] or len(totals) == 1
