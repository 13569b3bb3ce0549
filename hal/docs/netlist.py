"""A circuit model as a KiCad netlist (the .net S-expression format, version "E", which
KiCad's PCB editor and other tools import) and as a plain wiring table for building by hand:
one wire a row, `from,to,net`, ends named PART.PIN (the Pi's header as PI.<physical pin>).
"""

from __future__ import annotations

import csv
import io
import uuid

from .circuit import Circuit

COLOURS = {"5V": "red", "3V3": "orange", "GND": "black"}
"""Wire colours for the table: power by net; signals by kind below."""


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


_PIN_TYPES = {
    "power_out": "power_out", "power_in": "power_in", "ground": "power_in", "input": "input",
    "output": "output", "open_collector": "open_collector", "bidir": "bidirectional",
    "passive": "passive", "nc": "no_connect",
}


def kicad_netlist(circuit: Circuit, source: str) -> str:
    """The model as a KiCad .net file. No date, and each part's time stamp a UUID made from the
    circuit's and the part's names, so regenerating gives the same bytes and a PCB made from
    one version keeps its footprints matched to the parts of the next."""
    out = ["(export (version \"E\")",
           f"  (design (source {_q(source)}) (tool \"navakankari.hal.docs\")",
           f"    (sheet (number \"1\") (name \"/\") (tstamps \"/\") (title_block (title {_q(circuit.title)}))))",
           "  (components"]
    for part in circuit.parts:
        out.append(f"    (comp (ref {_q(part.ref)}) (value {_q(part.value)}) (footprint {_q(part.footprint)})"
                   f" (description {_q(part.description)})"
                   f" (libsource (lib \"navakankari\") (part {_q(part.kind)}) (description {_q(part.description)}))"
                   f" (sheetpath (names \"/\") (tstamps \"/\"))"
                   f" (tstamps {_q(str(uuid.uuid5(uuid.NAMESPACE_URL, f'navakankari:{circuit.name}/{part.ref}')))}))")
    out.append("  )")
    out.append("  (nets")
    for code, net in enumerate(circuit.nets, start=1):
        out.append(f"    (net (code {_q(str(code))}) (name {_q(net.name)})")
        for node in net.nodes:
            part, pin = circuit.pin_of(node)
            out.append(f"      (node (ref {_q(part.ref)}) (pin {_q(pin.number)}) (pinfunction {_q(pin.name)})"
                       f" (pintype {_q(_PIN_TYPES[pin.kind])}))")
        out.append("    )")
    out.append("  )")
    out.append(")")
    return "\n".join(out) + "\n"


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
