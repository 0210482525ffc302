"""Scoring on the site: the score endpoint, a game created with a system, its scores on the game and rules pages."""

from __future__ import annotations

from sitetools import plain, post
from webtools import GM, GM_CREDENTIAL


def test_the_score_endpoint(client):
    r = client.post("/api/score", json={"system": "sos", "draw": ["ENGLAND", "france"],
                                        "centres": {"ENGLAND": 12, "FRANCE": 10, "RUSSIA": 8, "TURKEY": 4}})
    assert r.status_code == 200, r.text
    assert r.json() == {"system": "sos", "scores": {"AUSTRIA": 0, "ENGLAND": 44.44, "FRANCE": 30.86, "GERMANY": 0,
                                                    "ITALY": 0, "RUSSIA": 0, "TURKEY": 0}}


def test_the_score_endpoint_names_what_is_wrong(client):
    r = client.post("/api/score", json={"system": "dss", "draw": ["SPAIN"], "centres": {"ENGLAND": 3}})
    assert r.status_code == 400 and "unknown power 'SPAIN'" in r.json()["detail"]
    r = client.post("/api/score", json={"system": "dss", "centres": {"ENGLAND": 30, "FRANCE": 10}})
    assert r.status_code == 400 and "hold 40 supply centres" in r.json()["detail"]
    r = client.post("/api/score", json={"system": "elo", "centres": {"ENGLAND": 3}})
    assert r.status_code == 422 and "Traceback" not in r.text


def test_a_scored_game_on_its_pages(client, site_gm):
    r = client.post("/api/games", json={"id": "cup", "players": list("ABCDEFG"), "settings": {"scoring": "c-diplo"}},
                    headers=GM)
    assert r.status_code == 201, r.text
    doc = client.get("/api/games/cup").json()
    # at the start: Russia 4 tops (1 + 4 + 38); six share second and third at 3 ((14 + 7) / 6 each)
    assert doc["scoring"] == "c-diplo" and doc["scores"]["RUSSIA"] == 43 and doc["scores"]["ENGLAND"] == 7.5
    page = client.get("/games/cup").text
    assert "Scores if the game ended now" in page and "43.00" in page
    assert "C-Diplo: a solo takes 100" in client.get("/games/cup/rules").text
    site_gm.press.declare_draw("cup")
    doc = client.get("/api/games/cup").json()
    assert doc["result"]["scores"] == doc["scores"] and doc["scores"]["RUSSIA"] == 43
    page = client.get("/games/cup").text
    assert "Final scores" in page and "43.00" in page and "7.50" in page


def test_an_unscored_game_shows_no_scores(client, game):
    assert client.get("/api/games/club").json()["scores"] == {}
    assert "Scores if the game ended now" not in client.get("/games/club").text


def test_a_player_of_several_powers_scores_their_sum(client):
    r = client.post("/api/games", json={"id": "trio", "variant": "standard-3a", "players": ["Ann", "Bob", "Cat"],
                                        "settings": {"scoring": "dss"}}, headers=GM)
    assert r.status_code == 201, r.text
    doc = client.get("/api/games/trio").json()
    assert set(doc["scores"].values()) == {14.29}  # if it ended now: a draw of the seven powers
    assert sorted(doc["player_scores"].values()) == [14.29, 42.87, 42.87] and set(doc["player_scores"]) == {
        "Ann", "Bob", "Cat"}
    page = client.get("/games/trio").text
    assert "By player" in page and "42.87" in page
    assert doc["settings"]["scoring"] == "dss"


def test_the_console_form_chooses_the_system_and_names_one_that_does_not_fit(client, site_gm):
    post(client, "/gm/sign-in", {"credential": GM_CREDENTIAL}, "/gm")
    assert '<select id="scoring" name="scoring">' in client.get("/gm").text
    r = post(client, "/gm/games", {"id": "t9", "variant": "standard", "players": "Ann, Bob", "scoring": "tribute",
                                   "start": "1"}, "/gm")
    assert r.status_code == 200 and site_gm.games.game("t9").settings.scoring == "tribute"
    r = post(client, "/gm/games", {"id": "n9", "variant": "nine-man", "scoring": "carnage", "start": "0"}, "/gm")
    assert r.status_code == 400 and "Carnage is defined for the standard board" in plain(r)
    r = post(client, "/gm/games", {"id": "x9", "scoring": "elo", "start": "0"}, "/gm")
    assert r.status_code == 400 and "unknown scoring system 'elo'" in plain(r)


def test_a_huge_or_hostile_board_is_refused_with_a_reason(client):
    r = client.post("/api/score", json={"system": "dss", "centres": {f"P{i}": 0 for i in range(65)}})
    assert r.status_code == 422 and "Traceback" not in r.text
    r = client.post("/api/score", json={"system": "dss", "centres": {"ENGLAND": 10 ** 30}})
    assert r.status_code == 400 and "supply centres" in r.json()["detail"]
    r = client.post("/api/score", json={"system": "manorcon", "centres": {"ENGLAND": 5}, "played": {"FRANCE": -1}})
    assert r.status_code == 400 and "FRANCE: an eliminated power played from 1 to 10000 years" in r.json()["detail"]
