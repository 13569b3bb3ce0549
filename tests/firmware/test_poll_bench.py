"""`navakankari bench poll` prints the direct-GPIO poll's CPU cost (here on MockFactory)."""

from __future__ import annotations

from navakankari.firmware.cli import main as cli


def test_bench_poll_prints_the_cost_of_a_poll(capsys) -> None:
    assert cli.main(["bench", "poll", "--quick"]) == 0
    line = [x for x in capsys.readouterr().out.splitlines() if x.startswith("poll of 24 pins")]
    assert len(line) == 1 and "MockFactory, 2000 polls" in line[0] and "% of one core" in line[0]
