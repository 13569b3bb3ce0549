from navakankari.firmware.cli import engine_bench as bench


def test_bench_prints_counts_and_rates():
    lines: list[str] = []
    bench.run(out=lines.append, quick=True)
    assert len(lines) == 4
    assert "endgame 3v3 file" in lines[3] and "lookups/s" in lines[3]
    assert "depth 4: 255024 leaves" in lines[0] and "leaves/s" in lines[0]
    assert "depth 5: 9239 leaves" in lines[1] and "push+pop/s" in lines[1]
