"""Drawing an imported map from an SVG in the `diplomacy` package's layout (`variant import --svg`).

The corpus is the package's own SVGs (in the venv tests/gm/diplomacy_venv.py makes from
PyPI, never copied here). Each is imported with its map, and every unit place, coast place
and supply-centre marker of the drawing must fall inside its province's region, the
region's path flattened here by the test's own reader (end points and curve points, not
the importer's code). The package's standard SVG shifts its regions by their group's
transform and leaves its units alone: the test holds the drawing to that. Refusals name
the province or the element.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_judge_map import maps_dir  # noqa: E402

from gamesmaster.variants import load_geometry, load_variant  # noqa: E402
from gamesmaster.variants.judge_map import MapImportError, install_map  # noqa: E402
from gamesmaster.variants.svg_layout import Affine, parse_path, parse_transform  # noqa: E402

SVG_MAPS = ["ancmed", "modern", "pure", "standard"]


@pytest.fixture
def data(tmp_path, monkeypatch) -> Path:
    """A fresh data directory for installed variants."""
    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def rings(outline: str) -> list[list[tuple[float, float]]]:
    """The outline's closed rings, read here independently: M/L points, and C curves sampled at 16 points."""
    out: list[list[tuple[float, float]]] = []
    for part in re.split(r"(?=M)", outline):
        nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", part)]
        cmds = re.findall(r"[MLCZ]", part)
        ring: list[tuple[float, float]] = []
        i = 0
        for cmd in cmds:
            if cmd in "ML":
                ring.append((nums[i], nums[i + 1]))
                i += 2
            elif cmd == "C":
                p0 = ring[-1]
                c1, c2, p = (nums[i], nums[i + 1]), (nums[i + 2], nums[i + 3]), (nums[i + 4], nums[i + 5])
                i += 6
                for s in range(1, 17):
                    t = s / 16
                    ring.append(tuple((1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t * t * c + t ** 3 * d
                                      for a, b, c, d in zip(p0, c1, c2, p)))
        if len(ring) > 2:
            out.append(ring)
    return out


def within(p: tuple[float, float], outline: str) -> bool:
    """Crossing count over every ring (even-odd)."""
    x, y = p
    hit = False
    for ring in rings(outline):
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (x2 - x1) * (y - y1) / (y2 - y1):
                hit = not hit
    return hit


def test_the_package_ships_the_svgs_expected() -> None:
    assert sorted(p.stem for p in (maps_dir() / "svg").glob("*.svg")) == SVG_MAPS


@pytest.mark.parametrize("name", SVG_MAPS)
def test_every_unit_coast_and_centre_falls_inside_its_province(name: str, data: Path) -> None:
    install_map(maps_dir() / f"{name}.map", f"svg-{name}", svg=maps_dir() / "svg" / f"{name}.svg")
    variant = load_variant(f"svg-{name}")
    geometry = load_geometry(f"svg-{name}")
    assert set(geometry.spaces) == set(variant.map.provinces)
    outside = []
    for pid, shape in geometry.spaces.items():
        province = variant.map.provinces[pid]
        points = [("unit", shape.xy), *((f"coast {c}", xy) for c, xy in shape.coast_xy.items())]
        if province.supply_centre:
            assert shape.centre_xy is not None, pid
            points.append(("centre", shape.centre_xy))
        assert set(shape.coast_xy) == set(province.coasts), pid
        outside += [f"{pid} {what} {xy}" for what, xy in points if not within(xy, shape.outline)]
    assert outside == []
    assert all(0 <= s.xy[0] <= geometry.width and 0 <= s.xy[1] <= geometry.height for s in geometry.spaces.values())


def test_the_standard_svgs_regions_are_moved_by_their_groups_transform(data: Path) -> None:
    # MapLayer carries translate(-195 -170); the unit places (PROVINCE_DATA) carry none
    raw = (maps_dir() / "svg" / "standard.svg").read_text(encoding="utf-8")
    assert '<g id="MapLayer" transform="translate(-195 -170)">' in raw
    install_map(maps_dir() / "standard.map", "svg-standard", svg=maps_dir() / "svg" / "standard.svg")
    par = load_geometry("svg-standard").spaces["PAR"]
    drawn = re.search(r'id="_par"[^>]*d="M ([\d.]+) ([\d.]+)', raw) or re.search(r'd="M ([\d.]+) ([\d.]+)[^"]*"[^>]*id="_par"', raw)
    assert drawn is not None
    first = [float(v) for v in par.outline.split()[1:3]]
    assert first == pytest.approx([float(drawn.group(1)) - 195, float(drawn.group(2)) - 170], abs=0.06)
    unit = re.search(r'<jdipNS:PROVINCE name="par">\s*<jdipNS:UNIT x="([\d.]+)" y="([\d.]+)"', raw)
    assert par.xy == pytest.approx((float(unit.group(1)) + 20, float(unit.group(2)) + 20), abs=0.06)
    # the package centres the fleet on Bulgaria's east coast at (1147, 1087), 17 units out in the Black Sea (its
    # symbol, 40 wide, straddles the coast): drawn at the nearest point inside on the way to Bulgaria's own place
    bul = load_geometry("svg-standard").spaces["BUL"]
    east = bul.coast_xy["EC"]
    assert east != (1147.0, 1087.0) and math.dist(east, (1147.0, 1087.0)) < 20 and within(east, bul.outline)


def test_an_imported_map_drawn_from_its_svg_is_rendered(data: Path) -> None:
    from gamesmaster.maps import render_map, render_png
    from gamesmaster.rules import Position

    install_map(maps_dir() / "modern.map", "modern", svg=maps_dir() / "svg" / "modern.svg")
    variant = load_variant("modern")
    svg = render_map(Position.initial(variant))
    assert 'viewBox="0 0 716 600"' in svg
    for pid in ("LON", "MID", "SVE", "IRN"):  # MID and SVE are named by aliases (mat, svl) in the SVG
        assert f'data-province="{pid}"' in svg
    assert render_png(svg, width=300).startswith(b"\x89PNG")


# -- transforms and paths ------------------------------------------------------------------

def test_transforms_compose_as_svg_says() -> None:
    m = parse_transform("translate(10 20) rotate(90) scale(2)")
    assert m.apply((1, 0)) == pytest.approx((10, 22))
    about = parse_transform("rotate(180 5 5)")
    assert about.apply((0, 0)) == pytest.approx((10, 10))
    assert parse_transform("matrix(1 0 0 1 3 4)").apply((1, 1)) == pytest.approx((4, 5))
    assert parse_transform("translate(4)").apply((0, 0)) == (4, 0)
    assert parse_transform(None) == Affine()
    skew = parse_transform("skewX(45)").apply((0, 1))
    assert skew == pytest.approx((1, 1))


def test_relative_and_shorthand_path_commands_are_made_absolute() -> None:
    pieces = parse_path("m 10 10 h 5 v 5 l -5 0 z M 0 0 L 1 1 2 2 s 1 1 2 2 t 3 3 A 5 5 0 0 1 20 20")
    assert pieces[:5] == [("M", (10, 10)), ("L", (15, 10)), ("L", (15, 15)), ("L", (10, 15)), ("Z",)]
    assert pieces[6:8] == [("L", (1, 1)), ("L", (2, 2))]
    assert pieces[8] == ("C", (2, 2), (3, 3), (4, 4))
    assert pieces[9][0] == "Q" and pieces[9][-1] == (7, 7)
    assert pieces[-1] == ("L", (20, 20))


# -- refusals -------------------------------------------------------------------------------

@pytest.fixture
def pure_svg(tmp_path) -> str:
    return (maps_dir() / "svg" / "pure.svg").read_text(encoding="utf-8")


def refused(tmp_path: Path, text: str, name: str = "bad.svg") -> list[str]:
    svg = tmp_path / name
    svg.write_text(text, encoding="utf-8")
    with pytest.raises(MapImportError) as caught:
        install_map(maps_dir() / "pure.map", "pure", svg=svg)
    assert not (tmp_path / "data" / "variants" / "pure.toml").exists()
    return caught.value.problems


def test_a_province_without_a_region_is_refused_by_name(tmp_path: Path, data: Path, pure_svg: str) -> None:
    text = pure_svg.replace('id="_par"', 'id="_xxx"').replace('<g id="par">', '<g id="xxx">').replace('id="par"', 'id="xxx"')
    problems = refused(tmp_path, text)
    assert problems == ["bad.svg: no region for PAR (Paris): no element with id '_par' (or an alias) in MapLayer "
                        "nor 'par' in MouseLayer"]


def test_a_unit_place_far_outside_its_region_is_refused_by_name(tmp_path: Path, data: Path, pure_svg: str) -> None:
    text = re.sub(r'(<jdipNS:PROVINCE name="lon">\s*<jdipNS:UNIT) x="[\d.]+" y="[\d.]+"', r'\1 x="480" y="480"', pure_svg)
    problems = refused(tmp_path, text)
    assert problems == ["bad.svg: LON (London): its unit place (500, 500) lies outside its region"]
    text = pure_svg.replace('id="sc_LON" width="20" x="865.5"', 'id="sc_LON" width="20" x="465.5"')
    problems = refused(tmp_path, text)
    assert problems == ["bad.svg: LON: its supply-centre marker (476, 403) lies outside the region of LON, more than "
                        "20 units from its edge"]


def test_hostile_svgs_are_refused(tmp_path: Path, data: Path, pure_svg: str) -> None:
    bomb = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'
    assert refused(tmp_path, bomb) == ["bad.svg declares XML entities, which are not read"]
    assert refused(tmp_path, "<svg><g>") [0].startswith("bad.svg is not well-formed XML")
    assert refused(tmp_path, "<html/>") == ["bad.svg is not an SVG document (its root is 'html')"]
    huge = tmp_path / "huge.svg"
    with open(huge, "w") as f:
        f.write(pure_svg.replace("</svg>", "<!--" + "x" * 4_100_000 + "--></svg>"))
    with pytest.raises(MapImportError) as caught:
        install_map(maps_dir() / "pure.map", "pure", svg=huge)
    assert caught.value.problems == ["huge.svg is larger than 4000000 bytes"]


def test_the_command_imports_with_an_svg_and_names_refusals(gm_cli, tmp_path: Path, pure_svg: str) -> None:
    code, out, _ = gm_cli("variant", "import", str(maps_dir() / "pure.map"), "--id", "pure",
                          "--svg", str(maps_dir() / "svg" / "pure.svg"))
    assert code == 0 and out.startswith("installed pure (Pure): 7 powers")
    assert load_geometry("pure").width == 1000
    bad = tmp_path / "bad.svg"
    bad.write_text(pure_svg.replace('id="_par"', 'id="_xxx"').replace('id="par"', 'id="xxx"'), encoding="utf-8")
    code, out, _ = gm_cli("variant", "import", str(maps_dir() / "pure.map"), "--id", "pure2", "--svg", str(bad))
    assert code == 2 and "no region for PAR (Paris)" in out
    code, out, _ = gm_cli("variant", "list")
    assert "pure2" not in out
