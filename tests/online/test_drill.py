"""The online drill's figures add up (its speed is for the benchmark, not for a test)."""

from __future__ import annotations

from broker import Broker  # noqa: F401 - skips the module's tests where mosquitto is missing

from navakankari.firmware.tools.local_broker import BrokerMissingError, mosquitto
from navakankari.firmware.tools.online_bench import drill, run

import pytest

try:
    mosquitto()
except BrokerMissingError as exc:
    pytest.skip(str(exc), allow_module_level=True)


def test_restarts_and_kills_lose_nothing():
    result = drill(games=2, restarts=2, kills=2, seed=3)
    latency = result.pop("latency")
    assert result["games"] == 2 and result["broker restarts"] == 2
    assert result["boards killed"] == 2
    assert result["lost"] == result["applied twice"] == result["forks"] == 0
    assert isinstance(latency, list) and len(latency) == result["actions"] > 0
    assert latency == sorted(latency)


def test_the_drill_prints_its_figures():
    lines: list[str] = []
    run(lines.append, games=1, restarts=0, kills=0)
    assert lines[0].startswith("online drill, games 1, actions ")
    assert "lost 0, applied twice 0, forks 0, stalls 0" in lines[0]
    assert lines[1].startswith("online move recorded -> arrived on the other board: p50 ")


def test_an_outsider_striking_at_every_move_loses_doubles_forks_and_stalls_nothing():
    result = drill(games=1, restarts=1, kills=1, seed=4, attack=True)
    latency = result.pop("latency")
    assert result["attacker's messages"] > 100 and result["dropped"] > 0
    assert result["lost"] == result["applied twice"] == result["forks"] == result["stalls"] == 0
    assert result["takebacks"] > 0  # and the withdrawn moves replayed changed nothing
    # every move arrived once, the withdrawn ones as well as those the game kept
    assert isinstance(latency, list) and len(latency) >= result["actions"] > 0
