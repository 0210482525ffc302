"""The Winter adjustments: builds, removals, waives, and civil-disorder removals."""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Callable

from .geography import UnitType
from .options import RuleOptions
from .orders import Build, Remove, Waive, describe_unit
from .position import Position, Unit
from .verdicts import AlreadyBuilt, AlreadyRemoved, Adjusted, BeyondAllowance, Invalid, TooManyOrdered, Verdict


_power_of = attrgetter("power")
_BUILT, _WAIVED, _REMOVED = Adjusted("built"), Adjusted("build waived"), Adjusted("removed")


@dataclass(frozen=True)
class AdjustmentResult:
    """Verdicts by order index, the units afterwards and the removals the rules made."""

    verdicts: dict[int, Verdict]
    units: dict[str, Unit]
    forced_removals: tuple[Unit, ...]
    waiting: dict[str, int]  # powers whose removals the GM must choose, and how many


def build_error(position: Position, unit: Unit) -> str | None:
    """Why a build is illegal, or None: it must be an owned, vacant home centre (XIII.2), or any owned centre on a map that says so."""
    board = position.map
    pid = unit.province
    name = board.provinces[pid].name
    power = position.variant.powers[unit.power]
    if position.variant.build_anywhere and not board.provinces[pid].supply_centre:
        return f"invalid: {name} is not a supply centre"
    if pid not in power.home_centres and not position.variant.build_anywhere:
        return f"invalid: {name} is not a home supply centre of {power.name}"
    if position.centres.get(pid) != unit.power:
        return f"invalid: {power.name} does not own {name}"
    if pid in position.units:
        return f"invalid: {name} is occupied by {describe_unit(position.units[pid])}"
    if not board.can_hold(unit.type, unit.location):
        return f"invalid: {'an army' if unit.type is UnitType.ARMY else 'a fleet'} cannot be built in {board.name(unit.location)}"
    return None


def balance(position: Position, power: str) -> int:
    """Centres minus units (and units lost for good, s25): builds if positive, removals if negative."""
    centres = sum(1 for owner in position.centres.values() if owner == power)
    units = sum(1 for u in position.units.values() if u.power == power)
    return centres - units - position.destroyed.get(power, 0)


def can_build_somewhere(position: Position, power: str) -> bool:
    """Whether the power has an owned, vacant home centre to build in (any owned centre where the map says so)."""
    home = position.variant.powers[power].home_centres
    if position.variant.build_anywhere:
        home = tuple(position.centres)
    return any(position.centres.get(c) == power and c not in position.units for c in home)


def adjustments_due(position: Position) -> bool:
    """Whether any power must build (and can) or must remove."""
    centres = Counter(position.centres.values())
    units = Counter(map(_power_of, position.units.values()))
    destroyed = position.destroyed
    for power in position.variant.powers:
        b = centres[power] - units[power] - destroyed.get(power, 0)
        if b < 0 or (b > 0 and power not in position.neutral and can_build_somewhere(position, power)):
            return True
    return False


Adjustment = Build | Remove | Waive


def adjudicate_adjustments(position: Position, orders: list[tuple[int, Adjustment]],
                           options: RuleOptions) -> AdjustmentResult:
    """Carry out the (legal) adjustment orders in the order given (DATC 4.D.4-4.D.6)."""
    units = dict(position.units)
    verdicts: dict[int, Verdict] = {}
    by_power: dict[str, list[tuple[int, Adjustment]]] = {}
    for i, order in orders:
        power = order.power
        by_power.setdefault(power, []).append((i, order))
    forced: list[Unit] = []
    waiting: dict[str, int] = {}
    for power in position.variant.powers:
        due = balance(position, power)
        mine = by_power.get(power, [])
        if due > 0 and power in position.neutral:
            continue  # a neutral power raises no units (XIV.2, XIV.3)
        if due > 0:
            _builds(position, options, mine, due, units, verdicts)
        elif due < 0:
            forced.extend(_removals(position, options, power, mine, -due, units, verdicts, waiting))
        else:
            for i, _ in mine:
                verdicts[i] = Invalid("invalid: no builds or removals are due")
    return AdjustmentResult(verdicts, units, tuple(forced), waiting)


def _builds(position: Position, options: RuleOptions, mine: list[tuple[int, Adjustment]], due: int,
            units: dict[str, Unit], verdicts: dict[int, Verdict]) -> None:
    used = 0
    wanted = sum(1 for _, o in mine if isinstance(o, (Build, Waive)))
    for i, order in mine:
        if isinstance(order, Remove):
            verdicts[i] = Invalid("invalid: builds are due, not removals")
            continue
        if options.excess_adjustments == "none" and wanted > due:
            verdicts[i] = TooManyOrdered(due, builds=True)
            continue
        if used >= due:
            verdicts[i] = BeyondAllowance(due, builds=True)
            continue
        if isinstance(order, Waive):
            used += 1
            verdicts[i] = _WAIVED
            continue
        assert isinstance(order, Build)
        if order.unit.province in units:
            verdicts[i] = AlreadyBuilt(position.map.provinces[order.unit.province].name)
            continue
        units[order.unit.province] = order.unit
        used += 1
        verdicts[i] = _BUILT


def _removals(position: Position, options: RuleOptions, power: str, mine: list[tuple[int, Adjustment]],
              due: int, units: dict[str, Unit], verdicts: dict[int, Verdict],
              waiting: dict[str, int]) -> list[Unit]:
    removed = 0
    wanted = sum(1 for _, o in mine if isinstance(o, Remove))
    for i, order in mine:
        if not isinstance(order, Remove):
            verdicts[i] = Invalid("invalid: removals are due, not builds")
            continue
        if options.excess_adjustments == "none" and wanted > due:
            verdicts[i] = TooManyOrdered(due, builds=False)
            continue
        if order.unit.province not in units or units[order.unit.province] != order.unit:
            verdicts[i] = AlreadyRemoved(order.unit)
            continue
        if removed >= due:
            verdicts[i] = BeyondAllowance(due, builds=False)
            continue
        del units[order.unit.province]
        removed += 1
        verdicts[i] = _REMOVED
    forced: list[Unit] = []
    remaining = [u for u in units.values() if u.power == power]
    chosen = civil_disorder_removals(position, options, power, remaining, due - removed)
    if chosen is None:
        waiting[power] = due - removed
        return forced
    for unit in chosen:
        del units[unit.province]
        forced.append(unit)
    return forced


def civil_disorder_removals(position: Position, options: RuleOptions, power: str,
                            candidates: list[Unit], count: int) -> list[Unit] | None:
    """The units the rules remove for a power that ordered too few removals (s24, DATC 4.D.8).

    None means the rule set leaves the choice to the GM (Armageddonia).
    """
    if count <= 0:
        return []
    if count >= len(candidates):
        return list(candidates)  # every unit comes off: there is nothing for a rule or the GM to choose
    rule = options.removals
    if rule == "gm":
        return None
    board = position.map
    home = set(position.variant.powers[power].home_centres)
    targets = set(position.centres_of(power)) if rule == "2023" else home

    def name(u: Unit) -> str:
        return board.provinces[u.province].name

    def off_centre(u: Unit) -> bool:
        return not board.provinces[u.province].supply_centre

    def distance(u: Unit) -> int:
        return _steps(position, u, targets, rule)

    def fleet_first(u: Unit) -> bool:
        return u.type is not UnitType.FLEET

    key: Callable[[Unit], tuple[Any, ...]]
    if rule == "graustark":
        key = lambda u: (-distance(u), not off_centre(u), fleet_first(u), name(u))  # noqa: E731
    elif rule == "erehwon":
        def key(u: Unit) -> tuple[Any, ...]:
            x, y = board.provinces[u.province].xy or (0.0, 0.0)
            return (-distance(u), not off_centre(u), fleet_first(u), y, -x, name(u))
    else:
        key = lambda u: (-distance(u), fleet_first(u), name(u))  # noqa: E731
    return sorted(candidates, key=key)[:count]


def _steps(position: Position, unit: Unit, targets: set[str], rule: str) -> int:
    """Moves from the unit to the nearest target province, counted as the rule set counts them."""
    board = position.map
    if not targets:
        return 0

    def land(pid: str) -> set[str]:
        return set(board.army_edges.get(pid, ()))

    def sea(pid: str) -> set[str]:
        return set(board.sea_neighbours(pid))

    step: Callable[[str], set[str]]
    if rule == "2023":
        step = lambda pid: land(pid) | sea(pid)  # noqa: E731  armies and fleets cross land and sea
    elif unit.type is UnitType.FLEET:
        step = sea
    elif rule == "brobdingnag":
        found = _bfs(unit.province, targets, land)
        if found is not None:
            return found
        # No land route: one convoy step joins two coasts of a single sea.
        def step(pid: str) -> set[str]:
            out = land(pid)
            for water in sea(pid):
                if board.provinces[water].is_sea:
                    out |= {c for c in sea(water) if board.provinces[c].terrain.value == "coast"}
            return out
    else:
        step = lambda pid: land(pid) | sea(pid)  # noqa: E731  an army may count convoys
    found = _bfs(unit.province, targets, step)
    return found if found is not None else len(board.provinces)


def _bfs(start: str, targets: set[str], step: Callable[[str], set[str]]) -> int | None:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        pid = queue.popleft()
        if pid in targets:
            return seen[pid]
        for nxt in sorted(step(pid)):
            if nxt not in seen:
                seen[nxt] = seen[pid] + 1
                queue.append(nxt)
    return None
