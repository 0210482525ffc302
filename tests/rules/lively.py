"""Random games whose orders work together: supports for moves made, convoys for armies sent.

Orders drawn one by one from the legal ones mostly support moves nobody makes; these
draw each unit's order the way players write them, so that bounces, cut supports,
dislodgements, head-to-head battles and convoys (disrupted or not) happen often.
"""

from __future__ import annotations

import random
from typing import Iterator

from gamesmaster.rules import (Adjudication, Build, Convoy, Hold, Location, Move, Order, Position, Remove,
                               Retreat, RuleOptions, Support, UnitType, Waive, adjudicate, legality)
from gamesmaster.rules import convoys
from gamesmaster.rules.adjustments import balance
from gamesmaster.rules.possible import adjustment_orders, retreat_orders, unit_moves


def movement_orders(position: Position, rng: random.Random, options: RuleOptions) -> dict[str, list[Order]]:
    """An order for most units: moves (often attacks), supports of moves drawn, convoys for armies at sea."""
    board = position.map
    units = position.units
    moves = {p: unit_moves(position, u, options) for p, u in units.items()}
    chosen: dict[str, Order] = {}
    # Armies sent by sea first, so that fleets can be given to carry them.
    fleets = set(legality.convoying_fleets(position, options))
    for p, u in units.items():
        by_sea = [m for m in moves[p] if not board.army_adjacent(p, m.dest.province) or m.via_convoy]
        if u.type is UnitType.ARMY and by_sea and rng.random() < 0.3:
            move = rng.choice(by_sea)
            free = fleets - set(chosen)
            routes = convoys.routes(board, p, move.dest.province, free, limit=4)
            if routes:
                chosen[p] = move
                for f in rng.choice(routes):
                    chosen[f] = Convoy(units[f], u, Location(move.dest.province))
    order = list(units)
    rng.shuffle(order)
    for p in order:
        if p in chosen or rng.random() < 0.08:
            continue  # some units are left without orders: they hold
        u = units[p]
        roll = rng.random()
        if roll < 0.5 and moves[p]:
            hostile = [m for m in moves[p] if (m.dest.province in units and units[m.dest.province].power != u.power)
                       or position.centres.get(m.dest.province) != u.power]
            pool = hostile if hostile and rng.random() < 0.6 else moves[p]
            chosen[p] = rng.choice([m for m in pool if not m.via_convoy] or pool)
        elif roll < 0.85:
            reach = {loc.province for loc in board.neighbours(u.type, u.location)}
            drawn = [(q, o) for q, o in chosen.items() if isinstance(o, Move) and o.dest.province in reach and q != p]
            if drawn and rng.random() < 0.8:
                q, move = rng.choice(drawn)
                support: Order = Support(u, units[q], Location(move.dest.province))
            else:
                near = [units[q] for q in reach if q in units]
                support = Support(u, rng.choice(near)) if near else Hold(u)
            chosen[p] = support if isinstance(support, Hold) or legality.check(position, options, support) is None else Hold(u)
        else:
            chosen[p] = Hold(u)
    out: dict[str, list[Order]] = {}
    for p, o in chosen.items():
        out.setdefault(units[p].power, []).append(o)
    return out


def other_orders(position: Position, rng: random.Random, options: RuleOptions) -> dict[str, list[Order]]:
    """Random retreats (or disbands) and adjustments, as players give them."""
    out: dict[str, list[Order]] = {}
    if position.phase.is_retreat:
        for d in position.dislodged:
            choices = retreat_orders(position, d.unit, options)
            if choices and rng.random() < 0.95:
                retreats = [o for o in choices if isinstance(o, Retreat)]
                out.setdefault(d.unit.power, []).append(rng.choice(retreats if retreats and rng.random() < 0.8 else choices))
        return out
    for power in position.variant.powers:
        due = balance(position, power)
        choices = adjustment_orders(position, power)
        removals = [o for o in choices if isinstance(o, Remove)]
        builds = [o for o in choices if isinstance(o, Build)]
        rng.shuffle(builds)
        picked: list[Order] = []
        if removals:
            picked = rng.sample(removals, min(len(removals), -due + (rng.random() < 0.1)))
        elif due > 0:
            seen: set[str] = set()
            for b in builds:
                if len(seen) < due and b.unit.province not in seen:
                    seen.add(b.unit.province)
                    picked.append(b)
            if rng.random() < 0.1:
                picked.append(Waive(power))
        if picked:
            out[power] = picked
    return out


def lively_game(seed: int, options: RuleOptions, position: Position, years: int = 8) -> Iterator[Adjudication]:
    """Play a random game of lively orders from the position; each phase's adjudication."""
    rng = random.Random(seed)
    last = position.phase.year + years - 1
    while position.phase.year <= last:
        if position.phase.is_movement:
            orders = movement_orders(position, rng, options)
        else:
            orders = other_orders(position, rng, options)
        result = adjudicate(position, orders, options)
        yield result
        if result.ended:
            return
        position = result.next

