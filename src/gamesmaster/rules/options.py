"""The rule options: every disputed point of the rules as a named choice.

The values a preset gives live in data files (gamesmaster/variants/presets); this
module only knows each option's name, its allowed values and the DATC v3.0 default.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping


class OptionError(ValueError):
    """An unknown option name or a value the option does not allow."""


# name -> allowed values (for booleans: (True, False)); the dataclass holds the defaults.
CHOICES: dict[str, tuple[Any, ...]] = {
    "convoy_routes": ("any-route", "every-route", "ambiguous"),
    "convoy_paradox": ("szykman", "rule-1982", "rule-2000", "rule-1971"),
    "adjacent_convoy": ("intent", "explicit", "forbidden"),
    "retreat_to_convoy_origin": (True, False),
    "koning": (True, False),
    "wells": (True, False),
    "boardman": ("cut", "kept"),
    "coast_omitted": ("follow", "fail"),
    "coast_impossible": ("illegal", "ignore"),
    "coastal_crawl": (True, False),
    "two_orders": ("invalid", "first", "last"),
    "excess_adjustments": ("first", "none"),
    "removals": ("2023", "1971"),
    "victory": ("centres",),
}


@dataclass(frozen=True)
class RuleOptions:
    """The rules a game is played by; the defaults are the 2023 rulebook read by the DATC."""

    preset: str = "2023"
    # 4.A.1 / seed 004 s12: when is a convoy with several routes disrupted?
    convoy_routes: str = "any-route"
    # 4.A.2: what settles a convoy paradox.
    convoy_paradox: str = "szykman"
    # 4.A.3 / s11: when does an army moving to an adjacent province go by convoy?
    adjacent_convoy: str = "intent"
    # 4.A.5: may a unit dislodged by a convoyed army retreat to where the army came from?
    retreat_to_convoy_origin: bool = True
    # s1 Koning's rule: a unit dislodged by the unit whose space it attacked cannot stand off a third.
    koning: bool = True
    # s2 Wells' extension: Koning's rule even when the dislodged unit's attack was the stronger.
    wells: bool = True
    # s3 Boardman's dilemma: support from a unit dislodged from the space it supports into.
    boardman: str = "cut"
    # 4.B.2: a fleet's move to a two-coast province naming no coast, where only one is reachable.
    coast_omitted: str = "follow"
    # 4.B.3: a move naming a coast the fleet cannot reach.
    coast_impossible: str = "illegal"
    # 6.B.13 / s20-21: F Por - Spa/nc with F Spa/sc - Por (and the crawling retreat).
    coastal_crawl: bool = False
    # 4.D.3: two different orders for one unit.
    two_orders: str = "invalid"
    # 4.D.4-4.D.6: more builds or removals than allowed.
    excess_adjustments: str = "first"
    # 4.D.8 / s24: which units a power in civil disorder removes.
    removals: str = "2023"
    # s4: the victory criterion.
    victory: str = "centres"

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name == "preset":
                continue
            value = getattr(self, f.name)
            if value not in CHOICES[f.name]:
                allowed = ", ".join(_show(v) for v in CHOICES[f.name])
                raise OptionError(f"rule option {f.name} cannot be {_show(value)}: choose {allowed}")

    def with_values(self, values: Mapping[str, Any], preset: str | None = None) -> "RuleOptions":
        """These options with some values changed; OptionError names a bad name or value."""
        known = {f.name for f in fields(self)} - {"preset"}
        changes: dict[str, Any] = {}
        for name, value in values.items():
            key = name.replace("-", "_")
            if key not in known:
                raise OptionError(f"unknown rule option {name!r} (known: {', '.join(sorted(known))})")
            changes[key] = value
        if preset is not None:
            changes["preset"] = preset
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """Every option and its value."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _show(value: Any) -> str:
    return "true" if value is True else "false" if value is False else repr(value)
