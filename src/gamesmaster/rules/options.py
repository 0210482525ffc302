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
    "koning": (True, False),
    "wells": (True, False),
    "boardman": ("cut", "kept"),
    "miller": (True, False),
    "victory": ("centres", "units", "majority", "majority-winter"),
    "deadlock": ("never", "draw", "ask-gm"),
    "deadlock_years": tuple(range(1, 100)),
    "von_metzke": (True, False),
    "brannan_a": (True, False),
    "disrupted_cuts_support": (True, False),
    "disrupted_stands_off": (True, False),
    "adjacent_convoy": ("intent", "explicit", "forbidden", "opposite"),
    "convoy_routes": ("any-route", "every-route", "ambiguous"),
    "auto_retreat": ("never", "single", "single-unless-disbanded"),
    "retreat_clash": ("disband-all", "calhamer"),
    "standoff_bars": ("all", "participants"),
    "coastal_crawl": (True, False),
    "crawling_retreat": (True, False),
    "spring_raid": (True, False),
    "removals": ("2023", "1971", "graustark", "erehwon", "brobdingnag", "gm"),
    "yolo": (True, False),
    "gilliland": ("protected", "chalker"),
    "guard_swap": (True, False),
    "convoy_swap": (True, False),
    "coastal_convoy": (True, False),
    "kolin": (True, False),
    "convoy_paradox": ("szykman", "rule-1982", "rule-2000", "rule-1971"),
    "retreat_to_convoy_origin": (True, False),
    "dislodged_bounce": ("head-to-head", "always"),
    "coast_omitted": ("follow", "fail"),
    "coast_impossible": ("illegal", "ignore"),
    "two_orders": ("invalid", "first", "last"),
    "excess_adjustments": ("first", "none"),
    "civil_disorder_support": (True, False),
    "missed_move": ("phase", "season"),
    "last_year": (None,),  # or any game year up to LAST_YEAR_MOST: the short game (rulebook III)
}
LAST_YEAR_MOST = 99_999  # as a game's end year: a bigger number is no game year and overflows the stores


@dataclass(frozen=True)
class RuleOptions:
    """The rules a game is played by; the defaults are the 2023 rulebook read by the DATC.

    The names follow seed 004 (Brobdingnag #84) and DATC v3.0 section 4; each option's
    seed section, values and explanation are in gamesmaster/variants/presets/options.toml.
    """

    preset: str = "2023"
    koning: bool = True  # s1
    wells: bool = True  # s2
    boardman: str = "cut"  # s3
    miller: bool = False  # s3
    victory: str = "centres"  # s4
    deadlock: str = "never"  # s5
    deadlock_years: int = 3  # s5
    von_metzke: bool = False  # s8
    brannan_a: bool = False  # s10
    disrupted_cuts_support: bool = False  # s10 (Brannan B)
    disrupted_stands_off: bool = False  # s10 (Brobdingnag's extension)
    adjacent_convoy: str = "intent"  # s11, DATC 4.A.3
    convoy_routes: str = "any-route"  # s12, DATC 4.A.1
    auto_retreat: str = "never"  # s16
    retreat_clash: str = "disband-all"  # s17
    standoff_bars: str = "all"  # s18
    coastal_crawl: bool = False  # s20, DATC 6.B.13
    crawling_retreat: bool = False  # s21, DATC 6.H.15
    spring_raid: bool = False  # s23
    removals: str = "2023"  # s24, DATC 4.D.8
    yolo: bool = False  # s25
    gilliland: str = "protected"  # s26
    guard_swap: bool = False  # s29
    convoy_swap: bool = True  # s30
    coastal_convoy: bool = False  # s31
    kolin: bool = False  # s32
    convoy_paradox: str = "szykman"  # DATC 4.A.2
    retreat_to_convoy_origin: bool = True  # DATC 4.A.5
    dislodged_bounce: str = "head-to-head"  # DATC 4.A.7
    coast_omitted: str = "follow"  # DATC 4.B.2
    coast_impossible: str = "illegal"  # DATC 4.B.3
    two_orders: str = "invalid"  # DATC 4.D.3
    excess_adjustments: str = "first"  # DATC 4.D.4-4.D.6
    civil_disorder_support: bool = True  # DATC 4.D.9
    missed_move: str = "phase"  # 1971 XIV.3: how long a missed move's civil disorder lasts
    last_year: int | None = None  # rulebook III: the short game's agreed last year

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name == "preset":
                continue
            value = getattr(self, f.name)
            if (f.name == "last_year" and isinstance(value, int) and not isinstance(value, bool)
                    and 0 < value <= LAST_YEAR_MOST):
                continue
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
