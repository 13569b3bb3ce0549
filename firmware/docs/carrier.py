"""The carrier board of a build: the parts of its circuit model that sit on a HAT-sized board
over the Pi (the header socket, the 5 V input with its fuse and reverse-polarity MOSFET, the
level shifter, the capacitors, the expanders and pull-ups), and keyed connectors where the
model's nets leave the board: one for the LED chain, one for the sensor harness.

Derived from the model, so the board's schematic cannot connect what the model does not:
every net keeps its on-board pins, and a net that also reaches an LED or a sensor gets a pin
on the connector of that harness.
"""

from __future__ import annotations

from dataclasses import replace

from .circuit import POWER_NETS, Circuit, Net, Part, Pin

ON_BOARD_GROUPS = ("power", "expanders", "pullups")
"""Drawing groups whose parts sit on the carrier; the LEDs and sensors sit under the points."""

HEADER_SOCKET, SUPPLY_TERMINAL = "J1", "J4"
"""The Pi's header (the model's PI) and the supply's terminal (PSU) as board connectors: KiCad
takes a reference without a number for one not yet annotated."""
LED_CONNECTOR = "J2"
HARNESS_CONNECTOR = "J3"
IDC_ROWS = (5, 7, 8, 10, 13, 17, 20)
"""Box-header sizes (pins per row) the footprint library has: the keyed shroud fits one way."""


def off_board(circuit: Circuit) -> set[str]:
    """References of the parts that are wired to the carrier rather than sitting on it."""
    on = {r for g in ON_BOARD_GROUPS for r in circuit.groups.get(g, ())}
    return {p.ref for p in circuit.parts if p.ref not in on}


def _connector(ref: str, nets: list[str], led: bool) -> Part:
    if led:
        n = len(nets)
        pins = tuple(Pin(str(i + 1), net, "passive") for i, net in enumerate(nets))
        return Part(ref, f"conn-1x{n:02d}", f"JST XH {n}-pin", pins,
                    footprint=f"Connector_JST:JST_XH_B{n}B-XH-A_1x{n:02d}_P2.50mm_Vertical",
                    description="LED chain connector, keyed", maker="JST", mpn=f"B{n}B-XH-A")
    rows = next(r for r in IDC_ROWS if 2 * r >= len(nets))
    pins = tuple(Pin(str(i + 1), nets[i] if i < len(nets) else "NC", "passive" if i < len(nets) else "nc")
                 for i in range(2 * rows))
    return Part(ref, f"conn-2x{rows:02d}", f"IDC box header 2x{rows}", pins,
                footprint=f"Connector_IDC:IDC-Header_2x{rows:02d}_P2.54mm_Vertical",
                description="sensor harness connector, keyed shroud")


def carrier_circuit(circuit: Circuit) -> Circuit:
    """The carrier board's circuit: the on-board parts with their nets, plus the LED-chain
    and sensor-harness connectors carrying every net that leaves the board."""
    away = off_board(circuit)
    leds = set(circuit.groups.get("leds", ()))
    led_nets: list[str] = []
    harness_nets: list[str] = []
    for net in circuit.nets:
        refs = {node.partition(".")[0] for node in net.nodes}
        if not refs & away or not refs - away:  # wholly on the board, or wholly off it
            continue
        if refs & leds:
            led_nets.append(net.name)
        if refs & (away - leds):
            harness_nets.append(net.name)
    led_nets = _power_last(led_nets)
    harness_nets = _power_last(harness_nets)
    names = _annotated(circuit, away)

    def renamed(node: str) -> str:
        ref, _, pin = node.partition(".")
        return f"{names.get(ref, ref)}.{pin}"

    parts = [replace(p, ref=names.get(p.ref, p.ref)) for p in circuit.parts if p.ref not in away]
    connectors = []
    if led_nets:
        connectors.append(_connector(LED_CONNECTOR, led_nets, led=True))
    if harness_nets:
        connectors.append(_connector(HARNESS_CONNECTOR, harness_nets, led=False))
    nets = []
    for net in circuit.nets:
        nodes = [renamed(n) for n in net.nodes if n.partition(".")[0] not in away]
        for c in connectors:
            nodes += [f"{c.ref}.{p.number}" for p in c.pins if p.name == net.name]
        if nodes:
            nets.append(Net(net.name, tuple(nodes)))
    groups = {"power": tuple(names.get(r, r) for r in circuit.groups.get("power", ()) if r not in away)
              + tuple(c.ref for c in connectors)}
    for g in ON_BOARD_GROUPS[1:]:
        if circuit.groups.get(g):
            groups[g] = tuple(names.get(r, r) for r in circuit.groups[g])
    return replace(circuit, name=f"{circuit.name}-carrier", title=f"{circuit.title}: carrier board",
                   parts=tuple(parts + connectors), nets=tuple(nets), groups=groups)


def _annotated(circuit: Circuit, away: set[str]) -> dict[str, str]:
    """Board references for the model's unnumbered ones: the Pi's header and the supply as
    J1 and J4, any other (the INT pull-up RINT) as the next free number of its letter, since
    KiCad's BOM and placement files take a reference without a number for one not annotated."""
    names = {"PI": HEADER_SOCKET, "PSU": SUPPLY_TERMINAL}
    taken = {p.ref for p in circuit.parts if p.ref not in away} | set(names.values())
    for part in circuit.parts:
        if part.ref in away or part.ref in names or part.ref[-1:].isdigit():
            continue
        letter = part.ref[0]
        number = next(n for n in range(1, 1000) if f"{letter}{n}" not in taken)
        names[part.ref] = f"{letter}{number}"
        taken.add(names[part.ref])
    return names


def _power_last(nets: list[str]) -> list[str]:
    """Signals first, then the supplies, ground last (a harness reads best that way)."""
    return ([n for n in nets if n not in POWER_NETS] + [n for n in ("5V", "3V3") if n in nets]
            + (["GND"] if "GND" in nets else []))
