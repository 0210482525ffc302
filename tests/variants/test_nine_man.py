"""Robert B. Cline's nine-player variant: the map file honours what the seed states.

The seed (shared/seeds/003_08119c868f024a6b.txt) survives only as rules text; the
map is a reconstruction (src/gamesmaster/variants/data/nine-man.toml, decisions in
docs/variants/nine-man.md). These tests pin what the seed itself states (rules 3-9),
the reconstruction's main decisions, and that it is the standard map where the new
geography does not change it. How the passages play is in tests/cases/nine_man.toml.
"""

from __future__ import annotations

import pytest

from gamesmaster.rules import Location, Position, Terrain, UnitType, format_order, parse_order
from gamesmaster.rules.notation import NameIndex
from gamesmaster.variants import load_variant, load_variant_file, variant_names
from gamesmaster.variants.loader import variant_path

# Seed rule 8, verbatim (ids upper-cased).
SEED_ABBREVIATIONS = {
    "ALE": "Alexandretta", "ALG": "Algeria", "ARA": "Arabia", "CAN": "Canary Islands",
    "CAS": "Caspian Sea", "COR": "Corsica", "CRE": "Crete", "EGY": "Egypt", "ETH": "Ethiopia",
    "GEO": "Georgia", "GOS": "Gulf of Suez", "INO": "Indian Ocean", "IRN": "Iran", "IRQ": "Iraq",
    "JOR": "Jordan", "KAZ": "Kazakh", "LEB": "Lebanon", "LIB": "Libya", "MOR": "Morocco",
    "OBB": "Off Board Box", "PGF": "Persian Gulf", "SAH": "Sahara", "SAO": "South Atlantic Ocean",
    "SMS": "South Mediterranean Sea", "TUR": "Turkmen", "VOL": "Volga Canal", "WAF": "West Africa",
    "WAO": "West Atlantic Ocean",
}

# What the reconstruction changed in the standard map's own spaces (docs/variants/nine-man.md).
REMOVED = {"NAF"}              # North Africa: replaced by Morocco and Algeria
RENAMED = {"WES": "WMS"}       # the Western Mediterranean under the seed's id
LOST_ARMY = {frozenset(("SMY", "SYR"))}    # Alexandretta lies between them
LOST_FLEET = {frozenset((Location("SMY"), Location("SYR")))}


@pytest.fixture(scope="module")
def variant():
    return load_variant("nine-man")


@pytest.fixture(scope="module")
def board(variant):
    return variant.map


def fleet(board, a: str, b: str) -> bool:
    return board.fleet_adjacent(Location.parse(a), Location.parse(b)) and board.fleet_adjacent(Location.parse(b), Location.parse(a))


def army(board, a: str, b: str) -> bool:
    return board.army_adjacent(a, b) and board.army_adjacent(b, a)


# -- the file ------------------------------------------------------------------------------

def test_shipped_and_clean():
    assert "nine-man" in variant_names()
    assert load_variant_file(variant_path("nine-man")).name == "nine-man"


def test_game_facts(variant, board):
    # Rule 4: 45 centres; rule 9: Spring 1901; a majority of 45 is 23.
    assert len(variant.supply_centres) == 45
    assert variant.victory_centres == 23
    assert str(variant.start) == "S1901M"
    # Rule 1: "Standard (1971) Diplomacy rules followed except where otherwise stated."
    assert variant.default_rules == "1971"
    assert len(board.provinces) == 103


# -- rule 3: the powers and their units ------------------------------------------------------

def test_nine_powers(variant):
    assert set(variant.powers) == {"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA",
                                   "TURKEY", "BARBARY", "PERSIA"}
    assert variant.powers["BARBARY"].name == "Barbary States"
    assert variant.powers["PERSIA"].name == "Persia"


def test_colours_distinct(variant):
    standard = {p.colour.lower() for p in load_variant("standard").powers.values()}
    colours = [p.colour.lower() for p in variant.powers.values()]
    assert len(set(colours)) == len(colours)
    assert variant.powers["BARBARY"].colour.lower() not in standard
    assert variant.powers["PERSIA"].colour.lower() not in standard


def units_of(variant, power):
    return sorted(f"{t.value} {loc}" for t, loc in variant.start_units[power])


@pytest.mark.parametrize("power, home, units", [
    ("BARBARY", ["ALG", "MOR", "TUN"], ["A ALG", "F MOR", "F TUN"]),
    ("PERSIA", ["IRN", "IRQ", "JOR"], ["A IRN", "A IRQ", "F JOR/WC"]),
    ("TURKEY", ["ANK", "CON", "SMY"], ["A CON", "F ANK", "F SMY"]),
])
def test_new_and_changed_set_ups(variant, power, home, units):
    assert sorted(variant.powers[power].home_centres) == home
    assert units_of(variant, power) == units


def test_other_powers_as_standard(variant):
    standard = load_variant("standard")
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"):
        assert variant.powers[power].home_centres == standard.powers[power].home_centres
        assert units_of(variant, power) == units_of(standard, power)


def test_initial_position(variant):
    position = Position.initial(variant)
    assert len(position.units) == 3 * 8 + 4
    assert len(position.centres) == 28


# -- rule 4: the new neutral centres ---------------------------------------------------------

def test_neutral_centres(variant):
    homes = {c for p in variant.powers.values() for c in p.home_centres}
    neutral = variant.supply_centres - homes
    standard_neutral = {"BEL", "BUL", "DEN", "GRE", "HOL", "NWY", "POR", "RUM", "SER", "SPA", "SWE"}
    assert neutral == standard_neutral | {"PIE", "COR", "CAN", "ETH", "EGY", "CRE"}


# -- rule 8: every new space of the abbreviation table ------------------------------------

@pytest.mark.parametrize("pid, name", sorted(SEED_ABBREVIATIONS.items()))
def test_seed_abbreviation(board, pid, name):
    assert board.province(pid).name == name


def test_seed_names_of_old_seas(board):
    # Rule 7 writes WMS and LOS: the Western Mediterranean and the Gulf of Lyon.
    assert board.province("WMS").name == "Western Mediterranean"
    assert "LOS" in board.province("LYO").aliases


def test_terrain_of_new_spaces(board):
    seas = {"CAS", "GOS", "INO", "OBB", "PGF", "SAO", "SMS", "VOL", "WAO"}
    for pid in SEED_ABBREVIATIONS:
        expected = Terrain.SEA if pid in seas else Terrain.LAND if pid == "SAH" else Terrain.COAST
        assert board.province(pid).terrain is expected, pid


# -- rule 5: the canals ------------------------------------------------------------------------

def test_standard_canals_as_usual(board):
    for a, b in [("BAL", "KIE"), ("KIE", "HEL"), ("BLA", "CON"), ("CON", "AEG"), ("DEN", "SWE")]:
        assert fleet(board, a, b)
    assert army(board, "DEN", "SWE")
    assert not fleet(board, "BAL", "HEL") and not fleet(board, "BLA", "AEG")


def test_suez(board):
    # Like the Dardanelles: one space, touching the seas on both sides of the canal.
    assert board.fleet_locations("EGY") == (Location("EGY"),)
    for sea in ("EAS", "SMS", "GOS"):
        assert fleet(board, "EGY", sea)
    for med in ("EAS", "SMS", "ION"):
        assert not fleet(board, med, "GOS")
    for land in ("LIB", "JOR", "SAH", "ETH"):
        assert army(board, "EGY", land)


def test_volga_canal(board):
    vol = board.province("VOL")
    assert vol.is_sea and not vol.convoys
    assert set(board.neighbours(UnitType.FLEET, Location("VOL"))) == {Location("BLA"), Location("CAS"), Location("MOS")}
    assert not board.army_edges.get("VOL")
    assert not fleet(board, "BLA", "CAS")
    assert "VOL" not in board.convoy_seas()


def test_armies_cross_the_volga(board):
    # Rule 7 lists A Sev-Geo and A Mos-Arm; north bank SEV, MOS; south bank ARM, GEO.
    for north in ("SEV", "MOS"):
        for south in ("ARM", "GEO"):
            assert army(board, north, south), (north, south)


def test_fleets_in_moscow(board):
    # Rule 5C: fleets may be built in Moscow; its only water is the canal.
    assert board.can_hold(UnitType.FLEET, Location("MOS"))
    assert board.neighbours(UnitType.FLEET, Location("MOS")) == (Location("VOL"),)


def test_iran_two_coasts(board):
    assert board.province("IRN").coasts == ("NC", "SC")
    assert set(board.fleet_locations("IRN")) == {Location("IRN", "NC"), Location("IRN", "SC")}
    assert fleet(board, "IRN/NC", "CAS") and fleet(board, "IRN/SC", "PGF")
    assert not fleet(board, "IRN/NC", "PGF") and not fleet(board, "IRN/SC", "CAS")


def test_jordan_west_coast(board):
    # Rule 3: Persia's fleet starts at Jordan "wc".
    assert set(board.province("JOR").coasts) == {"SC", "WC"}
    assert fleet(board, "JOR/WC", "EAS") and fleet(board, "JOR/SC", "GOS")
    assert not fleet(board, "JOR/WC", "GOS") and not fleet(board, "JOR/SC", "EAS")


# -- rule 6: the Off Board Box ---------------------------------------------------------------

def test_off_board_box(board):
    obb = board.province("OBB")
    assert obb.is_sea and not obb.convoys
    assert set(board.neighbours(UnitType.FLEET, Location("OBB"))) == {Location("INO"), Location("WAO")}
    assert not fleet(board, "WAO", "INO")
    assert "OBB" not in board.convoy_seas()


# -- rule 7: the moves listed as legal -------------------------------------------------------

@pytest.mark.parametrize("kind, a, b", [
    ("F", "SAO", "WMS"), ("A", "MOR", "SPA"), ("F", "MOR", "SPA/SC"), ("F", "LYO", "TYS"),
    ("A", "SEV", "GEO"), ("A", "MOS", "ARM"),
])
def test_rule_7_moves(board, kind, a, b):
    assert (fleet if kind == "F" else army)(board, a, b)


def test_rule_7_orders_read_as_written(variant):
    position = Position.initial(variant)
    for text, power, expected in [("F(SAO)-WMS", "ENGLAND", "F SAO - WMS"), ("F(LOS)-TYS", "FRANCE", "F LYO - TYS")]:
        unit = Position.from_dict(variant, {"units": {power: [expected.split(" - ")[0]]}})
        reading = parse_order(text, unit, power)
        assert reading.order is not None and format_order(reading.order) == expected, reading
    assert parse_order("A(Mos)-Arm", position, "RUSSIA").order is not None


# -- the rest is the standard map ----------------------------------------------------------

def test_standard_spaces_kept(board):
    standard = load_variant("standard").map
    for pid, prov in standard.provinces.items():
        if pid in REMOVED:
            assert pid not in board.provinces
            continue
        ours = board.province(RENAMED.get(pid, pid))
        assert ours.name == prov.name and ours.coasts == prov.coasts
        assert set(prov.aliases) <= set(ours.aliases)
        if pid != "MOS":  # Moscow is a coast now (on the canal)
            assert ours.terrain is prov.terrain, pid


def test_standard_adjacencies_kept(board):
    standard = load_variant("standard").map

    def rename(pid):
        return RENAMED.get(pid, pid)

    for a, ns in standard.army_edges.items():
        for b in ns:
            if {a, b} & REMOVED or frozenset((a, b)) in LOST_ARMY:
                assert not (a in board.provinces and board.army_adjacent(rename(a), rename(b)))
                continue
            assert board.army_adjacent(rename(a), rename(b)), (a, b)
    for a, ns in standard.fleet_edges.items():
        for b in ns:
            if {a.province, b.province} & REMOVED or frozenset((a, b)) in LOST_FLEET:
                continue
            assert board.fleet_adjacent(Location(rename(a.province), a.coast), Location(rename(b.province), b.coast)), (a, b)
    assert not board.fleet_adjacent(Location("SMY"), Location("SYR"))


def test_every_id_reads_as_itself(variant, board):
    """The canonical form of an order (ids only) reads back without a second meaning.

    Only the standard map's own overlaps remain (ROM also abbreviates Romania, TYR the
    Tyrrhenian Sea), which legality settles there as on the standard board.
    """
    index = NameIndex(board, [(p.id, (p.id, p.name, p.adjective, *p.aliases)) for p in variant.powers.values()])
    overlaps = {pid for pid in board.provinces if index.provinces((pid.lower(),)) != {pid}}
    assert overlaps == {"ROM", "TYR"}


def test_connected(board):
    """Every space can be reached: by fleets (one sea network), by armies or by convoy."""
    locations = list(board.fleet_edges)
    seen, todo = {locations[0]}, [locations[0]]
    while todo:
        for n in board.fleet_edges[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(locations)
    for pid, prov in board.provinces.items():
        if prov.terrain is Terrain.LAND:
            assert board.army_edges.get(pid), pid
        elif prov.terrain is Terrain.COAST:
            assert board.fleet_locations(pid), pid
