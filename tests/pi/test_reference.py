"""The figures the emulated Pi's engine is compared with are this engine's own: a change to
the search or the evaluation that moves them fails here, in the suite, and not first under
emulation an hour later (x86-reference.json is made by engine_reference.py)."""

from __future__ import annotations

import json
from pathlib import Path

import engine_reference
import pytest
from navakankari.engine import core

REFERENCE = Path(__file__).with_name("x86-reference.json")


def test_the_pis_reference_figures_are_this_engines():
    if not core.available():
        pytest.skip("the C core is not built: its figures cannot be made here")
    assert engine_reference.figures() == json.loads(REFERENCE.read_text()), (
        "the engine's figures moved: python tests/pi/engine_reference.py > the reference "
        "(after checking the change was meant to move them)")
