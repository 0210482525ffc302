#!/usr/bin/env python3
"""Build the map geometry files (src/gamesmaster/variants/data/geometry/*.toml).

The artwork is the project's own: every map is described in a module under
tools/geometry/maps/ as hand-placed points in longitude/latitude (drawn from
knowledge of European geography, not traced from any other map):

  JUNCTIONS  named points where three or more spaces meet, or where a border
             meets the edge of the board ("!lon,lat" = snap onto the nearest
             edge of the frame);
  BORDERS    one line per stretch of border between two spaces ("OUT" = the
             frame of the board), written from one junction to another with
             the unnamed bends in between;
  SPACES     per space: label point, coast points, supply-centre point;
  DECOR      neutral scenery drawn over the spaces (islands that are no space,
             inland seas).

Each space's outline is assembled by chaining its borders, so neighbours share
exactly the same vertices: no gaps, no overlaps. The points are projected with
a conic projection, squeezed to the board, and locally magnified where the
provinces are small (the Low Countries). The script checks the result (closed
rings, no crossing borders, the rings tile the board exactly, every adjacency of
the variant file is a shared border, no border between spaces that are not
adjacent) before writing.

Usage:  python tools/geometry/build.py [--force] [variant ...]     (default: all maps)
"""

from __future__ import annotations

import importlib.util
import math
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "gamesmaster" / "variants" / "data"
OUT_DIR = DATA / "geometry"
MAPS = Path(__file__).resolve().parent / "maps"

Point = tuple[float, float]


# ---------------------------------------------------------------- projection

class Projection:
    """Equidistant conic fitted to the board, then stretched where the map is busy.

    1. An equidistant conic projection (cone constant n, true scale at lat_true)
       is fitted so that the frame points left/right/top/bottom fall on the edges.
    2. `stretch_x` / `stretch_y`: each axis is remapped by a monotone function
       whose density is 1 + sum(a * gauss((u - centre) / sigma)); the board edges
       stay put, so the middle of the map grows and the margins (oceans, Russia,
       the Sahara) shrink. Straight frame edges stay straight.
    3. `zooms`: local magnifications (lon, lat, strength, radius) or
       (lon, lat, x-strength, y-strength, radius), fading out like a Gaussian,
       for clusters of small provinces (the Low Countries, Britain).
    """

    def __init__(self, spec: dict) -> None:
        self.n = spec["n"]
        self.lon0 = spec["lon0"]
        self.G = math.cos(math.radians(spec["lat_true"])) / self.n + math.radians(spec["lat_true"])
        self.width = spec["width"]
        self.height = spec["height"]
        left = self._raw(*spec["left"])[0]
        right = self._raw(*spec["right"])[0]
        top = self._raw(*spec["top"])[1]
        bottom = self._raw(*spec["bottom"])[1]
        self.sx = self.width / (right - left)
        self.sy = self.height / (bottom - top)
        self.left, self.top = left, top
        self.fx = self._stretch(self.width, spec.get("stretch_x", ()))
        self.fy = self._stretch(self.height, spec.get("stretch_y", ()))
        self.zooms = []
        for z in spec.get("zooms", ()):
            lon, lat, *a, r = z
            ax, ay = (a[0], a[0]) if len(a) == 1 else a
            self.zooms.append((self._stretched(lon, lat), ax, ay, r))

    @staticmethod
    def _stretch(size: float, bumps) -> list[float]:
        """Cumulative density table: table[i] is where plain coordinate i goes."""
        dens = [1 + sum(a * math.exp(-(((i + 0.5) - c) / s) ** 2) for c, s, a in bumps) for i in range(int(size))]
        total = sum(dens)
        table = [0.0]
        for d in dens:
            table.append(table[-1] + d * size / total)
        return table

    @staticmethod
    def _apply(table: list[float], u: float) -> float:
        n = len(table) - 1
        if u <= 0:
            return u * (table[1] - table[0])
        if u >= n:
            return table[n] + (u - n) * (table[n] - table[n - 1])
        i = int(u)
        return table[i] + (u - i) * (table[i + 1] - table[i])

    def _raw(self, lon: float, lat: float) -> Point:
        rho = self.G - math.radians(lat)
        t = self.n * math.radians(lon - self.lon0)
        return rho * math.sin(t), -(self.G - rho * math.cos(t))

    def _stretched(self, lon: float, lat: float) -> Point:
        x, y = self._raw(lon, lat)
        x, y = (x - self.left) * self.sx, (y - self.top) * self.sy
        return self._apply(self.fx, x), self._apply(self.fy, y)

    def __call__(self, lon: float, lat: float) -> Point:
        x, y = self._stretched(lon, lat)
        for (cx, cy), ax, ay, r in self.zooms:
            dx, dy = x - cx, y - cy
            e = math.exp(-(dx * dx + dy * dy) / (r * r))
            x, y = cx + dx * (1 + ax * e), cy + dy * (1 + ay * e)
        return x, y

    def snap(self, p: Point) -> Point:
        """The point moved onto the nearest edge of the frame."""
        x = min(max(p[0], 0.0), self.width)
        y = min(max(p[1], 0.0), self.height)
        d = {"l": x, "r": self.width - x, "t": y, "b": self.height - y}
        edge = min(d, key=d.get)
        if edge == "l":
            x = 0.0
        elif edge == "r":
            x = float(self.width)
        elif edge == "t":
            y = 0.0
        else:
            y = float(self.height)
        return x, y


# ---------------------------------------------------------------- map model

@dataclass
class MapDef:
    name: str
    proj: Projection
    canvas: tuple[int, int]
    junctions: dict[str, Point]
    borders: list[tuple[str, str, list[Point], str, str]]  # a, b, points, from-junction, to-junction
    spaces: dict[str, dict]
    overlays: dict[str, list[Point]] = field(default_factory=dict)
    offboard: set[str] = field(default_factory=set)
    decor: list[dict] = field(default_factory=list)


def r1(v: float) -> float:
    return round(v + 0.0, 1) + 0.0


def rp(p: Point) -> Point:
    return (r1(p[0]), r1(p[1]))


def parse_point(tok: str, proj: Projection) -> Point:
    """A point token: "lon,lat", "!lon,lat" (snapped to the frame), "@x,y" (board units), or a corner."""
    corners = {"NW": (0.0, 0.0), "NE": (float(proj.width), 0.0),
               "SW": (0.0, float(proj.height)), "SE": (float(proj.width), float(proj.height))}
    if tok in corners:
        return corners[tok]
    if tok.startswith("@"):
        x, y = tok[1:].split(",")
        return rp((float(x), float(y)))
    snap = tok.startswith("!")
    lon, lat = (float(v) for v in tok.lstrip("!").split(","))
    p = proj(lon, lat)
    if snap:
        p = proj.snap(p)
    return rp(p)


def overlay_polygon(spec, resolve) -> list[Point]:
    """An overlay's polygon: a list of point tokens, or a canal drawn along a line.

    A canal is {"line": tokens, "width": board units, "start": (left, right),
    "end": (left, right)}: a strip `width` wide along the line, whose two ends
    are closed by the line's end points and the given points on either side
    (points of the coasts it opens onto, so it shares those coast segments).
    """
    if isinstance(spec, str):
        return [resolve(t) for t in spec.split()]
    line = [resolve(t) for t in spec["line"].split()]
    half = spec["width"] / 2
    left, right = [], []
    for i in range(1, len(line) - 1):
        (x0, y0), (x1, y1), (x2, y2) = line[i - 1], line[i], line[i + 1]
        d1 = (x1 - x0, y1 - y0)
        d2 = (x2 - x1, y2 - y1)
        n1 = (-d1[1] / math.hypot(*d1), d1[0] / math.hypot(*d1))
        n2 = (-d2[1] / math.hypot(*d2), d2[0] / math.hypot(*d2))
        nx, ny = n1[0] + n2[0], n1[1] + n2[1]
        k = math.hypot(nx, ny)
        nx, ny = nx / k, ny / k
        scale = half / max(0.5, nx * n1[0] + ny * n1[1])  # mitre
        left.append(rp((x1 + nx * scale, y1 + ny * scale)))
        right.append(rp((x1 - nx * scale, y1 - ny * scale)))
    sl, sr = (resolve(t) for t in spec["start"])
    el, er = (resolve(t) for t in spec["end"])
    return [sl] + left + [el, line[-1], er] + right[::-1] + [sr, line[0]]


def _lines(text: str):
    for line in text.strip().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            yield line


def load_map(name: str) -> MapDef:
    path = MAPS / f"{name.replace('-', '_')}.py"
    spec = importlib.util.spec_from_file_location(f"map_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader
    spec.loader.exec_module(mod)
    proj = Projection(mod.PROJECTION)
    canvas = tuple(getattr(mod, "CANVAS", (proj.width, proj.height)))
    junctions: dict[str, Point] = {}
    for line in _lines(mod.JUNCTIONS):
        jname, tok = line.split()
        if jname in junctions:
            raise SystemExit(f"{name}: junction {jname} defined twice")
        junctions[jname] = parse_point(tok, proj)
    corners = {"NW", "NE", "SW", "SE"}
    borders = []
    seen_pairs: dict[tuple[str, str], str] = {}
    for line in _lines(mod.BORDERS):
        head, body = line.split(":", 1)
        a, b = head.split()
        toks = body.split()
        for t in (toks[0], toks[-1]):
            if t not in junctions and t not in corners:
                raise SystemExit(f"{name}: border {a}/{b} must start and end at a junction, not {t}")
        pts = []
        for t in toks:
            if t in junctions:
                pts.append(junctions[t])
            elif t in corners or "," in t:
                pts.append(parse_point(t, proj))
            else:
                raise SystemExit(f"{name}: border {a}/{b}: unknown junction {t}")
        key = (min(toks[0], toks[-1]), max(toks[0], toks[-1]))
        if key in seen_pairs and seen_pairs[key] == head:
            raise SystemExit(f"{name}: border {head} from {toks[0]} to {toks[-1]} given twice")
        seen_pairs[key] = head
        borders.append((a, b, pts, toks[0], toks[-1]))
    spaces = {}
    for sid, info in mod.SPACES.items():
        out = {}
        for key, val in info.items():
            if key == "coast":
                out["coast_xy"] = {c: parse_point(v, proj) for c, v in val.items()}
            elif key in ("xy", "centre"):
                out["centre_xy" if key == "centre" else "xy"] = parse_point(val, proj)
        spaces[sid] = out
    def resolve(tok: str) -> Point:
        return junctions[tok] if tok in junctions else parse_point(tok, proj)
    overlays = {sid: overlay_polygon(spec, resolve) for sid, spec in getattr(mod, "OVERLAYS", {}).items()}
    decor = []
    for d in getattr(mod, "DECOR", ()):
        decor.append({"name": d["name"], "kind": d["kind"],
                      "points": [parse_point(t, proj) for t in d["points"].split()]})
    return MapDef(name, proj, canvas, junctions, borders, spaces, overlays,
                  set(getattr(mod, "OFFBOARD", ())), decor)


# ---------------------------------------------------------------- rings

def rings(m: MapDef) -> dict[str, list[Point]]:
    """Each space's outline: its borders chained end to end into one closed ring."""
    by_space: dict[str, list[tuple[list[Point], str, str]]] = {}
    for a, b, pts, j0, j1 in m.borders:
        for s in (a, b):
            if s != "OUT":
                by_space.setdefault(s, []).append((pts, j0, j1))
    out: dict[str, list[Point]] = {}
    problems = []
    for s, parts in by_space.items():
        parts = list(parts)
        pts, start, end = parts.pop(0)
        ring = list(pts)
        while end != start:
            for i, (p, j0, j1) in enumerate(parts):
                if j0 == end:
                    ring.extend(p[1:])
                    end = j1
                    break
                if j1 == end:
                    ring.extend(list(reversed(p))[1:])
                    end = j0
                    break
            else:
                problems.append(f"{s}: outline does not close (stuck at {end})")
                break
            parts.pop(i)
        if parts:
            problems.append(f"{s}: borders left over after closing the ring: "
                            + ", ".join(f"{j0}-{j1}" for _, j0, j1 in parts))
        out[s] = ring[:-1]
    for sid, pts in m.overlays.items():
        if sid in out:
            problems.append(f"{sid}: both an overlay and a space with borders")
        out[sid] = list(pts)
    if problems:
        raise SystemExit("\n".join(problems))
    return out


def area(ring: list[Point]) -> float:
    return 0.5 * sum(ring[i][0] * ring[i - 1][1] - ring[i - 1][0] * ring[i][1] for i in range(len(ring)))


def inside(p: Point, ring: list[Point]) -> bool:
    x, y = p
    res = False
    for i in range(len(ring)):
        (x1, y1), (x2, y2) = ring[i - 1], ring[i]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            res = not res
    return res


def dist_to_ring(p: Point, ring: list[Point]) -> float:
    best = math.inf
    for i in range(len(ring)):
        (x1, y1), (x2, y2) = ring[i - 1], ring[i]
        dx, dy = x2 - x1, y2 - y1
        L = dx * dx + dy * dy
        t = 0 if L == 0 else max(0, min(1, ((p[0] - x1) * dx + (p[1] - y1) * dy) / L))
        best = min(best, math.hypot(p[0] - x1 - t * dx, p[1] - y1 - t * dy))
    return best


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Proper crossing or overlap of two segments that share no endpoint."""
    if {p1, p2} & {q1, q2}:
        return False
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 and d2 and d3 and d4:
        return True

    def on(a: Point, b: Point, c: Point) -> bool:
        return _cross(a, b, c) == 0 and min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])
    return on(q1, q2, p1) or on(q1, q2, p2) or on(p1, p2, q1) or on(p1, p2, q2)


def segs_of(ring: list[Point]) -> set[frozenset]:
    return {frozenset((ring[i - 1], ring[i])) for i in range(len(ring))}


def touches(m: MapDef, outlines: dict[str, list[Point]], a: str, b: str) -> str:
    """How two spaces meet on the drawing: "border", "crossing", "overlay" or ""."""
    ra, rb = outlines[a], outlines[b]
    if segs_of(ra) & segs_of(rb):
        return "border"
    if a in m.overlays or b in m.overlays:
        ov, other = (ra, rb) if a in m.overlays else (rb, ra)
        if set(ov) & set(other) or any(inside(p, other) for p in ov):
            return "overlay"
        return ""
    shared = set(ra) & set(rb)
    for v in shared:
        meeting = sum(1 for s, r in outlines.items() if s not in m.overlays and v in r)
        if meeting >= 4:
            return "crossing"
    return ""


# ---------------------------------------------------------------- checks

def variant_adjacency(name: str) -> tuple[dict, set[frozenset]]:
    doc = tomllib.loads((DATA / f"{name}.toml").read_text(encoding="utf-8"))
    spaces = doc["space"]
    adj: set[frozenset] = set()
    for sid, t in spaces.items():
        for o in t.get("army", ()):
            adj.add(frozenset((sid, o.split("/")[0])))
        fl = t.get("fleet", ())
        targets = [x for v in fl.values() for x in v] if isinstance(fl, dict) else list(fl)
        for o in targets:
            adj.add(frozenset((sid, o.split("/")[0])))
    return spaces, adj


def check(m: MapDef, outlines: dict[str, list[Point]]) -> list[str]:
    problems: list[str] = []
    warnings: list[str] = []
    spaces, adj = variant_adjacency(m.name)
    W, H = m.proj.width, m.proj.height
    CW, CH = m.canvas
    for sid in spaces:
        if sid not in outlines:
            problems.append(f"{sid}: no outline")
        if sid not in m.spaces or "xy" not in m.spaces[sid]:
            problems.append(f"{sid}: no xy")
    for sid in outlines:
        if sid not in spaces:
            problems.append(f"{sid}: outline for a space the variant does not have")
    # every vertex on the board (off-board spaces: on the canvas, off the board)
    for a, b, pts, *_ in m.borders:
        off = a in m.offboard or b in m.offboard
        for p in pts:
            if not (0 <= p[0] <= (CW if off else W) and 0 <= p[1] <= (CH if off else H)):
                problems.append(f"border {a}/{b}: point {p} outside the {'canvas' if off else 'board'}")
        for i in range(1, len(pts)):
            if pts[i] == pts[i - 1]:
                problems.append(f"border {a}/{b}: repeated point {pts[i]}")
    for sid in m.offboard:
        if any(0 < x < W and 0 < y < H for x, y in outlines.get(sid, ())):
            problems.append(f"{sid}: an off-board space with a vertex inside the board")
    # tiling
    total = sum(abs(area(r)) for s, r in outlines.items() if s not in m.overlays and s not in m.offboard)
    if abs(total - W * H) > 1.0:
        problems.append(f"outlines cover {total:.0f} square units, the board is {W * H}")
    # no crossing segments (grid bucketed); overlays lie over the board by design
    segs = []
    for bi, (a, b, pts, *_) in enumerate(m.borders):
        for i in range(1, len(pts)):
            segs.append((bi, pts[i - 1], pts[i]))
    cell = 40.0
    grid: dict[tuple[int, int], list[int]] = {}
    for k, (_, p, q) in enumerate(segs):
        for gx in range(int(min(p[0], q[0]) // cell), int(max(p[0], q[0]) // cell) + 1):
            for gy in range(int(min(p[1], q[1]) // cell), int(max(p[1], q[1]) // cell) + 1):
                grid.setdefault((gx, gy), []).append(k)
    seen = set()
    for ks in grid.values():
        for i in range(len(ks)):
            for j in range(i + 1, len(ks)):
                k1, k2 = ks[i], ks[j]
                if (k1, k2) in seen:
                    continue
                seen.add((k1, k2))
                b1, p1, p2 = segs[k1]
                b2, q1, q2 = segs[k2]
                if segments_cross(p1, p2, q1, q2):
                    A, B = m.borders[b1][:2], m.borders[b2][:2]
                    problems.append(f"borders {A[0]}/{A[1]} and {B[0]}/{B[1]} cross near {p1}")
    for sid, ring in m.overlays.items():
        if abs(area(ring)) < 1:
            problems.append(f"{sid}: an overlay with no area")
        n = len(ring)
        for i in range(n):
            for j in range(i + 2, n):
                if (j + 1) % n == i:
                    continue
                if segments_cross(ring[i], ring[(i + 1) % n], ring[j], ring[(j + 1) % n]):
                    problems.append(f"{sid}: the overlay's outline crosses itself near {ring[i]}")
    # label points
    for sid, info in m.spaces.items():
        ring = outlines.get(sid)
        if not ring:
            continue
        points = [("xy", info.get("xy"))] + [(f"coast_xy.{c}", q) for c, q in info.get("coast_xy", {}).items()]
        points.append(("centre_xy", info.get("centre_xy")))
        for key, p in points:
            if p is None:
                continue
            if not inside(p, ring):
                problems.append(f"{sid}: {key} {p} is not inside its outline")
            elif any(inside(p, d["points"]) for d in m.decor):
                problems.append(f"{sid}: {key} {p} is hidden under decor")
            elif sid not in m.overlays and any(inside(p, o) for o in m.overlays.values()):
                problems.append(f"{sid}: {key} {p} is hidden under an overlay")
            elif dist_to_ring(p, ring) < 6:
                warnings.append(f"{sid}: {key} only {dist_to_ring(p, ring):.1f} from its edge")
        if spaces.get(sid, {}).get("centre") and "centre_xy" not in info:
            problems.append(f"{sid}: supply centre without centre_xy")
        if not spaces.get(sid, {}).get("centre") and "centre_xy" in info:
            problems.append(f"{sid}: centre_xy but not a supply centre")
        coasts = spaces.get(sid, {}).get("coasts", [])
        if sorted(coasts) != sorted(info.get("coast_xy", {})):
            problems.append(f"{sid}: coast_xy {sorted(info.get('coast_xy', {}))} but coasts {coasts}")
        if "centre_xy" in info and "xy" in info and math.dist(info["xy"], info["centre_xy"]) < 14:
            warnings.append(f"{sid}: centre_xy close to xy ({math.dist(info['xy'], info['centre_xy']):.1f})")
    # adjacency vs shared borders
    shared: dict[frozenset, float] = {}
    for a, b, pts, *_ in m.borders:
        if "OUT" in (a, b):
            continue
        L = sum(math.dist(pts[i - 1], pts[i]) for i in range(1, len(pts)))
        shared[frozenset((a, b))] = shared.get(frozenset((a, b)), 0) + L
    for pair in sorted(adj, key=sorted):
        if len(pair) != 2 or not pair <= set(outlines):
            continue
        a, b = sorted(pair)
        how = touches(m, outlines, a, b)
        if not how:
            problems.append(f"{a}-{b} adjacent in the variant but do not touch on the map")
        elif how == "border" and shared.get(pair, 0) < 8 and not pair & set(m.overlays):
            warnings.append(f"{a}-{b}: shared border only {shared.get(pair, 0):.1f} long")
        elif how != "border":
            print(f"note: {a}-{b} meet at a {how}", file=sys.stderr)
    for pair in shared:
        if pair not in adj and not any(spaces.get(s, {}).get("terrain") == "impassable" for s in pair):
            problems.append(f"{'-'.join(sorted(pair))} share a border but are not adjacent in the variant")
    for w in warnings:
        print("warning:", w, file=sys.stderr)
    return problems


# ---------------------------------------------------------------- output

def fmt(v: float) -> str:
    return f"{v:.1f}"


def path_d(ring: list[Point]) -> str:
    return "M " + " L ".join(f"{fmt(x)} {fmt(y)}" for x, y in ring) + " Z"


HEADER = '''\
# Map geometry for the "{name}" variant: the project's own artwork, generated by
# tools/geometry/build.py from tools/geometry/maps/{module}.py. Do not edit by
# hand: change the map module and run `python tools/geometry/build.py {name}`.
#
# Format (all coordinates in SVG user units, origin top left, y downwards):
# [map]
#   width, height   size of the picture (the SVG viewBox is 0 0 width height).
#   board           [x0, y0, x1, y1], only when it is not the whole picture: the
#                   rectangle the ordinary spaces tile; off-board spaces lie
#                   outside it.
#   The outlines of the ordinary spaces tile the board exactly, without gaps or
#   overlaps; neighbouring spaces use exactly the same vertices along their
#   common border.
# [space.X]         one table per space of the variant file (same ids), sorted.
#   xy              [x, y] anchor for the label and for a unit standing in the
#                   space; always inside the outline.
#   outline         the area of the space: an SVG path of absolute M/L commands
#                   closed by Z (a single simple polygon).
#   coast_xy.C      where a fleet on coast C is drawn (provinces with two
#                   coasts only); inside the outline, near that coast.
#   centre_xy       where the supply-centre marker goes (supply centres only).
#   overlay = true  (rare) a space drawn over the others instead of tiling the
#                   board, e.g. a canal across land: draw it after the ordinary
#                   spaces; the land spaces on its banks meet underneath it.
#   offboard = true (rare) a space drawn outside the board rectangle, e.g. a box
#                   for a sea route off the edge of the map.
#   Terrain (land/coast/sea/impassable) is not repeated here: take it from the
#   variant file to colour the spaces.
# Spaces adjacent in the variant share a border segment; exceptions: two spaces
# that only meet at a point where four spaces cross (a strait crossed both by
# land and by sea), and overlay spaces, which lie over their neighbours.
# [[decor]]         neutral scenery that belongs to no space, drawn over the
#                   spaces after them: islands that are not spaces (kind =
#                   "land") and inland waters inside a land space (kind =
#                   "water"). No anchor point (xy, coast_xy, centre_xy) is ever
#                   under decor.
#   name, kind, outline (same path syntax as above).
'''


def emit(m: MapDef, outlines: dict[str, list[Point]]) -> str:
    lines = [HEADER.format(name=m.name, module=m.name.replace("-", "_")), "[map]",
             f"width = {m.canvas[0]}", f"height = {m.canvas[1]}"]
    if tuple(m.canvas) != (m.proj.width, m.proj.height):
        lines.append(f"board = [0, 0, {m.proj.width}, {m.proj.height}]")
    lines.append("")
    for sid in sorted(outlines):
        info = m.spaces.get(sid, {})
        lines.append(f"[space.{sid}]")
        x, y = info["xy"]
        lines.append(f"xy = [{fmt(x)}, {fmt(y)}]")
        for c, (cx, cy) in sorted(info.get("coast_xy", {}).items()):
            lines.append(f"coast_xy.{c} = [{fmt(cx)}, {fmt(cy)}]")
        if "centre_xy" in info:
            cx, cy = info["centre_xy"]
            lines.append(f"centre_xy = [{fmt(cx)}, {fmt(cy)}]")
        if sid in m.overlays:
            lines.append("overlay = true")
        if sid in m.offboard:
            lines.append("offboard = true")
        lines.append(f'outline = "{path_d(outlines[sid])}"')
        lines.append("")
    for d in m.decor:
        lines += ["[[decor]]", f'name = "{d["name"]}"', f'kind = "{d["kind"]}"',
                  f'outline = "{path_d(d["points"])}"', ""]
    return "\n".join(lines).rstrip() + "\n"


def build(name: str, write: bool = True, force: bool = False) -> tuple[MapDef, dict[str, list[Point]]]:
    m = load_map(name)
    outlines = rings(m)
    problems = check(m, outlines)
    if problems:
        message = f"{name}: {len(problems)} problem(s):\n  " + "\n  ".join(problems)
        if not force:
            raise SystemExit(message)
        print(message, file=sys.stderr)
    if write:
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        text = emit(m, outlines)
        tomllib.loads(text)  # must parse
        (OUT_DIR / f"{name}.toml").write_text(text, encoding="utf-8")
        print(f"wrote {OUT_DIR / f'{name}.toml'}: {len(outlines)} spaces, "
              f"{sum(len(r) for r in outlines.values())} vertices")
    return m, outlines


def main(argv: list[str]) -> None:
    force = "--force" in argv  # write even if the checks fail (to preview a map being drawn)
    argv = [a for a in argv if a != "--force"]
    names = argv or sorted(p.stem.replace("_", "-") for p in MAPS.glob("*.py") if not p.stem.startswith("_"))
    for name in names:
        build(name, force=force)


if __name__ == "__main__":
    main(sys.argv[1:])
