"""Which orders stand at a deadline, and who is in civil disorder: one rule for the service and `verify`.

The orders in force for a phase are, for each power that has something to order, the
last set its player submitted (by ledger order, DATC 4.D.1); failing that, the last set
of the stand-by called for it; failing that, the power is in civil disorder.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Location, Position, RuleOptions, Unit, check_orders, powers_to_act, still_in_disorder
from ..rules.checking import OrderCheck
from ..rules.retreats import retreat_options
from .state import GM, PLAYER, STANDBY, GameState, OrderSet
from .views import Answer


@dataclass(frozen=True)
class Used:
    """The set of orders a power's results will be computed from, and its source."""

    orders: OrderSet
    source: str  # player, gm (entered by the gamesmaster), conditional, standby

    def record(self) -> dict[str, object]:
        """What the ledger says of it: the entry, the power's submission number, the commitment, the source."""
        return {"seq": self.orders.seq, "number": self.orders.number, "commitment": self.orders.commitment,
                "source": self.source}


def source_of(orders: OrderSet) -> str:
    """Where a set came from: its player, the GM typing it in, conditional orders, or the stand-by."""
    if orders.author == STANDBY:
        return STANDBY
    if orders.channel == "conditional":
        return "conditional"
    return "gm" if orders.entered_by == GM else "player"


def kept_in_disorder(state: GameState) -> frozenset[str]:
    """The powers still in civil disorder in this phase for the move they missed (1971 XIV.3, `missed_move`)."""
    position = state.position
    if position is None:
        return frozenset()
    return still_in_disorder(position, state.options, state.disorder)


def disorder_words(state: GameState, power: str) -> str:
    """Why a power may not order now (1971 XIV.3), in the words every door gives."""
    phase = state.phase_value
    assert phase is not None
    season = "Spring" if phase.season == "S" else "Fall"
    return (f"{power.capitalize()} sent no orders for the {season} move and is in civil disorder for the season "
            f"(rulebook XIV.3, as the rules of this game read it): {phase.title}: "
            f"{'its dislodged units are disbanded' if phase.is_retreat else 'it raises no new units'}; "
            "play resumes with its next Spring or Fall orders")


def to_act(state: GameState) -> list[str]:
    """The powers that may order now: those with something to order, less those kept in civil disorder."""
    position = state.position
    if position is None:
        return []
    kept = kept_in_disorder(state)
    return [p for p in powers_to_act(position) if p not in kept]


def orders_in_force(state: GameState) -> tuple[dict[str, Used], list[str]]:
    """The set each power's results come from, and the powers in civil disorder (no set on record,
    or kept in it for the move they missed)."""
    position = state.position
    if position is None:
        return {}, []
    used: dict[str, Used] = {}
    civil_disorder: list[str] = []
    kept = kept_in_disorder(state)
    for power in powers_to_act(position):
        if power in kept:
            civil_disorder.append(power)
            continue
        mine = state.order_set(power, PLAYER)
        theirs = state.order_set(power, STANDBY)
        if mine is not None:
            used[power] = Used(mine, source_of(mine))
        elif theirs is not None and state.standby_for(power) is not None and not answered(state, power):
            used[power] = Used(theirs, STANDBY)
        else:
            civil_disorder.append(power)
    return used, civil_disorder


def retreats_by_rule(position: Position, nxt: Position, options: RuleOptions) -> list[tuple[Unit, Location]]:
    """The retreats the rule set made in a retreat phase (seed 004 s16, `auto_retreat`): each dislodged unit
    with exactly one space open that is found there after the phase, with that space."""
    if not position.phase.is_retreat or options.auto_retreat == "never":
        return []
    made = []
    for d in position.dislodged:
        open_ = retreat_options(position, d, options)
        if len(open_) == 1 and nxt.units.get(open_[0].province) == Unit(d.unit.power, d.unit.type, open_[0]):
            made.append((d.unit, open_[0]))
    return made


def answered(state: GameState, power: str) -> bool:
    """Whether the player sent orders for any power the stand-by called for this one stands by for: a pair
    is one seat, so if he answers for one power of it he keeps them all, and the stand-by is not used."""
    standby = state.standby_for(power)
    return any(state.order_set(p, PLAYER) is not None for p in (standby.acts_for() if standby else (power,)))


def answer(state: GameState, power: str, lines: list[str]) -> tuple[tuple[Answer, ...], tuple[str, ...]]:
    """Each written order answered as the adjudicator will rule it, and the warnings on the whole set."""
    position = state.position
    assert position is not None
    check = check_orders(position, power, lines, state.options)
    return answers_of(check), check.warnings()


def answers_of(check: OrderCheck) -> tuple[Answer, ...]:
    """Each order of a checked set answered as the adjudicator will rule it."""
    answers = []
    for c in check.orders:
        if c.accepted:
            answers.append(Answer(c.text, "accepted", c.canonical, f"accepted as '{c.canonical}'", c.reading.notes))
        else:
            answers.append(Answer(c.text, "invalid", c.canonical, c.reason or "invalid", c.reading.notes))
    return tuple(answers)
