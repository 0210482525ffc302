"""Issue 22, the phone and the map, in Debian's Chromium at 375x812 (a touch screen) and 1366x768.

France is the player throughout. In "fleet" France has F Mao, A Bur and A Spa to order in Fall
1901; in "retreat" its one unit to retreat is A Bur; in "builds" it has builds and empty home
centres; "moving" and "sent" are Spring 1901. Each test says what a player saw wrong before.
"""

from __future__ import annotations

import pytest
from sitetools import ARTIFACTS, needs_chromium, serving, seven_player_game
from test_phone import _box, _gm_sign_in, _play, _tap, browser  # noqa: F401 - browser is a fixture
from webtools import GM_CREDENTIAL, PLAYERS

pytestmark = needs_chromium

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1366, "height": 768}
GAMES = ("moving", "fleet", "retreat", "builds", "sent")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site with France in each situation: (base URL, credentials by game and power, gm)."""
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('phonemap') / 'gm.db'}")
    gm = Gamesmaster(store)
    creds = {game: seven_player_game(gm, PLAYERS, game) for game in GAMES}
    spring = {"FRANCE": "F Bre-Mao\nA Par-Bur\nA Mar-Spa", "GERMANY": "A Mun-Ruh\nA Ber-Mun"}
    _play(gm, "fleet", creds["fleet"], [spring])
    _play(gm, "retreat", creds["retreat"], [spring, {"GERMANY": "A Ruh-Bur\nA Mun S A Ruh-Bur"}])
    _play(gm, "builds", creds["builds"], [spring, {"FRANCE": "F Mao-Por\nA Bur-Bel\nA Spa H"}])
    gm.orders.submit_orders("fleet", "GERMANY", "A Ruh-Bel\nA Mun-Bur", credential=creds["fleet"]["GERMANY"])
    gm.setup.create_game("forming", title="The forming game", start=False)
    gm.live.create("live", title="The live game", players=list(PLAYERS.values()),
                         assign={name: power for power, name in PLAYERS.items()})
    assert str(gm.games.game("fleet").phase) == "F1901M"
    assert str(gm.games.game("retreat").phase) == "F1901R"
    assert str(gm.games.game("builds").phase) == "W1901A"
    with serving(create_app(gm, SiteSecrets.for_testing(GM_CREDENTIAL))) as base:
        yield base, creds, gm
    store.dispose()


def _context(browser, base: str, viewport: dict[str, int] = PHONE):
    touch = viewport["width"] < 700
    context = browser.new_context(viewport=viewport, base_url=base, has_touch=touch, is_mobile=touch,
                                  device_scale_factor=1)
    context.set_default_timeout(20000)
    return context


@pytest.fixture
def phone(browser, site):
    """A fresh page on a 375x812 touch screen."""
    context = _context(browser, site[0])
    yield context.new_page()
    context.close()


@pytest.fixture
def laptop(browser, site):
    """A fresh page on a 1366x768 screen."""
    context = _context(browser, site[0], DESKTOP)
    yield context.new_page()
    context.close()


def _sign_in(page, game: str, credential: str) -> None:
    page.goto(f"/games/{game}/war-room")
    page.fill("#credential", credential)
    page.click("#sign-in button")
    page.wait_for_selector("#orders-card")
    page.wait_for_load_state("load")


def _on_screen(page, selector: str) -> list[str]:
    """Each element of selector that is not wholly on the screen, with its box."""
    boxes = page.evaluate("""(sel) => Array.from(document.querySelectorAll(sel)).map(e => {
        const r = e.getBoundingClientRect(); return [e.textContent.trim(), r.top, r.bottom, r.left, r.right]; })""", selector)
    assert boxes, selector
    h, w = page.viewport_size["height"], page.viewport_size["width"]
    return [f"{t!r} at {top:.0f}..{bottom:.0f} x {left:.0f}..{right:.0f}" for t, top, bottom, left, right in boxes
            if top < 0 or bottom > h or left < 0 or right > w]


def test_a_choice_of_orders_appears_on_the_screen(phone, site):
    """A Mar then Bur (A Par - Bur planned) offered its choices 60 px below the screen; builds too."""
    _, creds, _ = site
    _sign_in(phone, "moving", creds["moving"]["FRANCE"])
    _tap(phone, '#map g.unit[data-province="PAR"]')
    _tap(phone, '#map path.space[data-province="BUR"]')
    phone.wait_for_selector('#map g.order[data-order="A PAR - BUR"]')
    _tap(phone, '#map g.unit[data-province="MAR"]')
    _tap(phone, '#map path.space[data-province="BUR"]')
    phone.wait_for_selector("#hint .candidates button")
    assert phone.locator("#hint .candidates button").first.inner_text() == "A MAR S A PAR - BUR"
    assert not _on_screen(phone, "#hint .candidates button"), _on_screen(phone, "#hint .candidates button")
    # the map the player was tapping on is still in sight above the choice
    assert _box(phone, '#map g.unit[data-province="MAR"] .hit')["y"] < _box(phone, "#hint")["y"]
    phone.screenshot(path=str(ARTIFACTS / "phone-choice-of-orders.png"))
    phone.touchscreen.tap(*_middle(_box(phone, "#hint .candidates button")))
    assert phone.input_value("#orders").split("\n")[:2] == ["A PAR - BUR", "A MAR S A PAR - BUR"]
    assert phone.locator("#hint .candidates button").count() == 0
    phone.click("form[action$='sign-out'] button")

    _sign_in(phone, "builds", creds["builds"]["FRANCE"])
    _tap(phone, '#map g.sc[data-province="BRE"]')
    phone.wait_for_selector("#hint .candidates button")
    texts = phone.locator("#hint .candidates button").all_inner_texts()
    assert "A BRE B" in texts and "F BRE B" in texts, texts
    assert not _on_screen(phone, "#hint .candidates button"), _on_screen(phone, "#hint .candidates button")
    phone.screenshot(path=str(ARTIFACTS / "phone-choice-of-builds.png"))
    phone.touchscreen.tap(*_middle(_box(phone, "#hint .candidates button >> text='F BRE B'")))
    assert "F BRE B" in phone.input_value("#orders")


def _middle(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


# what France must order now, on the map, in each game: its units, the unit to retreat, the centres to build in
FRAMED = {"fleet": ['g.unit.highlighted[data-province="MAO"] .hit', 'g.unit.highlighted[data-province="BUR"] .hit',
                    'g.unit.highlighted[data-province="SPA"] .hit'],
          "retreat": ['g.unit-dislodged.highlighted[data-province="BUR"] .hit'],
          "builds": ['g.sc[data-province="BRE"]', 'g.sc[data-province="PAR"]', 'g.sc[data-province="MAR"]']}


@pytest.mark.parametrize("game", list(FRAMED))
def test_the_phone_map_opens_framed_on_what_to_order(phone, site, game):
    """A fleet in the Mid-Atlantic, the one unit to retreat and the home centres opened off the map or cut,
    and the map began 450 px down an 812 px screen."""
    _, creds, _ = site
    _sign_in(phone, game, creds[game]["FRANCE"])
    phone.wait_for_function("document.querySelector('#map .pan').style.transform !== ''")
    frame = _box(phone, "#map")
    assert frame["y"] >= 0 and frame["y"] + frame["height"] <= PHONE["height"], frame
    assert frame["y"] <= PHONE["height"] / 2 - 60, f"the map begins {frame['y']:.0f} px down the screen"
    cut = []
    for selector in FRAMED[game]:
        box = _box(phone, f"#map {selector}")
        inside = (box["x"] >= frame["x"] and box["y"] >= frame["y"] and box["x"] + box["width"] <= frame["x"] + frame["width"]
                  and box["y"] + box["height"] <= frame["y"] + frame["height"])
        if not inside:
            cut.append(f"{selector}: {box} outside {frame}")
    phone.screenshot(path=str(ARTIFACTS / f"phone-opens-framed-{game}.png"))
    assert not cut, cut


def test_the_answer_to_orders_sent_stays_in_sight(phone, site):
    """The war room opens on the map only while nothing is on record: the answer to orders sent is not
    scrolled away."""
    _, creds, _ = site
    _sign_in(phone, "sent", creds["sent"]["FRANCE"])
    assert _box(phone, "#map")["y"] < 100  # opened on the map
    phone.fill("#orders", "A Par-Bur\n")
    phone.click("#send-orders")
    flash = phone.wait_for_selector(".flash.ok")
    assert 0 <= flash.bounding_box()["y"] < PHONE["height"], flash.bounding_box()


def test_tapping_a_second_unit_of_ones_own_selects_it(phone, site):
    """With A Par selected, tapping A Mar wrote A PAR - MAR (as A Ruh then A Mun wrote A RUH - MUN)."""
    _, creds, _ = site
    _sign_in(phone, "moving", creds["moving"]["FRANCE"])
    _tap(phone, '#map g.unit[data-province="PAR"]')
    phone.wait_for_selector('#map path.space.picked[data-province="PAR"]')
    _tap(phone, '#map g.unit[data-province="MAR"]')
    phone.wait_for_selector('#map path.space.picked[data-province="MAR"]')
    assert phone.locator("#map path.space.picked").count() == 1
    assert "PAR" not in phone.input_value("#orders")
    assert phone.locator('details.unit.selected[data-key="MAR"]').count() == 1
    # the orders of A Par that name Marseilles stay one tap away, offered in place
    assert "A PAR S A MAR" in phone.locator("#hint .candidates").inner_text()
    # and A Mar, now selected, moves where it is sent next
    _tap(phone, '#map path.space[data-province="SPA"]')
    assert phone.input_value("#orders").strip() == "A MAR - SPA"


def test_the_results_map_marks_a_dislodged_unit(phone):
    """Fall 1901's results showed A Bur as if it had held: nothing marked it dislodged."""
    phone.goto("/games/retreat/history?phase=F1901M")
    beaten = phone.locator('svg g.unit.unit-dislodged[data-province="BUR"][data-power="FRANCE"]')
    assert beaten.count() == 1
    assert "dislodged" in beaten.locator("title").text_content()
    assert phone.locator("svg g.unit.unit-dislodged").count() == 1  # the German winner is not
    beaten.scroll_into_view_if_needed()
    phone.screenshot(path=str(ARTIFACTS / "phone-results-dislodged.png"))


def test_the_gm_game_page_shows_the_map_and_the_orders_received(phone):
    """The GM's game phone had no map and said only "received", not which orders."""
    _gm_sign_in(phone)
    phone.goto("/gm/games/fleet")
    assert phone.locator("#map svg").count() == 1
    received = phone.locator("#orders-received").inner_text()
    assert "Germany" in received and "A Ruh-Bel" in received and "A Mun-Bur" in received, received  # as written
    # drawn on the GM's map too (the GM alone sees them before the deadline)
    assert phone.locator('#map g.order[data-order="A RUH - BEL"]').count() == 1
    assert phone.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    phone.screenshot(path=str(ARTIFACTS / "phone-gm-game-map.png"), full_page=True)
    # nothing of it on the public phone
    phone.goto("/games/fleet")
    assert "A Ruh-Bel" not in phone.content() and "A RUH - BEL" not in phone.content()


def test_the_gms_pages_on_a_phone(phone):
    """The invitation field was a small unstyled box; "Table view" spilled out of its button."""
    _gm_sign_in(phone)
    phone.goto("/gm/games/forming")
    field = _box(phone, "#invite-email")
    name = _box(phone, "#invite-name")
    assert field["height"] >= 36 and abs(field["width"] - name["width"]) < 1, (field, name)
    assert phone.eval_on_selector("#invite-email", "e => getComputedStyle(e).fontSize") == "16px"  # no zoom on focus
    phone.goto("/gm/games/live")
    link = phone.locator("#table-link")
    assert link.evaluate("e => e.getClientRects().length") == 1, "the button broke across lines"
    box = _box(phone, "#table-link")
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert link.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1")
    phone.screenshot(path=str(ARTIFACTS / "phone-gm-live.png"))


def test_the_header_says_who_is_signed_in(phone, browser, site):
    """The header said "Sign in" to the GM signed in, and to a player signed in to a war room."""
    base, creds, _ = site
    phone.goto("/")
    assert phone.locator("header #sign-in-link").count() == 1
    _sign_in(phone, "moving", creds["moving"]["FRANCE"])
    phone.goto("/")
    assert phone.locator("header #sign-in-link").count() == 0
    assert phone.locator("header #signed-in-as").get_attribute("href") == "/games/moving/war-room"
    context = _context(browser, base)  # the GM, on a phone of their own
    page = context.new_page()
    _gm_sign_in(page)
    page.goto("/games/moving")
    assert page.locator("header #sign-in-link").count() == 0
    assert "GM" in page.locator("header #signed-in-as").inner_text()
    context.close()


def test_the_api_docs_lead_back_to_the_site(phone, site):
    """/docs (Swagger UI) had no way back to the site."""
    base, _, _ = site
    phone.goto("/docs")
    back = phone.locator("#site-bar a[href='/']")
    back.wait_for(state="visible")
    phone.wait_for_selector(".swagger-ui .info")  # Swagger UI drawn under it
    box = _box(phone, "#site-bar a[href='/']")
    assert box["y"] < PHONE["height"], "the way back is not on the first screen"
    phone.screenshot(path=str(ARTIFACTS / "phone-api-docs.png"))
    back.tap()
    phone.wait_for_url(f"{base}/")
    assert phone.locator("header.site").count() == 1


def test_the_war_room_map_is_whole_on_a_laptop_screen(laptop, site):
    """At 1366x768 the southern half of the war room's map was below the fold."""
    _, creds, _ = site
    _sign_in(laptop, "moving", creds["moving"]["FRANCE"])
    frame = _box(laptop, "#map")
    assert frame["y"] >= 0 and frame["y"] + frame["height"] <= DESKTOP["height"], frame
    for south in ("NAF", "TUN", "EAS"):  # the board's southern edge
        box = _box(laptop, f'#map path.space[data-province="{south}"]')
        assert box["y"] + box["height"] <= DESKTOP["height"], (south, box)
    assert frame["width"] >= 600, frame  # still a map to play on
    # the orders form stays beside it
    assert _box(laptop, "#orders-card")["y"] < DESKTOP["height"] / 2
    laptop.screenshot(path=str(ARTIFACTS / "desktop-war-room-whole-map.png"))


def test_tied_powers_lines_in_the_centre_chart_stand_at_their_count(laptop):
    """Powers tied at 3 centres were drawn a few pixels apart, so equal counts looked different."""
    laptop.goto("/games/builds/history")
    points = laptop.eval_on_selector_all(
        "svg.chart circle", "cs => cs.map(c => [c.querySelector('title').textContent, c.getAttribute('cy')])")
    heights: dict[str, set[str]] = {}
    for title, cy in points:
        count = title.split(": ", 1)[1]  # "3 in 1901"
        heights.setdefault(count, set()).add(cy)
    assert heights and all(len(ys) == 1 for ys in heights.values()), heights
    assert len(heights.get("3 in 1901", ())) == 1 and len([t for t, _ in points if t.endswith(": 3 in 1901")]) >= 5
    laptop.locator("svg.chart").scroll_into_view_if_needed()
    laptop.screenshot(path=str(ARTIFACTS / "desktop-centre-chart-ties.png"))
