"""A new player in a real browser (Debian's Chromium through Playwright), on a 375x812 phone and on a
1366x768 desktop: signs up, signs in by the link mailed through the site's own mail door to a real
SMTP catcher on loopback, joins an open game, orders, gets the results mail with the map, and sees
the notification on the site without reloading the page.

Screenshots of the account pages at both sizes are saved in test-artifacts/.
"""

from __future__ import annotations

import re

import httpx
import pytest
from mailhelp import Sink
from sitetools import ARTIFACTS, chromium, needs_chromium, serving
from webtools import GM_CREDENTIAL, bearer

from gamesmaster.gm import Gamesmaster
from gamesmaster.mail.config import MailConfig
from gamesmaster.mail.server import start
from gamesmaster.store import Store
from gamesmaster.web.app import create_app
from gamesmaster.web.security import SiteSecrets

pytestmark = needs_chromium

SIZES = {"phone": (375, 812), "desktop": (1366, 768)}
LINK = re.compile(r"(https?://\S+/account/link\?t=l\.[A-Za-z0-9_-]{43})")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The site and its mail door on one gamesmaster (the real clock), the relay a sink on loopback."""
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('accounts') / 'gm.db'}")
    gm = Gamesmaster(store)
    app = create_app(gm, SiteSecrets.for_testing(GM_CREDENTIAL))
    app.state.poll_seconds = 1  # the badge asks every second here (20 on a real site)
    sink = Sink()
    with serving(app) as base:
        app.state.site_url = base
        config = MailConfig(address="gm@diplomacy.test", relay_host="127.0.0.1", relay_port=sink.port,
                            interval=0.2, retry_base=1.0, maps=True, site_url=base)
        mail = start(gm, "127.0.0.1", 0, config=config)
        try:
            yield {"gm": gm, "app": app, "sink": sink, "base": base}
        finally:
            mail.stop()
            sink.stop()
    store.dispose()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _fits(page, what: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.evaluate("window.innerWidth")
    assert width <= viewport, f"{what} is {width} px wide on a {viewport} px screen"


def _shot(page, name: str, size: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"account-{name}-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_new_player_signs_up_joins_orders_and_is_told_of_the_results(world, browser, size):
    gm, sink, base = world["gm"], world["sink"], world["base"]
    game, address, name = f"open-{size}", f"newcomer-{size}@players.test", f"Newcomer {size}"
    width, height = SIZES[size]

    # The GM has a game forming with six players and opens it to players with accounts.
    gm.setup.create_game(game, title=f"Seeking a seventh ({size})", players=["Bob", "Cat", "Dan", "Eve", "Fay", "Gus"],
                   start=False)
    gm_page = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=base).new_page()
    gm_page.set_default_timeout(20000)
    gm_page.goto("/gm")
    gm_page.fill("#credential", GM_CREDENTIAL)
    gm_page.click("#gm-sign-in button")
    gm_page.goto(f"/gm/games/{game}")
    gm_page.select_option("#seats-how", "lot")
    gm_page.click("#seats-open")
    gm_page.wait_for_selector("text=is open to players with accounts")

    context = browser.new_context(viewport={"width": width, "height": height}, base_url=base,
                                  has_touch=size == "phone", is_mobile=size == "phone")
    page = context.new_page()
    page.set_default_timeout(20000)
    # From the front page: sign up with an e-mail address and a name.
    page.goto("/")
    page.click("#sign-in-link")
    _fits(page, "the sign-in page")
    _shot(page, "sign-in", size)
    page.fill("#su-email", address)
    page.fill("#su-name", name)
    page.click("#sign-up button")
    # on a site that has delivered no mail yet the link is said to be queued, not on its way (docs/mail.md)
    page.wait_for_selector(f"text=/A sign-in link (is on its way to|for) {re.escape(address)}/")

    # The link comes through the site's own outgoing mail to the SMTP catcher; opening it signs in.
    mail = sink.wait(address, "Your sign-in link")[0]
    link = LINK.search(mail.text).group(1)
    assert link.startswith(base)
    page.goto(link)
    _fits(page, "the link's page")
    page.click("#use-link button")
    page.wait_for_selector(f"text=Signed in as {name}")
    _fits(page, "my games")
    _shot(page, "my-games-empty", size)

    # The list of games seeking players; join.
    page.click("#find-games")
    page.wait_for_selector(f"#{game}")
    _fits(page, "the games seeking players")
    _shot(page, "open-games", size)
    page.click(f"#{game} .join-form button")
    page.wait_for_selector(f"text=You have joined {game}")
    page.wait_for_selector("text=the game has begun")
    _fits(page, "the joined page")
    st = gm.games.game(game)
    power = next(s for s in st.seats if s.name == name).power
    page.goto("/account")
    page.wait_for_selector(f"text=orders due for {power.capitalize()}")
    _shot(page, "my-games", size)

    # To the war room, and order (every unit holds, written as players write it).
    page.click(f"#game-{game} h2 a")
    page.wait_for_selector("#orders")
    units = st.position.to_dict()["units"][power]
    page.fill("#orders", "\n".join(f"{u} H" for u in units))
    page.click("#orders-form button[type=submit]")
    page.wait_for_selector(f"text={len(units)} accepted")

    # The badge counts what is unread now (the GM's notice that the game began); the page stays open.
    page.goto("/account")
    before = int(page.inner_text("#unread"))
    # The GM processes the season through the API; the results come by mail with the map ...
    r = httpx.post(f"{base}/api/games/{game}/process", headers=bearer(GM_CREDENTIAL), json={}, timeout=60)
    assert r.status_code == 200, r.text
    results = sink.wait(address, f"{game}: results of Spring 1901", timeout=60)[0]
    assert [a[1] for a in results.attachments] == ["image/png", "image/png"]
    assert results.attachments[0][2].startswith(b"\x89PNG")
    assert "results of Spring 1901" in results.text and f"{base}/games/{game}/history" in results.text
    # ... and the page open all along shows the new notification without a reload.
    page.wait_for_function(f"+document.getElementById('unread').textContent > {before}", timeout=30000)
    _shot(page, "badge", size)
    page.click("#notices-link")
    page.wait_for_selector(f"text={game}: results of Spring 1901")
    _fits(page, "the notifications")
    _shot(page, "notifications", size)
    assert gm.record.verify(game).problems == ()
    context.close()
    gm_page.context.close()


def test_a_player_adds_a_second_browser_with_the_seats_credential(world, browser):
    """Signed in by password on another device, the war room says at once that this browser cannot act yet
    and takes the seat's credential there; then the orders go through (docs/web.md, "Another device")."""
    gm, sink, base = world["gm"], world["sink"], world["base"]
    game, address, name = "second-device", "two-devices@players.test", "Twodevice"
    gm.setup.create_game(game, title="A player with two devices", players=["Bob", "Cat", "Dan", "Eve", "Fay", "Gus"],
                   start=False)
    gm.joining.open_seats(game, True, "lot")

    # The first device: sign up by the mailed link, join, note the credential, set a password.
    first = browser.new_context(viewport={"width": 375, "height": 812}, base_url=base).new_page()
    first.set_default_timeout(20000)
    first.goto("/account")
    first.fill("#su-email", address)
    first.fill("#su-name", name)
    first.click("#sign-up button")
    first.goto(LINK.search(sink.wait(address, "Your sign-in link")[0].text).group(1))
    first.click("#use-link button")
    first.wait_for_selector(f"text=Signed in as {name}")
    first.goto("/games/open")
    first.click(f"#{game} .join-form button")
    credential = first.inner_text("#seat-credential").strip()
    assert "another browser" in first.inner_text("main")  # the joined page says what the credential is for
    first.goto("/account")
    first.fill("#acct-password", "a password of ten or more")
    first.click("#password-form button")
    first.wait_for_selector("text=Remove the password")

    # The second device, a browser of its own: signed in by the password, it sees the seat in its games ...
    page = browser.new_context(viewport={"width": 375, "height": 812}, base_url=base).new_page()
    page.set_default_timeout(20000)
    page.goto("/account")
    page.click("#sign-in-card summary")
    page.fill("#pw-email", address)
    page.fill("#pw-password", "a password of ten or more")
    page.click("#password-sign-in button")
    page.wait_for_selector(f"text=Signed in as {name}")
    assert "this browser cannot act here yet" in page.inner_text(f"#game-{game}")
    first.reload()  # the first browser, keyed when it joined, is told nothing of the kind
    assert "cannot act" not in first.inner_text(f"#game-{game}")
    page.click(f"#game-{game} h2 a")
    # ... and its war room says, before anything is typed, how to add this browser, and where the credential is.
    card = page.wait_for_selector("#add-device")
    assert "shown when you took the seat" in card.inner_text()
    _fits(page, "the war room's add-this-browser card")
    _shot(page, "add-device", "phone")
    page.fill("#add-device-credential", credential)
    page.click("#add-device-form button")
    page.wait_for_selector(f"text=Signed in as {name}")
    assert page.locator("#add-device").count() == 0
    power = next(s for s in gm.games.game(game).seats if s.name == name).power
    units = gm.games.game(game).position.to_dict()["units"][power]
    page.fill("#orders", "\n".join(f"{u} H" for u in units))
    page.click("#orders-form button[type=submit]")
    page.wait_for_selector(f"text={len(units)} accepted")
    assert gm.record.verify(game).problems == ()
    page.context.close()
    first.context.close()
