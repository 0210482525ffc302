"""The site under hostile input and hostile crowds: a clear 4xx naming what is wrong and nothing stored,
sessions that a copied cookie cannot outlive, and no lockout of the rightful player or GM."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from sitetools import plain

from gamesmaster.gm import Gamesmaster
from gamesmaster.web.app import create_app
from gamesmaster.web.security import SignInLimits, SiteSecrets

from .conftest import GM_CREDENTIAL
from .test_doors import bearer, csrf

GM = bearer(GM_CREDENTIAL)
ROUTES = [("GET", "/api/games/club/me"), ("GET", "/api/games/club/powers/france/orders"),
          ("POST", "/api/games/club/powers/france/orders"), ("POST", "/api/games/club/powers/france/check"),
          ("GET", "/api/games/club/powers/france/options"), ("POST", "/api/games/club/powers/france/ready"),
          ("POST", "/api/games/club/press"), ("POST", "/api/games/club/proposals"),
          ("GET", "/api/games/club/receipt?r=club/S1901M/FRANCE/1:" + "a" * 64), ("POST", "/api/games/club/extend"),
          ("GET", "/api/games/club/verify")]
BODIES = {"/orders": {"orders": "A Par H"}, "/check": {"orders": "A Par H"}, "/ready": {"ready": True},
          "/press": {"text": "hi"}, "/proposals": {}, "/extend": {"hours": 1}}


def call(client, method: str, path: str, headers: dict) -> object:
    body = next((b for k, b in BODIES.items() if path.endswith(k)), None)
    raw = {k: v.encode() for k, v in headers.items()}  # a hostile client sends any bytes, not only ASCII
    return client.request(method, path, json=body if method == "POST" else None, headers=raw)


@pytest.mark.parametrize("credential", ["².abcdefghijk", "1².abcdefghijk", "1." + "a" * 5000, "9" * 5000,
                                        "1.abc\u00e9defghij", "s." + "x" * 500])
def test_a_credential_that_is_not_one_is_a_4xx_on_every_credentialed_route(client, game, credential):
    for method, path in ROUTES:
        r = call(client, method, path, bearer(credential))
        assert 400 <= r.status_code < 500, (method, path, r.status_code, r.text)
        assert "detail" in r.json()
    token = csrf(client, "/games/club/war-room")
    r = client.post("/games/club/sign-in", data={"credential": credential[:20000], "csrf_token": token})
    assert 200 <= r.status_code < 500 and "not valid" in r.text


def test_a_lone_surrogate_or_a_nul_is_refused_with_the_reason_and_nothing_is_stored(client, game, site_gm):
    before = site_gm.orders.orders_on_record("club", "FRANCE", by_gm=True)
    for text in ("A Par-Bur\ud800", "A Par-Bur\x00", "A Par-Bur\x07"):
        body = json.dumps({"orders": text}).encode()  # json.dumps writes the surrogate as \\ud800
        for path in ("/api/games/club/powers/france/orders", "/api/games/club/powers/france/check"):
            r = client.post(path, content=body, headers={**bearer(game["FRANCE"]), "content-type": "application/json"})
            assert r.status_code == 400 and "position 10" in r.json()["detail"], r.text
        r = client.post("/api/games/club/press", content=json.dumps({"text": text}).encode(),
                        headers={**bearer(game["FRANCE"]), "content-type": "application/json"})
        assert r.status_code in (400, 422), r.text
    assert site_gm.orders.orders_on_record("club", "FRANCE", by_gm=True) == before
    r = client.post("/api/games", json={"id": "long", "title": "x" * 201}, headers=GM)
    assert r.status_code == 400 and "at most 200" in r.json()["detail"]
    r = client.post("/api/games", json={"id": "long", "players": ["y" * 201]}, headers=GM)
    assert r.status_code == 400 and "at most 200" in r.json()["detail"]


def test_huge_bodies_and_order_sets_are_refused_at_once(client, game, site_gm):
    before = site_gm.orders.orders_on_record("club", "FRANCE", by_gm=True)
    huge = json.dumps({"orders": "A Par H\n" * 800_000}).encode()  # 6 MB
    r = client.post("/api/games/club/powers/france/orders", content=huge,
                    headers={**bearer(game["FRANCE"]), "content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.text
    chunks = (b'{"orders": "' + b"A Par H\\n" * 10_000 for _ in range(100))  # no Content-Length: streamed
    r = client.post("/api/games/club/powers/france/orders", content=chunks,
                    headers={**bearer(game["FRANCE"]), "content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.text
    r = client.post("/api/games/club/powers/france/orders", json={"orders": "A Par H\n" * 301},
                    headers=bearer(game["FRANCE"]))
    assert r.status_code == 400 and "too many lines: at most 300" in r.json()["detail"]
    assert site_gm.orders.orders_on_record("club", "FRANCE", by_gm=True) == before


def test_maps_are_drawn_once_bounded_in_width_and_tagged(client, game, monkeypatch):
    from gamesmaster.web import site
    drawn = []
    real = site._RASTERISER.png  # the drawing process's work, as asked of it
    monkeypatch.setattr(site._RASTERISER, "png", lambda svg, width: drawn.append(width) or real(svg, width))
    r = client.get("/api/games/club/map.png?width=4000")
    assert r.status_code == 422
    first = client.get("/api/games/club/map.png?width=777")
    assert first.status_code == 200 and first.headers["etag"]
    for _ in range(8):
        again = client.get("/api/games/club/map.png?width=777")
        assert again.content == first.content
    assert drawn == [800]  # drawn once, at the first of the drawn widths at least as wide: the rest from the cache
    same = client.get("/api/games/club/map.png?width=777", headers={"If-None-Match": first.headers["etag"]})
    assert same.status_code == 304 and not same.content
    assert client.get("/games/club/map.svg").headers["etag"]


def test_deadlines_and_durations_are_bounded(client, game):
    r = client.post("/api/games", json={"id": "spin", "players": ["A", "B"], "settings": {"movement": "0h"}},
                    headers=GM)
    assert r.status_code == 400 and "at least a minute" in r.json()["detail"]
    r = client.post("/api/games/club/extend", json={"until": "9999-12-31T00:00:00+00:00"}, headers=GM)
    assert r.status_code == 400 and "too far off" in r.json()["detail"]
    r = client.post("/api/games/club/extend", json={"hours": 24 * 366 + 1}, headers=GM)
    assert 400 <= r.status_code < 500
    r = client.post("/api/games", json={"id": "slow", "players": ["A", "B"], "settings": {"retreats": "1000d"}},
                    headers=GM)
    assert r.status_code == 400 and "at most 90 days" in r.json()["detail"]


def test_a_session_is_a_token_on_the_server_and_sign_out_ends_every_copy(app, game, site_gm):
    with TestClient(app) as browser:
        token = csrf(browser, "/games/club/war-room")
        browser.post("/games/club/sign-in", data={"credential": game["FRANCE"], "csrf_token": token})
        cookie = browser.cookies.get("gm_session")
        assert cookie and cookie.startswith("s.") and game["FRANCE"].split(".")[1] not in cookie
        assert "France war room" in plain(browser.get("/games/club/war-room"))
        with TestClient(app, cookies={"gm_session": cookie}) as thief:
            assert "France war room" in plain(thief.get("/games/club/war-room"))  # a copied cookie works...
            browser.post("/games/club/sign-out", data={"csrf_token": csrf(browser, "/games/club/war-room")})
            assert "Sign in to your war room" in thief.get("/games/club/war-room").text  # ... until sign-out


def test_a_replaced_credential_ends_its_sessions(app, game, site_gm):
    with TestClient(app) as browser:
        browser.post("/games/club/sign-in", data={"credential": game["FRANCE"],
                                                  "csrf_token": csrf(browser, "/games/club/war-room")})
        assert "France war room" in plain(browser.get("/games/club/war-room"))
        site_gm.players.new_credential("club", "France", reason="lost")
        page = browser.get("/games/club/war-room").text
        assert "Sign in to your war room" in page and "was replaced" in page


def test_a_new_gm_credential_ends_every_gm_session(site_gm, game):
    old = SiteSecrets.for_testing(GM_CREDENTIAL)
    with TestClient(create_app(site_gm, old)) as gm_browser:
        gm_browser.post("/gm/sign-in", data={"credential": GM_CREDENTIAL, "csrf_token": csrf(gm_browser, "/gm")})
        assert "Create a game" in gm_browser.get("/gm").text or "GM console" in gm_browser.get("/gm").text
        cookie = gm_browser.cookies.get("gm_session")
    renewed = create_app(site_gm, SiteSecrets.for_testing("gm.the-new-credential-0000"))  # serve --new-gm-credential
    with TestClient(renewed, cookies={"gm_session": cookie}) as stale:
        r = stale.post("/gm/games/club/press", data={"text": "from the old GM", "csrf_token": csrf(stale, "/gm")})
        assert r.status_code == 401
        assert "GM credential" in stale.get("/gm").text
    assert all(p.text != "from the old GM" for p in site_gm.press.press("club"))


def test_wrong_credentials_from_a_crowd_lock_nobody_out(app, game):
    """40 wrong attempts from five addresses in one second, then more: the players' orders and the GM's
    extend still go through, at once."""
    now = [1000.0]
    app.state.limits = SignInLimits(clock=lambda: now[0])
    attackers = [TestClient(app, client=(f"203.0.113.{i}", 5000)) for i in range(5)]
    try:
        for i in range(40):
            r = attackers[i % 5].get("/api/games/club/powers/france/orders", headers=bearer(f"2.wrongguess{i:06d}"))
            assert r.status_code in (403, 429)
        assert any(attackers[0].get("/api/games/club/powers/france/orders",
                                    headers=bearer(f"2.wrongguess{k:06d}")).status_code == 429 for k in range(3))
        with TestClient(app, client=("198.51.100.20", 6000)) as player, \
                TestClient(app, client=("198.51.100.21", 6000)) as gm_client:
            for _ in range(3):
                now[0] += 0.5  # 0.65 wrong attempts a second go on meanwhile
                attackers[0].get("/api/games/club/powers/france/orders", headers=bearer("2.stillwrong0000"))
                r = player.post("/api/games/club/powers/france/orders", json={"orders": "A Par H"},
                                headers=bearer(game["FRANCE"]))
                assert r.status_code == 200, r.text
                r = gm_client.post("/api/games/club/extend", json={"hours": 1}, headers=GM)
                assert r.status_code == 200, r.text
        # and the rightful player at the attackers' own address, once checked, is never held up
        assert attackers[1].post("/api/games/club/powers/france/orders", json={"orders": "A Par H"},
                                 headers=bearer(game["FRANCE"])).status_code == 200
    finally:
        for a in attackers:
            a.close()


def test_postgresql_refuses_nothing_the_gamesmaster_takes(url_for, clock):
    """A NUL in press, or a 201-character title, is refused by the gamesmaster on PostgreSQL as on SQLite."""
    from gamesmaster.gm import GMError
    from gamesmaster.store import Store
    store = Store(url_for("postgresql"))
    try:
        gm = Gamesmaster(store, clock)
        c = gm.setup.create_game("pgx", players=["Ann", "Bob"], assign={"Ann": "FRANCE", "Bob": "GERMANY"})
        for text in ("nul\x00here", "surrogate\ud800"):
            with pytest.raises(GMError, match="holds"):
                gm.press.post_press("pgx", text, credential=c.credentials["Ann"])
        with pytest.raises(GMError, match="at most 200"):
            gm.setup.create_game("pgy", title="t" * 201)
        assert gm.record.verify("pgx").ok
    finally:
        store.dispose()


def _aware(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=UTC)


def test_reading_pages_writes_no_session_and_forms_still_need_their_token(app, game, site_gm):
    """A crowd (or a crawler) reading pages costs the store no write; a visitor's forms carry the
    token of its own gm_csrf cookie, and a form without the cookie's token is refused."""
    from sqlalchemy import text
    def stored() -> int:
        with site_gm.desk.store.connect(write=False) as conn:
            return conn.execute(text("SELECT count(*) FROM gm_sessions")).scalar_one()
    before = stored()
    for path in ("/", "/games/club", "/games/club/war-room", "/gm", "/games/club/record"):
        with TestClient(app) as visitor:
            assert visitor.get(path).status_code == 200
    assert stored() == before
    with TestClient(app) as visitor:
        token = csrf(visitor, "/games/club/war-room")
        assert visitor.cookies.get("gm_csrf") == token
        with TestClient(app) as forger:  # the token without the cookie it belongs to
            r = forger.post("/games/club/sign-in", data={"credential": game["FRANCE"], "csrf_token": token})
            assert r.status_code == 403
        visitor.post("/games/club/sign-in", data={"credential": game["FRANCE"], "csrf_token": token})
        assert "France war room" in plain(visitor.get("/games/club/war-room"))
        assert stored() == before + 1



def test_the_worker_forgets_expired_sessions(site_gm, game, clock):
    """A session lasts fourteen days; the deadline worker's next pass after that removes it."""
    from sqlalchemy import text

    from gamesmaster.gm.worker import Pass
    token = site_gm.sessions.new_session_token()
    site_gm.sessions.save_session(token, {"note": "x"})
    one_pass = Pass(site_gm)
    one_pass()
    assert site_gm.sessions.session(token) is not None
    clock.advance(days=15)
    assert site_gm.sessions.session(token) is None  # expired: no longer opens anything
    one_pass()
    with site_gm.desk.store.connect(write=False) as conn:
        assert conn.execute(text("SELECT count(*) FROM gm_sessions")).scalar_one() == 0


def test_every_answer_carries_the_safety_headers(client, game):
    answers = [client.get("/games/club"), client.get("/api/games/club"), client.get("/api/nothing"),
               client.post("/api/games/club/powers/france/orders", content=b"x" * (300 * 1024),
                           headers={"content-type": "application/json"})]
    assert [a.status_code for a in answers] == [200, 200, 404, 413]
    for a in answers:
        assert a.headers["x-content-type-options"] == "nosniff" and a.headers["x-frame-options"] == "DENY"
        assert a.headers["referrer-policy"] == "same-origin"
