"""Which power controls each land province: what the board is tinted with.

The rulebook gives only supply centres an owner (a centre changes hands when a unit of
another power stands in it after a Fall turn). For the other land provinces this project
defines control so that a nation's territory reads as one area on the map:

- a supply centre is controlled by its owner, and an unowned centre by nobody;
- any other land (or coastal) province is controlled by the power whose unit last stood
  in it at the start of a phase, and stays so after the unit has left, until a unit of
  another power stands there; a province no unit has entered is controlled by nobody;
- sea provinces are never controlled.

Control is only a picture of the game: nothing in the rules depends on it.
"""

from __future__ import annotations

from typing import Iterable

from .geography import Terrain
from .position import Position

__all__ = ["control"]


def control(positions: Iterable[Position]) -> dict[str, str]:
    """Province -> controlling power, from the positions of a game in order (the last is now)."""
    held: dict[str, str] = {}
    last: Position | None = None
    for position in positions:
        provinces = position.map.provinces
        for pid, unit in position.units.items():
            prov = provinces.get(pid)
            if prov is not None and prov.terrain in (Terrain.LAND, Terrain.COAST) and not prov.supply_centre:
                held[pid] = unit.power
        last = position
    if last is None:
        return held
    for pid, prov in last.map.provinces.items():
        if prov.supply_centre:
            owner = last.centres.get(pid)
            if owner:
                held[pid] = owner
            else:
                held.pop(pid, None)
    return held
