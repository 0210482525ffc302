"""Issue 15's smaller gaps in a running game, through the GM's console: Calhamer's second round of
retreats, phases with nothing to choose processed at once, an army's retreat written with a coast,
builds joined by 'and' as the 1971 rulebook prints them."""

from __future__ import annotations

import io
import re

import pytest

from gamesmaster.cli import main
from gamesmaster.gm import Gamesmaster, RuleSpec
from gamesmaster.store import Store
from gamesmaster.rules import Position
from gamesmaster.variants import load_variant

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]
# Seed 004 s17: the Austrian army in Bohemia and the German army in Munich are dislodged,
# and both may retreat to Tyrolia.
CLASH = {"phase": "S1901M",
         "units": {"AUSTRIA": ["A BOH"], "GERMANY": ["A MUN"], "RUSSIA": ["A GAL", "A SIL"], "FRANCE": ["A BUR", "A RUH"]},
         "centers": {"AUSTRIA": ["VIE"], "GERMANY": ["BER"], "RUSSIA": ["WAR"], "FRANCE": ["PAR"]}}


@pytest.fixture
def console(sqlite_url, monkeypatch, capsys):
    """create(rules, position): a game made at a position; run(argv, stdin): the console on that database."""
    def create(rules, position) -> None:
        store = Store(sqlite_url)
        try:
            Gamesmaster(store).setup.create_game("g", players=NAMES, assign=dict(zip(NAMES, POWERS)),
                                           rules=RuleSpec.read(rules),
                                           position=Position.from_dict(load_variant("standard"), position))
        finally:
            store.dispose()

    def run(*argv: str, stdin: str | None = None) -> str:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = main([*argv, "--db", sqlite_url])
        out, err = capsys.readouterr()
        assert code == 0, err
        return out
    run.create = create
    return run


def dislodge_boh_and_mun(console) -> None:
    console("orders", "g", "Russia", stdin="A Gal-Boh\nA Sil S A Gal-Boh")
    console("orders", "g", "France", stdin="A Bur-Mun\nA Ruh S A Bur-Mun")
    assert "Next: Spring 1901 retreats" in console("process", "g", "--now")


def test_calhamer_second_round_of_retreats_runs_through_the_service(console):
    console.create({"preset": "2023", "retreat_clash": "calhamer"}, CLASH)
    dislodge_boh_and_mun(console)
    console("orders", "g", "Austria", stdin="A Boh-Tyr")
    out = console("orders", "g", "Germany", stdin="A Mun-Tyr")
    assert "Spring 1901 retreats processed at once" in out
    first = re.search(r"Receipt: (\S+)", out).group(1)
    status = console("status", "g")
    assert "Spring 1901 retreats" in status
    press = console("press", "g", "--list")
    assert "Spring 1901 retreats is played again" in press and "A BOH" in press and "A MUN" in press
    # the second round: Tyrolia is barred to both, other spaces are open
    out = console("orders", "g", "Austria", stdin="A Boh-Tyr")
    assert "invalid: A Boh cannot retreat to Tyr" in out and "Receipt: g/S1901R/AUSTRIA/2:" in out
    console("orders", "g", "Austria", stdin="A Boh-Vie")
    out = console("orders", "g", "Germany", stdin="A Mun-Kie")
    assert "Spring 1901 retreats processed at once" in out
    second = re.search(r"Receipt: (\S+)", out).group(1)
    status = console("status", "g", "--json")
    assert '"F1901M"' in status
    history = console("history", "g")
    assert "A MUN R TYR fails (bounced: 2 units retreated to Tyr; it must retreat again)" in history
    assert "A MUN R KIE succeeds" in history and "A BOH R VIE succeeds" in history
    assert "the record holds" in console("verify", "g")
    for receipt in (first, second):  # each round's set is the one its results were computed from
        assert "the record holds. 32 ledger entries chained, 1 receipt checked" in console("verify", "g", "--receipt",
                                                                                          receipt)


# Seed 004 s16: the Austrian army in Bohemia dislodged with Vienna and Tyrolia held and
# Silesia and Galicia the attackers' own: Munich is its only retreat.
ONE_WAY = {"phase": "S1901M",
           "units": {"AUSTRIA": ["A BOH", "A VIE", "A TYR"], "RUSSIA": ["A GAL", "A SIL"], "GERMANY": ["A BER"]},
           "centers": {"AUSTRIA": ["VIE", "BUD", "TRI"], "RUSSIA": ["WAR"], "GERMANY": ["BER", "MUN"]}}


def test_a_retreat_the_rules_make_is_processed_at_once(console):
    """Graustark makes a single retreat for the player: no one has a choice, so the phase does not wait."""
    console.create("graustark", ONE_WAY)
    console("orders", "g", "Russia", stdin="A Gal-Boh\nA Sil S A Gal-Boh")
    out = console("process", "g", "--now")
    assert "Spring 1901 movement adjudicated" in out and "Spring 1901 retreats adjudicated" in out
    assert "Next: Fall 1901 movement" in out
    press = console("press", "g", "--list")
    assert "Spring 1901 retreats: no one had a choice to make, so it was processed at once: A Boh (Austria) makes " \
           "its only retreat, to Munich." in press
    assert "civil disorder for Spring 1901 retreats" not in press
    assert '"A MUN"' in console("status", "g", "--json")
    assert "the record holds" in console("verify", "g")


def test_a_retreat_the_player_may_refuse_waits_for_the_player(console):
    """Brobdingnag makes the single retreat unless the player orders the unit off: a choice, so the phase waits."""
    console.create("brobdingnag", ONE_WAY)
    console("orders", "g", "Russia", stdin="A Gal-Boh\nA Sil S A Gal-Boh")
    out = console("process", "g", "--now")
    assert "Next: Spring 1901 retreats" in out and "Spring 1901 retreats adjudicated" not in out
    out = console("orders", "g", "Austria", stdin="A Boh disband")
    assert "Spring 1901 retreats processed at once" in out
    assert "the record holds" in console("verify", "g")


def test_removing_every_unit_is_no_choice(console):
    """A power with no centre left removes every unit: the adjustments do not wait for it (nor for the GM)."""
    console.create({"preset": "2023", "removals": "gm"},  # Armageddonia's: the GM chooses a silent power's removals
                   {"phase": "W1901A", "units": {"TURKEY": ["A ARM", "F BLA"], "RUSSIA": ["A SEV"]},
                    "centers": {"RUSSIA": ["SEV", "ANK", "CON", "SMY"]}})
    out = console("process", "g")  # not forced: it is due early
    assert "Winter 1901 adjustments adjudicated" in out and "Next: Spring 1902 movement" in out
    press = console("press", "g", "--list")
    assert "Winter 1901 adjustments: no one had a choice to make, so it was processed at once: A Arm (Turkey) is " \
           "removed; F Bla (Turkey) is removed." in press and "civil disorder" not in press
    assert '"TURKEY"' not in console("status", "g", "--json").split('"units"')[-1].split("}")[0]
    assert "the record holds" in console("verify", "g")


def test_an_army_s_retreat_written_with_a_coast_reads_the_coast_as_noise(console):
    """Droidippy writes `A NWY R STP/SC`: the army retreats to St Petersburg, as a move would read it (DATC 6.B.12)."""
    console.create("2023", {"phase": "S1901M", "units": {"RUSSIA": ["A NWY"], "ENGLAND": ["F NTH", "F SKA"]},
                            "centers": {"RUSSIA": ["STP"], "ENGLAND": ["LON"]}})
    console("orders", "g", "England", stdin="F Nth-Nwy\nF Ska S F Nth-Nwy")
    assert "Next: Spring 1901 retreats" in console("process", "g", "--now")
    out = console("orders", "g", "Russia", stdin="A NWY R STP/SC")
    assert "accepted as 'A NWY R STP'" in out and "ignored the coast written for St Petersburg: armies go by land" in out
    assert "Spring 1901 retreats processed at once" in out
    assert '"A STP"' in console("status", "g", "--json")
    assert "'A NWY R STP/SC' -> A NWY R STP succeeds" in console("history", "g")
    assert "the record holds" in console("verify", "g")


def test_the_sample_game_s_two_builds_in_one_sentence(console):
    """The 1971 rulebook prints "Germany builds F Kiel and A Mun.": two builds, each answered and carried out."""
    console.create("1971", {"phase": "W1901A", "units": {"GERMANY": ["A BER"]},
                            "centers": {"GERMANY": ["BER", "KIE", "MUN"]}})
    out = console("orders", "g", "Germany", stdin="Germany builds F Kiel and A Mun.")
    assert "Germany builds F Kiel and A Mun.: accepted as 'F KIE B'" in out
    assert "Germany builds F Kiel and A Mun.: accepted as 'A MUN B'" in out
    assert "one of 2 orders written on one line, joined by 'and'" in out and "waived" not in out
    console("process", "g", "--now")
    history = console("history", "g")
    assert "'Germany builds F Kiel and A Mun.' -> F KIE B succeeds" in history
    assert "'Germany builds F Kiel and A Mun.' -> A MUN B succeeds" in history
    assert "the record holds" in console("verify", "g")


def test_a_line_of_builds_with_a_part_that_cannot_be_read_is_not_split(console):
    """Nothing is guessed: the line stands unread, and the player is told why."""
    console.create("1971", {"phase": "W1901A", "units": {"GERMANY": ["A BER"]},
                            "centers": {"GERMANY": ["BER", "KIE", "MUN"]}})
    out = console("orders", "g", "Germany", stdin="builds F Kiel and A Zzz")
    assert "unreadable" in out and "accepted" not in out
