from navakankari.firmware.cli import engine_bench as bench


def test_bench_prints_counts_and_rates():
    lines: list[str] = []
    bench.run(out=lines.append, quick=True)
    assert len(lines) == 4
    assert "endgame 3v3 file" in lines[3] and "lookups/s" in lines[3]
    assert "depth 4: 255024 leaves" in lines[0] and "leaves/s" in lines[0]
    assert "depth 5: 9239 leaves" in lines[1] and "push+pop/s" in lines[1]



def test_hint_bench_prints_each_variants_lift_times_and_the_pi_estimate():
    from navakankari.engine.presets import PRESETS
    from navakankari.firmware.cli import hint_bench

    lines: list[str] = []
    hint_bench.run(out=lines.append, quick=True, n=1)
    assert lines[0].startswith("Pi 4 estimate: laptop time x 5")
    assert [ln.split(":")[0] for ln in lines[1:-1]] == list(PRESETS)
    assert all("lift -> quality p50" in ln and "Pi 4 estimate p50" in ln for ln in lines[1:-1])
    assert lines[-1].startswith("worst p99 on a Pi 4 (estimate): ")
