"""The pages: games, a game, history, rules, the war room and the GM console; sessions and CSRF."""

from __future__ import annotations

import html
import re

import pytest
from sitetools import csrf, plain, post
from webtools import GM_CREDENTIAL

from gamesmaster.gm import RuleSpec
from gamesmaster.rules import Position
from gamesmaster.variants import load_variant


def sign_in(client, game: str, credential: str):
    r = post(client, f"/games/{game}/sign-in", {"credential": credential}, f"/games/{game}/war-room")
    assert r.status_code == 200
    return r


def gm_sign_in(client):
    r = post(client, "/gm/sign-in", {"credential": GM_CREDENTIAL}, "/gm")
    assert "Signed in as the gamesmaster" in plain(r)
    return r


def no_trace(r) -> None:
    assert "Traceback" not in r.text and 'File "' not in r.text


def test_games_page(client, game):
    r = client.get("/")
    assert r.status_code == 200
    assert "Club game" in plain(r) and "Spring 1901 movement" in plain(r) and "Standard Diplomacy" in plain(r)
    assert 'data-deadline="2030-05-09T12:00:00+00:00"' in r.text
    assert r.headers["x-frame-options"] == "DENY"


def test_game_page_shows_map_ordered_flags_and_results(client, game, site_gm):
    site_gm.orders.submit_orders("club", "FRANCE", "A Par-Bur", credential=game["FRANCE"], channel="web")
    r = client.get("/games/club")
    assert r.status_code == 200
    assert '<svg' in r.text and 'data-province="PAR"' in r.text
    row = re.search(r'<tr data-power="FRANCE">.*?</tr>', r.text, re.DOTALL).group(0)
    assert "received" in row
    assert "not yet" in re.search(r'<tr data-power="ENGLAND">.*?</tr>', r.text, re.DOTALL).group(0)
    assert "Par-Bur" not in r.text and "PAR - BUR" not in r.text  # secret until the deadline
    site_gm.deadlines.process("club", force=True)
    r = client.get("/games/club")
    assert "Results: Spring 1901 movement" in plain(r) and "A PAR - BUR" in plain(r) and "succeeds" in plain(r)


def test_a_game_page_body_is_rendered_once_a_head_and_follows_every_change(client, game, site_gm, monkeypatch):
    """The body of a game page is kept for the views it was rendered from: a second visitor gets it without
    rendering it again, and the next change (an order, which shows as received) renders it afresh."""
    from gamesmaster.web import pages
    rendered = []
    real = pages.site.game
    monkeypatch.setattr(pages.site, "game", lambda page: rendered.append(page) or real(page))
    first = client.get("/games/club").text
    again = client.get("/games/club", headers={"cookie": "gm_visitor=someone-else"}).text
    assert len(rendered) == 1 and 'data-province="PAR"' in again
    assert re.search(r'<main>.*</main>', first, re.DOTALL).group(0) == re.search(r'<main>.*</main>', again,
                                                                                 re.DOTALL).group(0)
    site_gm.orders.submit_orders("club", "FRANCE", "A Par-Bur", credential=game["FRANCE"], channel="web")
    after = client.get("/games/club").text
    assert len(rendered) == 2
    assert "received" in re.search(r'<tr data-power="FRANCE">.*?</tr>', after, re.DOTALL).group(0)
    assert "not yet" in re.search(r'<tr data-power="FRANCE">.*?</tr>', first, re.DOTALL).group(0)


def test_history_steps_and_chart(client, game, site_gm):
    site_gm.orders.submit_orders("club", "RUSSIA", "A War-Gal", credential=game["RUSSIA"], channel="web")
    site_gm.deadlines.process("club", force=True)
    site_gm.deadlines.process("club", force=True)
    r = client.get("/games/club/history")
    assert r.status_code == 200
    assert "Fall 1901 movement" in plain(r) and 'class="chart"' in r.text
    r = client.get("/games/club/history?phase=S1901M")
    assert "A WAR - GAL" in plain(r) and 'rel="next"' in r.text and 'rel="prev"' not in r.text
    r = client.get("/games/club/history?phase=now")
    assert "The board now" in plain(r)
    r = client.get("/games/club/history?phase=S1907M")
    assert r.status_code == 404 and "has not been published" in plain(r)
    r = client.get("/games/club/history?phase=banana")
    assert r.status_code == 400 and "does not parse" in plain(r)
    no_trace(r)


def test_rules_page_in_words(client, game):
    r = client.get("/games/club/rules")
    assert r.status_code == 200
    assert "Koning" in plain(r) and "How the game is run" in plain(r) and "Public announcements and private letters" in plain(r)


def test_a_short_game_set_in_the_rules_is_shown_as_one(client, site_gm):
    site_gm.setup.create_game("short", players=["Ann", "Bob"], rules=RuleSpec.read({"preset": "2023", "last_year": 1905}))
    site_gm.setup.create_game("long", players=["Ann", "Bob"])
    assert "Short game After 1905, the player with the most pieces on the board wins" in plain(client.get("/games/short/rules"))
    assert "the player with the most pieces on the board wins" not in plain(client.get("/games/long/rules"))


def test_unknown_pages_are_clear_404s(client):
    for url in ("/games/nosuch", "/games/nosuch/war-room", "/nowhere", "/gm/games/nosuch"):
        r = client.get(url)
        assert r.status_code in (401, 404), url
        assert r.headers["content-type"].startswith("text/html")
        no_trace(r)
    assert "no game 'nosuch'" in html.unescape(client.get("/games/nosuch").text)
    r = client.put("/games/nosuch")
    assert r.status_code == 405 and "not allowed" in plain(r)


def test_forms_need_the_csrf_token(client, game):
    r = client.post("/games/club/sign-in", data={"credential": game["FRANCE"]})
    assert r.status_code == 403 and "CSRF" in plain(r)
    r = client.post("/games/club/sign-in", data={"credential": game["FRANCE"], "csrf_token": "forged"})
    assert r.status_code == 403
    r = client.post("/gm/sign-in", data={"credential": GM_CREDENTIAL})
    assert r.status_code == 403
    r = client.post("/games/club/war-room/check", json={"orders": "A Par-Bur"})
    assert r.status_code == 403


def test_session_cookie_is_signed_http_only_and_lax(client, game, app):
    from fastapi.testclient import TestClient
    r = client.get("/")
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    with TestClient(app, base_url="https://testserver") as secure:
        assert "Secure" in secure.get("/").headers["set-cookie"]
    # a tampered cookie is ignored: no session, no GM
    client.cookies.set("gm_session", cookie.split(";")[0].split("=", 1)[1][:-3] + "abc")
    r = client.get("/gm")
    assert "GM credential" in plain(r) and "Create a game" not in r.text


def test_war_room_sign_in_orders_and_secrecy(client, game, app):
    r = client.get("/games/club/war-room")
    assert "Sign in to your war room" in plain(r)
    r = post(client, "/games/club/sign-in", {"credential": "1.wrong"}, "/games/club/war-room")
    assert "not valid" in plain(r) and "Sign in to your war room" in plain(r)
    r = sign_in(client, "club", game["FRANCE"])
    assert "Signed in as Cat, France" in plain(r) and "France war room" in plain(r)
    assert "A PAR - BUR" in plain(r)  # a legal option, as a button
    token = csrf(client, "/games/club/war-room")
    r = client.post("/games/club/war-room/check", json={"orders": "A Par-Bur\nA Par-Mos"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and [a["status"] for a in r.json()["answers"]] == ["accepted", "invalid"]
    r = post(client, "/games/club/war-room/orders", {"orders": "A Par-Bur\nA Mar-Spa\nF Bre-Mid", "phase": "S1901M"},
             "/games/club/war-room")
    assert "Orders received for Spring 1901 movement: 3 accepted" in plain(r) and "Receipt: club/S1901M/FRANCE/1:" in plain(r)
    assert re.search(r"Receipt: club/S1901M/FRANCE/\d+:[0-9a-f]{64}", plain(r))
    assert "accepted as 'F BRE - MAO'" in plain(r)
    # another player, in another browser, sees none of it
    from fastapi.testclient import TestClient
    with TestClient(app) as other:
        sign_in(other, "club", game["ENGLAND"])
        page = plain(other.get("/games/club/war-room"))
        assert "England war room" in page and "PAR - BUR" not in page and "Mar-Spa" not in page
    r = post(client, "/games/club/war-room/withdraw", {}, "/games/club/war-room")
    assert "withdrawn" in plain(r)
    r = post(client, "/games/club/sign-out", {}, "/games/club/war-room")
    assert "Signed out" in plain(r)
    r = client.post("/games/club/war-room/orders", data={"orders": "A Par-Bur", "csrf_token": csrf(client)})
    assert r.status_code == 401 and "sign in" in plain(r)


def test_orders_written_straight_under_a_heading_are_for_every_case(client, game):
    """A player who writes a retreat or a move for next season under its heading, with no 'if', gets it filed (as under
    'otherwise:'), not refused for want of a clause; mixing them with clauses after is refused, saying how to fix it."""
    sign_in(client, "club", game["FRANCE"])
    r = post(client, "/games/club/war-room/orders", {"orders": "A Par-Bur\nnext season:\nA Bur-Mun"},
             "/games/club/war-room")
    assert "1 accepted" in plain(r) and "Fall 1901 movement, otherwise: A Bur-Mun" in plain(r), plain(r)[:1500]
    r = post(client, "/games/club/war-room/orders",
             {"orders": "A Par-Bur\nnext season:\nA Bur-Mun\nif A Par - Bur fails: A Par-Pic"}, "/games/club/war-room")
    assert "follows orders written straight under 'next season:'" in plain(r)
    assert "put those under 'otherwise:'" in plain(r)
    # the refused set comes back in the form as typed, to be mended rather than typed again, and only once
    typed = re.search(r'<textarea[^>]*id="orders"[^>]*>([^<]*)</textarea>', r.text).group(1)
    assert html.unescape(typed).strip() == "A Par-Bur\nnext season:\nA Bur-Mun\nif A Par - Bur fails: A Par-Pic"
    again = re.search(r'<textarea[^>]*id="orders"[^>]*>([^<]*)</textarea>', client.get("/games/club/war-room").text)
    assert "A Par-Pic" not in again.group(1)


def test_war_room_late_orders_press_and_votes(client, game, clock):
    sign_in(client, "club", game["ITALY"])
    r = post(client, "/games/club/war-room/press", {"text": "Lepanto, anyone?", "to": "TURKEY"}, "/games/club/war-room")
    assert "Sent to Turkey" in plain(r) and "Lepanto, anyone?" in plain(r)
    r = post(client, "/games/club/war-room/propose", {"kind": "draw"}, "/games/club/war-room")
    assert "Proposal 1 is open" in plain(r)
    r = post(client, "/games/club/war-room/vote", {"proposal": "1", "vote": "no"}, "/games/club/war-room")
    assert "You voted no on proposal 1" in plain(r)
    r = post(client, "/games/club/war-room/vote", {"proposal": "x", "vote": "no"}, "/games/club/war-room")
    assert r.status_code == 400
    clock.advance(days=5)
    r = post(client, "/games/club/war-room/orders", {"orders": "A Ven H"}, "/games/club/war-room")
    assert "refused: late" in plain(r)


def test_gm_console_sign_in(client):
    r = client.get("/gm")
    assert "GM credential" in plain(r)
    r = post(client, "/gm/sign-in", {"credential": "gm.nope"}, "/gm")
    assert "That is not the GM credential" in plain(r)
    r = client.post("/gm/games", data={"id": "x", "csrf_token": csrf(client, "/gm")})
    assert r.status_code == 401
    gm_sign_in(client)
    assert "Create a game" in client.get("/gm").text


def test_gm_console_creates_a_game_and_shows_credentials_once(client):
    gm_sign_in(client)
    r = post(client, "/gm/games", {"id": "club8", "title": "Club 8", "variant": "standard", "preset": "2023",
                                   "players": "Ann, Bob, Cat", "standbys": "Sam", "press": "public", "tz": "UTC",
                                   "movement": "72h", "opt_koning": "false", "start": "1", "seed": "7"}, "/gm")
    assert r.status_code == 200 and "Game club8 created" in plain(r) and "seed 7" in plain(r)
    secrets = re.findall(r'<span class="secret" data-player="([^"]+)">([^<]+)</span>', r.text)
    assert [n for n, _ in secrets] == ["Ann", "Bob", "Cat", "Sam"]
    assert "changed for this game" in client.get("/games/club8/rules").text
    r = post(client, "/gm/games", {"id": "club8"}, "/gm")
    assert r.status_code == 400 and "already a game" in plain(r) and "Create a game" in plain(r)
    r = post(client, "/gm/games", {"id": "club10", "movement": "whenever"}, "/gm")
    assert r.status_code == 400 and "duration" in plain(r)


def test_gm_console_actions(client, game, site_gm):
    gm_sign_in(client)
    page = "/gm/games/club"
    assert "Enter orders handed over in person" in client.get(page).text
    r = post(client, "/gm/games/club/orders", {"power": "ENGLAND", "orders": "F Lon-Nth\nA Lvp-Yor"}, page)
    assert "Orders of England entered" in plain(r)
    assert site_gm.orders.orders_on_record("club", "ENGLAND", by_gm=True)[0].entered_by == "GM"
    r = post(client, "/gm/games/club/extend", {"by": "24h", "reason": "postal strike"}, page)
    assert "Deadline extended" in plain(r)
    r = post(client, "/gm/games/club/extend", {"until": "yesterday"}, page)
    assert "YYYY-MM-DD HH:MM" in plain(r)
    r = post(client, "/gm/games/club/pause", {"reason": "holiday"}, page)
    assert "The game is paused" in plain(r)
    r = post(client, "/gm/games/club/resume", {}, page)
    assert "The game resumes" in plain(r)
    r = post(client, "/gm/games/club/process", {}, page)
    assert "Spring 1901 movement adjudicated" in plain(r)
    r = post(client, "/gm/games/club/correct", {"reason": "England's slip read F Lon-Eng", "power": "ENGLAND",
                                                 "orders": "F Lon-Eng\nA Lvp-Yor"}, page)
    assert "Spring 1901 movement corrected" in plain(r)
    r = post(client, "/gm/games/club/replace", {"power": "ITALY", "name": "Ken", "reason": "moved away"}, page)
    assert "Ken now plays Italy" in plain(r) and 'class="secret"' in r.text
    r = post(client, "/gm/games/club/standby", {"name": "Sam"}, page)
    assert "Sam joins club" in plain(r)
    r = post(client, "/gm/games/club/press", {"text": "Deadlines move to Wednesdays."}, page)
    assert "Notice published" in plain(r)
    r = post(client, "/gm/games/club/verify", {"receipts": ""}, page)
    assert "The record holds" in plain(r)
    r = post(client, "/gm/games/club/nonsense", {}, page)
    assert r.status_code == 404
    r = post(client, "/gm/games/club/draw", {"reason": "agreed in the pub"}, page)
    assert "declared drawn" in plain(r)
    assert site_gm.games.game("club").status == "finished"


def test_gm_console_forming_game_start(client, site_gm):
    site_gm.setup.create_game("later", players=["Ann", "Bob"], start=False)
    gm_sign_in(client)
    r = post(client, "/gm/games/later/join", {"name": "Cat"}, "/gm/games/later")
    assert "Cat joins later" in plain(r)
    r = post(client, "/gm/games/later/start", {"seed": "12"}, "/gm/games/later")
    assert "Lots drawn with seed 12" in plain(r)


def test_png_export_of_a_season(client, game, site_gm):
    site_gm.deadlines.process("club", force=True)
    r = client.get("/games/club/map.png?phase=S1901M&width=600")
    assert r.status_code == 200 and r.content.startswith(b"\x89PNG") and r.headers["content-type"] == "image/png"
    r = client.get("/games/club/map.svg?phase=S1901M")
    assert r.status_code == 200 and "<svg" in r.text


@pytest.mark.parametrize("url", ["/games/club/war-room/orders", "/gm/games", "/gm/games/club/process",
                                 "/games/club/sign-in"])
def test_odd_form_bodies_are_4xx(client, game, url):
    for kwargs in ({"content": b"\xff\xfe garbage", "headers": {"Content-Type": "application/x-www-form-urlencoded"}},
                   {"json": {"csrf_token": 1}}, {"content": b"", "headers": {}}):
        r = client.post(url, **kwargs)
        assert 400 <= r.status_code < 500, (url, kwargs, r.status_code)
        no_trace(r)


def test_pages_of_a_game_not_yet_started(client, site_gm):
    site_gm.setup.create_game("later", players=["Ann"], start=False)
    for url in ("/", "/games/later", "/games/later/history", "/games/later/rules", "/games/later/war-room"):
        r = client.get(url)
        assert r.status_code == 200, url
    assert "Waiting for the lots to be drawn" in plain(client.get("/games/later"))
    r = client.get("/games/later/map.svg")
    assert r.status_code == 400 and "has not started" in plain(r)


def test_what_players_write_is_escaped(client, game, site_gm):
    site_gm.press.post_press("club", "<script>alert('x')</script>", credential=game["ITALY"])
    site_gm.orders.submit_orders("club", "ITALY", "<img src=x onerror=alert(1)>", credential=game["ITALY"], channel="web")
    site_gm.deadlines.process("club", force=True)
    for url in ("/games/club", "/games/club/history?phase=S1901M"):
        r = client.get(url)
        assert "<script>alert" not in r.text and "<img src=x" not in r.text
        assert "&lt;script&gt;" in r.text or "&lt;img" in r.text


def test_war_room_in_the_adjustments_offers_builds(client, site_gm):
    position = {"variant": "standard", "phase": "W1901A",
                "units": {"FRANCE": ["A BUR", "A SPA", "F MAO"], "ENGLAND": ["F LON"]},
                "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "ENGLAND": ["LON"]}}
    created = site_gm.setup.create_game("winter", players=["Cat", "Bob"], assign={"Cat": "FRANCE", "Bob": "ENGLAND"},
                                  position=Position.from_dict(load_variant("standard"), position))
    sign_in(client, "winter", created.credentials["Cat"])
    r = client.get("/games/winter/war-room")
    text = plain(r)
    assert "Orders for Winter 1901 adjustments" in text and "Builds" in text
    assert 'data-order="A PAR B"' in r.text and 'data-order="F BRE B"' in r.text and 'data-order="WAIVE"' in r.text
    r = post(client, "/games/winter/war-room/orders", {"orders": "Build A Par"}, "/games/winter/war-room")
    assert "Every power concerned has ordered: Winter 1901 adjustments processed" in plain(r)
    assert str(site_gm.games.game("winter").phase) == "S1902M"


def test_a_player_checks_a_receipt_and_reads_the_phase_s_record(client, game, site_gm):
    """France keeps the receipt the war room gives, then checks it on the Record page: before the results
    (signed in as France) and after (anyone); a forged receipt does not hold; the commitments show."""
    sign_in(client, "club", game["FRANCE"])
    r = post(client, "/games/club/war-room/orders", {"orders": "A Par-Bur\nA Mar-Spa\nF Bre-Mid"},
             "/games/club/war-room")
    receipt = re.search(r"Receipt: (club/S1901M/FRANCE/1:[0-9a-f]{64})", plain(r)).group(1)
    page = client.get("/games/club")
    assert receipt.split(":")[1] in page.text  # France's commitment is on the game page, its orders are not
    assert "Mar-Spa" not in page.text
    mine = client.get("/games/club/receipt", params={"r": receipt})
    assert 'data-status="pending"' in mine.text and "It holds." in mine.text
    from fastapi.testclient import TestClient
    with TestClient(client.app) as stranger:
        early = stranger.get("/games/club/receipt", params={"r": receipt})
        assert 'data-status="not-yet-public"' in early.text and "Mar-Spa" not in early.text
        # Not checkable yet is neither a pass nor an accusation.
        assert "Not checked yet." in early.text and "It holds." not in early.text and "It does not hold." not in early.text
        site_gm.deadlines.process("club", force=True)
        later = stranger.get("/games/club/receipt", params={"r": receipt})
        assert 'data-status="used"' in later.text and "It holds." in later.text
        forged = stranger.get("/games/club/receipt", params={"r": receipt[:-4] + "0000"})
        assert 'data-status="mismatch"' in forged.text and "It does not hold." in forged.text
        record = stranger.get("/games/club/record/S1901M")
        assert record.status_code == 200 and "A Mar-Spa" in record.text and receipt.split(":")[1] in record.text
        download = stranger.get("/games/club/record.json")
        assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
        from gamesmaster.gm.record import verify_archive
        assert verify_archive(download.json(), receipts=[receipt]).ok
        api = stranger.get("/api/games/club/receipt", params={"r": receipt}).json()
        assert api["ok"] and api["status"] == "used"
        # The line pasted as the answer prints it, with a capital a phone keyboard put first, still reads.
        pasted = stranger.get("/games/club/receipt", params={"r": "Receipt: C" + receipt[1:]})
        assert 'data-status="used"' in pasted.text and "It holds." in pasted.text
        # Something that is not a receipt is the asker's mistake: a 400 that says so, not a verdict.
        for bad in ("hello", receipt[:-5], "", "x" * 400):
            got = stranger.get("/games/club/receipt", params={"r": bad})
            assert got.status_code == 400, (bad[:20], got.status_code)
            assert "It does not hold." not in got.text and "It holds." not in got.text
        assert stranger.get("/games/club/record/F1901M").status_code == 404


def test_a_retreat_phase_played_in_two_rounds_on_the_site(client, site_gm):
    """Calhamer's rule (seed 004 s17): both rounds are published; the history steps past the phase once."""
    position = {"phase": "S1901M", "units": {"AUSTRIA": ["A BOH"], "GERMANY": ["A MUN"], "RUSSIA": ["A GAL", "A SIL"],
                                             "FRANCE": ["A BUR", "A RUH"]},
                "centers": {"AUSTRIA": ["VIE"], "GERMANY": ["BER"], "RUSSIA": ["WAR"], "FRANCE": ["PAR"]}}
    names = ["Ann", "Bob", "Cat", "Dan"]
    powers = ["AUSTRIA", "GERMANY", "RUSSIA", "FRANCE"]
    site_gm.setup.create_game("rounds", players=names, assign=dict(zip(names, powers)),
                        position=Position.from_dict(load_variant("standard"), position),
                        rules=RuleSpec.read({"preset": "2023", "retreat_clash": "calhamer"}))
    site_gm.orders.submit_orders("rounds", "RUSSIA", "A Gal-Boh\nA Sil S A Gal-Boh", by_gm=True)
    site_gm.orders.submit_orders("rounds", "FRANCE", "A Bur-Mun\nA Ruh S A Bur-Mun", by_gm=True)
    site_gm.deadlines.process("rounds", force=True)
    for orders in (("A Boh-Tyr", "A Mun-Tyr"), ("A Boh-Vie", "A Mun-Kie")):
        site_gm.orders.submit_orders("rounds", "AUSTRIA", orders[0], by_gm=True)
        site_gm.orders.submit_orders("rounds", "GERMANY", orders[1], by_gm=True)
    assert str(site_gm.games.game("rounds").phase) == "F1901M"
    results = client.get("/api/games/rounds/results").json()
    assert [r["phase"] for r in results] == ["S1901M", "S1901R", "S1901R"]
    assert client.get("/api/games/rounds/results/S1901R").json()["phase"] == "S1901R"
    page = client.get("/games/rounds/history?phase=S1901R")
    assert page.status_code == 200 and "A MUN R KIE" in page.text  # the phase's last round
    assert 'id="next" href="?phase=now"' in page.text and 'id="prev" href="?phase=S1901M"' in page.text
    record = plain(client.get("/games/rounds/record/S1901R"))  # every entry of both rounds
    assert "A Mun-Tyr" in record and "S1901R adjudicated: 2 orders, next S1901R" in record
    assert "A Mun-Kie" in record and "S1901R adjudicated: 2 orders, next F1901M" in record
