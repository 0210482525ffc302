"""The club's standings, ladder and players' pages over HTTP and in Chromium (desktop 1366x768, phone 375x812)."""

from __future__ import annotations

import pytest
from sitetools import ARTIFACTS, needs_chromium, serving
from test_browser import browser  # noqa: F401  (Chromium, once for the module)
from webtools import GM_CREDENTIAL

from gamesmaster.gm import Settings

NAMES = ["Ann Longname-Of-The-Club", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]
SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 375, "height": 812}}


def _club(gm) -> None:
    """Six finished games under draw-size scoring (Ann in every draw, Bob in three) and one a league's."""
    for n in range(6):
        gm.setup.create_game(f"g{n}", title=f"Club game {n}", players=NAMES, assign=dict(zip(NAMES, POWERS)),
                       settings=Settings.from_dict({"scoring": "dss"}))
        gm.press.declare_draw(f"g{n}", powers=["ENGLAND", "FRANCE"] if n % 2 else ["ENGLAND"])
    gm.club.add_to_league("Winter Cup", ["g0", "g1"])


def test_the_standings_ladder_and_a_player_in_the_api(client, site_gm):
    _club(site_gm)
    doc = client.get("/api/standings").json()
    assert doc["sort"] == "total" and doc["leagues"] == ["Winter Cup"]
    top = doc["players"][0]
    assert (top["name"], top["played"], top["total"], top["average"]) == (NAMES[0], 6, 450.0, 75.0)
    assert top["rating"] is not None and top["reliability"]["finished"] == 6
    assert [p["name"] for p in client.get("/api/standings?sort=name").json()["players"]][:2] == [NAMES[0], "Bob"]
    cup = client.get("/api/standings", params={"league": "Winter Cup"}).json()
    assert cup["players"][0]["total"] == 150.0 and cup["players"][0]["rating"] is None  # two games: not yet rated
    ladder = client.get("/api/ladder").json()
    assert ladder["rated_after"] == 5 and [r["name"] for r in ladder["ratings"]][:2] == [NAMES[0], "Bob"]
    player = client.get("/api/players/name:bob").json()
    assert [g["outcome"] for g in player["games"]] == ["lost", "drew"] * 3
    assert player["reliability"]["percent"] is None and player["rating"]["games"] == 6


def test_bad_requests_are_named(client, site_gm):
    _club(site_gm)
    r = client.get("/api/standings?sort=luck")
    assert r.status_code == 422 and "Traceback" not in r.text
    r = client.get("/api/standings", params={"league": "Nowhere"})
    assert r.status_code == 404 and "no league 'Nowhere'" in r.json()["detail"]
    r = client.get("/api/players/" + "x" * 500)
    assert r.status_code == 422
    r = client.get("/api/players/name:nobody")
    assert r.status_code == 404 and "no player 'name:nobody'" in r.json()["detail"]
    assert client.get("/standings?league=Nowhere").status_code == 404


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('club') / 'gm.db'}")
    gm = Gamesmaster(store)
    _club(gm)
    with serving(create_app(gm, SiteSecrets.for_testing(GM_CREDENTIAL))) as base:
        yield base
    store.dispose()


@needs_chromium
@pytest.mark.parametrize("size", list(SIZES))
def test_standings_and_ladder_in_chromium(browser, site, size):
    context = browser.new_context(viewport=SIZES[size], base_url=site, has_touch=size == "phone",
                                  is_mobile=size == "phone", device_scale_factor=1)
    context.set_default_timeout(20000)
    page = context.new_page()
    (ARTIFACTS / "screen").mkdir(parents=True, exist_ok=True)
    width = SIZES[size]["width"]
    page.goto("/standings")
    page.wait_for_selector("#standings tbody tr[data-player]")
    assert page.locator("#standings tbody tr").first.get_attribute("data-player") == "name:ann longname-of-the-club"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(ARTIFACTS / "screen" / f"standings-{size}.png"), full_page=True)
    page.click('a[data-sort="name"]')  # sorted by name: the link reloads the table in that order
    page.wait_for_url("**/standings?sort=name")
    assert page.locator("#standings tbody tr").nth(1).get_attribute("data-player") == "name:bob"
    page.click("text=Winter Cup")
    page.wait_for_url("**league=Winter%20Cup")
    assert "150.00" in page.locator("#standings tbody tr").first.inner_text()
    page.goto("/ladder")
    page.wait_for_selector("#ladder tbody tr[data-player]")
    assert page.locator("#ladder tbody tr").count() == 7
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(ARTIFACTS / "screen" / f"ladder-{size}.png"), full_page=True)
    page.click("#ladder tbody tr:first-child a")
    page.wait_for_selector("#reliability")
    assert "6 finished" in page.inner_text("#reliability") and page.locator("#player-games tbody tr").count() == 6
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()


def test_a_game_is_created_with_an_entry_minimum_through_the_api(client, site_gm):
    from webtools import GM
    r = client.post("/api/games", json={"id": "picky", "players": [], "start": False,
                                        "settings": {"min_games": 3, "min_reliability": 75}}, headers=GM)
    assert r.status_code == 201, r.text
    settings = site_gm.games.game("picky").settings
    assert (settings.min_games, settings.min_reliability) == (3, 75.0)
    r = client.post("/api/games", json={"id": "pickier", "settings": {"min_reliability": 101}}, headers=GM)
    assert r.status_code == 422 and "Traceback" not in r.text


def test_the_gm_console_shows_players_records_and_adds_a_league(client, site_gm):
    from sitetools import post
    from test_pages import gm_sign_in

    _club(site_gm)
    gm_sign_in(client)
    page = client.get("/gm/games/g1").text
    assert 'id="seat-records"' in page and "6 finished, 0 left" in page
    r = post(client, "/gm/games/g5/league", {"league": "Winter Cup"}, "/gm/games/g5")
    assert "g5 added to Winter Cup" in r.text
    assert {s["name"]: s["total"] for s in client.get("/api/standings?league=Winter%20Cup").json()["players"]}["Bob"] == 100.0
    r = post(client, "/gm/games/g5/league", {"league": "x" * 41}, "/gm/games/g5")
    assert "1 to 40 characters" in r.text
