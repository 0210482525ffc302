"""A schematic drawing of any map from its adjacency graph: one square per space, neighbours near each other.

An imported map comes without the project's artwork, so gamesmaster lays it out itself:
a spring layout of the graph of army and fleet moves (seeded by the variant's name, so the
same map is always drawn the same way), snapped to a grid of squares that tile the board.
The result is ordinary geometry data (variants/data/geometry's format), so every door that
draws a map (war room, history, results mail, PNG) draws an imported one unchanged.
"""

from __future__ import annotations

import math
import random

from ..rules.variant import Variant

CELL = 100.0  # user units per square
ITERATIONS = 80
_COAST_OFFSET = {"NC": (0.0, -30.0), "SC": (0.0, 30.0), "EC": (30.0, 0.0), "WC": (-30.0, 0.0)}


def layout(variant: Variant) -> dict[str, tuple[int, int]]:
    """Each space's grid square (column, row): a spring layout of the move graph, snapped to free squares."""
    board = variant.map
    ids = sorted(board.provinces)
    index = {pid: i for i, pid in enumerate(ids)}
    edges = {tuple(sorted((a, b))) for a, bs in board.army_edges.items() for b in bs}
    edges |= {tuple(sorted((a.province, b.province))) for a, bs in board.fleet_edges.items() for b in bs
              if a.province != b.province}
    pairs = [(index[a], index[b]) for a, b in sorted(edges)]
    rng = random.Random(variant.name)
    n = len(ids)
    pos = [[rng.random(), rng.random()] for _ in ids]
    k = math.sqrt(1.0 / max(n, 1))
    step = 0.1
    for _ in range(ITERATIONS):
        move = [[0.0, 0.0] for _ in ids]
        for i in range(n):
            xi, yi = pos[i]
            for j in range(i + 1, n):
                dx, dy = xi - pos[j][0], yi - pos[j][1]
                d2 = dx * dx + dy * dy or 1e-9
                f = k * k / d2
                move[i][0] += dx * f
                move[i][1] += dy * f
                move[j][0] -= dx * f
                move[j][1] -= dy * f
        for i, j in pairs:
            dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
            d = math.hypot(dx, dy) or 1e-9
            f = d / k
            move[i][0] -= dx * f
            move[i][1] -= dy * f
            move[j][0] += dx * f
            move[j][1] += dy * f
        for i in range(n):
            d = math.hypot(*move[i]) or 1e-9
            pos[i][0] += move[i][0] / d * min(d, step)
            pos[i][1] += move[i][1] / d * min(d, step)
        step *= 0.95
    return _snap(ids, pos)


def _snap(ids: list[str], pos: list[list[float]]) -> dict[str, tuple[int, int]]:
    """Give each space (in id order) the free grid square nearest its place in the layout."""
    n = len(ids)
    cols = max(2, math.ceil(math.sqrt(n * 1.4)))
    rows = max(2, math.ceil(n * 1.4 / cols))
    xs, ys = [p[0] for p in pos], [p[1] for p in pos]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    taken: dict[tuple[int, int], str] = {}
    out: dict[str, tuple[int, int]] = {}
    for i in range(n):
        gx = (pos[i][0] - x0) / ((x1 - x0) or 1) * (cols - 1)
        gy = (pos[i][1] - y0) / ((y1 - y0) or 1) * (rows - 1)
        best = min(((c, r) for c in range(cols) for r in range(rows) if (c, r) not in taken),
                   key=lambda cr: (cr[0] - gx) ** 2 + (cr[1] - gy) ** 2)
        taken[best] = ids[i]
        out[ids[i]] = best
    return out


def schematic_toml(variant: Variant) -> str:
    """The schematic drawing of a variant, as a geometry file (TOML)."""
    cells = layout(variant)
    cols = max(c for c, _ in cells.values()) + 1
    rows = max(r for _, r in cells.values()) + 1
    out = [f"# Schematic drawing of {variant.name}, made by gamesmaster from the map's moves (variants/schematic.py).",
           "[map]", f"width = {cols * CELL:.0f}", f"height = {rows * CELL:.0f}"]
    for pid in sorted(cells):
        c, r = cells[pid]
        x0, y0 = c * CELL, r * CELL
        cx, cy = x0 + CELL / 2, y0 + CELL / 2
        out += ["", f"[space.{pid}]", f"xy = [{cx:.0f}, {cy - 8:.0f}]",
                f'outline = "M {x0:.0f} {y0:.0f} L {x0 + CELL:.0f} {y0:.0f} L {x0 + CELL:.0f} {y0 + CELL:.0f} '
                f'L {x0:.0f} {y0 + CELL:.0f} Z"']
        province = variant.map.provinces[pid]
        if province.supply_centre:
            out.append(f"centre_xy = [{cx:.0f}, {cy + 28:.0f}]")
        for coast in province.coasts:
            dx, dy = _COAST_OFFSET.get(coast, (0.0, 30.0))
            out.append(f"coast_xy.{coast} = [{cx + dx:.0f}, {cy + dy:.0f}]")
    return "\n".join(out) + "\n"
