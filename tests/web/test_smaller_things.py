"""Issue 17's smaller things, through the pages: every unit in the results, irreversible GM actions
ask first, the create form names every error at once, the centre chart's axis and key, and
/docs served by the site itself."""

from __future__ import annotations

import re

from sitetools import plain, post
from test_pages import gm_sign_in


def test_the_results_list_every_unit_of_every_power(client, game, site_gm):
    site_gm.orders.submit_orders("club", "FRANCE", "A Par-Bur", credential=game["FRANCE"], channel="web")
    site_gm.deadlines.process("club", force=True)
    r = client.get("/games/club")
    results = re.search(r'<div class="card" id="results">.*?</table>', r.text, re.DOTALL).group(0)
    text = " ".join(re.sub(r"<[^>]+>", " ", results).split())
    assert "Austria" in text and "A VIE H" in text and "F TRI H" in text and "A BUD H" in text
    assert text.count(": holds") == 21  # 22 units, one of which moved
    assert text.count("civil disorder: holds") == 19  # six powers sent nothing: civil disorder
    assert "A PAR - BUR" in text and "F BRE H" in text and "(no orders)" in text
    assert text.count("no orders: holds") == 2  # France's units it gave no order


def test_irreversible_gm_actions_ask_first(client, game):
    gm_sign_in(client)
    page = client.get("/gm/games/club").text
    for action in ("process", "replace", "credential", "draw"):
        form = re.search(rf'<form method="post" action="/gm/games/club/{action}"[^>]*>', page).group(0)
        assert 'data-confirm="' in form, action
    assert "window.confirm" in client.get("/static/site.js").text


def test_the_create_form_names_every_error_at_once(client):
    gm_sign_in(client)
    r = post(client, "/gm/games", {"id": "Bad Id!", "movement": "whenever", "grace": "soon", "retreats": "later",
                                   "seed": "seven", "end_year": "next", "tz": "Mars/Olympus"}, "/gm")
    assert r.status_code == 400
    errors = re.search(r'<div class="flash error" role="alert" id="create-errors">.*?</div>', r.text, re.DOTALL)
    items = re.findall(r"<li>(.*?)</li>", errors.group(0))
    text = " ".join(items)
    assert len(items) >= 6, items
    for part in ("game id", "movement deadlines", "grace period", "retreat phases", "seed", "end year"):
        assert part in text, (part, items)


def test_the_centre_chart_reads_each_year_once_and_keeps_ties_apart(client, game, site_gm):
    site_gm.deadlines.process("club", force=True)  # Spring 1901: nobody ordered, everyone holds
    r = client.get("/games/club/history")
    chart = re.search(r'<svg[^>]*class="chart".*?</svg>', r.text, re.DOTALL).group(0)
    ticks = re.findall(r'class="tick"><title>[^<]*</title>([^<]+)</text>', chart)
    assert ticks == ["1901", "now"], ticks
    key = re.findall(r'class="legend">([^<]+)</text>', chart)
    assert len(key) == 7 and key[0] == "Russia 4", key  # one entry each, most centres first
    ys = {}
    for entry in re.findall(r'<g class="legend-entry"><rect x="([\d.]+)" y="([\d.-]+)"', chart):
        assert entry not in ys
        ys[entry] = True


def test_swagger_ui_is_served_by_the_site(client):
    r = client.get("/docs")
    assert r.status_code == 200
    assets = re.findall(r'(?:src|href)=["\']([^"\']+)["\']', r.text)
    assert assets and all(a.startswith("/") for a in assets), assets
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    assert "https://" not in r.text and "http://" not in r.text
    assert "API" in plain(client.get("/"))


def test_the_war_rooms_check_draws_the_orders_being_written(client, game, site_gm):
    from sitetools import csrf
    from test_pages import sign_in

    def check(text: str) -> dict:
        token = csrf(client, "/games/club/war-room")
        r = client.post("/games/club/war-room/check", json={"orders": text, "map": True},
                        headers={"X-CSRF-Token": token})
        assert r.status_code == 200, r.text
        return r.json()

    sign_in(client, "club", game["FRANCE"])
    data = check("A Par-Bur\nA Mar S A Par-Bur\nA Bur - Mun via convoy")
    assert 'data-order="A PAR - BUR"' in data["map"] and 'data-order="A MAR S A PAR - BUR"' in data["map"]
    assert data["map"].startswith("<svg") and 'data-highlight="FRANCE"' in data["map"]
    assert "no unit in Burgundy" in data["answers"][2]["message"] and "BUR - MUN" not in data["map"]
    assert "map" not in client.post("/games/club/war-room/check", json={"orders": "A Par-Bur"},
                                    headers={"X-CSRF-Token": csrf(client, "/games/club/war-room")}).json()
    # a retreat is drawn as it is picked, too
    site_gm.orders.submit_orders("club", "FRANCE", "A Par-Bur", credential=game["FRANCE"])
    site_gm.orders.submit_orders("club", "GERMANY", "A Mun-Ruh\nA Ber-Mun", credential=game["GERMANY"])
    site_gm.deadlines.process("club", force=True)
    # an army in Burgundy now: by convoy to Munich is refused when written, through every door
    refused = check("A Bur - Mun via convoy")["answers"][0]
    assert refused["status"] == "invalid" and "Burgundy is not on a coast" in refused["message"]
    sub = site_gm.orders.submit_orders("club", "FRANCE", "A Bur - Mun via convoy", credential=game["FRANCE"], channel="mail")
    assert sub.answers[0].status == "invalid"
    site_gm.orders.submit_orders("club", "GERMANY", "A Ruh-Bur\nA Mun S A Ruh-Bur", credential=game["GERMANY"])
    site_gm.deadlines.process("club", force=True)
    assert str(site_gm.games.game("club").phase) == "F1901R"
    assert 'data-order="A BUR R PIC"' in check("A Bur-Pic")["map"]
