"""Fixtures shared by the firmware tests."""

import pytest
from navakankari.firmware.store.database import Store


@pytest.fixture
def store(tmp_path):
    """A real SQLite game store in the test's folder, closed afterwards."""
    s = Store(tmp_path / "games.sqlite3")
    yield s
    s.close()
