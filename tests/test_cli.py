import re

from navakankari.engine.player import DEFAULT_LEVEL
from navakankari.firmware.cli import main as cli

COMMANDS = ["variants", "perft", "moves", "hint", "build-engine", "build-endgame", "bench",
            "selftest", "calibrate", "run", "sim", "replay", "takeback", "new-game", "invite",
            "join", "online-page", "broker",
            "service", "doctor",
            "play", "match", "record", "say"]


def test_help_lists_commands(capsys):
    assert cli.main([]) == 2
    out = capsys.readouterr().out
    assert out.startswith("usage: navakankari ")
    listed = [m.group(1) for m in re.finditer(r"^    ([a-z-]+)(?:  |$)", out, re.M)]
    assert listed == COMMANDS


def test_a_reader_that_leaves_early_is_not_an_error():
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "navakankari.firmware.cli", "perft",
                             "--depth", "5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline() == b"1 24\n"
    proc.stdout.close()  # like `| head -1`
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (0, b"")


def test_every_command_says_what_it_does_in_its_help(capsys):
    import argparse

    import pytest

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in COMMANDS:
        with pytest.raises(SystemExit):
            cli.main([name, "--help"])
        out = capsys.readouterr().out
        description = sub.choices[name].description
        assert description and description[0].isupper() and description.endswith("."), name
        assert " ".join(description.split()[:4]) in " ".join(out.split()), name


def test_sim_help_names_every_player_kind(capsys):
    import pytest

    with pytest.raises(SystemExit):
        cli.main(["sim", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for kind in ("hand", f"computer (level {DEFAULT_LEVEL})", "computer:N", "computer:max", "engine:PATH",
                 "remote", "online", "random", "greedy"):
        assert kind in out, kind


def test_the_readmes_position_examples_run(capsys):
    """The README's `moves --position` and `perft --position` lines, run as written."""
    import shlex
    from pathlib import Path

    from navakankari.firmware.cli.engine import EXAMPLE_POSITION

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    lines = [ln for ln in readme.splitlines()
             if ln.startswith("navakankari ") and "--position" in ln]
    assert {shlex.split(ln)[1] for ln in lines} == {"moves", "perft", "hint"}
    for line in lines:
        args = shlex.split(line)[1:]
        assert args[args.index("--position") + 1] == EXAMPLE_POSITION
        assert cli.main(args) == 0, line
        out = capsys.readouterr().out
        assert out.strip(), line
        if args[0] == "perft":
            assert out.splitlines() == ["1 6", "2 42", "3 262"]


def test_each_simulated_board_keeps_its_own_store(tmp_path, monkeypatch):
    import argparse

    import pytest

    from navakankari.firmware.cli.sim import _sim_store
    from navakankari.firmware.store.database import StoreUnusableError

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))

    def store(**given: object) -> str:
        args = argparse.Namespace(**{"store": None, "board_name": None, "port": 8080, **given})
        path, lock = _sim_store(args)
        assert lock is None  # only a port-0 simulator's store is locked before the daemon's
        return path

    assert store() == str(tmp_path / "simulator.sqlite3")
    assert store(port=8081) == str(tmp_path / "simulator-8081.sqlite3")
    assert store(port=8081, board_name="Grandma's board") == str(
        tmp_path / "simulator-grandma-s-board.sqlite3")
    assert store(board_name="Ravi") != store(board_name="Grandma")
    assert store(store=str(tmp_path / "x.sqlite3")) == str(tmp_path / "x.sqlite3")
    with pytest.raises(StoreUnusableError, match="there is no folder"):
        store(store=str(tmp_path / "nonexistent" / "dir" / "x.sqlite3"))
    assert not (tmp_path / "nonexistent").exists()


def test_a_renamed_option_is_read_under_its_former_name_and_says_so(capsys):
    args = cli.build_parser().parse_args(["sim", "--host", "0.0.0.0"])
    assert args.address == "0.0.0.0"
    assert capsys.readouterr().err == \
        "navakankari sim: --host is deprecated and will be removed; write --address\n"
    assert cli.build_parser().parse_args(["sim", "--address", "::1"]).address == "::1"
    assert capsys.readouterr().err == ""
