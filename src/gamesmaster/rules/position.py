"""The position: units on the board, supply centre ownership, what must retreat."""

from __future__ import annotations

from collections import abc  # isinstance against typing's aliases is several times slower
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Mapping

from .geography import Location, Map, UnitType
from .phase import Phase, PhaseError
from .variant import Variant


class PositionError(ValueError):
    """A position description that cannot be a real position (names what is wrong)."""


@dataclass(frozen=True, slots=True)
class Unit:
    """An army or fleet of a power at a location."""

    power: str
    type: UnitType
    location: Location

    @property
    def province(self) -> str:
        """The province the unit occupies."""
        return self.location.province

    def __str__(self) -> str:
        # The letter without Enum.value (a descriptor call): every order and position written out
        # writes its units.
        province, coast = self.location
        letter = "A " if self.type is UnitType.ARMY else "F "
        return f"{letter}{province}/{coast}" if coast else letter + province


@dataclass(frozen=True, slots=True)
class Dislodgement:
    """A unit dislodged in the last movement, waiting to retreat."""

    unit: Unit
    attacker: str | None  # province the dislodging unit came from
    convoyed: bool = False  # the dislodging army came by convoy
    retreats: tuple[Location, ...] | None = None  # None: work them out from the position


@dataclass(frozen=True)
class Position:
    """Where everything stands at the start of a phase."""

    variant: Variant
    phase: Phase
    units: Mapping[str, Unit]  # by province
    centres: Mapping[str, str]  # owned supply centre -> power
    dislodged: tuple[Dislodgement, ...] = ()
    standoffs: frozenset[str] = frozenset()
    # Spring visitors to supply centres, for rules that care (Miller's spring raid).
    raids: Mapping[str, str] = field(default_factory=dict)
    # Units destroyed in the field, by power, for the you-only-live-once game (seed 004 s25).
    destroyed: Mapping[str, int] = field(default_factory=dict)
    # Powers nobody plays (player-count set-ups); None means the variant's own list.
    neutral_powers: frozenset[str] | None = None

    @cached_property
    def neutral(self) -> frozenset[str]:
        """Powers whose units only hold, are disbanded if dislodged and never build."""
        if self.neutral_powers is None:
            return frozenset(self.variant.neutral)
        return self.neutral_powers

    @cached_property
    def closed(self) -> frozenset[str]:
        """Provinces no unit may enter now (a neutral power's territory, rulebook XIV.2)."""
        return frozenset(p for power, provinces in self.variant.closed.items()
                         if power in self.neutral for p in provinces)

    @cached_property
    def map(self) -> Map:
        """The variant's map."""
        return self.variant.map

    @cached_property
    def fleets_at_sea(self) -> frozenset[str]:
        """Sea provinces holding a fleet that could convoy."""
        seas = self.variant.map.convoy_seas()
        return frozenset(p for p, u in self.units.items() if p in seas and u.type is UnitType.FLEET)

    def units_of(self, power: str) -> list[Unit]:
        """A power's units on the board, in province order."""
        return sorted((u for u in self.units.values() if u.power == power), key=lambda u: u.province)

    def centres_of(self, power: str) -> list[str]:
        """A power's supply centres, sorted."""
        return sorted(p for p, owner in self.centres.items() if owner == power)

    def unit_at(self, province: str) -> Unit | None:
        """The unit in a province, if any."""
        return self.units.get(province)

    def powers_alive(self) -> list[str]:
        """Powers with a unit or a centre."""
        alive = {u.power for u in self.units.values()} | set(self.centres.values())
        return [p for p in self.variant.powers if p in alive]

    # -- the machine interface's schema ------------------------------------------------

    @classmethod
    def initial(cls, variant: Variant) -> "Position":
        """The variant's starting position."""
        units = {}
        for power, placed in variant.start_units.items():
            for utype, loc in placed:
                units[loc.province] = Unit(power, utype, loc)
        centres = {c: p.id for p in variant.powers.values() for c in p.home_centres}
        return cls(variant, variant.start, units, centres)

    @classmethod
    def from_dict(cls, variant: Variant, doc: Mapping[str, Any]) -> "Position":
        """Read the `gamesmaster adjudicate` schema; PositionError names any problem."""
        try:
            phase = Phase.parse(str(doc.get("phase", variant.start)))
        except PhaseError as exc:
            raise PositionError(str(exc)) from None
        units: dict[str, Unit] = {}
        known = _known_units(variant)
        for power, listed in _power_table(variant, doc.get("units", {}), "units").items():
            for text in _list(listed, f"units of {power}"):
                unit = known.get((power, text)) if type(text) is str else None
                if unit is None:
                    unit = read_unit(variant, power, text)
                    if type(text) is str and len(known) < _KNOWN_UNITS:
                        known[(power, text)] = unit
                if unit.province in units:
                    raise PositionError(f"two units in one space: {units[unit.province]} and {unit} in {unit.province}")
                units[unit.province] = unit
        centres: dict[str, str] = {}
        for power, listed in _power_table(variant, doc.get("centers", {}), "centers").items():
            for text in _list(listed, f"centers of {power}"):
                pid = _province_id(variant, text, f"centers of {power}")
                if not variant.map.provinces[pid].supply_centre:
                    raise PositionError(f"centers of {power}: {pid} is not a supply centre")
                if pid in centres and centres[pid] != power:
                    raise PositionError(f"supply centre {pid} is owned by both {centres[pid]} and {power}")
                centres[pid] = power
        dislodged: list[Dislodgement] = []
        for power, listed in _power_table(variant, doc.get("dislodged", {}), "dislodged").items():
            for entry in _list(listed, f"dislodged of {power}"):
                dislodged.append(_read_dislodgement(variant, power, entry))
        seen = {d.unit.province for d in dislodged}
        if len(seen) != len(dislodged):
            raise PositionError("two dislodged units in one space")
        standoffs = frozenset(_province_id(variant, s, "standoffs") for s in _list(doc.get("standoffs", []), "standoffs"))
        raids = {_province_id(variant, c, "raids"): power_id(variant, p)
                 for c, p in _mapping(doc.get("raids", {}), "raids").items()}
        destroyed = {}
        for p, n in _mapping(doc.get("destroyed", {}), "destroyed").items():
            if not isinstance(n, int) or n < 0:
                raise PositionError(f"destroyed: {p!r} must be a count of units, not {n!r}")
            destroyed[power_id(variant, p)] = n
        neutral = None
        if "neutral" in doc:
            neutral = frozenset(power_id(variant, p) for p in _list(doc["neutral"], "neutral"))
        return cls(variant, phase, units, centres, tuple(dislodged), standoffs, raids, destroyed, neutral)

    def to_dict(self) -> dict[str, Any]:
        """This position in the `gamesmaster adjudicate` schema (no orders)."""
        powers = self.variant.powers
        # One pass each, in province order (as units_of and centres_of give them).
        listed: dict[str, list[str]] = {}
        for pid in sorted(self.units):
            unit = self.units[pid]
            listed.setdefault(unit.power, []).append(str(unit))
        owned: dict[str, list[str]] = {}
        for pid in sorted(self.centres):
            owned.setdefault(self.centres[pid], []).append(pid)
        units = {p: listed[p] for p in powers if p in listed}
        centres = {p: owned[p] for p in powers if p in owned}
        dislodged: dict[str, list[dict[str, Any]]] = {}
        for d in sorted(self.dislodged, key=lambda d: d.unit.province):
            entry: dict[str, Any] = {"unit": str(d.unit), "attacker": d.attacker}
            if d.convoyed:
                entry["convoyed"] = True
            entry["retreats"] = [str(loc) for loc in d.retreats or ()]
            dislodged.setdefault(d.unit.power, []).append(entry)
        return {
            "variant": self.variant.name,
            "phase": str(self.phase),
            "units": {p: v for p, v in units.items() if v},
            "centers": {p: v for p, v in centres.items() if v},
            "dislodged": dislodged,
            "standoffs": sorted(self.standoffs),
            **({"raids": dict(sorted(self.raids.items()))} if self.raids else {}),
            **({"destroyed": {p: n for p, n in self.destroyed.items() if n}} if any(self.destroyed.values()) else {}),
            **({"neutral": sorted(self.neutral)} if self.variant.neutral or self.neutral else {}),
        }


def power_id(variant: Variant, name: Any) -> str:
    """The power id for a case-insensitive name ('england', 'England' -> 'ENGLAND')."""
    key = str(name).strip().upper()
    if key in variant.powers:
        return key
    for power in variant.powers.values():
        if key in {power.name.upper(), power.adjective.upper(), *(a.upper() for a in power.aliases)}:
            return power.id
    raise PositionError(f"unknown power {name!r} (this variant has {', '.join(variant.powers)})")


def read_unit(variant: Variant, power: str, text: Any) -> Unit:
    """Read 'A PAR' / 'F STP/SC' (ids, any case) as a unit of power."""
    parts = str(text).split()
    if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
        raise PositionError(f"unit {text!r} of {power}: write it as 'A PAR' or 'F STP/SC'")
    utype = UnitType(parts[0].upper())
    loc = Location.parse(parts[1])
    if loc.province not in variant.map.provinces:
        raise PositionError(f"unit {text!r} of {power}: unknown location {parts[1]!r}")
    if utype is UnitType.FLEET and loc.coast is None and len(variant.map.fleet_locations(loc.province)) > 1:
        raise PositionError(f"unit {text!r} of {power}: a fleet in {loc.province} must name its coast")
    if not variant.map.can_hold(utype, loc):
        raise PositionError(f"unit {text!r} of {power}: {'an army' if utype is UnitType.ARMY else 'a fleet'} cannot be at {loc}")
    return Unit(power, utype, loc)


def _read_dislodgement(variant: Variant, power: str, entry: Any) -> Dislodgement:
    if isinstance(entry, str):
        entry = {"unit": entry}
    if not isinstance(entry, abc.Mapping) or "unit" not in entry:
        raise PositionError(f"dislodged of {power}: each entry needs a 'unit', got {entry!r}")
    unit = read_unit(variant, power, entry["unit"])
    attacker = entry.get("attacker")
    if attacker is not None:
        attacker = _province_id(variant, attacker, f"attacker of dislodged {unit}")
    retreats: tuple[Location, ...] | None = None
    if "retreats" in entry and entry["retreats"] is not None:
        retreats = tuple(Location.parse(str(r)) for r in _list(entry["retreats"], f"retreats of {unit}"))
        for r in retreats:
            if r.province not in variant.map.provinces:
                raise PositionError(f"retreats of {unit}: unknown location {str(r)!r}")
    return Dislodgement(unit, attacker, bool(entry.get("convoyed", False)), retreats)


def _power_table(variant: Variant, table: Any, what: str) -> dict[str, Any]:
    if table is None:
        return {}
    if not isinstance(table, abc.Mapping):
        raise PositionError(f"{what} must be an object keyed by power, got {type(table).__name__}")
    out: dict[str, Any] = {}
    for name, value in table.items():
        out[power_id(variant, name)] = value
    return out


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, abc.Mapping):
        raise PositionError(f"{what} must be an object, got {value!r}")
    return value


def _list(value: Any, what: str) -> Iterable[Any]:
    if not isinstance(value, (list, tuple)):
        raise PositionError(f"{what} must be a list, got {value!r}")
    return value


# Units as the schema writes them ("A PAR" of FRANCE), read once per variant: a door
# reads thousands of positions made of the same few hundred.
_UNIT_TABLES: dict[int, tuple[Variant, dict[tuple[str, str], Unit]]] = {}
_KNOWN_UNITS = 8192  # any text may be sent: the table stays bounded


def _known_units(variant: Variant) -> dict[tuple[str, str], Unit]:
    entry = _UNIT_TABLES.get(id(variant))
    if entry is None or entry[0] is not variant:
        entry = _UNIT_TABLES[id(variant)] = (variant, {})
    return entry[1]


def _province_id(variant: Variant, text: Any, what: str) -> str:
    if type(text) is str and text in variant.map.provinces:
        return text  # an id as the schema writes it
    pid = str(text).strip().upper().split("/")[0]
    if pid not in variant.map.provinces:
        raise PositionError(f"{what}: unknown location {text!r}")
    return pid
