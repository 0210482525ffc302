"""The map as SVG, drawn from the variant data, and its PNG export.

`render_map(position, ...)` draws the board of `position.variant` from its geometry
(data/geometry/<map>.toml, the project's own artwork): sea and land, coastlines,
impassable spaces, scenery, supply-centre markers, province labels, the units in
their powers' colours, and, when given, the orders with their results, dislodged
units with their retreat options, and standoffs. `render_png(svg)` rasterises it.

Colouring: every land province a power controls (rules.control: a supply centre's
owner; any other land province, the power whose unit last stood in it) is tinted with
the power's colour; the rest keep the plain land colour. Every mark drawn in a power's
colour (arrows, lines) is cased in black or white, whichever stands out from the colour,
so that it reads on land, on sea and on every power's tint (tests/maps check the WCAG
contrast of each).

Orders: a move is a solid arrow in the power's colour; a support a thin dashed line
to the middle of the supported move (ending in a dot) or to a dashed ring round the
unit it supports to hold; a convoy a dotted line from the army through the fleet to
the destination; a hold a ring round the unit; a retreat an arrow from the dislodged
unit; a move or retreat shorter than SHORT runs into the middle of its destination, whose
name moves aside; a build the new unit in a green dashed ring with a plus; a removal or
disbandment a red cross. An order that failed is dashed with a red bar across it; an
order that was not valid is drawn faint.

Dislodged units (a retreat phase's position) stand beside their space in a red ring,
with dashed red arrows to each space they may retreat to; on a movement's results, a unit
the results dislodged is drawn the same way where it stood (red ring, red outline); standoffs
hatch the space red with a small red cross.

Every element the war room may click carries classes and data attributes: each
space's path has `class="space space-PAR terrain-coast ..."` and
`data-province="PAR"`; each unit is a `<g class="unit unit-army power-FRANCE"
data-unit="A PAR" data-province="PAR" data-power="FRANCE">` holding an invisible
`circle.hit`, a tap target HIT pixels across; each order a `<g
class="order order-move power-FRANCE result-fails" data-order="A PAR - BUR"
data-unit="A PAR">`; supply centres `<g class="sc sc-owned owner-FRANCE"
data-province="PAR">`; labels `<g class="label" data-province="PAR">`.

Sizes are set so that the picture reads well at 1200 pixels wide whatever the map's
own size. Only SVG 1.1 is used (no CSS, no markers, no paint-order), so browsers and
the PNG rasteriser draw the same picture; fonts are named, not embedded.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence
from xml.sax.saxutils import escape

from ..rules.adjudication import Outcome
from ..rules.control import control as controlled
from ..rules.geography import Location, Terrain, UnitType
from ..rules.notation import Reading, parse_order
from ..rules.options import RuleOptions
from ..rules.orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, UnitOrder, Waive,
                            format_order)
from ..rules.position import Position, Unit
from ..rules.retreats import retreat_options
from ..variants.geometry import Geometry, load_geometry

__all__ = ["render_map", "render_png", "FONT_FAMILY"]

FONT_FAMILY = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

SEA = "#b4d0e8"
SEA_EDGE = "#7fa3c5"
LAND = "#f2e9cc"
LAND_EDGE = "#8c7a5a"
COASTLINE = "#34526f"
DECOR_LAND = "#e4dcc2"
PAPER = "#e9e4d6"
INK = "#1c1c1c"
RED = "#d11f1f"
BUILD_GREEN = "#1e9c3c"
HIGHLIGHT = "#ffc400"
TINT = 0.55  # share of the owner's colour in a centre's fill
PIXELS = 1200.0  # the width the sizes below are chosen for
HIT = 44.0  # the diameter of a unit's tap target, in pixels at 1200 px wide
SHORT = 80.0  # a move shorter than this (pixels at 1200 wide) runs its arrow into the destination's middle

Point = tuple[float, float]

# half width and half height of each unit glyph (with its white halo), at scale 1
_UNIT_HALF = {UnitType.ARMY: (13.2, 13.2), UnitType.FLEET: (20.0, 12.5)}
_GLYPH = 1.1  # the glyphs are drawn 10% larger than their path data


# -- colour helpers -------------------------------------------------------------------

def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _hex(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(v))):02x}" for v in rgb)


def _mix(a: str, b: str, t: float) -> str:
    """Colour a with a share t of colour b."""
    return _hex(x + (y - x) * t for x, y in zip(_rgb(a), _rgb(b)))


def _luminance(colour: str) -> float:
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def casing(colour: str) -> str:
    """The edge next to a mark in this colour: black or white, whichever stands out more from it."""
    return INK if contrast(colour, INK) >= contrast(colour, "#ffffff") else "#ffffff"


def edges(colour: str, extra: float) -> list[tuple[str, float]]:
    """The strokes drawn under a mark in this colour, outermost first, as (colour, added width).

    The outer edge is always black, which stands out on land, sea and every power's tint; a
    dark colour gets a white edge inside it, so that the colour itself stands out from its edge."""
    if casing(colour) == INK:
        return [(INK, extra)]
    return [(INK, extra + 2.2), ("#ffffff", extra)]


def tint(colour: str) -> str:
    """The fill of a land province controlled by the power of this colour."""
    return _mix(LAND, colour, TINT)


def _text_on(colour: str) -> str:
    """Black or white, whichever reads on the colour."""
    return "#ffffff" if _luminance(colour) < 0.28 else "#111111"


# -- geometry helpers -----------------------------------------------------------------

def _f(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _pt(p: Point) -> str:
    return f"{_f(p[0])},{_f(p[1])}"


def _sub(a: Point, b: Point) -> Point:
    return a[0] - b[0], a[1] - b[1]


def _add(a: Point, b: Point) -> Point:
    return a[0] + b[0], a[1] + b[1]


def _scale(a: Point, k: float) -> Point:
    return a[0] * k, a[1] * k


def _length(a: Point) -> float:
    return math.hypot(a[0], a[1])


def _unit_vec(a: Point, b: Point) -> Point:
    d = _sub(b, a)
    n = _length(d) or 1.0
    return d[0] / n, d[1] / n


def _perp(v: Point) -> Point:
    return -v[1], v[0]


def _trim(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point] | None:
    """The segment a-b shortened by start at a and end at b (None if too little is left)."""
    n = _length(_sub(b, a))
    if n <= start + end + 2 or n < 1:
        return None
    u = _unit_vec(a, b)
    return _add(a, _scale(u, start)), _sub(b, _scale(u, end))


@functools.lru_cache(maxsize=4096)
def _polygon(outline: str) -> tuple[Point, ...]:
    """The vertices of an outline (the end points of its M/L/Q/C commands; relative ones are not used).

    Kept per outline: a map's outlines are fixed, and every drawing asks for them again (the
    analysis board draws two maps for each tap)."""
    points: list[Point] = []
    per = {"M": 1, "L": 1, "Q": 2, "C": 3}
    for cmd, args in re.findall(r"([MLHVCSQTAZmlhvcsqtaz])([^MLHVCSQTAZmlhvcsqtaz]*)", outline):
        nums = [float(v) for v in re.findall(r"-?\d*\.?\d+(?:[eE][-+]?\d+)?", args)]
        pairs = list(zip(nums[0::2], nums[1::2]))
        k = per.get(cmd.upper())
        if k:
            points.extend(pairs[k - 1::k])
    return tuple(points)


@functools.lru_cache(maxsize=4096)
def _bounds(polygon: tuple[Point, ...]) -> tuple[float, float, float, float]:
    """A polygon's box: x0, y0, x1, y1."""
    xs, ys = [q[0] for q in polygon], [q[1] for q in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def _inside(p: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd rule: is p inside the polygon?"""
    x, y = p
    if isinstance(polygon, tuple) and polygon:  # an outline's vertices (_polygon): outside its box, outside it
        x0, y0, x1, y1 = _bounds(polygon)
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
    inside = False
    j = len(polygon) - 1
    for i in range(len(polygon)):
        xi, yi = polygon[i]
        xj, yj = polygon[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def _attr(value: object) -> str:
    return escape(str(value), {'"': "&quot;"})


# -- which orders are drawn -----------------------------------------------------------

@dataclass(frozen=True)
class _Drawn:
    order: Order
    power: str
    result: str | None  # succeeds, fails, invalid, or None (not adjudicated)


def _order_of(item: object) -> Order | None:
    if isinstance(item, Reading):
        return item.order if item.error is None else None
    if isinstance(item, Outcome):
        return item.order
    return item  # type: ignore[return-value]


def _read_orders(position: Position, orders: object) -> list[tuple[str, Order]]:
    """(power, order) pairs from a mapping by power (text, Readings or Orders) or a plain list of them."""
    out: list[tuple[str, Order]] = []
    if orders is None:
        return out
    if isinstance(orders, Mapping):
        for power, items in orders.items():
            for item in items:
                order = _order_of(parse_order(item, position, power) if isinstance(item, str) else item)
                if order is not None:
                    out.append((power, order))
        return out
    for item in orders:  # type: ignore[attr-defined]
        order = _order_of(parse_order(item, position) if isinstance(item, str) else item)
        if isinstance(order, UnitOrder):
            out.append((order.unit.power, order))
        elif isinstance(order, Waive):
            out.append((order.power, order))
    return out


def _drawn_orders(position: Position, orders: object, outcomes: Iterable[Outcome] | None) -> list[_Drawn]:
    results: dict[Order, str] = {}
    listed: list[tuple[str, Order, str | None]] = []
    for o in outcomes or ():
        if o.order is None:
            continue
        if o.order not in results or results[o.order] == "invalid":
            results[o.order] = o.result
        listed.append((o.power, o.order, o.result))
    chosen = listed if orders is None else [(p, o, results.get(o)) for p, o in _read_orders(position, orders)]
    seen: set[Order] = set()
    out = []
    for power, order, result in chosen:
        if order not in seen and not isinstance(order, Waive):
            seen.add(order)
            out.append(_Drawn(order, power, result))
    return out


def _beaten(position: Position, drawn: list[_Drawn]) -> set[str]:
    """The provinces whose unit a movement's results dislodged: another unit moved in, and the
    unit there did not move out."""
    if not position.phase.is_movement:
        return set()
    moved = {d.order.unit.province: d.order.dest.province for d in drawn
             if isinstance(d.order, Move) and d.result == "succeeds"}
    return {dest for dest in moved.values() if dest in position.units and dest not in moved}


# -- the drawing ----------------------------------------------------------------------

class _Map:
    """One drawing in progress: the position, the geometry and the SVG written so far."""

    def __init__(self, position: Position, geometry: Geometry, highlight: str | None,
                 control: Mapping[str, str] | None = None) -> None:
        self.position = position
        self.control = dict(control) if control is not None else controlled([position])
        self.variant = position.variant
        self.geo = geometry
        self.highlight = highlight
        self.z = geometry.width / PIXELS  # user units per pixel at 1200 px wide
        self.out: list[str] = []
        self.dislodged_at: dict[str, Point] = {}
        self.unit_boxes: list[tuple[Point, float, float]] = []  # centre, half width, half height
        self.label_boxes: list[tuple[Point, float, float]] = []
        self.busy: dict[str, list[Point]] = {}  # province -> directions order lines leave its anchor
        self.short_ends: set[str] = set()  # where a short move or retreat ends (its name moves aside)
        self.beaten: set[str] = set()  # the provinces whose unit the results dislodged

    def emit(self, text: str) -> None:
        self.out.append(text)

    def n(self, v: float) -> str:
        """A size in pixels (at 1200 px wide) as user units."""
        return _f(v * self.z)

    def dash(self, pattern: str) -> str:
        return ",".join(self.n(float(v)) for v in pattern.split(","))

    # -- where things are -------------------------------------------------------------

    def anchor(self, province: str) -> Point:
        shape = self.geo.spaces.get(province)
        if shape is not None:
            return shape.xy
        prov = self.variant.map.provinces.get(province)
        return (prov.xy if prov is not None and prov.xy else None) or (0.0, 0.0)

    def loc_xy(self, loc: Location) -> Point:
        shape = self.geo.spaces.get(loc.province)
        if shape is not None and loc.coast and loc.coast in shape.coast_xy:
            return shape.coast_xy[loc.coast]
        return self.anchor(loc.province)

    def unit_xy(self, unit: Unit) -> Point:
        """Where a unit is drawn (an order may leave out a fleet's coast)."""
        on_board = self.position.units.get(unit.province)
        if on_board is not None and on_board.type is unit.type and on_board.power == unit.power:
            return self.loc_xy(on_board.location)
        return self.loc_xy(unit.location)

    def colour(self, power: str) -> str:
        p = self.variant.powers.get(power)
        return p.colour if p is not None else "#888888"

    def place_units(self, drawn: list[_Drawn]) -> None:
        """Work out where units and dislodged units stand before anything is drawn."""
        z = self.z
        for dis in self.position.dislodged:
            base = self.loc_xy(dis.unit.location)
            self.dislodged_at[dis.unit.province] = (base[0] + 25 * z, base[1] - 23 * z)
        # the rings drawn round units (one's own, dislodged, holding, supported to hold, convoying):
        # how far each reaches, in pixels, so that no name is placed under one
        rings: dict[str, float] = {}
        for d in drawn:
            o = d.order
            if isinstance(o, Hold):
                rings[o.unit.province] = 21.5
            elif isinstance(o, Support) and o.dest is None:
                rings[o.supported.province] = 21.5
            elif isinstance(o, Convoy):
                rings[o.unit.province] = 24.5
        if self.highlight:
            for u in self.position.units.values():
                if u.power == self.highlight:
                    rings[u.province] = max(rings.get(u.province, 0.0), 21.0)
        placed = [(self.loc_xy(u.location), u.type, rings.get(u.province, 0.0)) for u in self.position.units.values()]
        placed += [(self.dislodged_at[dis.unit.province], dis.unit.type,
                    26.0 if dis.unit.power == self.highlight else 22.0) for dis in self.position.dislodged]
        placed += [(self.loc_xy(d.order.unit.location), d.order.unit.type, 22.0) for d in drawn
                   if isinstance(d.order, Build)]
        for at, utype, ring in placed:
            hw, hh = _UNIT_HALF[utype]
            self.unit_boxes.append((at, max(hw, ring) * z, max(hh, ring) * z))
        # a short move's arrow runs to the middle of its destination: that space's name makes way
        for d in drawn:
            if isinstance(d.order, (Move, Retreat)):
                a = self.dislodged_at.get(d.order.unit.province) if isinstance(d.order, Retreat) else None
                a = a or self.unit_xy(d.order.unit)
                if _length(_sub(self.loc_xy(d.order.dest), a)) < SHORT * z:
                    self.short_ends.add(d.order.dest.province)
        self.note_lines(drawn)

    def note_lines(self, drawn: list[_Drawn]) -> None:
        """Remember which way order lines leave each unit, to keep names off them."""
        def line(a: Point, pa: str, b: Point, pb: str | None) -> None:
            if _length(_sub(b, a)) < 1:
                return
            self.busy.setdefault(pa, []).append(_unit_vec(a, b))
            if pb is not None:
                self.busy.setdefault(pb, []).append(_unit_vec(b, a))
        for d in drawn:
            o = d.order
            if isinstance(o, Move):
                line(self.unit_xy(o.unit), o.unit.province, self.loc_xy(o.dest), o.dest.province)
            elif isinstance(o, Retreat):
                a = self.dislodged_at.get(o.unit.province, self.unit_xy(o.unit))
                line(a, o.unit.province, self.loc_xy(o.dest), o.dest.province)
            elif isinstance(o, Support):
                t = self.unit_xy(o.supported)
                if o.dest is not None:
                    b = self.loc_xy(o.dest)
                    line(self.unit_xy(o.unit), o.unit.province, _add(t, _scale(_sub(b, t), 0.55)), None)
                else:
                    line(self.unit_xy(o.unit), o.unit.province, t, o.supported.province)
            elif isinstance(o, Convoy):
                f = self.unit_xy(o.unit)
                line(self.unit_xy(o.army), o.army.province, f, o.unit.province)
                line(f, o.unit.province, self.loc_xy(o.dest), o.dest.province)

    def clearance(self, p: Point, u: Point) -> float:
        """How far from p, along u, the unit or label drawn at p reaches."""
        for boxes, pad in ((self.unit_boxes, 2.0), (self.label_boxes, 2.0)):
            for c, hw, hh in boxes:
                if abs(c[0] - p[0]) < 0.6 and abs(c[1] - p[1]) < 0.6:
                    ux, uy = abs(u[0]), abs(u[1])
                    return min(hw / ux if ux > 1e-6 else 1e9, hh / uy if uy > 1e-6 else 1e9) + pad * self.z
        return 3.0 * self.z

    def span(self, a: Point, b: Point, *, start: float | None = None, end: float | None = None,
             offset: float = 0.0) -> tuple[Point, Point] | None:
        """The segment a-b clear of what is drawn at each end (start/end in pixels), shifted sideways."""
        u = _unit_vec(a, b)
        s = self.clearance(a, u) if start is None else start * self.z
        e = self.clearance(b, u) if end is None else end * self.z
        if offset:
            off = _scale(_perp(u), offset * self.z)
            a, b = _add(a, off), _add(b, off)
        # a short hop: let the line run over the name at its end, then start inside the unit
        n = _length(_sub(b, a))
        shortest = 18 * self.z
        if n - s - e < shortest:
            e = min(e, max(0.0, n - s - shortest))
        if n - s - e < shortest:
            s = max(0.0, n - e - shortest)
        return _trim(a, b, s, e)

    # -- the board --------------------------------------------------------------------

    def defs(self) -> None:
        s = _f(7 * self.z)
        t = _f(8 * self.z)
        self.emit(
            '<defs>'
            f'<pattern id="hatch-impassable" patternUnits="userSpaceOnUse" width="{s}" height="{s}" '
            f'patternTransform="rotate(45)"><rect width="{s}" height="{s}" fill="#b8b2a2"/>'
            f'<line x1="0" y1="0" x2="0" y2="{s}" stroke="#8f897a" stroke-width="{self.n(2.2)}"/></pattern>'
            f'<pattern id="hatch-standoff" patternUnits="userSpaceOnUse" width="{t}" height="{t}" '
            f'patternTransform="rotate(-45)"><line x1="0" y1="0" x2="0" y2="{t}" stroke="{RED}" '
            f'stroke-width="{self.n(2)}" stroke-opacity="0.55"/></pattern>'
            '</defs>')

    def spaces(self) -> None:
        provinces = self.variant.map.provinces
        owners = self.position.centres
        ordinary = [(pid, s) for pid, s in self.geo.spaces.items() if not s.overlay]
        overlays = [(pid, s) for pid, s in self.geo.spaces.items() if s.overlay]

        def terrain(pid: str) -> Terrain:
            return provinces[pid].terrain if pid in provinces else Terrain.LAND

        def space_path(pid: str, outline: str) -> str:
            t = terrain(pid)
            prov = provinces.get(pid)
            classes = ["space", f"space-{pid}", f"terrain-{t.value}"]
            if t is Terrain.SEA:
                fill, stroke, sw = SEA, SEA_EDGE, 1.1
            elif t is Terrain.IMPASSABLE:
                fill, stroke, sw = "url(#hatch-impassable)", LAND_EDGE, 0.8
            else:
                fill, stroke, sw = LAND, LAND_EDGE, 0.8
            if prov is not None and prov.supply_centre:
                classes.append("sc-space")
                owner = owners.get(pid)
                if owner:
                    classes.append(f"owner-{owner}")
            holder = self.control.get(pid)
            if holder and t in (Terrain.LAND, Terrain.COAST):
                classes.append(f"control-{holder}")
                fill = tint(self.colour(holder))
            name = prov.name if prov is not None else pid
            return (f'<path class="{" ".join(classes)}" data-province="{pid}" d="{outline}" fill="{fill}" '
                    f'stroke="{stroke}" stroke-width="{self.n(sw)}" stroke-linejoin="round">'
                    f'<title>{escape(name)}</title></path>')

        self.emit('<g class="layer layer-sea">')
        for pid, shape in ordinary:
            if terrain(pid) is Terrain.SEA:
                self.emit(space_path(pid, shape.outline))
        self.emit('</g>')
        # the coastline: a heavy stroke round all land, whose inner half the land covers
        self.emit(f'<g class="layer coastline" fill="none" stroke="{COASTLINE}" stroke-width="{self.n(2.6)}" '
                  'stroke-linejoin="round">')
        for pid, shape in ordinary:
            if terrain(pid) is not Terrain.SEA:
                self.emit(f'<path d="{shape.outline}"/>')
        self.emit('</g>')
        self.emit('<g class="layer layer-land">')
        for pid, shape in ordinary:
            if terrain(pid) is not Terrain.SEA:
                self.emit(space_path(pid, shape.outline))
        self.emit('</g>')
        if overlays:
            self.emit('<g class="layer layer-overlay">')
            for pid, shape in overlays:
                self.emit(space_path(pid, shape.outline))
            self.emit('</g>')
        if self.geo.decor:
            self.emit('<g class="layer decor">')
            for d in self.geo.decor:
                fill = SEA if d.kind == "water" else DECOR_LAND
                self.emit(f'<path class="decor decor-{"water" if d.kind == "water" else "land"}" d="{d.outline}" '
                          f'fill="{fill}" stroke="{COASTLINE}" stroke-width="{self.n(1.3)}" stroke-linejoin="round">'
                          f'<title>{escape(d.name)}</title></path>')
            self.emit('</g>')

    def standoffs(self) -> None:
        if not self.position.standoffs:
            return
        self.emit('<g class="layer standoffs">')
        for pid in sorted(self.position.standoffs):
            shape = self.geo.spaces.get(pid)
            if shape is None:
                continue
            name = self.variant.map.provinces[pid].name
            x, y = shape.xy
            self.emit(f'<g class="standoff" data-province="{pid}">'
                      f'<path d="{shape.outline}" fill="url(#hatch-standoff)" stroke="{RED}" '
                      f'stroke-width="{self.n(1.6)}" stroke-dasharray="{self.dash("5,3")}"/>'
                      f'<g transform="translate({_f(x + 17 * self.z)},{_f(y - 17 * self.z)}) scale({_f(self.z)})">'
                      f'<circle r="7" fill="#ffffff" stroke="{RED}" stroke-width="1.6"/>'
                      f'<path d="M -3.5 -3.5 L 3.5 3.5 M 3.5 -3.5 L -3.5 3.5" stroke="{RED}" stroke-width="2.2" '
                      f'stroke-linecap="round"/></g>'
                      f'<title>standoff in {escape(name)}: no unit may retreat there</title></g>')
        self.emit('</g>')

    def centres(self) -> None:
        self.emit('<g class="layer centres">')
        for pid, shape in self.geo.spaces.items():
            prov = self.variant.map.provinces.get(pid)
            if prov is None or not prov.supply_centre:
                continue
            x, y = shape.centre_xy or _add(shape.xy, (0, 14 * self.z))
            owner = self.position.centres.get(pid)
            inner = (f'<circle r="4" fill="{self.colour(owner)}" stroke="{INK}" stroke-width="0.6"/>' if owner
                     else f'<circle r="2" fill="{INK}"/>')
            classes = "sc " + (f"sc-owned owner-{owner}" if owner else "sc-neutral")
            who = self.variant.powers[owner].name if owner is not None and owner in self.variant.powers else "nobody"
            self.emit(f'<g class="{classes}" data-province="{pid}" transform="translate({_f(x)},{_f(y)}) '
                      f'scale({_f(self.z)})"><circle r="6.2" fill="#ffffff" stroke="{INK}" stroke-width="1.3"/>'
                      f'{inner}<title>{escape(prov.name)}: supply centre, owned by {escape(who)}</title></g>')
        self.emit('</g>')

    def labels(self) -> None:
        size = 10.5
        self.emit(f'<g class="layer labels" font-family="{FONT_FAMILY}" font-size="{self.n(size)}" '
                  'font-weight="bold" text-anchor="middle">')
        # names on free anchors first, then the ones that must make way for a unit
        free = {pid for pid in self.geo.spaces if self.anchor_free(pid) and pid not in self.short_ends}
        for pid in self.geo.spaces:
            if pid in free:
                self.label_boxes.append((self.geo.spaces[pid].xy, *self.label_half(pid)))
        placed = {pid: self.geo.spaces[pid].xy for pid in free}
        for pid in self.geo.spaces:
            if pid not in free:
                placed[pid] = self.label_xy(pid)
                self.label_boxes.append((placed[pid], *self.label_half(pid)))
        for pid in self.geo.spaces:
            prov = self.variant.map.provinces.get(pid)
            sea = prov is not None and prov.is_sea
            x, y = placed[pid]
            fill = "#1f4467" if sea else "#3b2f1c"
            italic = ' font-style="italic"' if sea else ""
            ty = _f(y + 3.8 * self.z)
            self.emit(f'<g class="label label-{pid}" data-province="{pid}"{italic}>'
                      f'<text x="{_f(x)}" y="{ty}" fill="none" stroke="#ffffff" stroke-width="{self.n(3)}" '
                      f'stroke-opacity="0.85" stroke-linejoin="round">{escape(pid)}</text>'
                      f'<text x="{_f(x)}" y="{ty}" fill="{fill}">{escape(pid)}</text></g>')
        self.emit('</g>')

    def label_half(self, pid: str) -> tuple[float, float]:
        return (3.6 * len(pid) + 1.5) * self.z, 6.0 * self.z

    def anchor_free(self, pid: str) -> bool:
        """No unit stands over the space's anchor (where its name goes)."""
        x, y = self.geo.spaces[pid].xy
        z = self.z
        return not any(abs(c[0] - x) < hw + 6 * z and abs(c[1] - y) < hh + 3 * z for c, hw, hh in self.unit_boxes)

    def label_xy(self, pid: str) -> Point:
        """Where a space's name goes: on its anchor, or beside a unit standing on it."""
        shape = self.geo.spaces[pid]
        z = self.z
        x, y = shape.xy
        near = [(c, hw, hh) for c, hw, hh in self.unit_boxes if math.hypot(c[0] - x, c[1] - y) < 100 * z]
        names = [(c, hw, hh) for c, hw, hh in self.label_boxes if math.hypot(c[0] - x, c[1] - y) < 60 * z]
        polygon = _polygon(shape.outline)
        half_w = (3.6 * len(pid) + 1.5) * z
        best, best_score = (x, y + 22 * z), -1e9
        offsets = ((0, 22), (0, -21), (31, 1), (-31, 1), (24, 19), (-24, 19), (24, -18), (-24, -18), (0, 31), (0, -30),
                   (38, 1), (-38, 1), (30, 27), (-30, 27), (30, -26), (-30, -26), (0, 38), (0, -37))
        # Every penalty only lowers a place's score (whole numbers and halves, so the sums are exact in
        # any order): the cheap ones are counted first, and a place stops being scored, or the search
        # stops, once it cannot beat the best so far (the board redraws the map on every tap).
        for i, (dx, dy) in enumerate(offsets):
            score = -i * 0.5
            if score <= best_score:
                break
            c = (x + dx * z, y + dy * z)
            for u, hw, hh in near:
                if abs(u[0] - c[0]) < hw + half_w and abs(u[1] - c[1]) < hh + 5 * z:
                    score -= 60  # under a unit or its ring: worse than running over the space's edge
            for u, hw, hh in names:
                if abs(u[0] - c[0]) < hw + half_w and abs(u[1] - c[1]) < hh + 6 * z:
                    score -= 20
            for v in self.busy.get(pid, ()):
                off = _unit_vec((x, y), c)
                if off[0] * v[0] + off[1] * v[1] > 0.75:  # it would sit on an order line
                    score -= 15
            if shape.centre_xy is not None:
                sx, sy = shape.centre_xy
                if abs(sx - c[0]) < half_w + 7 * z and abs(sy - c[1]) < 12 * z:
                    score -= 12
            for ex in (-half_w, half_w):
                for ey in (-5, 5):
                    if score <= best_score:
                        break
                    if not _inside((c[0] + ex, c[1] + ey * z), polygon):
                        score -= 10  # a corner of the name over the space's edge
            if score > best_score:
                best, best_score = c, score
        return best

    # -- units ------------------------------------------------------------------------

    def glyph(self, utype: UnitType, at: Point, colour: str, *, outline: str = INK) -> str:
        """An army (a block) or a fleet (a ship) in the power's colour, with its letter."""
        if utype is UnitType.ARMY:
            halo = '<rect x="-12" y="-12" width="24" height="24" rx="4.5" ry="4.5" fill="#ffffff" fill-opacity="0.9"/>'
            shape = (f'<rect x="-10" y="-10" width="20" height="20" rx="3" ry="3" fill="{colour}" '
                     f'stroke="{outline}" stroke-width="1.6"/>')
            ty = 4.6
        else:
            halo = ('<path d="M -19 -5 L -7 -5 L -6 -12.5 L 6 -12.5 L 7 -5 L 19 -5 L 12.5 10 L -12.5 10 Z" '
                    'fill="#ffffff" fill-opacity="0.9" stroke="#ffffff" stroke-width="1" stroke-linejoin="round"/>')
            shape = (f'<path d="M -7 -3 L -5 -10 L 5 -10 L 7 -3 Z" fill="{colour}" stroke="{outline}" '
                     f'stroke-width="1.4" stroke-linejoin="round"/>'
                     f'<path d="M -16 -3 L 16 -3 L 11 8 L -11 8 Z" fill="{colour}" stroke="{outline}" '
                     f'stroke-width="1.6" stroke-linejoin="round"/>')
            ty = 6.0
        letter = (f'<text x="0" y="{_f(ty)}" font-family="{FONT_FAMILY}" font-size="12" font-weight="bold" '
                  f'text-anchor="middle" fill="{_text_on(colour)}">{utype.value}</text>')
        return f'<g transform="translate({_pt(at)}) scale({_f(_GLYPH * self.z)})">{halo}{shape}{letter}</g>'

    def ring(self, at: Point, r: float, colour: str, width: float, *, dash: str | None = None,
             fill: str = "none", fill_opacity: float = 1.0, cased: bool = False) -> str:
        dash_attr = f' stroke-dasharray="{self.dash(dash)}"' if dash else ""
        if fill_opacity < 1:
            dash_attr += f' fill-opacity="{_f(fill_opacity)}"'
        out = ""
        if cased:
            out += "".join(f'<circle cx="{_f(at[0])}" cy="{_f(at[1])}" r="{self.n(r)}" fill="none" stroke="{c}" '
                           f'stroke-width="{self.n(width + w)}"{dash_attr}/>' for c, w in edges(colour, 2.0))
        return out + (f'<circle cx="{_f(at[0])}" cy="{_f(at[1])}" r="{self.n(r)}" fill="{fill}" stroke="{colour}" '
                      f'stroke-width="{self.n(width)}"{dash_attr}/>')

    def unit(self, unit: Unit, at: Point, *, dislodged: bool = False) -> None:
        power = self.variant.powers.get(unit.power)
        mine = bool(self.highlight) and unit.power == self.highlight
        classes = f"unit unit-{unit.type.word} power-{unit.power}"
        if dislodged:
            classes += " unit-dislodged"
        if mine:
            classes += " highlighted"
        where = self.variant.map.provinces[unit.province].name if unit.province in self.variant.map.provinces \
            else unit.province
        title = (f"{'dislodged ' if dislodged else ''}{power.adjective if power else unit.power} "
                 f"{unit.type.word} {'from' if dislodged else 'in'} {where}")
        # an invisible disc round the unit: a tap target wider than the glyph (HIT pixels at 1200 wide)
        hit = (f'<circle class="hit" cx="{_f(at[0])}" cy="{_f(at[1])}" r="{self.n(HIT / 2)}" fill="#000000" '
               f'fill-opacity="0"/>')
        body = hit + self.glyph(unit.type, at, self.colour(unit.power), outline=RED if dislodged else INK)
        if dislodged:
            body = self.ring(at, 20, RED, 2.8, fill="#ffffff", fill_opacity=0.6) + body
        if mine:
            body = self.ring(at, 24 if dislodged else 19, HIGHLIGHT, 3) + body
        elif self.highlight:
            body = f'<g opacity="0.8">{body}</g>'
        self.emit(f'<g class="{classes}" data-unit="{_attr(unit)}" data-province="{unit.province}" '
                  f'data-power="{unit.power}">{body}<title>{escape(title)}</title></g>')

    def units(self) -> None:
        self.emit('<g class="layer units">')
        for pid in sorted(self.position.units):
            unit = self.position.units[pid]
            self.unit(unit, self.loc_xy(unit.location), dislodged=pid in self.beaten)
        self.emit('</g>')

    def dislodged(self, options: RuleOptions, ordered: set[str]) -> None:
        if not self.position.dislodged:
            return
        self.emit('<g class="layer dislodged-units">')
        for d in sorted(self.position.dislodged, key=lambda d: d.unit.province):
            at = self.dislodged_at[d.unit.province]
            retreats = retreat_options(self.position, d, options)
            where = ", ".join(str(r) for r in retreats) or "none: it will be disbanded"
            faded = ' opacity="0.45"' if d.unit.province in ordered else ""
            self.emit(f'<g class="dislodged" data-unit="{_attr(d.unit)}" data-province="{d.unit.province}" '
                      f'data-retreats="{_attr(" ".join(str(r) for r in retreats))}"{faded}>'
                      f'<title>{escape(str(d.unit))} dislodged; retreats: {escape(where)}</title>')
            for r in retreats:
                seg = self.span(at, self.loc_xy(r))
                if seg is not None:
                    self.emit(f'<g class="retreat-option" data-province="{r.province}" data-location="{_attr(r)}">'
                              + self.arrow(seg[0], seg[1], "#ffffff", width=2.4, head=10, dash="5,3", edge=RED)
                              + '</g>')
            self.emit('</g>')
        for d in sorted(self.position.dislodged, key=lambda d: d.unit.province):
            self.unit(d.unit, self.dislodged_at[d.unit.province], dislodged=True)
        self.emit('</g>')

    # -- orders -----------------------------------------------------------------------

    def arrow(self, a: Point, b: Point, colour: str, *, width: float, head: float, dash: str | None = None,
              edge: str | None = None) -> str:
        """A cased arrow from a to b, the tip at b (width and head in pixels); the casing stands out from colour."""
        z = self.z
        layers = [(edge, 3.0)] if edge else edges(colour, 3.0)
        u = _unit_vec(a, b)
        p = _perp(u)
        back = _sub(b, _scale(u, head * z))
        base = _sub(b, _scale(u, head * 0.85 * z))
        hw = head * 0.5 * z
        tri = f"M {_pt(b)} L {_pt(_add(back, _scale(p, hw)))} L {_pt(base)} L {_pt(_sub(back, _scale(p, hw)))} Z"
        dash_attr = f' stroke-dasharray="{self.dash(dash)}"' if dash else ""
        shaft = f"M {_pt(a)} L {_pt(base)}"
        out = "".join(f'<path d="{shaft}" fill="none" stroke="{c}" stroke-width="{self.n(width + w)}"{dash_attr}/>'
                      for c, w in layers)
        out += "".join(f'<path d="{tri}" fill="{c}" stroke="{c}" stroke-width="{self.n(w)}"/>' for c, w in layers)
        return (out + f'<path d="{shaft}" fill="none" stroke="{colour}" stroke-width="{self.n(width)}"{dash_attr}/>'
                f'<path d="{tri}" fill="{colour}"/>')

    def line(self, a: Point, b: Point, colour: str, width: float, dash: str | None) -> str:
        dash_attr = f' stroke-dasharray="{self.dash(dash)}"' if dash else ""
        d = f"M {_pt(a)} L {_pt(b)}"
        return ("".join(f'<path d="{d}" fill="none" stroke="{c}" stroke-width="{self.n(width + w)}"{dash_attr}/>'
                        for c, w in edges(colour, 2.4))
                + f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{self.n(width)}"{dash_attr}/>')

    def reach(self, a: Point, dest: Location, offset: float) -> tuple[Point, Point] | None:
        """A move's or retreat's arrow from a into dest; a short one runs on into the space's middle."""
        b = self.loc_xy(dest)
        seg = self.span(a, b, offset=offset)
        if dest.province not in self.short_ends:
            return seg
        shape = self.geo.spaces.get(dest.province)
        polygon = _polygon(shape.outline) if shape is not None else []
        u = _unit_vec(a, b)
        for k in (16, 12, 8, 4, 0):  # past the middle, as far as the space allows
            tip = _add(b, _scale(u, k * self.z))
            if not polygon or _inside(tip, polygon):
                return self.span(a, tip, end=0, offset=offset) or seg
        return seg

    def bar(self, a: Point, b: Point, back: float, size: float = 9) -> str:
        """A red bar across the segment a-b, `back` pixels before b: the order failed."""
        u = _unit_vec(a, b)
        p = _perp(u)
        c = _sub(b, _scale(u, min(back * self.z, _length(_sub(b, a)) * 0.6)))
        s, e = _add(c, _scale(p, size * self.z)), _sub(c, _scale(p, size * self.z))
        d = f"M {_pt(s)} L {_pt(e)}"
        return (f'<path class="fail-bar" d="{d}" stroke="#ffffff" stroke-width="{self.n(6)}" stroke-linecap="round"/>'
                f'<path d="{d}" stroke="{RED}" stroke-width="{self.n(3.4)}" stroke-linecap="round"/>')

    def cross(self, at: Point, r: float) -> str:
        x, y = at
        r *= self.z
        d = f"M {_f(x - r)} {_f(y - r)} L {_f(x + r)} {_f(y + r)} M {_f(x + r)} {_f(y - r)} L {_f(x - r)} {_f(y + r)}"
        return (f'<path d="{d}" stroke="#ffffff" stroke-width="{self.n(7)}" stroke-linecap="round"/>'
                f'<path d="{d}" stroke="{RED}" stroke-width="{self.n(4)}" stroke-linecap="round"/>')

    def orders(self, drawn: list[_Drawn]) -> None:
        if not drawn:
            return
        pairs = {(d.order.unit.province, d.order.dest.province) for d in drawn if isinstance(d.order, Move)}
        self.emit('<g class="layer orders" stroke-linecap="round" stroke-linejoin="round">')
        for kind in (Hold, Support, Convoy, Move, Retreat, Disband, Build, Remove):  # moves over supports
            for d in drawn:
                if type(d.order) is kind:
                    self.order(d, pairs)
        self.emit('</g>')

    def order(self, d: _Drawn, pairs: set[tuple[str, str]]) -> None:
        order = d.order
        colour = self.colour(d.power)
        classes = f"order order-{type(order).__name__.lower()} power-{d.power}"
        if d.result:
            classes += f" result-{d.result}"
        faded = ""
        if d.result == "invalid":
            faded = ' opacity="0.45"'
        elif self.highlight and d.power != self.highlight:
            faded = ' opacity="0.5"'
        fails = d.result in ("fails", "invalid")
        body = ""
        if isinstance(order, Hold):
            body = self.ring(self.unit_xy(order.unit), 18, colour, 3, cased=True)
        elif isinstance(order, Move):
            # two units trading places or bouncing head on: keep the two arrows apart
            offset = 5.0 if (order.dest.province, order.unit.province) in pairs else 0.0
            seg = self.reach(self.unit_xy(order.unit), order.dest, offset)
            if seg is not None:
                body = self.arrow(seg[0], seg[1], colour, width=4, head=15, dash="8,5" if fails else None)
                if fails:
                    body += self.bar(seg[0], seg[1], 22)
        elif isinstance(order, Support):
            a = self.unit_xy(order.unit)
            target = self.unit_xy(order.supported)
            if order.dest is None:
                seg = self.span(a, target, end=20)
                body = self.ring(target, 18, colour, 2, dash="5,3", cased=True)
                if seg is not None:
                    body = self.line(seg[0], seg[1], colour, 2, "6,3.5") + body
            else:
                b = self.loc_xy(order.dest)
                if (order.dest.province, order.supported.province) in pairs:
                    off = _scale(_perp(_unit_vec(target, b)), 5 * self.z)
                    target, b = _add(target, off), _add(b, off)
                mid = _add(target, _scale(_sub(b, target), 0.55))
                seg = self.span(a, mid, end=4)
                if seg is not None:
                    body = (self.line(seg[0], seg[1], colour, 2, "6,3.5")
                            + f'<circle cx="{_f(mid[0])}" cy="{_f(mid[1])}" r="{self.n(4.5)}" fill="{colour}" '
                              f'stroke="{INK}" stroke-width="{self.n(1.5)}"/>')
            if fails and seg is not None:
                body += self.bar(seg[0], seg[1], 10, size=7)
        elif isinstance(order, Convoy):
            fleet = self.unit_xy(order.unit)
            parts = [s for s in (self.span(self.unit_xy(order.army), fleet, end=22),
                                 self.span(fleet, self.loc_xy(order.dest), start=22)) if s is not None]
            if parts:
                path = " ".join(f"M {_pt(s)} L {_pt(e)}" for s, e in parts)
                dots = self.dash("0.5,5.5")
                body = ("".join(f'<path d="{path}" fill="none" stroke="{c}" stroke-width="{self.n(2.6 + w)}" '
                                f'stroke-dasharray="{dots}"/>' for c, w in edges(colour, 2.4))
                        + 
                        f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="{self.n(2.6)}" '
                        f'stroke-dasharray="{dots}"/>'
                        + self.ring(fleet, 21, colour, 2, dash="1,4"))
                if fails:
                    body += self.bar(parts[-1][0], parts[-1][1], 10, size=7)
        elif isinstance(order, Retreat):
            a = self.dislodged_at.get(order.unit.province, self.unit_xy(order.unit))
            seg = self.reach(a, order.dest, 0.0)
            if seg is not None:
                body = self.arrow(seg[0], seg[1], colour, width=4, head=15, dash="8,5" if fails else None)
                if fails:
                    body += self.bar(seg[0], seg[1], 19)
        elif isinstance(order, (Disband, Remove)):
            at = self.dislodged_at.get(order.unit.province) if isinstance(order, Disband) else None
            body = self.cross(at or self.unit_xy(order.unit), 12)
        elif isinstance(order, Build):
            at = self.loc_xy(order.unit.location)
            z = self.z
            body = (self.ring(at, 19, BUILD_GREEN, 2.6, dash="5,3", fill="#ffffff", fill_opacity=0.6)
                    + f'<g opacity="{0.45 if fails else 1}">{self.glyph(order.unit.type, at, colour)}</g>'
                    + f'<g transform="translate({_f(at[0] + 15 * z)},{_f(at[1] - 15 * z)}) scale({_f(z)})">'
                      f'<circle r="6.5" fill="{BUILD_GREEN}" stroke="#ffffff" stroke-width="1.2"/>'
                      f'<path d="M -3.5 0 L 3.5 0 M 0 -3.5 L 0 3.5" stroke="#ffffff" stroke-width="2"/></g>')
        if body and isinstance(order, UnitOrder):  # a waived build draws nothing
            text = format_order(order) + (f" ({d.result})" if d.result else "")
            self.emit(f'<g class="{classes}" data-order="{_attr(format_order(order))}" data-unit="{_attr(order.unit)}"'
                      f'{faded}>{body}<title>{escape(text)}</title></g>')

    # -- the title and the powers -----------------------------------------------------

    def legend(self) -> list[tuple[str, str, str, str]]:
        """Each power: id, colour, the text shown (name and centre count), its tooltip."""
        out = []
        for pid, power in self.variant.powers.items():
            n_sc = sum(1 for o in self.position.centres.values() if o == pid)
            n_units = sum(1 for u in self.position.units.values() if u.power == pid)
            out.append((pid, power.colour, f"{power.name} {n_sc}",
                        f"{power.name}: {n_sc} supply centres, {n_units} units"))
        return out

    @staticmethod
    def legend_width(entries: list[tuple[str, str, str, str]], font: float) -> list[float]:
        return [font * 1.2 + 5 + 0.6 * font * len(text) + 14 for _, _, text, _ in entries]

    def band_rows(self, title: str) -> int:
        """One row for the title and the powers, or two when they do not fit side by side."""
        room = PIXELS - 40 - 12.8 * len(title)
        return 1 if sum(self.legend_width(self.legend(), 12.5)) <= room else 2

    def title_band(self, title: str, x0: float, y0: float, width: float, band: float, rows: int) -> None:
        z = self.z
        self.emit(f'<g class="title-block" font-family="{FONT_FAMILY}">'
                  f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(width)}" height="{_f(band)}" fill="#fbf8ef" '
                  f'stroke="{LAND_EDGE}" stroke-width="{self.n(1)}"/>'
                  f'<text class="title" x="{_f(x0 + 14 * z)}" y="{_f(y0 + 27 * z)}" font-size="{self.n(20)}" '
                  f'font-weight="bold" fill="#2b2418">{escape(title)}</text>')
        entries = self.legend()
        font = 12.5
        widths = self.legend_width(entries, font)
        room = PIXELS - 24 if rows == 2 else PIXELS - 40 - 12.8 * len(title)
        if sum(widths) > room:
            k = room / sum(widths)
            font *= k
            widths = [w * k for w in widths]
        if rows == 2:
            x, mid = x0 + 14 * z, 50.0
        else:
            x, mid = x0 + width - (10 + sum(widths)) * z, 21.0
        box = font * 1.2
        for (pid, colour, text, tip), w in zip(entries, widths):
            self.emit(f'<g class="legend-power power-{pid}" data-power="{pid}">'
                      f'<rect x="{_f(x)}" y="{_f(y0 + (mid - box / 2) * z)}" width="{self.n(box)}" '
                      f'height="{self.n(box)}" rx="{self.n(2)}" fill="{colour}" stroke="{INK}" '
                      f'stroke-width="{self.n(1)}"/>'
                      f'<text x="{_f(x + (box + 5) * z)}" y="{_f(y0 + (mid + font * 0.36) * z)}" '
                      f'font-size="{self.n(font)}" fill="#2b2418">{escape(text)}</text>'
                      f'<title>{escape(tip)}</title></g>')
            x += w * z
        self.emit('</g>')


def render_map(position: Position, *, orders: object = None, outcomes: Iterable[Outcome] | None = None,
               highlight_power: str | None = None, show_names: bool = True, title: str | None = None,
               width: int = 1200, rules: RuleOptions | None = None,
               control: Mapping[str, str] | None = None) -> str:
    """The board of `position` as a standalone SVG document (a str).

    orders: a mapping power -> orders (text as players write it, Readings or Orders),
        or a plain list of them (text is read for the power whose unit it names);
        drawn without results unless `outcomes` gives them. Unreadable orders are
        left out.
    outcomes: the Outcomes of adjudicating `position` (the position the orders were
        given in, not the next one); with no `orders`, every outcome's order is drawn
        with its result.
    highlight_power: ring that power's units and fade the other powers' orders.
    show_names: draw the province labels (ids such as PAR).
    title: a title band above the board (e.g. position.phase.title) with each power's
        colour and supply-centre count.
    width: the width attribute (height follows); the viewBox is the map's own, so
        the picture scales to any size.
    rules: the rule options used to work out retreat options when the position does
        not list them.
    control: province -> the power controlling it (rules.control over the game's
        positions); by default worked out from `position` alone.
    Raises VariantError when the variant has no map drawing.
    """
    geo = load_geometry(position.variant.name)
    m = _Map(position, geo, highlight_power, control)
    drawn = _drawn_orders(position, orders, outcomes)
    m.place_units(drawn)
    m.beaten = _beaten(position, drawn) if outcomes is not None else set()

    rows = m.band_rows(title) if title else 0
    band = (42.0 if rows == 1 else 64.0) * m.z if title else 0.0
    x0, y0, w, h = 0.0, -band if band else 0.0, geo.width, geo.height + band
    name = _attr(position.variant.name)
    m.emit('<?xml version="1.0" encoding="UTF-8"?>')
    m.emit(f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="diplomacy-map variant-{name}" '
           f'width="{width}" height="{_f(width * h / w)}" viewBox="{_f(x0)} {_f(y0)} {_f(w)} {_f(h)}" '
           f'data-variant="{name}" data-phase="{position.phase}"'
           + (f' data-highlight="{_attr(highlight_power)}"' if highlight_power else "") + '>')
    m.emit(f'<title>{escape(title or position.variant.title + ", " + position.phase.title)}</title>')
    m.defs()
    bx0, by0, bx1, by1 = geo.board or (0.0, 0.0, geo.width, geo.height)
    m.emit(f'<rect class="background" x="{_f(x0)}" y="{_f(y0)}" width="{_f(w)}" height="{_f(h)}" fill="{PAPER}"/>')
    m.emit(f'<rect class="board" x="{_f(bx0)}" y="{_f(by0)}" width="{_f(bx1 - bx0)}" height="{_f(by1 - by0)}" '
           f'fill="{SEA}"/>')
    m.spaces()
    m.standoffs()
    m.centres()
    if show_names:
        m.labels()
    late = (Retreat, Disband, Build, Remove)
    m.orders([d for d in drawn if not isinstance(d.order, late)])
    m.units()
    m.dislodged(rules or RuleOptions(), {d.order.unit.province for d in drawn if isinstance(d.order, (Retreat, Disband))})
    m.orders([d for d in drawn if isinstance(d.order, late)])
    if title:
        m.title_band(title, x0, y0, w, band, rows)
    m.emit('</svg>')
    return "\n".join(m.out) + "\n"


def render_png(svg: str, width: int = 1200) -> bytes:
    """Rasterise an SVG document (render_map's) to PNG bytes, `width` pixels wide."""
    import resvg_py  # the rasteriser, from PyPI (bundles resvg; reads the system fonts)

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=int(width), sans_serif_family="DejaVu Sans"))
