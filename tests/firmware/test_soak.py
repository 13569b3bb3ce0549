"""The soak runs of `navakankari bench` at tiny sizes: the figures they print add up (their
speed is a benchmark's business, not a test's)."""

from __future__ import annotations

import re

import pytest
from navakankari.firmware.cli import fuzz_bench
from navakankari.firmware.cli import main as cli
from navakankari.firmware.core.session import Session


def _figures(out: str) -> dict[str, int]:
    found = {}
    for key in ("crashes", "illegal commits", "unrecoverable states", "actions committed"):
        m = re.search(rf"^{key}: (\d+)$", out, re.M)
        assert m, (key, out)
        found[key] = int(m.group(1))
    m = re.search(r"^events: (\d+) in (\d+) streams \((.*)\)$", out, re.M)
    assert m, out
    found["events"], found["streams"] = int(m.group(1)), int(m.group(2))
    found["by variant"] = sum(int(part.rsplit(" ", 1)[1]) for part in m.group(3).split(", "))
    assert re.search(r"^rate: [\d,]+ events/s \([\d.]+ s\)$", out, re.M), out
    return found


def test_fuzz_prints_figures_that_add_up(capsys):
    assert cli.main(["bench", "fuzz", "--events", "3000", "--variants",
                     "nine-mens-morris,nau-keti-keta", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    f = _figures(captured.out)
    assert f["events"] >= 3000 and f["events"] == f["by variant"]
    assert f["streams"] >= 1 and f["actions committed"] > 0
    assert f["crashes"] == f["illegal commits"] == f["unrecoverable states"] == 0
    assert "100.0 %" in captured.err  # the progress bar, on stderr
    # The same seed, the same streams.
    assert cli.main(["bench", "fuzz", "--events", "3000", "--variants",
                     "nine-mens-morris,nau-keti-keta", "--seed", "4"]) == 0
    again = _figures(capsys.readouterr().out)
    assert again == f


def test_fuzz_counts_what_goes_wrong(monkeypatch):
    def wrong(rules, record):
        raise AssertionError("a1: the point is taken")

    monkeypatch.setattr(fuzz_bench, "judge_record", wrong)
    f = fuzz_bench.fuzz(1500, ("lasker",))
    assert f.illegal == f.streams >= 1 and f.crashes == 0
    assert f.first_failures[0].startswith("illegal commit, lasker seed 0: a1: the point is taken")

    def broken(self, event):
        raise KeyError("zz")

    monkeypatch.setattr(Session, "feed", broken)
    f = fuzz_bench.fuzz(1500, ("lasker",))
    assert f.crashes == f.streams >= 1 and f.illegal == 0
    assert "KeyError" in f.first_failures[0]


@pytest.mark.parametrize(("args", "says"), [
    (["--events", "0"], "--events: must be at least 1, not 0"),
    (["--events", "ten"], "'ten' is not a whole number"),
])
def test_fuzz_refuses_a_bad_size(capsys, args, says):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["bench", "fuzz", *args])
    assert exit_.value.code == 2 and says in capsys.readouterr().err


def test_fuzz_refuses_an_unknown_variant(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["bench", "fuzz", "--variants", "lasker,nope"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "unknown variant 'nope'" in err and "Traceback" not in err
