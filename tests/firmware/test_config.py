from __future__ import annotations

import logging
from pathlib import Path

import pytest
from navakankari.firmware.core.errors import ConfigError
from navakankari.firmware.core.players import PlayerSpec
from navakankari.firmware.daemon.config import Config, load_config

EXAMPLE = Path(__file__).parents[2] / "firmware" / "daemon" / "navakankari.example.toml"


def test_the_example_file_documents_exactly_the_defaults():
    assert load_config(EXAMPLE) == Config()


def test_an_empty_file_is_the_defaults(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("")
    assert load_config(path) == Config()


def test_round_trip_through_a_dict():
    config = Config(game_variant="nau-keti-keta", game_white=PlayerSpec("computer", 5),
                    tracker_settle=0.3, web_port=9000)
    assert Config.from_dict(config.to_dict()) == config
    assert config.to_dict()["game"]["white"] == "computer:5"
    assert config.profile == "direct-19"
    assert Config().profile == "direct-24"


@pytest.mark.parametrize("text", ["hand", "hand:0", "hand:4", "remote", "computer:4", "engine:/usr/local/bin/sanmill",
                                  "engine:sanmill?SkillLevel=20&seconds=0.5",
                                  "engine:/opt/a:b/engine?Move%20Overhead=5"])
def test_player_specs_round_trip(text):
    spec = PlayerSpec.parse(text)
    assert str(spec) == text and PlayerSpec.parse(str(spec)) == spec
    assert spec.plays_itself == (text.startswith(("computer", "engine")))


def test_an_engine_player_in_the_config_file(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[game]\nblack = "engine:/usr/games/sanmill?SkillLevel=30&seconds=2"\n')
    config = load_config(path)
    assert config.game_black == PlayerSpec("engine", engine="/usr/games/sanmill?SkillLevel=30&seconds=2")
    assert Config.from_dict(config.to_dict()) == config
    path.write_text('[game]\nblack = "engine:/usr/games/sanmill?seconds=never"\n')
    with pytest.raises(ConfigError, match="game.black: .*seconds must be a positive number"):
        load_config(path)


def test_integers_are_accepted_for_seconds(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[tracker]\ngrace = 1\n")
    assert load_config(path).tracker_grace == 1.0


@pytest.mark.parametrize("text, key", [
    ("[game]\nvariant = 'chess'\n", "game.variant"),
    ("[game]\nwhite = 'robot'\n", "game.white"),
    ("[game]\nblack = 'computer:11'\n", "game.black"),
    ("[game]\nblack = 'hand:5'\n", "game.black"),
    ("[game]\nblack = 'hand:x'\n", "game.black"),
    ("[tracker]\nsettle = 'fast'\n", "tracker.settle"),
    ("[tracker]\nsettle = 0.01\n", "tracker.settle"),
    ("[tracker]\nsetle = 0.2\n", "tracker.setle"),
    ("[web]\nport = 70000\n", "web.port"),
    ("[store]\nevents = -1\n", "store.events"),
    ("[colours]\nx = 1\n", "colours"),
    ("[log]\nlevel = 'loud'\n", "log.level"),
    ("[online]\nplayer_page = 'club.example/index.html'\n", "online.player_page"),
    ("[game\n", "toml"),
])
def test_a_bad_value_names_its_key(tmp_path, text, key):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.key == key
    assert str(path) in str(info.value) and key in str(info.value)


def test_store_file_follows_the_state_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    assert Config().store_file() == tmp_path / "games.sqlite3"
    assert Config(store_path="/x/y.db").store_file() == Path("/x/y.db")


def test_tracker_settings_come_from_the_config():
    from navakankari.firmware.daemon.config import Config

    config = Config.from_dict({"tracker": {"clear_hold": 4, "fault_edges": 30, "settle": 0.25}})
    settings = config.tracker_settings()
    assert (settings.clear_hold, settings.fault_edges, settings.settle) == (4.0, 30, 0.25)
    assert isinstance(settings.fault_edges, int)


def test_fault_edges_must_be_a_positive_whole_number():
    import pytest
    from navakankari.firmware.daemon.config import Config, ConfigError

    with pytest.raises(ConfigError, match="tracker.fault_edges: must be at least 1"):
        Config.from_dict({"tracker": {"fault_edges": 0}})
    with pytest.raises(ConfigError, match="tracker.fault_edges: must be a whole number"):
        Config.from_dict({"tracker": {"fault_edges": 2.5}})


@pytest.mark.parametrize("value", ["fast", 5.0, 0.01, True])
def test_the_settle_time_has_one_range_whatever_is_wrong(value):
    """The range is the tracker's own, stated once, for a wrong type and a wrong number alike."""
    from navakankari.firmware.core.tracker import TrackerSettings

    low, high = TrackerSettings.SECONDS["settle"]
    with pytest.raises(ConfigError, match=f"tracker.settle: must be {low:g}..{high:g} seconds"):
        Config.from_dict({"tracker": {"settle": value}})


def test_the_config_defaults_are_the_trackers_and_the_menus():
    from navakankari.firmware.core.menu import MenuSettings
    from navakankari.firmware.core.tracker import TrackerSettings

    assert Config().tracker_settings() == TrackerSettings()
    assert Config().menu_settings() == MenuSettings()


def test_a_hands_assistance_is_part_of_its_spec():
    assert PlayerSpec.parse("hand").assistance == 1
    assert PlayerSpec.parse("hand:1") == PlayerSpec.parse("hand") and str(PlayerSpec.parse("hand:1")) == "hand"
    assert PlayerSpec.parse("hand:3").assistance == 3
    assert PlayerSpec.parse("computer:3").assistance == 0  # the computer gets no help
    assert PlayerSpec.parse("remote").assistance == 0


def test_hints_per_turn_is_a_small_whole_number(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[game]\nhints_per_turn = 2\n")
    assert load_config(path).game_hints_per_turn == 2
    path.write_text("[game]\nhints_per_turn = -1\n")
    with pytest.raises(ConfigError, match="game.hints_per_turn: must be 0..100"):
        load_config(path)


def test_speech_is_off_by_default_and_its_keys_are_checked(tmp_path):
    assert Config().speech_enabled is False
    path = tmp_path / "c.toml"
    path.write_text('[speech]\nenabled = true\ndevice = "plughw:CARD=Device"\nrate = 120\n')
    config = load_config(path)
    assert (config.speech_enabled, config.speech_device, config.speech_rate) == \
        (True, "plughw:CARD=Device", 120)
    assert Config.from_dict(config.to_dict()) == config
    for text, key in (("enabled = 'yes'", "speech.enabled"), ("rate = 20", "speech.rate"),
                      ("rate = 1.5", "speech.rate"), ("device = 3", "speech.device")):
        path.write_text(f"[speech]\n{text}\n")
        with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
            load_config(path)


def test_the_former_key_online_page_is_read_and_named_in_the_log(tmp_path, caplog):
    path = tmp_path / "c.toml"
    path.write_text("[online]\npage = 'https://club.example/index.html'\n")
    with caplog.at_level(logging.WARNING, logger="navakankari.firmware.daemon.config"):
        config = load_config(path)
    assert config.online_player_page == "https://club.example/index.html"
    assert f"{path}: online.page is deprecated and will be removed; write online.player_page" \
        in caplog.text
    assert "player_page" in config.to_dict()["online"]
