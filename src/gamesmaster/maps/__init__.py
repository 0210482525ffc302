"""Drawing the board: SVG from the variant's geometry, PNG from the SVG. Uses only rules and variants."""

from .svg import render_map, render_png

__all__ = ["render_map", "render_png"]
