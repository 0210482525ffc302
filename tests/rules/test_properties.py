"""Property tests on random legal positions and orders (hypothesis drives the seeds)."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings, strategies as st

from gamesmaster.rules import Location, Position, Unit, UnitType, adjudicate, format_order
from gamesmaster.rules.possible import possible_orders
from gamesmaster.variants import load_variant

VARIANT = load_variant("standard")
POWERS = list(VARIANT.powers)


def random_position(rng: random.Random) -> Position:
    """A random legal board: 8 to 30 units of random powers on random spaces."""
    board = VARIANT.map
    spaces = [p for p in board.provinces.values() if p.terrain.value != "impassable"]
    rng.shuffle(spaces)
    units: dict[str, Unit] = {}
    for prov in spaces[: rng.randint(8, 30)]:
        choices = []
        if prov.terrain.value in ("land", "coast"):
            choices.append((UnitType.ARMY, Location(prov.id)))
        choices.extend((UnitType.FLEET, loc) for loc in board.fleet_locations(prov.id))
        utype, loc = rng.choice(choices)
        units[prov.id] = Unit(rng.choice(POWERS), utype, loc)
    centres = {c: rng.choice(POWERS) for c in VARIANT.supply_centres if rng.random() < 0.5}
    return replace(Position.initial(VARIANT), units=units, centres=centres)


def random_orders(position: Position, rng: random.Random) -> dict[str, list[str]]:
    """A random legal order for most units (some left unordered), as text."""
    orders: dict[str, list[str]] = {}
    for power in POWERS:
        for _, options in possible_orders(position, power).items():
            if options and rng.random() < 0.9:
                # Moves and supports are what make positions interesting.
                weighted = [o for o in options if type(o).__name__ in ("Move", "Support", "Convoy")] or options
                pick = rng.choice(weighted if rng.random() < 0.8 else options)
                orders.setdefault(power, []).append(format_order(pick))
    return orders


def outcome_map(result) -> dict[str, tuple[str, str]]:
    return {o.text: (o.result, o.reason) for o in result.outcomes}


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_never_two_units_and_units_vanish_only_by_dislodgement(seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(rng)
    result = adjudicate(position, random_orders(position, rng))
    after = result.next
    # The next position may be the retreat phase (dislodged listed) or later (disbanded).
    on_board = list(after.units.values())
    assert len({u.province for u in on_board}) == len(on_board)
    for u in on_board:
        assert VARIANT.map.can_hold(u.type, u.location)
    assert len(on_board) + len(result.dislodged) == len(position.units)
    kept = {(u.power, u.type) for u in on_board}
    for d in result.dislodged:
        assert d.unit in position.units.values()
        assert d.unit.province in {u.province for u in on_board}  # its attacker took the space
    assert kept <= {(u.power, u.type) for u in position.units.values()}


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_outcome_does_not_depend_on_the_order_orders_are_listed(seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(rng)
    orders = random_orders(position, rng)
    first = adjudicate(position, orders)
    shuffled_powers = list(orders.items())
    rng.shuffle(shuffled_powers)
    reordered = {p: rng.sample(texts, len(texts)) for p, texts in shuffled_powers}
    # The resolver also walks units in board order: present the board in another order.
    units = list(position.units.items())
    rng.shuffle(units)
    second = adjudicate(replace(position, units=dict(units)), reordered)
    assert outcome_map(first) == outcome_map(second)
    assert first.next.to_dict() == second.next.to_dict()


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.permutations(POWERS))
def test_outcome_does_not_depend_on_the_powers_names(seed: int, permutation: list[str]) -> None:
    rng = random.Random(seed)
    position = random_position(rng)
    orders = random_orders(position, rng)
    rename = dict(zip(POWERS, permutation))
    renamed = replace(position,
                      units={p: replace(u, power=rename[u.power]) for p, u in position.units.items()},
                      centres={c: rename[p] for c, p in position.centres.items()})
    first = adjudicate(position, orders)
    second = adjudicate(renamed, {rename[p]: t for p, t in orders.items()})
    assert [(o.text, o.result) for o in sorted(first.outcomes, key=lambda o: o.text)] == \
           [(o.text, o.result) for o in sorted(second.outcomes, key=lambda o: o.text)]
    back = {v: k for k, v in rename.items()}
    assert {p: (back[u.power], str(u)) for p, u in second.next.units.items()} == \
           {p: (u.power, str(u)) for p, u in first.next.units.items()}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_random_game_keeps_its_invariants_through_every_phase(seed: int) -> None:
    rng = random.Random(seed)
    position = Position.initial(VARIANT)
    for _ in range(12):
        before = len(position.units) + len(position.dislodged)
        result = adjudicate(position, random_orders(position, rng))
        after = result.next
        assert len({u.province for u in after.units.values()}) == len(after.units)
        assert sum(1 for c in after.centres if not VARIANT.map.provinces[c].supply_centre) == 0
        if position.phase.is_movement:
            assert len(after.units) + len(after.dislodged) <= before
        position = after
