"""Symbols from KiCad's installed symbol libraries, flattened (a symbol that `extends`
another is written as its parent's drawing under its own name and properties, as a schematic
must embed it), with their pins read out for placing wires and flags."""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import sexpr
from .sexpr import Node, Text

SYMBOL_DIRS = ("/usr/share/kicad/symbols", "/usr/local/share/kicad/symbols")


class LibraryError(LookupError):
    """KiCad's symbol library or a symbol in it is missing."""


def symbol_dir() -> Path:
    """KiCad 9's symbol libraries: $KICAD9_SYMBOL_DIR, else where Debian installs them."""
    env = os.environ.get("KICAD9_SYMBOL_DIR")
    for d in ([env] if env else []) + list(SYMBOL_DIRS):
        if Path(d, "Device.kicad_sym").is_file():
            return Path(d)
    raise LibraryError("KiCad's symbol libraries are not installed (package kicad-symbols)")


@dataclass(frozen=True)
class LibPin:
    """A symbol pin: its number, name, KiCad electrical type, the unit it belongs to (0: all
    units), its connection point in symbol coordinates (Y up) and the angle it points at
    the body from there."""

    number: str
    name: str
    etype: str
    unit: int
    x: float
    y: float
    angle: int
    hidden: bool = False


@dataclass(frozen=True)
class Symbol:
    """A flattened library symbol: `lib_id` as a schematic names it, its tree (named by
    `lib_id`, ready for `lib_symbols`), its pins and unit count."""

    lib_id: str
    tree: list[Node]
    pins: tuple[LibPin, ...]
    units: int

    def pin(self, number: str) -> LibPin:
        for p in self.pins:
            if p.number == number:
                return p
        raise KeyError(f"{self.lib_id} has no pin {number!r}")

    def unit_of(self, number: str) -> int:
        return self.pin(number).unit or 1

    def is_power(self) -> bool:
        return sexpr.find(self.tree, "power") is not None


@lru_cache(maxsize=None)
def _library_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _raw_symbol(lib_text: str, name: str) -> list[Node]:
    """Parse only the one top-level symbol of a library file (parsing a whole library takes
    seconds)."""
    start = lib_text.find(f'\n\t(symbol "{name}"\n')
    if start < 0:
        raise LibraryError(f"no symbol {name!r}")
    end = lib_text.find("\n\t)", start)
    return sexpr.parse(lib_text[start:end + 3])


def _rename_units(tree: list[Node], old: str, new: str) -> None:
    for sub in sexpr.find_all(tree, "symbol"):
        if isinstance(sub[1], str) and sub[1].startswith(old + "_"):
            sub[1] = Text(new + sub[1][len(old):])


def from_tree(lib_id: str, raw: list[Node], parent: list[Node] | None = None) -> Symbol:
    """A symbol from its library tree (and its parent's, when it extends one), flattened and
    named `lib_id`."""
    name = str(raw[1])
    if parent is not None:
        tree = copy.deepcopy(parent)
        _rename_units(tree, str(parent[1]), name)
        props = {str(p[1]): p for p in sexpr.find_all(raw, "property")}
        for i, x in enumerate(tree):
            if isinstance(x, list) and x[:1] == ["property"] and str(x[1]) in props:
                tree[i] = copy.deepcopy(props.pop(str(x[1])))
        at = max(i for i, x in enumerate(tree) if isinstance(x, list) and x[:1] == ["property"]) + 1
        tree[at:at] = [copy.deepcopy(p) for p in props.values()]
    else:
        tree = copy.deepcopy(raw)
    tree[1] = Text(lib_id)
    return Symbol(lib_id, tree, tuple(_pins(tree, name)), _units(tree, name))


def _units(tree: list[Node], name: str) -> int:
    units = [int(str(s[1]).rsplit("_", 2)[-2]) for s in sexpr.find_all(tree, "symbol")]
    return max(units + [1])


def _pins(tree: list[Node], name: str) -> list[LibPin]:
    pins = []
    for sub in sexpr.find_all(tree, "symbol"):
        unit = int(str(sub[1]).rsplit("_", 2)[-2])
        for pin in sexpr.find_all(sub, "pin"):
            at = sexpr.find(pin, "at") or []
            name_node = sexpr.find(pin, "name") or ["name", ""]
            number = sexpr.find(pin, "number") or ["number", ""]
            hidden = "hide" in pin or any(isinstance(x, list) and x[:2] == ["hide", "yes"] for x in pin)
            pins.append(LibPin(str(number[1]), str(name_node[1]), str(pin[1]), unit,
                               float(str(at[1])), float(str(at[2])), int(float(str(at[3]))), hidden))
    return pins


@lru_cache(maxsize=None)
def load(lib_id: str) -> Symbol:
    """A symbol of KiCad's libraries by `Library:Name`, flattened."""
    lib, _, name = lib_id.partition(":")
    path = symbol_dir() / f"{lib}.kicad_sym"
    if not path.is_file():
        raise LibraryError(f"no symbol library {lib!r} in {path.parent}")
    text = _library_text(path)
    raw = _raw_symbol(text, name)
    extends = sexpr.find(raw, "extends")
    parent = _raw_symbol(text, str(extends[1])) if extends else None
    return from_tree(lib_id, raw, parent)


FOOTPRINT_DIRS = ("/usr/share/kicad/footprints", "/usr/local/share/kicad/footprints")


def footprint_pads(footprint: str) -> frozenset[str]:
    """The pad numbers of a footprint of KiCad's library (`Library:Name`); raises
    LibraryError when KiCad's footprints or that footprint are missing."""
    env = os.environ.get("KICAD9_FOOTPRINT_DIR")
    lib, _, name = footprint.partition(":")
    for d in ([env] if env else []) + list(FOOTPRINT_DIRS):
        path = Path(d, f"{lib}.pretty", f"{name}.kicad_mod")
        if path.is_file():
            tree = sexpr.parse(path.read_text(encoding="utf-8"))
            return frozenset(str(p[1]) for p in sexpr.find_all(tree, "pad") if str(p[1]))
    raise LibraryError(f"no footprint {footprint!r} in KiCad's footprint libraries")
