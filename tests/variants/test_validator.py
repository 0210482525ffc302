"""The variant loader refuses broken maps, naming the problem and its line.

Each test takes the real standard map file, breaks one thing in its text, writes
the result to a temporary file and loads it with ``load_variant_file``. The loader
must raise ``VariantError`` with a message that says what is wrong *and* gives
the line of the offending entry as ``line N``. The line numbers are found in the
edited text itself, so the tests do not depend on the layout of the real file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from maptext import edit, line_of
from gamesmaster.variants import VariantError, load_variant_file
from gamesmaster.variants.loader import variant_path

STANDARD = variant_path("standard")


def standard_text() -> str:
    return STANDARD.read_text(encoding="utf-8")


def load_broken(tmp_path: Path, text: str):
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_variant_file(path)
    return info.value


def assert_problem(error: VariantError, line: int, pattern: str) -> None:
    """Some problem in the error is at `line N` and matches the regex `pattern`."""
    message = str(error)
    found = [p for p in error.problems if p.startswith(f"line {line}:") and re.search(pattern, p)]
    assert found, f"expected 'line {line}: ...{pattern}...' among: {message}"
    assert f"line {line}:" in message


# --------------------------------------------------------------------------

def test_the_real_file_loads(tmp_path):
    path = tmp_path / "standard.toml"
    path.write_text(standard_text(), encoding="utf-8")
    variant = load_variant_file(path)
    assert len(variant.map.provinces) == 76


def test_asymmetric_army_adjacency(tmp_path):
    # Denmark forgets Sweden; Sweden still lists Denmark.
    text = edit(standard_text(), "space.DEN", 'army = ["KIE", "SWE"]', 'army = ["KIE"]')
    error = load_broken(tmp_path, text)
    assert_problem(error, line_of(text, "space.SWE", "army"),
                   r"asymmetric army adjacency.*SWE lists DEN")


@pytest.mark.parametrize(
    "table, old, new, lister, key, listed",
    [
        # The Adriatic forgets Albania; Albania still lists the Adriatic.
        ("space.ADR", '"ALB", ', "", "space.ALB", "fleet", "ADR"),
        # The north coast of Spain forgets the Mid-Atlantic, which still lists it.
        ("space.SPA", 'fleet.NC = ["GAS", "MAO", "POR"]', 'fleet.NC = ["GAS", "POR"]',
         "space.MAO", "fleet", "SPA/NC"),
    ],
    ids=["sea-coast", "two-coast-province"],
)
def test_asymmetric_fleet_adjacency(tmp_path, table, old, new, lister, key, listed):
    text = edit(standard_text(), table, old, new)
    error = load_broken(tmp_path, text)
    source = lister.split(".")[1]
    assert_problem(error, line_of(text, lister, key),
                   rf"asymmetric fleet adjacency.*{source} lists {re.escape(listed)}")


def test_coast_with_no_sea_neighbour(tmp_path):
    # Syria loses the Eastern Mediterranean (on both sides, so it stays symmetric):
    # its only fleet neighbour left is Smyrna, another coast.
    text = edit(standard_text(), "space.SYR", 'fleet = ["EAS", "SMY"]', 'fleet = ["SMY"]')
    text = edit(text, "space.EAS", '"SMY", "SYR"]', '"SMY"]')
    error = load_broken(tmp_path, text)
    assert_problem(error, line_of(text, "space.SYR", "fleet"), r"SYR.*no sea neighbour")


def test_fleet_neighbour_without_its_coast(tmp_path):
    # Gascony's fleet list names Spain without saying which coast.
    text = edit(standard_text(), "space.GAS", '"SPA/NC"', '"SPA"')
    error = load_broken(tmp_path, text)
    assert_problem(error, line_of(text, "space.GAS", "fleet"), r"GAS.*SPA.*two coasts")


def test_home_centre_that_is_not_a_supply_centre(tmp_path):
    text = edit(standard_text(), "power.ENGLAND", 'home = ["EDI", "LON", "LVP"]', 'home = ["EDI", "LON", "YOR"]')
    error = load_broken(tmp_path, text)
    assert_problem(error, line_of(text, "power.ENGLAND", "home"), r"YOR is not a supply centre")


@pytest.mark.parametrize(
    "power, old, new, pattern",
    [
        ("power.ENGLAND", '"A LVP"', '"A NTH"', r"'A NTH'.*wrong terrain.*NTH is sea"),
        ("power.GERMANY", '"A MUN"', '"F MUN"', r"'F MUN'.*wrong terrain.*MUN is land"),
    ],
    ids=["army-at-sea", "fleet-inland"],
)
def test_starting_unit_on_the_wrong_terrain(tmp_path, power, old, new, pattern):
    text = edit(standard_text(), power, old, new)
    error = load_broken(tmp_path, text)
    assert_problem(error, line_of(text, power, "units"), pattern)


@pytest.mark.parametrize(
    "table, old, new, pattern",
    [
        # The declared number is wrong...
        ("variant", "centres = 34", "centres = 35", r"centres = 35 but the map marks 34"),
        # ...or a centre was dropped from the map (Belgium loses its centre).
        ("space.BEL", "centre = true\n", "", r"centres = 34 but the map marks 33"),
    ],
    ids=["declared-wrong", "centre-missing"],
)
def test_centre_count_disagrees(tmp_path, table, old, new, pattern):
    text = edit(standard_text(), table, old, new)
    error = load_broken(tmp_path, text)
    assert_problem(error, line_of(text, "variant", "centres"), pattern)


@pytest.mark.parametrize(
    "table, old, new, key, pattern",
    [
        ("space.ALB", 'army = ["GRE", "SER", "TRI"]', 'army = ["GRE", "SER", "TRI", "XYZ"]',
         "army", r"ALB.*unknown id 'XYZ'.*army"),
        ("space.ADR", '"VEN"]', '"VEN", "QQQ"]', "fleet", r"ADR.*unknown id 'QQQ'.*fleet"),
    ],
    ids=["army", "fleet"],
)
def test_unknown_id_in_adjacency(tmp_path, table, old, new, key, pattern):
    text = edit(standard_text(), table, old, new)
    error = load_broken(tmp_path, text)
    assert_problem(error, line_of(text, table, key), pattern)


@pytest.mark.parametrize(
    "table, old, new, key",
    [
        ("space.KIE", 'name = "Kiel"', 'name = "Kiel', "name"),          # unterminated string
        # An unclosed list: tomllib only notices at the next table header, two lines
        # further down, and the loader passes its position on unchanged.
        ("space.BUR", '"RUH"]', '"RUH"', "army"),  # unclosed list: blamed on its opening line
        ("variant", 'title = "Standard Diplomacy"', "title = Standard Diplomacy", "title"),  # bare words
    ],
    ids=["unterminated-string", "unclosed-list", "unquoted-value"],
)
def test_toml_syntax_error(tmp_path, table, old, new, key):
    text = edit(standard_text(), table, old, new)
    line = line_of(text, table, key)
    error = load_broken(tmp_path, text)
    message = str(error)
    assert "not valid TOML" in message
    assert re.search(rf"\bline {line}\b", message), f"expected line {line} in: {message}"
