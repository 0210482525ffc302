"""How a game ends: the victory criteria (seed 004 s4, option victory), the deadlock rule
(seed 004 s5, options deadlock and deadlock_years) and the short game (1971 III, last_year).

Brobdingnag #84 (1968) lists four criteria, A to D:
  A  "units": one power has 18 units actually on the board;
  B  "centres": one power has 18 supply centres (Wild 'n Woolly, the rulebooks since 1971),
     with the flaw that a power may own 18 centres and be unable to build for them;
  C  "majority": more than half the units on the board, at the end of the Spring moves,
     of the Fall moves (with retreats) or of the builds (Erehwon, Brobdingnag);
  D  "majority-winter": as C, but the builds count with the Fall, so victory is declared
     only in Spring or Winter, not in Fall (Graustark, Armageddonia).
`winner(position, options, played)` is asked about the position after the phase `played`:
the position's phase is the phase to come (F = after the Spring moves, W = after the Fall
moves and retreats, S = after the Winter adjustments, R = retreats still to be made).

Seed 004 s5: "Graustark: After three playing years with no change of supply centres a draw
is declared"; Brobdingnag asks the players for a plan of campaign and then decides.
`deadlock(ownership, options)` is given the centre ownership at the end of each game year.
"""

from __future__ import annotations

import pytest

from gamesmaster.machine import adjudicate_document
from gamesmaster.rules import Phase, Position, deadlock, winner
from gamesmaster.variants import load_rules, load_variant

VARIANT = load_variant("standard")

# Russia: 12 units of 22 on the board (a majority) but only 12 centres.
RUSSIA_12 = ["A MOS", "A WAR", "A STP", "F SEV", "A UKR", "A LVN", "A FIN", "A SWE", "A NWY", "A PRU",
             "A SIL", "A GAL"]
OTHERS_10 = {"ENGLAND": ["F LON", "F EDI", "A LVP"], "FRANCE": ["A PAR", "A MAR", "F BRE"],
             "ITALY": ["A ROM", "A VEN", "F NAP"], "TURKEY": ["A CON"]}
CENTRES_12 = {"RUSSIA": ["MOS", "WAR", "STP", "SEV", "SWE", "NWY", "RUM", "BER", "KIE", "MUN", "DEN", "BUD"],
              "ENGLAND": ["LON", "EDI", "LVP"], "FRANCE": ["PAR", "MAR", "BRE"], "ITALY": ["ROM", "VEN", "NAP"],
              "TURKEY": ["CON", "ANK", "SMY"]}

# Russia: 18 centres but only 16 units (its home centres are full: it cannot build), against 17.
RUSSIA_16 = RUSSIA_12 + ["A BER", "A MUN", "A BOH", "A TYR"]
OTHERS_17 = {"ENGLAND": ["F LON", "F EDI", "A LVP", "A YOR", "A WAL"],
             "FRANCE": ["A PAR", "A MAR", "F BRE", "A GAS", "A BUR"],
             "ITALY": ["A ROM", "A VEN", "F NAP", "A APU"], "TURKEY": ["A CON", "A SMY", "F ANK"]}
CENTRES_18 = {"RUSSIA": ["MOS", "WAR", "STP", "SEV", "SWE", "NWY", "RUM", "BUL", "BER", "KIE", "MUN", "DEN",
                         "HOL", "BEL", "VIE", "BUD", "TRI", "SER"],
              "ENGLAND": ["LON", "EDI", "LVP"], "FRANCE": ["PAR", "MAR", "BRE", "POR", "SPA"],
              "ITALY": ["ROM", "VEN", "NAP", "TUN"], "TURKEY": ["CON", "ANK", "SMY", "GRE"]}


def position(phase: str, russia: list[str], others: dict[str, list[str]], centres: dict[str, list[str]],
             dislodged: dict | None = None) -> Position:
    doc = {"phase": phase, "units": {"RUSSIA": russia, **others}, "centers": centres}
    if dislodged:
        doc["dislodged"] = dislodged
    return Position.from_dict(VARIANT, doc)


def rules(victory: str):
    return load_rules({"preset": "2023", "victory": victory})


def before(phase: str) -> Phase:
    """The phase played to reach `phase` (retreats, adjustments and Spring of the same year)."""
    ph = Phase.parse(phase)
    if ph.kind == "R":
        return Phase(ph.season, ph.year, "M")
    if ph.season == "F":
        return Phase("S", ph.year, "M")
    if ph.kind == "A":
        return Phase("F", ph.year, "M")
    return Phase("W", ph.year - 1, "A")


@pytest.mark.parametrize("victory,expected", [
    ("centres", "RUSSIA"), ("units", None), ("majority", None), ("majority-winter", None)])
def test_eighteen_centres_but_sixteen_units_after_the_fall(victory: str, expected: str | None) -> None:
    # Seed 004 s4 B: "possible for a player to own eighteen centres, to be unable to build for
    # them ... and then to be declared the winner when he actually has fewer forces in play".
    after_fall = position("W1905A", RUSSIA_16, OTHERS_17, CENTRES_18)
    assert winner(after_fall, rules(victory), before("W1905A")) == expected


@pytest.mark.parametrize("victory", ["centres", "units", "majority", "majority-winter"])
def test_eighteen_units_and_centres_after_the_winter(victory: str) -> None:
    others = {p: [u for u in us if u != "A WAL"] for p, us in OTHERS_17.items()}
    after_winter = position("S1906M", RUSSIA_16 + ["A VIE", "A BUD"], others, CENTRES_18)
    assert winner(after_winter, rules(victory), before("S1906M")) == "RUSSIA"


@pytest.mark.parametrize("phase,victory,expected", [
    # After the Spring moves: C and D both check.
    ("F1906M", "majority", "RUSSIA"), ("F1906M", "majority-winter", "RUSSIA"),
    # After the Fall moves with retreats, before the builds: only C checks.
    ("W1906A", "majority", "RUSSIA"), ("W1906A", "majority-winter", None),
    # After the Winter adjustments: both.
    ("S1907M", "majority", "RUSSIA"), ("S1907M", "majority-winter", "RUSSIA"),
    # Twelve units or centres are nothing under A or B.
    ("F1906M", "centres", None), ("F1906M", "units", None),
    ("S1907M", "centres", None), ("S1907M", "units", None),
])
def test_a_majority_of_the_units_on_the_board(phase: str, victory: str, expected: str | None) -> None:
    assert winner(position(phase, RUSSIA_12, OTHERS_10, CENTRES_12), rules(victory), before(phase)) == expected


@pytest.mark.parametrize("victory", ["majority", "majority-winter"])
def test_half_the_units_is_not_a_majority(victory: str) -> None:
    russia = [u for u in RUSSIA_12 if u != "A GAL"]
    others = {**OTHERS_10, "TURKEY": ["A CON", "A SMY"]}
    assert winner(position("S1907M", russia, others, CENTRES_12), rules(victory), before("S1907M")) is None


@pytest.mark.parametrize("victory", ["majority", "majority-winter"])
def test_not_decided_while_retreats_are_pending(victory: str) -> None:
    # "at the end of the Spring moves" (C): the moves end with their retreats.
    pending = position("S1906R", RUSSIA_12, OTHERS_10, CENTRES_12,
                       dislodged={"AUSTRIA": [{"unit": "A BOH", "attacker": "SIL"}]})
    assert winner(pending, rules(victory), before("S1906R")) is None


@pytest.mark.parametrize("victory,expected", [
    ("majority", "RUSSIA"), ("majority-winter", None), ("centres", None)])
def test_the_fall_moves_through_the_machine_interface(victory: str, expected: str | None) -> None:
    # A Fall turn in which nothing moves: afterwards Russia has 12 of the 22 units. Under C it
    # wins at once; under D only after the Winter adjustments.
    doc = {"phase": "F1906M", "units": {"RUSSIA": RUSSIA_12, **OTHERS_10}, "centers": CENTRES_12,
           "rules": {"preset": "2023", "victory": victory}, "orders": {}}
    out = adjudicate_document(doc)
    assert out["winner"] == expected


@pytest.mark.parametrize("victory,expected", [
    ("majority", "RUSSIA"), ("majority-winter", "RUSSIA"), ("centres", None)])
def test_the_spring_moves_through_the_machine_interface(victory: str, expected: str | None) -> None:
    doc = {"phase": "S1906M", "units": {"RUSSIA": RUSSIA_12, **OTHERS_10}, "centers": CENTRES_12,
           "rules": {"preset": "2023", "victory": victory}, "orders": {}}
    assert adjudicate_document(doc)["winner"] == expected


# ---------------------------------------------------------------------------
# Seed 004 s5: deadlocked games.

A = {"SER": "AUSTRIA", "RUM": "RUSSIA", "BUL": "TURKEY"}
B = {"SER": "RUSSIA", "RUM": "RUSSIA", "BUL": "TURKEY"}


@pytest.mark.parametrize("preset,expected", [
    ("graustark", "draw"), ("brobdingnag", "ask-gm"), ("armageddonia", "ask-gm"), ("erehwon", "ask-gm"),
    ("2023", None), ("1971", None)])
def test_three_years_without_a_centre_changing_hands(preset: str, expected: str | None) -> None:
    # 1905 to 1908: Serbia changed hands in 1905, then nothing for three years.
    assert deadlock([A, B, B, B, B], load_rules(preset)) == expected


@pytest.mark.parametrize("preset", ["graustark", "brobdingnag"])
def test_two_years_are_not_a_deadlock(preset: str) -> None:
    assert deadlock([A, B, B, B], load_rules(preset)) is None


def test_a_change_starts_the_count_again() -> None:
    assert deadlock([B, B, B, A, A], load_rules("graustark")) is None


def test_the_number_of_years_is_an_option() -> None:
    five = load_rules({"preset": "graustark", "deadlock_years": 5})
    assert deadlock([A, B, B, B, B], five) is None
    assert deadlock([A, B, B, B, B, B, B], five) == "draw"


# ---------------------------------------------------------------------------
# 1971 III: the short game.

@pytest.mark.parametrize("phase,expected", [("F1905M", None), ("W1905A", None), ("S1906M", "RUSSIA")])
def test_the_short_game_ends_after_its_last_year(phase: str, expected: str | None) -> None:
    # "players may agree beforehand to stop the game at a certain time ... regard the player who
    # has the most pieces on the board at that time as the winner": Russia, 12 units of 22.
    short = load_rules({"preset": "1971", "last_year": 1905})
    assert winner(position(phase, RUSSIA_12, OTHERS_10, CENTRES_12), short, before(phase)) == expected


def test_the_short_game_with_a_tie_for_the_most_units_has_no_winner() -> None:
    others = {**OTHERS_10, "TURKEY": ["A CON", "A SMY", "F ANK", "A ARM", "A SYR", "F AEG", "F EAS", "A GRE",
                                       "A BUL", "F BLA", "A ALB", "A SER"]}
    short = load_rules({"preset": "1971", "last_year": 1905})
    assert winner(position("S1906M", RUSSIA_12, others, CENTRES_12), short, before("S1906M")) is None
