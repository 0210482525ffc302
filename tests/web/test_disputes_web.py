"""A player disputes, from the receipt check on the site and through the API (real HTTP), a later set in its
power's name that it did not send: the dispute is on the record for the GM and everyone to see."""

from __future__ import annotations

import re

import httpx

from sitetools import open_site, serving
from webtools import GM_CREDENTIAL, bearer

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
ASSIGN = dict(zip(NAMES, ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]))


def _game(gm, game: str) -> tuple[dict[str, str], str]:
    """France sends a set, the GM enters a second in France's name, the phase is published: France's
    credentials and its receipt."""
    c = gm.setup.create_game(game, players=NAMES, assign=ASSIGN)
    cred = {ASSIGN[n]: c.credentials[n] for n in NAMES}
    first = gm.orders.submit_orders(game, "FRANCE", "A Par-Bur", credential=cred["FRANCE"])
    gm.orders.submit_orders(game, "FRANCE", "A Par-Pic", by_gm=True, channel="in-person")
    gm.deadlines.process(game, force=True)
    return cred, str(first.receipt)


def _csrf(client: httpx.Client, url: str) -> str:
    m = re.search(r'name="csrf-token" content="([^"]+)"', client.get(url).text)
    assert m
    return m.group(1)


def test_a_player_disputes_a_later_set_from_the_receipt_check_on_the_site(tmp_path, clock):
    gm, app, _ = open_site(tmp_path, clock, GM_CREDENTIAL)
    cred, receipt = _game(gm, "dis")
    with serving(app) as base, httpx.Client(base_url=base, follow_redirects=True) as browser:
        # signed out, the check says what happened and offers nothing more
        page = browser.get("/games/dis/receipt", params={"r": receipt}).text
        assert "it was replaced by set #2" in page and 'id="dispute"' not in page
        r = browser.post("/games/dis/sign-in", data={"credential": cred["FRANCE"],
                                                     "csrf_token": _csrf(browser, "/games/dis/war-room")})
        assert r.status_code == 200
        page = browser.get("/games/dis/receipt", params={"r": receipt}).text
        assert 'id="dispute"' in page
        r = browser.post("/games/dis/dispute", data={"receipt": receipt, "text": "not mine",
                                                     "csrf_token": _csrf(browser, "/games/dis/record")})
        assert r.status_code == 200
        assert "Your dispute of France" in r.text and "is on the record" in r.text, r.text[-2000:]
        # checked again, the receipt says the set is disputed, and no longer offers to dispute it
        page = browser.get("/games/dis/receipt", params={"r": receipt}).text
        assert "set #2 is disputed on the record (entry" in page and 'id="dispute"' not in page
        # everyone sees it in the press, anyone may read it there
        press = httpx.get(f"{base}/api/games/dis/press").json()
        assert any("disputes set #2" in json_text for json_text in (p["text"] for p in press)), press
    report = gm.record.verify("dis")
    assert report.ok and any("France's player disputes set #2 of S1901M" in n for n in report.notes), report


def test_a_player_disputes_a_later_set_through_the_api(tmp_path, clock):
    gm, app, _ = open_site(tmp_path, clock, GM_CREDENTIAL)
    cred, receipt = _game(gm, "dis")
    with serving(app) as base:
        check = httpx.get(f"{base}/api/games/dis/receipt", params={"r": receipt}).json()
        assert check["status"] == "replaced"
        r = httpx.post(f"{base}/api/games/dis/disputes", json={"receipt": receipt, "text": "not mine"},
                       headers=bearer(cred["ENGLAND"]))
        assert r.status_code == 403, r.text
        r = httpx.post(f"{base}/api/games/dis/disputes", json={"receipt": receipt}, headers=bearer(GM_CREDENTIAL))
        assert r.status_code == 403, r.text
        r = httpx.post(f"{base}/api/games/dis/disputes", json={"receipt": receipt, "text": "not mine"},
                       headers=bearer(cred["FRANCE"]))
        assert r.status_code == 200, r.text
        assert r.json() == {"seq": r.json()["seq"], "phase": "S1901M", "power": "FRANCE", "number": 2,
                            "text": "not mine"}
        again = httpx.post(f"{base}/api/games/dis/disputes", json={"receipt": receipt}, headers=bearer(cred["FRANCE"]))
        assert again.status_code == 400 and "disputed already" in again.text, again.text
    report = gm.record.verify("dis")
    assert report.ok and any("France's player disputes set #2 of S1901M" in n for n in report.notes), report
