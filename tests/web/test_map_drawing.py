"""Drawing maps is bounded per client and done out of the web process, over real HTTP (uvicorn on loopback,
client addresses given as a reverse proxy gives them)."""

from __future__ import annotations

import struct
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from sitetools import serving

FLOODER, PLAYER, OTHER = "203.0.113.9", "198.51.100.4", "198.51.100.5"


@pytest.fixture
def base(app):
    with serving(app, proxy_headers=True, forwarded_allow_ips="127.0.0.1") as url:
        yield url


def _width(png: bytes) -> int:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">I", png[16:20])[0]


def test_sixty_widths_are_drawn_at_a_few_sizes_in_another_process(base, game):
    from gamesmaster.web import site
    with httpx.Client(base_url=base, timeout=120, headers={"X-Forwarded-For": FLOODER}) as http, \
            ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda w: http.get(f"/games/club/map.png?width={w}"), range(200, 2400, 37)))
    assert {r.status_code for r in answers} <= {200, 429}, {r.status_code for r in answers}
    drawn = {_width(r.content) for r in answers if r.status_code == 200}
    assert 1 <= len(drawn) <= 6 and drawn <= set(site.PNG_WIDTHS), drawn
    refused = [r for r in answers if r.status_code == 429]
    assert all("try again in" in r.text for r in refused)
    assert site._RASTERISER.pool is not None  # drawn by the drawing process, not by a thread of this one


def test_a_clients_budget_of_new_maps_runs_out_and_not_anothers(base, game, site_gm):
    for _ in range(2):
        site_gm.deadlines.process("club", force=True)
    asks = [f"/api/games/club/map.png?width={w}&phase={p}" for p in ("S1901M", "F1901M", "")
            for w in (400, 600, 800, 1200, 1600, 2400)]
    with httpx.Client(base_url=base, timeout=120, headers={"X-Forwarded-For": PLAYER}) as http:
        answers = [http.get(path.replace("&phase=", "") if path.endswith("=") else path) for path in asks]
        codes = [r.status_code for r in answers]
        assert codes[:10] == [200] * 10 and 429 in codes[10:], codes
        assert "too many new maps drawn for you" in next(r.text for r in answers if r.status_code == 429)
        assert http.get(asks[0]).status_code == 200  # a map drawn already costs nothing
    with httpx.Client(base_url=base, timeout=120, headers={"X-Forwarded-For": OTHER}) as other:
        assert all(other.get(path).status_code == 200 for path in asks[10:12])
