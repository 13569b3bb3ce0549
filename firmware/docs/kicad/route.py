"""A two-layer grid router for the carrier boards: the board is a grid of cells 0.635 mm apart
(a quarter of the 2.54 mm pitch, so through-hole pins sit on cells), and each connection is
the cheapest path of cells from a net's copper to the next pad of that net (Dijkstra), on the
top copper preferably across and on the bottom preferably down, changing layer by a via.

The spacing rules are kept by the grid itself, for 0.25 mm tracks, 0.6 mm vias and 0.2 mm
clearance: cells near another net's pad are that net's own; a thin track may run beside
another net's thin track or via in the next cell (0.385 and 0.21 mm apart); a via needs the
eight cells round it free of other nets' vias and pads; a supply track (0.8 mm) needs them
free of other nets' copper. No offline autorouter exists for KiCad here: this one is small and
deterministic, so the same board gives the same tracks.
"""

from __future__ import annotations

import heapq
import logging
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

log = logging.getLogger(__name__)

GRID = 0.635
CLEARANCE = 0.2
TRACK = 0.25
POWER_TRACK = 0.8
VIA, VIA_DRILL = 0.6, 0.3
EDGE_CLEARANCE = 0.5
VIA_COST, TURN_COST, WRONG_WAY_COST = 10, 1, 2
LAYERS = ("F", "B")

FREE, TRACK_CELL, ZONE_CELL, VIA_CELL, PAD_CELL = 0, 1, 2, 3, 4
BLOCKED = "#"


class RouteError(RuntimeError):
    """A connection the router could not make: the board's placement must change."""


@dataclass(frozen=True)
class Pad:
    """A pad's copper: centre, size (a rectangle, turned to the board), its net and layers."""

    ref: str
    number: str
    net: str
    x: float
    y: float
    w: float
    h: float
    layers: tuple[str, ...] = LAYERS


@dataclass(frozen=True)
class Segment:
    net: str
    layer: str
    start: tuple[float, float]
    end: tuple[float, float]
    width: float


@dataclass(frozen=True)
class Via:
    net: str
    at: tuple[float, float]


Cell = tuple[int, int, int]  # layer index, column, row


class Router:
    """The grid of a board `width` x `height` mm whose cells fall on (`x0`, `y0`)."""

    def __init__(self, width: float, height: float, x0: float, y0: float) -> None:
        self.ox, self.oy = x0 % GRID, y0 % GRID
        self.nx = int((width - self.ox) / GRID) + 1
        self.ny = int((height - self.oy) / GRID) + 1
        self.width, self.height = width, height
        self.owner: list[list[str | None]] = [[None] * (self.nx * self.ny) for _ in LAYERS]
        self.kind: list[list[int]] = [[FREE] * (self.nx * self.ny) for _ in LAYERS]
        self.segments: list[Segment] = []
        self.vias: list[Via] = []
        self.pads: dict[str, list[Pad]] = {}
        margin = EDGE_CLEARANCE + POWER_TRACK / 2
        for i in range(self.nx):
            for j in range(self.ny):
                x, y = self.xy(i, j)
                if min(x, y, width - x, height - y) < margin:
                    for layer in range(len(LAYERS)):
                        self.owner[layer][self.at(i, j)] = BLOCKED

    def at(self, i: int, j: int) -> int:
        return j * self.nx + i

    def xy(self, i: int, j: int) -> tuple[float, float]:
        return round(self.ox + i * GRID, 4), round(self.oy + j * GRID, 4)

    def near(self, x: float, y: float, reach: float) -> Iterable[tuple[int, int]]:
        """The cells within `reach` of a point, each axis."""
        for i in range(max(0, math.floor((x - reach - self.ox) / GRID)),
                       min(self.nx, math.ceil((x + reach - self.ox) / GRID) + 1)):
            for j in range(max(0, math.floor((y - reach - self.oy) / GRID)),
                           min(self.ny, math.ceil((y + reach - self.oy) / GRID) + 1)):
                yield i, j

    def hole(self, x: float, y: float, diameter: float) -> None:
        """A mounting hole: no copper of any net within reach."""
        reach = diameter / 2 + CLEARANCE + POWER_TRACK / 2
        for i, j in self.near(x, y, reach):
            cx, cy = self.xy(i, j)
            if math.hypot(cx - x, cy - y) < reach:
                for layer in range(len(LAYERS)):
                    self.owner[layer][self.at(i, j)] = BLOCKED

    def pad(self, pad: Pad) -> None:
        """A pad's copper and the clearance round it become its net's cells."""
        self.pads.setdefault(pad.net, []).append(pad)
        reach_x, reach_y = pad.w / 2 + CLEARANCE + TRACK / 2, pad.h / 2 + CLEARANCE + TRACK / 2
        for i, j in self.near(pad.x, pad.y, max(reach_x, reach_y)):
            cx, cy = self.xy(i, j)
            if abs(cx - pad.x) < reach_x - 1e-6 and abs(cy - pad.y) < reach_y - 1e-6:
                for layer in (LAYERS.index(n) for n in pad.layers):
                    k = self.at(i, j)
                    if self.owner[layer][k] is None or self.owner[layer][k] == pad.net:
                        self.owner[layer][k] = pad.net
                        self.kind[layer][k] = PAD_CELL
                    else:  # two nets' pads this close: neither may route here
                        self.owner[layer][k] = BLOCKED

    def pad_cells(self, pad: Pad) -> list[Cell]:
        """Cells whose centre lies on the pad's copper, on the pad's layers."""
        cells = []
        for i, j in self.near(pad.x, pad.y, max(pad.w, pad.h) / 2):
            cx, cy = self.xy(i, j)
            if abs(cx - pad.x) <= pad.w / 2 - 0.05 and abs(cy - pad.y) <= pad.h / 2 - 0.05:
                cells += [(LAYERS.index(n), i, j) for n in pad.layers]
        return cells

    def ring(self, i: int, j: int) -> Iterable[int]:
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                if (di or dj) and 0 <= i + di < self.nx and 0 <= j + dj < self.ny:
                    yield self.at(i + di, j + dj)

    def usable(self, layer: int, i: int, j: int, net: str, fat: bool) -> bool:
        k = self.at(i, j)
        if self.owner[layer][k] not in (None, net):
            return False
        if fat:  # no other net's copper in the next cells (another supply track's margin is fine)
            return all(self.owner[layer][n] in (None, net) or self.kind[layer][n] == ZONE_CELL
                       for n in self.ring(i, j))
        return True

    def via_ok(self, i: int, j: int, net: str) -> bool:
        for layer in range(len(LAYERS)):
            k = self.at(i, j)
            if self.owner[layer][k] not in (None, net) or self.kind[layer][k] == PAD_CELL:
                return False  # no via in a pad: its hole would meet the pad's
            for n in self.ring(i, j):
                other = self.owner[layer][n]
                if other not in (None, net) and (other == BLOCKED or self.kind[layer][n] != TRACK_CELL):
                    return False
        return True

    def connect(self, net: str, tree: set[Cell], target: Pad, fat: bool) -> list[Cell]:
        """The cheapest path from the net's copper (`tree`) to a cell of `target`."""
        goals = set(self.pad_cells(target))
        if not goals:
            raise RouteError(f"{target.ref}.{target.number} has no grid cell on its copper")
        ti, tj = (target.x - self.ox) / GRID, (target.y - self.oy) / GRID
        hw, hh = target.w / 2 / GRID, target.h / 2 / GRID

        def guess(c: Cell) -> float:  # A*: never more than the cheapest way left
            return max(0.0, abs(c[1] - ti) - hw) + max(0.0, abs(c[2] - tj) - hh)

        best: dict[tuple[Cell, int], float] = {}
        came: dict[tuple[Cell, int], tuple[Cell, int] | None] = {}
        queue: list[tuple[float, int, float, Cell, int]] = []
        tick = 0
        for c in sorted(tree):
            best[(c, -1)] = 0.0
            came[(c, -1)] = None
            heapq.heappush(queue, (guess(c), tick, 0.0, c, -1))
            tick += 1
        steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
        while queue:
            _, _, cost, cell, heading = heapq.heappop(queue)
            if cost > best.get((cell, heading), math.inf):
                continue
            if cell in goals:
                path = []
                state: tuple[Cell, int] | None = (cell, heading)
                while state is not None:
                    path.append(state[0])
                    state = came[state]
                return path[::-1]
            layer, i, j = cell
            moves: list[tuple[Cell, int, float]] = []
            for d, (di, dj) in enumerate(steps):
                ni, nj = i + di, j + dj
                if 0 <= ni < self.nx and 0 <= nj < self.ny and self.usable(layer, ni, nj, net, fat):
                    across = di != 0
                    step = 1.0 if across == (layer == 0) else WRONG_WAY_COST
                    turn = TURN_COST if heading not in (-1, d) and heading < 4 else 0
                    moves.append(((layer, ni, nj), d, step + turn))
            other = 1 - layer
            if self.usable(other, i, j, net, fat) and self.via_ok(i, j, net):
                moves.append(((other, i, j), 4, VIA_COST))
            for nxt, d, step in moves:
                key = (nxt, d)
                if cost + step < best.get(key, math.inf):
                    best[key] = cost + step
                    came[key] = (cell, heading)
                    heapq.heappush(queue, (cost + step + guess(nxt), tick, cost + step, nxt, d))
                    tick += 1
        raise RouteError(f"no way found for net {net} to {target.ref}.{target.number}")

    def claim(self, net: str, path: Sequence[Cell], fat: bool) -> None:
        for a, b in zip(path, path[1:]):
            if a[0] != b[0]:
                for layer in range(len(LAYERS)):
                    k = self.at(a[1], a[2])
                    self.owner[layer][k], self.kind[layer][k] = net, VIA_CELL
        for layer, i, j in path:
            k = self.at(i, j)
            if self.kind[layer][k] != VIA_CELL:
                self.owner[layer][k] = net
                self.kind[layer][k] = max(self.kind[layer][k], TRACK_CELL)
            if fat:
                for n in self.ring(i, j):
                    if self.owner[layer][n] is None:
                        self.owner[layer][n], self.kind[layer][n] = net, ZONE_CELL

    def draw(self, net: str, path: Sequence[Cell], fat: bool) -> None:
        """The path as straight segments and vias."""
        width = POWER_TRACK if fat else TRACK
        run = [path[0]]
        for cell in path[1:]:
            last = run[-1]
            if cell[0] != last[0]:
                self.flush(net, run, width)
                self.vias.append(Via(net, self.xy(cell[1], cell[2])))
                run = [cell]
                continue
            if len(run) >= 2 and _direction(run[-2], last) != _direction(last, cell):
                self.flush(net, run, width)
                run = [last]
            run.append(cell)
        self.flush(net, run, width)

    def flush(self, net: str, run: list[Cell], width: float) -> None:
        if len(run) >= 2:
            self.segments.append(Segment(net, LAYERS[run[0][0]], self.xy(run[0][1], run[0][2]),
                                         self.xy(run[-1][1], run[-1][2]), width))

    def route(self, net: str, fat_refs: frozenset[str] = frozenset()) -> None:
        try:
            self._route(net, fat_refs)
        except RouteError as exc:
            raise RouteError(str(exc), net) from None

    def _route(self, net: str, fat_refs: frozenset[str]) -> None:
        """Join every pad of `net`: first the pads named in `fat_refs` ("REF.PIN") with supply
        tracks, then the rest with thin ones, each to the nearest copper of the net so far."""
        pads = sorted(self.pads.get(net, ()), key=lambda p: (f"{p.ref}.{p.number}" not in fat_refs, p.ref, p.number))
        if len(pads) < 2:
            return
        tree = set(self.pad_cells(pads[0]))
        todo = pads[1:]
        while todo:
            here = [self.xy(c[1], c[2]) for c in tree]
            todo.sort(key=lambda p: (f"{p.ref}.{p.number}" not in fat_refs,
                                     min(abs(x - p.x) + abs(y - p.y) for x, y in here), p.ref, p.number))
            pad = todo.pop(0)
            fat = f"{pad.ref}.{pad.number}" in fat_refs
            path = self.connect(net, tree, pad, fat)
            self.claim(net, path, fat)
            self.draw(net, path, fat)
            tree |= set(path) | set(self.pad_cells(pad))


def _direction(a: Cell, b: Cell) -> tuple[int, int]:
    return b[1] - a[1], b[2] - a[2]


def route_all(make: Callable[[], Router], nets: Sequence[str], fat_refs: frozenset[str], fixed: int,
              tries: int = 12) -> Router:
    """Route `nets` in order on a fresh grid from `make`; when one fails, start again with it
    routed right after the first `fixed` (the supplies), as a hand router would."""
    order = list(nets)
    for _ in range(tries):
        router = make()
        try:
            for net in order:
                router.route(net, fat_refs)
            return router
        except RouteError as exc:
            failed = exc.args[1] if len(exc.args) > 1 else None
            if failed is None or order.index(failed) <= fixed:
                raise
            log.info("%s; routing it earlier", exc.args[0])
            order.remove(failed)
            order.insert(fixed, failed)
    raise RouteError(f"no routing found in {tries} orders")
