#!/usr/bin/env python3
"""Render a geometry file to SVG (and PNG when cairosvg is importable) for a look.

Usage:  python tools/geometry/preview.py standard [out.svg] [--zoom x0,y0,x1,y1] [--grid]

Spaces are filled by terrain (taken from the variant file), labelled at `xy`;
supply centres get a ring at `centre_xy`, two-coast provinces a small marker at
each `coast_xy`, and decor is drawn over the spaces. This is a developer's
preview, not the game's renderer.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "gamesmaster" / "variants" / "data"

FILL = {"sea": "#a9cbe8", "coast": "#efe4c4", "land": "#e3d6a8", "impassable": "#9a9a8a"}


def graticule(name: str) -> list[str]:
    """Meridians and parallels every 5 degrees (a drawing aid for map authors)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import build  # noqa: E402
    proj = build.load_map(name).proj
    out = []
    for lon in range(-60, 91, 5):
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (proj(lon, lat) for lat in range(0, 81)))
        out.append(f'<polyline points="{pts}" fill="none" stroke="#c04040" stroke-width="{0.8 if lon % 10 == 0 else 0.3}" opacity="0.6"/>')
        x, y = proj(lon, 40)
        out.append(f'<text x="{x + 2:.1f}" y="{y - 2:.1f}" font-size="8" fill="#c04040">{lon}</text>')
    for lat in range(0, 81, 5):
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (proj(lon, lat) for lon in range(-60, 91)))
        out.append(f'<polyline points="{pts}" fill="none" stroke="#4040c0" stroke-width="{0.8 if lat % 10 == 0 else 0.3}" opacity="0.6"/>')
        x, y = proj(15, lat)
        out.append(f'<text x="{x + 2:.1f}" y="{y - 2:.1f}" font-size="8" fill="#4040c0">{lat}</text>')
    return out


def render(name: str, zoom: tuple[float, float, float, float] | None = None, grid: bool = False) -> str:
    geo = tomllib.loads((DATA / "geometry" / f"{name}.toml").read_text(encoding="utf-8"))
    var = tomllib.loads((DATA / f"{name}.toml").read_text(encoding="utf-8"))
    W, H = geo["map"]["width"], geo["map"]["height"]
    vb = f"0 0 {W} {H}" if zoom is None else f"{zoom[0]} {zoom[1]} {zoom[2] - zoom[0]} {zoom[3] - zoom[1]}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="{vb}">',
           f'<rect width="{W}" height="{H}" fill="#fff"/>']
    ordered = sorted(geo["space"].items(), key=lambda kv: bool(kv[1].get("overlay")))
    for sid, sp in ordered:
        terrain = var["space"][sid]["terrain"]
        out.append(f'<path d="{sp["outline"]}" fill="{FILL[terrain]}" stroke="#5a4a3a" stroke-width="0.8" stroke-linejoin="round"/>')
    if "board" in geo["map"]:
        x0, y0, x1, y1 = geo["map"]["board"]
        out.append(f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" fill="none" stroke="#333" stroke-width="1.5"/>')
    for d in geo.get("decor", []):
        fill = "#d8d0b8" if d["kind"] == "land" else FILL["sea"]
        out.append(f'<path d="{d["outline"]}" fill="{fill}" stroke="#5a4a3a" stroke-width="0.6"/>')
    for sid, sp in geo["space"].items():
        if "centre_xy" in sp:
            x, y = sp["centre_xy"]
            out.append(f'<circle cx="{x}" cy="{y}" r="4" fill="none" stroke="#b02020" stroke-width="1.6"/>')
        for c, (x, y) in sp.get("coast_xy", {}).items():
            out.append(f'<rect x="{x - 4}" y="{y - 4}" width="8" height="8" fill="#335" opacity="0.6"/>'
                       f'<text x="{x + 6}" y="{y + 3}" font-size="8" font-family="sans-serif">{c}</text>')
        x, y = sp["xy"]
        terrain = var["space"][sid]["terrain"]
        colour = "#1d3f66" if terrain == "sea" else "#222"
        out.append(f'<circle cx="{x}" cy="{y}" r="9" fill="#fff" fill-opacity="0.35" stroke="#777" stroke-width="0.5"/>'
                   f'<text x="{x}" y="{y + 3.5}" font-size="10" text-anchor="middle" font-family="sans-serif" '
                   f'font-weight="bold" fill="{colour}">{sid}</text>')
    if grid:
        out += graticule(name)
    out.append("</svg>")
    return "\n".join(out)


def main(argv: list[str]) -> None:
    zoom = None
    if "--zoom" in argv:
        i = argv.index("--zoom")
        zoom = tuple(float(v) for v in argv[i + 1].split(","))
        del argv[i:i + 2]
    grid = "--grid" in argv
    argv = [a for a in argv if a != "--grid"]
    name = argv[0] if argv else "standard"
    svg_path = Path(argv[1]) if len(argv) > 1 else Path(f"/tmp/geometry-{name}.svg")
    svg = render(name, zoom, grid)
    W = tomllib.loads((DATA / "geometry" / f"{name}.toml").read_text(encoding="utf-8"))["map"]["width"]
    svg_path.write_text(svg, encoding="utf-8")
    print(f"wrote {svg_path}")
    try:
        import cairosvg  # type: ignore
    except ImportError:
        return
    png = svg_path.with_suffix(".png")
    scale = 1.0 if zoom is None else min(3.0, W / (zoom[2] - zoom[0]))
    cairosvg.svg2png(bytestring=svg.encode(), write_to=str(png), scale=scale)
    print(f"wrote {png}")


if __name__ == "__main__":
    main(sys.argv[1:])
