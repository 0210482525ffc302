"""Rule presets: named sets of rule options, read from data files."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Mapping

from ..rules.options import OptionError, RuleOptions

PRESETS = Path(__file__).with_name("presets")


@cache
def _shipped_presets() -> tuple[str, ...]:
    names = [p.stem for p in PRESETS.glob("*.toml") if p.stem != "options"]
    return tuple(sorted(names, key=lambda n: (not n.isdigit(), n)))


def preset_names() -> list[str]:
    """The presets shipped with gamesmaster, rulebooks first in order of date, then the magazines."""
    return list(_shipped_presets())


# Options are immutable values: each preset file is read once per process, and each rules
# object a caller names is built once (a door reads the same few for every document).
_PRESETS: dict[str, RuleOptions] = {}
_RULES: dict[object, RuleOptions] = {}
_RULES_KEPT = 256  # distinct rules objects remembered; callers may send any number


def load_preset(name: str) -> RuleOptions:
    """The options of a named preset (OptionError if there is no such preset)."""
    key = str(name).strip().lower()
    options = _PRESETS.get(key)
    if options is None:
        if key not in _shipped_presets():
            raise OptionError(f"unknown rule preset {name!r} (known: {', '.join(preset_names())})")
        doc = tomllib.loads((PRESETS / f"{key}.toml").read_text(encoding="utf-8"))
        options = _PRESETS[key] = RuleOptions().with_values(doc.get("options", {}), preset=key)
    return options


def preset_procedures(name: str | None) -> dict[str, str]:
    """A preset's gamesmaster's procedures (its `[procedures]` block, e.g. the magazine's replacement policy);
    empty for a preset without one, or no preset."""
    key = str(name or "").strip().lower()
    if key not in _shipped_presets():
        return {}
    doc = tomllib.loads((PRESETS / f"{key}.toml").read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in (doc.get("procedures") or {}).items()}


def _rules_key(spec: str | Mapping[str, Any] | None, default: str) -> object:
    """A hashable key for a rules spec, or None when it has none (it is then built each time)."""
    if spec is None or isinstance(spec, str):
        return (spec, default)
    try:
        # The type is part of the key: {"koning": 1} must not come back as {"koning": true}.
        items = tuple(sorted((k, type(v), v) for k, v in spec.items()))
        hash(items)
    except TypeError:
        return None
    return (items, default)


def load_rules(spec: str | Mapping[str, Any] | None = None, default: str = "2023") -> RuleOptions:
    """Rule options from a preset name, or an object {"preset": ..., option: value, ...}."""
    key = _rules_key(spec, default) if isinstance(spec, (str, Mapping)) or spec is None else None
    options = _RULES.get(key) if key is not None else None
    if options is not None:
        return options
    if spec is None:
        options = load_preset(default)
    elif isinstance(spec, str):
        options = load_preset(spec)
    elif not isinstance(spec, Mapping):
        raise OptionError(f"rules must be a preset name or an object of options, not {spec!r}")
    else:
        values = dict(spec)
        options = load_preset(str(values.pop("preset", default))).with_values(values)
    if key is not None:
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
        _RULES[key] = options
    return options


# ---------------------------------------------------------------------------
# The option catalogue (presets/options.toml) and the rules table generated from it.

CATALOGUE = PRESETS / "options.toml"

REGENERATE = ('.venv/bin/python -c "from gamesmaster.variants.presets import rules_table_markdown as t; '
              "open('docs/rules.md', 'w', encoding='utf-8').write(t())\"")


def options_catalogue() -> dict[str, Any]:
    """The catalogue of rule options: {"option": {name: {...}}, "fixed": {"s9": {...}, ...}}.

    Each option has `section`, `title`, `explanation` and `values` (value key -> one line);
    an option taking a whole number has `range` and a `value` line instead of `values`.
    """
    return tomllib.loads(CATALOGUE.read_text(encoding="utf-8"))


def rule_presets() -> list[str]:
    """The preset names, in order of date: the rulebooks, then the magazines (not the catalogue)."""
    return preset_names()


def preset_title(name: str) -> str:
    """A preset's title line."""
    doc = tomllib.loads((PRESETS / f"{name}.toml").read_text(encoding="utf-8"))
    return str(doc.get("title", name))


def value_key(value: Any) -> str:
    """An option value as the catalogue writes it: "true"/"false" for booleans, "none" for None."""
    return "true" if value is True else "false" if value is False else "none" if value is None else str(value)


def _value_line(entry: Mapping[str, Any], value: Any) -> str:
    key = value_key(value)
    if key in entry.get("values", {}):
        return str(entry["values"][key])
    return str(entry["value"]).replace("{value}", str(value))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def rules_table_markdown() -> str:
    """docs/rules.md: every option (title, section) against every preset, then what the values mean.

    An option a preset leaves unset (None, which TOML cannot write) shows as "none".
    """
    catalogue = options_catalogue()
    options: dict[str, Any] = catalogue["option"]
    names = rule_presets()
    presets = {n: load_preset(n).as_dict() for n in names}
    order = [f for f in RuleOptions().as_dict() if f != "preset"]
    out = [
        "# Rule options and presets",
        "",
        "> Generated from `src/gamesmaster/variants/presets/*.toml` by",
        "> `gamesmaster.variants.presets.rules_table_markdown()`: do not edit by hand. Regenerate with",
        f"> `{REGENERATE}`",
        "",
        "Every disputed point of the rules is a named option; a preset gives every option a value.",
        "Sections \"004 sN\" are the points of Brobdingnag #84 (1968, seed 004); \"DATC 4.x\" are",
        "the issues of the DATC v3.0. A game names a preset and may change single options, e.g.",
        "`{\"preset\": \"graustark\", \"koning\": true}`.",
        "An option a preset leaves unset (TOML has no null) shows as `none`.",
        "",
        "## Presets",
        "",
        "| preset | title |",
        "| --- | --- |",
    ]
    out += [f"| `{n}` | {_cell(preset_title(n))} |" for n in names]
    out += [
        "",
        "## Options by preset",
        "",
        "| option | section | " + " | ".join(f"`{n}`" for n in names) + " |",
        "| --- | --- | " + " | ".join("---" for _ in names) + " |",
    ]
    for name in order:
        entry = options[name]
        cells = " | ".join(value_key(presets[p][name]) for p in names)
        out.append(f"| {_cell(entry['title'])} (`{name}`) | {_cell(entry['section'])} | {cells} |")
    out += ["", "## What the values mean", ""]
    for name in order:
        entry = options[name]
        out += [f"### {entry['title']} (`{name}`, {entry['section']})", "", str(entry["explanation"]), ""]
        out += [f"- `{key}`: {text}" for key, text in entry.get("values", {}).items()]
        if "range" in entry:
            low, high = entry["range"]
            out.append(f"- a whole number N from {low} to {high}: " + _value_line(entry, "N"))
        elif "value" in entry:
            out.append("- a game year N: " + _value_line(entry, "N"))
        out.append("")
    out += ["## Points every preset plays alike", ""]
    for entry in catalogue.get("fixed", {}).values():
        out.append(f"- **{entry['title']}** ({entry['section']}): {entry['explanation']}")
    return "\n".join(out) + "\n"


def describe_rules(options: RuleOptions | Mapping[str, Any]) -> list[str]:
    """The options in force, one plain line each, for a game's rules page.

    `options` is a RuleOptions or a rules object as load_rules takes it ({"preset": ..., option: value}).
    """
    if not isinstance(options, RuleOptions):
        options = load_rules(options)
    values = options.as_dict()
    catalogue = options_catalogue()["option"]
    lines = []
    for name in RuleOptions().as_dict():
        if name == "preset":
            continue
        entry = catalogue[name]
        lines.append(f"{entry['title']}: {_value_line(entry, values[name])}")
    return lines
