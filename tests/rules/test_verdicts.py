"""Every reason is the word of a decision, and every decision it names really happened.

The checker re-reads each outcome's verdict against the final outcome of the phase:
the board afterwards, who was dislodged by whom, which supports were given. A unit
said to have held did not move; a unit said to have contended for a space did try to
enter it, and if it got in it was stronger; a strength stated in a reason is the one
the given supports make; a fleet said to have been dislodged was dislodged. It runs
over every case file (DATC, rulebook, seed options) and over random games whose
orders work together, under several rule sets.

A second test settles every movement phase twice, with the independent decisions
taken first (as the adjudicator does) and with the recursion taking all of them, and
compares the verdicts.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

import pytest

from gamesmaster.rules import (Adjudication, Convoy, Hold, Move, Order, Position, RuleOptions, Support, Unit,
                               adjudicate, check_orders)
from gamesmaster.rules.movement import MovementResolver
from gamesmaster.rules.orders import UnitOrder
from gamesmaster.rules.verdicts import (CONTENDING, HOLDING, INVALID, STAYED, SUCCEEDS, Adjusted, AlreadyRemoved,
                                        ArmyStayed, AutomaticRetreat, Bounced, ConvoyCancelled, ConvoyDislodged,
                                        ConvoyDisrupted, Convoyed, Disbanded, Dislodged, Held, KolinRule,
                                        LostHeadToHead, Moved, NoEffect, Opposition, OtherRoute, OwnUnitInTheWay, Repeated,
                                        RetreatClash, Retreated, SupportCut, SupportGiven, Unresolved, Verdict, Void)
from gamesmaster.variants import load_rules, load_variant

import test_cases
from lively import lively_game

PRESETS = ["2023", "1971", "1982", "2000", "brobdingnag", "graustark"]


# -- the phases: every case step, and random games ------------------------------------------


CASE_LIST = test_cases.ALL  # every case of every case file, as the case test reads them


def case_phases(case: dict) -> Iterator[tuple[Adjudication, RuleOptions]]:
    """Play a case's steps through the library; each step's adjudication."""
    variant = load_variant(case.get("variant", "standard"))
    options = load_rules(case.get("rules"), default=variant.default_rules)
    position = Position.from_dict(variant, {"phase": case["phase"], "units": case.get("units", {}),
                                            "centers": case.get("centers", {})})
    for step in case["step"]:
        result = adjudicate(position, step.get("orders", {}), options)
        yield result, options
        position = result.next


def random_phases(preset: str, seed: int, years: int = 8) -> Iterator[tuple[Adjudication, RuleOptions]]:
    """A random game of lively orders on the standard map."""
    options = load_rules(preset)
    for result in lively_game(seed, options, Position.initial(load_variant("standard")), years):
        yield result, options


# -- the checker ----------------------------------------------------------------------------


class Phase:
    """What happened in one movement phase, read from its outcomes and the next position."""

    def __init__(self, a: Adjudication) -> None:
        self.a = a
        self.before = a.position.units
        self.after = a.next.units
        self.orders: dict[str, UnitOrder] = {}
        for o in a.outcomes:
            if o.result != INVALID and not isinstance(o.verdict, Repeated) and isinstance(o.order, UnitOrder):
                self.orders[o.order.unit.province] = o.order
        self.dislodged = {d.unit.province: d for d in a.dislodged}
        self.moved = {o.order.unit.province for o in a.outcomes
                      if isinstance(o.order, Move) and o.result == SUCCEEDS and not isinstance(o.verdict, Repeated)}
        self.supports: Counter[tuple[str, str | None, str]] = Counter()  # given supports: (supported, into, power)
        for o in a.outcomes:
            if isinstance(o.order, Support) and o.result == SUCCEEDS and not isinstance(o.verdict, Repeated):
                into = o.order.dest.province if o.order.dest else None
                self.supports[(o.order.supported.province, into, o.order.unit.power)] += 1

    def order(self, p: str) -> UnitOrder:
        return self.orders.get(p) or Hold(self.before[p])

    def given(self, p: str, into: str | None, exclude: str | None = None) -> int:
        return sum(n for (s, d, power), n in self.supports.items() if s == p and d == into and power != exclude)

    def stays(self, p: str) -> bool:
        """The unit that was in p is in p afterwards or was dislodged there."""
        return self.after.get(p) == self.before[p] or p in self.dislodged

    def board_problems(self) -> list[str]:
        expected = {}
        for p, unit in self.before.items():
            if p in self.dislodged:
                continue
            order = self.order(p)
            if p in self.moved:
                assert isinstance(order, Move)
                expected[order.dest.province] = Unit(unit.power, unit.type, order.dest)
            elif p not in expected:
                expected[p] = unit
        return [] if expected == dict(self.after) else [f"the board afterwards is not what the outcomes say: "
                                                         f"{sorted(map(str, self.after.values()))}"]


def _hold_strength(ph: Phase, q: str) -> int:
    if q in ph.moved:
        return 0
    if isinstance(ph.order(q), Move):
        return 1
    return 1 + ph.given(q, None)


def check_dislodged(ph: Phase, p: str, hit: Dislodged) -> list[str]:
    out = []
    d = ph.dislodged.get(p)
    by = hit.by.unit.province
    if d is None or d.attacker != by:
        out.append(f"says {ph.before[p]} was dislodged by {hit.by}, but it was not")
    if by not in ph.moved or ph.order(by) != hit.by:
        out.append(f"says {hit.by} moved in, but it did not")
    if hit.attack <= hit.defence:
        out.append(f"dislodged with {hit.attack} against {hit.defence}")
    if hit.attack > 1 + ph.given(by, p):
        out.append(f"says {hit.by} attacked with {hit.attack}, but only {ph.given(by, p)} supports were given")
    return out


def check_move(ph: Phase, p: str, order: Move, v: Verdict, options: RuleOptions) -> list[str]:
    d = order.dest.province
    occupant = ph.before.get(d)
    out = []
    if isinstance(v, Moved):
        if p not in ph.moved:
            return [f"says {order} moved, but the unit is not there"]
        if v.attack is None and (occupant is not None or
                                 any(isinstance(o, Move) and o.dest.province == d and q != p for q, o in ph.orders.items())):
            out.append(f"says nothing opposed {order}, but the space was held or contended")
        if v.dislodged is not None:
            if ph.dislodged.get(d) is None or ph.dislodged[d].unit != v.dislodged or ph.dislodged[d].attacker != p:
                out.append(f"says {order} dislodged {v.dislodged}, but it did not")
        elif d in ph.dislodged:
            out.append(f"says {order} moved without dislodging anyone, but {ph.dislodged[d].unit} was dislodged by it")
        return out
    if p in ph.moved:
        return [f"says {order} failed, but the unit moved"]
    if isinstance(v, Bounced):
        excluded = occupant.power if occupant is not None and not (d in ph.moved) else None
        full, partial = 1 + ph.given(p, d), 1 + ph.given(p, d, excluded)
        if v.attack not in (full, partial):
            out.append(f"states {order}'s strength as {v.attack}; its given supports make {partial} (or {full})")
        for opp in v.against:
            q = opp.unit.province
            if ph.before.get(q) != opp.unit:
                out.append(f"names {opp.unit}, which was not on the board")
                continue
            if opp.strength < v.attack:
                out.append(f"says {opp.unit} stood off {order} with less strength ({opp.strength} < {v.attack})")
            q_order = ph.order(q)
            if opp.how in (HOLDING, STAYED):
                if q != d or not ph.stays(q):
                    out.append(f"says {opp.unit} held in {d}, but it did not stay there")
                if (opp.how == STAYED) != isinstance(q_order, Move):
                    out.append(f"says {opp.unit} {opp.how}, but its order was {q_order}")
                if opp.strength != _hold_strength(ph, q):
                    out.append(f"states {opp.unit}'s hold strength as {opp.strength}, not {_hold_strength(ph, q)}")
            else:
                assert opp.how == CONTENDING
                if not (isinstance(q_order, Move) and q_order.dest.province == d):
                    out.append(f"says {opp.unit} contended for {d}, but its order was {q_order}")
                elif q in ph.moved and opp.strength <= v.attack and not _kept_nothing_out(ph, p, options):
                    out.append(f"says {opp.unit} stood off {order}, but it moved in and was not stronger")
                elif opp.strength != 1 + ph.given(q, d) and options.wells:
                    out.append(f"states {opp.unit}'s strength as {opp.strength}, not {1 + ph.given(q, d)}")
        if v.uncounted is not None and not any(power != order.unit.power for (s, into, power) in ph.supports
                                               if s == p and into == d) and not _supported_by(ph, p, d, occupant):
            out.append(f"says a support from {v.uncounted} could not count, but there was none")
    elif isinstance(v, LostHeadToHead):
        other = ph.order(d)
        if ph.before.get(d) != v.by or not (isinstance(other, Move) and other.dest.province == p):
            out.append(f"says {order} met {v.by} coming the other way, but it did not")
        elif v.defence != 1 + ph.given(d, p) or v.defence < v.attack:
            out.append(f"states {v.by}'s strength as {v.defence}, not {1 + ph.given(d, p)}")
    elif isinstance(v, OwnUnitInTheWay):
        if occupant != v.occupant or occupant.power != order.unit.power or d in ph.moved:
            out.append(f"says its own {v.occupant} was in the way, but it was not")
    elif isinstance(v, ConvoyDisrupted):
        for fleet in v.dislodged:
            if fleet.province not in ph.dislodged:
                out.append(f"says {fleet} was dislodged, but it was not")
        for fleet in v.cancelled:
            if not isinstance(_verdict_of(ph, fleet.province), ConvoyCancelled):
                out.append(f"says {fleet} was cancelled by the paradox rule, but it was not")
    elif isinstance(v, KolinRule):
        if not options.kolin or v.by.dest.province != p or v.by.unit.power == order.unit.power \
                or ph.order(v.by.unit.province) != v.by:
            out.append(f"says Kolin's rule turned {order} to face {v.by}, which did not attack it")
    elif not isinstance(v, (Void, Unresolved)):
        out.append(f"a move has the verdict {v!r}")
    return out


def _kept_nothing_out(ph: Phase, p: str, options: RuleOptions) -> bool:
    """Whether p's unit, dislodged, could keep no one out of the space it attacked: Miller's rule
    (s3), or Koning's extended to any unit dislodged from the space it attacked (DATC 4.A.7).
    (A unit that lost a head-to-head battle is told so, not that it bounced.)"""
    d = ph.dislodged.get(p)
    order = ph.order(p)
    if d is None or not isinstance(order, Move):
        return False
    return options.miller or (options.koning and options.dislodged_bounce == "always"
                              and d.attacker == order.dest.province)


def _supported_by(ph: Phase, p: str, d: str, occupant: Unit | None) -> bool:
    return occupant is not None and any(isinstance(o, Support) and o.supported.province == p and o.dest is not None
                                        and o.dest.province == d and o.unit.power == occupant.power
                                        for o in ph.orders.values())


def _verdict_of(ph: Phase, p: str) -> Verdict | None:
    for o in ph.a.outcomes:
        if isinstance(o.order, UnitOrder) and o.order.unit.province == p and not isinstance(o.verdict, Repeated):
            return o.verdict
    return None


def check_support(ph: Phase, p: str, order: Support, v: Verdict) -> list[str]:
    supported = order.supported.province
    if isinstance(v, SupportGiven):
        if v.to != ph.order(supported):
            return [f"says support was given to {v.to}, but that unit's order was {ph.order(supported)}"]
        return []
    if isinstance(v, (SupportCut, NoEffect)):
        by = v.by.unit.province
        if ph.order(by) != v.by or v.by.dest.province != p:
            return [f"says {order} was cut by {v.by}, which did not attack it"]
        if v.by.unit.power == order.unit.power:
            return [f"says {order} was cut by its own power's {v.by}"]
        if isinstance(v, NoEffect) and (p not in ph.dislodged or ph.dislodged[p].attacker != by):
            return [f"says {order} was dislodged by {v.by}, but it was not"]
        return []
    if not isinstance(v, (Void, Unresolved)):
        return [f"a support has the verdict {v!r}"]
    return []


def check_convoy(ph: Phase, p: str, order: Convoy, v: Verdict) -> list[str]:
    army = order.army.province
    if isinstance(v, ConvoyDislodged):
        if p not in ph.dislodged or ph.dislodged[p].attacker != v.by.unit.province:
            return [f"says {order} was dislodged by {v.by}, but it was not"]
    elif isinstance(v, (Convoyed, OtherRoute)):
        if army not in ph.moved:
            return [f"says the army of {order} arrived, but it did not"]
        if p in ph.dislodged:
            return [f"says {order} convoyed, but the fleet was dislodged"]
    elif isinstance(v, ArmyStayed):
        if army in ph.moved or v.why != _verdict_of(ph, army):
            return [f"says the army of {order} did not arrive for {v.why!r}, but {_verdict_of(ph, army)!r}"]
    elif not isinstance(v, (Void, ConvoyCancelled, Unresolved)):
        return [f"a convoy has the verdict {v!r}"]
    return []


def check_movement(a: Adjudication, options: RuleOptions) -> list[str]:
    """Every verdict of a movement phase read back against what happened."""
    ph = Phase(a)
    problems = ph.board_problems()
    for o in a.outcomes:
        v = o.verdict
        assert v is not None
        if v.result != o.result:
            problems.append(f"{o.text!r}: the verdict's result {v.result} is not the outcome's {o.result}")
        if isinstance(v, Repeated) or o.result == INVALID:
            continue
        order = o.order
        assert isinstance(order, UnitOrder)
        p = order.unit.province
        found: list[str] = []
        if o.hit is not None:
            found += check_dislodged(ph, p, o.hit)
        elif p in ph.dislodged and not isinstance(v, Dislodged):
            found.append(f"{ph.before[p]} was dislodged, but its outcome does not say so")
        if isinstance(order, Move):
            found += check_move(ph, p, order, v, options)
        elif isinstance(order, Support):
            found += check_support(ph, p, order, v)
        elif isinstance(order, Convoy):
            found += check_convoy(ph, p, order, v)
        elif isinstance(v, Dislodged):
            found += check_dislodged(ph, p, v)
        elif not isinstance(v, Held) or not ph.stays(p) or p in ph.dislodged:
            found.append(f"says {order} held, but the unit did not stay")
        problems += [f"{a.position.phase} {o.text!r} ({o.reason}): {f}" for f in found]
    return problems


def check_other(a: Adjudication) -> list[str]:
    """Retreat and adjustment verdicts read back against the next position."""
    problems = []
    after = a.next.units
    for o in a.outcomes:
        v = o.verdict
        assert v is not None
        if v.result != o.result:
            problems.append(f"{o.text!r}: the verdict's result {v.result} is not the outcome's {o.result}")
        order = o.order
        unit = order.unit if isinstance(order, UnitOrder) else None
        if isinstance(v, Retreated) and (unit is None or not hasattr(order, "dest")
                                         or after.get(order.dest.province) != Unit(unit.power, unit.type, order.dest)):
            problems.append(f"{o.text!r}: says it retreated, but the unit is not there")
        if isinstance(v, Disbanded) and unit is not None and unit in after.values():
            problems.append(f"{o.text!r}: says it was disbanded, but it is on the board")
        if isinstance(v, AutomaticRetreat) and unit is not None and after.get(v.to.province) != Unit(unit.power, unit.type, v.to):
            problems.append(f"{o.text!r}: says the only retreat was made, but the unit is not there")
        if isinstance(v, RetreatClash) and (v.count < 2 or v.province in after):
            problems.append(f"{o.text!r}: says {v.count} units bounced in {v.province}, but one is there")
        if isinstance(v, Adjusted) and unit is not None:
            present = after.get(unit.province) == unit
            if present != (v.what == "built"):
                problems.append(f"{o.text!r}: says {v.what}, but the board says otherwise")
        if isinstance(v, AlreadyRemoved) and v.unit in after.values():
            problems.append(f"{o.text!r}: says {v.unit} was already removed, but it is on the board")
    return problems


def check(a: Adjudication, options: RuleOptions) -> list[str]:
    """Every false reason of one phase."""
    return check_movement(a, options) if a.position.phase.is_movement else check_other(a)


@pytest.mark.parametrize("name,case", CASE_LIST, ids=[n for n, _ in CASE_LIST])
def test_no_reason_in_the_cases_is_false(name: str, case: dict) -> None:
    for a, options in case_phases(case):
        assert check(a, options) == []


@pytest.mark.parametrize("preset", PRESETS)
def test_no_reason_in_random_games_is_false(preset: str) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(30):
        for a, options in random_phases(preset, seed, years=10):
            assert check(a, options) == []
            kinds.update(type(o.verdict).__name__ for o in a.outcomes)
    # The games reached the verdicts the checker reads.
    for kind in ("Moved", "Bounced", "LostHeadToHead", "SupportCut", "SupportGiven", "Dislodged", "Convoyed",
                 "ConvoyDisrupted", "OwnUnitInTheWay", "Retreated", "Adjusted"):
        assert kinds[kind] > 0, (kind, kinds)


def test_the_checker_finds_a_false_reason() -> None:
    # The 1971 sample game's Fall 1902: F Nth took Norway, so A St. P. did not bounce against it.
    variant = load_variant("standard")
    position = Position.from_dict(variant, {"phase": "F1902M", "units": {
        "ENGLAND": ["A NWY", "F NTH", "F BAR"], "RUSSIA": ["A STP", "F SWE"], "GERMANY": ["F DEN"]}})
    a = adjudicate(position, {"ENGLAND": ["A Nwy-Stp", "F Nth-Nwy", "F Bar S A Nwy-Stp"],
                              "RUSSIA": ["A Stp-Nwy", "F Swe S A Stp-Nwy"], "GERMANY": ["F Den-Swe"]})
    assert check(a, RuleOptions()) == []
    stp = next(o for o in a.outcomes if o.text == "A Stp-Nwy")
    assert isinstance(stp.verdict, LostHeadToHead)
    # The reason the resolver gave before verdicts: bounced against F Nth (1).
    stp.verdict = Bounced(position.units["STP"], 1, (Opposition(position.units["NTH"], 1, CONTENDING),))
    assert any("moved in and was not stronger" in p for p in check(a, RuleOptions()))


# -- the pre-settled decisions are the same decisions ---------------------------------------------


def _both_ways(a: Adjudication, options: RuleOptions) -> None:
    position = a.position
    orders: dict[str, UnitOrder] = {}
    by_power: dict[str, list[Order]] = {}
    for o in a.outcomes:
        if o.result != INVALID and isinstance(o.order, UnitOrder):
            by_power.setdefault(o.power, []).append(o.order)
    for power, given in by_power.items():
        check = check_orders(position, power, given, options)
        for pid, i in check.chosen.items():
            order = check.orders[i].order
            assert isinstance(order, UnitOrder)
            orders[pid] = order
    first = MovementResolver(position, orders, options, presettle=True).run()
    second = MovementResolver(position, orders, options, presettle=False).run()
    assert first.verdicts == second.verdicts
    assert first.hits == second.hits
    assert (first.units, first.dislodged, first.standoffs) == (second.units, second.dislodged, second.standoffs)


@pytest.mark.parametrize("name,case", CASE_LIST, ids=[n for n, _ in CASE_LIST])
def test_presettled_and_recursive_verdicts_agree_in_the_cases(name: str, case: dict) -> None:
    for a, options in case_phases(case):
        if a.position.phase.is_movement:
            _both_ways(a, options)


@pytest.mark.parametrize("preset", PRESETS)
def test_presettled_and_recursive_verdicts_agree_in_random_games(preset: str) -> None:
    for seed in range(6):
        for a, options in random_phases(preset, 100 + seed):
            if a.position.phase.is_movement:
                _both_ways(a, options)
