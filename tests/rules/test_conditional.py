"""The conditional-order language (Brobdingnag procedure 6), read and chosen without a database."""

from __future__ import annotations

import pytest

from gamesmaster.rules import Phase, Position, adjudicate
from gamesmaster.rules.conditional import ConditionalError, Facts, read_sections, split_submission, target_of
from gamesmaster.variants import load_rules, load_variant

POSITION = Position.initial(load_variant("standard"))
RULES = load_rules("2023")


def read(text: str, header: str = "next season:"):
    """The one section of a conditional part."""
    sections = read_sections(f"{header}\n{text}", POSITION, RULES)
    assert len(sections) == 1
    return sections[0]


def evaluate(section, results, dislodged, centres_now=None):
    """The clause chosen on a phase's results."""
    now = dict(POSITION.centres) if centres_now is None else centres_now
    return section.choose(Facts.of(results, dislodged, POSITION.centres, now))


def test_split_this_season_from_the_next():
    lines, cond = split_submission("A Mun-Bur; A Ber-Kie\n# a comment\nF Kie-Den\n\nNext Season:\nif A Mun - Bur succeeds: A Bur - Par\n")
    assert lines == ["A Mun-Bur", "A Ber-Kie", "F Kie-Den"]
    assert cond == "Next Season:\nif A Mun - Bur succeeds: A Bur - Par"
    assert split_submission("A Mun H") == (["A Mun H"], None)


def test_clauses_inline_and_on_lines():
    c = read("if A Mun - Bur succeeds: A Bur - Par; A Kie - Mun; otherwise: A Mun H")
    assert [(cl.label, cl.orders) for cl in c.clauses] == [
        ("if A Mun - Bur succeeds", ("A Bur - Par", "A Kie - Mun")), ("otherwise", ("A Mun H",))]
    c = read("if A Mun-Bur fails and F Kie - Den succeeds:\n  A Mun - Bur\nif A Ber is dislodged:\n  A Kie - Ber\n")
    assert [t.subject for t in c.clauses[0].tests] == ["A MUN - BUR", "F KIE - DEN"]
    assert c.clauses[1].tests[0].kind == "dislodged" and c.clauses[1].tests[0].subject == "A BER"


def test_conditions_may_name_other_powers_orders():
    c = read("if Russian A War - Gal succeeds: A Mun - Sil")
    assert c.clauses[0].tests[0].subject == "A WAR - GAL"


def test_orders_straight_under_a_heading_are_for_every_case():
    c = read("A Mun - Bur\nA Ber - Kie")
    assert [(cl.tests, cl.orders) for cl in c.clauses] == [((), ("A Mun - Bur", "A Ber - Kie"))]


def test_the_first_clause_that_holds_is_chosen():
    adj = adjudicate(POSITION, {"GERMANY": ["A Mun-Bur"], "FRANCE": ["A Par-Bur"]}, RULES)
    results = [o.as_dict() for o in adj.outcomes]
    c = read("if A Mun - Bur succeeds: A Bur - Par\nif A Mun - Bur fails: A Mun - Ruh\notherwise: A Mun H")
    assert evaluate(c, results, []).orders == ("A Mun - Ruh",)
    adj = adjudicate(POSITION, {"GERMANY": ["A Mun-Bur"]}, RULES)
    assert evaluate(c, [o.as_dict() for o in adj.outcomes], []).orders == ("A Bur - Par",)
    only_if = read("if A Mun - Bur succeeds: A Bur - Par")
    assert evaluate(only_if, results, []) is None  # nothing holds, no otherwise: no orders


@pytest.mark.parametrize("text,problem", [
    ("A Mun - Bur\nif A Mun - Bur succeeds: A Bur H", "follows orders written straight under"),
    ("if A Mun - Bur succeeds: A Bur - Par\nnext season:\nA Par H", "a second time"),
    ("if A Mun - Bur succeeds:\n  what now:", "cannot read"),
    ("if A Mun - Bur succeeds: hello there", "names no place"),
    ("if Ruh changes hands: A Mun H", "no supply centre"),
    ("if Bel is owned by Narnia: A Mun H", "no power"),
    ("if A Mun - Bur wins: A Bur H", "cannot read the test"),
    ("if A Xyz - Bur succeeds: A Bur H", "cannot read the order"),
    ("otherwise: A Mun H\nif A Mun - Bur succeeds: A Bur H", "must be the last"),
    ("if A Ruh is dislodged: A Mun H", "no unit"),
])
def test_problems_are_named(text, problem):
    with pytest.raises(ConditionalError, match=problem):
        read(text)


@pytest.mark.parametrize("header,filed,target", [
    ("next season:", "S1901M", "F1901M"), ("next:", "F1901M", "S1902M"), ("retreats:", "S1901M", "S1901R"),
    ("fall retreats:", "S1901M", "F1901R"), ("adjustments:", "S1901M", "W1901A"), ("builds:", "F1901R", "W1901A"),
    ("for F1901R:", "F1901M", "F1901R"), ("Fall 1901 retreats:", "S1901M", "F1901R"), ("winter 1901:", "F1901M", "W1901A"),
])
def test_headers_name_later_phases_of_the_year(header, filed, target):
    assert str(target_of(header, Phase.parse(filed))) == target


@pytest.mark.parametrize("header,filed", [("retreats:", "S1901R"), ("S1901M:", "S1901M"), ("F1902M:", "S1901M"),
                                          ("fall:", "F1901M"), ("W1902A:", "F1901M")])
def test_headers_for_earlier_or_far_phases_are_refused(header, filed):
    with pytest.raises(ConditionalError, match="later phase|names no phase"):
        target_of(header, Phase.parse(filed))


def test_a_whole_year_of_conditional_orders():
    text = ("retreats:\nif A Mun is dislodged: A Mun R Boh\nnext season:\nif A Mun - Bur succeeds: A Bur - Par\n"
            "otherwise: A Mun H\nadjustments:\nif Bel changes hands: A Mun B\n"
            "if Bel is owned by France and A Mun - Bur fails: F Kie B")
    sections = read_sections(text, POSITION, RULES)
    assert [s.phase for s in sections] == ["S1901R", "F1901M", "W1901A"]
    adj = adjudicate(POSITION, {"GERMANY": ["A Mun-Bur"], "FRANCE": ["A Par-Bur"]}, RULES)
    results = [o.as_dict() for o in adj.outcomes]
    builds = sections[2]
    assert evaluate(builds, results, []) is None  # Belgium neutral, and nobody owns it
    now = {**POSITION.centres, "BEL": "FRANCE"}
    assert evaluate(builds, results, [], now).orders == ("A Mun B",)  # it changed hands
    france_kept = {**POSITION.centres}
    facts = Facts.of(results, [], {**france_kept, "BEL": "FRANCE"}, {**france_kept, "BEL": "FRANCE"})
    assert builds.choose(facts).orders == ("F Kie B",)
    assert evaluate(sections[0], results, ["A MUN"]).orders == ("A Mun R Boh",)
    assert evaluate(sections[0], results, []) is None


def test_sections_round_trip_through_the_ledger_form():
    from gamesmaster.rules.conditional import Section
    for section in read_sections("adjustments:\nif Bel is not owned by France: A Mun B\notherwise: waive",
                                 POSITION, RULES):
        assert Section.from_dict(section.to_dict()) == section
