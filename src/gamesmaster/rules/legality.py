"""Whether an order could be valid at all (DATC 4.E.1), with the reason when not.

An illegal order is ignored and the unit holds. These checks know only the position,
never the other orders: an order that is legal but matches nothing (a support for a
move nobody made) is void, which the adjudication decides.
"""

from __future__ import annotations

from . import convoys
from .geography import Location, Terrain, UnitType
from .options import RuleOptions
from .orders import Convoy, Hold, Move, Order, Support, describe_unit, short
from .position import Position, Unit


def fleet_destination(position: Position, options: RuleOptions, unit: Unit,
                      dest: Location) -> tuple[Location | None, str | None, str | None]:
    """Settle the coast of a fleet's destination: (location, illegal reason, reading note)."""
    board = position.map
    targets = board.fleet_targets(unit.location, dest.province)
    if not targets:
        return None, f"void: {describe_unit(unit)} cannot reach {short(dest.province)}", None
    if dest.coast is None or len(board.fleet_locations(dest.province)) <= 1:
        if len(targets) == 1:
            note = None
            if dest.coast is None and targets[0].coast:
                if options.coast_omitted == "fail":
                    return None, f"void: the order must say which coast of {board.name(dest.province)}", None
                note = f"read {short(dest.province)} as {short(targets[0])}: the only coast {describe_unit(unit)} can reach"
            elif dest.coast and dest.coast != targets[0].coast:
                note = f"ignored the coast {dest.coast}: {board.name(dest.province)} has one coast"
            return targets[0], None, note
        return None, (f"void: {board.name(dest.province)} has two coasts {describe_unit(unit)} can reach; "
                      "the order must say which"), None
    if dest in targets:
        return dest, None, None
    if options.coast_impossible == "ignore" and len(targets) == 1:
        return targets[0], None, f"read {short(dest)} as {short(targets[0])}: the only coast {describe_unit(unit)} can reach"
    return None, f"void: {describe_unit(unit)} cannot reach {board.name(dest)}", None


def convoying_fleets(position: Position, options: RuleOptions | None = None) -> frozenset[str]:
    """Provinces whose fleet could take part in a convoy: at sea, or (s31) on any coast."""
    if options is not None and options.coastal_convoy:
        board = position.map
        return frozenset(p for p, u in position.units.items()
                         if u.type is UnitType.FLEET and board.provinces[p].convoys)
    return position.fleets_at_sea


def convoy_possible(position: Position, src: str, dest: str, exclude: str | None = None,
                    options: RuleOptions | None = None) -> bool:
    """Whether fleets now on the board could carry an army from src to dest (ignoring orders)."""
    if not (_coastal(position, src) and _coastal(position, dest)):
        return False
    fleets = convoying_fleets(position, options)
    return convoys.sea_route_exists(position.map, src, dest, fleets, exclude)


def _coastal(position: Position, pid: str) -> bool:
    return position.map.provinces[pid].terrain is Terrain.COAST


def can_move(position: Position, unit: Unit, dest: str, exclude_fleet: str | None = None,
             options: RuleOptions | None = None) -> bool:
    """Whether the unit could move to dest by itself or by a possible convoy."""
    board = position.map
    src = unit.location.province
    if dest == src or dest in position.closed:
        return False
    if unit.type is UnitType.FLEET:
        return board.can_reach(UnitType.FLEET, unit.location, dest)
    if dest in board.army_edges.get(src, ()):
        return True  # the variant loader lets armies border only land and coast
    if board.provinces[dest].terrain not in (Terrain.LAND, Terrain.COAST):
        return False
    return convoy_possible(position, src, dest, exclude_fleet, options)


def check(position: Position, options: RuleOptions, order: Order) -> str | None:
    """Why a movement-phase order is illegal, or None if it could be valid."""
    # type() rather than isinstance(): the exact classes, most frequent first.
    if type(order) is Move:
        return _check_move(position, order, options)
    if type(order) is Support:
        return _check_support(position, order, options)
    if type(order) is Hold:
        return None
    if type(order) is Convoy:
        return _check_convoy(position, order, options)
    return "void: not an order for a movement phase"


def _check_move(position: Position, order: Move, options: RuleOptions) -> str | None:
    unit, dest = order.unit, order.dest.province
    board = position.map
    src = unit.location.province
    # The common case first: a move to a neighbour, not into the space it is in nor a closed one.
    # (The variant loader lets armies border only land and coast, so no terrain check is needed.)
    if unit.type is UnitType.ARMY:
        if order.via_convoy and Terrain.LAND in (board.provinces[src].terrain, board.provinces[dest].terrain):
            return _not_by_convoy(position, order)
        if dest in board.army_edges.get(src, ()) and dest != src and dest not in position.closed:
            return None
    elif order.dest in board.fleet_edges.get(unit.location, ()) and dest != src and dest not in position.closed:
        return None
    if dest == src:
        return f"void: {describe_unit(unit)} cannot move to the space it is in"
    if dest in position.closed:
        return f"void: {position.map.provinces[dest].name} may not be entered while its power is neutral"
    if unit.type is UnitType.FLEET:
        return f"void: {describe_unit(unit)} cannot reach {board.name(order.dest)}"
    terrain = board.provinces[dest].terrain
    if terrain is Terrain.SEA:
        return f"void: an army cannot move to {board.name(dest)}"
    if terrain is Terrain.IMPASSABLE:
        return f"void: {board.name(dest)} is impassable"
    if board.army_adjacent(unit.province, dest) or convoy_possible(position, unit.province, dest, None, options):
        return None
    if _coastal(position, unit.province) and _coastal(position, dest):
        return f"void: {describe_unit(unit)} cannot reach {short(dest)}: no fleets at sea could convoy it there"
    return f"void: {describe_unit(unit)} cannot reach {short(dest)}"


def _not_by_convoy(position: Position, order: Move) -> str:
    """An army ordered to go by convoy from or to an inland province: no convoy can ever carry it."""
    unit, dest = order.unit, order.dest.province
    inland = unit.province if position.map.provinces[unit.province].terrain is Terrain.LAND else dest
    name = position.map.provinces[inland].name
    return (f"void: {describe_unit(unit)} cannot go to {short(dest)} by convoy: "
            f"{name} is not on a coast, and only armies on a coast are convoyed")


def _check_support(position: Position, order: Support, options: RuleOptions) -> str | None:
    unit, supported, dest = order.unit, order.supported, order.dest
    src = unit.location.province
    if supported.location.province == src:
        return f"void: {describe_unit(unit)} cannot support itself"
    target = dest.province if dest is not None else supported.location.province
    if target == src:
        return f"void: {describe_unit(unit)} cannot support a move into its own space"
    board = position.map
    if not board.can_reach(unit.type, unit.location, target):
        return f"void: {describe_unit(unit)} cannot support into {short(target)}: it could not move there"
    if dest is not None:
        if not can_move(position, supported, target, exclude_fleet=src, options=options):
            return f"void: {describe_unit(supported)} cannot move to {short(target)}, so it cannot be supported there"
        if dest.coast and supported.type is UnitType.FLEET and not board.fleet_adjacent(supported.location, dest):
            return f"void: {describe_unit(supported)} cannot reach {short(dest)}"
    return None


def _check_convoy(position: Position, order: Convoy, options: RuleOptions) -> str | None:
    board = position.map
    fleet, army, dest = order.unit, order.army, order.dest.province
    if fleet.type is not UnitType.FLEET:
        return "void: only a fleet can convoy"
    prov = board.provinces[fleet.province]
    coastal = options.coastal_convoy and prov.terrain is Terrain.COAST
    if not (prov.is_sea or coastal):
        return f"void: {describe_unit(fleet)} is not at sea and cannot convoy"
    if not prov.convoys:
        return f"void: {describe_unit(fleet)} cannot convoy: no convoy may be made through {prov.name}"
    if army.type is not UnitType.ARMY:
        return f"void: only an army can be convoyed; {describe_unit(army)} is a fleet"
    if dest == army.province:
        return f"void: {describe_unit(army)} cannot be convoyed to the space it is in"
    if not (_coastal(position, army.province) and _coastal(position, dest)):
        return f"void: {describe_unit(army)} cannot be convoyed to {short(dest)}"
    fleets = convoying_fleets(position, options)
    if not any(fleet.province in route for route in convoys.routes(board, army.province, dest, fleets)):
        return (f"void: {describe_unit(fleet)} is on no convoy route from {short(army.province)} "
                f"to {short(dest)}")
    return None
