"""What the site keeps secret, over real HTTP: each power's draw vote (unless the game's votes are open), and
conditional orders filed for later phases."""

from __future__ import annotations

import json

import httpx
import pytest
from sitetools import plain, post, serving
from webtools import GM, GM_CREDENTIAL, bearer

from gamesmaster.gm.record import verify_archive

NAMES = {"AUSTRIA": "Ann", "ENGLAND": "Bob", "FRANCE": "Cat", "GERMANY": "Dan", "ITALY": "Eve", "RUSSIA": "Fay",
         "TURKEY": "Gus"}


@pytest.fixture
def site(app):
    """The site served on a loopback socket: an HTTP client on it."""
    with serving(app) as base, httpx.Client(base_url=base, timeout=30) as http:
        yield http


def create(http: httpx.Client, gid: str, **settings: str) -> dict[str, str]:
    """A seven-player game made through the API; power -> credential."""
    r = http.post("/api/games", json={"id": gid, "players": list(NAMES.values()),
                                      "assign": {n: p for p, n in NAMES.items()}, "settings": settings}, headers=GM)
    assert r.status_code == 201, r.text
    names = r.json()["credentials"]
    return {p: names[n] for p, n in NAMES.items()}


def vote_down(http: httpx.Client, gid: str, cred: dict[str, str]) -> int:
    """France proposes a draw, England votes yes, Germany no; returns the proposal."""
    r = http.post(f"/api/games/{gid}/proposals", json={"kind": "draw"}, headers=bearer(cred["FRANCE"]))
    pid = r.json()["id"]
    assert http.post(f"/api/games/{gid}/proposals/{pid}/votes", json={"yes": True},
                     headers=bearer(cred["ENGLAND"])).json()["status"] == "open"
    return pid


def test_secret_votes_are_on_no_public_door(site):
    """Votes are secret by default: the proposals list counts them, the record and its download hide them,
    before and after the vote is decided; the rules page says so."""
    cred = create(site, "hush")
    assert site.get("/api/games/hush").json()["settings"]["votes"] == "secret"
    pid = vote_down(site, "hush", cred)
    [p] = site.get("/api/games/hush/proposals").json()
    assert p["votes_cast"] == 2 and p["votes"] is None
    site.post(f"/api/games/hush/proposals/{pid}/votes", json={"yes": False}, headers=bearer(cred["GERMANY"]))
    assert site.post("/api/games/hush/process", headers=GM).status_code == 200
    for url in ("/games/hush/record.json", "/api/games/hush/record"):
        doc = site.get(url).json()
        votes = [e for e in doc["entries"] if e["kind"] == "draw-vote"]
        assert len(votes) == 2 and all("payload" not in e for e in votes), url
        assert verify_archive(doc).ok
    page = plain(site.get("/games/hush/record"))
    assert "GERMANY votes" not in page and "Germany votes" not in page
    assert "Votes are secret" in plain(site.get("/games/hush/rules"))


def test_open_votes_show_who_voted_how(site):
    """A game created with open votes shows each power's vote in the proposals list and on the record."""
    cred = create(site, "loud", votes="open")
    assert site.get("/api/games/loud").json()["settings"]["votes"] == "open"
    vote_down(site, "loud", cred)
    [p] = site.get("/api/games/loud/proposals").json()
    assert p["votes"] == {"FRANCE": True, "ENGLAND": True}
    assert site.post("/api/games/loud/process", headers=GM).status_code == 200
    doc = site.get("/games/loud/record.json").json()
    assert [json.loads(e["payload"])["power"] for e in doc["entries"] if e["kind"] == "draw-vote"] == ["ENGLAND"]
    assert "Votes are open" in plain(site.get("/games/loud/rules"))


def test_the_create_form_and_the_api_choose_the_votes(site):
    """The GM console's form offers secret or open votes; the API refuses another word, naming the setting."""
    post(site, "/gm/sign-in", {"credential": GM_CREDENTIAL}, "/gm")
    assert 'name="votes"' in site.get("/gm").text
    r = post(site, "/gm/games", {"id": "formed", "players": "Ann, Bob", "votes": "open", "start": "1"}, "/gm")
    assert r.status_code == 200 and "Game formed created" in plain(r)
    assert site.get("/api/games/formed").json()["settings"]["votes"] == "open"
    r = site.post("/api/games", json={"id": "odd", "settings": {"votes": "whispered"}}, headers=GM)
    assert r.status_code == 422 and "votes" in r.text


PLAN = "A Mun-Bur\nnext season:\nif A Mun - Bur succeeds:\nA Bur - Par\notherwise:\nA Mun H\n"


def record_docs(http: httpx.Client, gid: str) -> list[dict]:
    """The public record as the API and the download give it."""
    return [http.get(url).json() for url in (f"/api/games/{gid}/record", f"/games/{gid}/record.json")]


def test_a_plan_for_the_next_season_is_sealed_on_the_site_until_that_season_is_published(site):
    """Germany's plan for Fall 1901, sent with its Spring orders, is on no public page nor download while Fall is
    open (its Spring orders are); the downloads verify with its receipt; once Fall is published the plan is shown."""
    cred = create(site, "plans")
    r = site.post("/api/games/plans/powers/germany/orders", json={"orders": PLAN}, headers=bearer(cred["GERMANY"]))
    assert r.status_code == 200, r.text
    receipt = r.json()["receipt"]
    assert site.post("/api/games/plans/process", headers=GM).status_code == 200
    pages = [site.get("/games/plans/record/S1901M").text, site.get("/api/games/plans/record/S1901M").text]
    for doc in record_docs(site, "plans"):
        text = json.dumps(doc)
        assert "A MUN - BUR" in text and "Bur - Par" not in text and "succeeds:" not in text
        report = verify_archive(doc, receipts=[receipt])
        assert report.ok and report.receipts_checked == 1, report.problems
    assert all("Bur - Par" not in page for page in pages)
    assert site.get("/api/games/plans/receipt", params={"r": receipt}).json()["status"] == "used"
    assert site.post("/api/games/plans/process", headers=GM).status_code == 200
    for doc in record_docs(site, "plans"):
        assert "if A Mun - Bur succeeds" in json.dumps(doc)
        report = verify_archive(doc, receipts=[receipt])
        assert report.ok and not report.notes, (report.problems, report.notes)
