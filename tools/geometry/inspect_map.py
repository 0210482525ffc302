#!/usr/bin/env python3
"""Helpers for drawing a map module: where labels are cramped, and board units -> lon/lat.

Usage:
  python tools/geometry/inspect_map.py standard report
      spaces whose xy or centre_xy is close to an edge or to each other, with the
      best-placed point of the outline (its "pole": farthest from the edges);
  python tools/geometry/inspect_map.py standard lonlat 412,530 ...
      the "lon,lat" to write in the map module for board points (x, y), e.g. a
      pole from the report or a spot picked on a preview.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build  # noqa: E402


def lonlat(proj: build.Projection, px: float, py: float) -> tuple[float, float]:
    """Invert the projection by Newton's method."""
    lon, lat = proj.lon0, 50.0
    for _ in range(80):
        x, y = proj(lon, lat)
        ex, ey = px - x, py - y
        if abs(ex) < 0.01 and abs(ey) < 0.01:
            break
        h = 1e-4
        x1, y1 = proj(lon + h, lat)
        x2, y2 = proj(lon, lat + h)
        a, b, c, d = (x1 - x) / h, (x2 - x) / h, (y1 - y) / h, (y2 - y) / h
        det = a * d - b * c
        lon += max(-5, min(5, (d * ex - b * ey) / det))
        lat += max(-5, min(5, (-c * ex + a * ey) / det))
    return round(lon, 2), round(lat, 2)


def pole(ring: list[build.Point], step: float = 2.0) -> tuple[float, build.Point]:
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    best: tuple[float, build.Point] = (-1.0, ring[0])
    x = min(xs)
    while x <= max(xs):
        y = min(ys)
        while y <= max(ys):
            if build.inside((x, y), ring):
                d = build.dist_to_ring((x, y), ring)
                if d > best[0]:
                    best = (d, (x, y))
            y += step
        x += step
    return best


def report(name: str) -> None:
    m = build.load_map(name)
    outlines = build.rings(m)
    for sid in sorted(outlines):
        ring, info = outlines[sid], m.spaces.get(sid, {})
        xy, c = info.get("xy"), info.get("centre_xy")
        flags = []
        dxy = build.dist_to_ring(xy, ring) if xy and build.inside(xy, ring) else -1.0
        if dxy < 12:
            flags.append(f"xy {dxy:.1f} from the edge")
        if c:
            dc = build.dist_to_ring(c, ring) if build.inside(c, ring) else -1.0
            if dc < 6:
                flags.append(f"centre {dc:.1f} from the edge")
            if xy and math.dist(c, xy) < 18:
                flags.append(f"centre {math.dist(c, xy):.1f} from xy")
        if flags:
            d, p = pole(ring)
            print(f"{sid}: {'; '.join(flags)}; pole {p} ({d:.1f} clear) = {','.join(map(str, lonlat(m.proj, *p)))}")


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        raise SystemExit(__doc__)
    name, cmd, *rest = argv
    if cmd == "report":
        report(name)
    elif cmd == "lonlat":
        proj = build.load_map(name).proj
        for arg in rest:
            x, y = (float(v) for v in arg.split(","))
            print(f"{arg} -> \"{','.join(map(str, lonlat(proj, x, y)))}\"")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
