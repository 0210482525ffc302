"""The retreat phase: dislodged units retreat or are disbanded (rulebook XI)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .geography import Location
from .options import RuleOptions
from .orders import Disband, Retreat, UnitOrder
from .position import Dislodgement, Position, Unit
from .verdicts import AutomaticRetreat, Disbanded, Invalid, RetreatClash, Retreated, Verdict

_RETREATED, _DISBANDED = Retreated(), Disbanded()


@dataclass(frozen=True)
class RetreatResult:
    """Verdicts by order index and the units on the board afterwards."""

    verdicts: dict[int, Verdict]
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


def adjudicate_retreats(position: Position, orders: list[tuple[int, UnitOrder]],
                        options: RuleOptions) -> RetreatResult:
    """Move the retreating units (rulebook XI and seed 004 s16-s17)."""
    units = dict(position.units)
    verdicts: dict[int, Verdict] = {}
    by_unit = {d.unit.province: d for d in position.dislodged}
    chosen: dict[str, tuple[int, UnitOrder]] = {}
    for i, order in orders:
        pid = order.unit.province
        if pid in chosen:
            verdicts[i] = Invalid("invalid: a second order for the same unit")
            continue
        chosen[pid] = (i, order)
    goes: dict[str, Location] = {}  # dislodged unit's province -> where it retreats
    for pid, d in by_unit.items():
        allowed = d.retreats or ()
        index, given = chosen[pid] if pid in chosen else (None, None)
        automatic = options.auto_retreat != "never" and len(allowed) == 1 and not isinstance(given, Retreat)
        if automatic and (given is None or options.auto_retreat == "single"):
            goes[pid] = allowed[0]  # s16: the GM makes the only retreat open
            if index is not None:
                verdicts[index] = AutomaticRetreat(allowed[0])
        elif isinstance(given, Retreat):
            goes[pid] = given.dest
        elif isinstance(given, Disband) and index is not None:
            verdicts[index] = _DISBANDED
    crowded: dict[str, list[str]] = {}
    for pid, loc in goes.items():
        crowded.setdefault(loc.province, []).append(pid)
    disbanded: list[Unit] = []
    again: list[Dislodgement] = []
    for pid, d in by_unit.items():
        index = chosen[pid][0] if pid in chosen else None
        if pid not in goes:
            disbanded.append(d.unit)
            continue
        loc = goes[pid]
        rivals = crowded[loc.province]
        if len(rivals) > 1:
            clash_again = options.retreat_clash == "calhamer"
            if clash_again:
                left = tuple(r for r in d.retreats or () if r.province != loc.province)
                again.append(Dislodgement(d.unit, d.attacker, d.convoyed, left))
            else:
                disbanded.append(d.unit)
            if index is not None:
                verdicts[index] = RetreatClash(len(rivals), loc.province, clash_again)
            continue
        units[loc.province] = Unit(d.unit.power, d.unit.type, loc)
        if index is not None and index not in verdicts:
            verdicts[index] = _RETREATED
    # Calhamer's rounds: spaces taken in this round are closed to the next one.
    again = [replace(d, retreats=tuple(r for r in d.retreats or () if r.province not in units)) for d in again]
    disbanded.extend(d.unit for d in again if not d.retreats)
    return RetreatResult(verdicts, units, tuple(disbanded), tuple(d for d in again if d.retreats))
