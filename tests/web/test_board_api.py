"""Issue 25, the analysis board's API: a position and orders in; every outcome, the next position and the maps out.

Nothing is recorded, bad boards are refused with a 4xx naming what was wrong, and a board from
a game starts from the published position, never from an order on record for the open phase.
"""

from __future__ import annotations

import json

from webtools import bearer

from gamesmaster.gm.analysis import MAX_BOARD_CHARS, MAX_ORDER_LINES


def detail(r) -> str:
    assert r.headers["content-type"].startswith("application/json"), r.text
    assert "Traceback" not in r.text
    return r.json()["detail"]


def fresh(orders) -> dict:
    return {"variant": "standard", "phase": "S1901M",
            "units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A BER"], "ENGLAND": ["F LON"]},
            "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "BER"]}, "orders": orders}


def test_orders_for_every_power_in_one_text_are_adjudicated(client):
    r = client.post("/api/board", json=fresh("A Par - Bur\nA Mar S A Par - Bur\nGermany: A Mun - Bur\n"
                                             "England:\nF Lon - Nth\nxyzzy"))
    assert r.status_code == 200, r.text
    out = r.json()
    got = {o["text"]: (o["power"], o["result"]) for o in out["orders"]}
    assert got["A Par - Bur"] == ("FRANCE", "succeeds")
    assert got["A Mar S A Par - Bur"] == ("FRANCE", "succeeds")
    assert got["Germany: A Mun - Bur"] == ("GERMANY", "fails")
    assert got["F Lon - Nth"] == ("ENGLAND", "succeeds")
    assert got["xyzzy"][1] == "invalid"
    assert "bounced" in next(o["reason"] for o in out["orders"] if o["power"] == "GERMANY")
    assert out["next"]["phase"] == "F1901M" and "A BUR" in out["next"]["units"]["FRANCE"]
    assert "F NTH" in out["next"]["units"]["ENGLAND"]
    assert out["map"].startswith("<svg") and out["next_map"].startswith("<svg")
    assert out["link"].startswith("/board?b=")


def test_orders_by_power_and_the_next_board_goes_on(client):
    first = client.post("/api/board", json=fresh({"france": ["A Par - Bur"]})).json()
    nxt = dict(first["next"], orders={"FRANCE": ["A Bur - Bel"]})
    r = client.post("/api/board", json=nxt)
    assert r.status_code == 200, r.text
    assert r.json()["phase"] == "F1901M" and "A BEL" in r.json()["next"]["units"]["FRANCE"]


def test_the_link_reopens_the_same_board(client):
    out = client.post("/api/board", json=fresh("A Par - Bur")).json()
    page = client.get(out["link"])
    assert page.status_code == 200
    orders = page.text.split('id="orders"')[1].split("</textarea>")[0]
    assert orders.endswith(">A Par - Bur")
    assert "succeeds, moved" in page.text.split('id="results"')[1].split("</ul>")[0]


def test_bad_boards_are_refused_with_the_reason(client):
    cases = [
        ("not json", 400, "JSON"),
        (json.dumps([1, 2]), 422, "JSON object"),
        (json.dumps({**fresh(""), "secret": 1}), 422, "unknown field: secret"),
        (json.dumps({**fresh(""), "variant": "nosuch"}), 422, "nosuch"),
        (json.dumps({**fresh(""), "units": {"FRANCE": ["A PAR", "A PAR"]}}), 422, "two units"),
        (json.dumps({**fresh(""), "units": {"FRANCE": ["A XXX"]}}), 422, "XXX"),
        (json.dumps({**fresh(""), "phase": "Q1901"}), 422, "phase"),
        (json.dumps(fresh("A Par - Bur\n" * (MAX_ORDER_LINES + 1))), 422, f"at most {MAX_ORDER_LINES}"),
        (json.dumps(fresh("A Par - Bur " + "x" * 300)), 422, "at most 200"),
        (json.dumps(fresh({"FRANCE": "A Par - Bur"})), 422, "list of strings"),
        (json.dumps(fresh(7)), 422, "orders must be"),
        (json.dumps(fresh("x" * (MAX_BOARD_CHARS + 1))), 422, f"at most {MAX_BOARD_CHARS}"),
    ]
    for body, status, words in cases:
        r = client.post("/api/board", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == status, (body[:80], r.status_code, r.text[:300])
        assert words in detail(r), (body[:80], detail(r))
    assert client.get("/board?b=%%%").status_code == 400
    from gamesmaster.web.board import link
    bad = client.get(link({**fresh(""), "units": {"FRANCE": ["A PAR", "A PAR"]}}))
    assert bad.status_code == 422 and "two units in one space" in bad.text
    long = client.post("/api/board", json={**fresh(""), "variant": "x" * 5000})
    assert long.status_code == 422 and len(detail(long)) <= 400
    assert client.get("/board?b=" + "A" * 40000).status_code == 400
    assert client.get("/board?variant=nosuch").status_code == 404


def test_a_board_from_a_game_starts_from_the_published_position_only(client, site_gm, game):
    client.post("/api/games/club/powers/france/orders", json={"orders": "A Par-Bur\nA Mar-Spa"},
                headers=bearer(game["FRANCE"]))
    r = client.get("/api/games/club/board")
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["phase"] == "S1901M" and "A PAR" in doc["units"]["FRANCE"] and "orders" not in doc
    assert "Bur" not in r.text and "Spa" not in r.text
    page = client.get("/games/club/board", follow_redirects=True)
    assert page.status_code == 200
    assert page.text.split('id="orders"')[1].split("</textarea>")[0].endswith(">")  # no orders written
    assert "No orders yet" in page.text.split('id="results"')[1].split("</ul>")[0]
    assert "orders" not in json.loads(page.text.split('id="board-doc">')[1].split("</script>")[0])
    site_gm.deadlines.process("club", force=True)
    past = client.get("/api/games/club/board?phase=S1901M").json()
    assert past["phase"] == "S1901M" and "A PAR" in past["units"]["FRANCE"]
    assert client.get("/api/games/club/board").json()["phase"] == "F1901M"
    assert client.get("/api/games/club/board?phase=S1950M").status_code == 404
    assert client.get("/api/games/nosuch/board").status_code == 404


def test_the_games_the_game_and_its_history_lead_to_the_board(client, site_gm, game):
    assert 'href="/board"' in client.get("/").text
    assert 'href="/games/club/board"' in client.get("/games/club").text
    site_gm.deadlines.process("club", force=True)
    assert 'href="/games/club/board?phase=S1901M"' in client.get("/games/club/history?phase=S1901M").text


def test_builds_are_read_for_the_power_whose_home_centre_they_name(client):
    board = {"phase": "W1901A", "units": {"FRANCE": ["A PIC"], "GERMANY": ["A BUR"]},
             "centers": {"FRANCE": ["PAR", "BRE", "MAR", "BEL"], "GERMANY": ["MUN", "BER", "KIE"]}}
    out = client.post("/api/board", json={**board, "orders": "Build F Bre\nbuild a kie"}).json()
    assert [(o["power"], o["result"]) for o in out["orders"]] == [("FRANCE", "succeeds"), ("GERMANY", "succeeds")]
    assert out["next"]["units"] == {"FRANCE": ["F BRE", "A PIC"], "GERMANY": ["A BUR", "A KIE"]}
    from gamesmaster.web.board import link
    page = client.get(link(board)).text  # to tap: each power's builds, named by the power
    assert 'data-order="FRANCE: F BRE B"' in page and 'data-order="GERMANY: WAIVE"' in page
    tapped = client.post("/api/board", json={**board, "orders": "FRANCE: F BRE B\nGERMANY: WAIVE"}).json()
    assert [o["result"] for o in tapped["orders"]] == ["succeeds", "succeeds"]


def test_the_board_api_is_documented(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    assert "requestBody" in paths["/api/board"]["post"] and "/api/games/{game}/board" in paths
    assert "/board" not in paths
