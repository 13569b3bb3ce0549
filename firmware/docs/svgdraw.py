"""A small SVG writer that remembers where its labels and routed lines are.

The build documents are generated, so their layout can be checked by a test rather than by
eye alone: every text records an estimated bounding box, every line that must stay clear of
text records its segments. Text width is estimated at 0.68 em a character (DejaVu Sans, the
usual sans-serif on Linux, has digits at 0.64 em and capitals up to 0.79 em; lower case is
narrower), so the estimate errs wide.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

CHAR_EM = 0.68
Point = tuple[float, float]


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle: the estimated extent of one label."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str = ""

    def overlaps(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def hit_by(self, a: Point, b: Point) -> bool:
        """Whether the segment a-b passes through this box (Liang-Barsky clipping)."""
        (ax, ay), (bx, by) = a, b
        t0, t1 = 0.0, 1.0
        dx, dy = bx - ax, by - ay
        for p, q in ((-dx, ax - self.x0), (dx, self.x1 - ax), (-dy, ay - self.y0), (dy, self.y1 - ay)):
            if p == 0:
                if q < 0:
                    return False
                continue
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
        return True


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


@dataclass
class Drawing:
    width: float
    height: float
    font_size: float = 11
    parts: list[str] = field(default_factory=list)
    labels: list[Box] = field(default_factory=list)
    routes: list[tuple[Point, ...]] = field(default_factory=list)
    """Lines (the LED chain) that must not run over any label."""
    wires: list[tuple[str, str, Point, Point]] = field(default_factory=list)
    """Schematic wires: (net, pin, from, to), also written as data-net/data-pin attributes."""

    def __post_init__(self) -> None:
        self.parts[:0] = self._head()

    def _head(self) -> list[str]:
        w, h = _fmt(self.width), _fmt(self.height)
        return [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'font-family="sans-serif" font-size="{_fmt(self.font_size)}">',
            f'<rect width="{w}" height="{h}" fill="white"/>',
        ]

    def resize(self) -> None:
        """Rewrite the page size after `width` or `height` changed (a page drawn top down)."""
        self.parts[:2] = self._head()

    def wire(self, a: Point, b: Point, net: str, pin: str, colour: str) -> None:
        """A wire of `net` from `pin` (PART.PIN); the SVG keeps both names for checking."""
        self.wires.append((net, pin, a, b))
        self.parts.append(
            f'<line x1="{_fmt(a[0])}" y1="{_fmt(a[1])}" x2="{_fmt(b[0])}" y2="{_fmt(b[1])}" '
            f'stroke="{colour}" stroke-width="1.5" data-net="{escape(net)}" data-pin="{escape(pin)}"/>'
        )

    def text(self, x: float, y: float, text: str, *, size: float | None = None, anchor: str = "start",
             extra: str = "") -> Box:
        """A label with its baseline at y; returns (and keeps) its estimated box."""
        size = size or self.font_size
        width = CHAR_EM * size * len(text)
        x0 = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        box = Box(x0, y - 0.8 * size, x0 + width, y + 0.22 * size, text)
        self.labels.append(box)
        attrs = f' text-anchor="{anchor}"' if anchor != "start" else ""
        if size != self.font_size:
            attrs += f' font-size="{_fmt(size)}"'
        self.parts.append(f'<text x="{_fmt(x)}" y="{_fmt(y)}"{attrs}{extra}>{escape(text)}</text>')
        return box

    def line(self, a: Point, b: Point, style: str = 'stroke="#333"') -> None:
        self.parts.append(
            f'<line x1="{_fmt(a[0])}" y1="{_fmt(a[1])}" x2="{_fmt(b[0])}" y2="{_fmt(b[1])}" {style}/>'
        )

    def polyline(self, points: tuple[Point, ...], style: str, *, route: bool = False) -> None:
        path = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)
        self.parts.append(f'<polyline points="{path}" fill="none" {style}/>')
        if route:
            self.routes.append(points)

    def circle(self, c: Point, r: float, style: str) -> None:
        self.parts.append(f'<circle cx="{_fmt(c[0])}" cy="{_fmt(c[1])}" r="{_fmt(r)}" {style}/>')

    def rect(self, x: float, y: float, w: float, h: float, style: str) -> None:
        self.parts.append(f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="{_fmt(w)}" height="{_fmt(h)}" {style}/>')

    def raw(self, element: str) -> None:
        self.parts.append(element)

    def overlapping_labels(self) -> list[tuple[str, str]]:
        """Pairs of labels whose boxes overlap (empty when the layout is clean)."""
        out = []
        for i, a in enumerate(self.labels):
            for b in self.labels[i + 1:]:
                if a.overlaps(b):
                    out.append((a.text, b.text))
        return out

    def labels_on_routes(self) -> list[str]:
        """Labels a routed line runs over."""
        hit = []
        for points in self.routes:
            for a, b in zip(points, points[1:]):
                hit += [box.text for box in self.labels if box.hit_by(a, b)]
        return hit

    def svg(self) -> str:
        return "\n".join([*self.parts, "</svg>"]) + "\n"
