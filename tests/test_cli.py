import re

from navakankari.firmware.cli import main as cli

COMMANDS = ["variants", "perft", "moves", "build-engine", "build-endgame", "bench", "selftest",
            "calibrate", "run", "sim", "replay", "takeback", "new-game", "service", "doctor",
            "play", "match"]


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
