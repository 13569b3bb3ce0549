"""The soak runs of `navakankari bench` at tiny sizes: the figures they print add up (their
speed is a benchmark's business, not a test's)."""

from __future__ import annotations

import re

import pytest
from navakankari.firmware.tools import fuzz_bench
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


def test_power_cut_prints_figures_that_add_up(capsys):
    assert cli.main(["bench", "power-cut", "--cuts", "2", "--seed", "2"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    cuts = re.search(r"^cuts: (\d+) \(SIGKILL at random moments of play; (\d+) games", out, re.M)
    assert cuts and int(cuts.group(1)) == 2, out
    acknowledged = int(re.search(r"^acknowledged actions: (\d+)$", out, re.M).group(1))
    assert acknowledged >= 0
    assert re.search(r"^lost: 0$", out, re.M) and re.search(r"^corrupted stores: 0$", out, re.M)
    restarts = re.search(r"^restart to serving: p50 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms "
                         r"\((\d+) restarts\)$", out, re.M)
    assert restarts and int(restarts.group(1)) == 2, out  # one restart to serving a cut
    assert "100.0 % 2/2 cuts" in captured.err


def test_a_store_check_finds_what_was_lost_or_wrong(tmp_path):
    from navakankari.engine.presets import preset
    from navakankari.firmware.tools.power_cut_bench import check_store
    from navakankari.firmware.store.database import Store

    script = ["d6", "a4", "e3", "b2"]
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game = store.new_game(preset("nine-mens-morris"), {"white": "hand", "black": "hand"})
    store.append(game, 0, script[:3])
    store.close()
    assert check_store(path, script, [(1, "d6"), (2, "a4"), (3, "e3")]) == (0, None)
    # Acknowledged but not stored: lost.
    assert check_store(path, script, [(1, "d6"), (4, "b2")]) == (1, None)
    # Stored, but not the game's.
    assert check_store(path, ["d6", "a1", "e3"], [(1, "d6")])[1] == \
        "holds actions that are not the game's"
    path.write_bytes(b"not a database" * 100)
    lost, why = check_store(path, script, [])
    assert why is not None and why.startswith("cannot be read")
