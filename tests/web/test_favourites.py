"""Issue 25, the favourite two-player variants: France vs Austria played through the site over real
HTTP for a year, the five neutral powers' units holding and never seated as players, and the war room
on a 375x812 phone showing the map; the Ancient Mediterranean played over HTTP. The screenshots
(test-artifacts/) are the ones copied to docs/variants/."""

from __future__ import annotations

import httpx
import pytest
from sitetools import ARTIFACTS, chromium, needs_chromium, open_site, serving
from webtools import GM, GM_CREDENTIAL, bearer

PHONE = {"width": 375, "height": 812}
NEUTRAL = ("ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site served on a loopback port (the real clock): (base URL, gm)."""
    gm, app, store = open_site(tmp_path_factory.mktemp("favourites"), None, GM_CREDENTIAL)
    with serving(app) as base:
        yield base, gm
    store.dispose()


SEATS = {"france-austria": ["AUSTRIA", "FRANCE"], "germany-italy": ["GERMANY", "ITALY"],
         "ancient-med": ["CARTHAGE", "EGYPT", "GREECE", "PERSIA", "ROME"]}


def _create(http: httpx.Client, game: str, variant: str) -> dict[str, str]:
    """A game of the variant, one player a seat; returns power -> credential."""
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"][:len(SEATS[variant])]
    r = http.post("/api/games", json={"id": game, "variant": variant, "players": names, "seed": 5}, headers=GM)
    assert r.status_code == 201, r.text
    made = r.json()
    assert sorted(p for ps in made["commands"].values() for p in ps) == SEATS[variant]
    return {ps[0]: made["credentials"][name] for name, ps in made["commands"].items()}


def _units(http: httpx.Client, game: str) -> dict[str, str]:
    """Province -> 'POWER A|F' of the current position."""
    pos = http.get(f"/api/games/{game}/position").json()
    return {unit.split()[1].split("/")[0]: f"{power} {unit.split()[0]}"
            for power, units in pos["units"].items() for unit in units}


def _centres(http: httpx.Client, game: str) -> dict[str, str]:
    """Supply centre -> its owner in the current position."""
    pos = http.get(f"/api/games/{game}/position").json()
    return {c: power for power, centres in pos["centers"].items() for c in centres}


def _season(http: httpx.Client, game: str, creds: dict[str, str], orders: dict[str, str]) -> None:
    """Each player's orders, then the GM processes the phase unless it already went on (all orders in)."""
    phase = http.get(f"/api/games/{game}").json()["phase"]
    for power, text in orders.items():
        r = http.post(f"/api/games/{game}/powers/{power.lower()}/orders", json={"orders": text},
                      headers=bearer(creds[power]))
        assert r.status_code == 200, r.text
        assert all(a["status"] == "accepted" for a in r.json()["answers"]), r.json()
    if http.get(f"/api/games/{game}").json()["phase"] == phase:
        assert http.post(f"/api/games/{game}/process", headers=GM).status_code == 200


def test_france_vs_austria_is_played_for_a_year_over_http(site):
    base, _ = site
    with httpx.Client(base_url=base, timeout=30) as http:
        creds = _create(http, "fva", "france-austria")
        assert set(creds) == {"FRANCE", "AUSTRIA"}
        game = http.get("/api/games/fva").json()
        assert game["variant"] == "france-austria"
        start = _units(http, "fva")
        assert start["ROM"] == "ITALY A" and start["LON"] == "ENGLAND F"  # the neutral units are on the board
        # nobody orders a neutral power: the French player's credential is refused for Italy
        r = http.post("/api/games/fva/powers/italy/orders", json={"orders": "A Ven-Pie"}, headers=bearer(creds["FRANCE"]))
        assert r.status_code == 403, r.text

        _season(http, "fva", creds, {"FRANCE": "A Par-Bur\nA Mar-Spa\nF Bre-Mao",
                                     "AUSTRIA": "A Vie-Tyr\nF Tri H\nA Bud-Ser"})
        assert http.get("/api/games/fva").json()["phase"] == "F1901M"
        after = _units(http, "fva")
        assert all(after[p] == start[p] for p in start if start[p].split()[0] in NEUTRAL)  # they held
        # Fall: Austria takes Venice from the holding Italian army, which is disbanded (no retreat)
        _season(http, "fva", creds, {"FRANCE": "F Mao-Por\nA Bur-Bel\nA Spa H",
                                     "AUSTRIA": "A Tyr-Ven\nF Tri S A Tyr-Ven\nA Ser-Gre"})
        assert http.get("/api/games/fva").json()["phase"] == "W1901A"  # no retreat phase for a neutral
        units = _units(http, "fva")
        assert units["VEN"] == "AUSTRIA A"
        assert sorted(p for p, u in units.items() if u.startswith("ITALY")) == ["NAP", "ROM"]  # disbanded, not moved
        centres = _centres(http, "fva")
        assert centres["VEN"] == "AUSTRIA" and centres["POR"] == "FRANCE" and centres["BEL"] == "FRANCE"
        # Winter: only France and Austria adjust; Italy, down to two centres and two units, has nothing to do
        _season(http, "fva", creds, {"FRANCE": "Build A Par\nBuild F Bre\nBuild A Mar",
                                     "AUSTRIA": "Build A Vie\nBuild A Bud"})
        assert http.get("/api/games/fva").json()["phase"] == "S1902M"
        units = _units(http, "fva")
        assert sum(1 for u in units.values() if u.startswith("FRANCE")) == 6
        assert sum(1 for u in units.values() if u.startswith("AUSTRIA")) == 5
        assert sum(1 for u in units.values() if u.startswith("ITALY")) == 2
        # the neutral powers are never players: two seats, and the rules page states 18 centres
        seated = [p for player in http.get("/api/games/fva").json()["players"] for p in player["powers"]]
        assert sorted(seated) == ["AUSTRIA", "FRANCE"]
        assert "18 supply centres" in str(http.get("/api/games/fva/rules").json())


def test_the_create_form_shows_players_and_victory(site):
    base, _ = site
    with httpx.Client(base_url=base, timeout=30) as http:
        cat = http.get("/api/catalogue").json()
        by_name = {v["name"]: v for v in cat["variants"]}
        assert by_name["france-austria"]["players"] == "2 players (France, Austria; 5 powers neutral)"
        assert by_name["germany-italy"]["victory"] == "18 supply centres win"
        assert by_name["standard"]["players"] == "7 players"


# who looks at the war room, and another power's unit that must be drawn on their map
PHONE_VIEW = {"france-austria": ("FRANCE", ("ITALY", "ROM")), "germany-italy": ("GERMANY", ("FRANCE", "PAR")),
              "ancient-med": ("ROME", ("CARTHAGE", "CAR"))}


@needs_chromium
@pytest.mark.parametrize("variant", list(PHONE_VIEW))
def test_the_war_room_on_a_phone_shows_the_map(site, variant):
    base, _ = site
    game = "phone-" + variant
    with httpx.Client(base_url=base, timeout=30) as http:
        creds = _create(http, game, variant)
        board = http.get(f"/api/games/{game}/map.png")  # the whole board, for the variant's page
        assert board.status_code == 200 and board.content.startswith(b"\x89PNG"), board.status_code
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / f"{variant}-map.png").write_bytes(board.content)
    me, neutral_unit = PHONE_VIEW[variant]
    with chromium() as browser:
        context = browser.new_context(viewport=PHONE, base_url=base, has_touch=True, is_mobile=True,
                                      device_scale_factor=1)
        context.set_default_timeout(20000)
        page = context.new_page()
        page.goto(f"/games/{game}/war-room")
        page.fill("#credential", creds[me])
        page.click("#sign-in button")
        page.wait_for_selector("#orders-card")
        page.wait_for_selector(f'#map g.unit[data-power="{me}"]')
        # the other powers' units (neutral ones too) are drawn on the map like any other
        assert page.locator(f'#map g.unit[data-power="{neutral_unit[0]}"][data-province="{neutral_unit[1]}"]').count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.locator("#map").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"{variant}-phone.png"))
        context.close()


def test_ancient_mediterranean_is_played_over_http(site):
    """A season of the Ancient Mediterranean through the API: Rome crosses the strait of Messina,
    Egypt sails up the Nile, and the game reads its year-1 calendar."""
    base, _ = site
    with httpx.Client(base_url=base, timeout=30) as http:
        creds = _create(http, "am", "ancient-med")
        assert http.get("/api/games/am").json()["phase"] == "S1M"
        _season(http, "am", creds, {"ROME": "A Rom-Nea\nF Nea-Tyn", "EGYPT": "F Ale-Mem\nA Mem-Cyr\nA The-Sin"})
        _season(http, "am", creds, {"ROME": "A Nea-Sic", "EGYPT": "F Mem-The"})
        units = _units(http, "am")
        assert units["SIC"] == "ROME A" and units["THE"] == "EGYPT F" and units["CYR"] == "EGYPT A"
        assert http.get("/api/games/am").json()["phase"] == "W1A"
