"""The retreat phase: dislodged units retreat or are disbanded (rulebook XI)."""

from __future__ import annotations

from dataclasses import dataclass

from .geography import Location
from .options import RuleOptions
from .orders import Disband, Order, Retreat, short
from .position import Dislodgement, Position, Unit


@dataclass(frozen=True)
class RetreatResult:
    """Verdicts by order index and the units on the board afterwards."""

    verdicts: dict[int, tuple[bool, str]]
    units: dict[str, Unit]
    disbanded: tuple[Unit, ...]


def retreat_options(position: Position, d: Dislodgement, options: RuleOptions) -> tuple[Location, ...]:
    """Where a dislodged unit may go, when the position does not already list it."""
    if d.retreats is not None:
        return d.retreats
    allowed = []
    for loc in position.map.neighbours(d.unit.type, d.unit.location):
        pid = loc.province
        if pid in position.units or pid in position.standoffs:
            continue
        if pid == d.attacker and not (d.convoyed and options.retreat_to_convoy_origin):
            continue
        allowed.append(loc)
    return tuple(allowed)


def adjudicate_retreats(position: Position, orders: list[tuple[int, Order]],
                        options: RuleOptions) -> RetreatResult:
    """Move the retreating units; two retreats to one space are both disbanded (XI.2)."""
    units = dict(position.units)
    verdicts: dict[int, tuple[bool, str]] = {}
    by_unit = {d.unit.province: d for d in position.dislodged}
    wanted: dict[str, list[int]] = {}
    chosen: dict[str, tuple[int, Order]] = {}
    for i, order in orders:
        pid = order.unit.province  # type: ignore[union-attr]
        if pid in chosen:
            verdicts[i] = (False, "invalid: a second order for the same unit")
            continue
        chosen[pid] = (i, order)
        if isinstance(order, Retreat):
            wanted.setdefault(order.dest.province, []).append(i)
    disbanded: list[Unit] = []
    for pid, d in by_unit.items():
        if pid not in chosen:
            disbanded.append(d.unit)
            continue
        i, order = chosen[pid]
        if isinstance(order, Disband):
            verdicts[i] = (True, "disbanded")
            disbanded.append(d.unit)
            continue
        assert isinstance(order, Retreat)
        rivals = wanted[order.dest.province]
        if len(rivals) > 1:
            verdicts[i] = (False, f"bounced: {len(rivals)} units retreated to {short(order.dest.province)}, so all are disbanded")
            disbanded.append(d.unit)
            continue
        units[order.dest.province] = Unit(d.unit.power, d.unit.type, order.dest)
        verdicts[i] = (True, "retreated")
    return RetreatResult(verdicts, units, tuple(disbanded))
