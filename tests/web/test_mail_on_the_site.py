"""Issue 22 on the site, in Debian's Chromium at 375x812: the war room says where orders may be mailed, and
the GM console shows the questions waiting for an answer and the mail that was not delivered, all within a
phone's width."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sitetools import chromium, needs_chromium, open_site, serving
from webtools import GM_CREDENTIAL

from gamesmaster.mail.config import MailConfig
from gamesmaster.mail.outbox import compose, queue
from gamesmaster.store.testing import FakeClock

pytestmark = needs_chromium
PHONE = {"width": 375, "height": 812}


def _fits(page) -> None:  # noqa: ANN001
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url


def test_the_war_room_names_the_mail_address_and_the_console_what_waits(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMESMASTER_MAIL_ADDRESS", "gm@club.example")
    clock = FakeClock()
    gm, app, store = open_site(tmp_path, clock, GM_CREDENTIAL)
    try:
        created = gm.setup.create_game("club", title="Club game", players=["Ann", "Bob"],
                                 assign={"Ann": "ENGLAND", "Bob": "FRANCE"})
        gm.questions.ask("club", "May I build in Liverpool?", credential=created.credentials["Ann"], channel="web")
        config = MailConfig(address="gm@club.example")
        with gm.mailroom.open() as books:  # a results mail the relay would not take
            msg = compose(config, ["a-very-long-address.of.a.player@some-long-domain.example.org"],
                          "club: results of Spring 1901 movement", "...", now=clock(), game="club")
            mail = queue(books, config, msg, kind="results", now=clock(), game="club")
            books.retry_later(mail, 1, "ConnectionRefusedError: [Errno 111] Connection refused",
                              clock() + timedelta(minutes=1))
        with serving(app) as base, chromium() as browser:
            context = browser.new_context(viewport=PHONE, base_url=base, has_touch=True, is_mobile=True)
            context.set_default_timeout(20000)
            page = context.new_page()
            page.goto("/games/club/war-room")
            page.fill("#credential", created.credentials["Ann"])
            page.click("#sign-in button")
            line = page.wait_for_selector("#orders-by-mail")
            assert "gm+club@club.example" in line.inner_text()
            assert "SIGNON club England YOUR-CREDENTIAL" in line.inner_text()
            _fits(page)
            page.goto("/gm")
            page.fill("#credential", GM_CREDENTIAL)
            page.click("#gm-sign-in button")
            card = page.wait_for_selector("#undelivered-mail")
            text = card.inner_text()
            assert "Mail is not going out" in text and "Connection refused" in text
            assert "club: results of Spring 1901 movement" in text
            assert page.inner_text("a[href='/gm/games/club#questions']") == "1 unanswered"
            _fits(page)
    finally:
        store.dispose()
