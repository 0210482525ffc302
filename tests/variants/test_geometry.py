"""The map geometry files (variants/data/geometry/<variant>.toml) fit their variants.

Each geometry file gives every space of its variant a label/unit point `xy` and
an `outline` (an SVG path). These checks are pure Python: the outlines are read
as polygons (the end points of M/L/Q/C commands; Z closes a ring), and

- every space of the variant has a closed outline and an `xy` inside it;
- the outlines tile the board: their areas add up to the board's, so (with
  shared borders) there are no gaps and no overlaps. Two rare kinds of space
  stay out of the tiling: `overlay = true` (drawn over the others, e.g. a canal
  across land) and `offboard = true` (outside the board rectangle);
- spaces adjacent in the variant file share at least one border segment (the
  same two consecutive vertices), or meet at a point where four spaces cross
  (a strait crossed both by land and by sea), or one is an overlay lying over
  the other; spaces that are not adjacent share no border segment;
- supply centres have `centre_xy`, two-coast provinces a `coast_xy` per coast,
  all inside their own outline and not hidden under decor;
- no two spaces put their `xy` on the same spot.
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "src" / "gamesmaster" / "variants" / "data"
GEOMETRY = DATA / "geometry"

Point = tuple[float, float]
Ring = list[Point]

VARIANTS = sorted(p.stem for p in GEOMETRY.glob("*.toml") if (DATA / f"{p.stem}.toml").is_file())


def test_the_standard_map_has_geometry():
    assert "standard" in VARIANTS


# ------------------------------------------------------------------ helpers

_TOKEN = re.compile(r"[MLQCZmlqcz]|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "Q": 4, "C": 6}


def parse_path(d: str) -> list[Ring]:
    """The rings of an absolute SVG path (M/L/Q/C/Z); curves by their end points.

    Every ring must be closed by Z.
    """
    rings: list[Ring] = []
    ring: Ring = []
    closed = True
    assert re.fullmatch(r"[MLQCZ0-9.eE,\s+-]*", d), "outline uses commands other than absolute M/L/Q/C/Z"
    tokens = _TOKEN.findall(d)
    i, cmd = 0, None
    while i < len(tokens):
        t = tokens[i]
        if t.isalpha():
            assert t.isupper(), f"relative command {t!r} in outline"
            cmd = t
            i += 1
            if cmd == "Z":
                assert ring, "Z without a ring"
                rings.append(ring)
                ring, closed = [], True
                continue
            if cmd == "M":
                assert closed, "a ring is not closed with Z before the next M"
                closed = False
            continue
        assert cmd in _ARITY, f"number without a command in {d[:40]}..."
        n = _ARITY[cmd]
        vals = [float(v) for v in tokens[i:i + n]]
        assert len(vals) == n, f"{cmd} needs {n} numbers"
        ring.append((vals[-2], vals[-1]))
        i += n
        if cmd == "M":
            cmd = "L"
    assert closed and not ring, "outline not closed with Z"
    return rings


def area(ring: Ring) -> float:
    return 0.5 * sum(ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1] for i in range(len(ring)))


def inside(p: Point, rings: list[Ring]) -> bool:
    """Even-odd point in polygon (rings after the first are holes)."""
    x, y = p
    res = False
    for ring in rings:
        for i in range(len(ring)):
            (x1, y1), (x2, y2) = ring[i - 1], ring[i]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                res = not res
    return res


def segments(rings: list[Ring]) -> set[frozenset[Point]]:
    return {frozenset((r[i - 1], r[i])) for r in rings for i in range(len(r))}


def adjacency(variant: dict) -> set[frozenset[str]]:
    """Province pairs adjacent for an army or a fleet (coasts folded into provinces)."""
    pairs = set()
    for sid, table in variant["space"].items():
        fleet = table.get("fleet", [])
        targets = list(table.get("army", []))
        targets += [t for ts in fleet.values() for t in ts] if isinstance(fleet, dict) else list(fleet)
        for t in targets:
            other = t.split("/")[0]
            if other != sid:
                pairs.add(frozenset((sid, other)))
    return pairs


class Board:
    def __init__(self, name: str) -> None:
        self.name = name
        self.geo = tomllib.loads((GEOMETRY / f"{name}.toml").read_text(encoding="utf-8"))
        self.variant = tomllib.loads((DATA / f"{name}.toml").read_text(encoding="utf-8"))
        self.spaces = self.variant["space"]
        self.width = self.geo["map"]["width"]
        self.height = self.geo["map"]["height"]
        self.board = self.geo["map"].get("board", [0, 0, self.width, self.height])
        self.rings = {sid: parse_path(sp["outline"]) for sid, sp in self.geo.get("space", {}).items()}
        self.decor = [parse_path(d["outline"]) for d in self.geo.get("decor", [])]
        self.overlays = {sid for sid, sp in self.geo.get("space", {}).items() if sp.get("overlay")}
        self.offboard = {sid for sid, sp in self.geo.get("space", {}).items() if sp.get("offboard")}

    def touch(self, a: str, b: str) -> bool:
        """Whether two spaces meet on the drawing (see the module docstring)."""
        ra, rb = self.rings[a], self.rings[b]
        if segments(ra) & segments(rb):
            return True
        va, vb = {p for r in ra for p in r}, {p for r in rb for p in r}
        if a in self.overlays or b in self.overlays:
            over, other, vo = (ra, rb, va) if a in self.overlays else (rb, ra, vb)
            return bool(va & vb) or any(inside(p, other) for p in vo)
        for v in va & vb:
            meeting = sum(1 for s, rs in self.rings.items()
                          if s not in self.overlays and any(v in r for r in rs))
            if meeting >= 4:
                return True
        return False


_BOARDS: dict[str, Board] = {}


@pytest.fixture(params=VARIANTS)
def board(request) -> Board:
    if request.param not in _BOARDS:
        _BOARDS[request.param] = Board(request.param)
    return _BOARDS[request.param]


# ------------------------------------------------------------------ tests

def test_every_space_has_xy_and_a_closed_outline(board):
    geo = board.geo["space"]
    assert sorted(geo) == sorted(board.spaces), "geometry and variant list different spaces"
    for sid in board.spaces:
        assert "xy" in geo[sid] and len(geo[sid]["xy"]) == 2, f"{sid}: no xy"
        rings = board.rings[sid]
        assert rings and all(len(r) >= 3 for r in rings), f"{sid}: empty outline"
        assert geo[sid]["outline"].rstrip().endswith("Z"), f"{sid}: outline not closed"


def test_everything_lies_on_the_board(board):
    x0, y0, x1, y1 = board.board
    for sid, rings in board.rings.items():
        for x, y in (p for r in rings for p in r):
            assert 0 <= x <= board.width and 0 <= y <= board.height, f"{sid}: vertex {(x, y)} off the picture"
            if sid in board.offboard:
                assert not (x0 < x < x1 and y0 < y < y1), f"{sid}: off-board space inside the board"
            else:
                assert x0 <= x <= x1 and y0 <= y <= y1, f"{sid}: vertex {(x, y)} off the board"


def test_xy_lies_inside_its_own_outline(board):
    for sid, sp in board.geo["space"].items():
        assert inside(tuple(sp["xy"]), board.rings[sid]), f"{sid}: xy {sp['xy']} outside its outline"


def test_outlines_tile_the_board(board):
    total = 0.0
    for sid, rings in board.rings.items():
        if sid in board.overlays or sid in board.offboard:
            continue
        outer, *holes = rings
        total += abs(area(outer)) - sum(abs(area(h)) for h in holes)
    x0, y0, x1, y1 = board.board
    assert total == pytest.approx((x1 - x0) * (y1 - y0), abs=2.0)


def test_adjacent_spaces_share_a_border(board):
    missing = [f"{a}-{b}" for a, b in (sorted(p) for p in adjacency(board.variant))
               if not board.touch(a, b)]
    assert not missing, f"adjacent in {board.name}.toml but not touching on the map: {missing}"


def test_most_adjacencies_are_real_borders(board):
    """Crossings and overlays are exceptions: nearly every adjacency is a shared segment."""
    segs = {sid: segments(r) for sid, r in board.rings.items()}
    pairs = [sorted(p) for p in adjacency(board.variant)]
    real = [p for p in pairs if segs[p[0]] & segs[p[1]]]
    assert len(real) >= 0.9 * len(pairs)


def test_spaces_that_are_not_adjacent_share_no_border(board):
    adjacent = adjacency(board.variant)
    segs = {sid: segments(r) for sid, r in board.rings.items()}
    ids = sorted(segs)
    wrong = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if a in board.overlays or b in board.overlays:
                continue  # an overlay lies over the spaces it crosses
            if "impassable" in (board.spaces[a]["terrain"], board.spaces[b]["terrain"]):
                continue
            if frozenset((a, b)) not in adjacent and segs[a] & segs[b]:
                wrong.append(f"{a}-{b}")
    assert not wrong, f"share a border but are not adjacent: {wrong}"


def test_baltic_and_skagerrak_do_not_touch(board):
    if {"BAL", "SKA"} <= set(board.rings):
        shared = {p for r in board.rings["BAL"] for p in r} & {p for r in board.rings["SKA"] for p in r}
        assert not shared


def test_centres_and_coasts_have_their_points(board):
    for sid, table in board.spaces.items():
        sp = board.geo["space"][sid]
        if table.get("centre"):
            assert "centre_xy" in sp, f"{sid}: supply centre without centre_xy"
        else:
            assert "centre_xy" not in sp, f"{sid}: centre_xy on a space that is no supply centre"
        assert sorted(sp.get("coast_xy", {})) == sorted(table.get("coasts", [])), f"{sid}: coast_xy vs coasts"
        points = [sp["xy"]] + list(sp.get("coast_xy", {}).values()) + ([sp["centre_xy"]] if "centre_xy" in sp else [])
        for p in points:
            assert inside(tuple(p), board.rings[sid]), f"{sid}: point {p} outside its outline"
            assert not any(inside(tuple(p), d) for d in board.decor), f"{sid}: point {p} hidden under decor"


def test_no_two_xy_points_coincide(board):
    pts = sorted((tuple(sp["xy"]), sid) for sid, sp in board.geo["space"].items())
    for i, (p, a) in enumerate(pts):
        for q, b in pts[i + 1:]:
            assert math.dist(p, q) > 10, f"{a} and {b} put their xy on the same spot"
