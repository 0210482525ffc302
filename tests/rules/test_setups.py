"""The player-count set-ups (rulebook XIV.2), the short game (III) and the deadlock rule (seed 004 s5)."""

from __future__ import annotations

import json

from gamesmaster.machine import adjudicate_document
from gamesmaster.rules import Position, RuleOptions, adjudicate, deadlock, most_units, winner
from gamesmaster.rules.victory import sides, victory, winning_side, years_unchanged
from gamesmaster.variants import load_rules, load_variant


def test_six_players_italy_holds_is_supported_and_is_disbanded_when_dislodged() -> None:
    variant = load_variant("standard-6")
    start = Position.initial(variant)
    assert str(start.phase) == "S1870M" and start.neutral == {"ITALY"}
    position = Position.from_dict(variant, {"phase": "S1870M", "units": {
        "ITALY": ["A VEN", "A ROM"], "AUSTRIA": ["A TRI", "A TYR"], "FRANCE": ["A PIE"]}})
    result = adjudicate(position, {
        "ITALY": ["A Ven - Tus"],                       # nobody plays Italy
        "AUSTRIA": ["A Tri - Ven", "A Tyr S A Tri - Ven"],
        "FRANCE": ["A Pie S A Ven"]})                   # any player may support an Italian unit
    by_text = {o.text: o for o in result.outcomes}
    assert by_text["A Ven - Tus"].result == "invalid" and "neutral" in by_text["A Ven - Tus"].reason
    assert by_text["A Tri - Ven"].result == "fails"     # 2 against 2: the support holds Venice
    assert by_text["A Pie S A Ven"].result == "succeeds"
    # Without the French support Venice is dislodged, and an Italian unit has no retreat.
    result = adjudicate(position, {"AUSTRIA": ["A Tri - Ven", "A Tyr S A Tri - Ven"]})
    (lost,) = result.dislodged
    assert str(lost.unit) == "A VEN" and lost.retreats == ()
    assert result.next.units["VEN"].power == "AUSTRIA"
    assert [u.power for u in result.next.units.values()].count("ITALY") == 1


def test_a_neutral_power_raises_no_units() -> None:
    variant = load_variant("standard-5")
    position = Position.from_dict(variant, {"phase": "W1801A", "units": {"GERMANY": ["A BER"], "FRANCE": ["A PAR"]},
                                            "centers": {"GERMANY": ["BER", "MUN", "KIE"], "FRANCE": ["PAR", "BRE"]}})
    result = adjudicate(position, {"GERMANY": ["Build A Mun"], "FRANCE": ["Build F Bre"]})
    assert [o.result for o in result.outcomes] == ["invalid", "succeeds"]
    assert {str(u) for u in result.next.units.values()} == {"A BER", "A PAR", "F BRE"}


def test_world_war_one_italy_is_closed_until_it_joins() -> None:
    variant = load_variant("standard-2")
    assert variant.victory_centres == 24 and variant.victory_rule == "units"
    assert variant.coin_toss == ("ITALY", "W1914A", "S1915M")
    assert [p for p, _ in variant.players] == ["Entente", "Central Powers"]
    start = Position.initial(variant)
    assert str(start.phase) == "S1914M"
    result = adjudicate(start, {"FRANCE": ["A Mar - Pie"], "AUSTRIA": ["A Vie - Tri", "F Tri - Ven"]})
    reasons = {o.text: (o.result, o.reason) for o in result.outcomes}
    assert reasons["A Mar - Pie"][0] == "invalid" and "neutral" in reasons["A Mar - Pie"][1]
    assert reasons["F Tri - Ven"][0] == "invalid"
    # After the toss the GM clears the neutral list and Italy is played: Piedmont opens.
    doc = json.loads(json.dumps(start.to_dict()))
    assert doc["neutral"] == ["ITALY"]
    doc.update(variant="standard-2", phase="S1915M", neutral=[], orders={"FRANCE": ["A Mar - Pie"], "ITALY": ["A Ven - Tyr"]})
    out = adjudicate_document(doc)
    assert [o["result"] for o in out["orders"]] == ["succeeds", "succeeds"]
    assert out["next"]["neutral"] == []


def test_world_war_one_is_won_with_24_units_on_the_board() -> None:
    variant = load_variant("standard-2")
    armies = ["A " + p for p in sorted(variant.map.provinces)
              if variant.map.provinces[p].terrain.value in ("land", "coast")][:24]
    position = Position.from_dict(variant, {"phase": "F1920M", "units": {"GERMANY": armies}})
    # The side wins: Central Powers, named by its first power.
    assert winning_side(position, load_rules("2023")) == ("AUSTRIA", "GERMANY", "TURKEY")
    assert winner(position, load_rules("2023")) == "AUSTRIA"
    fewer = Position.from_dict(variant, {"phase": "F1920M", "units": {"GERMANY": armies[:23]},
                                         "centers": {"GERMANY": sorted(variant.supply_centres)[:30]}})
    assert winner(fewer, load_rules("2023")) is None  # centres do not count here: units do


ENTENTE_24 = {"ENGLAND": ["F LON", "F EDI", "A LVP", "A YOR", "A WAL", "F NTH", "F ENG", "F IRI"],
              "FRANCE": ["A PAR", "A MAR", "F BRE", "A BUR", "A GAS", "A PIC", "A BEL", "A SPA"],
              "RUSSIA": ["A MOS", "A WAR", "A STP", "F SEV", "A UKR", "A LVN", "A FIN", "A SWE"],
              "GERMANY": ["A BER"], "AUSTRIA": ["A VIE"], "TURKEY": ["A CON"]}


def test_world_war_one_counts_the_units_of_a_side_together() -> None:
    # XIV.2: "One player plays England/France/Russia ... The victory criterion is 24 units actually
    # on the board": 8 + 8 + 8 is the player's 24, though no power has more than 8.
    variant = load_variant("standard-2")
    position = Position.from_dict(variant, {"phase": "F1920M", "units": ENTENTE_24})
    assert winning_side(position, load_rules("2023")) == ("ENGLAND", "FRANCE", "RUSSIA")
    result = adjudicate(Position.from_dict(variant, {"phase": "S1920M", "units": ENTENTE_24}), {}, load_rules("2023"))
    assert result.winner == "ENGLAND" and result.ended
    out = adjudicate_document({"variant": "standard-2", "phase": "S1920M", "units": ENTENTE_24, "orders": {}})
    assert out["winner"] == "ENGLAND" and out["ended"]  # the machine interface names the side by its first power
    # Italy, joined to a side by the coin toss, counts with the side its player commands.
    fewer = {**ENTENTE_24, "RUSSIA": ENTENTE_24["RUSSIA"][:6], "ITALY": ["A ROM", "A VEN"]}
    position = Position.from_dict(variant, {"phase": "F1920M", "units": fewer, "neutral": []})
    assert winning_side(position, load_rules("2023")) is None  # Italy on its own: 22 and 2
    entente = sides(variant, [("ENGLAND", "FRANCE", "RUSSIA", "ITALY"), ("AUSTRIA", "GERMANY", "TURKEY")])
    assert winning_side(position, load_rules("2023"), among=entente) == ("ENGLAND", "FRANCE", "RUSSIA", "ITALY")


def test_the_victory_criterion_is_one_value_that_states_itself() -> None:
    standard, wwi = load_variant("standard"), load_variant("standard-2")
    assert victory(standard, load_rules("1971")).headline == "18 supply centres win"
    assert victory(wwi, load_rules("1971")).headline == "24 units on the board win, counted per player"
    assert "together have 24 units" in victory(wwi, load_rules("2023")).explanation
    majority = victory(standard, load_rules("graustark"))
    assert majority.headline == "More than half the units on the board wins"
    assert "after the Spring moves and after the Winter adjustments" in majority.explanation
    assert "after the Fall moves" in victory(standard, load_rules("erehwon")).explanation
    # Four players: centres stay with each power (XIV.2 note), units go to the player.
    four = load_variant("standard-4")
    assert not victory(four, load_rules("1971")).by_side and victory(four, load_rules("brobdingnag")).by_side


def test_the_short_game_by_the_year_goes_to_the_player_with_most_pieces() -> None:
    # Rulebook III: "the player who has the most pieces on the board". Four players: Austria/France
    # has 3 + 3 against England's 5.
    variant = load_variant("standard-4")
    units = {"ENGLAND": ["F LON", "F EDI", "A LVP", "A NWY", "A BEL"], "AUSTRIA": ["A VIE", "A BUD", "A TRI"],
             "FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A BER"], "ITALY": ["A ROM"]}
    position = Position.from_dict(variant, {"phase": "S1903M", "units": units})
    rules = load_rules({"preset": "2023", "last_year": 1902})
    assert winning_side(position, rules) == ("AUSTRIA", "FRANCE")
    assert most_units(position) == "AUSTRIA"


def test_the_short_game_goes_to_the_power_with_most_units() -> None:
    variant = load_variant("standard")
    rules = load_rules({"preset": "2023", "last_year": 1902})
    position = Position.from_dict(variant, {"phase": "F1902M", "units": {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A MUN"]},
                                            "centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN"]}})
    result = adjudicate(position, {}, rules)
    assert str(result.next.phase) == "S1903M" and result.winner == "FRANCE" and result.ended
    tied = Position.from_dict(variant, {"phase": "F1902M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
                                        "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"]}})
    result = adjudicate(tied, {}, rules)
    assert result.winner is None and result.ended  # a shared lead: the game ends drawn
    assert most_units(tied) is None
    early = adjudicate(tied, {}, load_rules({"preset": "2023", "last_year": 1905}))
    assert not early.ended


def test_deadlock_after_years_without_a_centre_changing_hands() -> None:
    same = {"PAR": "FRANCE", "MUN": "GERMANY"}
    history = [{"PAR": "GERMANY", "MUN": "GERMANY"}, same, same, same, same]
    assert years_unchanged(history) == 3
    assert deadlock(history, load_rules("graustark")) == "draw"
    assert deadlock(history[:-1], load_rules("graustark")) is None
    assert deadlock(history, load_rules("brobdingnag")) == "ask-gm"
    assert deadlock(history, RuleOptions()) is None
