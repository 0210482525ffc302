"""The retreat phase: dislodged units retreat or are disbanded (rulebook XI)."""

from __future__ import annotations

from dataclasses import dataclass, replace

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
    again: tuple[Dislodgement, ...] = ()  # units that must retreat in another round (Calhamer)


def retreat_options(position: Position, d: Dislodgement, options: RuleOptions) -> tuple[Location, ...]:
    """Where a dislodged unit may go, when the position does not already list it."""
    if d.retreats is not None:
        return d.retreats
    if d.unit.power in position.neutral:
        return ()
    allowed = []
    for loc in position.map.neighbours(d.unit.type, d.unit.location):
        pid = loc.province
        if pid in position.units or pid in position.standoffs or pid in position.closed:
            continue
        if pid == d.attacker and not (d.convoyed and options.retreat_to_convoy_origin):
            continue
        allowed.append(loc)
    return tuple(allowed)


def adjudicate_retreats(position: Position, orders: list[tuple[int, Order]],
                        options: RuleOptions) -> RetreatResult:
    """Move the retreating units (rulebook XI and seed 004 s16-s17)."""
    units = dict(position.units)
    verdicts: dict[int, tuple[bool, str]] = {}
    by_unit = {d.unit.province: d for d in position.dislodged}
    chosen: dict[str, tuple[int, Order]] = {}
    for i, order in orders:
        pid = order.unit.province  # type: ignore[union-attr]
        if pid in chosen:
            verdicts[i] = (False, "invalid: a second order for the same unit")
            continue
        chosen[pid] = (i, order)
    goes: dict[str, Location] = {}  # dislodged unit's province -> where it retreats
    for pid, d in by_unit.items():
        allowed = d.retreats or ()
        i, order = chosen.get(pid, (None, None))
        automatic = options.auto_retreat != "never" and len(allowed) == 1 and not isinstance(order, Retreat)
        if automatic and (order is None or options.auto_retreat == "single"):
            goes[pid] = allowed[0]  # s16: the GM makes the only retreat open
            if i is not None:
                verdicts[i] = (False, f"the only retreat, to {short(allowed[0])}, is made automatically")
        elif isinstance(order, Retreat):
            goes[pid] = order.dest
        elif isinstance(order, Disband) and i is not None:
            verdicts[i] = (True, "disbanded")
    crowded: dict[str, list[str]] = {}
    for pid, loc in goes.items():
        crowded.setdefault(loc.province, []).append(pid)
    disbanded: list[Unit] = []
    again: list[Dislodgement] = []
    for pid, d in by_unit.items():
        i = chosen.get(pid, (None, None))[0]
        if pid not in goes:
            disbanded.append(d.unit)
            continue
        loc = goes[pid]
        rivals = crowded[loc.province]
        if len(rivals) > 1:
            if options.retreat_clash == "calhamer":
                left = tuple(r for r in d.retreats or () if r.province != loc.province)
                again.append(Dislodgement(d.unit, d.attacker, d.convoyed, left))
                why = f"bounced: {len(rivals)} units retreated to {short(loc.province)}; it must retreat again"
            else:
                disbanded.append(d.unit)
                why = f"bounced: {len(rivals)} units retreated to {short(loc.province)}, so all are disbanded"
            if i is not None:
                verdicts[i] = (False, why)
            continue
        units[loc.province] = Unit(d.unit.power, d.unit.type, loc)
        if i is not None and i not in verdicts:
            verdicts[i] = (True, "retreated")
    # Calhamer's rounds: spaces taken in this round are closed to the next one.
    again = [replace(d, retreats=tuple(r for r in d.retreats or () if r.province not in units)) for d in again]
    disbanded.extend(d.unit for d in again if not d.retreats)
    return RetreatResult(verdicts, units, tuple(disbanded), tuple(d for d in again if d.retreats))
