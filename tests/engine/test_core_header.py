"""The C core's header is written from the Python engine's tables (core_header.py): the copy
in the sources is that text, a changed table changes it, and core.c defines none of its names
again."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from navakankari.engine import core, core_header, core_tables, native, preset
from navakankari.engine.actions import ActionKind
from navakankari.engine.evaluate import MorrisWeights
from navakankari.engine.rules import Flying

HERE = Path(native.__file__).parent


def test_the_header_in_the_sources_is_the_one_the_tables_write():
    assert (HERE / core_header.HEADER).read_text() == core_header.header(), \
        "run: python -m navakankari.engine.core_header > engine/core_tables.h"


def test_a_changed_table_changes_the_header(monkeypatch):
    before = core_header.header()
    assert "#define WIN 1000000\n" in before and "#define MATE_BOUND 990000\n" in before
    assert "R_PIECES = 0, R_FLYING = 1," in before
    assert "W_PLACE_MILL = 0," in before and f"W_COUNT = {len(fields(MorrisWeights))}" in before
    monkeypatch.setattr(core_tables, "WIN", 2_000_000)
    assert "#define WIN 2000000\n" in core_header.header()
    monkeypatch.setattr(core_tables, "RULE_FLAGS", ("flying", *core_tables.RULE_FLAGS[:1],
                                                    *core_tables.RULE_FLAGS[2:]))
    assert "R_FLYING = 0, R_PIECES = 1," in core_header.header()
    monkeypatch.setattr(core_tables, "FLYING", ("self", "none", "both"))
    assert "enum { FLY_SELF = 0, FLY_NONE = 1, FLY_BOTH = 2 };" in core_header.header()


def test_core_c_defines_none_of_the_headers_names():
    source = (HERE / native.CORE_SOURCE).read_text()
    assert f'#include "{core_header.HEADER}"' in source
    text = core_header.header()
    names = re.findall(r"#define (\w+) ", text) + re.findall(r"(\w+) = -?\d+", text)
    assert {"INF", "WIN", "MAXN", "EXACT", "PLACE", "FLY_NONE", "R_REFORM", "W_THREATS"} \
        <= set(names)
    defined = re.findall(r"#define (\w+)", source) + re.findall(
        r"\b(\w+)\s*(?:=[^,}]*)?[,}]", " ".join(re.findall(r"enum\s*{([^}]*})", source)))
    assert "NO_MOVE" in defined and not set(names) & set(defined)


def test_the_tables_name_what_the_python_engine_has():
    assert sorted(core_tables.FLYING) == sorted(f.value for f in Flying)
    assert [f"{k.name} = {k.value}" for k in ActionKind] == re.findall(
        r"(\w+ = \d+)", core_header.header().split("action kinds")[1].split("\n")[1])
    # core.py sends every flag the header numbers, by name: none left out, none extra.
    for name in ("nine-mens-morris", "navakankari", "morabaraba", "lasker"):
        assert list(core.rule_flags(preset(name), 0)) == list(core_tables.RULE_FLAGS)
