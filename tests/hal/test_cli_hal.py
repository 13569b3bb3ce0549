"""The selftest and calibrate subcommands parse their arguments and report bad profiles."""

from __future__ import annotations

import pytest

from navakankari.firmware.cli import main as cli


def test_subcommands_are_registered() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["selftest", "--profile", "sim-19", "--touch-timeout", "5", "--no-led-check"])
    assert (args.profile, args.touch_timeout, args.no_led_check) == ("sim-19", 5.0, True)
    args = parser.parse_args(["calibrate", "--out", "board.toml", "--keep-sensors"])
    assert args.profile == "direct-24" and args.keep_sensors and str(args.out) == "board.toml"


def test_calibrate_needs_an_output_file(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["calibrate"])
    assert info.value.code == 2
    assert "--out" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["selftest"], ["calibrate", "--out", "x.toml"]])
def test_a_bad_profile_is_reported_not_raised(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*command, "--profile", "no-such-board"]) == 2
    err = capsys.readouterr().err
    assert "no such profile" in err and "direct-24" in err
