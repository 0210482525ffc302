"""The conditional-order syntax (Brobdingnag procedure 6), read and chosen without a database."""

from __future__ import annotations

import pytest

from gamesmaster.gm import GMError
from gamesmaster.gm.conditional import evaluate, parse_conditional, split_submission
from gamesmaster.rules import Position, adjudicate
from gamesmaster.variants import load_rules, load_variant

POSITION = Position.initial(load_variant("standard"))
RULES = load_rules("2023")


def read(text: str):
    return parse_conditional(text, POSITION, "GERMANY", RULES)


def test_split_this_season_from_the_next():
    lines, cond = split_submission("A Mun-Bur; A Ber-Kie\n# a comment\nF Kie-Den\n\nNext Season:\nif A Mun - Bur succeeds: A Bur - Par\n")
    assert lines == ["A Mun-Bur", "A Ber-Kie", "F Kie-Den"]
    assert cond == "if A Mun - Bur succeeds: A Bur - Par"
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
    ("A Mun - Bur", "comes before any 'if"),
    ("if A Mun - Bur wins: A Bur H", "cannot read the test"),
    ("if A Xyz - Bur succeeds: A Bur H", "cannot read the order"),
    ("otherwise: A Mun H\nif A Mun - Bur succeeds: A Bur H", "must be the last"),
    ("if A Ruh is dislodged: A Mun H", "no unit"),
])
def test_problems_are_named(text, problem):
    with pytest.raises(GMError, match=problem):
        read(text)
