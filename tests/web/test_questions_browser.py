"""In a real browser, at a phone's width: a player files conditional orders in the war room (and
sends the page's own text back unchanged), asks the gamesmaster a question, and reads the answer
the GM gives from the GM console."""

from __future__ import annotations

import pytest

from sitetools import chromium, needs_chromium, serving
from webtools import GM_CREDENTIAL

pytestmark = needs_chromium

CONDITIONAL = ("A Mun-Bur\nA Ber-Kie\nF Kie-Den\n"
               "next season:\nif A Mun - Bur succeeds: A Bur - Par\notherwise: A Mun H\n"
               "adjustments:\nif Den changes hands: A Ber B\n")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('questions') / 'gm.db'}")
    gm = Gamesmaster(store)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
    powers = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]
    created = gm.setup.create_game("ask", title="Questions", players=names, assign=dict(zip(names, powers)))
    creds = {p: created.credentials[n] for n, p in zip(names, powers)}
    with serving(create_app(gm, SiteSecrets.for_testing(GM_CREDENTIAL))) as base:
        yield base, gm, creds
    store.dispose()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def phone(browser, base: str):
    page = browser.new_context(viewport={"width": 375, "height": 800}, base_url=base).new_page()
    page.set_default_timeout(20000)
    return page


def test_conditional_orders_and_a_question_in_the_war_room(browser, site):
    base, gm, creds = site
    page = phone(browser, base)
    page.goto("/games/ask/war-room")
    page.fill("#credential", creds["GERMANY"])
    page.click("#sign-in button")
    page.wait_for_selector("#orders")
    page.fill("#orders", CONDITIONAL)
    page.wait_for_selector("#live-answers li")
    page.click("#send-orders")
    page.wait_for_selector(".flash.ok")
    assert "Fall 1901 movement, if A Mun - Bur succeeds: A Bur - Par" in page.inner_text("#on-record")
    # The page gives the set back as it is on record; sent again unchanged, it is taken again.
    page.goto("/games/ask/war-room")
    text = page.input_value("#orders")
    assert text.count("next season:") == 1 and "adjustments:" in text
    page.click("#send-orders")
    page.wait_for_selector(".flash.ok")
    assert [r.receipt.number for r in gm.orders.orders_on_record("ask", "GERMANY", by_gm=True)] == [2]
    # A question to the GM: private between them.
    page.fill("#question-text", "Can my fleet in Kiel reach Holland in one move?")
    page.click("#question-form button[type=submit]")
    page.wait_for_selector(".flash.ok")
    assert "Question 1 is with the gamesmaster" in page.inner_text(".flash.ok")
    assert "Not answered yet" in page.inner_text("#questions")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # usable on a phone
    # The GM answers it from the console, for everyone.
    console = phone(browser, base)
    console.goto("/gm")
    console.fill("#credential", GM_CREDENTIAL)
    console.click("#gm-sign-in button")
    console.goto("/gm/games/ask")
    assert "Can my fleet in Kiel reach Holland" in console.inner_text("#questions")
    console.fill("#questions textarea[name=text]", "Yes: Kiel and Holland are adjacent.")
    console.check("#questions input[name=public]")
    console.click("#questions button[type=submit]")
    console.wait_for_selector(".flash.ok")
    assert "Question 1 answered for everyone" in console.inner_text(".flash.ok")
    page.goto("/games/ask/war-room")
    assert "Answer (to everyone):" in page.inner_text("#questions")
    assert "Kiel and Holland are adjacent" in page.inner_text("#questions")
    # Another power sees the public answer in the press, not the question's asker.
    other = phone(browser, base)
    other.goto("/games/ask/war-room")
    other.fill("#credential", creds["FRANCE"])
    other.click("#sign-in button")
    other.wait_for_selector("#orders")
    press = other.inner_text("#press ul.press")
    assert "Kiel and Holland are adjacent" in press and "Can my fleet" in press and "Germany" not in press
    assert not gm.questions.questions("ask", "FRANCE", credential=creds["FRANCE"])
    assert gm.record.verify("ask").ok
