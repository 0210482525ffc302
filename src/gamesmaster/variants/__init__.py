"""Variants (maps and set-ups) and rule presets, read from data files."""

from .loader import VariantError, load_variant, load_variant_file, parse_variant, variant_names
from .geometry import Geometry, load_geometry
from .presets import load_preset, load_rules, preset_names, preset_procedures

__all__ = ["Geometry", "load_geometry", "VariantError", "load_variant", "load_variant_file", "parse_variant", "variant_names",
           "load_preset", "load_rules", "preset_names", "preset_procedures"]
