"""Every legal order a unit (or power) could be given: for order forms, bots and tests."""

from __future__ import annotations

from .adjustments import balance, build_error
from .geography import Location, UnitType
from .legality import check, convoying_fleets
from .options import RuleOptions
from .orders import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, Waive
from .position import Position, Unit
from .retreats import retreat_options


def unit_moves(position: Position, unit: Unit, options: RuleOptions | None = None) -> list[Move]:
    """The legal moves of a unit: to neighbours, and for an army by any possible convoy."""
    board = position.map
    moves = [Move(unit, loc) for loc in board.neighbours(unit.type, unit.location)
             if board.provinces[loc.province].terrain.value != "impassable" and loc.province not in position.closed]
    if unit.type is UnitType.ARMY and board.provinces[unit.province].terrain.value == "coast":
        near = {m.dest.province for m in moves}
        for pid in sorted(convoy_destinations(position, unit.province, options)):
            moves.append(Move(unit, Location(pid), via_convoy=pid in near))
    return moves


def convoy_destinations(position: Position, src: str, options: RuleOptions | None = None) -> set[str]:
    """Coastal provinces an army in src could reach through fleets that could convoy."""
    board = position.map
    fleets = convoying_fleets(position, options)
    frontier = [s for s in board.sea_neighbours(src) if s in fleets]
    seen = set(frontier)
    out: set[str] = set()
    while frontier:
        sea = frontier.pop()
        for nxt in board.sea_neighbours(sea):
            if nxt in fleets and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
            elif board.provinces[nxt].terrain.value == "coast" and nxt != src and nxt not in position.closed:
                out.add(nxt)
    return out


def movement_orders(position: Position, unit: Unit, options: RuleOptions | None = None,
                    moves: dict[str, list[Move]] | None = None) -> list[Order]:
    """Every legal movement-phase order for a unit (holds, moves, supports, convoys)."""
    options = options or RuleOptions()
    if moves is None:
        moves = {p: unit_moves(position, u, options) for p, u in position.units.items()}
    orders: list[Order] = [Hold(unit)]
    orders.extend(moves[unit.province])
    board = position.map
    reach = {loc.province for loc in board.neighbours(unit.type, unit.location)}
    for other in position.units.values():
        if other.province == unit.province:
            continue
        if other.province in reach:
            orders.append(Support(unit, other))
        for move in moves[other.province]:
            if move.dest.province in reach and not move.via_convoy:
                support = Support(unit, other, Location(move.dest.province))
                if check(position, options, support) is None and support not in orders:
                    orders.append(support)
        if unit.type is UnitType.FLEET and other.type is UnitType.ARMY:
            for move in moves[other.province]:
                if not board.army_adjacent(other.province, move.dest.province) or move.via_convoy:
                    convoy = Convoy(unit, other, Location(move.dest.province))
                    if check(position, options, convoy) is None and convoy not in orders:
                        orders.append(convoy)
    return orders


def retreat_orders(position: Position, unit: Unit, options: RuleOptions | None = None) -> list[Order]:
    """The retreats (and the disband) open to a dislodged unit."""
    options = options or RuleOptions()
    for d in position.dislodged:
        if d.unit == unit:
            return [Disband(unit), *(Retreat(unit, loc) for loc in retreat_options(position, d, options))]
    return []


def adjustment_orders(position: Position, power: str) -> list[Order]:
    """The builds (or removals) open to a power in the adjustments, with waive."""
    if power in position.neutral:
        return []
    due = balance(position, power)
    if due < 0:
        return [Remove(u) for u in position.units_of(power)]
    if due == 0:
        return []
    out: list[Order] = [Waive(power)]
    board = position.map
    sites = position.variant.powers[power].home_centres
    if position.variant.build_anywhere:
        sites = tuple(sorted(c for c, owner in position.centres.items() if owner == power))
    for pid in sites:
        for utype in (UnitType.ARMY, UnitType.FLEET):
            locs = [Location(pid)] if utype is UnitType.ARMY else list(board.fleet_locations(pid))
            for loc in locs:
                unit = Unit(power, utype, loc)
                if build_error(position, unit) is None:
                    out.append(Build(unit))
    return out


def possible_orders(position: Position, power: str, options: RuleOptions | None = None) -> dict[str, list[Order]]:
    """Every legal order of a power in this phase, by the province of the unit (or 'adjust')."""
    if power in position.neutral:
        return {}
    if position.phase.is_adjustment:
        return {"adjust": adjustment_orders(position, power)}
    if position.phase.is_retreat:
        return {d.unit.province: retreat_orders(position, d.unit, options)
                for d in position.dislodged if d.unit.power == power}
    moves = {p: unit_moves(position, u, options) for p, u in position.units.items()}
    return {u.province: movement_orders(position, u, options, moves) for u in position.units_of(power)}
