"""The board: provinces, coasts and which unit can move where."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable, Mapping, NamedTuple


class Terrain(str, Enum):
    """What kind of space a province is (rulebook VI.1)."""

    LAND = "land"
    COAST = "coast"
    SEA = "sea"
    IMPASSABLE = "impassable"


class UnitType(str, Enum):
    """An army or a fleet."""

    ARMY = "A"
    FLEET = "F"

    @property
    def word(self) -> str:
        """The unit type as a word: 'army' or 'fleet'."""
        return "army" if self is UnitType.ARMY else "fleet"


class Location(NamedTuple):
    """A province, with the coast a fleet is on where the province has two."""

    province: str
    coast: str | None = None

    def __str__(self) -> str:
        province, coast = self  # unpacked: a named field is a property call
        return f"{province}/{coast}" if coast else province

    @classmethod
    def parse(cls, text: str) -> "Location":
        """Read 'STP/SC' or 'stp' into a Location (ids only, no names)."""
        text = text.strip().upper()
        if "/" in text:
            province, coast = text.split("/", 1)
            return cls(province, coast)
        return cls(text)


COAST_NAMES = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}


@dataclass(frozen=True)
class Province:
    """One space of the board."""

    id: str
    name: str
    terrain: Terrain
    supply_centre: bool = False
    coasts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    convoys: bool = True  # a sea space through which fleets may convoy
    xy: tuple[float, float] | None = None

    @property
    def is_sea(self) -> bool:
        """True for a body of water."""
        return self.terrain is Terrain.SEA


@dataclass(frozen=True)
class Map:
    """The provinces and the army and fleet adjacency between them."""

    provinces: Mapping[str, Province]
    army_edges: Mapping[str, frozenset[str]]
    fleet_edges: Mapping[Location, frozenset[Location]]
    _fleet_provinces: Mapping[str, tuple[Location, ...]] = field(default_factory=dict)
    _sea_adjacency: Mapping[str, frozenset[str]] = field(default_factory=dict)
    _convoy_seas: frozenset[str] = frozenset()
    _supply_centres: frozenset[str] = frozenset()
    # The neighbours in id order, kept sorted once: every retreat phase lists them.
    _army_neighbours: Mapping[str, tuple[Location, ...]] = field(default_factory=dict)
    _fleet_neighbours: Mapping[Location, tuple[Location, ...]] = field(default_factory=dict)
    # The provinces a fleet can sail into from each location (any coast of them): support and
    # legality ask it for every order.
    _fleet_reach: Mapping[Location, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, provinces: Iterable[Province], army: Iterable[tuple[str, str]],
              fleet: Iterable[tuple[Location, Location]]) -> "Map":
        """Make a map from provinces and (symmetric) edge lists."""
        provs = {p.id: p for p in provinces}
        army_edges: dict[str, set[str]] = {}
        for a, b in army:
            army_edges.setdefault(a, set()).add(b)
            army_edges.setdefault(b, set()).add(a)
        fleet_edges: dict[Location, set[Location]] = {}
        for here, there in fleet:
            fleet_edges.setdefault(here, set()).add(there)
            fleet_edges.setdefault(there, set()).add(here)
        by_province: dict[str, list[Location]] = {}
        sea_adjacency: dict[str, set[str]] = {}
        for loc, targets in fleet_edges.items():
            by_province.setdefault(loc.province, []).append(loc)
            sea_adjacency.setdefault(loc.province, set()).update(t.province for t in targets)
        return cls(
            provinces=provs,
            army_edges={k: frozenset(v) for k, v in army_edges.items()},
            fleet_edges={k: frozenset(v) for k, v in fleet_edges.items()},
            _fleet_provinces={k: tuple(sorted(v, key=str)) for k, v in by_province.items()},
            _sea_adjacency={k: frozenset(v) for k, v in sea_adjacency.items()},
            _convoy_seas=frozenset(p.id for p in provs.values() if p.is_sea and p.convoys),
            _supply_centres=frozenset(p.id for p in provs.values() if p.supply_centre),
            _army_neighbours={k: tuple(Location(p) for p in sorted(v)) for k, v in army_edges.items()},
            _fleet_neighbours={k: tuple(sorted(v, key=str)) for k, v in fleet_edges.items()},
            _fleet_reach={k: frozenset(t.province for t in v) for k, v in fleet_edges.items()},
        )

    def province(self, pid: str) -> Province:
        """The province with this id (KeyError if there is none)."""
        return self.provinces[pid]

    def name(self, loc: Location | str) -> str:
        """The full name of a location, with its coast: 'Spain (north coast)'."""
        if isinstance(loc, str):
            loc = Location.parse(loc)
        name = self.provinces[loc.province].name
        if loc.coast:
            return f"{name} ({COAST_NAMES.get(loc.coast, loc.coast.lower())})"
        return name

    def fleet_locations(self, pid: str) -> tuple[Location, ...]:
        """Where a fleet can be in this province: each coast, or the province itself."""
        return self._fleet_provinces.get(pid, ())

    def can_hold(self, unit_type: UnitType, loc: Location) -> bool:
        """Whether a unit of this type can stand at this location."""
        prov = self.provinces.get(loc.province)
        if prov is None:
            return False
        if unit_type is UnitType.ARMY:
            return loc.coast is None and prov.terrain in (Terrain.LAND, Terrain.COAST)
        return loc in self.fleet_edges

    def army_adjacent(self, a: str, b: str) -> bool:
        """Whether an army can march from province a to province b."""
        return b in self.army_edges.get(a, ())

    def fleet_adjacent(self, a: Location, b: Location) -> bool:
        """Whether a fleet at a can sail to b (coasts must match exactly)."""
        return b in self.fleet_edges.get(a, ())

    def fleet_targets(self, src: Location, dest_province: str) -> tuple[Location, ...]:
        """The locations of dest_province a fleet at src can sail to."""
        return tuple(loc for loc in self.fleet_edges.get(src, ()) if loc.province == dest_province)

    def can_reach(self, unit_type: UnitType, src: Location, dest_province: str) -> bool:
        """Whether the unit could move into the province by itself (coast ignored).

        This is the test for support (rulebook IX.1 and VII.3.b): a fleet that can
        reach either coast of a province may support into the whole province.
        """
        if unit_type is UnitType.ARMY:
            return dest_province in self.army_edges.get(src.province, ())
        return dest_province in self._fleet_reach.get(src, ())

    def neighbours(self, unit_type: UnitType, src: Location) -> tuple[Location, ...]:
        """Every location the unit can move to by itself, in id order."""
        if unit_type is UnitType.ARMY:
            return self._army_neighbours.get(src.province, ())
        return self._fleet_neighbours.get(src, ())

    def convoy_seas(self) -> frozenset[str]:
        """The sea provinces through which an army can be convoyed."""
        return self._convoy_seas

    def supply_centres(self) -> frozenset[str]:
        """The provinces that are supply centres."""
        return self._supply_centres

    def sea_neighbours(self, pid: str) -> frozenset[str]:
        """Provinces joined to pid by a fleet move from any of its locations."""
        return self._sea_adjacency.get(pid, frozenset())
