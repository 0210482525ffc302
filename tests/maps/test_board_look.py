"""How the board reads: control tints, contrast of every power's marks, short arrows, names clear of rings."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from gamesmaster.maps.svg import INK, LAND, SEA, contrast, edges, render_map, tint
from gamesmaster.rules import Position, adjudicate
from gamesmaster.rules.control import control
from gamesmaster.variants import load_variant, variant_names

SVG = "{http://www.w3.org/2000/svg}"
STANDARD = load_variant("standard")
START = Position.initial(STANDARD)
OPENING = {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
           "TURKEY": ["A CON - BUL", "F ANK H", "A SMY - ARM"],
           "GERMANY": ["A MUN - RUH", "A BER - KIE", "F KIE - DEN"],
           "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"]}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def fills(root: ET.Element) -> dict[str, str]:
    return {el.get("data-province"): el.get("fill") for el in root.iter(SVG + "path")
            if "space" in el.get("class", "").split()}


@pytest.mark.parametrize("variant", variant_names())
def test_every_powers_marks_stand_out_on_land_sea_and_every_tint(variant):
    """WCAG 1.4.11: graphics need 3:1. Each mark's outer edge against every ground, and the colour against its edge."""
    powers = load_variant(variant).powers.values()
    grounds = [LAND, SEA] + [tint(p.colour) for p in powers]
    for power in powers:
        layers = edges(power.colour, 2.0)
        assert layers[0][0] == INK
        for ground in grounds:
            assert contrast(INK, ground) >= 3, (power.id, ground)
        inner = layers[-1][0]
        assert contrast(power.colour, inner) >= 3, (power.id, power.colour, inner)
        # and a power's units stand out on its own tint: their black outline
        assert contrast(INK, tint(power.colour)) >= 3


def test_control_follows_the_last_unit_to_stand_in_a_land_province():
    spring = adjudicate(START, OPENING).next
    fall = adjudicate(spring, {"FRANCE": ["A BUR - PIC"]}).next
    held = control([START, spring, fall])
    assert held["PIC"] == "FRANCE"  # standing there now
    assert held["BUR"] == "FRANCE"  # left, but no one else has come
    assert held["RUH"] == "GERMANY" and held["PAR"] == "FRANCE"
    assert "NTH" not in held and "MAO" not in held  # sea is never controlled
    assert "BEL" not in held  # a neutral centre belongs to nobody
    later = Position.from_dict(STANDARD, {"phase": "S1902M", "units": {"GERMANY": ["A BUR"], "FRANCE": ["A PIC"]}})
    assert control([START, spring, fall, later])["BUR"] == "GERMANY"


def test_the_map_tints_every_controlled_province():
    spring = adjudicate(START, OPENING).next
    fall = adjudicate(spring, {"FRANCE": ["A BUR - PIC"]}).next
    root = parse(render_map(fall, control=control([START, spring, fall])))
    fill = fills(root)
    france, germany = tint(STANDARD.powers["FRANCE"].colour), tint(STANDARD.powers["GERMANY"].colour)
    assert fill["BUR"] == fill["PIC"] == fill["PAR"] == france
    assert fill["RUH"] == germany
    assert fill["GAS"] == LAND and fill["BEL"] == LAND
    # without the game's history the map still tints what the position shows
    assert fills(parse(render_map(fall)))["PIC"] == france


def _shaft(root: ET.Element, order: str) -> float:
    group = next(g for g in root.iter(SVG + "g") if g.get("data-order") == order)
    d = group.find(SVG + "path").get("d")
    x1, y1, x2, y2 = map(float, re.findall(r"-?\d+(?:\.\d+)?", d)[:4])
    return math.hypot(x2 - x1, y2 - y1)


def test_short_moves_and_retreats_get_clear_arrows():
    root = parse(render_map(START, orders=OPENING))
    for order in ("A PAR - BUR", "A CON - BUL", "F KIE - DEN"):
        assert _shaft(root, order) >= 22, order  # pixels at 1200 wide, besides the head
    bounce = {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"], "ITALY": ["A VEN - TYR"],
              "AUSTRIA": ["A VIE - TYR"]}
    spring = adjudicate(START, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - RUH", "A BER - MUN"]}).next
    fall = adjudicate(spring, {"GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR"]}).next
    assert fall.dislodged
    root = parse(render_map(fall, orders={"FRANCE": ["A BUR R PIC"]}))
    group = next(g for g in root.iter(SVG + "g") if g.get("data-order") == "A BUR R PIC")
    widths = [float(p.get("stroke-width")) for p in group.iter(SVG + "path") if p.get("fill") == "none"]
    assert max(widths) >= 6 and _shaft(root, "A BUR R PIC") >= 22
    assert bounce  # the same drawing serves a bounce: two arrows into one space
    root = parse(render_map(START, orders=bounce))
    assert _shaft(root, "A PAR - BUR") >= 22 and _shaft(root, "A MUN - BUR") >= 22


def _label_boxes(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    out = {}
    for g in root.iter(SVG + "g"):
        if "label" in g.get("class", "").split():
            t = g.find(SVG + "text")
            x, y, n = float(t.get("x")), float(t.get("y")), len(t.text)
            out[g.get("data-province")] = (x - 3.4 * n, y - 8.5, x + 3.4 * n, y + 1.5)  # 10.5 px bold capitals
    return out


def _rings(root: ET.Element) -> list[tuple[float, float, float]]:
    """Every ring drawn round a unit: (x, y, outer radius)."""
    out = []
    for el in root.iter(SVG + "circle"):
        if el.get("fill-opacity") == "0" or el.get("stroke") is None:
            continue
        r = float(el.get("r"))
        if r >= 17:
            out.append((float(el.get("cx")), float(el.get("cy")), r + float(el.get("stroke-width")) / 2))
    return out


@pytest.mark.parametrize("highlight", [None, *STANDARD.powers])
@pytest.mark.parametrize("later", [False, True])
def test_no_name_lies_under_a_ring(highlight, later):
    orders = {**OPENING, "ITALY": ["A VEN H", "A ROM S A VEN", "F NAP H"], "AUSTRIA": ["F TRI H"],
              "RUSSIA": ["F SEV H"]}
    position = START
    if later:  # a crowded board: Fall 1901 after the openings, every unit holding
        position = adjudicate(START, OPENING).next
        orders = {p: [f"{u} H" for u in position.units.values() if u.power == p] for p in STANDARD.powers}
    root = parse(render_map(position, orders=orders, highlight_power=highlight))
    rings = _rings(root)
    assert len(rings) >= 5
    for pid, (x0, y0, x1, y1) in _label_boxes(root).items():
        for cx, cy, r in rings:
            nx, ny = min(max(cx, x0), x1), min(max(cy, y0), y1)  # the box's nearest point to the centre
            assert math.hypot(nx - cx, ny - cy) >= r - 0.5, (pid, (cx, cy, r), (x0, y0, x1, y1))
