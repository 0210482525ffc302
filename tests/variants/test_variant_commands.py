"""`gamesmaster variant list | show | check` (src/gamesmaster/variants/commands.py).

`check` is the loader's validation on the command line: a good file gives exit 0
and a one-line summary; a broken one exit 2 and one line per problem, each naming
the file and the line. The broken files here are the nine-player map with one thing
broken, one test per kind of problem the issue lists (the standard map's are in
test_validator.py, through the loader directly).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from maptext import edit, line_of, table_span
from gamesmaster import cli
from gamesmaster.gm.catalogue import default_victory
from gamesmaster.variants import load_variant, variant_names
from gamesmaster.variants.loader import variant_path

NINE = variant_path("nine-man")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        rc = cli.main(list(argv))
    except SystemExit as exc:  # argparse: --help, usage errors
        rc = int(exc.code or 0)
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


# -- editing the map text --------------------------------------------------------------------

def nine_text() -> str:
    return NINE.read_text(encoding="utf-8")


def check_broken(capsys, tmp_path: Path, text: str, line: int, pattern: str) -> list[str]:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    rc, out, err = run(capsys, "variant", "check", str(path))
    assert rc == 2, out + err
    problems = out.splitlines()
    assert problems and all(p.startswith(f"{path}: ") for p in problems), out
    assert all(re.match(rf"{re.escape(str(path))}: (line \d+: )?\S", p) for p in problems), out
    hits = [p for p in problems if p.startswith(f"{path}: line {line}: ") and re.search(pattern, p)]
    assert hits, f"expected 'line {line}: ...{pattern}...' among:\n{out}"
    return problems


# -- check: good files ---------------------------------------------------------------------

@pytest.mark.parametrize("name", variant_names())
def test_check_shipped_files_clean(capsys, name):
    path = variant_path(name)
    rc, out, err = run(capsys, "variant", "check", str(path))
    assert rc == 0, out + err
    variant = load_variant(name)
    assert out.startswith(f"{path}: ok: {name} ")
    assert f"{len(variant.powers)} powers" in out and f"{len(variant.supply_centres)} supply centres" in out
    assert default_victory(variant).headline in out  # the criterion as the rules page states it
    assert len(out.splitlines()) == 1 and err == ""


def test_check_by_variant_name(capsys):
    rc, out, _ = run(capsys, "variant", "check", "nine-man")
    assert rc == 0 and "ok: nine-man" in out and "45 supply centres" in out and "103 spaces" in out


def test_check_missing_file(capsys, tmp_path):
    rc, out, err = run(capsys, "variant", "check", str(tmp_path / "nothing.toml"))
    assert rc == 2 and out == ""
    assert err.startswith("gamesmaster variant: ") and "nothing.toml" in err and len(err.splitlines()) == 1


# -- check: broken files, one kind of problem each ----------------------------------------

def test_asymmetric_army_adjacency(capsys, tmp_path):
    # Georgia forgets Sevastopol across the Volga; Sevastopol still lists Georgia.
    text = edit(nine_text(), "space.GEO", '"MOS", "SEV"]', '"MOS"]')
    check_broken(capsys, tmp_path, text, line_of(text, "space.SEV", "army"),
                 r"asymmetric army adjacency: SEV lists GEO but GEO does not list SEV")


def test_asymmetric_fleet_adjacency(capsys, tmp_path):
    # The Volga Canal forgets Moscow; Moscow still lists the canal.
    text = edit(nine_text(), "space.VOL", '"CAS", "MOS"]', '"CAS"]')
    check_broken(capsys, tmp_path, text, line_of(text, "space.MOS", "fleet"),
                 r"asymmetric fleet adjacency: MOS lists VOL")


def test_asymmetric_fleet_adjacency_at_a_coast(capsys, tmp_path):
    # The Caspian forgets Iran's north coast, which still lists it.
    text = edit(nine_text(), "space.CAS", '"IRN/NC", ', "")
    check_broken(capsys, tmp_path, text, line_of(text, "space.IRN", "fleet.NC"),
                 r"asymmetric fleet adjacency: IRN/NC lists CAS")


def test_unreachable_coast(capsys, tmp_path):
    # Iran's north coast loses all its water (on both sides): nothing can reach it.
    text = nine_text()
    for table in ("space.CAS", "space.GEO", "space.TUR"):
        text = edit(text, table, '"IRN/NC"', "")
        text = text.replace("[, ", "[").replace(", ]", "]").replace(", , ", ", ")
    text = edit(text, "space.IRN", 'fleet.NC = ["CAS", "GEO", "TUR"]', "fleet.NC = []")
    check_broken(capsys, tmp_path, text, line_of(text, "space.IRN", "fleet.NC"), r"IRN/NC: a coast with no sea neighbour")


def test_coast_without_fleet_moves(capsys, tmp_path):
    # Jordan declares two coasts but gives fleet moves for one only.
    text = nine_text()
    start, end = table_span(text, "space.JOR")
    body = re.sub(r"^fleet\.SC = .*\n", "", text[start:end], flags=re.M)
    text = text[:start] + body + text[end:]
    check_broken(capsys, tmp_path, text, line_of(text, "space.JOR", "coasts"),
                 r"JOR: coasts \['SC', 'WC'\] but fleet moves given for \['WC'\]")


def test_fleet_neighbour_names_a_missing_coast(capsys, tmp_path):
    text = edit(nine_text(), "space.PGF", '"IRN/SC"', '"IRN/EC"')
    check_broken(capsys, tmp_path, text, line_of(text, "space.PGF", "fleet"), r"IRN/EC is not a place a fleet can be")


def test_home_centre_not_a_supply_centre(capsys, tmp_path):
    text = edit(nine_text(), "power.PERSIA", 'home = ["IRN", "IRQ", "JOR"]', 'home = ["IRN", "IRQ", "LEB"]')
    check_broken(capsys, tmp_path, text, line_of(text, "power.PERSIA", "home"), r"PERSIA: home centre LEB is not a supply centre")


@pytest.mark.parametrize("power, old, new, pattern", [
    ("power.PERSIA", '"A IRQ"', '"A PGF"', r"'A PGF'.*wrong terrain.*PGF is sea"),
    ("power.BARBARY", '"A ALG"', '"F SAH"', r"'F SAH'.*wrong terrain.*SAH is land"),
    ("power.PERSIA", '"F JOR/WC"', '"F JOR/EC"', r"'F JOR/EC'.*wrong terrain"),
], ids=["army-at-sea", "fleet-inland", "fleet-on-a-missing-coast"])
def test_starting_unit_on_wrong_terrain(capsys, tmp_path, power, old, new, pattern):
    text = edit(nine_text(), power, old, new)
    check_broken(capsys, tmp_path, text, line_of(text, power, "units"), pattern)


@pytest.mark.parametrize("table, old, new, pattern", [
    ("variant", "centres = 45", "centres = 44", r"centres = 44 but the map marks 45"),
    ("space.CRE", "centre = true\n", "", r"centres = 45 but the map marks 44"),
], ids=["declared-wrong", "centre-missing"])
def test_centre_count_disagrees(capsys, tmp_path, table, old, new, pattern):
    text = edit(nine_text(), table, old, new)
    check_broken(capsys, tmp_path, text, line_of(text, "variant", "centres"), pattern)


@pytest.mark.parametrize("table, old, new, key, pattern", [
    ("space.SAH", '"WAF"]', '"WAF", "XYZ"]', "army", r"SAH: unknown id 'XYZ' among its army neighbours"),
    ("space.OBB", '"WAO"]', '"WAO", "CAP"]', "fleet", r"OBB: unknown id 'CAP' among its fleet neighbours"),
    ("power.BARBARY", '"TUN"]\n', '"TRP"]\n', "home", r"BARBARY: unknown id 'TRP' among its home centres"),
    ("power.BARBARY", '"F TUN"', '"F TRP"', "units", r"'F TRP' stands on unknown id 'TRP'"),
], ids=["army-neighbour", "fleet-neighbour", "home-centre", "starting-unit"])
def test_unknown_id(capsys, tmp_path, table, old, new, key, pattern):
    text = edit(nine_text(), table, old, new)
    check_broken(capsys, tmp_path, text, line_of(text, table, key), pattern)


def test_every_problem_on_its_own_line(capsys, tmp_path):
    text = edit(nine_text(), "power.PERSIA", 'home = ["IRN", "IRQ", "JOR"]', 'home = ["IRN", "IRQ", "LEB"]')
    text = edit(text, "variant", "centres = 45", "centres = 46")
    text = edit(text, "space.SAH", '"WAF"]', '"WAF", "XYZ"]')
    problems = check_broken(capsys, tmp_path, text, line_of(text, "variant", "centres"), r"centres = 46")
    assert len(problems) == 3


def test_toml_syntax_error(capsys, tmp_path):
    text = edit(nine_text(), "space.OBB", 'name = "Off Board Box"', 'name = "Off Board Box')
    check_broken(capsys, tmp_path, text, line_of(text, "space.OBB", "name"), r"not valid TOML")


# -- list and show -------------------------------------------------------------------------

def test_list(capsys):
    rc, out, _ = run(capsys, "variant", "list")
    assert rc == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == variant_names()
    nine = next(line for line in lines if line.startswith("nine-man"))
    assert "9 powers, 45 centres; 23 supply centres win" in nine
    standard = next(line for line in lines if line.startswith("standard "))
    assert "7 powers, 34 centres; 18 supply centres win" in standard
    # World War I counts units for each player (XIV.2), not supply centres.
    wwi = next(line for line in lines if line.startswith("standard-2 "))
    assert wwi.endswith("34 centres; 24 units on the board win, counted per player")


def test_show_nine_man(capsys):
    rc, out, _ = run(capsys, "variant", "show", "nine-man")
    assert rc == 0
    assert "45 supply centres; 23 supply centres win" in out and "first phase S1901M" in out
    assert re.search(r"Persia .*home IRN, IRQ, JOR; units A IRN, A IRQ, F JOR/WC", out)
    assert re.search(r"Barbary States .*home ALG, MOR, TUN; units A ALG, F MOR, F TUN", out)
    assert re.search(r"Turkey .*units F ANK, A CON, F SMY", out)
    assert "Spaces (103): 14 land, 60 coast, 28 sea, 1 impassable" in out
    assert "28 home, 17 neutral" in out
    passages = out.split("Special passages:")[1]
    assert "IRN (NC, SC)" in passages and "JOR (SC, WC)" in passages
    assert "EGY (EAS, SMS | GOS)" in passages and "KIE (BAL | HEL)" in passages and "CON (AEG | BLA)" in passages
    assert "OBB (fleets to and from INO, WAO)" in passages and "VOL (fleets to and from BLA, CAS, MOS)" in passages
    assert "MOS (on VOL)" in passages
    assert "CAN; COR; CRE" in passages and "impassable: SWI" in passages


def test_show_standard(capsys):
    rc, out, _ = run(capsys, "variant", "show", "standard")
    assert rc == 0
    assert "Spaces (76): 14 land, 42 coast, 19 sea, 1 impassable" in out
    assert "34 supply centres; 18 supply centres win" in out and "22 home, 12 neutral" in out
    assert "fleets pass through: CON (AEG | BLA); DEN (BAL | HEL, NTH, SKA); KIE (BAL | HEL); SWE (BAL, BOT | SKA)" in out
    assert "no convoy" not in out and "islands" not in out


def test_show_a_file(capsys):
    rc, out, _ = run(capsys, "variant", "show", str(NINE))
    assert rc == 0 and out.startswith("nine-man: ")


def test_show_unknown(capsys):
    rc, out, err = run(capsys, "variant", "show", "nine-men")
    assert rc == 2 and out == ""
    assert "unknown variant 'nine-men'" in err and "nine-man" in err and len(err.splitlines()) == 1


# -- help ------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [("variant",), ("variant", "list"), ("variant", "show"), ("variant", "check")])
def test_help_has_an_example(capsys, argv):
    rc, out, _ = run(capsys, *argv, "--help")
    assert rc == 0
    assert re.search(r"^examples?:", out, flags=re.M)
    assert "gamesmaster variant" in out.split("example")[1]


def test_list_names_the_players_of_the_favourite_two_player_variants(capsys):
    """Issue 25: each variant is listed with who plays it and what wins, neutral powers named as such."""
    rc, out, _ = run(capsys, "variant", "list")
    assert rc == 0
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert lines["france-austria"].endswith(
        "France vs Austria: 2 players (France, Austria; 5 powers neutral); 7 powers, 34 centres; 18 supply centres win")
    assert lines["germany-italy"].endswith(
        "Germany vs Italy: 2 players (Germany, Italy; 5 powers neutral); 7 powers, 34 centres; 18 supply centres win")
    assert "Standard Diplomacy: 7 players; 7 powers" in lines["standard"]
    assert "(Austria, England, France, Germany, Russia, Turkey; 1 power neutral)" in lines["standard-6"]


@pytest.mark.parametrize("name", ["france-austria", "germany-italy"])
def test_the_favourites_pass_the_validator(capsys, name):
    rc, out, _ = run(capsys, "variant", "check", name)
    assert rc == 0 and out.startswith(f"{name}: ok: {name}") and "18 supply centres win" in out


def _ancient_text() -> str:
    return variant_path("ancient-med").read_text(encoding="utf-8")


def test_a_river_of_coasts_leads_fleets_inland(capsys):
    """The Nile of the Ancient Mediterranean: Memphis and Bayuda touch no sea, but fleets reach them
    up the river from Alexandria; the checker accepts a coast marked "river = true" that leads to a sea
    through other coasts."""
    rc, out, _ = run(capsys, "variant", "check", "ancient-med")
    assert rc == 0 and "79 spaces, 34 supply centres; 18 supply centres win" in out


def test_a_river_that_reaches_no_sea_is_refused(capsys, tmp_path):
    """Cut the Nile from the sea (Alexandria and Thebes lose their fleet borders to Memphis and Bayuda)
    and the two inland coasts are refused, each on its own line."""
    text = _ancient_text()
    text = edit(text, "space.ALE", 'fleet = ["CYR", "EGY", "GOP", "LIB", "MEM", "SNA", "THE"]',
                'fleet = ["CYR", "EGY", "GOP", "LIB", "SNA", "THE"]')
    text = edit(text, "space.THE", 'fleet = ["ALE", "BAY", "ERY", "GOP", "MEM", "SNA"]', 'fleet = ["ALE", "ERY", "GOP", "SNA"]')
    text = edit(text, "space.MEM", 'fleet = ["ALE", "BAY", "THE"]', 'fleet = ["BAY"]')
    text = edit(text, "space.BAY", 'fleet = ["MEM", "THE"]', 'fleet = ["MEM"]')
    check_broken(capsys, tmp_path, text, line_of(text, "space.MEM", "fleet"),
                 r"MEM: a coast with no sea neighbour and no river of coasts to one")
    check_broken(capsys, tmp_path, text, line_of(text, "space.BAY", "fleet"),
                 r"BAY: a coast with no sea neighbour and no river of coasts to one")


def test_a_coast_off_the_sea_needs_to_say_it_is_on_a_river(capsys, tmp_path):
    """Without "river = true" Memphis is a coast with no sea neighbour, as any such slip in a map file."""
    text = _ancient_text()
    text = edit(text, "space.MEM", "river = true\n", "")
    check_broken(capsys, tmp_path, text, line_of(text, "space.MEM", "fleet"), r"MEM: a coast with no sea neighbour$")


def test_every_ancient_med_id_reads_as_itself():
    """The Ancient Mediterranean's ids were chosen so that none is also the start of another
    space's name (Sardinia SRD beside Sarmatia, Sinai SNA beside Sinope, Tyre TYE beside the
    Tyrrhenian Sea): an order written in ids has one meaning."""
    from gamesmaster.rules.notation import NameIndex

    variant = load_variant("ancient-med")
    index = NameIndex(variant.map, [(p.id, (p.id, p.name, p.adjective, *p.aliases)) for p in variant.powers.values()])
    assert {pid for pid in variant.map.provinces if index.provinces((pid.lower(),)) != {pid}} == set()
