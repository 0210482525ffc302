"""One phase in, its outcome and the next position out."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from . import legality
from .adjustments import adjudicate_adjustments, adjustments_due
from .movement import MovementResolver, ambiguous_convoys
from .notation import Reading, parse_order
from .options import RuleOptions
from .orders import (ADJUSTMENT_ORDERS, MOVEMENT_ORDERS, RETREAT_ORDERS, Hold, Order, Support, Waive,
                     format_order)
from .phase import Phase
from .position import Dislodgement, Position, Unit
from .retreats import adjudicate_retreats, retreat_options
from .victory import short_game_over, winner

SUCCEEDS, FAILS, INVALID = "succeeds", "fails", "invalid"


class Outcome:
    """What became of one submitted order, with the reason in plain words."""

    __slots__ = ("power", "text", "order", "result", "_reason", "_province", "notes")

    def __init__(self, power: str, text: str, order: Order | None, result: str,
                 reason: "str | MovementResolver", notes: tuple[str, ...] = (), province: str = "") -> None:
        self.power = power
        self.text = text
        self.order = order
        self.result = result  # succeeds, fails or invalid
        self._reason = reason  # a movement's reasons are worked out when read
        self._province = province
        self.notes = notes

    @property
    def reason(self) -> str:
        """Why the order succeeded, failed or was invalid, in plain words."""
        if not isinstance(self._reason, str):
            self._reason = self._reason.explain(self._province)
        return self._reason

    def __repr__(self) -> str:
        return f"Outcome({self.power}, {self.text!r}, {self.result}, {self.reason!r})"

    def as_dict(self) -> dict[str, object]:
        """The outcome in the `gamesmaster adjudicate` output schema."""
        doc: dict[str, object] = {"power": self.power, "text": self.text,
                                  "order": format_order(self.order) if self.order else None,
                                  "result": self.result, "reason": self.reason}
        if self.notes:
            doc["notes"] = list(self.notes)
        return doc


@dataclass(frozen=True)
class Adjudication:
    """The outcome of a phase: every order's outcome, the next position and any winner."""

    position: Position
    outcomes: tuple[Outcome, ...]
    next: Position
    winner: str | None = None
    dislodged: tuple[Dislodgement, ...] = ()  # every unit dislodged in a movement phase
    waiting: Mapping[str, int] = field(default_factory=dict)  # removals the GM must choose
    ended: bool = False  # the game is over: a winner, or a short game's last year played
    removed: tuple[Unit, ...] = ()  # units the civil-disorder rule removed for powers that ordered too few


Submitted = Mapping[str, Iterable["str | Order | Reading"]]


def read_orders(position: Position, orders: Submitted, options: RuleOptions) -> list[tuple[str, Reading]]:
    """Read every submitted order (text, Order or Reading) in submission order."""
    out: list[tuple[str, Reading]] = []
    for power, items in orders.items():
        for item in items:
            if type(item) is Reading:
                out.append((power, item))
            elif isinstance(item, str):
                out.append((power, parse_order(item, position, power, options)))
            else:
                out.append((power, Reading(format_order(item), item)))
    return out


def adjudicate(position: Position, orders: Submitted, options: RuleOptions | None = None) -> Adjudication:
    """Adjudicate one phase: orders are by power, as text or already-read orders."""
    options = options or RuleOptions()
    readings = read_orders(position, orders, options)
    if position.phase.is_movement:
        return _movement(position, readings, options)
    if position.phase.is_retreat:
        return _retreats(position, readings, options)
    return _adjustments(position, readings, options)


def _invalid(power: str, reading: Reading, reason: str | None = None) -> Outcome:
    return Outcome(power, reading.text, reading.order, INVALID, reason or reading.error or "invalid", reading.notes)


def _accepted(position: Position, readings: list[tuple[str, Reading]], kinds: tuple[type, ...],
              options: RuleOptions) -> tuple[dict[int, Outcome], dict[str, int], dict[int, int]]:
    """Sort out unreadable orders, wrong kinds and two orders for one unit (DATC 4.D.3).

    Returns the outcomes already settled, the order chosen for each unit, and repeats of
    a chosen order (which share its outcome).
    """
    done: dict[int, Outcome] = {}
    chosen: dict[str, int] = {}
    several: dict[str, list[int]] = {}  # units given more than one order (rare)
    per_unit = kinds is not ADJUSTMENT_ORDERS
    allowed = set(kinds)
    neutral = position.neutral
    for i, (power, reading) in enumerate(readings):
        order = reading.order
        if order is None or reading.error is not None:
            done[i] = _invalid(power, reading)
        elif type(order) not in allowed:
            done[i] = _invalid(power, reading, f"invalid: a {type(order).__name__.lower()} order cannot be given in {position.phase.title}")
        elif neutral and power in neutral:
            done[i] = _invalid(power, reading, f"invalid: {power.capitalize()} is neutral; its units only hold")
        elif type(order) is Waive:
            continue
        else:
            unit = order.unit  # type: ignore[union-attr]
            if unit.power != power:
                done[i] = _invalid(power, reading, f"invalid: {unit} belongs to {unit.power.capitalize()}")
            elif per_unit:
                pid = unit.location.province
                if pid in several:
                    several[pid].append(i)
                elif pid in chosen:
                    several[pid] = [chosen.pop(pid), i]
                else:
                    chosen[pid] = i
    repeats: dict[int, int] = {}
    for pid, idxs in several.items():
        if len({readings[i][1].order for i in idxs}) == 1:
            chosen[pid] = idxs[0]
            for i in idxs[1:]:
                repeats[i] = idxs[0]
            continue
        keep = idxs[0] if options.two_orders == "first" else idxs[-1] if options.two_orders == "last" else None
        for i in idxs:
            if i != keep:
                power, reading = readings[i]
                done[i] = _invalid(power, reading, f"invalid: two different orders for {reading.order.unit}")  # type: ignore[union-attr]
        if keep is not None:
            chosen[pid] = keep
    return done, chosen, repeats


def _repeat(first: Outcome, power: str, reading: Reading) -> Outcome:
    return Outcome(power, reading.text, reading.order, first.result,
                   f"the same order as above, counted once: {first.reason}", reading.notes)


def _movement(position: Position, readings: list[tuple[str, Reading]], options: RuleOptions) -> Adjudication:
    done, chosen, repeats = _accepted(position, readings, MOVEMENT_ORDERS, options)
    orders: dict[str, Order] = {}
    for pid, i in chosen.items():
        reading = readings[i][1]
        order = reading.order
        checked = reading.checked
        # parse_order has already checked an order it read against this very position.
        if not (checked is not None and checked[0] is position and (checked[1] is options or checked[1] == options)):
            reason = None if type(order) is Hold else legality.check(position, options, order)  # type: ignore[arg-type]
            if reason:
                done[i] = _invalid(readings[i][0], reading, reason)
                continue
        orders[pid] = order  # type: ignore[assignment]
    if options.convoy_routes == "ambiguous":
        for pid, reason in ambiguous_convoys(position, orders).items():
            i = chosen[pid]
            done[i] = _invalid(*readings[i], reason)
            del orders[pid]
    void: dict[str, str] = {}
    if not options.civil_disorder_support:
        # DATC 4.D.9: a power that sent no orders is in civil disorder; others may not support it.
        ordered = {power for power, _ in readings}
        for pid, order in orders.items():
            if type(order) is Support and order.dest is None:  # type: ignore[union-attr]
                held = order.supported.power  # type: ignore[union-attr]
                if held not in ordered and held != order.unit.power:  # type: ignore[union-attr]
                    void[pid] = f"void: {held.capitalize()} is in civil disorder; its units cannot be supported"
    result = MovementResolver(position, orders, options, void).run()
    succeeded, resolver = result.succeeded, result.resolver
    for pid, order in orders.items():
        i = chosen[pid]
        power, reading = readings[i]
        done[i] = Outcome(power, reading.text, order, SUCCEEDS if succeeded[pid] else FAILS,
                          resolver, reading.notes, pid)
    for i, first in repeats.items():
        done[i] = _repeat(done[first], *readings[i])
    dislodged = result.dislodged
    if any(d.retreats for d in dislodged):
        after = _next(position, position.phase.following(), result.units, dislodged=dislodged,
                      standoffs=result.standoffs)
    else:
        # Nothing can retreat: the dislodged units are disbanded and the phase is skipped.
        destroyed = _count_destroyed(position, [d.unit for d in dislodged], options) if dislodged else position.destroyed
        after = _end_of_season(position, position.phase.following().following(), result.units, destroyed, options)
    return _finish(position, done, readings, after, options, dislodged)


def _retreats(position: Position, readings: list[tuple[str, Reading]], options: RuleOptions) -> Adjudication:
    done, chosen, repeats = _accepted(position, readings, RETREAT_ORDERS, options)
    listed = replace(position, dislodged=tuple(
        replace(d, retreats=retreat_options(position, d, options)) for d in position.dislodged))
    orders = [(i, readings[i][1].order) for i in chosen.values() if i not in done]
    result = adjudicate_retreats(listed, orders, options)  # type: ignore[arg-type]
    for i, (ok, reason) in result.verdicts.items():
        power, reading = readings[i]
        done[i] = Outcome(power, reading.text, reading.order, SUCCEEDS if ok else (INVALID if reason.startswith("invalid") else FAILS), reason, reading.notes)
    for i, first in repeats.items():
        done[i] = _repeat(done[first], *readings[i])
    destroyed = _count_destroyed(position, result.disbanded, options)
    if result.again:
        # Calhamer's rule (s17): another round of retreats for the units that clashed.
        after = _next(position, position.phase, result.units, dislodged=result.again,
                      standoffs=position.standoffs, destroyed=destroyed)
        return _finish(position, done, readings, after, options)
    after = _end_of_season(position, position.phase.following(), result.units, destroyed, options)
    return _finish(position, done, readings, after, options)


def _count_destroyed(position: Position, lost: Iterable[object], options: RuleOptions) -> dict[str, int]:
    """Units destroyed in the field, by power: counted only in the you-only-live-once game."""
    destroyed = dict(position.destroyed)
    if options.yolo:
        for unit in lost:
            destroyed[unit.power] = destroyed.get(unit.power, 0) + 1  # type: ignore[attr-defined]
    return destroyed


def _adjustments(position: Position, readings: list[tuple[str, Reading]], options: RuleOptions) -> Adjudication:
    done, _, _ = _accepted(position, readings, ADJUSTMENT_ORDERS, options)
    orders = [(i, r.order) for i, (_, r) in enumerate(readings) if i not in done]
    result = adjudicate_adjustments(position, orders, options)  # type: ignore[arg-type]
    for i, (ok, reason) in result.verdicts.items():
        power, reading = readings[i]
        done[i] = Outcome(power, reading.text, reading.order, SUCCEEDS if ok else (INVALID if reason.startswith("invalid") else FAILS), reason, reading.notes)
    if result.waiting:
        # The GM chooses these removals (s24, Armageddonia): nothing is carried out until then.
        return replace(_finish(position, done, readings, position, options), winner=None, waiting=result.waiting)
    after = _next(position, position.phase.following(), result.units)
    return replace(_finish(position, done, readings, after, options), removed=result.forced_removals)


def _next(position: Position, phase: Phase, units: Mapping[str, Unit], *, dislodged: tuple[Dislodgement, ...] = (),
          standoffs: frozenset[str] = frozenset(), centres: Mapping[str, str] | None = None,
          raids: Mapping[str, str] | None = None, destroyed: Mapping[str, int] | None = None) -> Position:
    """The position a phase leads to: the same game with a new board."""
    # Built field by field: dataclasses.replace costs twice as much, once or twice a phase.
    return Position(position.variant, phase, units, position.centres if centres is None else centres,
                    dislodged, standoffs, position.raids if raids is None else raids,
                    position.destroyed if destroyed is None else destroyed, position.neutral_powers)


def _end_of_season(position: Position, phase: Phase, units: Mapping[str, Unit], destroyed: Mapping[str, int],
                   options: RuleOptions) -> Position:
    """The position once a season's movement and retreats are over: ownership changes after
    the Fall (with retreats); an adjustment phase with nothing to do is skipped; Spring
    raids are noted where the rules care (s23)."""
    if phase.season == "F" and options.spring_raid:
        provinces = position.map.provinces
        raids = {pid: u.power for pid, u in units.items()
                 if provinces[pid].supply_centre and position.centres.get(pid) != u.power}
        return _next(position, phase, units, raids=raids, destroyed=destroyed)
    if phase.season != "W":
        return _next(position, phase, units, destroyed=destroyed)
    centres = dict(position.centres)
    supply_centres = position.map.supply_centres()
    for pid, unit in units.items():
        if pid in supply_centres:
            centres[pid] = unit.power
    for pid in position.raids:
        if pid not in units:
            centres.pop(pid, None)  # raided in Spring, left by Fall: neutral again
    after = _next(position, phase, units, centres=centres, raids={}, destroyed=destroyed)
    if adjustments_due(after):
        return after
    return _next(after, Phase("S", phase.year + 1, "M"), units)


def _finish(position: Position, done: dict[int, Outcome], readings: list[tuple[str, Reading]],
            after: Position, options: RuleOptions, dislodged: tuple[Dislodgement, ...] = ()) -> Adjudication:
    outcomes = tuple(map(done.__getitem__, range(len(readings))))
    won = winner(after, options, position.phase)
    over = won is not None or (after.phase != position.phase and short_game_over(after, options))
    return Adjudication(position, outcomes, after, won, dislodged, ended=over)
