"""What became of every unit in a published phase, in the terms other programs use.

A `PhaseResult` says of each order whether it succeeded, failed or was invalid, with
the reason in words. Programs that speak other languages want it as a few codes per
unit: a move `bounce`d, a support was `cut` or `void` (given to an order not made), a
convoyed army found `no convoy` or had its convoy `disrupted`, the unit was `dislodged`,
a dislodged unit was `disband`ed. `fates(result)` works these out from the orders and the
positions before and after the phase -- never from the reasons' wording -- for the
DAIDE door's order results and the saved-game export alike. Every unit on the board
(or dislodged, in a retreat phase) gets one `Fate`, ordered or not.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Convoy, Disband, Hold, Move, Order, Position, Retreat, Support, Unit, UnitOrder, UnitType, Waive
from ..rules.convoys import routes
from .views import PhaseResult

BOUNCE, CUT, VOID, NO_CONVOY, DISRUPTED, DISLODGED, DISBAND = (
    "bounce", "cut", "void", "no convoy", "disrupted", "dislodged", "disband")


@dataclass(frozen=True)
class Fate:
    """One unit's order in a phase (the hold or disband it made when it had no valid order) and what became of it."""

    power: str
    order: Order  # as followed: a unit with no valid order holds (retreats: is disbanded)
    ordered: bool  # False: the order is what happened without one (or the civil-disorder rule's removal)
    succeeded: bool
    codes: tuple[str, ...]  # bounce, cut, void, no convoy, disrupted, dislodged, disband; () when it went as ordered
    route: tuple[str, ...] = ()  # a convoyed army's: the seas of the fleets that convoyed it, army to shore

    @property
    def unit(self) -> Unit | None:
        """The unit ordered (None for a waived build)."""
        return self.order.unit if isinstance(self.order, UnitOrder) else None


def fates(result: PhaseResult) -> list[Fate]:
    """Every unit's fate in a published phase, in the order of the results (unordered units after)."""
    phase = result.phase
    if phase.is_movement:
        return _movement(result)
    if phase.is_retreat:
        return _retreats(result)
    return _adjustments(result)


def _followed(result: PhaseResult) -> dict[str, tuple[Order, bool]]:
    """The order each unit followed, by province (the first valid one; invalid ones do not count)."""
    out: dict[str, tuple[Order, bool]] = {}
    for o in result.outcomes():
        if not isinstance(o.order, UnitOrder) or o.result == "invalid":
            continue
        out.setdefault(o.order.unit.province, (o.order, o.result == "succeeds"))
    return out


def _moved(order: Order, ok: bool) -> bool:
    return ok and isinstance(order, Move)


def _movement(result: PhaseResult) -> list[Fate]:
    before, after = result.position, result.next
    followed = _followed(result)
    gone = {pid for pid, (order, ok) in followed.items() if _moved(order, ok)}
    out = []
    lost = {u.province for u in _units(before) if u.province not in gone and after.units.get(u.province) != u}
    for unit in _units(before):
        order, ok = followed.get(unit.province, (Hold(unit), True))
        dislodged = unit.province in lost
        codes = [] if ok and not dislodged else _why(order, followed, before, lost)
        if dislodged:
            codes.append(DISLODGED)
        route = _route(order, followed, before) if isinstance(order, Move) and _convoyed(order, before) else ()
        out.append(Fate(unit.power, order, unit.province in followed, ok and not dislodged, tuple(dict.fromkeys(codes)),
                        route))
    return out


def _route(move: Move, followed: dict[str, tuple[Order, bool]], before: Position) -> tuple[str, ...]:
    """The seas a convoyed army went (or meant to go) through: a chain of the fleets ordered to convoy it."""
    seas = [p for p, (o, _) in followed.items() if isinstance(o, Convoy)
            and o.army.province == move.unit.province and o.dest.province == move.dest.province]
    chains = routes(before.map, move.unit.province, move.dest.province, seas) if seas else []
    return min(chains, key=len) if chains else tuple(sorted(seas))


def _why(order: Order, followed: dict[str, tuple[Order, bool]], before: Position, lost: set[str]) -> list[str]:
    """The codes of an order that did not go as ordered."""
    if isinstance(order, Hold):
        return []
    if isinstance(order, Support):
        target = followed.get(order.supported.province, (Hold(order.supported), True))[0]
        if order.dest is None:
            matched = not isinstance(target, Move)
        else:
            matched = isinstance(target, Move) and target.dest.province == order.dest.province
        return [CUT] if matched else [VOID]
    if isinstance(order, Convoy):
        target = followed.get(order.army.province, (Hold(order.army), True))[0]
        matched = isinstance(target, Move) and target.dest.province == order.dest.province
        return [DISRUPTED] if matched else [VOID]
    if isinstance(order, Move) and _convoyed(order, before):
        fleets = [p for p, (o, _) in followed.items() if isinstance(o, Convoy)
                  and o.army.province == order.unit.province and o.dest.province == order.dest.province]
        if not fleets:
            return [NO_CONVOY]
        # A convoy fails only when a fleet of it is dislodged (a fleet's order fails too when its army bounces).
        return [DISRUPTED] if any(p in lost for p in fleets) else [BOUNCE]
    return [BOUNCE]


def _convoyed(move: Move, before: Position) -> bool:
    """Whether a move goes by convoy: ordered so, or an army going where it cannot march."""
    if move.unit.type is not UnitType.ARMY:
        return False
    return move.via_convoy or not before.map.army_adjacent(move.unit.province, move.dest.province)


def _units(position: Position) -> list[Unit]:
    return [position.units[p] for p in sorted(position.units)]


def _retreats(result: PhaseResult) -> list[Fate]:
    followed = _followed(result)
    out = []
    for d in sorted(result.position.dislodged, key=lambda d: d.unit.province):
        order, ok = followed.get(d.unit.province, (Disband(d.unit), True))
        ordered = d.unit.province in followed
        if isinstance(order, Retreat):
            codes: tuple[str, ...] = () if ok else (BOUNCE, DISBAND)
        else:
            codes = (DISBAND,)
        out.append(Fate(d.unit.power, order, ordered, ok, codes))
    return out


def _adjustments(result: PhaseResult) -> list[Fate]:
    out = []
    for r, o in zip(result.results, result.outcomes()):
        if o.order is None or r.result == "invalid":
            continue
        ok = r.result == "succeeds"
        if isinstance(o.order, Waive):
            out.append(Fate(r.power, o.order, True, ok, ()))
        else:
            out.append(Fate(r.power, o.order, not r.by_rule, ok, () if ok else (VOID,)))
    return out


__all__ = ["BOUNCE", "CUT", "DISBAND", "DISLODGED", "DISRUPTED", "Fate", "NO_CONVOY", "VOID", "fates"]
