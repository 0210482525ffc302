"""Every shipped variant survives a random game of twenty years through the machine interface.

Each phase, every power is given random orders drawn from the legal ones
(`gamesmaster.rules.possible.possible_orders`, written out with `format_order`) by a
seeded RNG, and the phase is adjudicated by `gamesmaster.machine.adjudicate_document`,
the code behind `gamesmaster adjudicate`. After every phase the test checks:

* no order drawn from the legal ones is judged ``invalid``;
* never two units in one space;
* a unit leaves the board only by being dislodged (movement), disbanded (retreats)
  or removed (adjustments), and every other unit is where its order took it;
* the supply centres: each owned centre is a centre of the map and has one owner,
  ownership changes only after a Fall turn, and then every occupied centre belongs
  to the occupier; after the adjustments a power that had to remove has exactly as
  many units as centres, and no power has built beyond its centres.

Two games per variant; the whole test takes a few seconds.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gamesmaster.machine import adjudicate_document
from gamesmaster.rules import Position, format_order
from gamesmaster.rules.possible import possible_orders
from gamesmaster.variants import load_variant, variant_names

YEARS = 20


def _province(unit: str) -> str:
    return unit.split()[1].split("/")[0]


def _units(doc: dict) -> dict[str, Counter]:
    return {p: Counter(v) for p, v in doc.get("units", {}).items() if v}


def _all_units(doc: dict) -> list[str]:
    return [u for v in doc.get("units", {}).values() for u in v]


def random_orders(position: Position, rng: random.Random) -> dict[str, list[str]]:
    """Random legal orders for every power (moves and supports favoured)."""
    orders: dict[str, list[str]] = {}
    for power in position.variant.powers:
        options = possible_orders(position, power)
        chosen = []
        if position.phase.is_adjustment:
            adjust = options.get("adjust", [])
            removals = [o for o in adjust if type(o).__name__ == "Remove"]
            due = len(position.centres_of(power)) - len(position.units_of(power))
            if removals:
                chosen = rng.sample(removals, -due)
            else:
                builds = [o for o in adjust if type(o).__name__ == "Build"]
                rng.shuffle(builds)
                seen: set[str] = set()
                for build in builds:
                    if len(seen) < due and build.unit.province not in seen and rng.random() < 0.9:
                        seen.add(build.unit.province)
                        chosen.append(build)
        else:
            for _, unit_options in sorted(options.items()):
                active = [o for o in unit_options if type(o).__name__ in ("Move", "Support", "Convoy", "Retreat")]
                chosen.append(rng.choice(active if active and rng.random() < 0.85 else unit_options))
        if chosen:
            orders[power] = [format_order(o) for o in chosen]
    return orders


def check_phase(variant, doc: dict, out: dict) -> None:
    """The invariants between one phase's input and the engine's output."""
    phase = doc["phase"]
    nxt = out["next"]
    where = f"{variant.name} {phase}"
    invalid = [(o["power"], o["text"], o["reason"]) for o in out["orders"] if o["result"] == "invalid"]
    assert not invalid, f"{where}: legal orders judged invalid: {invalid}"

    # Never two units in one space.
    places = [_province(u) for u in _all_units(nxt)]
    assert len(places) == len(set(places)), f"{where}: two units in one space: {sorted(places)}"

    # Units vanish only by dislodgement, disbanding or removal.
    done = {o["order"]: o for o in out["orders"] if o["result"] == "succeeds"}
    expected: dict[str, Counter] = {}
    if phase.endswith("M"):
        dislodged = {d["unit"] for v in out["dislodged"].values() for d in v}
        for power, units in doc["units"].items():
            for unit in units:
                if unit in dislodged:
                    continue
                moved = [o.split()[3] for o in done if o.startswith(unit + " - ")]
                place = f"{unit.split()[0]} {moved[0]}" if moved else unit
                expected.setdefault(power, Counter())[place] += 1
        before = sum(len(v) for v in doc["units"].values())
        assert len(_all_units(nxt)) + len(dislodged) == before, f"{where}: units appeared or vanished"
    elif phase.endswith("R"):
        for power, units in doc["units"].items():
            expected.setdefault(power, Counter()).update(units)
        for order in done:
            parts = order.split()
            if len(parts) == 4 and parts[2] == "R":
                power = next(o["power"] for o in out["orders"] if o["order"] == order)
                expected.setdefault(power, Counter())[f"{parts[0]} {parts[3]}"] += 1
    else:
        for power, units in doc["units"].items():
            expected.setdefault(power, Counter()).update(units)
        for o in out["orders"]:
            if o["result"] != "succeeds":
                continue
            parts = o["order"].split()
            if parts[-1] == "B":
                expected.setdefault(o["power"], Counter())[f"{parts[0]} {parts[1]}"] += 1
            elif parts[-1] == "D":
                expected[o["power"]][f"{parts[0]} {parts[1]}"] -= 1
    expected = {p: +c for p, c in expected.items() if +c}
    assert _units(nxt) == expected, f"{where}: units are not where their orders took them"

    # Supply centres.
    owners: dict[str, str] = {}
    for power, centres in nxt["centers"].items():
        for c in centres:
            assert c in variant.supply_centres, f"{where}: {power} owns {c}, not a supply centre"
            assert c not in owners, f"{where}: {c} owned by {owners[c]} and {power}"
            owners[c] = power
    assert sum(len(v) for v in nxt["centers"].values()) == len(owners) <= len(variant.supply_centres)
    before = {c: p for p, v in doc.get("centers", {}).items() for c in v}
    after_fall = phase[0] == "F" and nxt["phase"][0] != "F"
    if not after_fall:
        assert owners == before, f"{where}: centres changed hands outside the Fall"
    else:
        for power, units in nxt["units"].items():
            for unit in units:
                if _province(unit) in variant.supply_centres:
                    assert owners.get(_province(unit)) == power, f"{where}: {unit} of {power} does not own its centre"
    if phase.endswith("A"):
        for power in variant.powers:
            units = len(nxt["units"].get(power, []))
            centres = len(nxt["centers"].get(power, []))
            had = len(doc["units"].get(power, []))
            if had > centres:
                assert units == centres, f"{where}: {power} has {units} units for {centres} centres"
            else:
                assert units <= centres, f"{where}: {power} built beyond its {centres} centres"


def play(name: str, seed: int, years: int = YEARS) -> list[str]:
    """Play a random game; return the phases played."""
    variant = load_variant(name)
    rng = random.Random(seed)
    doc = Position.initial(variant).to_dict()
    played = []
    last_year = variant.start.year + years - 1
    while True:
        position = Position.from_dict(variant, doc)
        if position.phase.year > last_year:
            break
        doc["orders"] = random_orders(position, rng)
        out = adjudicate_document(doc)
        check_phase(variant, doc, out)
        played.append(doc["phase"])
        if out["winner"]:
            break
        doc = dict(out["next"])
    return played


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", variant_names())
def test_random_game(name: str, seed: int) -> None:
    played = play(name, seed=seed * 1000 + sum(map(ord, name)))
    assert played[0] == str(load_variant(name).start)
    assert len(played) >= 2 * 5  # at least five years of movement, even if someone wins early
