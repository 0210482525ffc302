"""Importing the judges' map files (`gamesmaster variant import`), proven against the `diplomacy` package.

The corpus is the package's own map files, in the venv tests/gm/diplomacy_venv.py makes
from PyPI (never copied into this repository). Every one must import; on each, a few
phases of a seeded random game played by the package are adjudicated again by
gamesmaster and must agree (bench/judge_maps.py plays the long games). The importer's
refusals name the file and line; an imported map is found by every command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests" / "gm"), str(ROOT / "bench")]

from diplomacy_venv import diplomacy_python  # noqa: E402
from judge_maps import compare, play  # noqa: E402

from gamesmaster.variants import load_variant  # noqa: E402
from gamesmaster.variants.judge_map import MAX_BYTES, MapImportError, import_map, install_map  # noqa: E402

PACKAGE_MAPS = ["ancmed", "ancmed_age_of_empires", "colonial", "empire", "known_world_901", "modern", "pure",
                "standard", "standard_age_of_empires", "standard_age_of_empires_2", "standard_fleet_rome",
                "standard_france_austria", "standard_germany_italy", "world"]
# The two largest maps make the package spend a minute or more computing convoy paths the
# first time it loads them: their random games are played by the bench only.
PLAYED_HERE = [m for m in PACKAGE_MAPS if m not in ("known_world_901", "world")]


@cache
def maps_dir() -> Path:
    """The `maps` folder of the installed diplomacy package."""
    python = diplomacy_python()
    found = subprocess.run([str(python), "-c", "import diplomacy, os; print(os.path.dirname(diplomacy.__file__))"],
                           capture_output=True, text=True, check=True, timeout=120)
    return Path(found.stdout.strip()) / "maps"


@pytest.fixture
def data(tmp_path, monkeypatch) -> Path:
    """A fresh data directory for installed variants."""
    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def test_the_package_ships_the_maps_expected() -> None:
    assert sorted(p.stem for p in maps_dir().glob("*.map")) == PACKAGE_MAPS


@pytest.mark.parametrize("name", PACKAGE_MAPS)
def test_every_package_map_imports(name: str) -> None:
    text, variant = import_map(maps_dir() / f"{name}.map", name.replace("_", "-"))
    assert len(variant.powers) >= 2 and variant.supply_centres
    for power, units in variant.start_units.items():
        assert units or name in ("standard_france_austria", "standard_germany_italy") or variant.powers[power]


def test_the_imported_standard_map_is_the_shipped_one() -> None:
    _, imported = import_map(maps_dir() / "standard.map", "std")
    ours = load_variant("standard")
    assert imported.map.army_edges == ours.map.army_edges
    assert imported.map.fleet_edges == ours.map.fleet_edges
    assert {p: (q.terrain, q.supply_centre, q.coasts) for p, q in imported.map.provinces.items()} == \
        {p: (q.terrain, q.supply_centre, q.coasts) for p, q in ours.map.provinces.items()}
    assert {p: set(u) for p, u in imported.start_units.items()} == {p: set(u) for p, u in ours.start_units.items()}
    assert imported.victory_centres == 18


def test_map_rules_years_dummies_and_includes_are_kept() -> None:
    _, aoe = import_map(maps_dir() / "standard_age_of_empires.map", "aoe")
    assert aoe.build_anywhere and aoe.powers["ITALY"].home_centres == ("ROM",)
    assert len(aoe.supply_centres) == 34  # the removed powers' homes stay centres
    _, ancmed = import_map(maps_dir() / "ancmed.map", "ancmed")
    assert str(ancmed.start) == "S1M"
    _, known = import_map(maps_dir() / "known_world_901.map", "known")
    assert str(known.start) == "S901M" and known.neutral == ("NEUTRAL-STATE",)
    _, two = import_map(maps_dir() / "standard_france_austria.map", "fa")
    assert sorted(two.powers) == ["AUSTRIA", "FRANCE"]


@cache
def played() -> dict[str, list[dict]]:
    """Six phases of one seeded random game on each map, played by the package in one process."""
    files = [maps_dir() / f"{name}.map" for name in PLAYED_HERE]
    records = play(str(diplomacy_python()), files, games=1, phases=6, seed=25, no_via=True)
    by_map: dict[str, list[dict]] = {}
    for rec in records:
        by_map.setdefault(Path(rec["map"]).stem, []).append(rec)
    return by_map


@pytest.mark.parametrize("name", PLAYED_HERE)
def test_random_games_agree_with_the_package(name: str, data: Path) -> None:
    vid = "judge-" + name.replace("_", "-")
    install_map(maps_dir() / f"{name}.map", vid)
    variant = load_variant(vid)
    results = compare(vid, list(variant.powers), played()[name], variant.neutral)
    assert len(results) >= 4
    assert [r for r in results if not r["agree"]] == []


# -- the importer's refusals ---------------------------------------------------------------

SMALL = """BEGIN SPRING 1901 MOVEMENT
NORTH (NORTHERN) AAA
A AAA
SOUTH (SOUTHERN) BBB
A BBB
UNOWNED CCC
Alpha = aaa
Beta = bbb
Gamma = ccc
LAND AAA ABUTS BBB CCC
LAND BBB ABUTS AAA CCC
LAND CCC ABUTS AAA BBB
"""


def write(tmp_path: Path, text: str, name: str = "small.map") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refusal(path: Path) -> list[str]:
    with pytest.raises(MapImportError) as caught:
        import_map(path, "small")
    return caught.value.problems


def test_a_small_map_imports(tmp_path: Path) -> None:
    _, variant = import_map(write(tmp_path, SMALL), "small")
    assert variant.victory_centres == 2 and sorted(variant.map.army_edges["AAA"]) == ["BBB", "CCC"]


def test_a_one_way_adjacency_is_refused_with_its_line(tmp_path: Path) -> None:
    problems = refusal(write(tmp_path, SMALL.replace("LAND CCC ABUTS AAA BBB", "LAND CCC ABUTS AAA")))
    assert problems == ["small.map:11: one-way army move BBB -> CCC: the engine plays every adjacency both ways"]


def test_an_unknown_map_rule_is_refused_with_its_line(tmp_path: Path) -> None:
    problems = refusal(write(tmp_path, SMALL + "RULE NO_CONVOYS\n"))
    assert problems == ["small.map:13: map rule NO_CONVOYS is not supported (gamesmaster plays BUILD_ANY)"]


def test_starting_ownership_and_shared_homes_are_refused(tmp_path: Path) -> None:
    problems = refusal(write(tmp_path, SMALL.replace("SOUTHERN) BBB\nA BBB\n", "SOUTHERN) BBB\nA BBB\nOWNS CCC\n")))
    assert problems == ["small.map:6: OWNS: starting ownership other than the home centres is not supported"]
    problems = refusal(write(tmp_path, SMALL.replace("SOUTH (SOUTHERN) BBB", "SOUTH (SOUTHERN) BBB AAA")))
    assert problems == ["small.map:4: SOUTH: home centre AAA is also NORTH's (shared homes are not supported)"]


def test_a_unit_on_the_wrong_terrain_is_refused(tmp_path: Path) -> None:
    problems = refusal(write(tmp_path, SMALL.replace("A AAA", "F AAA")))
    assert len(problems) == 1 and "F AAA" in problems[0] and "wrong terrain" in problems[0]


def test_binary_junk_huge_files_and_include_loops_are_bounded(tmp_path: Path) -> None:
    junk = tmp_path / "junk.map"
    junk.write_bytes(b"\x00\xff" * 100)
    assert refusal(junk) == ["junk.map: is not a text file (it holds NUL bytes)"]
    huge = tmp_path / "huge.map"
    huge.write_text("# x\n" * (MAX_BYTES // 4 + 10), encoding="utf-8")
    assert refusal(huge)[0].startswith(f"huge.map: {huge.stat().st_size} bytes: a map file may be at most")
    write(tmp_path, "MAP b.map\n", "a.map")
    write(tmp_path, "MAP a.map\n", "b.map")
    assert "a.map: included twice (a map that includes itself?)" in refusal(tmp_path / "a.map")
    for i in range(10):
        write(tmp_path, f"MAP d{i + 1}.map\n", f"d{i}.map")
    assert any("nested more than" in p for p in refusal(tmp_path / "d0.map"))
    assert refusal(write(tmp_path, "MAP /etc/passwd\n", "abs.map")) == [
        "abs.map:1: MAP '/etc/passwd': only a map file in the same folder may be included"]


def test_nothing_is_installed_when_a_map_is_refused(tmp_path: Path, data: Path) -> None:
    with pytest.raises(MapImportError):
        install_map(write(tmp_path, SMALL + "RULE NO_CONVOYS\n"), "small")
    assert not (data / "variants" / "small.toml").exists()


# -- an installed map, through the commands ------------------------------------------------

def test_an_installed_map_is_found_by_every_command(gm_cli, tmp_path: Path) -> None:
    code, out, _ = gm_cli("variant", "import", str(maps_dir() / "ancmed.map"), "--id", "ancmed")
    assert code == 0 and out.startswith("installed ancmed (Ancmed): 5 powers, 79 spaces, 34 supply centres")
    code, out, _ = gm_cli("variant", "list")
    assert "ancmed  " in out
    code, out, _ = gm_cli("variant", "show", "ancmed")
    assert code == 0 and "first phase S1M" in out and "Rome" in out
    code, out, _ = gm_cli("variant", "check", "ancmed")
    assert code == 0 and "ok: ancmed" in out
    doc = {"variant": "ancmed", "phase": "S1M", "units": {"ROME": ["F NEA", "A ROM"]},
           "orders": {"ROME": ["F NEA-TYN", "A ROM-NEA"]}}
    code, out, _ = gm_cli("adjudicate", stdin=json.dumps(doc))
    result = json.loads(out)
    assert code == 0 and [o["result"] for o in result["orders"]] == ["succeeds", "succeeds"]
    assert result["next"]["phase"] == "F1M"
    code, out, err = gm_cli("new", "antiquity", "--variant", "ancmed")
    assert code == 0, err
    code, out, _ = gm_cli("variant", "import", str(maps_dir() / "ancmed.map"), "--id", "ancmed")
    assert code == 2 and "already exists" in out
    code, out, _ = gm_cli("variant", "import", str(write(tmp_path, SMALL + "RULE X\n")), "--id", "small")
    assert code == 2 and out.endswith("small.map:13: map rule X is not supported (gamesmaster plays BUILD_ANY)\n")


def test_build_any_builds_in_any_owned_centre(gm_cli) -> None:
    code, out, _ = gm_cli("variant", "import", str(maps_dir() / "standard_age_of_empires.map"), "--id", "aoe")
    assert code == 0
    doc = {"variant": "aoe", "phase": "W1901A", "units": {"ITALY": ["F ROM"]}, "centers": {"ITALY": ["ROM", "TUN", "NAP"]},
           "orders": {"ITALY": ["A ROM B", "F TUN B", "A NAP B"]}}
    code, out, _ = gm_cli("adjudicate", stdin=json.dumps(doc))
    results = {o["text"]: o["result"] for o in json.loads(out)["orders"]}
    assert results["F TUN B"] == "succeeds" and results["A NAP B"] == "succeeds"
    assert results["A ROM B"] != "succeeds"  # occupied


# -- the drawing ---------------------------------------------------------------------------

def test_an_imported_map_is_drawn_schematically(data: Path) -> None:
    from gamesmaster.maps import render_map, render_png
    from gamesmaster.rules import Position
    from gamesmaster.variants import load_geometry

    install_map(maps_dir() / "ancmed.map", "ancmed")
    variant = load_variant("ancmed")
    geometry = load_geometry("ancmed")
    assert set(geometry.spaces) == set(variant.map.provinces)
    squares = {shape.outline for shape in geometry.spaces.values()}
    assert len(squares) == len(geometry.spaces)  # one square each, none shared
    svg = render_map(Position.initial(variant))
    for pid in ("ROM", "CAR", "TYN"):
        assert f'data-province="{pid}"' in svg
    assert render_png(svg, width=300).startswith(b"\x89PNG")
