"""Issue 22, the phone and the map, in Debian's Chromium at 375x812 (a touch screen) and 1366x768.

France is the player throughout. In "fleet" France has F Mao, A Bur and A Spa to order in Fall
1901; in "retreat" its one unit to retreat is A Bur; in "builds" it has builds and empty home
centres; "moving" is Spring 1901. Each test says what a player saw wrong before.
"""

from __future__ import annotations

import pytest
from sitetools import ARTIFACTS, chromium, needs_chromium, serving
from webtools import GM_CREDENTIAL, PLAYERS

from gamesmaster.gm import Settings

pytestmark = needs_chromium

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1366, "height": 768}
GAMES = ("moving", "fleet", "retreat", "builds")


def _play(gm, game: str, creds: dict[str, str], seasons: list[dict[str, str]]) -> None:
    for orders in seasons:
        for power, text in orders.items():
            gm.submit_orders(game, power, text, credential=creds[power])
        gm.process(game, force=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site with France in each situation: (base URL, credentials by game and power, gm)."""
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('phonemap') / 'gm.db'}")
    gm = Gamesmaster(store)
    creds: dict[str, dict[str, str]] = {}
    for game in GAMES:
        created = gm.create_game(game, title=f"The {game} game", players=list(PLAYERS.values()),
                                 assign={name: power for power, name in PLAYERS.items()},
                                 settings=Settings.from_dict({"press": "full"}))
        creds[game] = {created.powers[n]: s for n, s in created.credentials.items()}
    spring = {"FRANCE": "F Bre-Mao\nA Par-Bur\nA Mar-Spa", "GERMANY": "A Mun-Ruh\nA Ber-Mun"}
    _play(gm, "fleet", creds["fleet"], [spring])
    _play(gm, "retreat", creds["retreat"], [spring, {"GERMANY": "A Ruh-Bur\nA Mun S A Ruh-Bur"}])
    _play(gm, "builds", creds["builds"], [spring, {"FRANCE": "F Mao-Por\nA Bur-Bel\nA Spa H"}])
    gm.submit_orders("fleet", "GERMANY", "A Ruh-Bel\nA Mun-Bur", credential=creds["fleet"]["GERMANY"])
    gm.create_game("forming", title="The forming game", start=False)
    from gamesmaster.gm.table import LiveTable  # a club evening's game: its table and war rooms
    LiveTable(gm).create("live", title="The live game", players=list(PLAYERS.values()),
                         assign={name: power for power, name in PLAYERS.items()})
    assert str(gm.game("fleet").phase) == "F1901M"
    assert str(gm.game("retreat").phase) == "F1901R"
    assert str(gm.game("builds").phase) == "W1901A"
    with serving(create_app(gm, SiteSecrets.for_testing(GM_CREDENTIAL))) as base:
        yield base, creds, gm
    store.dispose()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _context(browser, base: str, viewport: dict[str, int] = PHONE):
    touch = viewport["width"] < 700
    context = browser.new_context(viewport=viewport, base_url=base, has_touch=touch, is_mobile=touch,
                                  device_scale_factor=1)
    context.set_default_timeout(20000)
    return context


def _sign_in(page, game: str, credential: str) -> None:
    page.goto(f"/games/{game}/war-room")
    page.fill("#credential", credential)
    page.click("#sign-in button")
    page.wait_for_selector("#orders-card")
    page.wait_for_load_state("load")


def _box(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _tap(page, selector: str) -> None:
    """Tap the middle of an element, scrolling it into view first."""
    page.locator(selector).first.scroll_into_view_if_needed()
    box = _box(page, selector)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _on_screen(page, selector: str) -> list[str]:
    """Each element of selector that is not wholly on the screen, with its box."""
    boxes = page.evaluate("""(sel) => Array.from(document.querySelectorAll(sel)).map(e => {
        const r = e.getBoundingClientRect(); return [e.textContent.trim(), r.top, r.bottom, r.left, r.right]; })""", selector)
    assert boxes, selector
    h, w = page.viewport_size["height"], page.viewport_size["width"]
    return [f"{t!r} at {top:.0f}..{bottom:.0f} x {left:.0f}..{right:.0f}" for t, top, bottom, left, right in boxes
            if top < 0 or bottom > h or left < 0 or right > w]


def test_a_choice_of_orders_appears_on_the_screen(browser, site):
    """A Mar then Bur (A Par - Bur planned) offered its choices 60 px below the screen; builds too."""
    base, creds, _ = site
    context = _context(browser, base)
    page = context.new_page()
    _sign_in(page, "moving", creds["moving"]["FRANCE"])
    _tap(page, '#map g.unit[data-province="PAR"]')
    _tap(page, '#map path.space[data-province="BUR"]')
    page.wait_for_selector('#map g.order[data-order="A PAR - BUR"]')
    _tap(page, '#map g.unit[data-province="MAR"]')
    _tap(page, '#map path.space[data-province="BUR"]')
    page.wait_for_selector("#hint .candidates button")
    assert page.locator("#hint .candidates button").first.inner_text() == "A MAR S A PAR - BUR"
    assert not _on_screen(page, "#hint .candidates button"), _on_screen(page, "#hint .candidates button")
    # the map the player was tapping on is still in sight above the choice
    assert _box(page, '#map g.unit[data-province="MAR"] .hit')["y"] < _box(page, "#hint")["y"]
    page.screenshot(path=str(ARTIFACTS / "phone-choice-of-orders.png"))
    page.touchscreen.tap(*_middle(_box(page, "#hint .candidates button")))
    assert page.input_value("#orders").split("\n")[:2] == ["A PAR - BUR", "A MAR S A PAR - BUR"]
    assert page.locator("#hint .candidates button").count() == 0
    page.click("form[action$='sign-out'] button")

    _sign_in(page, "builds", creds["builds"]["FRANCE"])
    _tap(page, '#map g.sc[data-province="BRE"]')
    page.wait_for_selector("#hint .candidates button")
    texts = page.locator("#hint .candidates button").all_inner_texts()
    assert "A BRE B" in texts and "F BRE B" in texts, texts
    assert not _on_screen(page, "#hint .candidates button"), _on_screen(page, "#hint .candidates button")
    page.screenshot(path=str(ARTIFACTS / "phone-choice-of-builds.png"))
    page.touchscreen.tap(*_middle(_box(page, "#hint .candidates button >> text='F BRE B'")))
    assert "F BRE B" in page.input_value("#orders")
    context.close()


def _middle(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


# what France must order now, on the map, in each game: its units, the unit to retreat, the centres to build in
FRAMED = {"fleet": ['g.unit.highlighted[data-province="MAO"] .hit', 'g.unit.highlighted[data-province="BUR"] .hit',
                    'g.unit.highlighted[data-province="SPA"] .hit'],
          "retreat": ['g.unit-dislodged.highlighted[data-province="BUR"] .hit'],
          "builds": ['g.sc[data-province="BRE"]', 'g.sc[data-province="PAR"]', 'g.sc[data-province="MAR"]']}


@pytest.mark.parametrize("game", list(FRAMED))
def test_the_phone_map_opens_framed_on_what_to_order(browser, site, game):
    """A fleet in the Mid-Atlantic, the one unit to retreat and the home centres opened off the map or cut,
    and the map began 450 px down an 812 px screen."""
    base, creds, _ = site
    context = _context(browser, base)
    page = context.new_page()
    _sign_in(page, game, creds[game]["FRANCE"])
    page.wait_for_function("document.querySelector('#map .pan').style.transform !== ''")
    frame = _box(page, "#map")
    assert frame["y"] >= 0 and frame["y"] + frame["height"] <= PHONE["height"], frame
    assert frame["y"] <= PHONE["height"] / 2 - 60, f"the map begins {frame['y']:.0f} px down the screen"
    cut = []
    for selector in FRAMED[game]:
        box = _box(page, f"#map {selector}")
        inside = (box["x"] >= frame["x"] and box["y"] >= frame["y"] and box["x"] + box["width"] <= frame["x"] + frame["width"]
                  and box["y"] + box["height"] <= frame["y"] + frame["height"])
        if not inside:
            cut.append(f"{selector}: {box} outside {frame}")
    page.screenshot(path=str(ARTIFACTS / f"phone-opens-framed-{game}.png"))
    context.close()
    assert not cut, cut


def test_tapping_a_second_unit_of_ones_own_selects_it(browser, site):
    """With A Par selected, tapping A Mar wrote A PAR - MAR (as A Ruh then A Mun wrote A RUH - MUN)."""
    base, creds, _ = site
    context = _context(browser, base)
    page = context.new_page()
    _sign_in(page, "moving", creds["moving"]["FRANCE"])
    _tap(page, '#map g.unit[data-province="PAR"]')
    page.wait_for_selector('#map path.space.picked[data-province="PAR"]')
    _tap(page, '#map g.unit[data-province="MAR"]')
    page.wait_for_selector('#map path.space.picked[data-province="MAR"]')
    assert page.locator("#map path.space.picked").count() == 1
    assert "PAR" not in page.input_value("#orders")
    assert page.locator('details.unit.selected[data-key="MAR"]').count() == 1
    # the orders of A Par that name Marseilles stay one tap away, offered in place
    assert "A PAR S A MAR" in page.locator("#hint .candidates").inner_text()
    # and A Mar, now selected, moves where it is sent next
    _tap(page, '#map path.space[data-province="SPA"]')
    assert page.input_value("#orders").strip() == "A MAR - SPA"
    context.close()


def test_the_results_map_marks_a_dislodged_unit(browser, site):
    """Fall 1901's results showed A Bur as if it had held: nothing marked it dislodged."""
    base, _, _ = site
    context = _context(browser, base)
    page = context.new_page()
    page.goto("/games/retreat/history?phase=F1901M")
    beaten = page.locator('svg g.unit.unit-dislodged[data-province="BUR"][data-power="FRANCE"]')
    assert beaten.count() == 1
    assert "dislodged" in beaten.locator("title").text_content()
    assert page.locator("svg g.unit.unit-dislodged").count() == 1  # the German winner is not
    beaten.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "phone-results-dislodged.png"))
    context.close()


def _gm_sign_in(page) -> None:
    page.goto("/gm")
    page.fill("#credential", GM_CREDENTIAL)
    page.click("#gm-sign-in button")
    page.wait_for_selector("#create-form")


def test_the_gm_game_page_shows_the_map_and_the_orders_received(browser, site):
    """The GM's game page had no map and said only "received", not which orders."""
    base, _, _ = site
    context = _context(browser, base)
    page = context.new_page()
    _gm_sign_in(page)
    page.goto("/gm/games/fleet")
    assert page.locator("#map svg").count() == 1
    received = page.locator("#orders-received").inner_text()
    assert "Germany" in received and "A Ruh-Bel" in received and "A Mun-Bur" in received, received  # as written
    # drawn on the GM's map too (the GM alone sees them before the deadline)
    assert page.locator('#map g.order[data-order="A RUH - BEL"]').count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / "phone-gm-game-map.png"), full_page=True)
    # nothing of it on the public page
    page.goto("/games/fleet")
    assert "A Ruh-Bel" not in page.content() and "A RUH - BEL" not in page.content()
    context.close()


def test_the_gms_pages_on_a_phone(browser, site):
    """The invitation field was a small unstyled box; "Table view" spilled out of its button."""
    base, _, _ = site
    context = _context(browser, base)
    page = context.new_page()
    _gm_sign_in(page)
    page.goto("/gm/games/forming")
    field = _box(page, "#invite-email")
    name = _box(page, "#invite-name")
    assert field["height"] >= 36 and abs(field["width"] - name["width"]) < 1, (field, name)
    assert page.eval_on_selector("#invite-email", "e => getComputedStyle(e).fontSize") == "16px"  # no zoom on focus
    page.goto("/gm/games/live")
    link = page.locator("#table-link")
    assert link.evaluate("e => e.getClientRects().length") == 1, "the button broke across lines"
    box = _box(page, "#table-link")
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert link.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1")
    page.screenshot(path=str(ARTIFACTS / "phone-gm-live.png"))
    context.close()


def test_the_header_says_who_is_signed_in(browser, site):
    """The header said "Sign in" to the GM signed in, and to a player signed in to a war room."""
    base, creds, _ = site
    context = _context(browser, base)
    page = context.new_page()
    page.goto("/")
    assert page.locator("header #sign-in-link").count() == 1
    _sign_in(page, "moving", creds["moving"]["FRANCE"])
    page.goto("/")
    assert page.locator("header #sign-in-link").count() == 0
    assert page.locator("header #signed-in-as").get_attribute("href") == "/games/moving/war-room"
    context.close()
    context = _context(browser, base)
    page = context.new_page()
    _gm_sign_in(page)
    page.goto("/games/moving")
    assert page.locator("header #sign-in-link").count() == 0
    assert "GM" in page.locator("header #signed-in-as").inner_text()
    context.close()


def test_the_api_docs_lead_back_to_the_site(browser, site):
    """/docs (Swagger UI) had no way back to the site."""
    base, _, _ = site
    context = _context(browser, base)
    page = context.new_page()
    page.goto("/docs")
    back = page.locator("#site-bar a[href='/']")
    back.wait_for(state="visible")
    page.wait_for_selector(".swagger-ui .info")  # Swagger UI drawn under it
    box = _box(page, "#site-bar a[href='/']")
    assert box["y"] < PHONE["height"], "the way back is not on the first screen"
    page.screenshot(path=str(ARTIFACTS / "phone-api-docs.png"))
    back.tap()
    page.wait_for_url(f"{base}/")
    assert page.locator("header.site").count() == 1
    context.close()


def test_the_war_room_map_is_whole_on_a_laptop_screen(browser, site):
    """At 1366x768 the southern half of the war room's map was below the fold."""
    base, creds, _ = site
    context = _context(browser, base, DESKTOP)
    page = context.new_page()
    _sign_in(page, "moving", creds["moving"]["FRANCE"])
    frame = _box(page, "#map")
    assert frame["y"] >= 0 and frame["y"] + frame["height"] <= DESKTOP["height"], frame
    for south in ("NAF", "TUN", "EAS"):  # the board's southern edge
        box = _box(page, f'#map path.space[data-province="{south}"]')
        assert box["y"] + box["height"] <= DESKTOP["height"], (south, box)
    assert frame["width"] >= 600, frame  # still a map to play on
    # the orders form stays beside it
    assert _box(page, "#orders-card")["y"] < DESKTOP["height"] / 2
    page.screenshot(path=str(ARTIFACTS / "desktop-war-room-whole-map.png"))
    context.close()


def test_tied_powers_lines_in_the_centre_chart_stand_at_their_count(browser, site):
    """Powers tied at 3 centres were drawn a few pixels apart, so equal counts looked different."""
    base, _, _ = site
    context = _context(browser, base, DESKTOP)
    page = context.new_page()
    page.goto("/games/builds/history")
    points = page.eval_on_selector_all(
        "svg.chart circle", "cs => cs.map(c => [c.querySelector('title').textContent, c.getAttribute('cy')])")
    heights: dict[str, set[str]] = {}
    for title, cy in points:
        count = title.split(": ", 1)[1]  # "3 in 1901"
        heights.setdefault(count, set()).add(cy)
    assert heights and all(len(ys) == 1 for ys in heights.values()), heights
    assert len(heights.get("3 in 1901", ())) == 1 and len([t for t, _ in points if t.endswith(": 3 in 1901")]) >= 5
    page.locator("svg.chart").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "desktop-centre-chart-ties.png"))
    context.close()
