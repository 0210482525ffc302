"""Adjudication of a movement phase (Kruijswijk's guess-and-check resolution).

Every move, support and convoy is a decision, and each decision is one function
(`_decide_move`, `_decide_support`, `_decide_convoy`) that returns a verdict
(`gamesmaster.rules.verdicts`): moved, bounced by whom and how strongly, support cut
by which attack, and so on. The verdict's `ok` is the decision's yes or no; an
outcome's reason is only the verdict in words, so a reason can never say something
the decision did not rest on.

`resolve` settles a decision by calling its function, recursively settling whatever
it depends on; when the recursion comes back to a decision still being settled, the
decision is guessed, tried both ways, and a cycle with no single answer is settled by
the backup rule (circular movement succeeds; a convoy paradox by the Szykman rule).
A verdict worked out under a guess may rest on answers later undone, so such a
decision is decided once more when every answer is final, and that verdict is kept.
The strength definitions are those of DATC v3.0 section 5.B.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from . import convoys
from .geography import Location, Map, UnitType
from .options import RuleOptions
from .orders import Convoy, Hold, Move, Support, UnitOrder
from .position import Dislodgement, Position, Unit
from .verdicts import (CONTENDING, HOLDING, STAYED, ArmyStayed, Bounced, ConvoyCancelled, ConvoyDislodged,
                       ConvoyDisrupted, Convoyed, ConvoyHeld, Dislodged, Held, KolinRule, LostHeadToHead, Moved,
                       NoEffect, Opposition, OtherRoute, OwnUnitInTheWay, SupportCut, SupportGiven, Template,
                       Unresolved, Verdict, Void)

_ARMY = UnitType.ARMY
_NO_GUESS = 1 << 30
# Verdicts with nothing to name are shared.
_UNOPPOSED, _HELD, _CONVOY_HELD, _CANCELLED = Moved(), Held(), ConvoyHeld(), ConvoyCancelled()


@dataclass(frozen=True)
class MovementResult:
    """The outcome of a movement phase: a verdict per ordered unit and the new board."""

    verdicts: dict[str, Verdict]  # by the province the unit started in, for the orders given
    hits: dict[str, Dislodged]  # units dislodged although their order was not a hold (holds: their verdict)
    units: dict[str, Unit]  # units on the board afterwards (dislodged ones not included)
    dislodged: tuple[Dislodgement, ...]
    standoffs: frozenset[str]


def ambiguous_convoys(position: Position, orders: Mapping[str, UnitOrder]) -> dict[str, str]:
    """Armies whose convoy orders give more than one route (Calhamer: the army holds, s12)."""
    offers: dict[tuple[str, str], list[str]] = {}
    for p, o in orders.items():
        if isinstance(o, Convoy):
            offers.setdefault((o.army.province, o.dest.province), []).append(p)
    out = {}
    for p, o in orders.items():
        if isinstance(o, Move) and o.unit.type is _ARMY:
            fleets = offers.get((p, o.dest.province), [])
            if len(fleets) > 1 and len(convoys.routes(position.map, p, o.dest.province, fleets, limit=2)) > 1:
                out[p] = "invalid: ambiguous: the convoy orders give more than one route, so the army holds (Calhamer)"
    return out


class MovementResolver:
    """Settles one movement phase; build it with every unit's (legal) order.

    With `presettle` (the default) the decisions that depend on no other are taken
    while the orders are indexed, before the recursion; without it the recursion takes
    every decision. Both give the same verdicts (a test runs every case both ways).
    """

    def __init__(self, position: Position, orders: Mapping[str, UnitOrder], options: RuleOptions,
                 void: Mapping[str, Template] | None = None, presettle: bool = True,
                 by_land: frozenset[str] = frozenset()) -> None:
        self.position = position
        # Armies that go by land whatever the convoy orders: under the 1971 reading (DATC 4.A.3 a)
        # an adjacent army whose convoy was disrupted takes the land route instead.
        self.by_land = by_land
        self.map: Map = position.map
        self.options = options
        self.units = position.units
        self.given = orders
        # Province -> why its order has no effect (worded only when a player asks).
        self.void: dict[str, Template] = dict(void or {})
        self.settled: set[str] = set()  # orders whose decision is final
        self.result: dict[str, bool] = {}  # each decision's answer (final once settled)
        self.verdict: dict[str, Verdict] = {}  # each settled decision's verdict
        self.depth: dict[str, int] = {}  # orders being settled, by recursion depth
        self.anchor: dict[str, int] = {}  # orders answered under an open guess -> its depth
        self.guessed: list[str] = []  # those orders, in the order they were answered
        self.low = _NO_GUESS  # the shallowest guess the current answer rests on
        self.redecide: list[str] = []  # settled decisions whose verdict may rest on undone guesses
        self.final = False  # every decision settled: a bounce then names every unit that stood it off
        self.paradox: set[str] = set()  # convoys cancelled by the paradox rule
        self.move_supports: dict[str, list[str]] = {}
        self.hold_supports: dict[str, list[str]] = {}
        self.convoyed_by: dict[str, list[str]] = {}  # army province -> its convoying fleets
        self.by_convoy: set[str] = set()
        self._index(orders)
        if presettle:
            self._presettle()

    # -- matching orders to each other -------------------------------------------------

    def _index(self, given: Mapping[str, UnitOrder]) -> None:
        """Index the orders once, in one pass over the units in the board's order: who
        moves where, who convoys and supports whom. A unit without an order holds, and a
        hold is no decision."""
        self.moves: dict[str, Move] = {}
        self.supports: dict[str, Support] = {}
        self.convoys: dict[str, Convoy] = {}
        self.dest: dict[str, str] = {}  # a move's destination province
        self.moves_into: dict[str, list[str]] = {}
        self.contested: list[str] = []  # spaces two or more units try to enter
        self.decisions: list[str] = []  # the moves, supports and convoys, in the board's order
        moves, supports, convoy_orders, dest, moves_into = self.moves, self.supports, self.convoys, self.dest, self.moves_into
        decisions = self.decisions
        offers: dict[tuple[str, str], list[str]] = {}
        armies: list[str] = []
        for p, u in self.units.items():
            o = given.get(p)
            if type(o) is Move:
                moves[p] = o
                d = dest[p] = o.dest.province
                into = moves_into.get(d)
                if into is None:
                    moves_into[d] = [p]
                else:
                    into.append(p)
                    if len(into) == 2:
                        self.contested.append(d)
                if u.type is _ARMY:
                    armies.append(p)
            elif type(o) is Support:
                supports[p] = o
            elif type(o) is Convoy:
                convoy_orders[p] = o
                offers.setdefault((o.army.province, o.dest.province), []).append(p)
            else:
                continue
            decisions.append(p)
        void = self.void
        army_edges = self.map.army_edges
        for p in armies:
            d = dest[p]
            move = moves[p]
            fleets = offers.get((p, d)) if offers else None
            if fleets is None and not move.via_convoy and d in army_edges[p]:
                continue  # a plain march: no convoy can be meant
            fleets = fleets or []
            if self._goes_by_convoy(move, fleets):
                self.by_convoy.add(p)
                self.convoyed_by[p] = fleets
                if not convoys.sea_route_exists(self.map, p, d, fleets):
                    void[p] = "no convoy route: no chain of fleets was ordered to convoy it"
        for d in self.contested:
            moves_into[d].sort()  # reasons must not depend on the order orders were listed
        move_supports, hold_supports = self.move_supports, self.hold_supports
        for p, support in supports.items():
            # Match each support to the order it supports.
            supported = support.supported.location.province
            target = moves.get(supported)
            if support.dest is None:
                if target is None:
                    hold_supports.setdefault(supported, []).append(p)
                else:
                    void[p] = ("void: {} was ordered to move, so it cannot be supported in place", support.supported)
            elif target is None or target.dest.province != support.dest.province:
                void[p] = ("void: {} was not ordered to {}", support.supported, support.dest)
            elif support.dest.coast and target.dest.coast and support.dest.coast != target.dest.coast:
                void[p] = ("void: {} was ordered to {}, not {}", support.supported, target.dest, support.dest)
            else:
                move_supports.setdefault(supported, []).append(p)
        for p, convoy in convoy_orders.items():
            army = moves.get(convoy.army.province)
            if army is None or army.unit != convoy.army or army.dest.province != convoy.dest.province:
                void[p] = ("void: {} was not ordered to {}", convoy.army, convoy.dest)
            elif convoy.army.province not in self.by_convoy:
                void[p] = ("void: {} moves over land, not by convoy", convoy.army)
        # Facts that stay fixed while the decisions are settled, looked up on the hot path.
        self.live: set[str] = dest.keys() - void.keys()  # moves that can succeed
        self.h2h: set[str] = {p for p, d in dest.items() if dest.get(d) == p and self._head_to_head(p)}

    def _presettle(self) -> None:
        """Take first the decisions that depend on no other.

        A void order; a support or convoy nobody attacks; a move over land into an
        empty space no one else enters (unless Kolin's rule has it turn to face an
        attacker); an unsupported move over land against a unit that stays, with no
        support either, and no one else entering. Their decision functions answer
        without asking any other decision, so the recursion then meets only the
        contested orders.
        """
        void, moves_into, units, moves = self.void, self.moves_into, self.units, self.moves
        verdicts, result, settled = self.verdict, self.result, self.settled
        for table, decide in ((self.supports, self._decide_support), (self.convoys, self._decide_convoy)):
            for p in table:
                if p in void or p not in moves_into:
                    v = verdicts[p] = decide(p)
                    result[p] = v.ok
                    settled.add(p)
        plain_moves = not self.options.kolin
        move_supports, hold_supports, convoyed_by = self.move_supports, self.hold_supports, self.convoyed_by
        decide_move = self._decide_move
        for p, d in self.dest.items():
            if p in void:
                pass
            elif p in convoyed_by or len(moves_into[d]) > 1:
                continue
            elif d not in units:
                if not plain_moves:
                    continue
            elif d in moves or p in move_supports or d in hold_supports:
                continue
            v = verdicts[p] = decide_move(p)
            result[p] = v.ok
            settled.add(p)

    def _goes_by_convoy(self, move: Move, fleets: list[str]) -> bool:
        """Whether an army's move uses a convoy (DATC 4.A.3 for adjacent provinces)."""
        if move.unit.type is not _ARMY:
            return False
        if not self.map.army_adjacent(move.unit.province, move.dest.province):
            return True
        rule = self.options.adjacent_convoy
        if rule == "forbidden" or move.unit.province in self.by_land:
            return False
        if move.via_convoy:
            return True
        if rule == "intent":
            return any(self.units[f].power == move.unit.power for f in fleets)
        if rule == "opposite":
            # The 1971 rulebook as the DATC reads it: the convoy is taken when the unit at the
            # destination moves the opposite way, whoever's fleets convoy (kidnapping is possible).
            other = self.given.get(move.dest.province)
            return type(other) is Move and other.dest.province == move.unit.province
        return False

    def _head_to_head(self, p: str) -> bool:
        """Whether p's move and the move of the unit it attacks cross the same border."""
        order = self.moves[p]
        dest = order.dest.province
        other = self.moves.get(dest)
        if other is None or other.dest.province != p or dest in self.void:
            return False
        if p in self.by_convoy or dest in self.by_convoy:
            # Exchange by convoy (s30): allowed by the rulebooks, a head-on clash where forbidden.
            return not self.options.convoy_swap
        if self.options.guard_swap and order.unit.power == other.unit.power:
            return False  # s29, the changing of the guard
        if self.options.coastal_crawl and order.unit.type is UnitType.FLEET and other.unit.type is UnitType.FLEET:
            # Fleets passing along different coasts of one province do not meet.
            if order.dest != other.unit.location or other.dest != order.unit.location:
                return False
        return True

    # -- the guess-and-check resolution -----------------------------------------------

    def resolve(self, p: str) -> bool:
        """Settle the decision of the order of the unit in province p; its answer.

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
        first = self._decide(p)
        if self.low > depth:
            # No guess was needed: the usual case, settled here with its verdict.
            self.settled.add(p)
            self.verdict[p] = first
            ok = self.result[p] = first.ok
            del self.depth[p]
            self.low = outer_low
            return ok
        if self.low < depth:
            return self._rest_on_guess(p, first.ok, outer_low)
        self._forget(mark)
        self.low = _NO_GUESS
        self.result[p] = True
        second = self._decide(p)
        cycle = self.guessed[mark:]
        self._forget(mark)
        if self.low < depth:
            return self._rest_on_guess(p, first.ok, outer_low)
        if first.ok == second.ok:
            self.redecide.append(p)
            return self._settle(p, first.ok, outer_low)
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
        fleets = [q for q in cycle if q in self.convoys]
        if fleets:
            # Szykman: the convoying fleets of the paradox do not convoy.
            for q in fleets:
                self.settled.add(q)
                self.result[q] = False
                self.verdict[q] = _CANCELLED
                self.paradox.add(q)
            return
        moves_only = all(q in self.moves for q in cycle)
        for q in cycle:
            self.settled.add(q)
            self.result[q] = moves_only  # circular movement succeeds; anything else fails
            self.redecide.append(q)

    def _decide(self, p: str) -> Verdict:
        if p in self.moves:
            return self._decide_move(p)
        if p in self.supports:
            return self._decide_support(p)
        return self._decide_convoy(p)

    # -- moves ------------------------------------------------------------------------

    def _decide_move(self, p: str) -> Verdict:
        """The decision of a move: does it succeed, and if not, what kept it out."""
        if p not in self.live:
            return Void(self.void[p])
        if p in self.convoyed_by and not self.path(p):
            return self._disrupted(p)
        d = self.dest[p]
        rivals = self.moves_into[d]
        occupant = self.units.get(d)
        kolin = self.options.kolin
        if occupant is None and len(rivals) == 1 and not kolin:
            return _UNOPPOSED
        attack = self.attack_strength(p)
        if attack == 0:
            assert occupant is not None  # only a unit of its own power takes all strength away
            return OwnUnitInTheWay(occupant)
        unit = self.moves[p].unit
        defence = 0
        if occupant is not None:
            if p in self.h2h:
                defence = self.defend_strength(d)
                if attack <= defence:
                    return LostHeadToHead(unit, attack, occupant, defence)
            else:
                defence = self.hold_strength(d)
                if attack <= defence:
                    how = STAYED if d in self.moves else HOLDING
                    return Bounced(unit, attack, (Opposition(occupant, defence, how),),
                                   self._uncounted(p, occupant))
        stood_off: list[Opposition] = []
        for q in rivals:
            if q != p:
                prevent = self.prevent_strength(q, attack)
                if attack <= prevent:
                    stood_off.append(Opposition(self.units[q], prevent, CONTENDING))
                    if not self.final:
                        break  # the answer is known; the others are named once every answer is final
        if stood_off:
            return Bounced(unit, attack, tuple(stood_off))
        if kolin:
            by = self._attacker(p)
            if by is not None:
                return KolinRule(self.moves[by])  # s32: it turns to face its attacker
        if defence:
            return Moved(attack, occupant, defence)
        return Moved(attack)

    def _uncounted(self, p: str, occupant: Unit) -> str | None:
        """The name of the occupant's power when it supports the attack on its own unit."""
        power = occupant.power
        units = self.units
        if any(units[s].power == power for s in self.move_supports.get(p, ())):
            return self.position.variant.powers[power].name
        return None

    def _disrupted(self, p: str) -> Verdict:
        """Why a convoyed army found no route: the fleets that did not convoy."""
        every_route = self.options.convoy_routes == "every-route"
        lost = []
        for f in self.convoyed_by[p]:
            if not self.resolve(f):
                lost.append(f)
                if every_route:
                    break  # as path() asks: the first fleet lost stops the convoy
        dislodged = tuple(self.units[f] for f in lost if f not in self.paradox)
        cancelled = tuple(self.units[f] for f in lost if f in self.paradox)
        return ConvoyDisrupted(dislodged, cancelled)

    def _attacker(self, p: str) -> str | None:
        """The first unit of another power that attacks p by a route that holds."""
        units = self.units
        mine = units[p].power
        for q in self.moves_into.get(p, ()):
            if units[q].power != mine and self.path(q):
                return q
        return None

    def _dislodger(self, p: str) -> str | None:
        """The unit that takes p's space while p's unit stays (p's order is not a successful move)."""
        if self.moves_success(p):
            return None
        for q in self.moves_into.get(p, ()):
            if self.moves_success(q):
                return q
        return None

    def moves_success(self, p: str) -> bool:
        """Whether the unit in p is ordered to move and its move succeeds."""
        return p in self.live and self.resolve(p)

    def path(self, p: str) -> bool:
        """Whether the unit in p can get to its destination (always, over land)."""
        if p not in self.convoyed_by:
            return True
        if p in self.void:
            return False
        fleets = self.convoyed_by[p]
        if self.options.convoy_routes == "every-route":
            return all(self.resolve(f) for f in fleets)
        return convoys.route_through(self.map, p, self.dest[p], fleets, self.resolve)

    def _supports(self, p: str, table: dict[str, list[str]], exclude_power: str | None = None) -> int:
        supporters = table.get(p)
        if supporters is None:
            return 0
        count = 0
        settled, result, units = self.settled, self.result, self.units
        for s in supporters:
            if exclude_power is not None and units[s].power == exclude_power:
                continue
            if s in settled:
                count += result[s]
            elif self.resolve(s):
                count += 1
        return count

    def attack_strength(self, p: str) -> int:
        """Strength of the move from p to take its destination (DATC 5.B.8)."""
        if p in self.convoyed_by and not self.path(p):
            return 0
        dest = self.dest[p]
        unit = self.units.get(dest)
        if unit is None or (p not in self.h2h and dest in self.live and self.resolve(dest)):
            return 1 + self._supports(p, self.move_supports)
        occupant = unit.power
        if occupant == self.units[p].power:
            return 0
        return 1 + self._supports(p, self.move_supports, exclude_power=occupant)

    def hold_strength(self, province: str) -> int:
        """Strength of a province against a move into it (DATC 5.B.5)."""
        if province not in self.units:
            return 0
        if province in self.dest:
            return 0 if self.moves_success(province) else 1
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
        if options.miller and self._dislodger(p) is not None:
            return 0
        dest = self.dest[p]
        if options.koning and (p in self.h2h or (options.dislodged_bounce == "always"
                                               and self.dest.get(dest) == p and dest in self.live)):
            if self.moves_success(dest):
                # Dislodged by the unit from the space it attacked (s1, DATC 4.A.7).
                if options.wells:
                    return 0
                strength = 1 + self._supports(p, self.move_supports)
                return strength if attack is not None and strength > attack else 0
        if options.gilliland == "chalker":
            occupant = self.units.get(dest)
            if occupant is not None and occupant.power == self.units[p].power and not self.moves_success(dest):
                return 0  # s26, Chalker: an attack on one's own unit stands nothing off
        return 1 + self._supports(p, self.move_supports)

    # -- supports and convoys ---------------------------------------------------------

    def _order_of(self, p: str) -> UnitOrder:
        """The order the unit in p follows (a hold when it was given none)."""
        order = self.given.get(p)
        return Hold(self.units[p]) if order is None else order

    def _decide_support(self, p: str) -> Verdict:
        """The decision of a support: is it given, and if not, which attack cut it."""
        if p in self.void:
            return Void(self.void[p])
        order = self.supports[p]
        attackers = self.moves_into.get(p)
        if not attackers:
            return SupportGiven(self._order_of(order.supported.province))
        options = self.options
        if options.miller:
            by = self._dislodger(p)
            if by is not None:
                return NoEffect(self.moves[by])  # Miller's rule: a dislodged unit has no effect
        target = order.dest.province if order.dest else order.supported.province
        units = self.units
        mine = units[p].power
        for q in attackers:
            if units[q].power == mine:
                continue  # a power cannot cut its own support (seed 004 s9)
            if q == target:
                # Attacked from the space it supports into: cut only if dislodged (s3).
                if options.boardman == "cut" and self.moves_success(q):
                    return SupportCut(self.moves[q])
                continue
            if not self.path(q):
                if not (options.disrupted_cuts_support and q in self.convoyed_by and q not in self.void):
                    continue  # Brannan B: a disrupted convoy cuts nothing
            if q in self.convoyed_by:
                if self._paradox_rule_spares(q, order) or (options.brannan_a and self._from_last_fleet(q, target)):
                    continue
            if options.miller and self._dislodger(q) is not None:
                continue
            if options.von_metzke and self._attacker(q) is not None:
                continue  # s8: the cutting unit turned to face its own attacker
            return SupportCut(self.moves[q])
        return SupportGiven(self._order_of(order.supported.province))

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
            return self.map.provinces[target].is_sea and target in self.convoys and target not in self.void
        if support.dest is None:
            return False
        target = support.dest.province
        fleets = self.convoyed_by.get(army, [])
        if target not in fleets:
            return False
        if rule == "rule-1971":
            return self.units[support.supported.province].type is UnitType.FLEET
        # 2000/2023: only a fleet the convoy cannot do without (it lies on every route).
        routes = convoys.routes(self.map, army, self.dest[army], fleets)
        return bool(routes) and all(target in route for route in routes)

    def _decide_convoy(self, p: str) -> Verdict:
        """The decision of a convoying fleet: is it left in place to convoy."""
        if p in self.void:
            return Void(self.void[p])
        for q in self.moves_into.get(p, ()):
            if self.moves_success(q):
                return ConvoyDislodged(self.moves[q])
        return _CONVOY_HELD

    # -- the outcome ------------------------------------------------------------------

    def run(self) -> MovementResult:
        """Settle every order and work out the new board, dislodgements and standoffs."""
        resolve, settled = self.resolve, self.settled
        for p in self.decisions:
            if p not in settled:
                resolve(p)
        self._final_verdicts()
        result, dest, units, moves, verdicts = self.result, self.dest, self.units, self.moves, self.verdict
        moved = [p for p in dest if result[p]]  # in the board's order: no set order leaks out
        winners = {dest[p]: p for p in moved}
        new_units = dict(units)
        for p in moved:
            del new_units[p]
        dislodged = []
        hits: dict[str, Dislodged] = {}
        for d, p in winners.items():
            if d in new_units:
                dislodged.append(self._dislodged(new_units.pop(d), p))
                won = verdicts[p]
                assert isinstance(won, Moved) and won.attack is not None  # it drove a unit out
                hits[d] = Dislodged(moves[p], won.attack, won.defence)
        for p in moved:
            move = moves[p]
            new_units[dest[p]] = Unit(move.unit.power, move.unit.type, move.dest)
        # A standoff leaves a space empty where two or more units tried to enter.
        moves_into, prevent_strength = self.moves_into, self.prevent_strength
        standoffs = frozenset(
            d for d in self.contested
            if d not in new_units and sum(1 for q in moves_into[d] if prevent_strength(q) > 0) >= 2)
        if dislodged:
            dislodged = [self._with_retreats(d, new_units, standoffs) for d in dislodged]
        return MovementResult(self._outcomes(set(moved), hits), hits, new_units, tuple(dislodged), standoffs)

    def _final_verdicts(self) -> None:
        """Decide again, on the final answers, the decisions whose verdict may rest on a guess,
        and the bounces that may have more than one unit to name."""
        self.final = True
        verdicts, result = self.verdict, self.result
        for p in self.redecide:
            if p not in self.paradox:
                v = self._decide(p)
                # Only a cycle the backup rule failed can disagree with its own answer.
                verdicts[p] = v if v.ok == result[p] else Unresolved()
        for d in self.contested:
            if len(self.moves_into[d]) > 2:
                for p in self.moves_into[d]:
                    v = verdicts[p]
                    if type(v) is Bounced and v.against[0].how == CONTENDING:
                        verdicts[p] = self._decide_move(p)

    def _outcomes(self, moved: set[str], hits: dict[str, Dislodged]) -> dict[str, Verdict]:
        """Each given order's verdict as its outcome: a move's or support's is its decision's;
        a hold's is whether it was dislodged; a convoy's is whether the army came through it."""
        verdicts = self.verdict
        out: dict[str, Verdict] = {}
        for p in self.given:
            v = verdicts.get(p)
            if v is None:  # a hold
                out[p] = hits.pop(p, _HELD)
            elif p in self.convoys:
                out[p] = self._convoy_outcome(p, v, moved)
            else:
                out[p] = v
        return out

    def _convoy_outcome(self, p: str, decision: Verdict, moved: set[str]) -> Verdict:
        if not isinstance(decision, ConvoyHeld):
            return decision  # void, dislodged, or cancelled by the paradox rule
        army = self.convoys[p].army
        if army.province in moved:
            if self._carried(p, army.province):
                return Convoyed(self.moves[army.province])
            return OtherRoute(army)
        return ArmyStayed(army, self.verdict[army.province])

    def _carried(self, fleet: str, army: str) -> bool:
        """Whether the army's convoy ran through this fleet (on a route of fleets that held)."""
        held = [f for f in self.convoyed_by[army] if self.result.get(f)]
        return any(fleet in route for route in convoys.routes(self.map, army, self.dest[army], held))

    def _dislodged(self, unit: Unit, attacker: str) -> Dislodgement:
        return Dislodgement(unit, attacker, attacker in self.by_convoy, ())

    def _with_retreats(self, d: Dislodgement, occupied: dict[str, Unit], standoffs: frozenset[str]) -> Dislodgement:
        assert d.attacker is not None
        attacking = self.moves[d.attacker]
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
