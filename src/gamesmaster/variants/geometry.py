"""Map geometry: where each space is drawn (data/geometry/<map>.toml, the project's own artwork)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from .loader import DATA, VariantError, installed_dir, variant_path

GEOMETRY = DATA / "geometry"

Point = tuple[float, float]


@dataclass(frozen=True)
class SpaceShape:
    """How one space is drawn."""

    xy: Point  # label and unit anchor
    outline: str  # SVG path
    coast_xy: Mapping[str, Point]
    centre_xy: Point | None = None
    overlay: bool = False
    offboard: bool = False


@dataclass(frozen=True)
class Decor:
    """Scenery that belongs to no space: islands, inland waters."""

    name: str
    kind: str  # land or water
    outline: str


@dataclass(frozen=True)
class Geometry:
    """The drawing of a map: its size, every space's shape, and scenery."""

    width: float
    height: float
    spaces: Mapping[str, SpaceShape]
    decor: tuple[Decor, ...] = ()
    board: tuple[float, float, float, float] | None = None


def geometry_path(variant: str) -> Path:
    """The geometry file of a shipped variant; a set-up uses its base map's drawing."""
    own = GEOMETRY / f"{variant}.toml"
    if own.is_file():
        return own
    installed = installed_dir() / "geometry" / f"{variant}.toml"
    if installed.is_file():
        return installed  # an imported map's drawing (variant import)
    doc = tomllib.loads(variant_path(variant).read_text(encoding="utf-8"))
    base = doc.get("variant", {}).get("base")
    if base:
        return geometry_path(str(base))
    raise VariantError(variant, [f"variant {variant!r} has no map drawing (no {own.name} in {GEOMETRY})"])


_CACHE: dict[str, Geometry] = {}


def load_geometry(variant: str) -> Geometry:
    """The drawing of a shipped variant (read once, then cached)."""
    if variant not in _CACHE:
        _CACHE[variant] = parse_geometry(geometry_path(variant).read_text(encoding="utf-8"))
    return _CACHE[variant]


def parse_geometry(text: str) -> Geometry:
    """Read geometry TOML."""
    doc = tomllib.loads(text)
    meta = doc.get("map", {})
    spaces = {}
    for pid, table in doc.get("space", {}).items():
        spaces[pid] = SpaceShape(
            xy=tuple(table["xy"]),
            outline=table["outline"],
            coast_xy={c: tuple(v) for c, v in table.get("coast_xy", {}).items()},
            centre_xy=tuple(table["centre_xy"]) if "centre_xy" in table else None,
            overlay=bool(table.get("overlay", False)),
            offboard=bool(table.get("offboard", False)))
    decor = tuple(Decor(d.get("name", ""), d.get("kind", "land"), d["outline"]) for d in doc.get("decor", []))
    board = tuple(meta["board"]) if "board" in meta else None
    return Geometry(float(meta.get("width", 1200)), float(meta.get("height", 1000)), spaces, decor, board)
