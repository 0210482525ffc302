"""Orders as values, and their canonical written form ('A PAR - BUR')."""

from __future__ import annotations

from dataclasses import dataclass

from .geography import Location, UnitType
from .position import Unit


@dataclass(frozen=True, slots=True)
class Order:
    """Any order: the common base of the order types (never given by itself)."""


@dataclass(frozen=True, slots=True)
class UnitOrder(Order):
    """An order to one unit: every order but a waive."""

    unit: Unit

    @property
    def power(self) -> str:
        """The power whose unit it is."""
        return self.unit.power


@dataclass(frozen=True, slots=True)
class Hold(UnitOrder):
    """The unit stands in place."""

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move(UnitOrder):
    """The unit moves (attacks) a space; an army may go by convoy."""

    dest: Location
    via_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit} - {self.dest}" + (" VIA" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class Support(UnitOrder):
    """The unit supports another unit holding (dest None) or moving to dest."""

    supported: Unit
    dest: Location | None = None

    def __str__(self) -> str:
        if self.dest is None:
            return f"{self.unit} S {self.supported}"
        return f"{self.unit} S {self.supported} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Convoy(UnitOrder):
    """A fleet at sea convoys an army from its province to dest."""

    army: Unit
    dest: Location

    def __str__(self) -> str:
        return f"{self.unit} C {self.army} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Retreat(UnitOrder):
    """A dislodged unit retreats to dest."""

    dest: Location

    def __str__(self) -> str:
        return f"{self.unit} R {self.dest}"


@dataclass(frozen=True, slots=True)
class Disband(UnitOrder):
    """A dislodged unit is disbanded instead of retreating."""

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build(UnitOrder):
    """A new unit is raised in a home supply centre."""

    def __str__(self) -> str:
        return f"{self.unit} B"


@dataclass(frozen=True, slots=True)
class Remove(UnitOrder):
    """A unit is removed in the adjustments."""

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Waive(Order):
    """A power declines a build it is entitled to."""

    power: str

    def __str__(self) -> str:
        return "WAIVE"


MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Waive)


def format_order(order: Order) -> str:
    """The canonical written form, which parse_order reads back to the same order."""
    return str(order)


def describe_unit(unit: Unit) -> str:
    """A short player-facing name: 'A Mun', 'F StP/sc'."""
    province, coast = unit.location
    letter = "A " if unit.type is UnitType.ARMY else "F "
    if coast:
        return f"{letter}{province.capitalize()}/{coast.lower()}"
    return letter + province.capitalize()


def short(loc: Location | str) -> str:
    """A location as players abbreviate it: 'Mun', 'Spa/nc'."""
    loc = Location.parse(loc) if isinstance(loc, str) else loc
    return loc.province.capitalize() + (f"/{loc.coast.lower()}" if loc.coast else "")


def describe_order(order: Order) -> str:
    """An order in the short player-facing form: 'A Boh - Sil'."""
    if not isinstance(order, UnitOrder):
        return "waive"
    u = describe_unit(order.unit)
    if isinstance(order, Hold):
        return f"{u} holds"
    if isinstance(order, Move):
        return f"{u} - {short(order.dest)}" + (" by convoy" if order.via_convoy else "")
    if isinstance(order, Support):
        if order.dest is None:
            return f"{u} S {describe_unit(order.supported)}"
        return f"{u} S {describe_unit(order.supported)} - {short(order.dest)}"
    if isinstance(order, Convoy):
        return f"{u} C {describe_unit(order.army)} - {short(order.dest)}"
    if isinstance(order, Retreat):
        return f"{u} retreats to {short(order.dest)}"
    if isinstance(order, Disband):
        return f"{u} disbands"
    if isinstance(order, Build):
        return f"build {u}"
    return f"remove {u}"

