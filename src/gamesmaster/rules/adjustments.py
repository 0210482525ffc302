"""The Winter adjustments: builds, removals, waives, and civil-disorder removals."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .geography import UnitType
from .options import RuleOptions
from .orders import Build, Order, Remove, Waive, describe_unit
from .position import Position, Unit


@dataclass(frozen=True)
class AdjustmentResult:
    """Verdicts by order index, the units afterwards and the removals the rules made."""

    verdicts: dict[int, tuple[bool, str]]
    units: dict[str, Unit]
    forced_removals: tuple[Unit, ...]


def build_error(position: Position, unit: Unit) -> str | None:
    """Why a build is illegal, or None: it must be an owned, vacant home centre (XIII.2)."""
    board = position.map
    pid = unit.province
    name = board.provinces[pid].name
    power = position.variant.powers[unit.power]
    if pid not in power.home_centres:
        return f"invalid: {name} is not a home supply centre of {power.name}"
    if position.centres.get(pid) != unit.power:
        return f"invalid: {power.name} does not own {name}"
    if pid in position.units:
        return f"invalid: {name} is occupied by {describe_unit(position.units[pid])}"
    if not board.can_hold(unit.type, unit.location):
        return f"invalid: {'an army' if unit.type is UnitType.ARMY else 'a fleet'} cannot be built in {board.name(unit.location)}"
    return None


def balance(position: Position, power: str) -> int:
    """Centres minus units: builds due if positive, removals if negative."""
    return len(position.centres_of(power)) - len(position.units_of(power))


def can_build_somewhere(position: Position, power: str) -> bool:
    """Whether the power has an owned, vacant home centre to build in."""
    home = position.variant.powers[power].home_centres
    return any(position.centres.get(c) == power and c not in position.units for c in home)


def adjustments_due(position: Position) -> bool:
    """Whether any power must build (and can) or must remove."""
    for power in position.variant.powers:
        b = balance(position, power)
        if b < 0 or (b > 0 and can_build_somewhere(position, power)):
            return True
    return False


def adjudicate_adjustments(position: Position, orders: list[tuple[int, Order]],
                           options: RuleOptions) -> AdjustmentResult:
    """Carry out the (legal) adjustment orders in the order given (DATC 4.D.4-4.D.6)."""
    units = dict(position.units)
    verdicts: dict[int, tuple[bool, str]] = {}
    by_power: dict[str, list[tuple[int, Order]]] = {}
    for i, order in orders:
        power = order.power if isinstance(order, Waive) else order.unit.power
        by_power.setdefault(power, []).append((i, order))
    forced: list[Unit] = []
    for power in position.variant.powers:
        due = balance(position, power)
        mine = by_power.get(power, [])
        if due > 0:
            _builds(position, options, mine, due, units, verdicts)
        elif due < 0:
            forced.extend(_removals(position, options, power, mine, -due, units, verdicts))
        else:
            for i, _ in mine:
                verdicts[i] = (False, "invalid: no builds or removals are due")
    return AdjustmentResult(verdicts, units, tuple(forced))


def _builds(position: Position, options: RuleOptions, mine: list[tuple[int, Order]], due: int,
            units: dict[str, Unit], verdicts: dict[int, tuple[bool, str]]) -> None:
    used = 0
    wanted = sum(1 for _, o in mine if isinstance(o, (Build, Waive)))
    for i, order in mine:
        if isinstance(order, Remove):
            verdicts[i] = (False, "invalid: builds are due, not removals")
            continue
        if options.excess_adjustments == "none" and wanted > due:
            verdicts[i] = (False, f"more builds ordered than the {due} allowed: none is carried out")
            continue
        if used >= due:
            verdicts[i] = (False, f"only {due} build{'s' if due != 1 else ''} allowed")
            continue
        if isinstance(order, Waive):
            used += 1
            verdicts[i] = (True, "build waived")
            continue
        assert isinstance(order, Build)
        if order.unit.province in units:
            verdicts[i] = (False, f"a unit was already built in {position.map.provinces[order.unit.province].name}")
            continue
        units[order.unit.province] = order.unit
        used += 1
        verdicts[i] = (True, "built")


def _removals(position: Position, options: RuleOptions, power: str, mine: list[tuple[int, Order]],
              due: int, units: dict[str, Unit], verdicts: dict[int, tuple[bool, str]]) -> list[Unit]:
    removed = 0
    wanted = sum(1 for _, o in mine if isinstance(o, Remove))
    for i, order in mine:
        if not isinstance(order, Remove):
            verdicts[i] = (False, "invalid: removals are due, not builds")
            continue
        if options.excess_adjustments == "none" and wanted > due:
            verdicts[i] = (False, f"more removals ordered than the {due} due: the civil-disorder rule decides")
            continue
        if order.unit.province not in units or units[order.unit.province] != order.unit:
            verdicts[i] = (False, f"{describe_unit(order.unit)} was already removed")
            continue
        if removed >= due:
            verdicts[i] = (False, f"only {due} removal{'s' if due != 1 else ''} due")
            continue
        del units[order.unit.province]
        removed += 1
        verdicts[i] = (True, "removed")
    forced: list[Unit] = []
    remaining = [u for u in units.values() if u.power == power]
    for unit in civil_disorder_removals(position, options, power, remaining, due - removed):
        del units[unit.province]
        forced.append(unit)
    return forced


def civil_disorder_removals(position: Position, options: RuleOptions, power: str,
                            candidates: list[Unit], count: int) -> list[Unit]:
    """The units the rules remove for a power that did not order enough removals."""
    if count <= 0:
        return []
    board = position.map
    if options.removals == "2023":
        targets = set(position.centres_of(power))
    else:
        targets = set(position.variant.powers[power].home_centres)
    def distance(unit: Unit) -> int:
        return _steps(position, unit, targets, options.removals)
    ranked = sorted(candidates, key=lambda u: (-distance(u), u.type is not UnitType.FLEET,
                                               board.provinces[u.province].name))
    return ranked[:count]


def _steps(position: Position, unit: Unit, targets: set[str], rule: str) -> int:
    board = position.map
    if not targets:
        return 0
    if rule == "2023" or unit.type is UnitType.ARMY:
        # 2023: armies and fleets alike may cross land and sea; 1971: an army may count
        # convoy steps, so it too crosses the sea.
        def step(pid: str) -> set[str]:
            return set(board.army_edges.get(pid, ())) | set(board.sea_neighbours(pid))
    else:
        def step(pid: str) -> set[str]:
            return set(board.sea_neighbours(pid))
    seen = {unit.province: 0}
    queue = deque([unit.province])
    while queue:
        pid = queue.popleft()
        if pid in targets:
            return seen[pid]
        for nxt in sorted(step(pid)):
            if nxt not in seen:
                seen[nxt] = seen[pid] + 1
                queue.append(nxt)
    return len(board.provinces)  # unreachable: as far as can be
