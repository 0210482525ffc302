"""A variant: a map, its powers and their starting position."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .geography import Location, Map, UnitType
from .phase import Phase


@dataclass(frozen=True)
class Power:
    """One of the Great Powers."""

    id: str  # "ENGLAND"
    name: str  # "England"
    adjective: str  # "English"
    home_centres: tuple[str, ...]
    colour: str = "#888888"
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Variant:
    """Everything that describes a game board before play begins."""

    name: str
    title: str
    map: Map
    powers: Mapping[str, Power]
    start: Phase
    start_units: Mapping[str, tuple[tuple[UnitType, Location], ...]]
    victory_centres: int
    default_rules: str = "2023"
    victory_rule: str | None = None  # a set-up's own criterion (two players: 24 units), else the rule set's
    # Player-count set-ups (rulebook XIV.2): powers nobody plays, whose units hold and are
    # disbanded if dislodged; provinces no unit may enter while a given power is neutral;
    # and which powers each player commands.
    neutral: tuple[str, ...] = ()
    closed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    players: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # A neutral power that joins the winner of a coin toss (two players: Italy, tossed
    # before the W1914A adjustments, joins in S1915M): power, toss phase, joining phase.
    coin_toss: tuple[str, str, str] | None = None
    # A map rule of the judges' maps (BUILD_ANY): builds in any owned supply centre, not only at home.
    build_anywhere: bool = False

    @property
    def supply_centres(self) -> frozenset[str]:
        """Every supply centre on the board."""
        return frozenset(p.id for p in self.map.provinces.values() if p.supply_centre)
