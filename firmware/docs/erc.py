"""Electrical rules check over a circuit model: what a drawing test cannot see.

    python -m navakankari.firmware.docs.erc     # check every buildable profile, exit 1 on a fault

Each rule returns violations that name the rule, the net and the pins, so a fault planted in
a copy of a model (the tests do that for every rule) is reported where it is.
"""

from __future__ import annotations

import logging
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from navakankari.hal.profile import Profile
from navakankari.hal.profile import MatrixSensorConfig
from .circuit import (
    HEADER,
    MCP23017_OUTPUT_ONLY,
    PI_FUNCTIONS,
    PI_GND_PINS,
    PI_GPIO_MAX_V,
    POWER_NETS,
    Circuit,
    Part,
    Pin,
    is_capacitor,
    is_resistor,
    microfarads,
    ohms,
    signal_gpios,
)

log = logging.getLogger(__name__)

SENSOR_KINDS = ("DRV5032FC", "DRV5032FA", "reed", "A3144", "KY-003")
DECOUPLED_KINDS = ("74AHCT125", "MCP23017", "DRV5032FC", "DRV5032FA")
"""Parts that want 100 nF from their supply pin to GND beside them (each data sheet asks)."""
PROTECTION_KINDS = ("AO4407",)
FUSE_KINDS = ("polyfuse",)
SERIES_OHMS = (300.0, 500.0)
"""The LED data line's series resistor (Adafruit's NeoPixel guide: 300-500 ohm)."""
BULK_UF = 1000.0
DECOUPLING_UF = 0.1


@dataclass(frozen=True)
class Violation:
    """One broken rule: which, on which net, at which pins, and why."""

    rule: str
    net: str
    nodes: tuple[str, ...]
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


def _label(circuit: Circuit, node: str) -> str:
    try:
        _, pin = circuit.pin_of(node)
    except KeyError:
        return node
    return f"{node} ({pin.name})" if pin.name != pin.number else node


def _labels(circuit: Circuit, nodes: tuple[str, ...] | list[str]) -> str:
    return ", ".join(_label(circuit, n) for n in nodes)


class _Erc:
    def __init__(self, circuit: Circuit, profile: Profile) -> None:
        self.c = circuit
        self.profile = profile
        self.out: list[Violation] = []
        self.net_of: dict[str, str] = {}
        self._edge_cache: dict[str, set[tuple[str, bool]]] | None = None
        for net in circuit.nets:
            for node in net.nodes:
                self.net_of.setdefault(node, net.name)

    def fail(self, rule: str, net: str, nodes: tuple[str, ...] | list[str], message: str) -> None:
        self.out.append(Violation(rule, net, tuple(nodes), message))

    def pins(self, net: str) -> Iterator[tuple[str, Part, Pin]]:
        for node in self.c.net(net).nodes:
            try:
                part, pin = self.c.pin_of(node)
            except KeyError:
                continue
            yield node, part, pin

    def domain(self, net: str) -> str | None:
        """The power domain a net carries: its name, or its source's."""
        if net in POWER_NETS:
            return net
        for _, _, pin in self.pins(net):
            if pin.kind == "power_out" and pin.domain:
                return pin.domain
        return None

    def supply_voltage(self, part: Part) -> float:
        """The voltage on a part's supply pin (0 when it has none on a power net)."""
        for pin in part.pins:
            if pin.kind == "power_in":
                net = self.net_of.get(f"{part.ref}.{pin.number}")
                domain = self.domain(net) if net else None
                if domain:
                    return POWER_NETS[domain]
        return PI_GPIO_MAX_V if part.ref == "PI" else 0.0

    def drive_level(self, part: Part) -> float:
        """The high level a part's outputs drive: its I/O level if it has one (the Pi's GPIOs
        are 3.3 V though it is fed 5 V), else its supply."""
        return part.io_level if part.io_level is not None else self.supply_voltage(part)

    # --- rules --------------------------------------------------------------------------

    def nodes_exist(self) -> None:
        for net in self.c.nets:
            for node in net.nodes:
                try:
                    self.c.pin_of(node)
                except KeyError:
                    self.fail("unknown-pin", net.name, (node,), f"net {net.name} names {node}, no such part pin")

    def one_net_per_pin(self) -> None:
        seen: dict[str, str] = {}
        for net in self.c.nets:
            for node in net.nodes:
                if node in seen and seen[node] != net.name:
                    self.fail("pin-on-two-nets", net.name, (node,),
                              f"{_label(self.c, node)} is on two nets: {seen[node]} and {net.name}")
                seen.setdefault(node, net.name)

    def power_nets_apart(self) -> None:
        for net in self.c.nets:
            domains: dict[str, list[str]] = defaultdict(list)
            if net.name in POWER_NETS:
                domains[net.name] = []
            for node, _, pin in self.pins(net.name):
                if pin.kind in ("power_out", "power_in") and pin.domain:
                    domains[pin.domain].append(node)
                if pin.kind == "power_out" and not pin.domain:
                    domains["?"].append(node)
                if pin.kind == "ground":
                    domains["GND"].append(node)
            if len(domains) > 1:
                where = "; ".join(f"{d}: {_labels(self.c, nodes) or 'the net name'}" for d, nodes in domains.items())
                self.fail("power-nets-joined", net.name, [n for ns in domains.values() for n in ns],
                          f"net {net.name} joins {' and '.join(domains)} ({where})")
            if net.name in ("5V", "3V3") and not any(
                pin.kind == "power_out" and pin.domain == net.name for _, _, pin in self.pins(net.name)
            ):
                self.fail("power-net-without-source", net.name, net.nodes, f"net {net.name} has no supply")

    def supply_pins(self) -> None:
        for part in self.c.parts:
            for pin in part.pins:
                node = f"{part.ref}.{pin.number}"
                net = self.net_of.get(node)
                if pin.kind == "ground":
                    if net is None and part.ref != "PI":
                        self.fail("supply-pin", "", (node,), f"{_label(self.c, node)} is on no net (must be GND)")
                    elif net is not None and net != "GND":
                        self.fail("supply-pin", net, (node,), f"{_label(self.c, node)} is on {net}, not GND")
                elif pin.kind in ("power_in", "power_out") and pin.domain:  # the Pi's 3V3 and 5V pins
                    if net is not None and self.domain(net) not in (pin.domain, None):
                        self.fail("supply-pin", net, (node,),
                                  f"{_label(self.c, node)} is a {pin.domain} pin on net {net} ({self.domain(net)})")
                    elif net is not None and self.domain(net) is None:
                        self.fail("supply-pin", net, (node,),
                                  f"{_label(self.c, node)} is a {pin.domain} pin on signal net {net}")
                elif pin.kind == "power_in":
                    domain = self.domain(net) if net else None
                    if domain is None or domain == "GND":
                        self.fail("supply-pin", net or "", (node,),
                                  f"{_label(self.c, node)} is on {net or 'no net'}, not a supply")
                    elif part.supply and not part.supply[0] <= POWER_NETS[domain] <= part.supply[1]:
                        lo, hi = part.supply
                        self.fail("supply-pin", net or "", (node,),
                                  f"{_label(self.c, node)} of {part.value} is on {net} ({POWER_NETS[domain]:g} V); "
                                  f"it needs {lo:g}-{hi:g} V")

    def _edges(self) -> dict[str, set[tuple[str, bool]]]:
        """net -> {(other net, through a resistor)} over parts that conduct: resistors, fuses
        and switches both ways, diodes from anode to cathode (worked out once per check)."""
        if self._edge_cache is None:
            self._edge_cache = self._find_edges()
        return self._edge_cache

    def _find_edges(self) -> dict[str, set[tuple[str, bool]]]:
        edges: dict[str, set[tuple[str, bool]]] = defaultdict(set)
        for part in self.c.parts:
            nodes = [self.net_of.get(f"{part.ref}.{p.number}") for p in part.pins]
            if part.kind == "BAT43":
                k, a = nodes
                if k and a:
                    edges[a].add((k, False))
            elif part.kind in PROTECTION_KINDS:
                d = next((n for p, n in zip(part.pins, nodes) if p.name == "D" and n), None)
                src = next((n for p, n in zip(part.pins, nodes) if p.name == "S" and n), None)
                if d and src:
                    edges[d].add((src, False))
            elif part.kind == "reed" or part.kind in FUSE_KINDS or is_resistor(part):
                x, y = nodes
                if x and y:
                    resistive = is_resistor(part)
                    edges[x].add((y, resistive))
                    edges[y].add((x, resistive))
        return edges

    def high_levels(self) -> dict[str, tuple[float, list[str]]]:
        """The highest voltage each net can reach and the pins that bring it there."""
        level: dict[str, tuple[float, list[str]]] = {}
        for net in self.c.nets:
            v, src = 0.0, []
            if net.name in POWER_NETS:
                v = POWER_NETS[net.name]
            for node, part, pin in self.pins(net.name):
                pv = 0.0
                if pin.kind == "power_out" and pin.domain:
                    pv = POWER_NETS[pin.domain]
                elif pin.kind == "output":
                    pv = self.drive_level(part)
                if pv > v:
                    v, src = pv, [node]
            level[net.name] = (v, src)
        edges = self._edges()
        changed = True
        while changed:
            changed = False
            for a, outs in edges.items():
                for b, _ in outs:
                    if b in POWER_NETS:
                        continue
                    if level[a][0] > level[b][0]:
                        level[b] = (level[a][0], level[a][1] or [f"net {a}"])
                        changed = True
        return level

    def gpio_levels(self) -> None:
        levels = self.high_levels()
        for net in self.c.nets:
            v, src = levels[net.name]
            for node, _, pin in self.pins(net.name):
                if pin.vmax is not None and v > pin.vmax + 1e-9:
                    self.fail("gpio-over-3v3", net.name, [node, *src],
                              f"{_label(self.c, node)} is on net {net.name}, which can reach {v:g} V "
                              f"(from {_labels(self.c, src) or net.name}); the pin takes {pin.vmax:g} V at most")

    def _drives(self, net: str) -> list[tuple[str, float]]:
        """The pins that drive a net high, with their high level."""
        out = []
        for node, part, pin in self.pins(net):
            if pin.kind == "output":
                out.append((node, self.drive_level(part)))
            elif pin.kind == "bidir" and part.ref == "PI":
                out.append((node, PI_GPIO_MAX_V))
            elif pin.kind == "power_out" and pin.domain:
                out.append((node, POWER_NETS[pin.domain]))
        return out

    def _driver_nets(self, net: str) -> list[str]:
        """The net itself and those behind resistors (pull-ups, series resistors)."""
        edges = self._edges()
        seen, todo = [net], [net]
        while todo:
            n = todo.pop()
            for m, resistive in edges.get(n, ()):
                if resistive and m not in seen:
                    seen.append(m)
                    todo.append(m)
        return seen

    def floating_inputs(self) -> None:
        for part in self.c.parts:
            for pin in part.pins:
                if pin.kind != "input":
                    continue
                node = f"{part.ref}.{pin.number}"
                net = self.net_of.get(node)
                if net is None:
                    self.fail("floating-input", "", (node,), f"{_label(self.c, node)} of {part.value} is on no net")
                    continue
                driven = any(n in POWER_NETS or self._drives(n) or any(
                    p.kind == "bidir" for _, _, p in self.pins(n)) for n in self._driver_nets(net))
                if not driven:
                    self.fail("floating-input", net, (node,),
                              f"{_label(self.c, node)} of {part.value} is on net {net}, which nothing drives")

    def input_levels(self) -> None:
        for part in self.c.parts:
            for pin in part.pins:
                if pin.vih is None:
                    continue
                node = f"{part.ref}.{pin.number}"
                net = self.net_of.get(node)
                if net is None or net in POWER_NETS:
                    continue
                vih = pin.vih * self.supply_voltage(part) if pin.vih_ratio else pin.vih
                for n in self._driver_nets(net):
                    for driver, high in self._drives(n):
                        if high + 1e-9 < vih:
                            self.fail("input-level", net, (node, driver),
                                      f"{_label(self.c, node)} of {part.value} reads high from {vih:.2f} V, but "
                                      f"{_label(self.c, driver)} drives net {n} to {high:g} V only")

    def profile_gpios(self) -> None:
        wired: set[tuple[int, str, str]] = set()
        for net in self.c.nets:
            for node, part, pin in self.pins(net.name):
                if part.ref == "PI" and pin.name.startswith("GPIO"):
                    wired.add((int(pin.name[4:]), node, net.name))
        wanted = signal_gpios(self.profile)
        for gpio in sorted(wanted - {g for g, _, _ in wired}):
            header = next(h for h, g in HEADER.items() if g == gpio)
            self.fail("gpio-unwired", "", (f"PI.{header}",),
                      f"GPIO{gpio} (PI.{header}) is used by the profile but wired to nothing")
        for gpio, node, net_name in sorted(wired):
            if gpio not in wanted:
                self.fail("gpio-not-in-profile", net_name, (node,),
                          f"{_label(self.c, node)} is wired (net {net_name}) but the profile does not use GPIO{gpio}")

    def counts(self) -> None:
        sensors = [p.ref for p in self.c.parts if p.kind in SENSOR_KINDS]
        if len(sensors) != len(self.profile.points):
            self.fail("sensor-count", "", tuple(sensors),
                      f"{len(sensors)} sensors in the model, {len(self.profile.points)} points in the profile")
        leds = [p.ref for p in self.c.parts if p.kind == "WS2812B"]
        if len(leds) != self.profile.leds.count:
            self.fail("led-count", "", tuple(leds),
                      f"{len(leds)} LEDs in the model, {self.profile.leds.count} on the profile's chain")

    def led_data_path(self) -> None:
        """The first LED's DIN: through a 300-500 ohm resistor from a 74AHCT125 output on 5 V."""
        try:
            first = self.c.part("LED0")
        except KeyError:
            return
        node = first.node("DIN")
        net = self.net_of.get(node)
        if net is None:
            self.fail("led-data-path", "", (node,), f"{_label(self.c, node)} is on no net")
            return
        resistors = [(n, part) for n, part, _ in self.pins(net) if is_resistor(part)]
        for n, part in resistors:
            other = next(p for p in part.pins if f"{part.ref}.{p.number}" != n)
            far = self.net_of.get(f"{part.ref}.{other.number}")
            if far is None:
                continue
            shifters = [(m, sp) for m, sp, pin in self.pins(far) if sp.kind == "74AHCT125" and pin.kind == "output"]
            if not shifters:
                continue
            if not SERIES_OHMS[0] <= ohms(part) <= SERIES_OHMS[1]:
                self.fail("series-resistor", net, (n,),
                          f"{part.ref} in the LED data line is {part.value} ohm, "
                          f"not {SERIES_OHMS[0]:g}-{SERIES_OHMS[1]:g}")
            for m, sp in shifters:
                if self.supply_voltage(sp) != POWER_NETS["5V"]:
                    self.fail("led-data-path", far, (m,),
                              f"{_label(self.c, m)} of the level shifter is not powered from 5V")
            return
        direct = [m for m, sp, pin in self.pins(net) if sp.kind == "74AHCT125" and pin.kind == "output"]
        if direct:
            self.fail("series-resistor", net, (node, *direct),
                      f"net {net} joins {_labels(self.c, direct)} to {_label(self.c, node)} with no series resistor")
        else:
            drivers = [d for n in self._driver_nets(net) for d, _ in self._drives(n)]
            self.fail("led-data-path", net, (node, *drivers),
                      f"{_label(self.c, node)} (net {net}) is not fed through the 74AHCT125 "
                      f"(driven by {_labels(self.c, drivers) or 'nothing'})")

    def _wired_next(self, net: str, node: str) -> set[str]:
        """The nodes wired straight to `node` on `net` (its wires, else its nodes in order)."""
        n = self.c.net(net)
        pairs = n.wires or tuple(zip(n.nodes, n.nodes[1:]))
        return {b if a == node else a for a, b in pairs if node in (a, b)}

    def capacitors(self) -> None:
        caps = [p for p in self.c.parts if is_capacitor(p)]

        def across(part: Part, supply: str) -> bool:
            nets = [self.net_of.get(f"{part.ref}.{p.number}") for p in part.pins]
            return nets[0] == supply and nets[1] == "GND"  # pin 1 (+) to the supply

        if not any(microfarads(p) >= BULK_UF and across(p, "5V") for p in caps):
            self.fail("bulk-capacitor", "5V", (), f"no {BULK_UF:g} µF capacitor with + on 5V and - on GND")
        small = {c.ref: c for c in caps if abs(microfarads(c) - DECOUPLING_UF) < 1e-9}
        for part in self.c.parts:  # one 100 nF per IC and hall switch, wired beside its supply pin
            if part.kind not in DECOUPLED_KINDS:
                continue
            vdd = next(p for p in part.pins if p.kind == "power_in")
            node = f"{part.ref}.{vdd.number}"
            net = self.net_of.get(node)
            if not net:
                continue
            beside = {n.partition(".")[0] for n in self._wired_next(net, node)}
            if not any(ref in small and across(small[ref], net) for ref in beside):
                self.fail("decoupling", net, (node,),
                          f"no 100 nF capacitor from {net} to GND beside {_label(self.c, node)} of {part.ref} "
                          f"({part.value})")

    # --- drivers that fight ---------------------------------------------------------------

    def outputs_joined(self) -> None:
        """At most one push-pull output per net, and none beside an open-drain one: a low
        from one against a high from the other is a short."""
        for net in self.c.nets:
            push = [n for n, _, pin in self.pins(net.name) if pin.kind == "output"]
            sink = [n for n, _, pin in self.pins(net.name) if pin.kind == "open_collector"]
            if len(push) > 1 or (push and sink):
                self.fail("outputs-joined", net.name, push + sink,
                          f"net {net.name} joins push-pull {_labels(self.c, push)}"
                          + (f" and open-drain {_labels(self.c, sink)}" if sink else "")
                          + ": one driving high while another drives low is a short")

    def _conducting(self, net: str) -> list[str]:
        """Nets joined to `net` with no resistor between: switches, fuses, diodes either way."""
        edges: dict[str, set[str]] = defaultdict(set)
        for a, outs in self._edges().items():
            for b, resistive in outs:
                if not resistive:
                    edges[a].add(b)
                    edges[b].add(a)
        seen, todo = [net], [net]
        while todo:
            for m in sorted(edges.get(todo.pop(), ())):
                if m not in seen:
                    seen.append(m)
                    todo.append(m)
        return seen

    def pi_functions(self) -> None:
        """A GPIO that a Pi function drives once enabled (UART TX, SPI0, I2C1) must not meet
        another driver with no resistor between: a push-pull function fights anything that
        drives or sinks, an open-drain one (I2C) anything that drives high."""
        pi = next((p for p in self.c.parts if p.ref == "PI"), None)
        if pi is None:
            return
        for pin in pi.pins:
            gpio = int(pin.name[4:]) if pin.name.startswith("GPIO") else None
            node = f"PI.{pin.number}"
            net = self.net_of.get(node)
            if gpio not in PI_FUNCTIONS or net is None:
                continue
            function, push_pull = PI_FUNCTIONS[gpio]
            against: list[str] = []
            for n in self._conducting(net):
                if n in POWER_NETS and (push_pull or n != "GND"):
                    against.append(f"net {n}")
                    continue
                for other, _, p in self.pins(n):
                    if other == node:
                        continue
                    if p.kind in ("output", "power_out") or (push_pull and p.kind in ("open_collector", "bidir")):
                        against.append(other)
            if against:
                self.fail("pi-function", net, [node, *[a for a in against if not a.startswith("net ")]],
                          f"{_label(self.c, node)} is driven by the Pi's {function} when it is enabled, and "
                          f"{_labels(self.c, against)} can drive net {net} against it with no resistor between")

    def open_drain_pull_ups(self) -> None:
        for net in self.c.nets:
            sinks = [n for n, _, pin in self.pins(net.name) if pin.kind == "open_collector"]
            if not sinks or net.name in POWER_NETS:
                continue
            pulled = any(pin.pull_up for _, _, pin in self.pins(net.name)) or any(
                m in ("3V3", "5V") and resistive for m, resistive in self._edges().get(net.name, ()))
            if not pulled:
                self.fail("open-drain-pull-up", net.name, sinks,
                          f"open-drain {_labels(self.c, sinks)} on net {net.name} with no pull-up: "
                          "the line floats when nothing sinks it")

    # --- the supply ------------------------------------------------------------------------

    def pi_supply_pins(self) -> None:
        """The Pi is fed through its header: both 5V pins on 5V, and at least as many GND pins
        on GND as the shipped wiring gives its return current."""
        try:
            pi = self.c.part("PI")
        except KeyError:
            return
        for pin in pi.pins:
            node = f"PI.{pin.number}"
            if pin.name == "5V" and self.net_of.get(node) != "5V":
                self.fail("pi-supply", self.net_of.get(node) or "", (node,),
                          f"{_label(self.c, node)} is on {self.net_of.get(node) or 'no net'}: the Pi is fed "
                          "through its header, on both 5V pins")
        grounds = [f"PI.{p.number}" for p in pi.pins if p.name == "GND" and self.net_of.get(f"PI.{p.number}") == "GND"]
        if len(grounds) < len(PI_GND_PINS):
            self.fail("pi-supply", "GND", grounds,
                      f"the Pi's return current has {len(grounds)} GND pin(s) ({_labels(self.c, grounds) or 'none'}); "
                      f"it needs {len(PI_GND_PINS)}")

    def feed_protection(self) -> None:
        """The 5V rail is fed only through the reverse-polarity MOSFET, and that only through a
        resettable fuse from the supply."""
        if "5V" not in {n.name for n in self.c.nets}:
            return
        if not any(pin.kind == "power_out" for _, _, pin in self.pins("5V")):
            self.fail("feed-protection", "5V", (),
                      "nothing feeds 5V: the MOSFET's source pins belong on it (a MOSFET turned round "
                      "blocks the supply)")
        for part in self.c.parts:
            if part.kind in PROTECTION_KINDS:
                gate = part.node("G")
                if self.net_of.get(gate) != "GND":
                    self.fail("feed-protection", self.net_of.get(gate) or "", (gate,),
                              f"{_label(self.c, gate)} of {part.ref} is on {self.net_of.get(gate) or 'no net'}, "
                              "not GND: the MOSFET never turns on")
        for node, part, pin in self.pins("5V"):
            if pin.kind != "power_out":
                continue
            if part.kind not in PROTECTION_KINDS:
                self.fail("feed-protection", "5V", (node,),
                          f"{_label(self.c, node)} of {part.value} feeds 5V with no reverse-polarity protection")
                continue
            drain = next((self.net_of.get(f"{part.ref}.{p.number}") for p in part.pins if p.name == "D"), None)
            fuses = [fp for _, fp, _ in (self.pins(drain) if drain else ()) if fp.kind in FUSE_KINDS]
            fed = [self.net_of.get(f"{f.ref}.{p.number}") for f in fuses for p in f.pins]
            if not any(n and any(sp.kind == "power_out" and sp.domain == "5V" and sp is not pin
                                 for _, _, sp in self.pins(n)) for n in fed if n != drain):
                self.fail("feed-protection", drain or "", (node,),
                          f"{part.ref} ({part.value}) is not fed from the supply through a resettable fuse")

    # --- parts used the wrong way ------------------------------------------------------------

    def matrix_diodes(self) -> None:
        """Each matrix diode's cathode (band) on a row, which the scan pulls low."""
        s = self.profile.sensors
        if not isinstance(s, MatrixSensorConfig):
            return
        rows = {f"GPIO{g}" for g in s.rows}

        def on_row(net: str | None) -> bool:
            return net is not None and any(p.name in rows for _, part, p in self.pins(net) if part.ref == "PI")

        for part in self.c.parts:
            if part.kind != "BAT43":
                continue
            k, a = (self.net_of.get(part.node(x)) for x in ("K", "A"))
            if not on_row(k) or on_row(a):
                self.fail("matrix-diode", k or "", (part.node("K"), part.node("A")),
                          f"{part.ref} is reversed or off its row: cathode (band) on {k or 'no net'}, anode on "
                          f"{a or 'no net'}; the band goes to the row")

    def shifter_enables(self) -> None:
        """A 74AHCT125 channel whose output is wired must have its OE on GND (a high OE floats Y)."""
        for part in self.c.parts:
            if part.kind != "74AHCT125":
                continue
            for ch in "1234":
                y = part.node(f"{ch}Y")
                net = self.net_of.get(y)
                if net is None or len(self.c.net(net).nodes) < 2:
                    continue
                oe = part.node(f"{ch}OE")
                if self.net_of.get(oe) != "GND":
                    self.fail("shifter-enable", self.net_of.get(oe) or "", (oe, y),
                              f"{_label(self.c, oe)} is on {self.net_of.get(oe) or 'no net'}, not GND: "
                              f"{_label(self.c, y)} (net {net}) is disabled")

    def expander_output_only(self) -> None:
        for part in self.c.parts:
            if part.kind != "MCP23017":
                continue
            for name in MCP23017_OUTPUT_ONLY:
                node = part.node(name)
                net = self.net_of.get(node)
                others = [n for n in (self.c.net(net).nodes if net else ()) if n != node]
                if others:
                    self.fail("expander-output-only", net or "", (node, *others),
                              f"{_label(self.c, node)} of {part.ref} is output-only on current MCP23017 silicon, "
                              f"but net {net} joins it to {_labels(self.c, others)}")


def check(circuit: Circuit, profile: Profile) -> list[Violation]:
    """Every rule over a model; an empty list when the model passes."""
    erc = _Erc(circuit, profile)
    erc.nodes_exist()
    erc.one_net_per_pin()
    erc.power_nets_apart()
    erc.supply_pins()
    erc.gpio_levels()
    erc.floating_inputs()
    erc.input_levels()
    erc.profile_gpios()
    erc.counts()
    erc.led_data_path()
    erc.capacitors()
    erc.outputs_joined()
    erc.pi_functions()
    erc.open_drain_pull_ups()
    erc.pi_supply_pins()
    erc.feed_protection()
    erc.matrix_diodes()
    erc.shifter_enables()
    erc.expander_output_only()
    log.debug("%s (%s sensors): %d faults", circuit.name, circuit.sensor_kind, len(erc.out))
    return erc.out


def main() -> int:
    from navakankari.hal.profile import load_profile, profile_names
    from .plate import is_buildable
    from .circuit import circuits

    failed = 0
    for name in profile_names():
        profile = load_profile(name)
        if not is_buildable(profile):
            continue
        for circuit in circuits(profile, name):
            faults = check(circuit, profile)
            print(f"{name} ({circuit.sensor_kind}): " + ("pass" if not faults else f"{len(faults)} faults"))
            for v in faults:
                print(f"  {v}")
            failed += bool(faults)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
