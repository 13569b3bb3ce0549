"""The presets from the command line and the configuration: `variants --rules` states each
preset's taking and draws, and every preset (navakankari-flying too) is reachable."""

from navakankari.engine.presets import PRESETS
from navakankari.firmware.cli import main as cli
from navakankari.firmware.daemon.config import Config, load_config

FLYING_FEN = "*@*@****/**O*O***/O*OO**@* w m s 5 0 3 0 0 0 0 0 0 0 0 0 1"


def _variants(capsys) -> dict[str, list[str]]:
    assert cli.main(["variants", "--rules"]) == 0
    blocks: dict[str, list[str]] = {}
    for line in capsys.readouterr().out.splitlines():
        if not line.startswith(" "):
            name = line.split(":")[0]
            blocks[name] = [line]
        else:
            blocks[name].append(line.strip())
    return blocks


def test_variants_rules_state_taking_and_draws_for_every_preset(capsys):
    blocks = _variants(capsys)
    assert list(blocks) == list(PRESETS)
    for name, lines in blocks.items():
        assert any(line.startswith("draws: ") for line in lines), name
        assert any(line.startswith("source: ") for line in lines), name
        if PRESETS[name].game == "morris":
            assert any(line.startswith("taking: ") for line in lines), name
    text = {name: "\n".join(lines) for name, lines in blocks.items()}
    assert "a mill takes at most 3 times per side: every formation counts" in text["navakankari"]
    assert "at most once per side" in text["navakankari-strict"]
    assert "every time it is formed" in text["nine-mens-morris"]
    assert "counted: positions reached by a move" in text["nine-mens-morris"]
    assert "100 moves in a row without a pebble taken" in text["navakankari"]
    assert "texts name no draw" in text["navakankari"].lower()
    assert "once a side is down to 3, both fly" in text["navakankari-flying"]
    assert "counted: every position, the start included" in text["nau-keti-keta"]
    # One word for a pebble taken, as the board says it.
    assert not any(word in body for body in text.values() for word in ("captur", "remov"))


def test_navakankari_flying_from_the_command_line(capsys):
    assert cli.main(["moves", "--variant", "navakankari-flying", "--position", FLYING_FEN]) == 0
    flying = set(capsys.readouterr().out.split())
    assert cli.main(["moves", "--variant", "navakankari", "--position", FLYING_FEN]) == 0
    walking = set(capsys.readouterr().out.split())
    assert "d2-a7" in flying - walking


def test_navakankari_flying_from_the_configuration(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[game]\nvariant = "navakankari-flying"\n')
    assert load_config(path) == Config(game_variant="navakankari-flying")
