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
