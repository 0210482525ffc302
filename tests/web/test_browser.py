"""In a real browser (Debian's Chromium, headless, through Playwright) against the real server:
the GM creates a game, seven players sign in and order (by text and by clicking on the map),
the GM processes the season, and every player sees the results and the new map.

Screenshots of the game page and a war room are saved in test-artifacts/.
"""

from __future__ import annotations

import re

import pytest

from sitetools import ARTIFACTS, chromium, needs_chromium, serving
from webtools import GM_CREDENTIAL

pytestmark = needs_chromium

ORDERS = {  # by text, in the forms players write
    "AUSTRIA": "A Vie-Tri\nA Bud-Ser\nF Tri-Alb",
    "ENGLAND": "F Lon.--North Sea\nA Liv.--Yor.\nF Edi.--Norw. Sea",
    "GERMANY": "A Ber-Kie\nA Mun-Ruh\nF Kie-Den",
    "ITALY": "A Ven-Pie\nA Rom-Ven\nF Nap-Ion",
    "RUSSIA": "A Mos-Ukr\nA War-Gal\nF Sev-Bla\nF StP/sc-Bot",
}
CLICKED = ("FRANCE", "TURKEY")  # these two order by clicking on the map


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('browser') / 'gm.db'}")
    with serving(create_app(Gamesmaster(store), SiteSecrets.for_testing(GM_CREDENTIAL))) as base:
        yield base
    store.dispose()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def new_page(browser, base: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, base_url=base)
    page = context.new_page()
    page.set_default_timeout(20000)
    return page


def create_game(browser, base: str, game: str, players: str, seed: str, *, title: str | None = None,
                variant: str | None = None):
    """The GM signs in and creates a game; (the GM's page, {powers shown: credential}) as shown once."""
    gm = new_page(browser, base)
    gm.goto("/gm")
    gm.fill("#credential", GM_CREDENTIAL)
    gm.click("#gm-sign-in button")
    gm.fill("#id", game)
    if title:
        gm.fill("#title", title)
    if variant:
        gm.select_option("#variant", variant)
    gm.fill("#players", players)
    gm.fill("#seed", seed)
    gm.click("#create-form button[type=submit]")
    gm.wait_for_selector("table.credentials")
    creds = {}
    for row in gm.locator("table.credentials tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        creds[cells[1].strip()] = cells[2].strip()
    return gm, creds


def test_seven_players_order_and_see_the_results(browser, live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    # The GM signs in and creates the game; the credentials are shown once.
    gm, shown = create_game(browser, live_server, "seven", "Ann, Bob, Cat, Dan, Eve, Fay, Gus", "1901",
                            title="Seven in the browser")
    creds = {powers.upper(): secret for powers, secret in shown.items()}
    assert len(creds) == 7, creds

    players = {}
    for power, secret in sorted(creds.items()):
        page = new_page(browser, live_server)
        page.goto("/games/seven/war-room")
        page.fill("#credential", secret)
        page.click("#sign-in button")
        page.wait_for_selector("#orders")
        assert power.capitalize() in page.inner_text("h2")
        players[power] = page

    # five order by text (any notation), answered at once order by order
    for power, text in ORDERS.items():
        page = players[power]
        page.fill("#orders", text)
        page.wait_for_selector("#live-answers li")  # the live answer as they type
        page.click("#send-orders")
        page.wait_for_selector(".flash.ok")
        assert "Orders received for Spring 1901 movement" in page.inner_text(".flash.ok")
        answers = page.locator("#on-record .answers li.accepted").count()
        assert answers == len(text.splitlines()), page.inner_text("#on-record")

    # two order by clicking: a unit on the map, then where it goes; and from a unit's list of legal orders
    france = players["FRANCE"]
    france.click('#map g.unit[data-province="PAR"]')
    france.click('#map path.space[data-province="BUR"]')
    france.click('#map g.unit[data-province="MAR"]')
    france.click('#map path.space[data-province="SPA"]')
    france.click('details.unit[data-key="BRE"] summary')
    france.click('details.unit[data-key="BRE"] button.opt[data-order="F BRE - MAO"]')
    assert france.input_value("#orders").split() == "A PAR - BUR A MAR - SPA F BRE - MAO".split()
    france.wait_for_selector("#live-answers li.accepted")
    france.click("#send-orders")
    france.wait_for_selector(".flash.ok")
    turkey = players["TURKEY"]
    turkey.click('#map g.unit[data-province="CON"]')
    turkey.click('#map path.space[data-province="BUL"]')
    turkey.click('#map g.unit[data-province="ANK"]')
    turkey.click('#map path.space[data-province="BLA"]')
    turkey.click('#map g.unit[data-province="SMY"]')
    turkey.click('#map path.space[data-province="ARM"]')
    assert turkey.input_value("#orders").split("\n")[:3] == ["A CON - BUL", "F ANK - BLA", "A SMY - ARM"]
    turkey.click("#send-orders")
    turkey.wait_for_selector(".flash.ok")
    turkey.screenshot(path=str(ARTIFACTS / "war-room.png"), full_page=True)

    # before the deadline a power sees only its own orders; the game page shows who has ordered
    assert "A PAR - BUR" not in players["ENGLAND"].content()
    gm.goto("/games/seven")
    assert gm.locator("td.ordered .yes").count() == 7

    # the GM processes the season
    gm.goto("/gm/games/seven")
    asked = []
    gm.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    gm.click("#process-now")  # processing cannot be undone: the console asks first, and "no" sends nothing
    assert asked and "cannot be undone" in asked[0]
    assert gm.locator(".flash.ok").count() == 0 and "Spring 1901" in gm.inner_text("#process-now")
    gm.once("dialog", lambda d: d.accept())
    gm.click("#process-now")
    gm.wait_for_selector(".flash.ok")
    assert "Spring 1901 movement adjudicated" in gm.inner_text(".flash.ok")

    # every player sees the results and the new map
    for power, page in players.items():
        page.goto("/games/seven")
        assert "Results: Spring 1901 movement" in page.inner_text("#results")
        assert page.locator("#map svg").get_attribute("data-phase") == "F1901M"
        results = page.inner_text("#results")
        assert re.search(r"A PAR - BUR\s+succeeds", results) and re.search(r"F ANK - BLA\s+fails", results)
        page.goto("/games/seven/war-room")
        assert page.locator("#orders-card h3").inner_text() == "Orders for Fall 1901 movement"
    players["FRANCE"].goto("/games/seven")
    players["FRANCE"].screenshot(path=str(ARTIFACTS / "game.png"), full_page=True)
    assert (ARTIFACTS / "game.png").stat().st_size > 10000
    for page in [gm, *players.values()]:
        page.context.close()


def test_a_player_of_two_powers_orders_both_from_one_war_room(browser, live_server):
    """Four players (rulebook XIV.2): one credential, one war room with both powers of a pair."""
    gm, creds = create_game(browser, live_server, "four", "Ann, Bob, Cat, Dan", "4", variant="standard-4")
    assert sorted(creds) == ["Austria/France", "England", "Germany/Turkey", "Italy/Russia"], creds

    context = browser.new_context(viewport={"width": 375, "height": 800}, base_url=live_server)  # a phone
    page = context.new_page()
    page.set_default_timeout(20000)
    page.goto("/games/four/war-room")
    page.fill("#credential", creds["Austria/France"])
    page.click("#sign-in button")
    page.wait_for_selector("#commands")
    assert "Signed in as" in page.inner_text(".flash") and "Austria/France" in page.inner_text(".flash")
    links = page.locator("#commands a.command")
    assert links.all_inner_texts()[0].startswith("Austria") and links.all_inner_texts()[1].startswith("France")
    wide = page.evaluate("""Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 15)""")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), wide

    page.fill("#orders", "A Vie-Gal\nA Bud-Ser")
    page.wait_for_selector("#live-answers li.accepted")  # the live answer is for Austria's units
    page.click("#send-orders")
    page.wait_for_selector(".flash.ok")
    assert "Austria" in page.inner_text("#orders-card h3")

    page.click("#commands a.command >> text=France")
    page.wait_for_selector("#commands a.current >> text=France")
    assert "France" in page.inner_text("#orders-card h3") and page.input_value("#orders") == ""
    page.fill("#orders", "A Par-Bur")
    page.wait_for_selector("#live-answers li.accepted")
    page.click("#send-orders")
    page.wait_for_selector(".flash.ok")
    assert "power=FRANCE" in page.url and "A PAR - BUR" in page.inner_text("#on-record")
    assert "orders on record" in page.inner_text("#commands a.command >> nth=0")
    assert "orders on record" in page.inner_text("#commands a.command >> nth=1")

    # The GM's game page: both powers of the pair have ordered, under one player.
    gm.goto("/games/four")
    assert gm.locator("td.ordered .yes").count() == 2
    for p in (gm, page):
        p.context.close()
