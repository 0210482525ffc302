"""The JSON API for the set-ups of fewer than seven players (rulebook XIV.2): a player of several
powers with one credential, the short game by the clock, and the 1971 reading of a missed move."""

from __future__ import annotations

from webtools import GM, bearer


def test_a_pair_is_created_and_ordered_with_one_credential(client):
    body = {"id": "four", "variant": "standard-4", "players": ["Ann", "Bob", "Cat", "Dan"], "seed": 3,
            "settings": {"end_at": "2031-01-01 22:00", "tz": "Europe/London"}}
    r = client.post("/api/games", json=body, headers=GM)
    assert r.status_code == 201, r.text
    made = r.json()
    pair = next(n for n, ps in made["commands"].items() if ps == ["AUSTRIA", "FRANCE"])
    mine = bearer(made["credentials"][pair])
    me = client.get("/api/games/four/me", headers=mine).json()
    assert me["powers"] == ["AUSTRIA", "FRANCE"]
    for power, text in (("austria", "A Vie-Gal"), ("france", "A Par-Bur")):
        r = client.post(f"/api/games/four/powers/{power}/orders", json={"orders": text}, headers=mine)
        assert r.status_code == 200, r.text
        assert r.json()["answers"][0]["status"] == "accepted"
    r = client.post("/api/games/four/powers/germany/orders", json={"orders": "A Mun H"}, headers=mine)
    assert r.status_code == 403 and "does not play Germany" in r.json()["detail"]
    rules = client.get("/api/games/four/rules").json()
    clock = next(s["text"] for s in rules["settings"] if s["name"] == "Short game by the clock")
    assert "The game stops at Wed 01 Jan 2031 22:00 GMT" in clock


def test_an_end_time_that_is_not_a_time_is_a_422_naming_it(client):
    body = {"id": "bad", "players": ["Ann"], "settings": {"end_at": "soon"}}
    r = client.post("/api/games", json=body, headers=GM)
    assert 400 <= r.status_code < 500 and "time 'soon'" in r.json()["detail"]


def test_orders_of_a_power_kept_in_civil_disorder_are_refused_with_the_rule(client, site_gm):
    made = site_gm.setup.create_game("cd", variant="standard-4", players=["Ann", "Bob", "Cat", "Dan"], rules="1971",
                               assign={"Ann": "England", "Bob": "Austria/France", "Cat": "Germany/Turkey",
                                       "Dan": "Italy/Russia"})
    cred = made.credentials
    site_gm.orders.submit_orders("cd", "Russia", "F Sev-Rum", credential=cred["Dan"])
    site_gm.orders.submit_orders("cd", "France", "A Mar-Spa", credential=cred["Bob"])
    site_gm.deadlines.process("cd", force=True)
    site_gm.orders.submit_orders("cd", "Russia", "F Rum H", credential=cred["Dan"])
    site_gm.deadlines.process("cd", force=True)  # Bob sends nothing for the Fall
    r = client.post("/api/games/cd/powers/france/orders", json={"orders": "Build A Mar"}, headers=bearer(cred["Bob"]))
    assert 400 <= r.status_code < 500
    assert "France sent no orders for the Fall move and is in civil disorder for the season" in r.json()["detail"]
    r = client.post("/api/games/cd/powers/russia/orders", json={"orders": "Build A Mos"}, headers=bearer(cred["Dan"]))
    assert r.status_code == 200, r.text
    assert client.get("/api/games/cd").json()["phase"] == "S1902M"
