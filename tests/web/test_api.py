"""The JSON API under /api: every endpoint, and its refusals (each a 4xx with a message)."""

from __future__ import annotations

import pytest

from webtools import GM, POWERS, bearer


def detail(r) -> str:
    assert r.headers["content-type"].startswith("application/json"), r.text
    body = r.json()
    assert isinstance(body.get("detail"), str) and body["detail"], body
    assert "Traceback" not in r.text
    return body["detail"]


# -- games -----------------------------------------------------------------------------


def test_games_list_empty_then_one(client, game):
    r = client.get("/api/games")
    assert r.status_code == 200
    [g] = r.json()
    assert g["id"] == "club" and g["variant"] == "standard" and g["phase"] == "S1901M"
    assert g["phase_title"] == "Spring 1901 movement" and g["deadline"].startswith("2030-05-09")
    assert {p["power"]: p["centres"] for p in g["powers"]}["RUSSIA"] == 4


def test_game_shows_who_ordered_but_not_what(client, game):
    r = client.post("/api/games/club/powers/france/orders", json={"orders": "A Par-Bur\nA Mar-Spa"},
                    headers=bearer(game["FRANCE"]))
    assert r.status_code == 200, r.text
    r = client.get("/api/games/club")
    assert r.status_code == 200
    g = r.json()
    assert {p["power"]: p["ordered"] for p in g["powers"]}["FRANCE"] is True
    assert {p["power"]: p["ordered"] for p in g["powers"]}["ENGLAND"] is False
    assert "BUR" not in r.text and "Par-Bur" not in r.text
    assert g["last_results"] is None
    assert any(o["power"] == "FRANCE" and "PAR" in o["centres"] for o in g["ownership"])


def test_unknown_game_is_404(client):
    r = client.get("/api/games/nosuch")
    assert r.status_code == 404
    assert "no game 'nosuch'" in detail(r)
    assert client.get("/api/nothing-here").status_code == 404


def test_create_game_needs_the_gm(client):
    body = {"id": "new1", "players": ["A", "B"]}
    r = client.post("/api/games", json=body)
    assert r.status_code == 401 and "GM" in detail(r)
    r = client.post("/api/games", json=body, headers=bearer("gm.wrong"))
    assert r.status_code == 403 and "not the GM's" in detail(r)
    r = client.post("/api/games", json=body, headers=GM)
    assert r.status_code == 201, r.text
    doc = r.json()
    assert set(doc["credentials"]) == {"A", "B"} and doc["seed"] is not None
    assert set(doc["powers"].values()) <= set(POWERS)
    assert doc["status"]["status"] == "active"


def test_create_game_with_preset_overrides_and_settings(client):
    body = {"id": "club9", "title": "Club 9", "preset": "1971", "rules": {"koning": "false"},
            "settings": {"press": "public", "tz": "Europe/London", "movement": "tue,fri 22:00", "grace": "24h",
                         "replacement": "standby"},
            "players": ["Ann", "Bob"], "standbys": ["Sam"], "start": False}
    r = client.post("/api/games", json=body, headers=GM)
    assert r.status_code == 201, r.text
    assert r.json()["status"]["status"] == "forming"
    rules = client.get("/api/games/club9/rules").json()
    koning = next(o for o in rules["options"] if o["option"] == "koning")
    assert koning["value"] == "false" and koning["changed"] is True
    assert rules["preset"] == "1971"
    assert any(s["name"] == "Press" and "Public announcements only" in s["text"] for s in rules["settings"])


@pytest.mark.parametrize("body, status, words", [
    ({"id": "Bad Id"}, 400, "game id"),
    ({"id": "ok1", "variant": "atlantis"}, 400, "atlantis"),
    ({"id": "ok2", "preset": "nosuch"}, 400, "nosuch"),
    ({"id": "ok3", "settings": {"tz": "Mars/Olympus"}}, 400, "time zone"),
    ({"id": "ok4", "settings": {"movement": "someday"}}, 400, "duration"),
    ({"id": "ok5", "rules": {"koning": "maybe"}}, 400, "koning"),
    ({"id": "ok6", "colour": "red"}, 422, "colour"),
    ({"players": ["A"]}, 422, "id: is required"),
    ({"id": "ok7", "settings": {"press": "loud"}}, 422, "settings.press"),
])
def test_create_game_refusals(client, body, status, words):
    r = client.post("/api/games", json=body, headers=GM)
    assert r.status_code == status, r.text
    assert words in detail(r)


def test_malformed_json_is_a_clear_400(client, game):
    r = client.post("/api/games", content=b'{"id": "x",', headers={**GM, "Content-Type": "application/json"})
    assert r.status_code == 400
    assert "malformed JSON" in detail(r)
    r = client.post("/api/games/club/powers/france/orders", content=b"A Par-Bur",
                    headers={**bearer(game["FRANCE"]), "Content-Type": "application/json"})
    assert r.status_code == 400 and "malformed JSON" in detail(r)
    r = client.post("/api/games/club/powers/france/orders", json=["A Par-Bur"], headers=bearer(game["FRANCE"]))
    assert r.status_code == 422
    detail(r)


def test_position_results_history_rules_catalogue(client, game, site_gm):
    r = client.get("/api/games/club/position")
    assert r.status_code == 200 and r.json()["phase"] == "S1901M"
    r = client.get("/api/games/club/results/S1901M")
    assert r.status_code == 404 and "has not been published" in detail(r)
    client.post("/api/games/club/powers/france/orders", json={"orders": ["A Par-Bur", "F Bre-Mao"]},
                headers=bearer(game["FRANCE"]))
    assert client.post("/api/games/club/process", headers=GM).status_code == 200
    r = client.get("/api/games/club/results")
    [rec] = r.json()
    assert rec["phase"] == "S1901M" and rec["next_phase"] == "F1901M"
    moves = {x["order"]: x for x in rec["results"]}
    assert moves["A PAR - BUR"]["result"] == "succeeds"
    assert client.get("/api/games/club/results/s1901m").json()["phase"] == "S1901M"
    assert client.get("/api/games/club/position?phase=S1901M").json()["phase"] == "S1901M"
    assert client.get("/api/games/club/position").json()["phase"] == "F1901M"
    r = client.get("/api/games/club/position?phase=XYZ")
    assert r.status_code == 400 and "does not parse" in detail(r)
    r = client.get("/api/games/club/position?phase=F1905M")
    assert r.status_code == 404
    h = client.get("/api/games/club/history").json()
    assert [p["phase"] for p in h["phases"]] == ["S1901M"] and h["current"] == "F1901M"
    assert {s["power"]: s["counts"] for s in h["chart"]["series"]}["RUSSIA"] == [4, 4]
    rules = client.get("/api/games/club/rules").json()
    assert len(rules["options"]) > 20 and all(o["text"] for o in rules["options"])
    cat = client.get("/api/catalogue").json()
    assert "standard" in [v["name"] for v in cat["variants"]] and "2023" in [p["name"] for p in cat["presets"]]
    assert all(o["explanation"] for o in cat["options"])


def test_maps_svg_and_png(client, game):
    r = client.get("/api/games/club/map.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in r.text and 'data-province="PAR"' in r.text
    r = client.get("/api/games/club/map.png?width=400")
    assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
    r = client.get("/api/games/club/map.png?width=5")
    assert r.status_code == 422 and "width" in detail(r)
    r = client.get("/api/games/club/map.svg?phase=S1902M")
    assert r.status_code == 404
    r = client.get("/games/club/map.png?phase=nonsense")
    assert r.status_code == 400 and "does not parse" in r.text


# -- a power's orders ------------------------------------------------------------------


def test_orders_answered_order_by_order_with_receipt(client, game):
    r = client.post("/api/games/club/powers/England/orders",
                    json={"orders": "F Lon.--North Sea\nA Liv.--Yor.\nF Edi-Nowhere"}, headers=bearer(game["ENGLAND"]))
    assert r.status_code == 200, r.text
    sub = r.json()
    assert [a["status"] for a in sub["answers"]] == ["accepted", "accepted", "invalid"]
    assert sub["answers"][0]["order"] == "F LON - NTH"
    assert sub["channel"] == "web" and sub["author"] == "player" and sub["receipt"].startswith("club/S1901M/ENGLAND/1:")
    r = client.get("/api/games/club/powers/england/orders", headers=bearer(game["ENGLAND"]))
    assert r.status_code == 200
    [rec] = r.json()
    assert rec["orders"] == ["F Lon.--North Sea", "A Liv.--Yor.", "F Edi-Nowhere"] and rec["receipt"] == sub["receipt"]
    # the GM sees them too
    assert client.get("/api/games/club/powers/england/orders", headers=GM).json()[0]["receipt"] == sub["receipt"]


def test_a_power_cannot_read_or_write_another_powers_orders(client, game):
    client.post("/api/games/club/powers/england/orders", json={"orders": "F Lon-Nth"}, headers=bearer(game["ENGLAND"]))
    r = client.get("/api/games/club/powers/england/orders", headers=bearer(game["FRANCE"]))
    assert r.status_code == 403 and "does not play England" in detail(r)
    r = client.post("/api/games/club/powers/england/orders", json={"orders": "F Lon-Eng"}, headers=bearer(game["FRANCE"]))
    assert r.status_code == 403
    r = client.delete("/api/games/club/powers/england/orders", headers=bearer(game["FRANCE"]))
    assert r.status_code == 403
    r = client.get("/api/games/club/powers/england/orders")
    assert r.status_code == 401 and "credential is needed" in detail(r)
    r = client.get("/api/games/club/powers/england/orders", headers=bearer("99.nonsense"))
    assert r.status_code == 403 and "not valid" in detail(r)
    r = client.get("/api/games/club/powers/atlantis/orders", headers=bearer(game["FRANCE"]))
    assert r.status_code == 404
    r = client.post("/api/games/club/powers/france/check", json={"orders": "A Par-Bur"}, headers=bearer(game["ENGLAND"]))
    assert r.status_code == 403
    r = client.get("/api/games/club/powers/france/options", headers=bearer(game["ENGLAND"]))
    assert r.status_code == 403


def test_late_orders_and_orders_for_another_phase_are_refused(client, game, clock):
    r = client.post("/api/games/club/powers/france/orders", json={"orders": "A Par-Bur", "phase": "F1901M"},
                    headers=bearer(game["FRANCE"]))
    assert r.status_code == 409 and "for Fall 1901 movement" in detail(r)
    clock.advance(days=4)
    r = client.post("/api/games/club/powers/france/orders", json={"orders": "A Par-Bur"}, headers=bearer(game["FRANCE"]))
    assert r.status_code == 409
    # a player is not told the refusal's entry number: it would count the others' hidden entries
    assert "refused: late" in detail(r) and "ledger entry" not in detail(r)
    r = client.delete("/api/games/club/powers/france/orders", headers=bearer(game["FRANCE"]))
    assert r.status_code == 409


def test_withdraw_check_options_ready(client, game):
    h = bearer(game["GERMANY"])
    r = client.delete("/api/games/club/powers/germany/orders", headers=h)
    assert r.status_code == 400 and "no orders on record" in detail(r)
    client.post("/api/games/club/powers/germany/orders", json={"orders": "A Mun-Ruh"}, headers=h)
    r = client.delete("/api/games/club/powers/germany/orders", headers=h)
    assert r.status_code == 200 and r.json()["withdrawn"] is True
    assert client.get("/api/games/club/powers/germany/orders", headers=h).json() == []
    r = client.post("/api/games/club/powers/germany/check", json={"orders": "A Mun-Ruh\nF Kie-Mos"}, headers=h)
    assert r.status_code == 200
    assert [a["status"] for a in r.json()["answers"]] == ["accepted", "invalid"]
    assert any("A BER" in w for w in r.json()["warnings"])
    opts = client.get("/api/games/club/powers/germany/options", headers=h).json()
    mun = next(u for u in opts if u["province"] == "MUN")
    assert "A MUN - RUH" in [o["text"] for o in mun["orders"]]
    r = client.post("/api/games/club/powers/germany/ready", json={"ready": True}, headers=h)
    assert r.status_code == 200 and r.json() == {"ready": True, "processed": []}
    r = client.post("/api/games/club/powers/germany/ready", json={"ready": "perhaps"}, headers=h)
    assert r.status_code == 422


def test_gm_enters_orders_handed_over_in_person(client, game):
    r = client.post("/api/games/club/powers/italy/orders", json={"orders": "A Ven Stands"}, headers=GM)
    assert r.status_code == 200 and r.json()["entered_by"] == "GM" and r.json()["channel"] == "in-person"
    r = client.post("/api/games/club/powers/italy/orders", json={"orders": "A Ven H", "channel": "mail"},
                    headers=bearer(game["ITALY"]))
    assert r.status_code == 403 and "channel" in detail(r)


def test_whoami(client, game):
    assert client.get("/api/games/club/me", headers=bearer(game["TURKEY"])).json()["power"] == "TURKEY"
    assert client.get("/api/games/club/me", headers=GM).json()["role"] == "gm"
    assert client.get("/api/games/club/me").status_code == 401
    assert client.get("/api/games/club/me", headers=bearer("1.wrong")).status_code == 403


# -- press and votes -------------------------------------------------------------------


def test_press_letters_are_read_only_by_their_recipients(client, game):
    r = client.post("/api/games/club/press", json={"text": "Peace in the west?", "to": ["FRANCE"]},
                    headers=bearer(game["ENGLAND"]))
    assert r.status_code == 201
    client.post("/api/games/club/press", json={"text": "Hello all"}, headers=bearer(game["ITALY"]))
    texts = lambda cred: [p["text"] for p in client.get("/api/games/club/press", headers=bearer(cred)).json()]
    assert "Peace in the west?" in texts(game["FRANCE"]) and "Peace in the west?" in texts(game["ENGLAND"])
    assert "Peace in the west?" not in texts(game["GERMANY"])
    public = [p["text"] for p in client.get("/api/games/club/press").json()]
    assert "Hello all" in public and "Peace in the west?" not in public
    assert "Peace in the west?" in [p["text"] for p in client.get("/api/games/club/press", headers=GM).json()]
    r = client.post("/api/games/club/press", json={"text": "x", "power": "FRANCE"}, headers=bearer(game["ENGLAND"]))
    assert r.status_code == 403
    r = client.post("/api/games/club/press", json={"text": ""}, headers=bearer(game["ENGLAND"]))
    assert r.status_code == 422
    r = client.post("/api/games/club/press", json={"text": "psst", "anonymous": True}, headers=bearer(game["ENGLAND"]))
    assert r.status_code == 400 and "anonymous" in detail(r)
    r = client.post("/api/games/club/press", json={"text": "Deadline news"}, headers=GM)
    assert r.status_code == 201
    assert "Deadline news" in [p["text"] for p in client.get("/api/games/club/press").json()]


def test_proposals_and_votes(client, game):
    r = client.post("/api/games/club/proposals", json={"kind": "draw"}, headers=bearer(game["AUSTRIA"]))
    assert r.status_code == 201
    pid = r.json()["id"]
    [p] = client.get("/api/games/club/proposals").json()
    assert p["id"] == pid and p["votes_cast"] == 1 and p["votes"] is None
    r = client.post(f"/api/games/club/proposals/{pid}/votes", json={"yes": False}, headers=bearer(game["ENGLAND"]))
    assert r.status_code == 200 and r.json()["status"] == "rejected"
    r = client.post(f"/api/games/club/proposals/{pid}/votes", json={"yes": True}, headers=bearer(game["FRANCE"]))
    assert r.status_code == 400 and "closed" in detail(r)
    r = client.post("/api/games/club/proposals/999/votes", json={"yes": True}, headers=bearer(game["FRANCE"]))
    assert r.status_code == 404
    r = client.post("/api/games/club/proposals/abc/votes", json={"yes": True}, headers=bearer(game["FRANCE"]))
    assert r.status_code == 422
    r = client.post("/api/games/club/proposals", json={"kind": "draw", "power": "ITALY"}, headers=bearer(game["FRANCE"]))
    assert r.status_code == 403


# -- GM actions ------------------------------------------------------------------------


GM_POSTS = [("/api/games/club/process", {}), ("/api/games/club/extend", {"hours": 24}),
            ("/api/games/club/pause", {}), ("/api/games/club/resume", {}),
            ("/api/games/club/replace", {"power": "ITALY", "name": "Ken"}),
            ("/api/games/club/correct", {"reason": "x"}), ("/api/games/club/draw", {}),
            ("/api/games/club/players", {"name": "Zed"}), ("/api/games/club/start", {})]


@pytest.mark.parametrize("url, body", GM_POSTS)
def test_gm_actions_refuse_players(client, game, url, body):
    r = client.post(url, json=body, headers=bearer(game["FRANCE"]))
    assert r.status_code == 403, r.text
    r = client.post(url, json=body)
    assert r.status_code == 401
    detail(r)


def test_gm_actions(client, game, clock):
    r = client.post("/api/games/club/extend", json={"hours": 24, "reason": "postal strike"}, headers=GM)
    assert r.status_code == 200 and r.json()["deadline"].startswith("2030-05-10")
    r = client.post("/api/games/club/extend", json={"until": "2030-05-20T22:00:00"}, headers=GM)
    assert r.status_code == 422 and "zone" in detail(r)
    r = client.post("/api/games/club/extend", json={}, headers=GM)
    assert r.status_code == 400 and "hours or to a time" in detail(r)
    r = client.post("/api/games/club/pause", json={"reason": "summer"}, headers=GM)
    assert r.status_code == 200
    r = client.post("/api/games/club/pause", json={}, headers=GM)
    assert r.status_code == 400 and "paused" in detail(r)
    r = client.post("/api/games/club/resume", json={"until": "2030-06-01T22:00:00+00:00"}, headers=GM)
    assert r.status_code == 200 and r.json()["deadline"].startswith("2030-06-01T22:00")
    r = client.post("/api/games/club/replace", json={"power": "ITALY", "name": "Ken", "reason": "moved away"}, headers=GM)
    assert r.status_code == 200
    ken = r.json()["credential"]
    assert client.get("/api/games/club/me", headers=bearer(ken)).json()["power"] == "ITALY"
    assert client.get("/api/games/club/me", headers=bearer(game["ITALY"])).status_code == 403
    r = client.post("/api/games/club/correct", json={"reason": "typo"}, headers=GM)
    assert r.status_code == 400 and "nothing to correct" in detail(r)
    client.post("/api/games/club/powers/france/orders", json={"orders": "A Par-Bur"}, headers=bearer(game["FRANCE"]))
    r = client.post("/api/games/club/process", headers=GM)
    assert r.status_code == 200 and r.json()[0]["next_phase"] == "F1901M"
    r = client.post("/api/games/club/correct", json={"reason": "France's slip read A Par-Pic",
                                                     "orders": {"FRANCE": "A Par-Pic"}}, headers=GM)
    assert r.status_code == 200 and any("A Par-Pic" in d for d in r.json()["differences"])
    v = client.get("/api/games/club/verify", headers=GM)
    assert v.status_code == 200 and v.json()["ok"] is True and v.json()["phases_replayed"] >= 1
    assert client.get("/api/games/club/verify", headers=bearer(game["FRANCE"])).status_code == 403
    rec = client.get("/api/games/club/history/full", headers=GM)
    assert rec.status_code == 200 and rec.json()["ledger"]
    public = client.get("/api/games/club/record")  # anyone: the ledger up to the last publication
    assert public.status_code == 200 and public.json()["format"] == "gamesmaster-public-record"
    r = client.post("/api/games/club/draw", json={"reason": "deadlock"}, headers=GM)
    assert r.status_code == 200 and r.json()["result"]["kind"] == "draw"
    r = client.post("/api/games/club/process", headers=GM)
    assert r.status_code == 400 and "finished" in detail(r)


def test_forming_game_join_and_start(client):
    client.post("/api/games", json={"id": "forming", "start": False}, headers=GM)
    r = client.post("/api/games/forming/players", json={"name": "Ann"}, headers=GM)
    assert r.status_code == 201 and "." in r.json()["credential"]
    client.post("/api/games/forming/players", json={"name": "Bob"}, headers=GM)
    r = client.post("/api/games/forming/players", json={"name": "Bob"}, headers=GM)
    assert r.status_code == 400 and "already a player" in detail(r)
    r = client.post("/api/games/forming/start", json={"seed": 1971}, headers=GM)
    assert r.status_code == 200 and r.json()["seed"] == 1971 and len(r.json()["powers"]) == 2
    r = client.post("/api/games/forming/start", json={}, headers=GM)
    assert r.status_code == 400 and "already started" in detail(r)


def test_openapi_documents_the_api(client):
    r = client.get("/api/openapi.json")
    assert r.status_code == 200
    paths = r.json()["paths"]
    for p in ["/api/games", "/api/games/{game}/powers/{power}/orders", "/api/games/{game}/results/{phase}",
              "/api/games/{game}/press", "/api/games/{game}/proposals/{proposal}/votes", "/api/games/{game}/process",
              "/api/games/{game}/map.png", "/api/games/{game}/history"]:
        assert p in paths, p
    assert not any(p.startswith("/games") for p in paths)  # the pages are not part of the API
    assert client.get("/docs").status_code == 200


def test_conditional_orders_for_the_next_season(client, game):
    text = "A Mun-Bur\nA Ber-Kie\nF Kie-Den\n\nnext season:\nif A Mun - Bur succeeds: A Bur - Par; A Kie - Mun\notherwise: A Mun H"
    r = client.post("/api/games/club/powers/germany/orders", json={"orders": text}, headers=bearer(game["GERMANY"]))
    assert r.status_code == 200, r.text
    sub = r.json()
    assert [a["status"] for a in sub["answers"]] == ["accepted"] * 3
    assert sub["conditional"] == ["Fall 1901 movement, if A Mun - Bur succeeds: A Bur - Par; A Kie - Mun",
                                  "Fall 1901 movement, otherwise: A Mun H"]
    [rec] = client.get("/api/games/club/powers/germany/orders", headers=bearer(game["GERMANY"])).json()
    assert "otherwise" in rec["conditional"]
    r = client.post("/api/games/club/powers/germany/orders", json={"orders": "A Mun-Bur\nnext season:\nif banana: A Mun H"},
                    headers=bearer(game["GERMANY"]))
    assert r.status_code == 400
    detail(r)
    r = client.post("/api/games/club/powers/germany/check", json={"orders": text}, headers=bearer(game["GERMANY"]))
    assert r.json()["clauses"] == sub["conditional"]
    r = client.post("/api/games/club/powers/germany/check", json={"orders": "A Mun H\nnext:\nif banana: A Mun H"},
                    headers=bearer(game["GERMANY"]))
    assert r.status_code == 200 and r.json()["conditional_error"]


def test_questions_to_the_gm(client, game):
    germany, france = bearer(game["GERMANY"]), bearer(game["FRANCE"])
    r = client.post("/api/games/club/questions", json={"text": "May my fleet in Kiel go to Holland?"}, headers=germany)
    assert r.status_code == 201 and r.json() == {"id": 1}
    # Press to GM alone is a question too, whatever the press setting.
    r = client.post("/api/games/club/press", json={"text": "Plan of campaign: Scandinavia first.", "to": ["GM"]},
                    headers=france)
    assert r.status_code == 201, r.text
    # France's first question is its number 1: the game's numbering would count Germany's.
    assert [q["id"] for q in client.get("/api/games/club/questions", headers=france).json()] == [1]
    assert [q["id"] for q in client.get("/api/games/club/questions", headers=GM).json()] == [1, 2]
    assert [q["power"] for q in client.get("/api/games/club/questions", headers=GM).json()] == ["GERMANY", "FRANCE"]
    assert client.get("/api/games/club/questions").status_code == 401
    r = client.post("/api/games/club/questions/1/answer", json={"text": "Yes."}, headers=germany)
    assert r.status_code == 403
    r = client.post("/api/games/club/questions/9/answer", json={"text": "Yes."}, headers=GM)
    assert r.status_code == 404, detail(r)
    r = client.post("/api/games/club/questions/1/answer", json={"text": "Yes: they are adjacent."}, headers=GM)
    assert r.status_code == 200
    [q] = client.get("/api/games/club/questions", headers=germany).json()
    assert q["answered"] and q["answers"][0]["public"] is False and "they are adjacent" in q["answers"][0]["text"]
    assert not any("adjacent" in p["text"] for p in client.get("/api/games/club/press", headers=france).json())
    assert any("adjacent" in p["text"] for p in client.get("/api/games/club/press", headers=germany).json())
    assert client.get("/api/games/club/verify", headers=GM).json()["ok"]
