"""The standard map file, checked against the rulebook and an independent table.

Two kinds of test live here:

* Facts of the 1971 rulebook (sections VI and VII) that need nothing but the
  project itself: the number of spaces, centres, powers and units, the canals of
  Kiel and Constantinople, Denmark and Sweden, and the waters that do *not* meet.

* A cross-check against the MIT-licensed CSV tables of the standard map kept in
  ``../shared/reference/standard-map/`` (next to the repository). They are a
  reference only, not shipped, so these tests are skipped when the folder is
  absent.

How the CSV tables are read
---------------------------
``provinces.csv``  one row per province: id, full name, and the power whose home
    centre it is ("ENG", "FRA", ...), "neutral" for the other supply centres, or
    empty for a province without a centre.

``regions.csv``  one row per *region*: the province itself (empty coast column),
    plus one extra row per separate coastline of a two-coast province
    ("bul,e,sea", "spa,n,sea", "stp,s,sea"). Its terrain is that of the region:
    a two-coast province's own row says "land" because an army stands on the
    province while a fleet always stands on one of the coast regions; in this
    project such a province is terrain "coast" with ``coasts``. Switzerland is
    "land" there but has no borders at all, i.e. it is our impassable space.

``borders.csv``  one row per pair of regions that touch, in either order (a few
    pairs are listed twice, in both orders), with a "terrain" column that names
    the *kind of boundary* the two regions share, which decides who may cross:

    - ``land``: a land frontier only. Armies cross, fleets do not, even when both
      provinces are coastal (Rome-Venice, Edinburgh-Liverpool, Finland-Norway):
      they share a border but no stretch of coast.
    - ``sea``: a water boundary. Fleets cross, armies do not: sea-sea, sea-coast,
      and a coast region of a two-coast province with a coastal neighbour
      ("bul(ec),rum"). For those pairs the army connection, if any, is a separate
      province-level "land" row ("bul,rum,land").
    - ``coast``: a land frontier *and* a shared coastline (Ankara-Constantinople,
      Denmark-Kiel): armies and fleets both cross.

    So an army edge is every ``land`` or ``coast`` row, and a fleet edge is every
    ``sea`` or ``coast`` row, read as between the regions named (a fleet edge
    to "spa(nc)" is an edge to our location "SPA/NC").

Errata
------
The CSV tables leave out some adjacencies of the standard board. The project's
map has them, and the cross-check expects exactly these differences (and fails
if the CSV ever gains one, so the list can then be shortened):

- armies: Galicia-Ukraine, Livonia-Warsaw, Norway-St Petersburg (the rulebook's
  sample game, Spring 1902: "Norway and St. Petersburg are adjacent by land at
  the extreme north").
- fleets: the Gulf of Bothnia's whole eastern shore (Finland, Livonia, Sweden,
  St Petersburg south coast; the sample game has F St. P.-Both. and F Both.-Swe),
  Norway-St Petersburg north coast, Mid-Atlantic-Spain south coast (DATC 6.B.9
  orders that move), Tuscany-Tyrrhenian Sea, and Constantinople-Smyrna (the CSV
  marks that border "land"; on the board the two share the Aegean shore).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gamesmaster.rules.geography import Location, Terrain
from gamesmaster.variants import load_variant

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "standard-map"

POWER_CODES = {
    "AUS": "AUSTRIA", "ENG": "ENGLAND", "FRA": "FRANCE", "GER": "GERMANY",
    "ITA": "ITALY", "RUS": "RUSSIA", "TUR": "TURKEY",
}
COAST_CODES = {"n": "NC", "s": "SC", "e": "EC", "w": "WC"}

# Adjacencies of the standard board that the CSV tables are missing (see above).
ARMY_ERRATA = {frozenset(p) for p in [("GAL", "UKR"), ("LVN", "WAR"), ("NWY", "STP")]}
FLEET_ERRATA = {
    frozenset((Location.parse(a), Location.parse(b)))
    for a, b in [
        ("BOT", "FIN"), ("BOT", "LVN"), ("BOT", "STP/SC"), ("BOT", "SWE"),
        ("CON", "SMY"), ("MAO", "SPA/SC"), ("NWY", "STP/NC"), ("TUS", "TYS"),
    ]
}


@pytest.fixture(scope="module")
def variant():
    return load_variant("standard")


@pytest.fixture(scope="module")
def gmap(variant):
    return variant.map


# --------------------------------------------------------------------------
# Helpers: the project's map as plain edge sets.

def army_edges(gmap) -> set[frozenset[str]]:
    return {frozenset((a, b)) for a, ns in gmap.army_edges.items() for b in ns}


def fleet_edges(gmap) -> set[frozenset[Location]]:
    return {frozenset((a, b)) for a, ns in gmap.fleet_edges.items() for b in ns}


def fleet_ok(gmap, a: str, b: str) -> bool:
    return gmap.fleet_adjacent(Location.parse(a), Location.parse(b))


# --------------------------------------------------------------------------
# Facts that need nothing outside the project.

def test_counts(variant, gmap):
    ids = set(gmap.provinces)
    assert len(ids) == 76
    assert "SWI" in ids and gmap.province("SWI").terrain is Terrain.IMPASSABLE
    passable = [p for p in gmap.provinces.values() if p.terrain is not Terrain.IMPASSABLE]
    assert len(passable) == 75
    seas = [p for p in passable if p.terrain is Terrain.SEA]
    inland = [p for p in passable if p.terrain is Terrain.LAND]
    coastal = [p for p in passable if p.terrain is Terrain.COAST]
    assert (len(seas), len(inland), len(coastal)) == (19, 14, 42)
    assert len(variant.supply_centres) == 34
    assert variant.victory_centres == 18
    assert len(variant.powers) == 7
    homes = [c for p in variant.powers.values() for c in p.home_centres]
    assert len(homes) == len(set(homes)) == 22
    assert set(homes) <= variant.supply_centres
    units = [u for us in variant.start_units.values() for u in us]
    assert len(units) == 22
    assert {p: len(h.home_centres) for p, h in variant.powers.items()} == {
        "AUSTRIA": 3, "ENGLAND": 3, "FRANCE": 3, "GERMANY": 3, "ITALY": 3, "RUSSIA": 4, "TURKEY": 3,
    }


def test_starting_units(variant, gmap):
    def units(power):
        return sorted(f"{t.value} {loc}" for t, loc in variant.start_units[power])

    assert units("ENGLAND") == ["A LVP", "F EDI", "F LON"]
    assert units("FRANCE") == ["A MAR", "A PAR", "F BRE"]
    assert units("GERMANY") == ["A BER", "A MUN", "F KIE"]
    assert units("ITALY") == ["A ROM", "A VEN", "F NAP"]
    assert units("AUSTRIA") == ["A BUD", "A VIE", "F TRI"]
    assert units("RUSSIA") == ["A MOS", "A WAR", "F SEV", "F STP/SC"]
    assert units("TURKEY") == ["A CON", "A SMY", "F ANK"]
    for power, us in variant.start_units.items():
        for unit_type, loc in us:
            assert gmap.can_hold(unit_type, loc), (power, unit_type, loc)
            assert loc.province in variant.powers[power].home_centres


def test_two_coast_provinces(gmap):
    two = {pid: p.coasts for pid, p in gmap.provinces.items() if p.coasts}
    assert {k: tuple(sorted(v)) for k, v in two.items()} == {
        "BUL": ("EC", "SC"), "SPA": ("NC", "SC"), "STP": ("NC", "SC"),
    }
    # A fleet in Spain, Bulgaria or St Petersburg is always on a coast.
    for pid in two:
        assert Location(pid) not in gmap.fleet_edges
    assert fleet_ok(gmap, "POR", "SPA/NC") and fleet_ok(gmap, "POR", "SPA/SC")
    assert fleet_ok(gmap, "MAO", "SPA/NC") and fleet_ok(gmap, "MAO", "SPA/SC")
    assert fleet_ok(gmap, "GAS", "SPA/NC") and not fleet_ok(gmap, "GAS", "SPA/SC")
    assert fleet_ok(gmap, "MAR", "SPA/SC") and not fleet_ok(gmap, "MAR", "SPA/NC")
    assert fleet_ok(gmap, "AEG", "BUL/SC") and not fleet_ok(gmap, "AEG", "BUL/EC")
    assert fleet_ok(gmap, "BLA", "BUL/EC") and not fleet_ok(gmap, "BLA", "BUL/SC")
    assert fleet_ok(gmap, "NWY", "STP/NC") and not fleet_ok(gmap, "NWY", "STP/SC")
    assert fleet_ok(gmap, "BOT", "STP/SC") and not fleet_ok(gmap, "BOT", "STP/NC")


def test_canals_kiel_and_constantinople(gmap):
    """VII.3.a: fleets pass through Kiel and Constantinople; armies cross them."""
    for sea_a, sea_b in [("BAL", "HEL"), ("BLA", "AEG")]:
        assert not fleet_ok(gmap, sea_a, sea_b)
    for canal, sides in [("KIE", ["BAL", "HEL", "BER", "DEN", "HOL"]),
                         ("CON", ["BLA", "AEG", "ANK", "SMY", "BUL/EC", "BUL/SC"])]:
        for side in sides:
            assert fleet_ok(gmap, canal, side) and fleet_ok(gmap, side, canal), (canal, side)
    for a, b in [("KIE", "DEN"), ("KIE", "BER"), ("KIE", "HOL"), ("CON", "BUL"), ("CON", "ANK"), ("CON", "SMY")]:
        assert gmap.army_adjacent(a, b) and gmap.army_adjacent(b, a), (a, b)


def test_denmark_and_sweden(gmap):
    """VII.3.c: Denmark-Sweden for both; Baltic and Skagerrak apart; no Denmark-Berlin."""
    assert gmap.army_adjacent("DEN", "SWE") and gmap.army_adjacent("SWE", "DEN")
    assert fleet_ok(gmap, "DEN", "SWE") and fleet_ok(gmap, "SWE", "DEN")
    assert not fleet_ok(gmap, "BAL", "SKA") and not fleet_ok(gmap, "SKA", "BAL")
    for x in ["BAL", "SKA"]:
        assert fleet_ok(gmap, x, "DEN") and fleet_ok(gmap, x, "SWE")
    assert not gmap.army_adjacent("DEN", "BER") and not fleet_ok(gmap, "DEN", "BER")


def test_other_rulebook_geography(gmap):
    # Shared land border but no shared coast: armies only.
    for a, b in [("ROM", "VEN"), ("ROM", "APU"), ("EDI", "LVP"), ("FIN", "NWY"), ("PIE", "VEN")]:
        assert gmap.army_adjacent(a, b) and not fleet_ok(gmap, a, b), (a, b)
    # The sample game: Norway and St Petersburg meet by land; Sweden-Norway by coast.
    assert gmap.army_adjacent("NWY", "STP") and fleet_ok(gmap, "SWE", "NWY")
    assert fleet_ok(gmap, "LVP", "NAO") and fleet_ok(gmap, "LVP", "IRI")
    assert fleet_ok(gmap, "CLY", "NAO") and not fleet_ok(gmap, "CLY", "IRI")
    # Nothing enters Switzerland.
    assert "SWI" not in gmap.army_edges and Location("SWI") not in gmap.fleet_edges


def test_adjacency_consistent_with_terrain(gmap):
    for a, b in army_edges(gmap):
        for p in (a, b):
            assert gmap.province(p).terrain in (Terrain.LAND, Terrain.COAST), (a, b)
    for edge in fleet_edges(gmap):
        for loc in edge:
            prov = gmap.province(loc.province)
            assert prov.terrain in (Terrain.SEA, Terrain.COAST), edge
            assert (loc.coast in prov.coasts) if prov.coasts else loc.coast is None, edge
    for pid, prov in gmap.provinces.items():
        if prov.terrain is Terrain.COAST:
            assert gmap.sea_neighbours(pid) & {p for p, q in gmap.provinces.items() if q.is_sea}, pid


# --------------------------------------------------------------------------
# The cross-check against ../shared/reference/standard-map/.

def _rows(name):
    if not REFERENCE.is_dir():
        pytest.skip(f"reference tables not present at {REFERENCE}")
    with open(REFERENCE / name, newline="", encoding="utf-8") as f:
        return [{k.strip(): (v or "").strip() for k, v in row.items()} for row in csv.DictReader(f)]


def _region(text: str) -> Location:
    """'spa(nc)' -> Location('SPA', 'NC'); 'bel' -> Location('BEL')."""
    if "(" in text:
        province, coast = text.rstrip(")").split("(")
        return Location(province.upper(), coast.upper())
    return Location(text.upper())


@pytest.fixture(scope="module")
def reference():
    provinces = _rows("provinces.csv")
    regions = _rows("regions.csv")
    borders = _rows("borders.csv")
    ref = {
        "names": {r["short_name"].upper(): r["full_name"] for r in provinces},
        "centres": {r["short_name"].upper() for r in provinces if r["supply_center_for"]},
        "homes": {},
        "terrain": {},
        "coasts": {},
        "army": set(),
        "fleet": set(),
    }
    for r in provinces:
        owner = r["supply_center_for"]
        if owner and owner != "neutral":
            ref["homes"].setdefault(POWER_CODES[owner], set()).add(r["short_name"].upper())
    for r in regions:
        pid = r["province"].upper()
        if r["coast"]:
            ref["coasts"].setdefault(pid, set()).add(COAST_CODES[r["coast"]])
        else:
            ref["terrain"][pid] = r["terrain"]
    for r in borders:
        a, b, kind = r["region 1"], r["region 2"], r["terrain"]
        assert kind in ("land", "sea", "coast"), r
        if kind in ("land", "coast"):
            assert "(" not in a and "(" not in b, r
            ref["army"].add(frozenset((a.upper(), b.upper())))
        if kind in ("sea", "coast"):
            ref["fleet"].add(frozenset((_region(a), _region(b))))
    return ref


def test_same_provinces(gmap, reference):
    assert set(gmap.provinces) == set(reference["names"])


def test_same_terrain(gmap, reference):
    expected = {"land": Terrain.LAND, "coast": Terrain.COAST, "sea": Terrain.SEA}
    for pid, kind in reference["terrain"].items():
        prov = gmap.province(pid)
        if pid == "SWI":
            assert prov.terrain is Terrain.IMPASSABLE
        elif pid in reference["coasts"]:
            assert kind == "land" and prov.terrain is Terrain.COAST, pid
        else:
            assert prov.terrain is expected[kind], pid


def test_same_supply_centres(variant, reference):
    assert set(variant.supply_centres) == reference["centres"]


def test_same_home_centres(variant, reference):
    ours = {pid: set(p.home_centres) for pid, p in variant.powers.items()}
    assert ours == reference["homes"]


def test_same_coasts(gmap, reference):
    ours = {pid: set(p.coasts) for pid, p in gmap.provinces.items() if p.coasts}
    assert ours == reference["coasts"]


def test_same_army_adjacency(gmap, reference):
    ours, theirs = army_edges(gmap), reference["army"]
    assert not (ARMY_ERRATA & theirs), "the CSV now has an erratum edge: drop it from ARMY_ERRATA"
    assert sorted(map(sorted, ours - theirs)) == sorted(map(sorted, ARMY_ERRATA))
    assert sorted(map(sorted, theirs - ours)) == []


def test_same_fleet_adjacency(gmap, reference):
    ours, theirs = fleet_edges(gmap), reference["fleet"]

    def show(edges):
        return sorted(tuple(sorted(map(str, e))) for e in edges)

    assert not (FLEET_ERRATA & theirs), "the CSV now has an erratum edge: drop it from FLEET_ERRATA"
    assert show(ours - theirs) == show(FLEET_ERRATA)
    assert show(theirs - ours) == []
