from navakankari.firmware import cli


def test_help_lists_commands(capsys):
    assert cli.main([]) == 2
    assert "navakankari" in capsys.readouterr().out
