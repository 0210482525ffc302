"""The board in DAIDE: turns, units, the map definition, positions and centres, orders both ways.

Everything here translates between gamesmaster's values (`Variant`, `Position`, `Order`,
`Fate`) and DAIDE tokens for one variant's `Vocabulary`. Reading an order a bot sent
gives the order in gamesmaster's canonical notation (which the gamesmaster then reads
and checks like any player's order) or the DAIDE note that says at once why it cannot
stand: a unit that is not there (NSU), not the bot's (NYU), an order of the wrong
season (NRS). Which orders are legal is the gamesmaster's answer; `note_for` only names
the DAIDE note for an order the gamesmaster did not accept, from the position's facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..gm import (BOUNCE, CUT, DISLODGED, DISRUPTED, NO_CONVOY, VOID, Build, Convoy, Disband, Fate, Hold, Location,
                  Move, Order, Phase, Position, Remove, Retreat, Support, Unit, UnitOrder, UnitType, Variant, Waive)
from .syntax import Group, Reader, Unreadable, bracket
from .tokens import COAST_IDS, COAST_TOKENS, T, Vocabulary, integer

SEASONS = {("S", "M"): T.SPR, ("S", "R"): T.SUM, ("F", "M"): T.FAL, ("F", "R"): T.AUT, ("W", "A"): T.WIN}
PHASES = {v: k for k, v in SEASONS.items()}
UNIT_TYPES = {UnitType.ARMY: T.AMY, UnitType.FLEET: T.FLT}


def turn(phase: Phase) -> list[int]:
    """A phase as a DAIDE turn: (SPR 1901)."""
    return bracket(SEASONS[(phase.season, phase.kind)], integer(phase.year))


def read_turn(r: Reader) -> Phase:
    """Read a turn group: (FAL 1902)."""
    sub = r.sub()
    season = sub.token(*PHASES)
    year = sub.integer()
    sub.end()
    s, kind = PHASES[season]
    return Phase(s, year, kind)


def leading_turn(r: Reader) -> Phase | None:
    """A turn where a message may begin with one (SUB (turn) ..., SND (turn) ...), else None."""
    first = r.peek()
    if isinstance(first, Group) and first.items and isinstance(first.items[0], int) and first.items[0] in PHASES:
        return read_turn(r)
    return None


def read_powers(r: Reader, vocab: Vocabulary) -> list[str]:
    """The rest of a group, every item a power token."""
    powers = []
    while r.more():
        item = r.peek()
        pid = vocab.power_ids.get(item) if isinstance(item, int) else None
        if pid is None:
            raise r.fail("a power was expected")
        r.i += 1
        powers.append(pid)
    return powers


def location(vocab: Vocabulary, loc: Location) -> list[int]:
    """A province, or (province coast) for a fleet on one of two coasts."""
    province = vocab.provinces[loc.province]
    return [province] if not loc.coast else bracket(province, COAST_TOKENS[loc.coast])


def unit(vocab: Vocabulary, u: Unit) -> list[int]:
    """A unit: (ENG FLT LON)."""
    return bracket(vocab.powers[u.power], UNIT_TYPES[u.type], location(vocab, u.location))


def read_location(r: Reader, vocab: Vocabulary) -> Location:
    """A province or (province coast); an unknown coast is read as given (the order is then refused)."""
    if isinstance(r.peek(), int):
        return _province(r, vocab)
    sub = r.sub()
    pid = vocab.province_ids.get(sub.token())
    if pid is None:
        raise Unreadable(sub.group.at[0], "a province was expected")
    coast = COAST_IDS.get(sub.token())
    if coast is None:
        raise Unreadable(sub.group.at[1], "a coast was expected")
    sub.end()
    return Location(pid, coast)


def read_unit(r: Reader, vocab: Vocabulary) -> Unit:
    """A unit group: (power type location)."""
    sub = r.sub()
    power = vocab.power_ids.get(sub.token())
    if power is None:
        raise Unreadable(sub.group.at[0], "a power was expected")
    kind = sub.token(T.AMY, T.FLT)
    loc = read_location(sub, vocab)
    sub.end()
    return Unit(power, UnitType.ARMY if kind == T.AMY else UnitType.FLEET, loc)


def provinces_of(vocab: Vocabulary, pids: Sequence[str]) -> list[int]:
    """Province tokens, in token order."""
    return sorted(vocab.provinces[p] for p in pids if p in vocab.provinces)


# -- the map, the position, the centres ---------------------------------------------------------------


def map_definition(vocab: Vocabulary) -> list[int]:
    """MDF (powers) (provinces) (adjacencies) for the vocabulary's variant."""
    variant: Variant = vocab.variant
    board = variant.map
    powers = sorted(vocab.powers.values())
    homes = {c for p in variant.powers.values() for c in p.home_centres}
    centres = []
    for pid in sorted(variant.powers, key=lambda p: vocab.powers[p]):
        owned = provinces_of(vocab, variant.powers[pid].home_centres)
        centres.extend(bracket(vocab.powers[pid], owned))
    neutral = provinces_of(vocab, [p.id for p in board.provinces.values() if p.supply_centre and p.id not in homes])
    centres.extend(bracket(T.UNO, neutral))
    others = provinces_of(vocab, [p for p in vocab.provinces if not board.provinces[p].supply_centre])
    adjacencies: list[int] = []
    for pid in sorted(vocab.provinces, key=lambda p: vocab.provinces[p]):
        adjacencies.extend(bracket(vocab.provinces[pid], _adjacency(vocab, pid)))
    return [T.MDF, *bracket(powers), *bracket(bracket(centres), bracket(others)), *bracket(adjacencies)]


def _adjacency(vocab: Vocabulary, pid: str) -> list[int]:
    board = vocab.variant.map
    out: list[int] = []
    armies = sorted(vocab.provinces[p] for p in board.army_edges.get(pid, ()) if p in vocab.provinces)
    if board.can_hold(UnitType.ARMY, Location(pid)):
        out.extend(bracket(T.AMY, armies))
    for loc in board.fleet_locations(pid):
        targets: list[int] = []
        for dest in sorted(board.fleet_edges.get(loc, ()), key=lambda d: (vocab.provinces[d.province], d.coast or "")):
            targets.extend(location(vocab, dest))
        head = [T.FLT] if not loc.coast else bracket(T.FLT, COAST_TOKENS[loc.coast])
        out.extend(bracket(head, targets))
    return out


def supply_centres(vocab: Vocabulary, position: Position) -> list[int]:
    """SCO (power centre ...) ... (UNO centre ...)."""
    out = [T.SCO]
    for power in sorted(vocab.variant.powers, key=lambda p: vocab.powers[p]):
        owned = position.centres_of(power)
        if owned:
            out.extend(bracket(vocab.powers[power], provinces_of(vocab, owned)))
    unowned = [c for c in vocab.variant.supply_centres if c not in position.centres]
    if unowned:
        out.extend(bracket(T.UNO, provinces_of(vocab, unowned)))
    return out


def now(vocab: Vocabulary, position: Position) -> list[int]:
    """NOW (turn) (unit) ...; in a retreat phase each dislodged unit with MRT (where it may go)."""
    out = [T.NOW, *turn(position.phase)]
    units = sorted(position.units.values(), key=lambda u: (vocab.powers[u.power], vocab.provinces[u.province]))
    for u in units:
        out.extend(unit(vocab, u))
    for d in sorted(position.dislodged, key=lambda d: (vocab.powers[d.unit.power], vocab.provinces[d.unit.province])):
        options: list[int] = []
        for loc in d.retreats or ():
            options.extend(location(vocab, loc))
        out.extend(bracket(unit(vocab, d.unit)[1:-1], T.MRT, bracket(options)))
    return out


# -- orders -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    """A bot's order read: the order as gamesmaster's value, the verb it was sent with, and a note when it cannot stand."""

    order: Order
    verb: int  # the DAIDE order token (HLD, MTO, CTO, ...)
    note: int | None = None  # a DAIDE order note (NSU, NYU, NRS, ...) when refused before the gamesmaster looks
    tokens: tuple[int, ...] = ()  # the order as the bot sent it (what THX repeats)

    @property
    def text(self) -> str:
        """The order in gamesmaster's canonical notation."""
        return str(self.order)  # the canonical form

    @property
    def key(self) -> str:
        """Which unit the order is for: a later order for the same unit replaces it."""
        return self.order.unit.province if isinstance(self.order, UnitOrder) else "waive"


def written(vocab: Vocabulary, order: Order) -> Written:
    """An order already on record, as if the bot had sent it."""
    verb = next((v for kind, v in _VERBS if isinstance(order, kind)), T.HLD)
    tokens = order_tokens(vocab, order)
    if isinstance(order, Move) and T.CTO in tokens:
        verb = T.CTO
    return Written(order, verb, None, tuple(bracket(tokens)))


def read_order(r: Reader, vocab: Vocabulary, position: Position, power: str) -> Written:
    """One order group of SUB. Syntax errors raise Unreadable; orders that cannot stand carry their note."""
    group = r.group_()
    tokens = tuple(group.flat())
    o = Reader(group)
    if isinstance(o.peek(), int):  # (power WVE)
        who = vocab.power_ids.get(o.token())
        if who is None:
            raise Unreadable(group.at[0], "a power was expected")
        o.token(T.WVE)
        o.end()
        note = T.NYU if who != power else (None if position.phase.is_adjustment else T.NRS)
        return Written(Waive(who), T.WVE, note, tokens)
    u = read_unit(o, vocab)
    verb = o.token(T.HLD, T.MTO, T.SUP, T.CVY, T.CTO, T.RTO, T.DSB, T.BLD, T.REM)
    order, others = read_verb(o, vocab, u, verb)
    o.end()
    return Written(order, verb, _standing_note(position, power, u, verb, others), tokens)


def _province(o: Reader, vocab: Vocabulary) -> Location:
    """A province token (no coast)."""
    item = o.peek()
    pid = vocab.province_ids.get(item) if isinstance(item, int) else None
    if pid is None:
        raise o.fail("a province was expected")
    o.i += 1
    return Location(pid)


def read_verb(o: Reader, vocab: Vocabulary, u: Unit, verb: int) -> tuple[Order, list[Unit]]:
    """The order as gamesmaster's value, and the other units it names."""
    if verb == T.HLD:
        return Hold(u), []
    if verb == T.MTO:
        return Move(u, read_location(o, vocab)), []
    if verb == T.RTO:
        return Retreat(u, read_location(o, vocab)), []
    if verb == T.SUP:
        other = read_unit(o, vocab)
        if o.accept(T.MTO):
            return Support(u, other, _province(o, vocab)), [other]
        return Support(u, other), [other]
    if verb == T.CVY:
        other = read_unit(o, vocab)
        o.token(T.CTO)
        return Convoy(u, other, _province(o, vocab)), [other]
    if verb == T.CTO:
        dest = read_location(o, vocab)
        o.token(T.VIA)
        path = o.sub()
        seas = []
        while path.more():
            seas.append(_province(path, vocab).province)
        # The route is not part of gamesmaster's order (any route of convoying fleets carries
        # the army); its fleets are checked, so a route through empty seas is refused.
        return Move(u, dest, via_convoy=True), [Unit(u.power, UnitType.FLEET, Location(s)) for s in seas]
    if verb == T.BLD:
        return Build(u), []
    if verb == T.REM:
        return Remove(u), []
    return Disband(u), []


_VERBS = ((Hold, T.HLD), (Move, T.MTO), (Support, T.SUP), (Convoy, T.CVY), (Retreat, T.RTO), (Disband, T.DSB),
          (Build, T.BLD), (Remove, T.REM), (Waive, T.WVE))
_SEASON_OF = {T.HLD: "M", T.MTO: "M", T.SUP: "M", T.CVY: "M", T.CTO: "M", T.RTO: "R", T.DSB: "R",
              T.BLD: "A", T.REM: "A"}


def _standing_note(position: Position, power: str, u: Unit, verb: int, others: list[Unit]) -> int | None:
    """The note of an order that cannot stand whatever the rules say: wrong season, no such unit, not yours."""
    if _SEASON_OF[verb] != position.phase.kind:
        return T.NRS
    if u.power != power:
        return T.NYU
    if verb == T.BLD:
        return None
    if position.phase.is_retreat:
        if not any(d.unit == u for d in position.dislodged):
            return T.NRN if position.units.get(u.province) == u else T.NSU
        return None
    if position.units.get(u.province) != u:
        return T.NSU
    for other in others:
        there = position.units.get(other.province)
        if verb == T.CTO and (there is None or there.type is not UnitType.FLEET):
            return T.NSF
        if verb == T.CVY and other.type is not UnitType.ARMY:
            return T.NSA
        if verb != T.CTO and there != other:
            return T.NSU
    return None


def note_for(position: Position, power: str, written: Written) -> int:
    """The DAIDE note for an order the gamesmaster did not accept, named from the position's facts."""
    board = position.map
    order, verb = written.order, written.verb
    if isinstance(order, Build):
        return _build_note(position, power, order)
    if isinstance(order, (Retreat, Disband)):
        return T.NVR
    if isinstance(order, Convoy):
        if order.unit.type is not UnitType.FLEET:
            return T.NSF
        if not board.provinces[order.unit.province].is_sea:
            return T.NAS
        if order.army.type is not UnitType.ARMY:
            return T.NSA
        return T.FAR
    if isinstance(order, Move):
        if verb == T.CTO and order.unit.type is not UnitType.ARMY:
            return T.NSA
        dest = order.dest
        if order.unit.type is UnitType.FLEET and not dest.coast and len(board.fleet_targets(order.unit.location, dest.province)) > 1:
            return T.CST
        return T.FAR
    if isinstance(order, Support):
        return T.FAR
    if isinstance(order, Remove):
        return T.NSU
    return T.FAR if position.phase.is_movement else T.NRS


def _build_note(position: Position, power: str, order: Build) -> int:
    """Why a build cannot be made: not a centre, not a home centre, not owned, occupied, or the wrong kind of unit."""
    pid = order.unit.province
    board = position.map
    province = board.provinces.get(pid)
    if province is None or not province.supply_centre:
        return T.NSC
    if pid not in position.variant.powers[power].home_centres:
        return T.HSC
    if position.centres.get(pid) != power:
        return T.YSC
    if pid in position.units:
        return T.ESC
    if not board.can_hold(order.unit.type, order.unit.location):
        return T.CST
    return T.NMB


# -- results ----------------------------------------------------------------------------------------


def order_tokens(vocab: Vocabulary, order: Order, route: Sequence[str] = ()) -> list[int]:
    """An order in DAIDE tokens (for ORD and the history); route: a convoyed move's seas, in order."""
    if not isinstance(order, UnitOrder):
        assert isinstance(order, Waive)
        return [vocab.powers[order.power], T.WVE]
    me = unit(vocab, order.unit)
    if isinstance(order, Hold):
        return [*me, T.HLD]
    if isinstance(order, Move):
        dest = location(vocab, order.dest)
        if order.via_convoy or (order.unit.type is UnitType.ARMY
                                and not vocab.variant.map.army_adjacent(order.unit.province, order.dest.province)):
            return [*me, T.CTO, *dest, T.VIA, *bracket([vocab.provinces[sea] for sea in route])]
        return [*me, T.MTO, *dest]
    if isinstance(order, Support):
        if order.dest is None:
            return [*me, T.SUP, *unit(vocab, order.supported)]
        return [*me, T.SUP, *unit(vocab, order.supported), T.MTO, vocab.provinces[order.dest.province]]
    if isinstance(order, Convoy):
        return [*me, T.CVY, *unit(vocab, order.army), T.CTO, vocab.provinces[order.dest.province]]
    if isinstance(order, Retreat):
        return [*me, T.RTO, *location(vocab, order.dest)]
    if isinstance(order, Build):
        return [*me, T.BLD]
    if isinstance(order, Remove):
        return [*me, T.REM]
    return [*me, T.DSB]  # Disband


_RESULTS = {BOUNCE: T.BNC, CUT: T.CUT, VOID: T.NSO, NO_CONVOY: T.NSO, DISRUPTED: T.DSR}


def order_result(vocab: Vocabulary, phase: Phase, fate: Fate) -> list[int]:
    """ORD (turn) (order) (result [RET])."""
    order = order_tokens(vocab, fate.order, fate.route)
    # Only a convoyed move (CTO) is disrupted in DAIDE: a convoying fleet whose army bounced did its part.
    convoyed = isinstance(fate.order, Move) and T.CTO in order
    codes = [c for c in fate.codes if c in _RESULTS and (c != DISRUPTED or convoyed)]
    result = [T.SUC] if fate.succeeded or not codes else [_RESULTS[codes[0]]]
    if DISLODGED in fate.codes:
        result.append(T.RET)
    return [T.ORD, *turn(phase), *bracket(order), *bracket(result)]
