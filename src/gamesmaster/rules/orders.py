"""Orders as values, and their canonical written form ('A PAR - BUR')."""

from __future__ import annotations

from dataclasses import dataclass

from .geography import Location
from .position import Unit


@dataclass(frozen=True, slots=True)
class Hold:
    """The unit stands in place."""

    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move:
    """The unit moves (attacks) a space; an army may go by convoy."""

    unit: Unit
    dest: Location
    via_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit} - {self.dest}" + (" VIA" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class Support:
    """The unit supports another unit holding (dest None) or moving to dest."""

    unit: Unit
    supported: Unit
    dest: Location | None = None

    def __str__(self) -> str:
        if self.dest is None:
            return f"{self.unit} S {self.supported}"
        return f"{self.unit} S {self.supported} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Convoy:
    """A fleet at sea convoys an army from its province to dest."""

    unit: Unit
    army: Unit
    dest: Location

    def __str__(self) -> str:
        return f"{self.unit} C {self.army} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Retreat:
    """A dislodged unit retreats to dest."""

    unit: Unit
    dest: Location

    def __str__(self) -> str:
        return f"{self.unit} R {self.dest}"


@dataclass(frozen=True, slots=True)
class Disband:
    """A dislodged unit is disbanded instead of retreating."""

    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build:
    """A new unit is raised in a home supply centre."""

    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} B"


@dataclass(frozen=True, slots=True)
class Remove:
    """A unit is removed in the adjustments."""

    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Waive:
    """A power declines a build it is entitled to."""

    power: str

    def __str__(self) -> str:
        return "WAIVE"


Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Remove | Waive
MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Waive)


def format_order(order: Order) -> str:
    """The canonical written form, which parse_order reads back to the same order."""
    return str(order)


def describe_unit(unit: Unit) -> str:
    """A short player-facing name: 'A Mun', 'F StP/sc'."""
    loc = unit.location
    text = loc.province.capitalize()
    if loc.coast:
        text += "/" + loc.coast.lower()
    return f"{unit.type.value} {text}"


def short(loc: Location | str) -> str:
    """A location as players abbreviate it: 'Mun', 'Spa/nc'."""
    loc = Location.parse(loc) if isinstance(loc, str) else loc
    return loc.province.capitalize() + (f"/{loc.coast.lower()}" if loc.coast else "")


def describe_order(order: Order) -> str:
    """An order in the short player-facing form: 'A Boh - Sil'."""
    if isinstance(order, Waive):
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

