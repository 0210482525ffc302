"""Reading orders as players write them: every notation the issue names, ambiguity, nonsense."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gamesmaster.rules import Location, Position, Unit, UnitType, check_orders, format_order, parse_order
from gamesmaster.rules.position import Dislodgement
from gamesmaster.rules.possible import possible_orders
from gamesmaster.variants import load_variant

VARIANT = load_variant("standard")
START = Position.initial(VARIANT)


def board(units: dict[str, list[str]], phase: str = "S1901M", **extra) -> Position:
    """A position from {'ENGLAND': ['A YOR', ...]}."""
    return Position.from_dict(VARIANT, {"phase": phase, "units": units, **extra})


def read(text: str, position: Position = START, power: str | None = None) -> str:
    reading = parse_order(text, position, power)
    assert reading.ok, f"{text!r}: {reading.error}"
    return format_order(reading.order)


SPRING_1901 = [
    # the rulebook's forms and abbreviations
    ("A Liv.--Yor.", "A LVP - YOR"),
    ("F St. P.--Both.", "F STP/SC - BOT"),
    ("F Lon.—North Sea", "F LON - NTH"),
    ("F Edi.—Norw. Sea", "F EDI - NWG"),
    ("A Mun.—Ruhr", "A MUN - RUH"),
    ("F Kiel—Den.", "F KIE - DEN"),
    ("A Rome—Ven.", "A ROM - VEN"),
    ("F Nap.--Tyr.", "F NAP - TYS"),
    ("A Mar.—Spa.", "A MAR - SPA"),
    # full names
    ("Army Munich to Bohemia", "A MUN - BOH"),
    ("Fleet Brest moves to the English Channel", "F BRE - ENG"),
    ("Army Warsaw moves to Galicia", "A WAR - GAL"),
    # the e-mail judges'
    ("A Par-Bur", "A PAR - BUR"),
    ("a par->bur", "A PAR - BUR"),
    ("A Ven H", "A VEN H"),
    # the diplomacy package's
    ("A PAR - BUR", "A PAR - BUR"),
    ("F STP/SC - BOT", "F STP/SC - BOT"),
    ("A VIE H", "A VIE H"),
    ("A BUD S A VIE - GAL", "A BUD S A VIE - GAL"),
    # dashes and spacing
    ("A   Par  --  Bur", "A PAR - BUR"),
    ("A Par – Bur", "A PAR - BUR"),
    ("A Par → Bur", "A PAR - BUR"),
    ("A Par=>Bur", "A PAR - BUR"),
    # holds
    ("A Tri Stand", "F TRI H"),
    ("A Ven. Stands", "A VEN H"),
    ("A Par holds", "A PAR H"),
    # a bare unit stands
    ("F Brest", "F BRE H"),
]


@pytest.mark.parametrize("text,canonical", SPRING_1901)
def test_reads_spring_1901_forms(text: str, canonical: str) -> None:
    assert read(text, START) == canonical


def test_rulebook_forms_in_context() -> None:
    fall = board({"ENGLAND": ["A YOR", "F NTH", "F NWG"], "GERMANY": ["A KIE", "A RUH", "F HOL"],
                  "TURKEY": ["A BUL", "A CON", "F BLA"], "AUSTRIA": ["A SER", "A TRI", "F GRE"],
                  "ITALY": ["A PIE", "A VEN"]}, "F1901M")
    assert read("A Yor.—Norway", fall) == "A YOR - NWY"
    assert read("F North Sea C A Yor.—Norway", fall) == "F NTH C A YOR - NWY"
    assert read("Fleet North Sea convoys army Yorkshire to Norway", fall) == "F NTH C A YOR - NWY"
    assert read("F Nth convoys A Yor-Nwy", fall) == "F NTH C A YOR - NWY"
    assert read("F NTH C A YOR - NWY", fall) == "F NTH C A YOR - NWY"
    assert read("F Stands", fall, "GERMANY") == "F HOL H"  # Germany's only fleet
    assert read("A Tri. Stand", fall, "AUSTRIA") == "A TRI H"
    assert read("A Pie. Mar.", fall, "ITALY") == "A PIE - MAR"
    assert read("A Ser. S Turk. A Bul. Rum.", fall, "AUSTRIA") == "A SER S A BUL - RUM"
    assert read("F S A Bul.--Rum.", fall, "TURKEY") == "F BLA S A BUL - RUM"
    assert read("A Ser S TURKISH A Bul-Rum", fall, "AUSTRIA") == "A SER S A BUL - RUM"
    assert read("A Kie S ENGLISH F Nth-Den", fall, "GERMANY") == "A KIE S F NTH - DEN"
    assert read("F Nth C ENGLISH A Yor-Nwy", fall, "ENGLAND") == "F NTH C A YOR - NWY"


def test_reading_notes_say_how_a_guess_was_made() -> None:
    reading = parse_order("F Nap.--Tyr.", START, "ITALY")
    assert reading.notes == ("read 'Tyr.' as Tyrrhenian Sea: F Nap can move only there (not Tyrolia)",)
    reading = parse_order("A Mun-Tyr", START, "GERMANY")
    assert format_order(reading.order) == "A MUN - TYR"
    assert "Tyrolia" in reading.notes[0]
    reading = parse_order("F Stands", board({"GERMANY": ["F DEN", "A KIE"]}), "GERMANY")
    assert reading.notes == ("read 'F' as F Den: the only fleet",)


def test_a_one_letter_slip_in_an_abbreviation_is_read_when_it_has_one_meaning() -> None:
    # The seeds' own misprints: 1982 Example 9 prints "A Sil S A Ber-Pur" (Pru: Burgundy, also
    # one letter off, is no space A Ber can reach); the nine-man rule 7 prints "A(Mos)-Arn" (Arm).
    example_9 = board({"GERMANY": ["A BER", "A SIL"], "RUSSIA": ["A PRU", "A WAR", "F BAL"]})
    reading = parse_order("A Sil S A Ber-Pur", example_9, "GERMANY")
    assert format_order(reading.order) == "A SIL S A BER - PRU"
    assert reading.notes == ("read 'Pur' as Prussia: a slip of one letter, the only space it can mean here",)
    nine = load_variant("nine-man")
    reading = parse_order("A(Mos)-Arn", Position.from_dict(nine, {"phase": "S1901M", "units": {"RUSSIA": ["A MOS"]}}),
                          "RUSSIA")
    assert format_order(reading.order) == "A MOS - ARM" and "read 'Arn' as Armenia" in reading.notes[0]


def test_a_slip_two_spaces_fit_is_refused_naming_both() -> None:
    # "Trr" is one letter off Tri and Tyr, and A Ven can reach either.
    reading = parse_order("A Ven-Trr", START, "ITALY")
    assert not reading.ok and {format_order(m) for m in reading.meanings} == {"A VEN - TRI", "A VEN - TYR"}
    assert reading.error.startswith("ambiguous: 'Trr' is one letter off both Trieste and Tyrolia")
    # A power's abbreviation or a common word is not a slip for a space ("Tur" is not Tus).
    assert parse_order("A Ven - Tur", START, "ITALY").error.startswith("unreadable")
    assert "'and'" in parse_order("A Ven and A Rom", START, "ITALY").error
    # A word alone is not a slip: "Bob" signing a letter does not order the army in Bohemia.
    assert not parse_order("Bob", board({"GERMANY": ["A BOH"]}), "GERMANY").ok


def test_nor_is_decided_by_which_unit_can_mean_it() -> None:
    position = board({"ENGLAND": ["A NWY", "F BAR"], "RUSSIA": ["A STP"]}, "S1902M")
    assert read("A Nor.--St. P.", position, "ENGLAND") == "A NWY - STP"
    assert read("F Bar. S Nor.--St. P.", position, "ENGLAND") == "F BAR S A NWY - STP"
    reading = parse_order("F Nth - Nor", board({"ENGLAND": ["F NTH"]}), "ENGLAND")
    assert not reading.ok and reading.meanings
    assert {format_order(m) for m in reading.meanings} == {"F NTH - NWY", "F NTH - NWG"}
    assert reading.error.startswith("ambiguous")


def test_the_coast_of_a_move_is_read_from_the_position() -> None:
    position = board({"FRANCE": ["F GAS", "F MAO", "F POR"]})
    assert read("F Gas - Spa", position) == "F GAS - SPA/NC"
    assert read("F Mid-Atlantic Ocean - Spain(nc)", position) == "F MAO - SPA/NC"
    assert read("F Mao - Spa south coast", position) == "F MAO - SPA/SC"
    assert read("F MAO - SPA/SC", position) == "F MAO - SPA/SC"
    reading = parse_order("F Por - Spa", position)
    assert not reading.ok and "coast" in reading.error


def test_adjustments_and_retreats_in_every_notation() -> None:
    winter = board({"RUSSIA": ["A MOS"], "GERMANY": ["A BER", "A MUN", "F KIE", "A HOL"]}, "W1901A",
                   centers={"RUSSIA": ["MOS", "WAR", "STP", "SEV"], "GERMANY": ["BER", "MUN", "KIE"]})
    assert read("Build A War", winter, "RUSSIA") == "A WAR B"
    assert read("F STP/NC B", winter, "RUSSIA") == "F STP/NC B"
    assert read("Russia builds F St. P. north coast", winter) == "F STP/NC B"
    assert read("A SEV B", winter, "RUSSIA") == "A SEV B"
    assert read("Waive", winter, "RUSSIA") == "WAIVE"
    assert read("WAIVE", winter, "RUSSIA") == "WAIVE"
    assert read("Remove A Hol", winter, "GERMANY") == "A HOL D"
    assert read("A HOL D", winter, "GERMANY") == "A HOL D"
    assert read("Germany removes A Hol.", winter) == "A HOL D"
    assert not parse_order("Build F Stp", winter, "RUSSIA").ok  # which coast?
    retreat = replace(board({"GERMANY": ["A MUN"]}, "F1901R"),
                      dislodged=(Dislodgement(Unit("FRANCE", UnitType.ARMY, Location("BUR")), "MUN"),))
    assert read("A Bur retreats Gas", retreat, "FRANCE") == "A BUR R GAS"
    assert read("A BUR R GAS", retreat, "FRANCE") == "A BUR R GAS"
    assert read("Bur.--Gas.", retreat, "FRANCE") == "A BUR R GAS"
    assert read("A Bur disband", retreat, "FRANCE") == "A BUR D"
    assert not parse_order("A Bur R Mun", retreat, "FRANCE").ok


def test_via_convoy_forms() -> None:
    position = board({"ENGLAND": ["A LON", "F NTH"]})
    assert read("A LON - BEL VIA", position) == "A LON - BEL VIA"
    assert read("A London - Belgium via Convoy", position) == "A LON - BEL VIA"
    assert read("A Lon-Bel by convoy", position) == "A LON - BEL VIA"
    assert read("A Lon - Yor via convoy", position) == "A LON - YOR VIA"


@pytest.mark.parametrize("text,why", [
    ("A Par flies to the moon", "unreadable: 'flies'"),
    ("", "unreadable: the order is empty"),
    ("A Par - Xyzzy", "unreadable: 'xyzzy'"),
    ("A Mos - Mun", "void: A Mos cannot reach Mun"),
    ("F Kie - Mun", "void: F Kie cannot reach Mun"),
    ("A Lvp - Iri", "void: an army cannot move to Irish Sea"),
    ("A Par S A Par", "void: A Par cannot support itself"),
    ("Build A Par", "invalid: no build orders in a movement phase"),
    ("A Par - Gas - Spa", "unreadable: unexpected"),
])
def test_orders_that_cannot_be_followed_say_why(text: str, why: str) -> None:
    reading = parse_order(text, START)
    assert not reading.ok
    assert reading.error.startswith(why) or why in reading.error, reading.error


def test_by_convoy_only_between_coasts() -> None:
    """A Bur - Mun via convoy is refused when it is written, not left to fail at adjudication."""
    position = board({"GERMANY": ["A BUR", "A KIE"], "FRANCE": ["A MAR", "A PAR"], "ENGLAND": ["A LON", "F NTH"]})
    for text, why in [("A Bur - Mun via convoy", "void: A Bur cannot go to Mun by convoy: Burgundy is not on a coast"),
                      ("A Kie - Mun via convoy", "void: A Kie cannot go to Mun by convoy: Munich is not on a coast"),
                      ("A Par - Bre via", "Paris is not on a coast")]:
        reading = parse_order(text, position)
        assert not reading.ok and why in reading.error, (text, reading.error)
        power = {"B": "GERMANY", "K": "GERMANY", "M": "FRANCE", "P": "FRANCE"}[text[2]]
        checked = check_orders(position, power, [text]).orders[0]
        assert checked.reason is not None and why in checked.reason, (text, checked.reason)
    assert read("A Bur - Mun", position) == "A BUR - MUN"
    assert read("A Lon - Bel via convoy", position) == "A LON - BEL VIA"
    # between two coasts with no fleet to carry it, the order stands and fails at adjudication (no convoy)
    assert read("A Mar - Spa via convoy", position) == "A MAR - SPA VIA"


def test_a_wrong_unit_type_is_ignored_with_a_note() -> None:
    reading = parse_order("F Par - Bur", START, "FRANCE")  # DATC 4.C.2
    assert format_order(reading.order) == "A PAR - BUR"
    assert "army" in reading.notes[0]


def test_another_powers_unit_cannot_be_ordered() -> None:
    reading = parse_order("F Lon - Nth", START, "GERMANY")
    assert not reading.ok and "England" in reading.error


def test_canonical_forms_round_trip_for_every_legal_order() -> None:
    positions = [START, board({"ENGLAND": ["A LON", "F NTH", "F ENG"], "FRANCE": ["A BEL", "F SPA/SC"],
                               "RUSSIA": ["F STP/NC", "F BUL/EC", "A RUM"]}, "F1905M")]
    for position in positions:
        for power in VARIANT.powers:
            for orders in possible_orders(position, power).values():
                for order in orders:
                    text = format_order(order)
                    reading = parse_order(text, position, power)
                    assert reading.order == order, (text, reading.error)
