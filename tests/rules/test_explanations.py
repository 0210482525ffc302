"""Every outcome carries a reason a player understands."""

from __future__ import annotations

from gamesmaster.rules import Position, adjudicate
from gamesmaster.variants import load_rules, load_variant

VARIANT = load_variant("standard")


def reasons(units: dict[str, list[str]], orders: dict[str, list[str]], phase: str = "S1901M") -> dict[str, str]:
    position = Position.from_dict(VARIANT, {"phase": phase, "units": units})
    return {o.text: o.reason for o in adjudicate(position, orders).outcomes}


def test_a_bounce_names_both_units_and_their_strengths() -> None:
    why = reasons({"GERMANY": ["A MUN"], "AUSTRIA": ["A BOH"]},
                  {"GERMANY": ["A Mun-Sil"], "AUSTRIA": ["A Boh-Sil"]})
    assert why["A Mun-Sil"] == "bounced: A Mun (strength 1) against A Boh (1)"
    assert why["A Boh-Sil"] == "bounced: A Boh (strength 1) against A Mun (1)"


def test_a_cut_support_names_the_attack_that_cut_it() -> None:
    # Rulebook example 7.
    why = reasons({"GERMANY": ["A PRU", "A SIL"], "RUSSIA": ["A WAR", "A BOH"]},
                  {"GERMANY": ["A Pru-War", "A Sil S A Pru-War"], "RUSSIA": ["A War Holds", "A Boh-Sil"]})
    assert why["A Sil S A Pru-War"] == "support cut by A Boh - Sil"
    assert why["A Pru-War"] == "bounced: A Pru (strength 1) against A War holding (1)"


def test_a_dislodged_unit_learns_by_what_and_how_strongly() -> None:
    why = reasons({"GERMANY": ["A SIL", "A BER"], "RUSSIA": ["A PRU", "A WAR"]},
                  {"GERMANY": ["A Ber-Pru", "A Sil S A Ber-Pru"], "RUSSIA": ["A Pru-Sil", "A War S A Pru-Sil"]})
    assert why["A Sil S A Ber-Pru"] == "support cut: dislodged by A Pru - Sil (2 against 1)"
    why = reasons({"GERMANY": ["A SIL"], "RUSSIA": ["A PRU", "A WAR"]},
                  {"RUSSIA": ["A Pru-Sil", "A War S A Pru-Sil"]})
    assert why["A Pru-Sil"] == "moved, dislodging A Sil"


def test_an_illegal_order_says_why_it_is_void() -> None:
    why = reasons({"GERMANY": ["F KIE"]}, {"GERMANY": ["F Kie-Mun"]})
    assert why["F Kie-Mun"] == "void: F Kie cannot reach Mun"


def test_a_disrupted_convoy_names_the_fleet() -> None:
    # Rulebook example 11.
    why = reasons({"FRANCE": ["A SPA", "F LYO", "F TYS"], "ITALY": ["F ION", "F TUN"]},
                  {"FRANCE": ["A Spa-Nap", "F Lyo C A Spa-Nap", "F Tys C A Spa-Nap"],
                   "ITALY": ["F Ion-Tys", "F Tun S F Ion-Tys"]})
    assert why["A Spa-Nap"] == "convoy disrupted: F Tys was dislodged"
    assert why["F Tys C A Spa-Nap"].startswith("convoy disrupted: dislodged by F Ion - Tys (2 against 1)")


def test_void_supports_and_self_dislodgement_are_explained() -> None:
    why = reasons({"GERMANY": ["A MUN", "A BOH"]}, {"GERMANY": ["A Mun-Ber", "A Boh S A Mun"]})
    assert why["A Boh S A Mun"] == "void: A Mun was ordered to move, so it cannot be supported in place"
    why = reasons({"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A KIE"], "AUSTRIA": ["A BOH"]},
                  {"FRANCE": ["A Bur Holds"], "GERMANY": ["A Mun-Bur", "A Kie S AUSTRIAN A Boh-Mun"],
                   "AUSTRIA": ["A Boh-Mun"]})
    # Rulebook example 2: the German support cannot help dislodge a German unit.
    assert why["A Boh-Mun"] == ("bounced: A Boh (strength 1) against A Mun, which failed to move away (1); "
                                "support from Germany cannot count against its own A Mun")


def test_a_reading_note_explains_an_abbreviation() -> None:
    position = Position.initial(VARIANT)
    outcome = adjudicate(position, {"ITALY": ["F Nap.--Tyr."]}).outcomes[0]
    assert outcome.notes == ("read 'Tyr.' as Tyrrhenian Sea: F Nap can move only there (not Tyrolia)",)


def test_a_unit_beaten_head_to_head_is_not_said_to_bounce_against_a_unit_that_moved_in() -> None:
    # The 1971 sample game, Fall 1902: F Nth took Norway while A St. P. lost to A Nwy.
    units = {"ENGLAND": ["A NWY", "F NTH", "F BAR"], "RUSSIA": ["A STP", "F SWE"], "GERMANY": ["F DEN"]}
    why = reasons(units, {"ENGLAND": ["A Nwy-Stp", "F Nth-Nwy", "F Bar S A Nwy-Stp"],
                          "RUSSIA": ["A Stp-Nwy", "F Swe S A Stp-Nwy"], "GERMANY": ["F Den-Swe"]}, "F1902M")
    assert why["A Stp-Nwy"] == ("bounced: A Stp (strength 1) against A Nwy moving the other way (2); "
                                "dislodged by A Nwy - Stp (2 against 1)")
    assert why["F Nth-Nwy"] == "moved"


def test_kolins_rule_names_the_attack_the_unit_turned_to_face() -> None:
    position = Position.from_dict(VARIANT, {"phase": "S1901M", "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"]}})
    result = adjudicate(position, {"FRANCE": ["A Bur-Ruh"], "GERMANY": ["A Mun-Bur"]},
                        load_rules({"preset": "2023", "kolin": True}))
    why = {o.text: o.reason for o in result.outcomes}
    assert why["A Bur-Ruh"] == "did not move: it turned to face the attack of A Mun - Bur (Kolin's rule)"
    assert why["A Mun-Bur"] == "bounced: A Mun (strength 1) against A Bur, which failed to move away (1)"


def test_a_bounce_among_three_names_both_rivals() -> None:
    why = reasons({"GERMANY": ["A MUN"], "AUSTRIA": ["A BOH"], "RUSSIA": ["A WAR"]},
                  {"GERMANY": ["A Mun-Sil"], "AUSTRIA": ["A Boh-Sil"], "RUSSIA": ["A War-Sil"]})
    assert why["A Mun-Sil"] == "bounced: A Mun (strength 1) against A Boh (1) and A War (1)"


def test_an_order_given_twice_counts_once_with_the_first_ones_reason() -> None:
    position = Position.from_dict(VARIANT, {"phase": "S1901M", "units": {"GERMANY": ["A MUN", "A BER"],
                                                                          "RUSSIA": ["A WAR", "A PRU"]}})
    result = adjudicate(position, {"GERMANY": ["A Mun-Sil", "A Mun - Sil", "A Ber-Pru"],
                                   "RUSSIA": ["A War-Sil", "A Pru H"]})
    first, second = result.outcomes[0], result.outcomes[1]
    assert first.reason == "bounced: A Mun (strength 1) against A War (1)"
    assert second.result == first.result == "fails"
    assert second.reason == "the same order as above, counted once: bounced: A Mun (strength 1) against A War (1)"
