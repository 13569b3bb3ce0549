"""The tests' Mosquitto on ports picked here: another program may take one between the pick
and the broker's bind (the suite once failed so); a first start then moves to fresh ports."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from english_words import english_left
from navakankari.firmware.cli.args import error_words
from navakankari.firmware.i18n.catalogs import translations
from navakankari.firmware.online.club import Ports
from navakankari.firmware.tools import local_broker
from navakankari.firmware.tools.local_broker import LocalBroker, PortTakenError


@pytest.fixture
def taken() -> Iterator[int]:
    """A port another program listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield int(s.getsockname()[1])


def test_a_first_start_on_a_port_taken_meanwhile_moves_to_fresh_ports(tmp_path: Path, taken: int,
                                                                      monkeypatch) -> None:
    picks = iter([taken])
    real = local_broker.free_port
    monkeypatch.setattr(local_broker, "free_port", lambda: next(picks, None) or real())
    broker = LocalBroker(tmp_path)
    assert broker.port == taken
    broker.start()
    try:
        assert broker.port != taken and broker.ports_open()
        moved = broker.port
        broker.stop()
        broker.start()  # a restart keeps the ports its clients know
        assert broker.port == moved and broker.ports_open()
    finally:
        broker.stop()


def test_ports_given_are_kept_and_a_taken_one_is_said(tmp_path: Path, taken: int) -> None:
    """Ports given are kept; a taken one is named, in the player's language too, with
    Mosquitto's own words kept as they are."""
    ports = Ports(taken, local_broker.free_port(), local_broker.free_port())
    broker = LocalBroker(tmp_path, ports=ports)
    with pytest.raises(PortTakenError, match="Address already in use") as refused:
        broker.start()
    assert broker.port == taken
    mosquitto_said = dict(refused.value.args[0].places)["problem"]
    assert str(refused.value) == f"mosquitto stopped as it started: {mosquitto_said}"
    for code in ("hi", "ta"):
        said = error_words(refused.value, translations(code))
        assert mosquitto_said in said and english_left(said, mosquitto_said, "mosquitto") == []
