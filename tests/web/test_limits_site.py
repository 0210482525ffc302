"""Limits of the site over real HTTP (uvicorn on loopback): orders counted as the reader splits them,
bad numbers answered with a 4xx and never a 500."""

from __future__ import annotations

import httpx
import pytest
from sitetools import serving

from webtools import GM, bearer


@pytest.fixture
def base(app):
    with serving(app) as url:
        yield url


def test_orders_are_counted_as_the_reader_splits_them(base, game):
    with httpx.Client(base_url=base, timeout=30) as http:
        for text in ["H;" * 15_000, "A Par H\r" * 400, "A Par H;\n" * 301]:
            r = http.post("/api/games/club/powers/france/orders", json={"orders": text},
                          headers=bearer(game["FRANCE"]))
            assert r.status_code == 400, (text[:20], r.status_code, r.text[:200])
            assert "too many" in r.text
        assert http.get("/api/games/club/powers/france/orders", headers=GM).json() == []
        r = http.post("/api/games/club/powers/france/orders", json={"orders": "A Par-Bur; A Mar-Spa;\rF Bre-Mao"},
                      headers=bearer(game["FRANCE"]))
        assert r.status_code == 200, r.text
        r = http.post("/api/games/club/powers/france/check", json={"orders": "H;" * 15_000},
                      headers=bearer(game["FRANCE"]))
        assert r.status_code == 400 and "too many orders" in r.text


@pytest.fixture
def both_sites(store_url, clock):
    """The site on SQLite and on PostgreSQL, served by uvicorn: (base URL, power -> credential)."""
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets
    from sitetools import seven_player_game
    from webtools import GM_CREDENTIAL, PLAYERS

    store = Store(store_url)
    gm = Gamesmaster(store, clock=clock)
    credentials = seven_player_game(gm, PLAYERS)
    with serving(create_app(gm, SiteSecrets.for_testing(GM_CREDENTIAL))) as url:
        yield url, credentials
    store.dispose()


NUL_PATHS = ["/api/games/club%00", "/api/games/cl%00ub/position", "/api/games/club%00/powers/france/orders",
             "/games/club%00", "/games/club%00/history", "/games/club%00/map.png", "/api/games/club%00/record",
             "/games/club/history?phase=S1901M%00", "/api/games/club%01/press"]


def test_a_nul_in_the_address_is_a_400_on_both_stores(both_sites):
    base, credentials = both_sites
    with httpx.Client(base_url=base, timeout=30) as http:
        for path in NUL_PATHS:
            for headers in ({}, GM, bearer(credentials["FRANCE"])):
                r = http.get(path, headers=headers)
                assert r.status_code == 400 and "the address holds" in r.text, (path, r.status_code, r.text[:200])
            r = http.post(path, json={"orders": "A Par H"}, headers=GM)
            assert r.status_code == 400, (path, r.status_code)
        assert http.get("/api/games/club").status_code == 200


@pytest.mark.parametrize("value", ["²", "1" * 22, 10 ** 22, 2 ** 63, "9" * 5000])
def test_rule_option_values_that_are_no_numbers_are_refused(base, game, value):
    with httpx.Client(base_url=base, timeout=30) as http:
        r = http.post("/api/games", json={"id": "other", "variant": "standard", "preset": "2023",
                                          "rules": {"last_year": value}}, headers=GM)
        assert r.status_code == 400 and "last_year" in r.text, (r.status_code, r.text[:300])
        r = http.post("/api/games/club/correct", json={"reason": "r", "rules": {"deadlock_years": value}}, headers=GM)
        assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])


def test_the_war_room_check_takes_deep_json_as_malformed(base, game):
    from sitetools import csrf
    with httpx.Client(base_url=base, timeout=30) as http:
        token = csrf(http, "/games/club/war-room")
        r = http.post("/games/club/war-room/check", content=b"[" * 100_000,
                      headers={"x-csrf-token": token, "content-type": "application/json"})
        assert r.status_code == 400 and "malformed JSON" in r.text, (r.status_code, r.text[:200])


@pytest.mark.parametrize("value", ["²", "1" * 22])
def test_the_consoles_create_form_refuses_odd_numbers(base, game, value):
    from sitetools import post
    from webtools import GM_CREDENTIAL
    with httpx.Client(base_url=base, timeout=30) as http:
        post(http, "/gm/sign-in", {"credential": GM_CREDENTIAL}, "/gm")
        r = post(http, "/gm/games", {"id": "club8", "variant": "standard", "preset": "2023", "opt_last_year": value,
                                     "end_year": value, "seed": value}, "/gm")
        assert r.status_code < 500 and "last_year" in r.text and "end year" in r.text, (r.status_code, r.text[:300])

