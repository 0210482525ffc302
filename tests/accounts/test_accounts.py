"""Players' accounts through the site, with the links and notifications mailed through the real mail door
to a relay sink on loopback: signing up and in, links used once and expiring, limits that lock nobody
out, passwords (Argon2id), open games by lot and by choice, claiming a seat with its credential,
invitations, the record of who held each seat, and notifications on the site and by mail."""

from __future__ import annotations

import json
import re

import pytest
from accounttools import SITE, Site
from webtools import bearer

from gamesmaster.store.accounts import AccountRecords

SIX = ["Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def _forming(site: Site, game: str = "open1", seats: str = "lot") -> None:
    site.gm.setup.create_game(game, title="Open game", players=SIX, start=False)
    g = site.gm_client()
    r = site.post(g, f"/gm/games/{game}/seats", {"open": "1", "seats": seats}, page="/gm")
    assert "is open to players with accounts" in r.text


def _ledger(site: Site, game: str) -> list:
    with site.gm.desk.reading() as rec:
        return list(rec.entries(game))


def test_sign_up_and_in_by_a_link_that_works_once_and_expires(site):
    c = site.sign_up("ann@players.test", "Ann")
    assert "My games" in c.get("/account").text and 'id="unread"' in c.get("/").text
    # The link is used up: a second use is refused, and so is a forged one.
    first = site.link("ann@players.test")
    other = site.client()
    r = site.post(other, "/account/link", {"t": first}, page=f"/account/link?t={first}")
    assert r.status_code == 403 and "used already or has expired" in r.text
    r = site.post(other, "/account/link", {"t": "l." + "A" * 43}, page="/account")
    assert r.status_code == 403
    r = site.post(other, "/account/link", {"t": "<script>"}, page="/account")
    assert r.status_code == 403 and "not a sign-in link" in r.text
    # Opening the link only shows a button (a mail scanner fetching it does not use it up).
    r = site.post(other, "/account/send-link", {"email": "ann@players.test"})
    assert "If ann@players.test has an account" in r.text
    token = site.link("ann@players.test", 2)
    assert "Sign in</button>" in other.get(f"/account/link?t={token}").text
    site.clock.advance(minutes=31)
    r = site.post(other, "/account/link", {"t": token}, page=f"/account/link?t={token}")
    assert r.status_code == 403 and "expired" in r.text
    site.clock.advance(days=2)
    assert site.gm.accounts.purge_links() >= 2  # the worker forgets links a day past their expiry
    # Signing up again with a known address only mails a link: the account is not changed.
    site.post(site.client(), "/account/sign-up", {"email": "ANN@players.test", "name": "Mallory"})
    assert "Hello Ann" in site.sink.wait("ann@players.test", "Your sign-in link", 3)[2].text
    # The link's token is kept only as a hash, and no longer in the notification once mailed.
    with site.gm.desk.reading() as rec:
        rows = rec.conn.exec_driver_sql("SELECT text FROM gm_account_notices").fetchall()
    assert all(first not in r[0] and token not in r[0] for r in rows)


def test_an_unknown_address_gets_the_same_answer_and_no_mail(site):
    r = site.post(site.client(), "/account/send-link", {"email": "nobody@players.test"})
    assert r.status_code == 200 and "If nobody@players.test has an account" in r.text
    site.room.server.wake()
    site.sign_up("ann@players.test", "Ann")  # a later mail that does arrive: the dispatcher has run since
    assert site.sink.to("nobody@players.test") == []


def test_bad_input_is_named_never_a_500(site):
    c = site.client()
    for email, name, want in [("not an address", "Ann", "is not an e-mail address"),
                              ("ann@players.test", "", "enter the name"),
                              ("a\x00b@players.test", "Ann", "NUL"), ("x" * 2000 + "@p.test", "Ann", "too long"),
                              ("=?utf-8?b?QQ==?=@players.test", "Ann", "not an e-mail address")]:
        r = site.post(c, "/account/sign-up", {"email": email, "name": name})
        assert r.status_code == 400 and want in r.text, (email, r.text[:300])
    r = c.post("/account/sign-up", data={"email": "ann@players.test", "name": "Ann"})
    assert r.status_code == 403 and "CSRF" in r.text
    assert c.get("/account/notifications").status_code == 401
    assert c.get("/account/notifications.json").json() == {"unread": 0, "latest": [], "signed_in": False}


def test_a_link_is_never_built_from_a_host_header_the_client_sets(site):
    site.app.state.site_url = None
    c = site.client()
    r = site.post(c, "/account/sign-up", {"email": "ann@players.test", "name": "Ann"})
    assert r.status_code == 400 and "GAMESMASTER_SITE_URL" in r.text


def test_links_are_bounded_per_address_and_the_owner_is_never_locked_out(site):
    site.sign_up("ann@players.test", "Ann")  # link 1
    attacker = site.client()
    for _ in range(2):
        assert site.post(attacker, "/account/send-link", {"email": "ann@players.test"}).status_code == 200
    r = site.post(attacker, "/account/send-link", {"email": "ann@players.test"})
    assert r.status_code == 429 and "use it" in r.text and "ask again in" in r.text
    # Every link asked for went to Ann, and each of them still signs her in.
    token = site.link("ann@players.test", 3)
    ann = site.client()
    r = site.post(ann, "/account/link", {"t": token}, page=f"/account/link?t={token}")
    assert "Signed in as Ann" in r.text
    # One client address asking for links to many addresses is limited too (5 at once).
    spammer = site.client()
    codes = [site.post(spammer, "/account/sign-up", {"email": f"p{i}@players.test", "name": f"P{i}"}).status_code
             for i in range(4)]
    assert codes[-1] == 429 and "too many links asked for from here" in \
        site.post(spammer, "/account/send-link", {"email": "q@players.test"}).text


def test_a_password_is_argon2id_and_wrong_ones_are_limited(site):
    c = site.sign_up("ann@players.test", "Ann")
    r = site.post(c, "/account/password", {"password": "short"})
    assert "10 to 200 characters" in r.text
    r = site.post(c, "/account/password", {"password": "correct horse battery"})
    assert "Password set." in r.text
    with site.gm.desk.reading() as rec:
        stored = AccountRecords(rec.conn).by_email("ann@players.test").password_hash
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    other = site.client()
    r = site.post(other, "/account/password-sign-in", {"email": "ann@players.test", "password": "wrong password!"})
    assert "do not match an account" in r.text
    r = site.post(other, "/account/password-sign-in", {"email": "Ann@players.test", "password": "correct horse battery"})
    assert "Signed in as Ann" in r.text
    # Guessing is slowed (per address, then per account), but Ann's own session is never refused. (The
    # limiter's clock stands still here, so a slow machine's hashing does not let tokens grow back.)
    from gamesmaster.web.security import SignInLimits
    site.app.state.limits = SignInLimits(clock=lambda: 0.0)
    guesser = site.client()
    codes = [site.post(guesser, "/account/password-sign-in", {"email": "ann@players.test", "password": f"guess {i:04d}xx"}
                       ).status_code for i in range(11)]
    assert codes[-1] == 429, codes
    r = site.post(guesser, "/account/password-sign-in", {"email": "ann@players.test", "password": "correct horse battery"})
    assert r.status_code == 429 and "try again in" in r.text  # refused before the password is even checked
    assert c.get("/account").status_code == 200 and "My games" in c.get("/account").text


def test_joining_an_open_game_by_lot_starts_it_and_the_record_says_who_holds_the_seat(site):
    _forming(site)
    c = site.sign_up("ann@players.test", "Ann")
    r = c.get("/games/open")
    assert "Open game" in r.text and "6 of 7 places taken" in r.text and "drawn by lot" in r.text
    r = site.post(c, "/games/open1/join", {}, page="/games/open")
    assert "You have joined open1" in r.text and "the game has begun" in r.text
    credential = re.search(r'id="seat-credential">([^<]+)<', r.text).group(1)
    st = site.gm.games.game("open1")
    assert st.status == "active"
    power = next(s for s in st.seats if s.name == "Ann").power
    # My games says what the game needs from Ann now; her war room takes the account's session.
    assert f"orders due for {power.capitalize()}" in c.get("/account").text
    assert 'id="orders"' in c.get("/games/open1/war-room").text
    # The seat's credential works too (for mail and clubs).
    api = site.client()
    assert api.get("/api/games/open1/me", headers=bearer(credential)).status_code == 200
    # The record: Ann joined, the lot was drawn with her, and the account is named by its ref, never its address.
    entries = _ledger(site, "open1")
    claims = [e for e in entries if e.kind == "seat-claimed"]
    assert len(claims) == 1 and claims[0].payload["how"] == "joined" and claims[0].payload["name"] == "Ann"
    assert "ann@players.test" not in json.dumps([e.payload_text for e in entries])
    lots = next(e for e in entries if e.kind == "lots-drawn")
    assert "Ann" in lots.payload["players"] and claims[0].seq < lots.seq
    assert site.gm.record.verify("open1").problems == ()
    # No second seat, and a started game takes nobody.
    r = site.post(c, "/games/open1/join", {}, page="/games/open")
    assert "has started" in r.text


def test_seats_by_choice_and_a_closed_game(site):
    _forming(site, "pick", seats="choice")
    ann = site.sign_up("ann@players.test", "Ann")
    r = ann.get("/games/open")
    assert "chosen by each player" in r.text and '<option value="FRANCE">' in r.text
    r = site.post(ann, "/games/pick/join", {}, page="/games/open")
    assert "choose the power you will play" in r.text
    r = site.post(ann, "/games/pick/join", {"power": "france"}, page="/games/open")
    assert "You have joined pick" in r.text and "the game has begun" not in r.text, r.text[-1500:]
    # The six players the GM signed up chose nothing: the game waits, and the GM's start says why.
    g = site.gm_client()
    r = site.post(g, "/gm/games/pick/start", {}, page="/gm/games/pick")
    assert "chose none: assign the powers instead" in r.text
    assert site.gm.record.verify("pick").problems == ()
    # A closed game takes nobody.
    site.post(g, "/gm/games/pick/seats", {"open": "0"}, page="/gm")
    bob = site.sign_up("zed@players.test", "Zed")
    assert "not open to new players" in site.post(bob, "/games/pick/join", {"power": "italy"}, page="/games/open").text


def test_every_player_chooses_and_the_game_starts_with_their_choices(site):
    site.gm.setup.create_game("all", title="All choose", variant="standard-5", start=False)
    site.gm.joining.open_seats("all", True, "choice")
    free = site.gm.joining.open_games()[0].free_powers
    assert len(free) == 5
    for i, name in enumerate(["Cy", "Di", "Ed"]):  # three who joined earlier
        site.gm.accounts.sign_up(f"{name}@players.test", name, SITE)
        site.gm.joining.join_open("all", _account_id(site, f"{name.lower()}@players.test"), free[2 + i])
    ann, bob = site.sign_up("ann@players.test", "Ann"), site.sign_up("bob@players.test", "Bob")
    site.post(ann, "/games/all/join", {"power": free[0]}, page="/games/open")
    r = site.post(bob, "/games/all/join", {"power": free[0]}, page="/games/open")
    assert "is not free" in r.text
    r = site.post(bob, "/games/all/join", {"power": free[1]}, page="/games/open")
    assert "the game has begun" in r.text
    st = site.gm.games.game("all")
    assert {s.name: s.power for s in st.seats} == {"Ann": free[0], "Bob": free[1], "Cy": free[2], "Di": free[3],
                                                    "Ed": free[4]}
    assert any(e.kind == "powers-assigned" for e in _ledger(site, "all"))
    assert site.gm.record.verify("all").problems == ()


def test_claiming_a_seat_with_its_credential_and_losing_it_with_a_new_one(site):
    created = site.gm.setup.create_game("club", players=["Ann", *SIX], assign={"Ann": "FRANCE", "Bob": "ENGLAND",
                                  "Cat": "GERMANY", "Dan": "ITALY", "Eve": "AUSTRIA", "Fay": "RUSSIA", "Gus": "TURKEY"})
    credential = created.credentials["Ann"]
    c = site.sign_up("ann@players.test", "Ann")
    r = site.post(c, "/account/claim", {"game": "club", "credential": "1.wrongwrongwrong"})
    assert "not valid" in r.text
    r = site.post(c, "/account/claim", {"game": "club", "credential": credential})
    assert "now in your account" in r.text and "orders due for France" in r.text
    r = site.post(c, "/games/club/war-room/orders", {"orders": "A Par-Bur\nA Mar S A Par-Bur\nF Bre-Mid"},
                  page="/games/club/war-room")
    assert "3 accepted" in r.text
    assert site.client().get("/api/games/club/me", headers=bearer(credential)).status_code == 200
    claim = [e for e in _ledger(site, "club") if e.kind == "seat-claimed"]
    assert claim[-1].payload["how"] == "credential" and claim[-1].payload["player"] == 1
    # The GM issues Ann's seat a new credential: the account's hold on it ends with the old credential.
    site.gm.players.new_credential("club", "Ann", reason="lost")
    assert "club" not in site.gm.accounts.account_seats(_account_id(site, "ann@players.test"))
    assert "No games yet" in c.get("/account").text
    assert site.gm.record.verify("club").problems == ()


def test_the_gm_invites_by_mail_and_the_invited_player_joins_a_game_not_open_to_all(site):
    site.gm.setup.create_game("inv", title="By invitation", players=SIX, start=False)
    g = site.gm_client()
    r = site.post(g, "/gm/games/inv/invite", {"email": "ivy@players.test", "name": "Ivy"}, page="/gm")
    # the site's first mail: it has delivered none yet, so it promises none (docs/mail.md)
    assert "An invitation to inv for ivy@players.test is queued" in r.text and "on its way" not in r.text
    token = site.link("ivy@players.test", subject="An invitation to play in By invitation")
    ivy = site.client()
    r = site.post(ivy, "/account/link", {"t": token}, page=f"/account/link?t={token}")
    assert "You are invited to inv" in r.text and "you are invited" in r.text
    r = site.post(ivy, "/games/inv/join", {}, page="/games/open")
    assert "the game has begun" in r.text
    claim = next(e for e in _ledger(site, "inv") if e.kind == "seat-claimed")
    assert claim.payload["how"] == "invitation"
    assert site.gm.record.verify("inv").problems == ()
    # Someone else, not invited, cannot join a game that is not open.
    site.gm.setup.create_game("inv2", players=SIX, start=False)
    assert "not open to new players" in site.post(ivy, "/games/inv2/join", {}, page="/games/open").text


def test_notifications_on_the_site_and_by_mail_as_each_player_chose(site):
    _forming(site)
    c = site.sign_up("ann@players.test", "Ann")
    site.post(c, "/games/open1/join", {}, page="/games/open")
    st = site.gm.games.game("open1")
    power = next(s for s in st.seats if s.name == "Ann").power
    others = [p.power for p in st.powers if p.power != power]
    # Ann wants the deadline warning 30 minutes before, and press on the site only.
    r = site.post(c, "/account/games/open1/settings", {"mail": ["results", "warnings", "votes"],
                                                         "warnings": "30m"})
    assert "Notifications for open1 saved." in r.text
    r = site.post(c, "/account/games/open1/settings", {"warnings": "0"})
    assert "from 15 minutes" in r.text
    r = site.post(c, "/account/games/open1/settings", {"mail": ["results", "warnings", "votes"], "warnings": "1,2,3,4,5"})
    assert "at most 4" in r.text
    # A letter to Ann, then the warning when the deadline is 30 minutes off and Ann has not ordered.
    site.gm.press.post_press("open1", "Shall we talk?", power=others[0], to=[power], by_gm=True)
    site.clock.advance(seconds=(st.deadline - site.clock()).total_seconds() - 20 * 60)
    doc = c.get("/account/notifications.json").json()
    kinds = [n["kind"] for n in doc["latest"]]
    assert doc["unread"] == 3 and kinds == ["warning", "press", "press"], doc  # and the GM's "the game begins"
    assert "Shall we talk?" not in json.dumps(doc) and "press from" in doc["latest"][1]["subject"]
    assert doc["latest"][2]["subject"] == f"open1: the game begins; you play {power.capitalize()}"
    site.room.server.wake()
    # alone, or in one digest with the game's start when one pass finds both (docs/mail.md, the notice policy)
    warning = site.sink.wait("ann@players.test", "open1: ", containing="No orders yet from")[0]
    assert "No orders yet from" in warning.text and f"{SITE}/games/open1/war-room" in warning.text
    # The results come by mail with the map; the press did not (Ann chose the site only for press).
    site.gm.deadlines.process("open1", force=True)
    results = site.sink.wait("ann@players.test", "open1: results of Spring 1901")[0]
    assert [a[1] for a in results.attachments] == ["image/png", "image/png"]
    assert "results of Spring 1901" in results.text
    assert f"Your options ({power.capitalize()}) in Fall 1901 movement:" in results.text  # as a mail contact's
    assert not [m for m in site.sink.to("ann@players.test") if "Shall we talk?" in m.text]
    # A draw proposed asks for Ann's vote.
    site.gm.press.propose("open1", power=others[0], by_gm=True)
    doc = c.get("/account/notifications.json").json()
    assert "vote" in [n["kind"] for n in doc["latest"][:2]] and doc["unread"] >= 5  # the results too
    site.sink.wait("ann@players.test", "open1: a vote on a draw")
    r = c.get("/account/notifications")
    assert "Shall we talk?" in r.text and "is adjudicated" in r.text
    site.post(c, "/account/notifications/read", {"upto": str(doc["latest"][0]["number"])}, page="/account/notifications")
    assert c.get("/account/notifications.json").json()["unread"] == 0
    # Nothing is made twice, however often the passes run.
    before = len(site.gm.notices.notices(_account_id(site, "ann@players.test")))
    site.gm.notices.notify()
    site.gm.notices.notify()
    assert len(site.gm.notices.notices(_account_id(site, "ann@players.test"))) == before
    assert site.gm.record.verify("open1").problems == ()


def _account_id(site: Site, email: str) -> int:
    with site.gm.desk.reading() as rec:
        return AccountRecords(rec.conn).by_email(email).id


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_accounts_seats_and_notifications_on_both_databases(kind, url_for):
    """The account tables and the claims on the ledger, through the gamesmaster, on SQLite and PostgreSQL."""
    from datetime import datetime, timezone

    from gamesmaster.gm import Gamesmaster
    from gamesmaster.gm.joining import needs
    from gamesmaster.store import Store
    from gamesmaster.store.testing import FakeClock

    store = Store(url_for(kind))
    clock = FakeClock(datetime(2030, 5, 6, 12, tzinfo=timezone.utc))
    gm = Gamesmaster(store, clock)
    try:
        gm.setup.create_game("g", players=SIX, start=False)
        gm.joining.open_seats("g", True, "lot")
        gm.accounts.sign_up("ann@players.test", "Ann", SITE)
        with gm.desk.reading() as rec:
            text = AccountRecords(rec.conn).to_mail()[0].text
        used = gm.accounts.use_link(re.search(r"t=(l\.\S+)", text).group(1))
        assert used.account.confirmed and used.game is None
        joined = gm.joining.join_open("g", used.account.id)
        assert joined.started is not None and gm.games.game("g").status == "active"
        power = next(s for s in gm.games.game("g").seats if s.name == "Ann").power
        assert [g.needs for g in gm.joining.my_games(used.account.id)] == [(f"orders due for {power.capitalize()}",)]
        gm.orders.submit_orders("g", power, "", credential=joined.credential)
        assert needs(gm.games.game("g"), (power,)) == ("nothing: your orders are in",)
        gm.deadlines.process("g", force=True)
        assert gm.notices.notify() >= 1 and gm.notices.notify() == 0
        account = used.account.id
        kinds = [n.kind for n in gm.notices.notices(account)]
        assert "results" in kinds and gm.notices.unread(account) == len(kinds)
        gm.notices.mark_read(account)
        assert gm.notices.unread(account) == 0
        assert gm.record.verify("g").problems == ()
    finally:
        store.dispose()
