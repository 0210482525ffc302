"""A session row forged in the database signs the GM's browser in to a player's seat on the site, but it
holds no key on the game's record: the war room refuses its orders, over real HTTP, while the player's own
browser (signed in with the credential) goes on ordering (issue 23, docs/security.md)."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta

import httpx

from sitetools import open_site, serving
from webtools import GM_CREDENTIAL

from gamesmaster.gm.credentials import token_id
from gamesmaster.store.sessions import SessionRecords, SessionRow, SessionSeat

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
ASSIGN = dict(zip(NAMES, ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]))


def _csrf(client: httpx.Client, url: str) -> str:
    m = re.search(r'name="csrf-token" content="([^"]+)"', client.get(url).text)
    assert m
    return m.group(1)


def _order(client: httpx.Client, orders: str) -> str:
    r = client.post("/games/t/war-room/orders", data={"power": "FRANCE", "orders": orders,
                                                      "csrf_token": _csrf(client, "/games/t/war-room")})
    assert r.status_code == 200, r.text[:500]
    return r.text


def test_a_forged_session_row_orders_nothing_through_the_war_room(tmp_path, clock):
    gm, app, store = open_site(tmp_path, clock, GM_CREDENTIAL)
    c = gm.setup.create_game("t", players=NAMES, assign=ASSIGN)
    with serving(app) as base, httpx.Client(base_url=base, follow_redirects=True) as player, \
            httpx.Client(base_url=base, follow_redirects=True) as mallory:
        player.post("/games/t/sign-in", data={"credential": c.credentials["Cat"],
                                              "csrf_token": _csrf(player, "/games/t/war-room")})
        assert "Receipt:" in _order(player, "A Par-Bur")
        # the GM writes a session row for a token of his own, signed in as Cat
        token = "s." + secrets.token_urlsafe(32)
        seat = gm.joining.game_state("t").seat(3)
        now = clock()
        with store.connect() as conn:
            SessionRecords(conn).put(SessionRow(token_id(token), now, now + timedelta(days=14),
                                                {"t": SessionSeat(3, seat.key)}, None, {}))
        mallory.cookies.set("gm_session", token)
        page = _order(mallory, "A Par-Pic")
        assert "holds no key on the record of t for Cat" in page, page[-3000:]
        # nor with a browser key of his own
        mallory.cookies.set("gm_browser", secrets.token_urlsafe(32))
        assert "holds no key on the record" in _order(mallory, "A Par-Pic")
        assert "Receipt:" in _order(player, "A Par-Gas")
    sets = [o.orders for o in gm.joining.game_state("t").orders if o.power == "FRANCE"]
    assert sets == [("A Par-Gas",)] or sets == [["A Par-Gas"]], sets
    assert gm.joining.game_state("t").counts["FRANCE"] == 2
    assert gm.record.verify("t").ok
