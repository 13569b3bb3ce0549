"""The tests' broker: the project's throwaway local Mosquitto, or a skip saying why not."""

from __future__ import annotations

from pathlib import Path

import pytest

from navakankari.firmware.tools.local_broker import USERS, BrokerMissingError, LocalBroker

__all__ = ["USERS", "Broker"]


def Broker(folder: Path) -> LocalBroker:  # the tests' name for it
    try:
        return LocalBroker(folder)
    except BrokerMissingError as exc:
        pytest.skip(f"{exc}; tests/run.sh installs it through tests/debian-deps.sh")
