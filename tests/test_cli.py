from navakankari.firmware import cli


def test_help_lists_commands(capsys):
    assert cli.main([]) == 2
    assert "navakankari" in capsys.readouterr().out


def test_a_reader_that_leaves_early_is_not_an_error():
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "navakankari.firmware.cli", "perft",
                             "--depth", "5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline() == b"1 24\n"
    proc.stdout.close()  # like `| head -1`
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert b"Traceback" not in err
