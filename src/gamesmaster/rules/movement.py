"""Adjudication of a movement phase (Kruijswijk's guess-and-check resolution).

Every move, support and convoy is a decision that succeeds or fails. `resolve`
settles a decision by asking `_adjudicate` for it, recursively settling whatever it
depends on; when the recursion comes back to a decision still being settled, the
decision is guessed, tried both ways, and a cycle with no single answer is settled
by the backup rule (circular movement succeeds; a convoy paradox by the rule set's
paradox rule, the Szykman rule by default). The strength definitions are those of
DATC v3.0 section 5.B.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import convoys
from .geography import Location, Map, UnitType
from .options import RuleOptions
from .orders import Convoy, Hold, Move, Order, Support, describe_order, describe_unit, short
from .position import Dislodgement, Position, Unit

_ARMY = UnitType.ARMY
_NO_GUESS = 1 << 30


@dataclass(frozen=True)
class MovementResult:
    """The outcome of a movement phase: a verdict per ordered unit and the new board."""

    succeeded: dict[str, bool]  # by the province the unit started in
    units: dict[str, Unit]  # units on the board afterwards (dislodged ones not included)
    dislodged: tuple[Dislodgement, ...]
    standoffs: frozenset[str]
    resolver: "MovementResolver"  # explains each outcome when asked (resolver.explain)


def ambiguous_convoys(position: Position, orders: dict[str, Order]) -> dict[str, str]:
    """Armies whose convoy orders give more than one route (Calhamer: the army holds, s12)."""
    offers: dict[tuple[str, str], list[str]] = {}
    for p, o in orders.items():
        if type(o) is Convoy:
            offers.setdefault((o.army.province, o.dest.province), []).append(p)  # type: ignore[union-attr]
    out = {}
    for p, o in orders.items():
        if type(o) is Move and o.unit.type is _ARMY:  # type: ignore[union-attr]
            fleets = offers.get((p, o.dest.province), [])  # type: ignore[union-attr]
            if len(fleets) > 1 and len(convoys.routes(position.map, p, o.dest.province, fleets, limit=2)) > 1:  # type: ignore[union-attr]
                out[p] = "invalid: ambiguous: the convoy orders give more than one route, so the army holds (Calhamer)"
    return out


Reason = str | tuple[object, ...]  # a reason, or a template with the units and places to word it


def _say(reason: Reason) -> str:
    """A reason in words; one kept as a template and its units and places is worded when read."""
    if isinstance(reason, str):
        return reason
    template, *things = reason
    return template.format(*(describe_unit(t) if isinstance(t, Unit) else short(t) for t in things))  # type: ignore[arg-type]


class MovementResolver:
    """Settles one movement phase; build it with every unit's (legal) order."""

    def __init__(self, position: Position, orders: dict[str, Order], options: RuleOptions,
                 void: dict[str, str] | None = None) -> None:
        self.position = position
        self.map: Map = position.map
        self.options = options
        self.units = position.units
        # Province -> why its order has no effect (worded only when a player asks).
        self.void: dict[str, Reason] = dict(void or {})
        self.settled: set[str] = set()  # orders whose decision is final
        self.result: dict[str, bool] = {}
        self.depth: dict[str, int] = {}  # orders being settled, by recursion depth
        self.anchor: dict[str, int] = {}  # orders answered under an open guess -> its depth
        self.guessed: list[str] = []  # those orders, in the order they were answered
        self.low = _NO_GUESS  # the shallowest guess the current answer rests on
        self.paradox: set[str] = set()  # convoys cancelled by the paradox rule
        self.moves_into: dict[str, list[str]] = {}
        self.move_supports: dict[str, list[str]] = {}
        self.hold_supports: dict[str, list[str]] = {}
        self.convoyed_by: dict[str, list[str]] = {}  # army province -> its convoying fleets
        self.by_convoy: dict[str, bool] = {}
        self._prepare(orders)

    # -- matching orders to each other -------------------------------------------------

    def _prepare(self, given: dict[str, Order]) -> None:
        """Index the orders once: who moves where, who convoys and supports whom.

        Decisions that depend on no other are settled here too: a void order fails, a
        support or convoy nobody attacks is given, a move over land into an empty space
        no one else enters succeeds (unless Kolin's rule has it turn to face an
        attacker), and an unsupported move over land against a unit that stays, with no
        support either, and no one else entering, fails. The recursion then meets only
        the contested orders.
        """
        # One pass over the units, in the board's order: a unit without an order holds.
        self.orders = orders = {}
        self.owner = owner = {}
        self.kind = kind = {}
        self.dest = dest = {}
        moves_into = self.moves_into
        supports: list[str] = []
        convoy_offers: dict[tuple[str, str], list[str]] = {}
        armies: list[str] = []
        self.contested = contested = []  # spaces two or more units try to enter
        for p, u in self.units.items():
            o = given.get(p)
            if o is None:
                o = Hold(u)
            orders[p] = o
            owner[p] = u.power
            k = kind[p] = type(o)
            if k is Move:
                d = dest[p] = o.dest.province  # type: ignore[union-attr]
                if d in moves_into:
                    moves_into[d].append(p)
                    if len(moves_into[d]) == 2:
                        contested.append(d)
                else:
                    moves_into[d] = [p]
                if u.type is _ARMY:
                    armies.append(p)
            elif k is Support:
                supports.append(p)
            elif k is Convoy:
                convoy_offers.setdefault((o.army.province, o.dest.province), []).append(p)  # type: ignore[union-attr]
        void = self.void
        known: dict[str, bool] = {}  # the decisions that depend on no other
        army_adjacent = self.map.army_adjacent
        for p in armies:
            d = dest[p]
            o = orders[p]
            fleets = convoy_offers.get((p, d)) if convoy_offers else None
            if fleets is None and not o.via_convoy and army_adjacent(p, d):  # type: ignore[union-attr]
                continue  # a plain march: no convoy can be meant
            fleets = fleets or []
            if self._goes_by_convoy(o, fleets):  # type: ignore[arg-type]
                self.by_convoy[p] = True
                self.convoyed_by[p] = fleets
                if not convoys.sea_route_exists(self.map, p, d, fleets):
                    void[p] = "no convoy route: no chain of fleets was ordered to convoy it"
        for d in contested:
            moves_into[d].sort()  # reasons must not depend on the order orders were listed
        for p in supports:
            self._match_support(p, orders[p])  # type: ignore[arg-type]
        self.convoying = [p for offers in convoy_offers.values() for p in offers]
        for p in self.convoying:
            o = orders[p]
            army = orders.get(o.army.province)  # type: ignore[union-attr]
            if not (type(army) is Move and army.unit == o.army and army.dest.province == o.dest.province):  # type: ignore[union-attr]
                void[p] = ("void: {} was not ordered to {}", o.army, o.dest)  # type: ignore[union-attr]
            elif not self.by_convoy.get(o.army.province):  # type: ignore[union-attr]
                void[p] = ("void: {} moves over land, not by convoy", o.army)  # type: ignore[union-attr]
        for p in (*supports, *self.convoying):
            if p in void:
                known[p] = False
            elif p not in moves_into:
                known[p] = True  # nobody attacks it
        # Facts that stay fixed while the decisions are settled, looked up on the hot path.
        self.live = live = set()  # moves that can succeed
        self.h2h = h2h = {}
        units, convoyed_by = self.units, self.convoyed_by
        move_supports, hold_supports = self.move_supports, self.hold_supports
        plain_moves = not self.options.kolin
        for p, d in dest.items():
            h2h[p] = dest.get(d) == p and self._head_to_head(p)
            if p in void:
                known[p] = False
                continue
            live.add(p)
            if p in convoyed_by or len(moves_into[d]) > 1:
                continue
            if d not in units:
                if plain_moves:
                    known[p] = True
            elif kind[d] is not Move and p not in move_supports and d not in hold_supports:
                known[p] = False  # one against one: it bounces
        self.result.update(known)
        self.settled.update(known)

    def _goes_by_convoy(self, move: Move, fleets: list[str]) -> bool:
        """Whether an army's move uses a convoy (DATC 4.A.3 for adjacent provinces)."""
        if move.unit.type is not _ARMY:
            return False
        if not self.map.army_adjacent(move.unit.province, move.dest.province):
            return True
        rule = self.options.adjacent_convoy
        if rule == "forbidden":
            return False
        if move.via_convoy:
            return True
        if rule == "intent":
            return any(self.units[f].power == move.unit.power for f in fleets)
        return False

    def _match_support(self, p: str, o: Support) -> None:
        supported = o.supported.location.province
        moving_to = self.dest.get(supported)
        if o.dest is None:
            if moving_to is not None:
                self.void[p] = ("void: {} was ordered to move, so it cannot be supported in place", o.supported)
                return
            self.hold_supports.setdefault(supported, []).append(p)
            return
        if moving_to != o.dest.province:
            self.void[p] = ("void: {} was not ordered to {}", o.supported, o.dest)
            return
        if o.dest.coast:
            target_dest = self.orders[supported].dest  # type: ignore[union-attr]
            if target_dest.coast and o.dest.coast != target_dest.coast:
                self.void[p] = ("void: {} was ordered to {}, not {}", o.supported, target_dest, o.dest)
                return
        self.move_supports.setdefault(supported, []).append(p)

    # -- the guess-and-check resolution -----------------------------------------------

    def resolve(self, p: str) -> bool:
        """Settle the decision of the order of the unit in province p.

        An answer that rests on a guess remembers the depth (in the recursion) of the
        order that was guessed: its anchor. Only the order at that depth may try the
        other guess; everything answered meanwhile is forgotten and redone.
        """
        if p in self.settled:
            return self.result[p]
        anchor = self.anchor.get(p)
        if anchor is None and p in self.depth:
            anchor = self.depth[p]  # the recursion came back to an order being settled
        if anchor is not None:
            self.low = min(self.low, anchor)
            return self.result[p]
        depth = self.depth[p] = len(self.depth)
        mark, outer_low = len(self.guessed), self.low
        self.low = _NO_GUESS
        self.result[p] = False
        first = self._adjudicate(p)
        if self.low > depth:
            # No guess was needed: the usual case, settled here without more calls.
            self.settled.add(p)
            self.result[p] = first
            del self.depth[p]
            self.low = outer_low
            return first
        if self.low < depth:
            return self._rest_on_guess(p, first, outer_low)
        self._forget(mark)
        self.low = _NO_GUESS
        self.result[p] = True
        second = self._adjudicate(p)
        cycle = self.guessed[mark:]
        self._forget(mark)
        if self.low < depth:
            return self._rest_on_guess(p, first, outer_low)
        if first == second:
            return self._settle(p, first, outer_low)
        del self.depth[p]
        self.low = outer_low
        self._backup_rule([p, *cycle])
        return self.resolve(p)

    def _settle(self, p: str, value: bool, outer_low: int) -> bool:
        self.settled.add(p)
        self.result[p] = value
        self.depth.pop(p, None)
        self.low = outer_low
        return value

    def _rest_on_guess(self, p: str, value: bool, outer_low: int) -> bool:
        self.anchor[p] = self.low
        self.guessed.append(p)
        self.result[p] = value
        del self.depth[p]
        self.low = min(outer_low, self.low)
        return value

    def _forget(self, mark: int) -> None:
        for q in self.guessed[mark:]:
            self.anchor.pop(q, None)
        del self.guessed[mark:]

    def _backup_rule(self, cycle: list[str]) -> None:
        fleets = [q for q in cycle if isinstance(self.orders[q], Convoy)]
        if fleets:
            # Szykman: the convoying fleets of the paradox do not convoy.
            for q in fleets:
                self.settled.add(q)
                self.result[q] = False
                self.paradox.add(q)
            return
        moves_only = all(isinstance(self.orders[q], Move) for q in cycle)
        for q in cycle:
            self.settled.add(q)
            self.result[q] = moves_only  # circular movement succeeds; anything else fails

    def _adjudicate(self, p: str) -> bool:
        kind = self.kind[p]
        if kind is Move:
            return self._move_succeeds(p)
        if kind is Support:
            return self._support_given(p)
        return self._convoy_holds(p)

    # -- moves ------------------------------------------------------------------------

    def _move_succeeds(self, p: str) -> bool:
        if p not in self.live:
            return False
        attack = self.attack_strength(p)
        if attack == 0:
            return False
        dest = self.dest[p]
        if self.h2h[p]:
            if attack <= self.defend_strength(dest):
                return False
        elif attack <= self.hold_strength(dest):
            return False
        for q in self.moves_into[dest]:
            if q != p and attack <= self.prevent_strength(q, attack):
                return False
        if self.options.kolin and self._attacked(p):
            return False  # s32: it turns to face its attacker
        return True

    def _attacked(self, p: str) -> bool:
        """Whether a unit of another power attacks p (by a route that holds)."""
        mine = self.owner[p]
        return any(self.owner[q] != mine and self.path(q) for q in self.moves_into.get(p, ()))

    def dislodged(self, p: str) -> bool:
        """Whether the unit in p stays and another unit takes its space."""
        return not self.moves(p) and any(self.moves(q) for q in self.moves_into.get(p, ()))

    def moves(self, p: str) -> bool:
        """Whether the unit in p is ordered to move and its move succeeds."""
        return p in self.live and self.resolve(p)

    def head_to_head(self, p: str) -> bool:
        """Whether p's move and the move of the unit it attacks cross the same border."""
        return self.h2h.get(p, False)

    def _head_to_head(self, p: str) -> bool:
        order = self.orders[p]
        assert isinstance(order, Move)
        dest = order.dest.province
        other = self.orders.get(dest)
        if not isinstance(other, Move) or other.dest.province != p or dest in self.void:
            return False
        if self.by_convoy.get(p) or self.by_convoy.get(dest):
            # Exchange by convoy (s30): allowed by the rulebooks, a head-on clash where forbidden.
            return not self.options.convoy_swap
        if self.options.guard_swap and order.unit.power == other.unit.power:
            return False  # s29, the changing of the guard
        if self.options.coastal_crawl and order.unit.type is UnitType.FLEET and other.unit.type is UnitType.FLEET:
            # Fleets passing along different coasts of one province do not meet.
            if order.dest != other.unit.location or other.dest != order.unit.location:
                return False
        return True

    def path(self, p: str) -> bool:
        """Whether the unit in p can get to its destination (always, over land)."""
        if p not in self.convoyed_by:
            return True
        if p in self.void:
            return False
        fleets = self.convoyed_by[p]
        dest = self.orders[p].dest.province  # type: ignore[union-attr]
        if self.options.convoy_routes == "every-route":
            if not all(self.resolve(f) for f in fleets):
                return False
            return True
        return convoys.route_through(self.map, p, dest, fleets, self.resolve)

    def _supports(self, p: str, table: dict[str, list[str]], exclude_power: str | None = None) -> int:
        count = 0
        for s in table.get(p, ()):
            if exclude_power is not None and self.owner[s] == exclude_power:
                continue
            if s in self.settled:
                count += self.result[s]
            elif self.resolve(s):
                count += 1
        return count

    def attack_strength(self, p: str) -> int:
        """Strength of the move from p to take its destination (DATC 5.B.8)."""
        if p in self.convoyed_by and not self.path(p):
            return 0
        dest = self.dest[p]
        occupant = self.owner.get(dest)
        if occupant is None or (not self.h2h[p] and dest in self.live and self.resolve(dest)):
            return 1 + self._supports(p, self.move_supports)
        if occupant == self.owner[p]:
            return 0
        return 1 + self._supports(p, self.move_supports, exclude_power=occupant)

    def hold_strength(self, province: str) -> int:
        """Strength of a province against a move into it (DATC 5.B.5)."""
        if province not in self.units:
            return 0
        if province in self.dest:
            return 0 if self.moves(province) else 1
        return 1 + self._supports(province, self.hold_supports)

    def defend_strength(self, p: str) -> int:
        """Strength of a unit in a head-to-head battle (DATC 5.B.7)."""
        return 1 + self._supports(p, self.move_supports)

    def prevent_strength(self, p: str, attack: int | None = None) -> int:
        """Strength of a move to keep others out of its destination (DATC 5.B.6).

        `attack` is the strength of the move being kept out, which matters only to
        Koning's rule without Wells' extension.
        """
        options = self.options
        if p in self.convoyed_by and not self.path(p):
            if options.disrupted_stands_off and p not in self.void:
                return 1 + self._supports(p, self.move_supports)
            return 0
        if options.miller and self.dislodged(p):
            return 0
        dest = self.dest[p]
        if options.koning and (self.h2h[p] or (options.dislodged_bounce == "always"
                                               and self.dest.get(dest) == p and dest in self.live)):
            if self.moves(dest):
                # Dislodged by the unit from the space it attacked (s1, DATC 4.A.7).
                if options.wells:
                    return 0
                strength = 1 + self._supports(p, self.move_supports)
                return strength if attack is not None and strength > attack else 0
        if options.gilliland == "chalker" and self.owner.get(dest) == self.owner[p] and not self.moves(dest):
            return 0  # s26, Chalker: an attack on one's own unit stands nothing off
        return 1 + self._supports(p, self.move_supports)

    # -- supports and convoys ---------------------------------------------------------

    def _support_given(self, p: str) -> bool:
        if p in self.void:
            return False
        order: Support = self.orders[p]  # type: ignore[assignment]
        attackers = self.moves_into.get(p)
        if not attackers:
            return True
        options = self.options
        if options.miller and self.dislodged(p):
            return False  # Miller's rule: a dislodged unit has no effect
        target = order.dest.province if order.dest else order.supported.province
        mine = self.owner[p]
        for q in attackers:
            if self.owner[q] == mine:
                continue  # a power cannot cut its own support (seed 004 s9)
            if q == target:
                # Attacked from the space it supports into: cut only if dislodged (s3).
                if options.boardman == "cut" and self.moves(q):
                    return False
                continue
            if not self.path(q):
                if not (options.disrupted_cuts_support and q in self.convoyed_by and q not in self.void):
                    continue  # Brannan B: a disrupted convoy cuts nothing
            if q in self.convoyed_by:
                if self._paradox_rule_spares(q, order) or (options.brannan_a and self._from_last_fleet(q, target)):
                    continue
            if options.miller and self.dislodged(q):
                continue
            if options.von_metzke and self._attacked(q):
                continue  # s8: the cutting unit turned to face its own attacker
            return False
        return True

    def _from_last_fleet(self, army: str, target: str) -> bool:
        """Brannan A: the support goes into a convoying fleet's space next to the army's goal."""
        return target in self.convoyed_by[army] and self.dest[army] in self.map.sea_neighbours(target)

    def _paradox_rule_spares(self, army: str, support: Support) -> bool:
        """Whether a convoyed army's attack leaves this support uncut (the printed paradox rules)."""
        rule = self.options.convoy_paradox
        if rule == "szykman":
            return False
        if rule == "rule-1982":
            target = support.dest.province if support.dest else support.supported.province
            # A support into a body of water holding a convoying fleet is not cut.
            return (self.map.provinces[target].is_sea and self.kind.get(target) is Convoy
                    and target not in self.void)
        if support.dest is None:
            return False
        target = support.dest.province
        fleets = self.convoyed_by.get(army, [])
        if target not in fleets:
            return False
        if rule == "rule-1971":
            return self.orders[support.supported.province].unit.type is UnitType.FLEET
        # 2000/2023: only a fleet the convoy cannot do without (it lies on every route).
        routes = convoys.routes(self.map, army, self.dest[army], fleets)
        return bool(routes) and all(target in route for route in routes)

    def _convoy_holds(self, p: str) -> bool:
        if p in self.void:
            return False
        return not any(self.moves(q) for q in self.moves_into.get(p, ()))

    # -- the outcome ------------------------------------------------------------------

    def run(self) -> MovementResult:
        """Settle every order and work out the new board, dislodgements and standoffs."""
        resolve, settled = self.resolve, self.settled
        for p, k in self.kind.items():
            if k is not Hold and p not in settled:
                resolve(p)
        result, dest, units, orders = self.result, self.dest, self.units, self.orders
        moved = [p for p in dest if result[p]]  # in the board's order: no set order leaks out
        winners = {dest[p]: p for p in moved}
        new_units = dict(units)
        for p in moved:
            del new_units[p]
        dislodged = []
        for d, p in winners.items():
            if d in new_units:
                dislodged.append(self._dislodged(new_units.pop(d), p))
        for p in moved:
            order = orders[p]
            new_units[dest[p]] = Unit(order.unit.power, order.unit.type, order.dest)  # type: ignore[union-attr]
        # A standoff leaves a space empty where two or more units tried to enter.
        moves_into, prevent_strength = self.moves_into, self.prevent_strength
        standoffs = frozenset(
            d for d in self.contested
            if d not in new_units and sum(1 for q in moves_into[d] if prevent_strength(q) > 0) >= 2)
        if dislodged:
            dislodged = [self._with_retreats(d, new_units, standoffs) for d in dislodged]
        moved = set(moved)
        self._winners, self._moved = winners, moved
        # A move or support succeeds as decided; a hold when the unit was not dislodged.
        results = dict.fromkeys(units, True)
        for d in winners:
            if d in results:
                results[d] = False
        results.update(result)
        for p in self.convoying:
            results[p] = self._succeeded(p, moved, winners.get(p))
        return MovementResult(results, new_units, tuple(dislodged), standoffs, self)

    def _carried(self, fleet: str, army: str) -> bool:
        """Whether the army's convoy ran through this fleet (on a route of fleets that held)."""
        if not self.by_convoy.get(army):
            return False
        held = [f for f in self.convoyed_by[army] if self.result.get(f)]
        dest = self.orders[army].dest.province  # type: ignore[union-attr]
        return any(fleet in route for route in convoys.routes(self.map, army, dest, held))

    def _dislodged(self, unit: Unit, attacker: str) -> Dislodgement:
        return Dislodgement(unit, attacker, bool(self.by_convoy.get(attacker)), ())

    def _with_retreats(self, d: Dislodgement, occupied: dict[str, Unit], standoffs: frozenset[str]) -> Dislodgement:
        attacking = self.orders[d.attacker]
        latimer = self.options.standoff_bars == "participants"
        options: list[Location] = []
        if d.unit.power in self.position.neutral:
            return d  # a neutral power's units are disbanded if dislodged (XIV.2)
        closed = self.position.closed
        for loc in self.map.neighbours(d.unit.type, d.unit.location):
            pid = loc.province
            if pid in occupied or pid in closed:
                continue
            if pid in standoffs and not (latimer and d.unit.province not in self.moves_into[pid]):
                continue  # s18: barred to all, or (Latimer) to those that stood off there
            if pid == d.attacker:
                crawl = (self.options.crawling_retreat and attacking.unit.type is UnitType.FLEET
                         and loc != attacking.unit.location)  # s21
                if not (crawl or (d.convoyed and self.options.retreat_to_convoy_origin)):
                    continue
            options.append(loc)
        return Dislodgement(d.unit, d.attacker, d.convoyed, tuple(options))

    def _succeeded(self, p: str, moved: set[str], dislodger: str | None) -> bool:
        order = self.orders[p]
        if isinstance(order, Move):
            return p in moved
        if p in self.void:
            return False
        if isinstance(order, Support):
            return self.result.get(p, False)
        if isinstance(order, Convoy):
            army = order.army.province
            return (p not in self.paradox and dislodger is None and army in moved
                    and self._carried(p, army))
        return dislodger is None

    def explain(self, p: str) -> str:
        """Why the order of the unit in p succeeded or failed, in plain words."""
        return self._reason(p, self._winners, self._moved)

    def _reason(self, p: str, winners: dict[str, str], moved: set[str]) -> str:
        order = self.orders[p]
        dislodger = winners.get(p) if p not in moved else None
        hit = self._dislodgement_note(p, dislodger) if dislodger else ""
        if isinstance(order, Move):
            if p in moved:
                victim = self.units.get(order.dest.province)
                if victim is not None and order.dest.province not in moved:
                    return f"moved, dislodging {describe_unit(victim)}"
                return "moved"
            return self._why_move_failed(p, order) + hit
        if isinstance(order, Support):
            if p in self.void:
                return _say(self.void[p]) + hit
            if self.result.get(p):
                reason = f"support given to {describe_order(self.orders[order.supported.province])}"
                return reason + hit
            return self._why_support_cut(p, order)
        if isinstance(order, Convoy):
            if p in self.void:
                return _say(self.void[p]) + hit
            if p in self.paradox:
                return "convoy paradox: by the Szykman rule this fleet does not convoy" + hit
            army = order.army.province
            if dislodger:
                return "convoy disrupted: " + hit.lstrip("; ")
            if army in moved and self._carried(p, army):
                return f"convoyed {describe_order(self.orders[army])}"
            if army in moved:
                return f"{describe_unit(order.army)} arrived by another route"
            return f"the army did not arrive: {self._why_move_failed(army, self.orders[army])}"
        if dislodger:
            return hit.lstrip("; ")
        return "held"

    def _dislodgement_note(self, p: str, attacker: str) -> str:
        strength = self.attack_strength(attacker)
        held = self.hold_strength(p) if not isinstance(self.orders[p], Move) else 1
        return f"; dislodged by {describe_order(self.orders[attacker])} ({strength} against {held})"

    def _why_move_failed(self, p: str, order: Order) -> str:
        assert isinstance(order, Move)
        if p in self.void:
            return _say(self.void[p])
        me = describe_unit(order.unit)
        if not self.path(p):
            lost = [f for f in self.convoyed_by.get(p, []) if not self.result.get(f)]
            if lost and all(f in self.paradox for f in lost):
                return "convoy paradox: by the Szykman rule the convoy does not take place"
            names = ", ".join(describe_unit(self.units[f]) for f in lost)
            return f"convoy disrupted: {names} {'was' if len(lost) == 1 else 'were'} dislodged"
        attack = self.attack_strength(p)
        dest = order.dest.province
        occupant = self.units.get(dest)
        if attack == 0 and occupant is not None:
            return f"cannot dislodge its own {describe_unit(occupant)}"
        rivals = [q for q in self.moves_into[dest] if q != p and attack <= self.prevent_strength(q)]
        if rivals:
            against = " and ".join(f"{describe_unit(self.units[q])} ({self.prevent_strength(q)})" for q in rivals)
            return f"bounced: {me} (strength {attack}) against {against}"
        if occupant is not None:
            if self.head_to_head(p):
                return (f"bounced: {me} (strength {attack}) against {describe_unit(occupant)} "
                        f"moving the other way ({self.defend_strength(dest)})")
            uncounted = [s for s in self.move_supports.get(p, ()) if self.owner[s] == occupant.power and self.result.get(s)]
            aside = (f"; support from {self.position.variant.powers[occupant.power].name} cannot count "
                     f"against its own {describe_unit(occupant)}") if uncounted else ""
            if isinstance(self.orders[dest], Move):
                return (f"bounced: {me} (strength {attack}) against {describe_unit(occupant)}, "
                        f"which failed to move away ({self.hold_strength(dest)}){aside}")
            return (f"bounced: {me} (strength {attack}) against {describe_unit(occupant)} "
                    f"holding ({self.hold_strength(dest)}){aside}")
        return f"failed: {me} (strength {attack})"

    def _why_support_cut(self, p: str, order: Support) -> str:
        target = order.dest.province if order.dest else order.supported.province
        for q in self.moves_into.get(p, ()):
            attacker = self.orders[q]
            if attacker.unit.power == order.unit.power:
                continue
            if q == target:
                if self.moves(q):
                    return (f"support cut: dislodged by {describe_order(attacker)} "
                            f"({self.attack_strength(q)} against {self.hold_strength(p)})")
                continue
            if self.path(q):
                if self.moves(q):
                    return (f"support cut: dislodged by {describe_order(attacker)} "
                            f"({self.attack_strength(q)} against {self.hold_strength(p)})")
                return f"support cut by {describe_order(attacker)}"
        return "support cut"
