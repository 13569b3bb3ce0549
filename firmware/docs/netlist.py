"""A circuit model as a plain wiring table for building by hand: one wire a row,
`from,to,net`, ends named PART.PIN (the Pi's header as PI.<physical pin>). KiCad's netlist of
the same model is exported from its schematic (wiring/kicad/)."""

from __future__ import annotations

import csv
import io

from .circuit import Circuit

COLOURS = {"5V": "red", "3V3": "orange", "GND": "black"}
"""Wire colours for the table: power by net; signals by kind below."""


def _colour(net: str) -> str:
    if net in COLOURS:
        return COLOURS[net]
    if net.startswith("5V_"):  # the supply's + before the fuse and the MOSFET
        return COLOURS["5V"]
    if net.startswith(("LED_", "DIN")):
        return "blue"
    if net in ("SDA", "SCL", "INT"):
        return "green"
    return "yellow"


def wires(circuit: Circuit) -> list[tuple[str, str, str]]:
    """(from, to, net) for every wire: the model's wiring of each net (buses from the supply,
    part to part), or its nodes daisy-chained in order."""
    rows = []
    for net in circuit.nets:
        pairs = net.wires or tuple(zip(net.nodes, net.nodes[1:]))
        rows += [(a, b, net.name) for a, b in pairs]
    return rows


def wiring_csv(circuit: Circuit) -> str:
    """The wiring table: from,to,net, then each end's pin name and a wire colour."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["from", "to", "net", "from_pin", "to_pin", "colour"])
    for a, b, net in wires(circuit):
        w.writerow([a, b, net, circuit.pin_of(a)[1].name, circuit.pin_of(b)[1].name, _colour(net)])
    return buf.getvalue()
