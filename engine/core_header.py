"""core_tables.h, the C core's constants and enums, written from the Python engine's tables.

`navakankari build-engine` writes it beside core.c before compiling (native.py), so the core
always has the scores, limits, action kinds, rule flags and evaluation weights the Python
engine has, in the order core.py sends them: from core_tables.py, actions.ActionKind and
evaluate.MorrisWeights. The copy in the sources is for reading; a test holds it to `header()`.
Run as `python -m navakankari.engine.core_header` to print it.
"""

from __future__ import annotations

from dataclasses import fields

from . import core_tables as t
from .actions import ActionKind
from .evaluate import MorrisWeights

#: The header's file name, as core.c includes it.
HEADER = "core_tables.h"


def _defines(pairs: list[tuple[str, int]]) -> list[str]:
    return [f"#define {name} ({value})" if value < 0 else f"#define {name} {value}"
            for name, value in pairs]


def _enum(prefix: str, names: list[str], count: bool = True) -> str:
    items = [f"{prefix}{name.upper()}" for name in names]
    items += [f"{prefix}COUNT"] if count else []
    return "enum { " + ", ".join(f"{item} = {i}" for i, item in enumerate(items)) + " };"


def header() -> str:
    """The header's text."""
    lines = [
        "/* Written by `navakankari build-engine` from core_tables.py, actions.ActionKind and",
        " * evaluate.MorrisWeights (core_header.py): change those, not this file. */",
        "#ifndef NAVAKANKARI_CORE_TABLES_H",
        "#define NAVAKANKARI_CORE_TABLES_H",
        "",
        *_defines([("MAXN", t.MAX_POINTS), ("MAXMILLS", t.MAX_MILLS),
                   ("MAXMILLS_AT", t.MAX_MILLS_AT), ("MAXLIMIT", t.MAX_CAPTURE_LIMIT),
                   ("MAXACT", t.MAX_ACTIONS)]),
        "",
        *_defines([("INF", t.INF), ("WIN", t.WIN), ("MATE_BOUND", t.MATE_BOUND),
                   ("LOST", t.LOST), ("PIECE", t.PIECE), ("NO_RESULT", t.NO_RESULT)]),
        "",
        "/* A table entry's bound. */",
        f"enum {{ EXACT = {t.EXACT}, LOWER = {t.LOWER}, UPPER = {t.UPPER} }};",
        "/* The action kinds (the kind in an action's number). */",
        "enum { " + ", ".join(f"{kind.name} = {kind.value}" for kind in ActionKind) + " };",
        "/* The flying rule, as core.py numbers it. */",
        _enum("FLY_", list(t.FLYING), count=False),
        "/* Rule flags, in the order core.py sends them. */",
        _enum("R_", list(t.RULE_FLAGS)),
        "/* Evaluation weights, in MorrisWeights' order. */",
        _enum("W_", [f.name for f in fields(MorrisWeights)]),
        "",
        "#endif",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(header(), end="")
