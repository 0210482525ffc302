"""A game on an imported judges' map (`gamesmaster variant import`), played a few phases through the site over HTTP.

The map is the diplomacy package's ancmed.map (from the venv tests/gm/diplomacy_venv.py
makes); gamesmaster draws it itself, schematically, since it comes without artwork. The package's
modern.map comes with an SVG (modern.svg), from which its war room is drawn.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sitetools import ARTIFACTS, chromium, needs_chromium, open_site, serving
from webtools import GM, GM_CREDENTIAL, bearer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "variants"))

from test_judge_map import maps_dir  # noqa: E402

from gamesmaster.variants import load_variant  # noqa: E402
from gamesmaster.variants.judge_map import install_map  # noqa: E402


def test_a_game_on_an_imported_map_is_played_and_drawn_on_the_site(client, tmp_path, monkeypatch):
    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "data"))
    install_map(maps_dir() / "ancmed.map", "ancmed")
    players = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    r = client.post("/api/games", json={"id": "antiq", "variant": "ancmed", "players": players}, headers=GM)
    assert r.status_code == 201, r.text
    created = r.json()
    rome = next(c for name, c in created["credentials"].items() if created["powers"][name] == "ROME")
    game = client.get("/api/games/antiq").json()
    assert game["variant"] == "ancmed" and game["phase"] == "S1M"
    r = client.post("/api/games/antiq/powers/rome/orders", json={"orders": "F NEA-TYN\nA ROM-APU"}, headers=bearer(rome))
    assert r.status_code == 200, r.text
    r = client.post("/api/games/antiq/process", headers=GM)
    assert r.status_code == 200 and r.json()[0]["next_phase"] == "F1M"
    r = client.post("/api/games/antiq/powers/rome/orders", json={"orders": "F TYN-SIC\nA APU-ROM"}, headers=bearer(rome))
    assert r.status_code == 200, r.text
    r = client.post("/api/games/antiq/process", headers=GM)
    assert r.status_code == 200, r.text
    position = client.get("/api/games/antiq/position").json()
    assert "F SIC" in str(position) and "A ROM" in str(position)
    svg = client.get("/api/games/antiq/map.svg")
    assert svg.status_code == 200 and 'data-province="SIC"' in svg.text
    png = client.get("/api/games/antiq/map.png?width=400")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    history = client.get("/api/games/antiq/map.svg?phase=S1M")
    assert history.status_code == 200 and 'data-province="NEA"' in history.text
    page = client.get("/games/antiq")
    assert page.status_code == 200 and 'data-province="TYN"' in page.text


def test_a_map_imported_while_the_site_runs_is_offered_at_once(client, tmp_path, monkeypatch):
    from gamesmaster.gm.catalogue import choices

    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "data"))
    assert "pure" not in [v.name for v in choices().variants]
    install_map(maps_dir() / "pure.map", "pure")
    assert "pure" in [v.name for v in choices().variants]
    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "elsewhere"))
    assert "pure" not in [v.name for v in choices().variants]


SCREENS = {"phone": {"width": 375, "height": 812}, "desktop": {"width": 1366, "height": 768}}


@needs_chromium
def test_the_war_room_of_a_map_drawn_from_its_svg(tmp_path, monkeypatch):
    """The package's modern.map drawn from modern.svg: France taps an army and where it goes, on a phone
    and on a desktop, and the order is drawn on the SVG's map (screenshots in test-artifacts/, the ones
    copied to docs/variants/)."""
    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "data"))
    install_map(maps_dir() / "modern.map", "modern", svg=maps_dir() / "svg" / "modern.svg")
    gm, app, store = open_site(tmp_path, None, GM_CREDENTIAL)
    players = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
    created = gm.setup.create_game("modern", title="Modern club", variant="modern", players=players,
                             assign=dict(zip(players, load_variant("modern").powers)))
    france = created.credentials["Cat"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        with serving(app) as base, chromium() as browser:
            for screen, viewport in SCREENS.items():
                phone = screen == "phone"
                context = browser.new_context(viewport=viewport, base_url=base, has_touch=phone, is_mobile=phone,
                                              device_scale_factor=1)
                context.set_default_timeout(20000)
                page = context.new_page()
                page.goto("/games/modern/war-room")
                page.fill("#credential", france)
                page.click("#sign-in button")
                page.wait_for_selector('#map g.unit[data-power="FRANCE"][data-province="PAR"]')
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
                for selector in ('#map g.unit[data-province="PAR"]', '#map path.space[data-province="PIC"]'):
                    spot = page.locator(selector).first
                    spot.scroll_into_view_if_needed()
                    box = spot.bounding_box()
                    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                    if phone:
                        page.touchscreen.tap(x, y)
                    else:
                        page.mouse.click(x, y)
                assert page.input_value("#orders").split("\n")[0] == "A PAR - PIC"
                page.wait_for_selector('#map g.order[data-order="A PAR - PIC"]')
                page.locator("#map").scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / f"imported-modern-war-room-{screen}.png"))
                context.close()
    finally:
        store.dispose()
