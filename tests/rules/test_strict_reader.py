"""The strict reader gives the very Reading the full reader gives, wherever it answers.

parse_order reads canonical and compact orders ('A PAR - BUR', 'A Par-Bur', 'F NTH C A
LON - BEL') with a strict reader and leaves everything else to the full reader. Both
are run here over every order of the recorded corpora (the benchmark's phases, the
case files), over every legal order of random positions of every variant written
canonically, and over a fuzz corpus of texts made of the pieces orders are written
with: wherever the strict reader answers, its Reading must be the full reader's.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings, strategies as st

from gamesmaster.rules import Position, RuleOptions, format_order
from gamesmaster.rules.notation import read_full, read_strict
from gamesmaster.rules.possible import possible_orders
from gamesmaster.variants import load_rules, load_variant, variant_names

from lively import lively_game
from test_verdicts import CASE_LIST, case_phases

ROOT = Path(__file__).resolve().parents[2]
STANDARD = load_variant("standard")
OPTIONS = RuleOptions()


def same_reading(text: str, position: Position, power: str | None, options: RuleOptions = OPTIONS) -> bool | None:
    """True when the strict reader answers as the full reader does, None when it does not answer."""
    strict = read_strict(text, position, power, options)
    if strict is None:
        return None
    full = read_full(text, position, power, options)
    assert strict == full, (text, power, str(position.phase), strict, full)
    assert strict.checked == (position, options)
    return True


def test_every_recorded_benchmark_order_reads_the_same_and_strictly() -> None:
    answered = total = 0
    with open(ROOT / "bench" / "data" / "phases.jsonl", encoding="utf-8") as fh:
        for line in fh:
            doc = json.loads(line)
            position = Position.from_dict(STANDARD, {k: v for k, v in doc.items() if k != "orders"})
            for power, texts in doc["orders"].items():
                for text in texts:
                    total += 1
                    answered += bool(same_reading(text, position, power))
    # Every recorded order is canonical and legal: the strict reader reads nearly all.
    assert total > 10_000 and answered / total > 0.99, (answered, total)


def test_every_order_of_the_case_files_reads_the_same() -> None:
    answered = 0
    for _, case in CASE_LIST:
        for a, options in case_phases(case):
            for o in a.outcomes:
                answered += bool(same_reading(o.text, a.position, o.power, options))
                answered += bool(same_reading(o.text, a.position, None, options))
    assert answered > 100


def test_every_legal_order_of_random_games_reads_back_strictly_in_every_variant() -> None:
    for name in variant_names():
        variant = load_variant(name)
        options = load_rules(None, default=variant.default_rules)
        for a in lively_game(7, options, Position.initial(variant), years=3):
            position = a.position
            for power in variant.powers:
                for orders in possible_orders(position, power, options).values():
                    for order in orders[:40]:
                        text = format_order(order)
                        assert same_reading(text, position, power, options), (name, text)


# -- the fuzz corpus -----------------------------------------------------------------------------

_PHASES: list[Position] = []


def _positions() -> list[Position]:
    """A movement, a retreat and an adjustment position from a lively game, and the start."""
    if not _PHASES:
        _PHASES.append(Position.initial(STANDARD))
        kinds: set[str] = set()
        for a in lively_game(3, OPTIONS, Position.initial(STANDARD), years=4):
            if a.position.phase.kind not in kinds or len(_PHASES) < 8:
                kinds.add(a.position.phase.kind)
                _PHASES.append(a.position)
    return _PHASES


def _place_words(position: Position, rng: random.Random) -> str:
    pid = rng.choice([*position.units, *STANDARD.map.provinces])
    prov = STANDARD.map.provinces[pid]
    word = rng.choice([pid, pid.lower(), pid.capitalize(), prov.name.split()[0], prov.name[:3], prov.name])
    if rng.random() < 0.3:
        word += rng.choice(["/NC", "/SC", "/EC", "/nc", "/sc", "/XX", "/"])
    return word


PIECES = ["A", "F", "a", "f", "H", "h", "S", "s", "C", "c", "R", "r", "D", "d", "B", "b", "-", "--", "->",
          "VIA", "via", "Via", "WAIVE", "waive", "hold", "to", "X", ":", "", "Mid-Atlantic", "St. P."]


@st.composite
def order_texts(draw: st.DrawFn) -> tuple[str, int, str | None]:
    """Texts shaped like orders ('T P - P', 'T P S T P - P', 'T P B'...) from plausible and stray pieces."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    which = rng.randrange(len(_positions()))
    position = _positions()[which]
    shape = rng.choice(["TP", "TPH", "TP-P", "TP-PV", "TPSTP", "TPSTPH", "TPSTP-P", "TPCTP-P", "TPRP", "TPD", "TPB",
                        "W", "TP-P-P", "PTP"])
    units = [d.unit for d in position.dislodged] or list(position.units.values())
    moving = rng.choice(units)
    words: list[str] = []
    n = 0
    while n < len(shape):
        slot = shape[n]
        n += 1
        if rng.random() < 0.1:
            words.append(rng.choice(PIECES))  # a stray piece in place of the expected one
        elif slot == "T" and shape[n:n + 1] == "P" and rng.random() < 0.8:
            # Mostly a unit that is there, written as players write it: the first one ordered.
            unit = moving if not words else rng.choice(units)
            words.append(rng.choice([unit.type.value, unit.type.value.lower()]))
            words.append(rng.choice([str(unit.location), unit.province, unit.province.capitalize()]))
            n += 1
        elif slot == "T":
            words.append(rng.choice(["A", "F", "a", "f"]))
        elif slot == "P":
            near = STANDARD.map.neighbours(moving.type, moving.location)
            words.append(str(rng.choice(near)) if near and rng.random() < 0.6 else _place_words(position, rng))
        elif slot == "V":
            words.append(rng.choice(["VIA", "via", "Via"]))
        elif slot == "W":
            words.append(rng.choice(["WAIVE", "waive", "Waive"]))
        else:
            words.append(rng.choice([slot, slot.lower()]))
    glue = [rng.choice([" ", " ", " ", "  ", "\t"]) for _ in words]
    text = "".join(w + g for w, g in zip(words, glue)).strip()
    if rng.random() < 0.3:
        text = text.replace(" - ", "-")
    power = moving.power if rng.random() < 0.5 else rng.choice([None, *STANDARD.powers])
    return text, which, power


@st.composite
def canonical_variants(draw: st.DrawFn) -> tuple[str, int, str | None]:
    """A legal order written canonically, then compacted, recased or spoilt a little."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    which = rng.randrange(len(_positions()))
    position = _positions()[which]
    power = rng.choice(list(STANDARD.powers))
    orders = [o for os in possible_orders(position, power).values() for o in os]
    if not orders:
        return "WAIVE", which, power
    text = format_order(rng.choice(orders))
    edit = rng.randrange(6)
    if edit == 1:
        text = text.replace(" - ", "-")
    elif edit == 2:
        text = " ".join(w.capitalize() if len(w) > 2 else w for w in text.split())
    elif edit == 3:
        text = text.lower()
    elif edit == 4:
        words = text.split()
        words[rng.randrange(len(words))] = _place_words(position, rng)
        text = " ".join(words)
    return text, which, rng.choice([power, None, *STANDARD.powers])


@settings(max_examples=1500, deadline=None)
@given(order_texts())
def test_fuzzed_texts_read_the_same_wherever_the_strict_reader_answers(case: tuple[str, int, str | None]) -> None:
    text, which, power = case
    same_reading(text, _positions()[which], power)


@settings(max_examples=1500, deadline=None)
@given(canonical_variants())
def test_canonical_orders_recased_compacted_or_spoilt_read_the_same(case: tuple[str, int, str | None]) -> None:
    text, which, power = case
    same_reading(text, _positions()[which], power)


def test_an_order_read_before_is_read_again_only_where_its_units_stand_as_they_did() -> None:
    # parse_order remembers movement orders it read strictly; each phase's orders are read
    # again in the next phase's position, where some units have moved, and must give what
    # the readers give afresh.
    from gamesmaster.rules import parse_order

    with open(ROOT / "bench" / "data" / "phases.jsonl", encoding="utf-8") as fh:
        docs = [json.loads(line) for line, _ in zip(fh, range(120))]
    positions = [Position.from_dict(STANDARD, {k: v for k, v in d.items() if k != "orders"}) for d in docs]
    hits = 0
    for doc, here, there in zip(docs, positions, positions[1:] + positions[:1]):
        for power, texts in doc["orders"].items():
            for text in texts:
                for position in (here, there, here):
                    fresh = read_strict(text, position, power) or read_full(text, position, power)
                    again = parse_order(text, position, power)
                    assert again == fresh and again.checked == fresh.checked, (text, str(position.phase))
                    hits += again.order is not None
    assert hits > 8_000
