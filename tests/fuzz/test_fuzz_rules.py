"""Fuzzing the engine's doors: every input gets a result or a clear error, never a crash."""

from __future__ import annotations

import json
import random
import string

from hypothesis import given, settings, strategies as st

from gamesmaster.machine import InputError, adjudicate_document
from gamesmaster.rules import Position, parse_order
from gamesmaster.rules.possible import possible_orders
from gamesmaster.rules import format_order
from gamesmaster.variants import VariantError, load_variant
from gamesmaster.variants.loader import DATA, parse_variant

VARIANT = load_variant("standard")
START = Position.initial(VARIANT)
WORDS = ["A", "F", "Army", "Fleet", "S", "C", "H", "-", "--", "—", "->", "to", "via", "convoy", "supports",
         "holds", "Build", "Remove", "Waive", "R", "D", "B", "Nor", "Tyr", "St. P.", "Spa/nc", "(sc)",
         "Lon", "Bel", "North Sea", "Mid", "W Med", "Gulf of L.", "ENGLISH", "Turk.", "Par", "Bur",
         "Mar", "Mun", "Kie", "Den", "Swe", "Nwy", "StP", "nc", "south coast", "Rhur", ".", ",", ":"]

phrases = st.lists(st.sampled_from(WORDS), min_size=0, max_size=9).map(" ".join)
noise = st.text(alphabet=string.printable + "éüß—–→\u200b\x00", max_size=60)


@settings(settings.get_profile("fuzz"))
@given(st.one_of(phrases, noise), st.sampled_from([None, *VARIANT.powers]))
def test_the_reader_answers_every_text(text: str, power: str | None) -> None:
    reading = parse_order(text, START, power)
    assert reading.ok or reading.error
    if reading.ok:
        # What was read is a real order of a unit on the board, and reads back the same.
        again = parse_order(format_order(reading.order), START, reading.order.unit.power if hasattr(reading.order, "unit") else power)
        assert again.order == reading.order


json_leaves = st.one_of(st.none(), st.booleans(), st.integers(-5, 2000), st.text(max_size=12),
                        st.sampled_from(["S1901M", "F1901R", "W1901A", "A PAR", "F STP/SC", "ENGLAND", "PAR", "2023"]))
json_docs = st.recursive(json_leaves, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                               st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                         max_leaves=20)
keys = st.sampled_from(["variant", "rules", "phase", "units", "centers", "dislodged", "standoffs", "orders",
                        "raids", "destroyed", "neutral"])


@settings(settings.get_profile("fuzz"))
@given(st.dictionaries(keys, json_docs, max_size=6))
def test_the_machine_interface_answers_every_document(doc: dict) -> None:
    try:
        out = adjudicate_document(doc)
    except InputError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    json.dumps(out)
    assert set(out) >= {"phase", "orders", "next", "winner"}


@settings(settings.get_profile("fuzz"))
@given(st.integers(0, 2**32 - 1))
def test_random_real_phases_round_trip_through_json(seed: int) -> None:
    rng = random.Random(seed)
    doc = json.loads(json.dumps(START.to_dict()))
    position = Position.from_dict(VARIANT, doc)
    for _ in range(4):
        orders = {}
        for power in VARIANT.powers:
            for options in possible_orders(position, power).values():
                if options:
                    orders.setdefault(power, []).append(format_order(rng.choice(options)))
        doc = dict(position.to_dict(), orders=orders)
        out = adjudicate_document(json.loads(json.dumps(doc)))
        position = Position.from_dict(VARIANT, out["next"])


STANDARD_TEXT = (DATA / "standard.toml").read_text(encoding="utf-8")


@settings(settings.get_profile("fuzz"))
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_the_variant_loader_refuses_broken_maps_with_a_reason(seed: int, edits: int) -> None:
    rng = random.Random(seed)
    lines = STANDARD_TEXT.splitlines()
    for _ in range(edits):
        i = rng.randrange(len(lines))
        action = rng.randrange(4)
        if action == 0:
            del lines[i]
        elif action == 1:
            lines[i] = lines[i].replace(rng.choice(["A", "E", "R", "O", "\"", "[", "]", "=", ","]), rng.choice(["", "X", "[", "\"", "=="]), 1)
        elif action == 2:
            lines.insert(i, rng.choice(lines))
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    try:
        parse_variant("\n".join(lines), "fuzzed.toml")
    except VariantError as exc:
        assert exc.problems and all(p for p in exc.problems)
