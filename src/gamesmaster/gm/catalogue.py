"""What a game can be made of: the shipped variants, the rule presets and the options, for the doors.

The create forms (the GM console, the API, the live table) offer these choices, and the
rules page explains a game's options in the catalogue's words; both come from here, as
typed values, so that no door reads the variant and preset files itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Mapping

from ..rules import OptionError, PositionError, RuleOptions, Variant, Victory, victory
from ..rules.position import power_id
from ..variants import VariantError, load_rules, load_variant, load_variant_file, preset_names, variant_names
from ..variants.judge_map import install_map as import_judge_map
from ..variants.loader import variant_path
from ..variants.presets import describe_rules, options_catalogue, preset_title, value_key
from .errors import GMError
from .settings import OptionValue, RuleSpec

__all__ = ["Choices", "FixedRule", "OptionEntry", "PresetChoice", "VariantChoice", "VariantError",
           "choices", "import_judge_map", "load_variant", "load_variant_file", "players_line", "rule_lines",
           "rules_for", "seats", "value_key", "variant", "variant_names", "variant_path"]

# The variant file checker (`gamesmaster variant check|show|list`) reads shipped variants and
# files through these, and reports every problem a VariantError lists, one a line with its
# line number: the variants package's own validator, passed through here for the doors.



@dataclass(frozen=True)
class VariantChoice:
    """A shipped variant as a create form offers it."""

    name: str
    title: str
    powers: tuple[str, ...]
    default_rules: str
    players: str = ""  # who plays it: players_line()
    victory: str = ""  # what wins under its default rules: Victory.headline


@dataclass(frozen=True)
class PresetChoice:
    """A rule preset: its name, its title line and the option values it sets."""

    name: str
    title: str
    options: RuleOptions


@dataclass(frozen=True)
class OptionEntry:
    """One rule option as the catalogue explains it; `values` maps each value key to its line."""

    name: str
    title: str
    section: str
    explanation: str
    values: tuple[tuple[str, str], ...]
    range: tuple[int, int] | None  # an option taking a whole number: its bounds, and value_text says it
    value_text: str | None


@dataclass(frozen=True)
class FixedRule:
    """A rule no option changes, as the rules page lists it."""

    title: str
    section: str
    text: str  # the rule, as the rulebook (or its seed) has it


@dataclass(frozen=True)
class Choices:
    """Every variant, preset and option a game can be made of, in the order the forms list them."""

    variants: tuple[VariantChoice, ...]
    presets: tuple[PresetChoice, ...]
    options: tuple[OptionEntry, ...]
    fixed: tuple[FixedRule, ...]

    def option(self, name: str) -> OptionEntry:
        """The catalogue's entry for one option."""
        return next(o for o in self.options if o.name == name)

    def preset(self, name: str) -> PresetChoice | None:
        """A shipped preset by name (None: not a shipped preset)."""
        return next((p for p in self.presets if p.name == name), None)


def choices() -> Choices:
    """The variants (shipped and installed) and presets and the option catalogue."""
    # Keyed by the variant names, so a map imported while the site runs is offered at once.
    return _choices(tuple(variant_names()))


@cache
def _choices(variant_list: tuple[str, ...]) -> Choices:
    """The catalogue for these variants (read once per set of names: the files do not change)."""
    cat = options_catalogue()
    names = [n for n in RuleOptions().as_dict() if n != "preset"]
    options = []
    for n in names:
        e = cat["option"][n]
        low, high = e["range"] if "range" in e else (None, None)
        options.append(OptionEntry(n, e["title"], e["section"], e["explanation"],
                                   tuple((str(k), str(v)) for k, v in e.get("values", {}).items()),
                                   (int(low), int(high)) if low is not None and high is not None else None,
                                   e.get("value")))
    variants = []
    for v in variant_list:
        var = load_variant(v)
        variants.append(VariantChoice(v, var.title, tuple(var.powers), var.default_rules,
                                      players_line(var), default_victory(var).headline))
    return Choices(variants=tuple(variants),
                   presets=tuple(PresetChoice(n, preset_title(n), load_rules(n)) for n in preset_names()),
                   options=tuple(options),
                   fixed=tuple(FixedRule(e["title"], e["section"], e["explanation"])
                               for e in cat.get("fixed", {}).values()))


def variant(name: str) -> Variant:
    """A shipped variant by name; GMError names the known ones when there is no such variant."""
    try:
        return load_variant(name)
    except VariantError as exc:
        raise GMError(str(exc)) from None


def power_named(variant: Variant, name: str) -> str:
    """The power a player names ('england', 'English', an alias); GMError lists the variant's powers if none."""
    try:
        return power_id(variant, name)
    except PositionError as exc:
        raise GMError(str(exc)) from None


def rules_for(variant_name: str, preset: str | None, overrides: Mapping[str, OptionValue]) -> RuleSpec:
    """The rules a create form asks for: the preset (default: the variant's) with the options it changes.

    GMError names an unknown variant or preset, or an option that does not read."""
    default = variant(variant_name).default_rules
    rules = RuleSpec.named(preset or default, overrides) if overrides else RuleSpec(preset)
    try:
        rules.options(default)
    except VariantError as exc:
        raise GMError(str(exc)) from None
    return rules


def seats(variant: Variant) -> tuple[str, ...]:
    """The players a set-up is for, by name: its [[player]] groups, else every power that is not neutral."""
    if variant.players:
        return tuple(name for name, _ in variant.players)
    return tuple(p.name for pid, p in variant.powers.items() if pid not in variant.neutral)


def players_line(variant: Variant) -> str:
    """Who plays a variant, in a few words: "7 players", "2 players (France, Austria; 5 powers neutral)"."""
    names = seats(variant)
    text = f"{len(names)} player{'s' if len(names) != 1 else ''}"
    if len(names) == len(variant.powers):
        return text
    many = len(variant.neutral)
    neutral = f"; {many} power{'s' if many != 1 else ''} neutral" if many else ""
    return f"{text} ({', '.join(names)}{neutral})"


def default_victory(variant: Variant) -> Victory:
    """The victory criterion a set-up is played to under its default rules (what `variant list` states);
    a file naming no known preset is stated under the 2023 rules, which a game would have to name."""
    try:
        return victory(variant, load_rules(variant.default_rules))
    except OptionError:
        return victory(variant, RuleOptions())


def rule_lines(options: RuleOptions) -> tuple[str, ...]:
    """The options in force, one plain line each ("Title: what it means"), in the catalogue's order."""
    return tuple(describe_rules(options))
