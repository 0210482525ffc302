"""The map renderer (gamesmaster.maps): SVG drawn from the variant data, and PNG export."""

from __future__ import annotations

import json
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gamesmaster.rules import Position, adjudicate
from gamesmaster.variants import VariantError, load_geometry, load_variant, variant_names
from gamesmaster.maps import render_map, render_png

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"

FALL_1901 = {  # after the rulebook's Spring 1901 openings (examples/spring1901.json)
    "ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY", "F NWG S A YOR - NWY"],
    "GERMANY": ["A KIE - HOL", "A RUH - BEL", "F DEN - SWE"],
    "RUSSIA": ["F BOT - SWE", "A WAR - GAL", "A UKR S A WAR - GAL", "F SEV - RUM"],
    "TURKEY": ["A BUL - GRE", "A CON H", "F ANK - BLA"],
    "AUSTRIA": ["A TRI H", "A BUD - GAL", "F ALB - GRE"],
    "ITALY": ["A PIE - MAR", "A VEN S A TRI", "F ION - TUN"],
    "FRANCE": ["A BUR S F PIC - BEL", "A SPA - POR", "F PIC - BEL"],
}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def having(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in classes(el)]


@pytest.fixture(scope="module")
def spring():
    doc = json.loads((ROOT / "examples" / "spring1901.json").read_text(encoding="utf-8"))
    position = Position.from_dict(load_variant("standard"), doc)
    return position, adjudicate(position, doc["orders"])


@pytest.fixture(scope="module")
def fall(spring):
    position = spring[1].next
    return position, adjudicate(position, FALL_1901)


def test_a_standalone_svg_with_a_path_per_space(spring):
    position, _ = spring
    svg = render_map(position)
    root = parse(svg)
    geo = load_geometry("standard")
    assert root.tag == SVG + "svg"
    assert root.get("width") == "1200"
    assert root.get("viewBox") == f"0 0 {geo.width:g} {geo.height:g}"
    spaces = {el.get("data-province"): el for el in having(root, "space")}
    assert set(spaces) == set(position.variant.map.provinces) == set(geo.spaces)
    for pid, el in spaces.items():
        assert el.tag == SVG + "path" and f"space-{pid}" in classes(el)
        assert el.get("d") == geo.spaces[pid].outline
        assert f"terrain-{position.variant.map.provinces[pid].terrain.value}" in classes(el)
    assert spaces["SWI"].get("fill") == "url(#hatch-impassable)"
    # supply centres: a marker each, in the owner's colour when owned
    centres = {el.get("data-province"): el for el in having(root, "sc")}
    assert set(centres) == set(position.variant.supply_centres)
    assert "owner-FRANCE" in classes(centres["PAR"]) and "sc-neutral" in classes(centres["BEL"])
    assert "owner-FRANCE" in classes(spaces["PAR"]) and spaces["PAR"].get("fill") != spaces["BUR"].get("fill")
    labels = {el.get("data-province"): "".join(el.itertext()) for el in having(root, "label")}
    assert labels["PAR"] == "PARPAR"  # the halo and the name
    assert 'font-family="DejaVu Sans' in svg and "@font-face" not in svg
    assert not having(parse(render_map(position, show_names=False)), "label")


def test_a_unit_element_per_unit_in_its_power_colour(spring):
    position, _ = spring
    root = parse(render_map(position))
    units = {el.get("data-unit"): el for el in having(root, "unit")}
    assert set(units) == {str(u) for u in position.units.values()}
    assert "F STP/SC" in units
    for unit in position.units.values():
        el = units[str(unit)]
        assert {f"power-{unit.power}", f"unit-{unit.type.word}"} <= classes(el)
        assert el.get("data-province") == unit.province and el.get("data-power") == unit.power
        colour = position.variant.powers[unit.power].colour
        assert any(child.get("fill") == colour for child in el.iter())
    # the fleet on St Petersburg's south coast is drawn at that coast
    geo = load_geometry("standard")
    assert f"translate({geo.spaces['STP'].coast_xy['SC'][0]:g}," in ET.tostring(units["F STP/SC"], encoding="unicode")


def test_spring_1901_orders_and_results(spring):
    position, result = spring
    root = parse(render_map(position, outcomes=result.outcomes, title=position.phase.title))
    moves = {el.get("data-order"): el for el in having(root, "order-move")}
    assert len(moves) == 22
    assert "result-succeeds" in classes(moves["A PAR - BUR"])
    assert "result-fails" in classes(moves["A WAR - GAL"]) and "result-fails" in classes(moves["F SEV - BLA"])
    assert having(moves["A WAR - GAL"], "fail-bar") and not having(moves["A PAR - BUR"], "fail-bar")
    assert moves["F STP/SC - BOT"].get("data-unit") == "F STP/SC"
    title = having(root, "title-block")[0]
    assert "Spring 1901 movement" in "".join(title.itertext())
    assert "Russia 4" in "".join(title.itertext())


def test_every_kind_of_movement_order_is_drawn(fall):
    position, result = fall
    root = parse(render_map(position, outcomes=result.outcomes))
    drawn = {el.get("data-order"): el for el in having(root, "order")}
    assert "order-convoy" in classes(drawn["F NTH C A YOR - NWY"])
    assert "order-support" in classes(drawn["F NWG S A YOR - NWY"])  # support to a move
    assert "order-support" in classes(drawn["A VEN S A TRI"])  # support to hold
    assert "order-hold" in classes(drawn["A TRI H"])
    assert "order-move" in classes(drawn["A YOR - NWY"])
    assert "result-fails" in classes(drawn["A BUD - GAL"])
    # orders can be given without results too, as text by power
    plain = parse(render_map(position, orders=FALL_1901))
    kinds = {c for el in having(plain, "order") for c in classes(el) if c.startswith("order-")}
    assert kinds == {"order-move", "order-support", "order-convoy", "order-hold"}
    assert not any(c.startswith("result-") for el in having(plain, "order") for c in classes(el))
    listed = parse(render_map(position, orders=["A Yor-Nwy", "Fleet North Sea convoys A Yor-Nwy", "gibberish"]))
    assert [el.get("data-order") for el in having(listed, "order")] == ["F NTH C A YOR - NWY", "A YOR - NWY"]


def test_highlight_power(fall):
    position, result = fall
    root = parse(render_map(position, outcomes=result.outcomes, highlight_power="FRANCE"))
    highlighted = {el.get("data-unit") for el in having(root, "highlighted")}
    assert highlighted == {str(u) for u in position.units_of("FRANCE")}
    assert root.get("data-highlight") == "FRANCE"


def retreat_position() -> Position:
    return Position.from_dict(load_variant("standard"), {
        "phase": "S1902R",
        "units": {"ITALY": ["A BUR", "A MAR"], "GERMANY": ["A RUH", "A MUN"], "FRANCE": ["A PAR", "F BRE"],
                  "ENGLAND": ["A NWY"], "RUSSIA": ["F BOT"]},
        "dislodged": {"FRANCE": [{"unit": "A BUR", "attacker": "MAR", "retreats": ["GAS", "PIC", "BEL"]}]},
        "standoffs": ["SWE"],
    })


def test_dislodged_units_their_retreats_and_standoffs():
    position = retreat_position()
    root = parse(render_map(position, title=position.phase.title))
    dislodged = having(root, "dislodged")
    assert [el.get("data-unit") for el in dislodged] == ["A BUR"]
    options = {el.get("data-province") for el in having(dislodged[0], "retreat-option")}
    assert options == {"GAS", "PIC", "BEL"}
    units = having(root, "unit-dislodged")
    assert [el.get("data-unit") for el in units] == ["A BUR"]
    assert "power-FRANCE" in classes(units[0])
    # the Italian army that dislodged it stands in Burgundy too
    assert {el.get("data-unit") for el in having(root, "unit")} >= {"A BUR", "A MAR"}
    assert [el.get("data-province") for el in having(root, "standoff")] == ["SWE"]

    result = adjudicate(position, {"FRANCE": ["A BUR R GAS"]})
    root = parse(render_map(position, outcomes=result.outcomes))
    retreat = having(root, "order-retreat")
    assert [el.get("data-order") for el in retreat] == ["A BUR R GAS"]
    assert "result-succeeds" in classes(retreat[0])


def test_retreat_options_worked_out_when_not_listed():
    position = Position.from_dict(load_variant("standard"), {
        "phase": "F1902R",
        "units": {"AUSTRIA": ["A RUM", "A BUD"], "RUSSIA": ["A UKR", "A GAL"], "TURKEY": ["F BLA", "A BUL"]},
        "dislodged": {"RUSSIA": [{"unit": "F RUM", "attacker": "BUD"}]},
    })
    root = parse(render_map(position))
    options = {el.get("data-province") for el in having(root, "retreat-option")}
    assert options == {"SEV"}


def test_builds_and_removals_are_drawn(fall):
    position, result = fall
    winter = result.next
    assert winter.phase.is_adjustment
    orders = {"GERMANY": ["A BER B", "F KIE B"], "ITALY": ["F NAP B"], "ENGLAND": ["F EDI B"],
              "FRANCE": ["A PAR B", "F BRE B"]}
    adjustments = adjudicate(winter, orders)
    root = parse(render_map(winter, outcomes=adjustments.outcomes))
    builds = {el.get("data-order"): el for el in having(root, "order-build")}
    assert {"A BER B", "F KIE B", "F NAP B", "F EDI B", "A PAR B", "F BRE B"} == set(builds)
    assert "result-fails" in classes(builds["F BRE B"])  # France may build only one
    removal = Position.from_dict(load_variant("standard"), {
        "phase": "W1901A", "units": {"AUSTRIA": ["A VIE", "A BUD", "F TRI", "A SER"]},
        "centers": {"AUSTRIA": ["VIE", "BUD", "TRI"]}})
    root = parse(render_map(removal, orders={"AUSTRIA": ["A SER D"]}))
    assert [el.get("data-order") for el in having(root, "order-remove")] == ["A SER D"]


@pytest.mark.parametrize("name", variant_names())
def test_every_variant_with_a_drawing_renders(name):
    variant = load_variant(name)
    try:
        load_geometry(name)
    except VariantError as exc:
        pytest.skip(f"{name} has no map drawing yet: {exc}")
    position = Position.initial(variant)
    root = parse(render_map(position, title=f"{variant.title}: {position.phase.title}"))
    assert {el.get("data-province") for el in having(root, "space")} == set(variant.map.provinces)
    assert {el.get("data-unit") for el in having(root, "unit")} == {str(u) for u in position.units.values()}
    legend = {el.get("data-power") for el in having(root, "legend-power")}
    assert legend == set(variant.powers)


def test_the_nine_player_start():
    try:
        geo = load_geometry("nine-man")
    except VariantError:
        pytest.skip("the nine-player map has no geometry file yet (data/geometry/nine-man.toml)")
    variant = load_variant("nine-man")
    position = Position.initial(variant)
    root = parse(render_map(position, title="Nine players"))
    assert len(variant.powers) == 9
    assert root.get("viewBox").split()[2] == f"{geo.width:g}"
    powers = {c for el in having(root, "unit") for c in classes(el) if c.startswith("power-")}
    assert powers == {f"power-{p}" for p in variant.powers}


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def test_render_png(spring):
    position, result = spring
    svg = render_map(position, outcomes=result.outcomes, title=position.phase.title)
    png = render_png(svg)
    assert png_size(png)[0] == 1200
    small = render_png(svg, width=600)
    width, height = png_size(small)
    assert width == 600 and abs(height - png_size(png)[1] / 2) <= 1


def test_png_text_is_drawn(spring):
    # without a usable font the names would silently vanish: the picture would not change
    position, _ = spring
    with_names = render_png(render_map(position), width=400)
    without = render_png(render_map(position, show_names=False), width=400)
    assert with_names != without
