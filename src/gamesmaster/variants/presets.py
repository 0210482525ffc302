"""Rule presets: named sets of rule options, read from data files."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Mapping

from ..rules.options import OptionError, RuleOptions

PRESETS = Path(__file__).with_name("presets")


def preset_names() -> list[str]:
    """The presets shipped with gamesmaster."""
    return sorted(p.stem for p in PRESETS.glob("*.toml"))


def load_preset(name: str) -> RuleOptions:
    """The options of a named preset (OptionError if there is no such preset)."""
    key = str(name).strip().lower()
    path = PRESETS / f"{key}.toml"
    if not path.is_file():
        raise OptionError(f"unknown rule preset {name!r} (known: {', '.join(preset_names())})")
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    values = doc.get("options", {})
    return RuleOptions().with_values(values, preset=key)


def load_rules(spec: str | Mapping[str, Any] | None = None, default: str = "2023") -> RuleOptions:
    """Rule options from a preset name, or an object {"preset": ..., option: value, ...}."""
    if spec is None:
        return load_preset(default)
    if isinstance(spec, str):
        return load_preset(spec)
    if not isinstance(spec, Mapping):
        raise OptionError(f"rules must be a preset name or an object of options, not {spec!r}")
    values = dict(spec)
    base = load_preset(str(values.pop("preset", default)))
    return base.with_values(values)
