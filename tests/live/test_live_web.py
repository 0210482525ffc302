"""The table view, its state, the GM's controls and the players' agreement, through the site (no browser)."""

from __future__ import annotations

from livetools import LIVE_GM_CREDENTIAL, LIVE_NAMES, LIVE_POWERS
from sitetools import post

from gamesmaster.gm import Settings
from gamesmaster.rules import Position
from gamesmaster.variants import load_variant


def gm_sign_in(client):
    post(client, "/gm/sign-in", {"credential": LIVE_GM_CREDENTIAL}, "/gm")


def _club(gm) -> dict[str, str]:
    created = gm.live.create("club", title="Club night", players=LIVE_NAMES,
                                   assign=dict(zip(LIVE_NAMES, LIVE_POWERS)))
    return {created.powers[n]: c for n, c in created.credentials.items()}


def test_table_shows_who_not_what(client, site_gm, clock):
    creds = _club(site_gm)
    site_gm.orders.submit_orders("club", "FRANCE", "A Par-Bur\nA Mar S A Par-Bur", credential=creds["FRANCE"], channel="web")
    r = client.get("/games/club/table")
    assert r.status_code == 200
    assert 'data-period="diplomacy"' in r.text and "Club night" in r.text
    assert "PAR - BUR" not in r.text and "Par-Bur" not in r.text  # no orders before the read-out
    st = client.get("/games/club/table/state").json()
    assert st["period"] == "diplomacy" and st["left"] == 30 * 60
    assert {p["power"]: p["handed_in"] for p in st["powers"]}["FRANCE"] is True
    assert "Par-Bur" not in str(st)
    assert 'id="next-step"' not in r.text and 'id="end-period"' not in r.text  # controls only for the GM
    assert client.get("/games/nosuch/table").status_code == 404
    # a game not played live has a table too, but no clock
    site_gm.setup.create_game("postal", players=LIVE_NAMES)
    assert client.get("/games/postal/table/state").json()["live"] is False


def test_gm_controls_and_the_read_out(client, site_gm, clock):
    creds = _club(site_gm)
    r = post(client, "/games/club/live/pause", {}, "/games/club/table")
    assert "GM credential" in r.text and r.status_code == 401
    gm_sign_in(client)
    page = client.get("/games/club/table").text
    assert 'id="end-period"' in page and 'id="slip-orders"' in page
    post(client, "/games/club/live/pause", {}, "/games/club/table")
    assert client.get("/games/club/table/state").json()["paused"] is True
    post(client, "/games/club/live/resume", {}, "/games/club/table")
    post(client, "/games/club/live/add", {"minutes": "2"}, "/games/club/table")
    assert client.get("/games/club/table/state").json()["left"] == 32 * 60
    post(client, "/games/club/live/end", {}, "/games/club/table")
    assert client.get("/games/club/table/state").json()["period"] == "writing"
    # a slip on paper, typed in by the GM
    r = post(client, "/games/club/live/slip", {"power": "ITALY", "orders": "A Ven.--Pie.\nF Nap.--Ion."},
             "/games/club/table")
    assert "slip entered" in r.text
    site_gm.orders.submit_orders("club", "FRANCE", "A Par-Bur", credential=creds["FRANCE"], channel="web")
    r = post(client, "/games/club/live/end", {}, "/games/club/table")
    assert 'data-stage="orders"' in r.text
    assert "A Ven.--Pie." in r.text and "on paper" in r.text and "by phone" in r.text
    assert "civil disorder, its units hold" in r.text
    for _ in range(2):
        r = post(client, "/games/club/live/next", {}, "/games/club/table")
    assert 'data-stage="results"' in r.text and "England" in r.text
    steps = client.get("/games/club/table/state").json()["steps"]
    for _ in range(steps - 3):
        r = post(client, "/games/club/live/next", {}, "/games/club/table")
    assert 'data-stage="after"' in r.text
    r = post(client, "/games/club/live/next", {}, "/games/club/table")
    st = client.get("/games/club/table/state").json()
    assert (st["period"], st["phase"]) == ("diplomacy", "F1901M")
    r = post(client, "/games/club/live/next", {}, "/games/club/table")
    assert "no read-out under way" in r.text
    assert "Table view" in client.get("/gm/games/club").text


def test_players_agree_from_the_war_room(client, site_gm):
    creds = _club(site_gm)
    for power in LIVE_POWERS:
        client.cookies.clear()
        post(client, "/games/club/sign-in", {"credential": creds[power]}, "/games/club/war-room")
        page = client.get("/games/club/war-room").text
        assert 'id="live-box"' in page
        r = post(client, "/games/club/live/agree", {"back": "/games/club/war-room"}, "/games/club/war-room")
        assert r.url.path == "/games/club/war-room"
    st = client.get("/games/club/table/state").json()
    assert st["period"] == "writing"
    client.cookies.clear()
    r = post(client, "/games/club/live/agree", {}, "/games/club/table")
    assert r.status_code == 401


def test_create_live_and_practice_games_from_the_console(client, site_gm):
    assert client.get("/gm/live", follow_redirects=False).status_code == 303
    gm_sign_in(client)
    assert "New live club game" in client.get("/gm").text
    assert "practice" in client.get("/gm/live").text
    r = post(client, "/gm/live", {"id": "newbies", "assign": "Nia=France, Ole=Germany", "practice": "1"}, "/gm/live")
    assert r.status_code == 200 and "Credentials" in r.text and "Practice game" in r.text
    st = client.get("/games/newbies/table/state").json()
    assert st["practice"] and st["period"] == "writing" and st["left"] == 300
    r = post(client, "/gm/live", {"id": "club2", "players": ",".join(LIVE_NAMES), "writing": "7"}, "/gm/live")
    assert r.status_code == 200
    assert client.get("/games/club2/table/state").json()["config"]["writing"] == 7
    r = post(client, "/gm/live", {"id": "bad", "players": "Ann", "writing": "0"}, "/gm/live")
    assert r.status_code == 400 and "writing" in r.text


def test_events_stream_the_state(client, site_gm):
    _club(site_gm)
    r = client.get("/games/club/table/events?once=1")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    data = [line for line in r.text.splitlines() if line.startswith("data: ")]
    assert len(data) == 1
    import json
    st = json.loads(data[0][6:])
    assert st["period"] == "diplomacy" and st["version"]
    assert client.get("/games/nosuch/table/events?once=1").status_code == 404


def test_odd_requests_get_clear_refusals(client, site_gm):
    _club(site_gm)
    site_gm.setup.create_game("forming", players=["Ann"], start=False)
    for url in ["/games/forming/table", "/games/forming/table/state", "/games/forming/table/events?once=1",
                "/games/%00/table", "/games/club/table/events?once=maybe", "/games/club/table/main"]:
        r = client.get(url)
        assert r.status_code < 500, (url, r.status_code)
    r = client.post("/games/club/live/pause", data={"csrf_token": "forged"})
    assert r.status_code == 403
    gm_sign_in(client)
    for action, data in [("add", {"minutes": "abc"}), ("add", {"minutes": "0"}), ("add", {"minutes": "1e9"}),
                         ("next", {}), ("resume", {}), ("slip", {"power": "Narnia", "orders": "A Par-Bur"}),
                         ("slip", {"power": "FRANCE", "orders": "x" * 300}), ("frobnicate", {}),
                         ("agree", {"power": "FRANCE"}), ("agree", {}), ("pause", {"back": "https://evil.example/"})]:
        r = post(client, f"/games/club/live/{action}", data, "/games/club/table")
        assert r.status_code < 500, (action, r.status_code, r.text[:200])
        assert r.url.host != "evil.example"
    for action in ("pause", "end", "next"):
        r = post(client, f"/games/forming/live/{action}", {}, "/games/club/table")
        assert r.status_code < 500
    r = post(client, "/gm/live", {"id": "Bad Id!", "players": "Ann"}, "/gm/live")
    assert r.status_code == 400
    r = post(client, "/gm/live", {"id": "x1", "assign": "Ann"}, "/gm/live")
    assert r.status_code == 400 and "NAME=POWER" in r.text


def _send(client, creds, power: str, text: str):
    """Press from a power's war room (signed in) and through the API: (the flash shown, the API's answer)."""
    client.cookies.clear()
    post(client, "/games/club/sign-in", {"credential": creds[power]}, "/games/club/war-room")
    page = post(client, "/games/club/war-room/press", {"text": text}, "/games/club/war-room").text
    api = client.post("/api/games/club/press", json={"text": text + " (api)"},
                      headers={"Authorization": f"Bearer {creds[power]}"})
    return page, api


def test_press_is_open_only_in_the_diplomacy_periods(client, site_gm, clock):
    """Rulebook XIV.1: no diplomacy while orders are written and read out, nor in retreats and adjustments."""
    creds = _club(site_gm)
    page, api = _send(client, creds, "FRANCE", "Peace in the west?")
    assert "Sent to everyone." in page and api.status_code == 201
    site_gm.live.end_period("club")  # diplomacy over: writing
    page, api = _send(client, creds, "FRANCE", "Psst, Germany")
    closed = "the press is closed: no diplomacy while orders are written (rulebook XIV.1)"
    assert closed in page and api.status_code in (400, 409) and closed in api.text
    room = client.get("/games/club/war-room").text  # the war room says so instead of offering the form
    assert 'id="press-closed"' in room and 'id="press-form"' not in room
    site_gm.live.end_period("club")  # writing over: the read-out
    page, api = _send(client, creds, "GERMANY", "Well played")
    assert "no diplomacy while the results are read out" in page and api.status_code in (400, 409)
    site_gm.press.post_press("club", "The read-out begins.", by_gm=True)  # the GM's notices still go out
    texts = [p.text for p in site_gm.press.press("club")]
    assert "Peace in the west?" in texts and "Peace in the west? (api)" in texts
    assert not any(t.startswith(("Psst", "Well played")) for t in texts)
    for _ in range(client.get("/games/club/table/state").json()["steps"]):
        site_gm.live.next_step("club")
    assert client.get("/games/club/table/state").json()["period"] == "diplomacy"
    page, _ = _send(client, creds, "GERMANY", "Fall plans?")
    assert "Sent to everyone." in page and 'id="press-form"' in client.get("/games/club/war-room").text


def test_press_is_closed_in_the_adjustments_at_the_table(client, site_gm, clock):
    created = site_gm.setup.create_game("club", players=LIVE_NAMES, assign=dict(zip(LIVE_NAMES, LIVE_POWERS)),
                                  settings=Settings.from_dict({"press": "full"}),
                                  position=Position.from_dict(load_variant("standard"), {
                                      "phase": "W1901A", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
                                      "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN", "BER"]}}))
    creds = {created.powers[n]: c for n, c in created.credentials.items()}
    site_gm.live.make_live("club")
    page, api = _send(client, creds, "FRANCE", "Build where?")
    assert "no diplomacy during retreats and adjustments (rulebook XIV.1)" in page and api.status_code in (400, 409)
