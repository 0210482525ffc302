"""A live club evening in a real browser (Debian's Chromium, headless, through Playwright): seven players
on seven pages, the table view on an eighth and the GM's table on a ninth; diplomacy ended early by
agreement, one slip typed in by the GM, the writing period running out with Turkey missing (its units
hold), the read-out stepped through at the GM's click, and the table updating without a reload.

The server runs on a fake clock that the test moves on. A screenshot of the table is saved in
test-artifacts/live-table.png.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from livetools import LIVE_GM_CREDENTIAL, LIVE_NAMES, LIVE_POWERS
from sitetools import ARTIFACTS, chromium, needs_chromium, serving

pytestmark = needs_chromium

BY_PHONE = {
    "AUSTRIA": "A Vie-Tri\nA Bud-Ser\nF Tri-Alb",
    "ENGLAND": "F Lon.--North Sea\nA Liv.--Yor.\nF Edi.--Norw. Sea",
    "FRANCE": "A Par-Bur\nA Mar-Spa\nF Bre-Mid",
    "GERMANY": "A Ber-Kie\nA Mun-Ruh\nF Kie-Den",
    "RUSSIA": "A Mos-Ukr\nA War-Gal\nF Sev-Bla\nF StP/sc-Bot",
}
SLIP = ("ITALY", "A Ven.--Pie.\nA Rom.--Ven.\nF Nap.--Ion.")  # handed to the GM on paper
# TURKEY hands in nothing: its units hold


@pytest.fixture
def live_site(tmp_path):
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.store.testing import FakeClock
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    clock = FakeClock(datetime(2030, 5, 6, 19, 0, tzinfo=timezone.utc))
    store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
    gm = Gamesmaster(store, clock=clock)
    with serving(create_app(gm, SiteSecrets.for_testing(LIVE_GM_CREDENTIAL)), timeout_graceful_shutdown=1) as base:
        yield base, gm, clock
    store.dispose()


@pytest.fixture
def browser():
    with chromium() as b:
        yield b


def test_a_live_club_evening(live_site, browser):

    base, gm, clock = live_site
    created = gm.live.create("club", title="Club night", players=LIVE_NAMES,
                                   assign=dict(zip(LIVE_NAMES, LIVE_POWERS)))
    creds = {created.powers[n]: c for n, c in created.credentials.items()}
    contexts = []

    def page(width: int = 1280, height: int = 900):
        ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=base)
        contexts.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(15000)
        return pg

    try:
        # the table view on the screen in the room (public), and the GM's own table
        table = page(1600, 1000)
        table.goto("/games/club/table")
        table.wait_for_function("document.getElementById('clock').textContent.startsWith('30:00')")
        table.evaluate("window.__sameLoad = 'yes'")  # gone if the page ever reloads
        gm_page = page()
        gm_page.goto("/gm")
        gm_page.fill("#credential", LIVE_GM_CREDENTIAL)
        gm_page.click("#gm-sign-in button")
        gm_page.goto("/games/club/table")
        gm_page.wait_for_selector("#end-period")

        # seven players on seven phones, in their war rooms; each agrees to end diplomacy
        players = {}
        for power in LIVE_POWERS:
            pg = page(420, 860)
            pg.goto("/games/club/war-room")
            pg.fill("#credential", creds[power])
            pg.click("#sign-in button")
            pg.wait_for_selector("#live-agree:not([hidden])")
            players[power] = pg
        for i, power in enumerate(LIVE_POWERS):
            players[power].click("#live-agree button")
            if i < len(LIVE_POWERS) - 1:
                players[power].wait_for_selector("#live-disagree:not([hidden])")
                table.wait_for_selector(f"#handed-in tr[data-power={power}] .agreed:text('agrees')")
        # all agree: diplomacy ends early, without a reload of the table
        table.wait_for_selector("#live-head[data-period=writing]")
        table.wait_for_function("document.getElementById('clock').textContent.startsWith('5:00')")
        assert table.evaluate("window.__sameLoad") == "yes"
        players["FRANCE"].wait_for_selector("#live-agree[hidden]", state="attached")

        # orders by phone; one slip on paper typed in by the GM; Turkey hands in nothing
        for power, text in BY_PHONE.items():
            pg = players[power]
            pg.goto("/games/club/war-room")
            pg.fill("#orders", text)
            pg.click("#send-orders")
            pg.wait_for_selector(".flash.ok")
        gm_page.click("#slip summary")
        gm_page.select_option("#slip-power", SLIP[0])
        gm_page.fill("#slip-orders", SLIP[1])
        gm_page.click("#slip-send")
        gm_page.wait_for_selector(".flash.ok")
        for power in list(BY_PHONE) + [SLIP[0]]:
            table.wait_for_selector(f"#handed-in tr[data-power={power}].in")
        assert table.locator("#handed-in tr[data-power=TURKEY].out").count() == 1
        assert "Par-Bur" not in table.content()  # who has handed in, never what
        ARTIFACTS.mkdir(exist_ok=True)
        table.screenshot(path=str(ARTIFACTS / "live-table-writing.png"))

        # the writing period runs out: processed with the orders on record, the read-out begins
        clock.advance(minutes=5, seconds=1)
        table.wait_for_selector("#readout[data-stage=orders]")
        text = table.inner_text("#readout")
        assert "A Ven.--Pie." in text and "A Par-Bur" in text
        assert "on paper" in table.inner_text("#readout .ro-power[data-power=ITALY]")
        assert "by phone" in table.inner_text("#readout .ro-power[data-power=FRANCE]")
        assert "its units hold" in table.inner_text("#readout .ro-power[data-power=TURKEY]")
        assert table.evaluate("window.__sameLoad") == "yes"

        # the GM steps through: each power's results, then the position after
        gm_page.goto("/games/club/table")
        steps = gm.games.game("club").live.state.steps
        assert steps == 9
        for step in range(1, steps):
            gm_page.click("#next-step")
            table.wait_for_selector(f"#readout[data-step='{step}']")
            if 1 <= step <= 7:
                power = LIVE_POWERS[step - 1]
                assert table.locator(f"#readout .ro-power.current[data-power={power}]").count() == 1
                if power == "TURKEY":
                    turkey = table.inner_text("#readout .ro-power[data-power=TURKEY]")
                    assert "civil disorder" in turkey and "holds" in turkey  # its units held
        assert table.locator("#readout[data-stage=after]").count() == 1
        ARTIFACTS.mkdir(exist_ok=True)
        table.screenshot(path=str(ARTIFACTS / "live-table.png"), full_page=True)
        gm_page.click("#next-step")
        table.wait_for_selector("#live-head[data-period=diplomacy][data-phase=F1901M]")
        table.wait_for_function("document.getElementById('clock').textContent.startsWith('15:00')")
        assert table.evaluate("window.__sameLoad") == "yes"
        france = gm.games.results("club")[0]
        assert {r.power for r in france.results if r.result == "succeeds"} >= {"FRANCE", "ITALY"}
    finally:
        for ctx in contexts:
            ctx.close()
