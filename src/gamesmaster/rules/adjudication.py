"""One phase in, its outcome and the next position out."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping, Sequence

from .adjustments import Adjustment, adjudicate_adjustments, adjustments_due
from .movement import MovementResolver, MovementResult, ambiguous_convoys
from .checking import Ballot
from .notation import Reading
from .options import RuleOptions
from .orders import Build, Move, Order, Remove, Support, UnitOrder, Waive, format_order
from .phase import Phase
from .position import Dislodgement, Position, Unit
from .retreats import adjudicate_retreats, retreat_options
from .verdicts import INVALID, ConvoyDisrupted, Dislodged, Invalid, Repeated, Template, Verdict
from .victory import Side, short_game_over, winner


class Outcome:
    """What became of one submitted order, with the reason in plain words."""

    __slots__ = ("power", "text", "order", "result", "_reason", "verdict", "hit", "notes")

    def __init__(self, power: str, text: str, order: Order | None, result: str, reason: str | Verdict,
                 notes: tuple[str, ...] = (), hit: Dislodged | None = None) -> None:
        self.power = power
        self.text = text
        self.order = order
        self.result = result  # succeeds, fails or invalid
        # The verdict the adjudicator reached (None for an outcome read back from a record);
        # its words are worked out only when the reason is read.
        self.verdict: Verdict | None = None if isinstance(reason, str) else reason
        self._reason = reason
        self.hit = hit  # the dislodgement of a unit whose own order was not a hold
        self.notes = notes

    @property
    def reason(self) -> str:
        """Why the order succeeded, failed or was invalid, in plain words."""
        reason = self._reason
        if isinstance(reason, str):
            return reason
        self._reason = text = reason.words() if self.hit is None else reason.words_dislodged(self.hit)
        return text

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


def adjudicate(position: Position, orders: Submitted, options: RuleOptions | None = None,
               sides: Sequence[Side] = ()) -> Adjudication:
    """Adjudicate one phase: orders are by power, as text or already-read orders.

    `sides` are the powers each player commands, for a victory counted per player (default: the set-up's).
    """
    options = options or RuleOptions()
    ballot = Ballot(position, options)
    for power, items in orders.items():
        ballot.add(power, items)
    if position.phase.is_movement:
        return _movement(position, _Outcomes(ballot), options, sides)
    if position.phase.is_retreat:
        return _retreats(position, _Outcomes(ballot), options, sides)
    return _adjustments(position, _Outcomes(ballot), options, sides)


class _Outcomes:
    """The outcome of each order of a ballot, as the phase settles them."""

    def __init__(self, ballot: Ballot) -> None:
        self.ballot = ballot
        self.readings, self.powers, self.chosen = ballot.readings, ballot.powers, ballot.chosen
        # Orders that cannot be followed are settled at once (a repeat takes its first's outcome).
        self.done: dict[int, Outcome] = {i: _invalid(ballot.powers[i], ballot.readings[i], reason)
                                         for i, reason in ballot.reasons.items() if i not in ballot.same_as}

    def outcome(self, i: int, verdict: Verdict, hit: Dislodged | None = None) -> None:
        """Record the verdict on order i."""
        reading = self.readings[i]
        self.done[i] = Outcome(self.powers[i], reading.text, reading.order, verdict.result, verdict, reading.notes, hit)

    def unit_orders(self) -> dict[str, UnitOrder]:
        """The order each unit follows, by its province (the ballot chooses only orders to a unit)."""
        readings = self.readings
        out: dict[str, UnitOrder] = {}
        for pid, i in self.chosen.items():
            order = readings[i].order
            assert isinstance(order, UnitOrder)
            out[pid] = order
        return out

    def accepted(self) -> list[int]:
        """The orders that can be followed (in the adjustments, where no order repeats another)."""
        return [i for i in range(len(self.readings)) if i not in self.done and i not in self.ballot.same_as]

    def finish(self) -> tuple[Outcome, ...]:
        """Every outcome in submission order, repeats taking the verdict of the order they repeat."""
        done, readings, powers = self.done, self.readings, self.powers
        for i, j in self.ballot.same_as.items():
            first, reading = done[j], readings[i]
            repeated = Repeated(first.verdict, first.hit) if first.verdict is not None else Invalid(first.reason)
            done[i] = Outcome(powers[i], reading.text, reading.order, first.result, repeated, reading.notes)
        return tuple(map(done.__getitem__, range(len(readings))))


def _land_route_when_disrupted(position: Position, orders: Mapping[str, UnitOrder], options: RuleOptions,
                               void: Mapping[str, Template], result: MovementResult) -> MovementResult:
    """The 1971 reading (DATC 4.A.3 a, 6.G.4): an army convoyed to an adjacent province whose convoy
    is disrupted takes the land route instead; the phase is settled again with it going by land."""
    by_land: frozenset[str] = frozenset()
    while True:
        disrupted = {p for p, v in result.verdicts.items() if isinstance(v, ConvoyDisrupted)
                     and isinstance(move := orders[p], Move) and position.map.army_adjacent(p, move.dest.province)}
        if disrupted <= by_land:
            return result
        by_land |= disrupted
        result = MovementResolver(position, orders, options, void, by_land=by_land).run()


def _invalid(power: str, reading: Reading, reason: str | None = None) -> Outcome:
    return Outcome(power, reading.text, reading.order, INVALID, Invalid(reason or reading.error or "invalid"),
                   reading.notes)


def _movement(position: Position, ballot: _Outcomes, options: RuleOptions, sides: Sequence[Side]) -> Adjudication:
    chosen = ballot.chosen
    orders = ballot.unit_orders()
    if options.convoy_routes == "ambiguous":
        for pid, reason in ambiguous_convoys(position, orders).items():
            ballot.outcome(chosen[pid], Invalid(reason))
            del orders[pid]
    void: dict[str, Template] = {}
    if not options.civil_disorder_support:
        # DATC 4.D.9: a power that sent no orders is in civil disorder; others may not support it.
        ordered = set(ballot.powers)
        for pid, order in orders.items():
            if isinstance(order, Support) and order.dest is None:
                held = order.supported.power
                if held not in ordered and held != order.unit.power:
                    void[pid] = f"void: {held.capitalize()} is in civil disorder; its units cannot be supported"
    result = MovementResolver(position, orders, options, void).run()
    if options.adjacent_convoy == "opposite":
        result = _land_route_when_disrupted(position, orders, options, void, result)
    hits, readings, powers, done = result.hits, ballot.readings, ballot.powers, ballot.done
    for pid, verdict in result.verdicts.items():
        i = chosen[pid]
        reading = readings[i]
        done[i] = Outcome(powers[i], reading.text, reading.order, verdict.result, verdict, reading.notes, hits.get(pid))
    dislodged = result.dislodged
    if any(d.retreats for d in dislodged):
        after = _next(position, position.phase.following(), result.units, dislodged=dislodged,
                      standoffs=result.standoffs)
    else:
        # Nothing can retreat: the dislodged units are disbanded and the phase is skipped.
        destroyed = _count_destroyed(position, [d.unit for d in dislodged], options) if dislodged else position.destroyed
        after = _end_of_season(position, position.phase.following().following(), result.units, destroyed, options)
    return _finish(position, ballot.finish(), after, options, sides, dislodged)


def _retreats(position: Position, ballot: _Outcomes, options: RuleOptions, sides: Sequence[Side]) -> Adjudication:
    listed = replace(position, dislodged=tuple(
        replace(d, retreats=retreat_options(position, d, options)) for d in position.dislodged))
    chosen = ballot.unit_orders()
    orders = [(ballot.chosen[pid], order) for pid, order in chosen.items() if ballot.chosen[pid] not in ballot.done]
    result = adjudicate_retreats(listed, orders, options)
    for i, verdict in result.verdicts.items():
        ballot.outcome(i, verdict)
    destroyed = _count_destroyed(position, result.disbanded, options)
    if result.again:
        # Calhamer's rule (s17): another round of retreats for the units that clashed.
        after = _next(position, position.phase, result.units, dislodged=result.again,
                      standoffs=position.standoffs, destroyed=destroyed)
        return _finish(position, ballot.finish(), after, options, sides)
    after = _end_of_season(position, position.phase.following(), result.units, destroyed, options)
    return _finish(position, ballot.finish(), after, options, sides)


def _count_destroyed(position: Position, lost: Iterable[Unit], options: RuleOptions) -> dict[str, int]:
    """Units destroyed in the field, by power: counted only in the you-only-live-once game."""
    destroyed = dict(position.destroyed)
    if options.yolo:
        for unit in lost:
            destroyed[unit.power] = destroyed.get(unit.power, 0) + 1
    return destroyed


def _adjustments(position: Position, ballot: _Outcomes, options: RuleOptions, sides: Sequence[Side]) -> Adjudication:
    orders: list[tuple[int, Adjustment]] = []
    for i in ballot.accepted():
        order = ballot.readings[i].order
        assert isinstance(order, (Build, Remove, Waive))  # check_orders accepts only these here
        orders.append((i, order))
    result = adjudicate_adjustments(position, orders, options)
    for i, verdict in result.verdicts.items():
        ballot.outcome(i, verdict)
    if result.waiting:
        # The GM chooses these removals (s24, Armageddonia): nothing is carried out until then.
        return replace(_finish(position, ballot.finish(), position, options, sides), winner=None, waiting=result.waiting)
    after = _next(position, position.phase.following(), result.units)
    return replace(_finish(position, ballot.finish(), after, options, sides), removed=result.forced_removals)


def _next(position: Position, phase: Phase, units: Mapping[str, Unit], *, dislodged: tuple[Dislodgement, ...] = (),
          standoffs: frozenset[str] = frozenset(), centres: Mapping[str, str] | None = None,
          raids: Mapping[str, str] | None = None, destroyed: Mapping[str, int] | None = None) -> Position:
    """The position a phase leads to: the same game with a new board."""
    # Built field by field: dataclasses.replace costs twice as much, once or twice a phase.
    return Position(position.variant, phase, units, position.centres if centres is None else centres,
                    dislodged, standoffs, position.raids if raids is None else raids,
                    position.destroyed if destroyed is None else destroyed, _neutral(position, phase))


def _neutral(position: Position, phase: Phase) -> frozenset[str] | None:
    """The neutral powers of the new phase: a power joining by the coin toss (XIV.2, two
    players: Italy in Spring 1915) is no longer neutral from its phase on."""
    toss = position.variant.coin_toss
    if toss is None or toss[0] not in position.neutral or phase.order < Phase.parse(toss[2]).order:
        return position.neutral_powers
    return position.neutral - {toss[0]}


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


def _finish(position: Position, outcomes: tuple[Outcome, ...], after: Position, options: RuleOptions,
            sides: Sequence[Side], dislodged: tuple[Dislodgement, ...] = ()) -> Adjudication:
    won = winner(after, options, position.phase, sides)
    over = won is not None or (after.phase != position.phase and short_game_over(after, options))
    return Adjudication(position, outcomes, after, won, dislodged, ended=over)
