"""The carrier boards placed and routed by code with KiCad's pcbnew: HAT-sized (65 x 56.5 mm,
M2.5 holes at the corners), the Pi's header socket on the underside, the supply section along
the bottom edge, ground pours on both copper layers.

The direct-24 board routes its sensor harness to the box header in non-crossing lanes
(verticals on the bottom copper, one horizontal lane per net on the top); the expander board
is placed from a table and routed by the grid router (`route.py`), the supplies first with
wide tracks.

Run in its own process (pcbnew is KiCad's, imported from Debian's Python path):
    python -m navakankari.firmware.docs.kicad.pcb OUT.kicad_pcb [PROFILE]
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from navakankari.hal.profile import load_profile
from ..carrier import carrier_circuit
from ..circuit import Circuit, build_circuit
from . import route, sexpr

log = logging.getLogger(__name__)

DIST_PACKAGES = "/usr/lib/python3/dist-packages"
FP_DIR = "/usr/share/kicad/footprints"
W, H = 65.0, 56.5
HOLES = ((3.5, 3.5), (61.5, 3.5), (3.5, 52.5), (61.5, 52.5))
HEADER_X0, ODD_Y, EVEN_Y = 32.5 - 24.13, 4.77, 2.23
TRACK, POWER_TRACK, VIA, DRILL = 0.2, 0.8, 0.6, 0.3
LANE_Y0, LANE_PITCH = 8.0, 0.8
J3_X0, J3_Y = 8.37 + 0.635, 33.0


def header_xy(pin: int) -> tuple[float, float]:
    k = (pin - 1) // 2
    return HEADER_X0 + 2.54 * k, ODD_Y if pin % 2 else EVEN_Y


def kicad_nets(netlist: Path) -> dict[str, str]:
    """Node -> KiCad's net name, read from the netlist KiCad exported from the carrier's
    schematic, so the board's nets are the schematic's by name (the parity check compares)."""
    tree = sexpr.parse(netlist.read_text(encoding="utf-8"))
    names = {}
    for net in sexpr.find_all(sexpr.find(tree, "nets") or [], "net"):
        name = str((sexpr.find(net, "name") or ["", ""])[1])
        for node in sexpr.find_all(net, "node"):
            names[f"{(sexpr.find(node, 'ref') or ['', ''])[1]}.{(sexpr.find(node, 'pin') or ['', ''])[1]}"] = name
    return names


def main(argv: list[str]) -> int:
    sys.path.append(DIST_PACKAGES)
    import pcbnew  # KiCad's module, not on the venv's path

    out = Path(argv[0])
    profile = argv[1] if len(argv) > 1 else "direct-24"
    pcbnew.KIID.SeedGenerator(35)  # ids from a fixed seed: the same board gives the same file
    circuit = carrier_circuit(build_circuit(load_profile(profile), profile))
    board = pcbnew.NewBoard(str(out))
    kind = Board if profile == "direct-24" else RoutedBoard
    kind(pcbnew, board, circuit, kicad_nets(out.with_suffix(".net"))).build()
    board.Save(str(out))
    # fill the pours on the board as saved: filled in memory they ignore the holes' clearance
    pcbnew.KIID.SeedGenerator(36)
    board = pcbnew.LoadBoard(str(out))
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    board.Save(str(out))
    return 0


class Board:
    def __init__(self, pcbnew: Any, board: Any, circuit: Circuit, names: dict[str, str]) -> None:
        self.p = pcbnew
        self.b = board
        self.c = circuit
        self.names = names
        self.nets: dict[str, Any] = {}  # pcbnew's NETINFO_ITEMs and FOOTPRINTs, untyped
        self.fps: dict[str, Any] = {}

    def mm(self, x: float, y: float) -> Any:
        return self.p.VECTOR2I(self.p.FromMM(x), self.p.FromMM(y))

    def net(self, model_name: str) -> Any:
        """The board net of a model net (by KiCad's name for it), or a KiCad name as such."""
        name = next((self.names[n] for n in self.c.net(model_name).nodes if n in self.names), model_name) \
            if model_name in {n.name for n in self.c.nets} else model_name
        if name not in self.nets:
            n = self.p.NETINFO_ITEM(self.b, name)
            self.b.Add(n)
            self.nets[name] = n
        return self.nets[name]

    def build(self) -> None:
        p = self.p
        ds = self.b.GetDesignSettings()
        ds.SetCopperLayerCount(2)
        self.outline()
        for x, y in HOLES:
            fp = p.FootprintLoad(f"{FP_DIR}/MountingHole.pretty", "MountingHole_2.7mm_M2.5")
            fp.SetPosition(self.mm(x, y))
            fp.SetReference(f"H{len(self.fps) + 1}")
            fp.SetBoardOnly(True)  # a hole, not a part of the schematic
            fp.Reference().SetVisible(False)
            self.fps[fp.GetReference()] = fp
            self.b.Add(fp)
        for part in self.c.parts:
            lib, _, name = part.footprint.partition(":")
            fp = p.FootprintLoad(f"{FP_DIR}/{lib}.pretty", name)
            fp.SetReference(part.ref)
            fp.SetValue(part.value)
            fp.SetFPID(p.LIB_ID(lib, name))
            self.b.Add(fp)
            self.fps[part.ref] = fp
            for pad in fp.Pads():
                node = f"{part.ref}.{pad.GetNumber()}"
                if node in self.names:
                    pad.SetNet(self.net(self.c.net_of(node) or self.names[node]))
        self.place()

    def outline(self) -> None:
        p = self.p
        pts = ((0, 0), (W, 0), (W, H), (0, H), (0, 0))
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            s = p.PCB_SHAPE(self.b)
            s.SetShape(p.SHAPE_T_SEGMENT)
            s.SetStart(self.mm(x0, y0))
            s.SetEnd(self.mm(x1, y1))
            s.SetLayer(p.Edge_Cuts)
            s.SetWidth(p.FromMM(0.1))
            self.b.Add(s)

    def pad_xy(self, ref: str, number: str) -> tuple[float, float]:
        for pad in self.fps[ref].Pads():
            if pad.GetNumber() == number:
                pos = pad.GetPosition()
                return round(self.p.ToMM(pos.x), 4), round(self.p.ToMM(pos.y), 4)
        raise KeyError(f"{ref}.{number}")

    def put(self, ref: str, x: float, y: float, angle: float = 0.0, flip: bool = False) -> None:
        fp = self.fps[ref]
        fp.SetPosition(self.mm(x, y))
        if flip:
            fp.Flip(fp.GetPosition(), False)
        fp.SetOrientationDegrees(angle)

    def place(self) -> None:
        # the header socket under the board: find the turn that puts pin 1 and pin 2 where the
        # Pi has them (pin 2 on the edge row, pin 3 to the right of pin 1)
        for flip in (False, True):
            for angle in (0, 90, 180, 270):
                self.fps["J1"].SetPosition(self.mm(0, 0))
                self.fps["J1"].SetOrientationDegrees(0)
                if self.fps["J1"].IsFlipped():
                    self.fps["J1"].Flip(self.mm(0, 0), False)
                self.put("J1", 0, 0, angle, flip)
                x1, y1 = self.pad_xy("J1", "1")
                x2, y2 = self.pad_xy("J1", "2")
                x3, y3 = self.pad_xy("J1", "3")
                if abs(y2 - (y1 - 2.54)) < 1e-3 and abs(x3 - (x1 + 2.54)) < 1e-3:
                    self.fps["J1"].SetPosition(self.mm(HEADER_X0 - x1, ODD_Y - y1))
                    self.place_rest()
                    self.route()
                    return
        raise RuntimeError("no orientation puts the header's pins where the Pi has them")

    def at_pad(self, ref: str, number: str, x: float, y: float, angle: float = 0.0) -> None:
        """Turn a footprint by `angle` and move it so pad `number` sits at (x, y)."""
        fp = self.fps[ref]
        fp.SetPosition(self.mm(0, 0))
        fp.SetOrientationDegrees(angle)
        px, py = self.pad_xy(ref, number)
        fp.SetPosition(self.mm(x - px, y - py))

    def place_rest(self) -> None:
        # J3: rows horizontal, pin 3 right of pin 1
        for angle in (0, 90, 180, 270):
            self.at_pad("J3", "1", J3_X0, J3_Y, angle)
            x1, y1 = self.pad_xy("J3", "1")
            x3, y3 = self.pad_xy("J3", "3")
            if abs(x3 - x1 - 2.54) < 1e-3 and abs(y3 - y1) < 1e-3:
                break
        x2, y2 = self.pad_xy("J3", "2")
        if y2 < J3_Y:  # pin 2's row above: move so the upper row is at J3_Y
            self.at_pad("J3", "2", J3_X0, J3_Y, self.fps["J3"].GetOrientationDegrees())
        self.at_pad("J4", "1", 10.5, 50.5)
        self.at_pad("F1", "1", 21.0, 46.0)
        self.fps["Q1"].SetPosition(self.mm(32.5, 51.5))
        self.at_pad("C1", "1", 40.0, 50.5)
        self.at_pad("U1", "1", 49.2, 30.0)
        self.at_pad("C2", "1", 51.5, 48.5)
        for angle in (0, 90, 180, 270):
            self.at_pad("R1", "2", 61.5, 33.0, angle)
            if abs(self.pad_xy("R1", "1")[1] - 43.16) < 1e-2:
                break
        for angle in (0, 90, 180, 270):
            self.at_pad("J2", "1", 61.0, 22.0, angle)
            if abs(self.pad_xy("J2", "3")[1] - 17.0) < 1e-2:
                break
        c2a, c2b = self.pad_xy("C2", "1"), self.pad_xy("C2", "2")
        self.fps["C2"].Reference().SetPosition(self.mm((c2a[0] + c2b[0]) / 2, c2a[1] + 2.2))

    # --- copper ----------------------------------------------------------------------------

    def track(self, pts: list[tuple[float, float]], net: str, layer: str = "F", width: float = TRACK) -> None:
        p = self.p
        for a, b in zip(pts, pts[1:]):
            t = p.PCB_TRACK(self.b)
            t.SetStart(self.mm(*a))
            t.SetEnd(self.mm(*b))
            t.SetWidth(p.FromMM(width))
            t.SetLayer(p.F_Cu if layer == "F" else p.B_Cu)
            t.SetNet(self.net(net))
            self.b.Add(t)

    def via(self, at: tuple[float, float], net: str) -> None:
        p = self.p
        v = p.PCB_VIA(self.b)
        v.SetPosition(self.mm(*at))
        v.SetWidth(p.FromMM(VIA))
        v.SetDrill(p.FromMM(DRILL))
        v.SetNet(self.net(net))
        self.b.Add(v)

    def route(self) -> None:
        lane = 0
        for net in self.c.nets:
            heads = [n for n in net.nodes if n.startswith("J1.")]
            ends = [n for n in net.nodes if n.startswith(("J3.", "U1."))]
            if net.name in ("5V", "GND") or len(heads) != 1 or len(ends) != 1:
                continue
            pin = int(heads[0].split(".")[1])
            hx, hy = header_xy(pin)
            xs = hx if pin % 2 else hx + 1.27
            y = LANE_Y0 + LANE_PITCH * lane
            lane += 1
            if not pin % 2:
                self.track([(hx, hy), (xs, hy)], net.name, "B")
            self.track([(xs, hy), (xs, y)], net.name, "B")
            self.via((xs, y), net.name)
            ref, number = ends[0].split(".")
            jx, jy = self.pad_xy(ref, number)
            if ref == "U1":
                xd = 45.835
                self.track([(xd, y), (xd, jy), (jx, jy)], net.name, "B")
            else:
                upper = abs(jy - J3_Y) < 1e-3
                xd = jx if upper else jx + 1.27
                self.track([(xd, y), (xd, jy)] + ([] if upper else [(jx, jy)]), net.name, "B")
            self.via((xd, y), net.name)
            self.track([(xs, y), (xd, y)], net.name, "F")
        self.power()

    def power(self) -> None:
        pw = POWER_TRACK
        psu1, f1a, f1b = self.pad_xy("J4", "1"), self.pad_xy("F1", "1"), self.pad_xy("F1", "2")
        self.track([psu1, (psu1[0], f1a[1]), f1a], "5V_SUPPLY", "F", pw)
        d = [self.pad_xy("Q1", n) for n in ("5", "6", "7", "8")]
        top = min(d, key=lambda q: q[1])
        self.track([f1b, (top[0], f1b[1]), top], "5V_FUSED", "F", pw)
        self.track(sorted(d, key=lambda q: q[1]), "5V_FUSED", "F", 0.5)
        s = sorted((self.pad_xy("Q1", n) for n in ("1", "2", "3")), key=lambda q: q[1])
        self.track(s, "5V", "F", 0.5)
        trunk_y, down_x = 55.5, s[0][0] - 2.5  # 5V leaves the source pins leftwards, clear of the gate
        c1, c2 = self.pad_xy("C1", "1"), self.pad_xy("C2", "1")
        u14, j22 = self.pad_xy("U1", "14"), self.pad_xy("J2", "2")
        pi2, pi4 = header_xy(2), header_xy(4)
        self.track([s[0], (down_x, s[0][1]), (down_x, trunk_y), (6.0, trunk_y), (6.0, pi2[1]), pi2, pi4],
                   "5V", "F", pw)
        self.track([(down_x, trunk_y), (c2[0], trunk_y), c2], "5V", "F", pw)
        self.track([(c1[0], trunk_y), c1], "5V", "F", pw)
        self.track([c2, (c2[0], u14[1]), u14], "5V", "F", pw)
        self.track([u14, (58.9, u14[1]), (58.9, j22[1]), j22], "5V", "F", 0.4)
        g = self.pad_xy("Q1", "4")
        self.track([g, (g[0] - 1.4, g[1])], "GND", "F", 0.4)
        self.via((g[0] - 1.4, g[1]), "GND")
        u3, j21 = self.pad_xy("U1", "3"), self.pad_xy("J2", "1")
        r11, r12 = self.pad_xy("R1", "1"), self.pad_xy("R1", "2")
        self.track([u3, (53.0, u3[1]), (53.0, 46.5), (r11[0], 46.5), r11], "LED_5V", "B")
        self.track([r12, j21], "DIN0", "F", 0.4)
        self.zone("GND", "B")
        self.zone("GND", "F")

    def zone(self, net: str, layer: str, solid: bool = False) -> None:
        p = self.p
        z = p.ZONE(self.b)
        z.SetLayer(p.F_Cu if layer == "F" else p.B_Cu)
        z.SetNet(self.net(net))
        outline = z.Outline()
        outline.NewOutline()
        for x, y in ((0.3, 0.3), (W - 0.3, 0.3), (W - 0.3, H - 0.3), (0.3, H - 0.3)):
            outline.Append(p.FromMM(x), p.FromMM(y))
        z.SetLocalClearance(p.FromMM(0.25))
        z.SetMinThickness(p.FromMM(0.2))
        z.SetPadConnection(p.ZONE_CONNECTION_FULL if solid else p.ZONE_CONNECTION_THERMAL)
        self.b.Add(z)


def gx(i: int) -> float:
    """The x of grid column `i`: the router's cells fall on the header's pin 1."""
    return round(HEADER_X0 + route.GRID * i, 4)


def gy(j: int) -> float:
    return round(ODD_Y + route.GRID * j, 4)


SUPPLY_ROW = (
    ("J4", "1", gx(3), gy(72), 0), ("F1", "1", gx(20), gy(64), 0), ("Q1", "1", gx(34), gy(70), 0),
    ("C1", "1", gx(50), gy(72), 0), ("C2", "1", gx(68), gy(69), 0), ("U1", "1", gx(64), gy(39), 0),
    ("R1", "2", gx(83), gy(44), 90), ("J2", "1", gx(82), 22.0, 90),
)
"""The supply along the bottom edge, the level shifter and the LED connector on the right."""
HARNESS = (("J3", "1", gx(52), gy(36), 270),)
"""The 2x13 box header across the middle, pin 1 on the right."""

PLACES: dict[str, tuple[tuple[str, str, float, float, float], ...]] = {
    # the expander build: U2 over the box header and U3 under it (pins in rows across), so
    # each chip's sensor lines run straight to the header
    "mcp23017-24": HARNESS + SUPPLY_ROW + (
        ("U2", "1", gx(55), gy(14), 270), ("U3", "1", gx(4), gy(60), 90),
        ("C3", "1", gx(21), gy(9), 180), ("R2", "1", gx(28), gy(9), 0), ("C4", "1", gx(34), gy(65), 0),
    ),
    # the 19-point direct builds: the header's lines straight down to the box header
    "direct-19": HARNESS + SUPPLY_ROW,
    "direct-spi-19": HARNESS + SUPPLY_ROW,
    # the matrix builds: the eight column pull-ups standing in a row above the 2x7 box header
    "matrix-24": HARNESS + SUPPLY_ROW + tuple((f"RC{k}", "1", gx(22 + 6 * k), gy(5), 270) for k in range(8)),
    "matrix-spi-24": HARNESS + SUPPLY_ROW + tuple((f"RC{k}", "1", gx(22 + 6 * k), gy(5), 270) for k in range(8)),
}
"""Per profile: each part's pad, where that pad goes (mm) and the part's turn (degrees)."""

SUPPLY_LABELS = {"J4": (5.2, 46.0), "F1": (23.5, 49.3), "Q1": (32.435, 55.0), "C2": (54.05, 50.8)}
LABELS: dict[str, dict[str, tuple[float, float]]] = {
    "mcp23017-24": SUPPLY_LABELS | {"C3": (19.2, 8.4), "C4": (37.8, 45.6)},
    "direct-19": SUPPLY_LABELS,
    "direct-spi-19": SUPPLY_LABELS,
    "matrix-24": SUPPLY_LABELS | {f"RC{k}": (gx(22 + 6 * k), 21.0) for k in range(8)},
    "matrix-spi-24": SUPPLY_LABELS | {f"RC{k}": (gx(22 + 6 * k), 21.0) for k in range(8)},
}
"""Per profile: where a part's reference is printed when its own place would touch another part."""

FAT = frozenset({"J4.1", "J4.2", "F1.1", "F1.2", "Q1.1", "Q1.2", "Q1.3", "Q1.5", "Q1.6", "Q1.7", "Q1.8",
                 "J1.2", "J1.4", "J1.9", "C1.1", "C1.2", "J2.2", "J2.3"})
"""Pads that carry the Pi's or the LED chain's supply current: joined by wide tracks."""
SUPPLY_FIRST = ("5V_SUPPLY", "5V_FUSED", "5V", "GND")


class RoutedBoard(Board):
    """A carrier placed from `PLACES` and routed by the grid router (`route.py`)."""

    def place_rest(self) -> None:
        profile = self.c.name.removesuffix("-carrier")
        for ref, pad, x, y, angle in PLACES[profile]:
            self.at_pad(ref, pad, x, y, angle)
        for ref, (x, y) in LABELS.get(profile, {}).items():
            self.fps[ref].Reference().SetPosition(self.mm(x, y))

    def route(self) -> None:
        p = self.p
        holes: list[tuple[float, float, float]] = []
        pads: list[route.Pad] = []
        for ref, fp in self.fps.items():
            for pad in fp.Pads():
                if not pad.GetNumber():
                    holes.append((*self.pad_xy(ref, ""), p.ToMM(pad.GetDrillSize().x)))
                    continue
                net = pad.GetNetname()
                if net == "" or net.startswith("unconnected-"):
                    net = f"~{ref}.{pad.GetNumber()}"  # copper of no net: kept clear like any other
                box = pad.GetBoundingBox()
                layers = tuple(name for name, layer in (("F", p.F_Cu), ("B", p.B_Cu)) if pad.IsOnLayer(layer))
                pads.append(route.Pad(ref, pad.GetNumber(), net, p.ToMM(pad.GetPosition().x),
                                      p.ToMM(pad.GetPosition().y), p.ToMM(box.GetWidth()), p.ToMM(box.GetHeight()),
                                      layers))

        def grid() -> route.Router:
            r = route.Router(W, H, HEADER_X0, ODD_Y)
            for x, y, d in holes:
                r.hole(x, y, d)
            for pad in pads:
                r.pad(pad)
            return r

        supply = [self.net(n).GetNetname() for n in SUPPLY_FIRST]
        nets = sorted({pad.net for pad in pads} - set(supply))
        count = {n: sum(pad.net == n for pad in pads) for n in nets}
        r = route.route_all(grid, supply + sorted(nets, key=lambda n: (-count[n], n)), FAT, len(supply))
        for s in r.segments:
            self.track([s.start, s.end], s.net, s.layer, s.width)
        for v in r.vias:
            self.via(v.at, v.net)
        # pads joined to the pours solidly: every GND pad has its track already, and a thermal
        # relief's spokes can land on a sliver of pour between the lanes
        self.zone("GND", "B", solid=True)
        self.zone("GND", "F", solid=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
