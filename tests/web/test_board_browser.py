"""Issue 25, the analysis board in Debian's Chromium at 1366x768 and at 375x812 (a touch screen).

Orders are entered by text and by tapping for several powers, the results and the next position
are drawn at once, a shared link reopens the same board, and a board opened from a game's open
phase shows none of the orders on record.
"""

from __future__ import annotations

import pytest
from sitetools import ARTIFACTS, needs_chromium, serving, seven_player_game
from test_phone import _tap, browser  # noqa: F401 - browser is a fixture
from webtools import GM_CREDENTIAL, PLAYERS

pytestmark = needs_chromium

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site with a game whose France has orders on record for the open phase."""
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('board') / 'gm.db'}")
    gm = Gamesmaster(store)
    creds = seven_player_game(gm, PLAYERS, "club")
    gm.orders.submit_orders("club", "FRANCE", "A Par-Pic\nA Mar-Spa\nF Bre-Eng", credential=creds["FRANCE"])
    with serving(create_app(gm, SiteSecrets.for_testing(GM_CREDENTIAL))) as base:
        yield base
    store.dispose()


def _page(browser, base: str, viewport: dict[str, int]):
    touch = viewport["width"] < 700
    context = browser.new_context(viewport=viewport, base_url=base, has_touch=touch, is_mobile=touch,
                                  device_scale_factor=1)
    context.set_default_timeout(20000)
    return context, context.new_page()


def _answered(page, after: int) -> None:
    page.wait_for_function(f"Number(document.body.getAttribute('data-answered') || 0) > {after}")


def test_orders_by_text_results_next_position_and_a_shared_link_on_a_desktop(browser, site):
    context, page = _page(browser, site, DESKTOP)
    page.goto("/board")
    assert page.locator("#results").inner_text().startswith("No orders yet")
    page.fill("#orders", "A Par - Bur\nA Mar S A Par - Bur\nGermany: A Mun - Bur\nEngland:\nF Lon - Nth")
    _answered(page, 0)
    results = page.locator("#results").inner_text()
    assert "A PAR - BUR: succeeds" in results and "A MUN - BUR: fails, bounced" in results, results
    page.wait_for_selector('#map g.order[data-order="A PAR - BUR"]')
    page.wait_for_selector('#next-map g.unit[data-province="BUR"]')
    page.wait_for_selector('#next-map g.unit[data-province="NTH"]')
    assert page.locator("#next-phase").inner_text() == "F1901M"
    page.screenshot(path=str(ARTIFACTS / "desktop-board.png"))
    link = page.input_value("#share")
    assert link.startswith(site + "/board?b=") and page.url == link
    # the link reopens the same board, for anyone
    other, again = _page(browser, site, DESKTOP)
    again.goto(link)
    assert again.input_value("#orders").startswith("A Par - Bur\nA Mar S A Par - Bur")
    assert "A MUN - BUR: fails, bounced" in again.locator("#results").inner_text()
    again.wait_for_selector('#next-map g.unit[data-province="BUR"]')
    # and goes on from the next position
    again.click("#go-on")
    again.wait_for_selector("#board-phase:has-text('Fall 1901')")
    assert again.locator('#map g.unit[data-province="BUR"]').count() == 1
    other.close()
    context.close()


def test_orders_by_tapping_and_moving_units_on_a_phone(browser, site):
    context, page = _page(browser, site, PHONE)
    page.goto("/board")
    assert page.evaluate("document.documentElement.scrollWidth") == 375
    _tap(page, '#map g.unit[data-province="PAR"]')
    page.wait_for_selector('#map path.space.picked[data-province="PAR"]')
    _tap(page, '#map path.space[data-province="BUR"]')
    assert page.input_value("#orders").split("\n")[0] == "A PAR - BUR"
    _answered(page, 0)
    page.wait_for_selector('#map g.order[data-order="A PAR - BUR"]')
    page.wait_for_selector('#next-map g.unit[data-province="BUR"]')
    # another power's unit, by tapping too: Germany's A Mun into Burgundy bounces
    _tap(page, '#map g.unit[data-province="MUN"]')
    page.wait_for_selector('#map path.space.picked[data-province="MUN"]')
    _tap(page, '#map path.space[data-province="BUR"]')
    # A Par is going there already: its support comes first, as in the war room, then the move
    assert page.locator("#hint .candidates button").first.inner_text() == "A MUN S A PAR - BUR"
    _tap(page, '#hint .candidates button:text-is("A MUN - BUR")')
    assert "A MUN - BUR" in page.input_value("#orders")
    _answered(page, 1)
    assert "A MUN - BUR: fails" in page.locator("#results").inner_text()
    assert page.locator('#next-map g.unit[data-province="BUR"]').count() == 0
    page.screenshot(path=str(ARTIFACTS / "phone-board.png"), full_page=True)
    # moving units: set up another position and the board opens on it, the orders kept
    page.fill("#position-units", "FRANCE: A BUR, A MAR\nGERMANY: A MUN")
    page.click("#set-position")
    page.wait_for_selector('#map g.unit[data-province="BUR"]')
    assert page.locator("#map g.unit").count() == 3
    assert page.evaluate("document.documentElement.scrollWidth") == 375
    context.close()


def test_a_board_from_an_open_phase_shows_no_order_on_record(browser, site):
    context, page = _page(browser, site, PHONE)
    page.goto("/games/club/board")
    page.wait_for_selector("#board-doc", state="attached")
    assert page.input_value("#orders") == ""
    html = page.content()
    for written in ("Par-Pic", "Mar-Spa", "Bre-Eng"):  # France's orders on record, as sent
        assert written not in html
    assert "No orders yet" in page.locator("#results").inner_text()
    assert "orders" not in page.evaluate("JSON.parse(document.getElementById('board-doc').textContent)")
    assert page.locator("#map g.order").count() == 0
    assert page.locator('#next-map g.unit[data-province="PAR"]').count() == 1
    assert "Spring 1901" in page.locator("#board-phase").inner_text()
    context.close()
