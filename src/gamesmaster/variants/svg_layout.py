"""A map's drawing from an SVG in the `diplomacy` package's layout (jDip's): province regions, units, centres, names.

Such an SVG names each province's region by id (`_par` in the `MapLayer` group, `par` in
the invisible `MouseLayer`), says where a unit stands in each province and on each coast
(`jdipNS:PROVINCE_DATA`: the top left corner of a unit symbol of the `Army` size), places
each supply-centre marker (`use` elements `sc_PAR`) and each short name (`text` in
`BriefLabelLayer`). The layers are drawn in different frames: in the package's standard
map the regions are shifted by their group's transform while the units are not, and the
markers carry transforms of their own. So every point and every outline is carried through
the transforms of its element and all its ancestors into the picture's own frame (the
viewBox, moved to the origin) before anything is compared. The outlines keep their curves
(an affine transform maps a Bezier curve to one); the checks flatten them to polygons.

The result is a geometry file (variants/data/geometry's format) in which each space's
anchor (unit and name) is the SVG's unit place, its centre marker the SVG's marker, and
each coast the SVG's coast place; a point that does not fall inside its province's
region, or a province with no region, refuses the drawing with the province named.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Unpack

from ..rules.variant import Variant

MAX_SVG_BYTES = 4_000_000  # the package's largest SVG is 207 kB
MAX_ELEMENTS = 50_000
MAX_PATH_NUMBERS = 200_000  # numbers in one path's data
CURVE_STEPS = 8  # line segments per curve when flattening for the checks
REACH = 0.02  # how far outside its region (share of the picture's width) a place may be pulled in from

SVG = "{http://www.w3.org/2000/svg}"
JDIP = "{svg.dtd}"  # the package's files declare xmlns:jdipNS="svg.dtd"
Point = tuple[float, float]


class SvgLayoutError(ValueError):
    """An SVG that cannot give a map its drawing; each problem names the province or element."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Affine:
    """An SVG transform matrix (a b c d e f): x' = a x + c y + e, y' = b x + d y + f."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    def then(self, inner: "Affine") -> "Affine":
        """This transform applied after inner (an ancestor's transform times its child's)."""
        return Affine(self.a * inner.a + self.c * inner.b, self.b * inner.a + self.d * inner.b,
                      self.a * inner.c + self.c * inner.d, self.b * inner.c + self.d * inner.d,
                      self.a * inner.e + self.c * inner.f + self.e, self.b * inner.e + self.d * inner.f + self.f)

    def apply(self, p: Point) -> Point:
        """The point p carried through this transform."""
        return self.a * p[0] + self.c * p[1] + self.e, self.b * p[0] + self.d * p[1] + self.f


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")


def parse_transform(text: str | None) -> Affine:
    """The matrix of a `transform` attribute (a list of matrix/translate/scale/rotate/skew, applied right to left)."""
    out = Affine()
    for name, args in _TRANSFORM.findall(text or ""):
        v = [float(n) for n in _NUMBER.findall(args)]
        step = Affine()
        if name == "matrix" and len(v) == 6:
            step = Affine(*v)
        elif name == "translate" and v:
            step = Affine(e=v[0], f=v[1] if len(v) > 1 else 0.0)
        elif name == "scale" and v:
            step = Affine(a=v[0], d=v[1] if len(v) > 1 else v[0])
        elif name == "rotate" and v:
            r = math.radians(v[0])
            turn = Affine(math.cos(r), math.sin(r), -math.sin(r), math.cos(r))
            if len(v) == 3:  # about (cx, cy): move there, turn, move back
                turn = Affine(e=v[1], f=v[2]).then(turn).then(Affine(e=-v[1], f=-v[2]))
            step = turn
        elif name == "skewX" and v:
            step = Affine(c=math.tan(math.radians(v[0])))
        elif name == "skewY" and v:
            step = Affine(b=math.tan(math.radians(v[0])))
        out = out.then(step)
    return out


# A path as absolute pieces: ("M", p), ("L", p), ("C", c1, c2, p), ("Q", c, p), ("Z",)
Piece = tuple[str, Unpack[tuple[Point, ...]]]


def parse_path(d: str) -> list[Piece]:
    """An SVG path's data as absolute M/L/C/Q/Z pieces (H, V, S, T and arcs rewritten; relative made absolute)."""
    tokens = re.findall(r"[MmLlHhVvCcSsQqTtAaZz]|" + _NUMBER.pattern, d)
    if len(tokens) > MAX_PATH_NUMBERS:
        raise SvgLayoutError([f"a path with {len(tokens)} numbers: at most {MAX_PATH_NUMBERS}"])
    out: list[Piece] = []
    i, cmd = 0, ""
    cur = start = (0.0, 0.0)
    last_c: Point | None = None  # the last cubic control point (for S)
    last_q: Point | None = None  # the last quadratic control point (for T)
    need = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}

    def take(n: int) -> list[float]:
        nonlocal i
        vals = tokens[i:i + n]
        if len(vals) < n or any(v.isalpha() for v in vals):
            raise SvgLayoutError([f"path data cut short near {' '.join(tokens[max(0, i - 3):i + 3])[:60]!r}"])
        i += n
        return [float(v) for v in vals]

    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
        elif not cmd:
            raise SvgLayoutError([f"path data must start with a command: {d[:40]!r}"])
        up, rel = cmd.upper(), cmd.islower()
        ox, oy = cur if rel else (0.0, 0.0)
        if up == "Z":
            out.append(("Z",))
            cur = start
            last_c = last_q = None
            continue
        v = take(need[up])
        if up == "M":
            cur = start = (ox + v[0], oy + v[1])
            out.append(("M", cur))
            cmd = "l" if rel else "L"  # further pairs after a moveto are lines
        elif up in ("L", "H", "V", "T", "A"):
            if up == "H":
                end = (ox + v[0] if rel else v[0], cur[1])
            elif up == "V":
                end = (cur[0], oy + v[0] if rel else v[0])
            elif up == "A":
                end = (ox + v[5], oy + v[6])
                out.extend(("L", p) for p in _arc(cur, v, end))
            else:
                end = (ox + v[0], oy + v[1])
            if up == "T":
                c = (2 * cur[0] - last_q[0], 2 * cur[1] - last_q[1]) if last_q else cur
                out.append(("Q", c, end))
                last_q, last_c, cur = c, None, end
                continue
            out.append(("L", end))
            cur = end
        elif up == "C":
            c1, c2, end = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3]), (ox + v[4], oy + v[5])
            out.append(("C", c1, c2, end))
            last_c, last_q, cur = c2, None, end
            continue
        elif up == "S":
            c1 = (2 * cur[0] - last_c[0], 2 * cur[1] - last_c[1]) if last_c else cur
            c2, end = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3])
            out.append(("C", c1, c2, end))
            last_c, last_q, cur = c2, None, end
            continue
        elif up == "Q":
            c, end = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3])
            out.append(("Q", c, end))
            last_q, last_c, cur = c, None, end
            continue
        last_c = last_q = None
    return out


def _arc(p0: Point, v: list[float], end: Point) -> list[Point]:
    """Points along an elliptical arc (SVG endpoint form), ending at end: arcs are drawn as short lines."""
    rx, ry, phi, large, sweep = abs(v[0]), abs(v[1]), math.radians(v[2]), v[3] != 0, v[4] != 0
    if rx == 0 or ry == 0 or p0 == end:
        return [end]
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (p0[0] - end[0]) / 2, (p0[1] - end[1]) / 2
    x1, y1 = cos * dx + sin * dy, -sin * dx + cos * dy
    grow = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
    if grow > 1:
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    k = math.sqrt(max(0.0, num / (rx * rx * y1 * y1 + ry * ry * x1 * x1)))
    if large == sweep:
        k = -k
    cx1, cy1 = k * rx * y1 / ry, -k * ry * x1 / rx
    cx, cy = cos * cx1 - sin * cy1 + (p0[0] + end[0]) / 2, sin * cx1 + cos * cy1 + (p0[1] + end[1]) / 2
    t0 = math.atan2((y1 - cy1) / ry, (x1 - cx1) / rx)
    t1 = math.atan2((-y1 - cy1) / ry, (-x1 - cx1) / rx)
    span = t1 - t0
    if sweep and span < 0:
        span += 2 * math.pi
    elif not sweep and span > 0:
        span -= 2 * math.pi
    steps = max(2, int(abs(span) / (math.pi / 8)))
    points = []
    for s in range(1, steps):
        t = t0 + span * s / steps
        x, y = rx * math.cos(t), ry * math.sin(t)
        points.append((cos * x - sin * y + cx, sin * x + cos * y + cy))
    return points + [end]


def moved(pieces: list[Piece], m: Affine) -> list[Piece]:
    """The pieces with every point carried through m."""
    return [(p[0], *(m.apply(q) for q in p[1:])) for p in pieces]


def flatten(pieces: list[Piece]) -> list[list[Point]]:
    """The closed polygons a path's pieces outline, curves as CURVE_STEPS lines each."""
    rings: list[list[Point]] = []
    ring: list[Point] = []
    for piece in pieces:
        kind, points = piece[0], piece[1:]
        if kind == "M":
            if len(ring) > 2:
                rings.append(ring)
            ring = [points[0]]
        elif kind == "Z":
            if len(ring) > 2:
                rings.append(ring)
            ring = [ring[0]] if ring else []
        elif not ring:
            continue
        elif kind == "L":
            ring.append(points[0])
        else:
            p0 = ring[-1]
            for s in range(1, CURVE_STEPS + 1):
                t = s / CURVE_STEPS
                u = 1 - t
                if kind == "C":
                    c1, c2, p = points
                    ring.append((u ** 3 * p0[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t ** 3 * p[0],
                                 u ** 3 * p0[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t ** 3 * p[1]))
                else:
                    c, p = points
                    ring.append((u * u * p0[0] + 2 * u * t * c[0] + t * t * p[0],
                                 u * u * p0[1] + 2 * u * t * c[1] + t * t * p[1]))
    if len(ring) > 2:
        rings.append(ring)
    return rings


def inside(p: Point, rings: list[list[Point]]) -> bool:
    """Whether p is inside the region the rings outline (even-odd over all of them)."""
    x, y = p
    hit = False
    for ring in rings:
        j = len(ring) - 1
        for i in range(len(ring)):
            (xi, yi), (xj, yj) = ring[i], ring[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                hit = not hit
            j = i
    return hit


def path_text(pieces: list[Piece]) -> str:
    """Pieces written back as absolute path data, one decimal place."""
    def pt(p: Point) -> str:
        return f"{p[0]:.1f} {p[1]:.1f}"
    return " ".join(p[0] if p[0] == "Z" else f"{p[0]} " + " ".join(pt(q) for q in p[1:]) for p in pieces)


def _shape_pieces(el: ET.Element) -> list[Piece]:
    """The outline of one drawing element (path, polygon, polyline, rect) in its own frame."""
    tag = el.tag.removeprefix(SVG)
    if tag == "path":
        return parse_path(el.get("d", ""))
    if tag in ("polygon", "polyline"):
        nums = [float(n) for n in _NUMBER.findall(el.get("points", ""))]
        pts = list(zip(nums[0::2], nums[1::2]))
        if len(pts) < 3:
            return []
        return [("M", pts[0]), *(("L", p) for p in pts[1:]), ("Z",)]
    if tag == "rect":
        x, y, w, h = (_num(el.get(k)) for k in ("x", "y", "width", "height"))
        return [("M", (x, y)), ("L", (x + w, y)), ("L", (x + w, y + h)), ("L", (x, y + h)), ("Z",)]
    return []


def _num(text: str | None) -> float:
    """A length attribute's number (units such as px dropped; absent is 0)."""
    found = _NUMBER.search(text or "")
    return float(found.group()) if found else 0.0


@dataclass
class _Found:
    """What the SVG says, in the picture's frame."""

    regions: dict[str, list[Piece]]  # province id (upper case) -> outline pieces
    units: dict[str, Point]  # "PAR" or "STP/NC" -> where a unit's centre is
    centres: dict[str, Point]
    labels: dict[str, Point]
    size: tuple[float, float]


def read_svg(path: Path) -> _Found:
    """Read an SVG in the package's layout; bounded in size and elements, entities refused."""
    try:
        raw = path.read_bytes()[:MAX_SVG_BYTES + 1]
    except OSError as exc:
        raise SvgLayoutError([f"{path.name} cannot be read: {exc.strerror or exc}"]) from None
    if len(raw) > MAX_SVG_BYTES:
        raise SvgLayoutError([f"{path.name} is larger than {MAX_SVG_BYTES} bytes"])
    if b"<!ENTITY" in raw:
        raise SvgLayoutError([f"{path.name} declares XML entities, which are not read"])
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as exc:
        raise SvgLayoutError([f"{path.name} is not well-formed XML: {exc}"]) from None
    if root.tag != SVG + "svg":
        raise SvgLayoutError([f"{path.name} is not an SVG document (its root is {root.tag[:60]!r})"])
    if sum(1 for _ in root.iter()) > MAX_ELEMENTS:
        raise SvgLayoutError([f"{path.name} has more than {MAX_ELEMENTS} elements"])
    box = [_num(v) for v in (root.get("viewBox") or "").replace(",", " ").split()]
    if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
        box = [0.0, 0.0, _num(root.get("width")), _num(root.get("height"))]
        if box[2] <= 0 or box[3] <= 0:
            raise SvgLayoutError([f"{path.name} has neither a viewBox nor a width and height"])
    origin = Affine(e=-box[0], f=-box[1])  # the picture's frame starts at its viewBox's corner
    found = _Found({}, {}, {}, {}, (box[2], box[3]))
    army = 0.0, 0.0
    for size in root.iter(JDIP + "SYMBOLSIZE"):
        if size.get("name") == "Army":
            army = _num(size.get("width")), _num(size.get("height"))
    for prov in root.iter(JDIP + "PROVINCE"):
        name = (prov.get("name") or "").upper().replace("-", "/")
        for unit in prov.iter(JDIP + "UNIT"):
            found.units[name] = origin.apply((_num(unit.get("x")) + army[0] / 2, _num(unit.get("y")) + army[1] / 2))
    _walk(root, origin, "", found)
    return found


def _walk(el: ET.Element, frame: Affine, layer: str, found: _Found) -> None:
    """Collect regions, markers and names under el, each in the picture's frame."""
    for child in el:
        tag = child.tag.removeprefix(SVG)
        if tag in ("defs", "symbol", "pattern", "marker", "clipPath", "mask"):
            continue  # templates, not drawn where they stand
        m = frame.then(parse_transform(child.get("transform")))
        ident = child.get("id") or ""
        here = ident if tag == "g" and ident.endswith("Layer") else layer
        region = None
        if layer == "MapLayer" and ident.startswith("_"):
            region = ident[1:].upper()
        elif layer == "MouseLayer" and ident:
            region = "MOUSE:" + ident.upper().replace("-", "/")
        if region is not None:
            pieces = [q for e in child.iter() for q in moved(_shape_pieces(e), _frame_of(child, e, m))]
            found.regions.setdefault(region, []).extend(pieces)
            continue
        if tag == "use" and ident.startswith("sc_"):
            w, h = _num(child.get("width")), _num(child.get("height"))
            found.centres[ident[3:].upper()] = m.apply((_num(child.get("x")) + w / 2, _num(child.get("y")) + h / 2))
        elif tag == "text" and layer == "BriefLabelLayer":
            name = "".join(child.itertext()).strip().upper()
            found.labels.setdefault(name, m.apply((_num(child.get("x")), _num(child.get("y")))))
        _walk(child, m, here, found)


def _frame_of(top: ET.Element, el: ET.Element, m: Affine) -> Affine:
    """The frame of el, a descendant of top (whose frame is m): the transforms between them applied."""
    if el is top:
        return m
    chain = _chain(top, el) or []
    for step in chain:
        m = m.then(parse_transform(step.get("transform")))
    return m


def _chain(top: ET.Element, el: ET.Element) -> list[ET.Element] | None:
    """The elements from just below top down to el (None when el is not under top)."""
    for child in top:
        if child is el:
            return [child]
        below = _chain(child, el)
        if below is not None:
            return [child, *below]
    return None


def _names(variant: Variant) -> dict[str, str]:
    """Each name an SVG may give a province (its id or one of the map file's one-word aliases) -> its id."""
    names: dict[str, str] = {}
    for pid, province in variant.map.provinces.items():
        for alias in province.aliases:
            if " " not in alias:
                names.setdefault(alias.upper(), pid)
    names.update({pid: pid for pid in variant.map.provinces})  # an id wins over another space's alias
    return names


def _renamed(table: dict[str, Point], names: dict[str, str]) -> dict[str, Point]:
    """A table by SVG name (PAR, STP/NC) keyed by province id instead; names not on the map dropped."""
    out: dict[str, Point] = {}
    for key, point in table.items():
        base, _, coast = key.partition("/")
        if base in names:
            out.setdefault(names[base] + (f"/{coast}" if coast else ""), point)
    return out


def _pull_inside(p: Point, home: Point, rings: list[list[Point]], reach: float) -> Point | None:
    """p itself when inside the region; else the first point inside on the way to home (inside), if within reach."""
    if inside(p, rings):
        return p
    for s in range(1, 101):
        t = s / 100
        q = (p[0] + (home[0] - p[0]) * t, p[1] + (home[1] - p[1]) * t)
        if math.dist(p, q) > reach:
            return None
        if inside(q, rings):
            return q
    return None


def svg_geometry_toml(variant: Variant, svg: Path) -> str:
    """The drawing of a variant from its SVG, as a geometry file (TOML); SvgLayoutError names every problem.

    A unit place or marker the SVG puts just over its region's edge (the package's standard
    map puts the fleet on Bulgaria's east coast 4 units out to sea) is drawn at the nearest
    point inside on the way to the province's own place, if that is within REACH of the
    picture's width; farther out, the drawing is refused naming the province."""
    found = read_svg(svg)
    names = _names(variant)
    regions: dict[str, list[Piece]] = {}
    for mouse in (False, True):  # the drawn region; the mouse layer's only for a province with none
        for key, drawn in found.regions.items():
            pid = names.get(key.removeprefix("MOUSE:"))
            if pid is not None and key.startswith("MOUSE:") == mouse and (not mouse or pid not in regions):
                regions.setdefault(pid, []).extend(drawn)
    units, centres, labels = (_renamed(t, names) for t in (found.units, found.centres, found.labels))
    reach = REACH * found.size[0]
    problems: list[str] = []
    out = [f"# Drawing of {variant.name} from {svg.name} (the diplomacy package's SVG layout), read by",
           "# gamesmaster's variants/svg_layout.py: regions, unit places and centre markers carried into one frame.",
           "[map]", f"width = {found.size[0]:.1f}", f"height = {found.size[1]:.1f}"]
    for pid in sorted(variant.map.provinces):
        province = variant.map.provinces[pid]
        pieces = regions.get(pid)
        if not pieces:
            problems.append(f"{svg.name}: no region for {pid} ({province.name}): no element with id '_{pid.lower()}' "
                            f"(or an alias) in MapLayer nor '{pid.lower()}' in MouseLayer")
            continue
        rings = flatten(pieces)
        spots = [p for p in (units.get(pid), labels.get(pid)) if p is not None]
        anchor = next((p for p in spots if inside(p, rings)), None)
        if anchor is None:
            where = (f"its unit place ({spots[0][0]:.0f}, {spots[0][1]:.0f}) lies outside its region" if spots
                     else "the SVG gives it no unit place and no name")
            problems.append(f"{svg.name}: {pid} ({province.name}): {where}")
            continue
        out += ["", f"[space.{pid}]", f"xy = [{anchor[0]:.1f}, {anchor[1]:.1f}]", f'outline = "{path_text(pieces)}"']
        marks = [("centre_xy", "its supply-centre marker", centres.get(pid))] if province.supply_centre else []
        marks += [(f"coast_xy.{c}", f"the unit place of {pid}/{c}", units.get(f"{pid}/{c}", anchor))
                  for c in province.coasts]
        for key, what, at in marks:
            if at is None:
                continue  # no marker: the map draws one below the anchor
            placed = _pull_inside(at, anchor, rings, reach)
            if placed is None:
                problems.append(f"{svg.name}: {pid}: {what} ({at[0]:.0f}, {at[1]:.0f}) lies outside the region "
                                f"of {pid}, more than {reach:.0f} units from its edge")
                continue
            out.append(f"{key} = [{placed[0]:.1f}, {placed[1]:.1f}]")
    if problems:
        raise SvgLayoutError(problems)
    return "\n".join(out) + "\n"
