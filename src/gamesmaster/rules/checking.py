"""Checking a power's written orders against the position: which can be followed, and why not.

`Ballot.add` is the one judgement of which orders are acceptable. The adjudicator
puts every power's orders through it before resolving anything, and every door calls
`check_orders` (which makes a ballot of one power's orders) through the gamesmaster to
answer a player order by order when the orders arrive, so the answer a player is given
is the ruling the adjudicator makes. `powers_to_act` says which powers
have anything to order in a phase, `powers_to_choose` which of them have a choice to make.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from . import legality
from .adjustments import balance, can_build_somewhere
from .notation import Reading, parse_order, parse_orders
from .options import RuleOptions
from .orders import ADJUSTMENT_ORDERS, MOVEMENT_ORDERS, RETREAT_ORDERS, Hold, Order, UnitOrder, format_order
from .position import Position
from .retreats import retreat_options

_KINDS = {"M": MOVEMENT_ORDERS, "R": RETREAT_ORDERS, "A": ADJUSTMENT_ORDERS}
_TWO_ORDERS = {"invalid": "neither is followed", "first": "the first counts", "last": "the last counts"}


@dataclass(frozen=True, slots=True)
class Checked:
    """One written order as read and checked: followed, a repeat of another, or why not."""

    reading: Reading
    reason: str | None = None  # why the order cannot be followed; None when it can
    same_as: int | None = None  # the index of an identical earlier order this one repeats

    @property
    def text(self) -> str:
        """The order as the player wrote it."""
        return self.reading.text

    @property
    def order(self) -> Order | None:
        """The order as read (also for some invalid orders: the reading that was refused)."""
        return self.reading.order

    @property
    def accepted(self) -> bool:
        """True when the order will be followed (or is a repeat of one that will)."""
        return self.reason is None

    @property
    def canonical(self) -> str | None:
        """The canonical form of the order read, if any."""
        return format_order(self.reading.order) if self.reading.order is not None else None


class OrderCheck:
    """A power's orders for a phase, each checked, and the order followed for each unit."""

    __slots__ = ("position", "power", "readings", "reasons", "same_as", "chosen", "options", "_orders")

    def __init__(self, position: Position, power: str, readings: list[Reading], reasons: dict[int, str],
                 same_as: dict[int, int], chosen: dict[str, int], options: RuleOptions) -> None:
        self.position = position
        self.power = power
        self.readings = readings  # each written order as read, in the order given
        self.reasons = reasons  # index -> why that order cannot be followed
        self.same_as = same_as  # index -> the index of an identical earlier order it repeats
        self.chosen: Mapping[str, int] = chosen  # province -> index of the order its unit follows (not in adjustments)
        self.options = options
        self._orders: tuple[Checked, ...] | None = None

    @property
    def orders(self) -> tuple[Checked, ...]:
        """Each written order as read and checked, in the order given."""
        # Built when a door asks: the adjudicator reads the lists above.
        if self._orders is None:
            reasons, same_as = self.reasons, self.same_as
            self._orders = tuple(Checked(r, reasons.get(i), same_as.get(i)) for i, r in enumerate(self.readings))
        return self._orders

    def warnings(self) -> tuple[str, ...]:
        """What the player should know about the set as a whole: units left unordered, builds short."""
        out: list[str] = []
        orders = self.orders
        for pid, idxs in _by_unit(orders).items():
            if len({orders[i].canonical for i in idxs}) > 1:
                out.append(f"two different orders for the unit in {pid}: {_TWO_ORDERS[self.options.two_orders]}")
        position, power = self.position, self.power
        phase = position.phase
        ordered = {_unit_order(self.readings[i]).unit.province for i in self.chosen.values()}
        if phase.is_movement:
            out.extend(f"no order for {u}: it will hold" for u in position.units_of(power) if u.province not in ordered)
        elif phase.is_retreat:
            out.extend(f"no order for dislodged {d.unit}: it will be disbanded" for d in position.dislodged
                       if d.unit.power == power and d.unit.province not in ordered)
        else:
            due = balance(position, power)
            given = sum(1 for c in orders if c.accepted)
            if due > 0 and given < due:
                out.append(f"{due} build{'s' if due > 1 else ''} due, {given} ordered: the rest are waived")
            if due < 0 and given < -due:
                out.append(f"{-due} removal{'s' if due < -1 else ''} due, {given} ordered: the rule set's "
                           "civil-disorder rule removes the rest")
        return tuple(out)


def _unit_order(reading: Reading) -> UnitOrder:
    order = reading.order
    assert isinstance(order, UnitOrder)  # only orders to a unit are chosen for a unit
    return order


def read(position: Position, power: str, item: "str | Order | Reading", options: RuleOptions) -> Reading:
    """One submitted order as a Reading: text is read, an Order or Reading taken as it is."""
    if isinstance(item, Reading):
        return item
    if isinstance(item, str):
        return parse_order(item, position, power, options)
    return Reading(format_order(item), item)


class Ballot:
    """Orders of one or more powers, read and checked, numbered across powers in the order given.

    `add` is the one judgement of which orders are acceptable: check_orders makes a
    ballot of one power's orders for the doors, the adjudicator one of every power's.
    """

    __slots__ = ("position", "options", "readings", "powers", "reasons", "same_as", "chosen")

    def __init__(self, position: Position, options: RuleOptions) -> None:
        self.position = position
        self.options = options
        self.readings: list[Reading] = []  # every order as read
        self.powers: list[str] = []  # the power that gave each
        self.reasons: dict[int, str] = {}  # index -> why that order cannot be followed
        self.same_as: dict[int, int] = {}  # index -> the index of an identical earlier order it repeats
        self.chosen: dict[str, int] = {}  # province -> index of the order its unit follows (not in adjustments)

    def add(self, power: str, orders: Iterable["str | Order | Reading"]) -> None:
        """Read and check one power's orders (DATC 4.D.3 for two orders to one unit)."""
        position, options = self.position, self.options
        base = len(self.readings)
        if position.phase.is_adjustment:  # where one written line may give several orders
            given = [r for item in orders for r in (parse_orders(item, position, power, options)
                                                   if isinstance(item, str) else [read(position, power, item, options)])]
        else:
            given = [item if type(item) is Reading else read(position, power, item, options) for item in orders]
        self.readings.extend(given)
        self.powers.extend([power] * len(given))
        phase = position.phase
        allowed = _KINDS[phase.kind]
        reasons, same_as, chosen = self.reasons, self.same_as, self.chosen
        per_unit = phase.kind != "A"
        mine: dict[str, int] = {}  # this power's units -> the order each follows
        several: dict[str, list[int]] = {}  # provinces given more than one order
        neutral = power in position.neutral
        for i, reading in enumerate(given, base):
            order = reading.order
            if order is None or reading.error is not None:
                reasons[i] = reading.error or "invalid"
            elif type(order) not in allowed:
                reasons[i] = f"invalid: a {type(order).__name__.lower()} order cannot be given in {phase.title}"
            elif neutral:
                reasons[i] = f"invalid: {power.capitalize()} is neutral; its units only hold"
            elif not isinstance(order, UnitOrder):
                continue  # a waive
            elif (unit := order.unit).power != power:
                reasons[i] = f"invalid: {unit} belongs to {unit.power.capitalize()}"
            elif per_unit:
                pid = unit.location.province
                if pid in several:
                    several[pid].append(i)
                elif pid in mine:
                    several[pid] = [mine.pop(pid), i]
                else:
                    mine[pid] = i
        readings = self.readings
        for pid, idxs in several.items():
            if len({readings[i].order for i in idxs}) == 1:
                mine[pid] = idxs[0]
                same_as.update((i, idxs[0]) for i in idxs[1:])
                continue
            rule = options.two_orders
            keep = idxs[0] if rule == "first" else idxs[-1] if rule == "last" else None
            for i in idxs:
                if i != keep:
                    reasons[i] = f"invalid: two different orders for {_unit_order(readings[i]).unit}"
            if keep is not None:
                mine[pid] = keep
        if phase.kind == "M":
            for pid, i in mine.items():
                reason = _illegal(position, readings[i], options)
                if reason is None:
                    chosen[pid] = i
                    continue
                reasons[i] = reason
                for j, first in same_as.items():
                    if first == i:
                        reasons[j] = reason
        else:
            chosen.update(mine)


def check_orders(position: Position, power: str, orders: Iterable["str | Order | Reading"],
                 options: RuleOptions | None = None) -> OrderCheck:
    """Read and check one power's orders for this phase (DATC 4.D.3 for two orders to one unit)."""
    options = options or RuleOptions()
    ballot = Ballot(position, options)
    ballot.add(power, orders)
    return OrderCheck(position, power, ballot.readings, ballot.reasons, ballot.same_as, ballot.chosen, options)


def _illegal(position: Position, reading: Reading, options: RuleOptions) -> str | None:
    """Why a movement order cannot be carried out from this position, or None."""
    order = reading.order
    if type(order) is Hold:
        return None
    checked = reading.checked
    # parse_order has already checked an order it read against this very position.
    if checked is not None and checked[0] is position and (checked[1] is options or checked[1] == options):
        return None
    assert order is not None
    return legality.check(position, options, order)


def _by_unit(orders: tuple[Checked, ...]) -> dict[str, list[int]]:
    """Indices of the readable unit orders, by the province of the unit ordered."""
    out: dict[str, list[int]] = {}
    for i, c in enumerate(orders):
        order = c.order
        if isinstance(order, UnitOrder) and c.reading.error is None:
            out.setdefault(order.unit.location.province, []).append(i)
    return out


def powers_to_act(position: Position) -> list[str]:
    """The powers that have something to order in this phase, in the variant's order."""
    phase = position.phase
    if phase.is_movement:
        return [p for p in position.variant.powers if p not in position.neutral and position.units_of(p)]
    if phase.is_retreat:
        owners = {d.unit.power for d in position.dislodged}
        return [p for p in position.variant.powers if p in owners and p not in position.neutral]
    out = []
    for p in position.variant.powers:
        if p in position.neutral:
            continue
        b = balance(position, p)
        if b < 0 or (b > 0 and can_build_somewhere(position, p)):
            out.append(p)
    return out


def powers_to_choose(position: Position, options: RuleOptions) -> list[str]:
    """The powers whose orders can change this phase's outcome, in the variant's order.

    A power to act has no choice when the rules settle every unit of its for it: in the
    retreats, units with no retreat open are disbanded and a single open retreat is made
    automatically where the rule set says so without a right to refuse (seed 004 s16,
    Graustark); in the adjustments, a power that must remove every unit it has."""
    phase = position.phase
    powers = powers_to_act(position)
    if phase.is_movement:
        return powers
    if phase.is_retreat:
        automatic = 1 if options.auto_retreat == "single" else 0
        open_ = {d.unit.province: len(retreat_options(position, d, options)) for d in position.dislodged}
        return [p for p in powers if any(open_[d.unit.province] > automatic
                                         for d in position.dislodged if d.unit.power == p)]
    return [p for p in powers if (b := balance(position, p)) > 0 or len(position.units_of(p)) > -b]


def still_in_disorder(position: Position, options: RuleOptions, missed: Iterable[str]) -> frozenset[str]:
    """Rulebook XIV.3 as the rule set reads it (`missed_move`): of the powers that sent no
    orders for this season's Spring or Fall move, those still in civil disorder in this
    retreat or adjustment phase (their dislodged units are disbanded, they raise no units).

    `missed` are the powers in civil disorder at the last movement phase: the Spring move
    for the Spring retreats, the Fall move for the Fall retreats and the adjustments."""
    if options.missed_move != "season" or position.phase.is_movement:
        return frozenset()
    return frozenset(missed)
