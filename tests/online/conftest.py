from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from broker import Broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path)
    b.start()
    try:
        yield b
    finally:
        b.stop()
