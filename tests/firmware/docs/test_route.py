"""The carrier boards' grid router: it joins every pad of a net, keeps other nets' copper at
the clearance KiCad's check asks for, goes round or under what is in the way, names the pad it
cannot reach, and gives the same tracks for the same board."""

from __future__ import annotations

import itertools
import math

import pytest

from navakankari.firmware.docs.kicad import route
from navakankari.firmware.docs.kicad.route import Pad, Router, RouteError, Segment


def _pad(ref: str, net: str, x: float, y: float, size: float = 1.6) -> Pad:
    return Pad(ref, "1", net, x, y, size, size)


def _gap(a: Segment, b: Segment) -> float:
    """Copper distance between two straight tracks (edge to edge)."""
    def point_to(p: tuple[float, float], s: Segment) -> float:
        (x0, y0), (x1, y1) = s.start, s.end
        dx, dy = x1 - x0, y1 - y0
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - x0) * dx + (p[1] - y0) * dy) / (dx * dx + dy * dy)))
        return math.hypot(p[0] - x0 - t * dx, p[1] - y0 - t * dy)

    centre = min(point_to(a.start, b), point_to(a.end, b), point_to(b.start, a), point_to(b.end, a))
    return centre - (a.width + b.width) / 2


def _board() -> Router:
    """Two nets crossing: A from left to right, B from top to bottom, a wall of C in between."""
    r = Router(30.0, 30.0, 0.0, 0.0)
    r.pad(_pad("A1", "A", 3.81, 15.24))
    r.pad(_pad("A2", "A", 26.67, 15.24))
    r.pad(Pad("B1", "1", "B", 15.24, 3.81, 1.6, 1.6, ("F",)))  # surface pads: B must dive under A
    r.pad(Pad("B2", "1", "B", 15.24, 26.67, 1.6, 1.6, ("F",)))
    for k in range(5):
        r.pad(Pad("C", str(k), "C", 10.16, 10.16 + 2.54 * k, 1.6, 1.6))
    return r


def test_crossing_nets_are_joined_with_a_via_and_keep_their_clearance() -> None:
    r = _board()
    for net in ("A", "B", "C"):
        r.route(net)
    nets = {s.net for s in r.segments}
    assert nets == {"A", "B", "C"}
    assert r.vias, "two nets crossing on two layers need a via"
    for a, b in itertools.combinations(r.segments, 2):
        if a.net != b.net and a.layer == b.layer:
            assert _gap(a, b) >= route.CLEARANCE - 1e-9, (a, b)
    for a, b in itertools.combinations(r.vias, 2):
        if a.net != b.net:
            assert math.dist(a.at, b.at) - route.VIA >= route.CLEARANCE - 1e-9
    ends = {p for s in r.segments if s.net == "A" for p in (s.start, s.end)}
    for x, y in ((3.81, 15.24), (26.67, 15.24)):  # a track ends on each pad's copper
        assert any(abs(ex - x) <= 0.8 and abs(ey - y) <= 0.8 for ex, ey in ends)


def test_a_supply_track_is_wide_and_the_same_board_gives_the_same_tracks() -> None:
    first, second = _board(), _board()
    for r in (first, second):
        r.route("A", frozenset({"A1.1", "A2.1"}))
        r.route("B")
    assert first.segments == second.segments and first.vias == second.vias
    assert {s.width for s in first.segments if s.net == "A"} == {route.POWER_TRACK}
    assert {s.width for s in first.segments if s.net == "B"} == {route.TRACK}


def test_a_pad_walled_in_by_another_net_is_named() -> None:
    r = Router(20.0, 20.0, 0.0, 0.0)
    r.pad(_pad("X1", "X", 2.54, 10.16))
    r.pad(Pad("X2", "1", "X", 12.7, 10.16, 1.6, 1.6))
    r.pad(Pad("W", "1", "W", 12.7, 10.16, 5.0, 5.0, ("F", "B")))  # the wall covers X2 on both layers
    with pytest.raises(RouteError, match=r"X2\.1"):
        r.route("X")


def test_route_all_tries_the_failed_net_earlier() -> None:
    """A grid on which B fails unless it goes before A: the second order routes both, after
    the supplies (`fixed`), and a failing supply is reported at once."""
    orders: list[list[str]] = []
    broken: set[str] = set()

    class Grid(Router):
        def __init__(self) -> None:
            super().__init__(10.0, 10.0, 0.0, 0.0)
            self.done: list[str] = []
            orders.append(self.done)

        def route(self, net: str, fat_refs: frozenset[str] = frozenset()) -> None:
            if net == "B" and "A" in self.done or net in broken:
                raise RouteError(f"no way found for net {net}", net)
            self.done.append(net)

    done = route.route_all(Grid, ["S", "A", "B"], frozenset(), 1)
    assert orders == [["S", "A"], ["S", "B", "A"]] and done.done == ["S", "B", "A"]
    orders.clear()
    broken.add("S")
    with pytest.raises(RouteError, match="net S"):
        route.route_all(Grid, ["S", "A", "B"], frozenset(), 1)
    assert len(orders) == 1
