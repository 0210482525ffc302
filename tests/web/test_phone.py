"""Every page on a 375x812 phone and a 1366x768 desktop, in Debian's Chromium through Playwright.

Four games stand in each kind of phase (movement, retreats, adjustments, finished); every
page of each, and the site's other pages, must fit the width of the screen
(document.documentElement.scrollWidth equals the viewport's width). On the phone a player
orders by tapping (a touch context): the unit's tap target is measured (at least 40 px), the
order is drawn on the map as soon as it is picked, and the unit-then-destination flow offers
the support of a move already planned there. Screenshots of every page at both sizes land in
test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from sitetools import ARTIFACTS, chromium, needs_chromium, serving
from webtools import GM_CREDENTIAL, PLAYERS

from gamesmaster.gm import Settings

pytestmark = needs_chromium

SIZES = {"phone": {"width": 375, "height": 812}, "desktop": {"width": 1366, "height": 768}}
GAMES = ("moving", "retreating", "adjusting", "finished")


def _play(gm, game: str, creds: dict[str, str], seasons: list[dict[str, str]]) -> None:
    for orders in seasons:
        for power, text in orders.items():
            gm.orders.submit_orders(game, power, text, credential=creds[power])
        gm.deadlines.process(game, force=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site with four games, one in each kind of phase: (base URL, credentials by game and power)."""
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('phone') / 'gm.db'}")
    gm = Gamesmaster(store)
    creds: dict[str, dict[str, str]] = {}
    for game in GAMES:
        created = gm.setup.create_game(game, title=f"The {game} game", players=list(PLAYERS.values()),
                                 assign={name: power for power, name in PLAYERS.items()},
                                 # the finished game is scored: its page's scores must fit the phone too
                                 settings=Settings.from_dict({"press": "full",
                                                              "scoring": "sos" if game == "finished" else "none"}))
        creds[game] = {created.powers[n]: s for n, s in created.credentials.items()}
    spring = {"FRANCE": "A Par-Bur", "GERMANY": "A Mun-Ruh\nA Ber-Mun", "ENGLAND": "F Lon-Nth"}
    fall = {"GERMANY": "A Ruh-Bur\nA Mun S A Ruh-Bur", "ENGLAND": "F Nth-Nwy"}
    _play(gm, "retreating", creds["retreating"], [spring, fall])
    _play(gm, "adjusting", creds["adjusting"], [spring, fall])
    gm.orders.submit_orders("adjusting", "FRANCE", "A Bur-Pic", credential=creds["adjusting"]["FRANCE"])  # processed early
    _play(gm, "finished", creds["finished"], [spring])
    gm.press.declare_draw("finished", reason="a test")
    gm.orders.submit_orders("moving", "ENGLAND", "F Lon-Nth", credential=creds["moving"]["ENGLAND"])

    live = gm.live.create("live", title="The live game", players=list(PLAYERS.values()),
                          assign={name: power for power, name in PLAYERS.items()})
    creds["live"] = {live.powers[n]: s for n, s in live.credentials.items()}
    assert str(gm.games.game("retreating").phase) == "F1901R"
    assert str(gm.games.game("adjusting").phase) == "W1901A"
    assert gm.games.game("finished").status == "finished"
    with serving(create_app(gm, SiteSecrets.for_testing(GM_CREDENTIAL))) as base:
        yield base, creds
    store.dispose()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _context(browser, base: str, size: str):
    touch = size == "phone"
    context = browser.new_context(viewport=SIZES[size], base_url=base, has_touch=touch, is_mobile=touch,
                                  device_scale_factor=1)
    context.set_default_timeout(20000)
    return context


def _sign_in(page, game: str, credential: str) -> None:
    page.goto(f"/games/{game}/war-room")
    page.fill("#credential", credential)
    page.click("#sign-in button")
    page.wait_for_selector("#orders-card")


def _gm_sign_in(page) -> None:
    page.goto("/gm")
    page.fill("#credential", GM_CREDENTIAL)
    page.click("#gm-sign-in button")
    page.wait_for_selector("#create-form")


def _too_wide(page) -> str | None:
    """None when the page fits its viewport; otherwise the widest elements, to say what spills."""
    width = page.viewport_size["width"]
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll <= width:
        return None
    culprits = page.evaluate("""(w) => Array.from(document.querySelectorAll('body *'))
        .filter(e => e.getBoundingClientRect().right > w + 0.5)
        .slice(0, 6).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""",
                             width)
    return f"{page.url}: {scroll} px wide in {width}: {culprits}"


def _pages(game: str) -> list[str]:
    return [f"/games/{game}", f"/games/{game}/history", f"/games/{game}/history?phase=now", f"/games/{game}/rules",
            f"/games/{game}/record", f"/games/{game}/record/S1901M", f"/games/{game}/table"]


@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_fits_the_screen(browser, site, size):
    base, creds = site
    (ARTIFACTS / "screen").mkdir(parents=True, exist_ok=True)
    context = _context(browser, base, size)
    page = context.new_page()
    spills: list[str] = []
    elsewhere: list[str] = []  # every script, style, image and font comes from the site itself
    page.on("request", lambda req: None if req.url.startswith(base) else elsewhere.append(req.url))

    def visit(url: str | None, name: str) -> None:
        if url is not None:
            page.goto(url)
        page.wait_for_load_state("load")
        problem = _too_wide(page)
        if problem:
            spills.append(problem)
        page.screenshot(path=str(ARTIFACTS / f"{size}-{name}.png"), full_page=True)
        page.screenshot(path=str(ARTIFACTS / "screen" / f"{size}-{name}.png"))  # what fits on one screen

    visit("/", "front")
    visit("/games/nowhere", "error-404")
    visit("/games/moving/record/S1777M", "error-400")
    visit("/docs", "api-docs")
    visit("/games/moving/war-room", "sign-in")
    visit("/gm", "gm-sign-in")
    for game in (*GAMES, "live"):
        for url in _pages(game):
            visit(url, re.sub(r"[^a-z0-9]+", "-", url[len("/games/"):].lower()))
        _sign_in(page, game, creds[game]["FRANCE"])
        visit(None, f"{game}-war-room")
        page.click("form[action$='sign-out'] button")
    _gm_sign_in(page)
    visit(None, "gm-console")
    for game in (*GAMES, "live"):
        visit(f"/gm/games/{game}", f"gm-{game}")
    visit("/games/live/table", "live-table-gm")
    visit("/gm/live", "gm-live")
    page.goto("/games/finished")
    scores = page.locator("#scores")
    assert scores.is_visible() and "Final scores" in scores.inner_text() and "Russia" in scores.inner_text()
    context.close()
    assert not spills, "\n".join(spills)
    assert not elsewhere, elsewhere


def _box(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _wait_for_tap_targets(page, provinces: tuple[str, ...], timeout_ms: float = 10_000) -> None:
    """Wait until the map's units in these provinces are 40 px tap targets, or the bound passes (the caller's
    assertion then says which is not)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        page.wait_for_function(
            """(provinces) => provinces.every(p => {
                 const hit = document.querySelector(`#map g.unit[data-province="${p}"] .hit`);
                 const box = hit && hit.getBoundingClientRect();
                 return box && box.width >= 40 && box.height >= 40; })""", arg=list(provinces), timeout=timeout_ms)
    except PlaywrightTimeout:
        pass


def _tap(page, selector: str) -> None:
    """Tap the middle of an element, scrolling it into view first."""
    page.locator(selector).first.scroll_into_view_if_needed()
    box = _box(page, selector)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_ordering_by_tapping_on_a_phone(browser, site):
    base, creds = site
    context = _context(browser, base, "phone")
    page = context.new_page()
    _sign_in(page, "moving", creds["moving"]["FRANCE"])
    # the map opens at a working zoom: each of one's units is a tap target of 40 px or more (the war room's
    # script zooms once the page has loaded: wait for it, up to a bound, then hold each unit to it)
    _wait_for_tap_targets(page, ("PAR", "MAR", "BRE"))
    for prov in ("PAR", "MAR", "BRE"):
        box = _box(page, f'#map g.unit[data-province="{prov}"] .hit')
        assert box["width"] >= 40 and box["height"] >= 40, (prov, box)
    assert page.evaluate("document.documentElement.scrollWidth") == 375

    _tap(page, '#map g.unit[data-province="PAR"]')
    page.wait_for_selector('#map path.space.picked[data-province="PAR"]')
    _tap(page, '#map path.space[data-province="BUR"]')
    assert page.input_value("#orders").split("\n")[0] == "A PAR - BUR"
    # drawn on the map at once, before anything is sent
    page.wait_for_selector('#map g.order[data-order="A PAR - BUR"]')
    # A Mar then Bur, where A Par is already going: the support is offered first, nothing added yet
    _tap(page, '#map g.unit[data-province="MAR"]')
    _tap(page, '#map path.space[data-province="BUR"]')
    first = page.locator("#hint .candidates button").first
    assert first.inner_text() == "A MAR S A PAR - BUR"
    assert "A MAR - BUR" in page.locator("#hint .candidates").inner_text()
    assert "A MAR" not in page.input_value("#orders")
    _tap(page, "#hint .candidates button >> nth=0")
    assert page.input_value("#orders").split("\n")[:2] == ["A PAR - BUR", "A MAR S A PAR - BUR"]
    page.wait_for_selector('#map g.order[data-order="A MAR S A PAR - BUR"]')
    page.locator("#map").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "phone-tapping.png"))
    # the map pans with a finger and zooms with two (and the mouse wheel does the same)
    before = page.evaluate("document.querySelector('#map .pan').style.transform")
    page.locator("#map").dispatch_event("wheel", {"deltaY": -300, "clientX": 180, "clientY": 300})
    after = page.evaluate("document.querySelector('#map .pan').style.transform")
    assert before != after and re.search(r"scale\(", after)
    page.click("#send-orders")
    page.wait_for_selector(".flash.ok")
    assert page.locator("#on-record .answers li.accepted").count() == 2
    context.close()


def test_pinch_zooms_the_map(browser, site):
    base, creds = site
    context = _context(browser, base, "phone")
    page = context.new_page()
    page.goto("/games/moving")
    scale = "() => new DOMMatrix(getComputedStyle(document.querySelector('#map .pan')).transform).a"
    start = page.evaluate(scale)
    box = _box(page, "#map")
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = context.new_cdp_session(page)

    def touch(kind: str, spread: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 20)
    for spread in (40, 60, 80):
        touch("touchMove", spread)
    touch("touchEnd", 0)
    assert page.evaluate(scale) > start * 2.5
    context.close()
