"""Security: no power reads another's orders or letters before the deadline by any door (page,
API, mail, history, record), nobody submits for another power or acts as the GM, credentials
are kept only as a slow salted hash, sign-in attempts are rate-limited, the session cookie is
Secure and HTTP-only, and no secret reaches the logs."""

from __future__ import annotations

import logging
import re
from email.message import EmailMessage

from sqlalchemy import text

from gamesmaster.gm import credentials as cred
from gamesmaster.mail.config import MailConfig
from gamesmaster.mail.intake import Intake
from gamesmaster.web.security import RateLimiter, SignInLimits

from .conftest import GM_CREDENTIAL

SECRET_ORDERS = ["F Bre-Pic", "A Mar-Pie"]
SECRET_MARKS = ("BRE - PIC", "Bre-Pic", "MAR - PIE", "Mar-Pie", "XYZZY-PLAN")
LETTER = "XYZZY-PLAN: you take Belgium, I take the Channel"
MAIL = MailConfig(address="gm@club.test", accept_any=True)


def bearer(c: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {c}"}


def mail(gm, sender: str, body: str) -> str:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "gm@club.test", "orders"
    msg.set_content(body)
    return Intake(gm, MAIL).receive(msg.as_bytes(), sender, ["gm@club.test"]).reply


def leaks(body: str) -> list[str]:
    return [m for m in SECRET_MARKS if m in body]


def csrf(client, path: str) -> str:
    m = re.search(r'name="csrf_token" value="([^"]+)"', client.get(path).text)
    assert m, path
    return m.group(1)


def france_plans(client, game) -> None:
    r = client.post("/api/games/club/powers/france/orders", json={"orders": SECRET_ORDERS}, headers=bearer(game["FRANCE"]))
    assert r.status_code == 200, r.text
    r = client.post("/api/games/club/press", json={"text": LETTER, "to": ["GERMANY"]}, headers=bearer(game["FRANCE"]))
    assert r.status_code == 201, r.text


def test_no_door_shows_a_power_s_orders_or_letters_to_another_before_the_deadline(client, game, site_gm, clock):
    client, game = client, game
    france_plans(client, game)
    doors = ["/api/games", "/api/games/club", "/api/games/club/position", "/api/games/club/results",
             "/api/games/club/history", "/api/games/club/press", "/api/games/club/proposals", "/api/games/club/rules",
             "/api/games/club/map.svg", "/api/games/club/powers/france/orders", "/api/games/club/history/full",
             "/api/games/club/verify", "/api/games/club/record", "/", "/games/club", "/games/club/history",
             "/games/club/map.svg", "/games/club/rules", "/games/club/record", "/games/club/record.json", "/gm",
             "/gm/games/club"]
    for who in (None, "ENGLAND", "GERMANY"):
        headers = bearer(game[who]) if who else {}
        for path in doors:
            r = client.get(path, headers=headers)
            assert r.status_code < 500, (path, r.status_code)
            found = leaks(r.text)
            if who == "GERMANY" and path == "/api/games/club/press":
                assert found == ["XYZZY-PLAN"]  # the letter was to Germany: only it reads it
                continue
            assert not found, (who, path, found)
        if who:
            for path in ("/api/games/club/powers/france/orders", "/api/games/club/history/full",
                         "/api/games/club/verify"):
                assert client.get(path, headers=headers).status_code == 403, path
    # England's war room, signed in through the page
    r = client.post("/games/club/sign-in", data={"credential": game["ENGLAND"], "csrf_token": csrf(client, "/games/club/war-room")})
    assert r.status_code in (200, 303)
    r = client.get("/games/club/war-room")
    assert "England" in r.text and "war room" in r.text.lower() and not leaks(r.text)
    # by mail: England's LIST, STATUS and HISTORY, and an attempt to sign on as France
    for body in ("LIST", "STATUS", "HISTORY"):
        reply = mail(site_gm, "bob@club.test", f"SIGNON club England {game['ENGLAND']}\n{body}")
        assert not leaks(reply), (body, reply)
    reply = mail(site_gm, "bob@club.test", f"SIGNON club France {game['ENGLAND']}\nLIST")
    assert not leaks(reply) and ("not" in reply.lower() or "refus" in reply.lower()), reply
    # after the deadline the orders are public; the letter stays Germany's
    clock.advance(days=4)
    site_gm.deadlines.process_due()
    r = client.get("/api/games/club/results", headers=bearer(game["ENGLAND"]))
    assert "F BRE - PIC" in r.text
    assert "XYZZY-PLAN" not in client.get("/api/games/club/press", headers=bearer(game["ENGLAND"])).text
    assert "XYZZY-PLAN" not in client.get("/api/games/club/press").text


def test_nobody_submits_for_another_power_or_acts_as_the_gm(client, game, site_gm):
    client, game = client, game
    france_plans(client, game)
    before = site_gm.orders.orders_on_record("club", "FRANCE", by_gm=True)
    for method, path, body in [("post", "/api/games/club/powers/france/orders", {"orders": "F Bre-Mao"}),
                               ("delete", "/api/games/club/powers/france/orders", None),
                               ("post", "/api/games/club/powers/france/ready", {"ready": True}),
                               ("post", "/api/games/club/process", {}), ("post", "/api/games/club/pause", {"reason": "x"}),
                               ("post", "/api/games/club/extend", {"hours": 24}),
                               ("post", "/api/games/club/replace", {"power": "FRANCE", "name": "Mallory"}),
                               ("post", "/api/games/club/draw", {}),
                               ("post", "/api/games/club/correct", {"reason": "x", "orders": {"FRANCE": "A Par H"}}),
                               ("post", "/api/games/club/press", {"text": "as France", "power": "FRANCE"})]:
        kwargs = {"headers": bearer(game["ENGLAND"])}
        if body is not None:
            kwargs["json"] = body
        r = getattr(client, method)(path, **kwargs)
        assert r.status_code == 403, (path, r.status_code, r.text)
    mail(site_gm, "bob@club.test", f"SIGNON club France {game['ENGLAND']}\nF Bre-Mao\nA Par-Bur")
    assert site_gm.orders.orders_on_record("club", "FRANCE", by_gm=True) == before
    # the GM console does not take a player's credential
    r = client.post("/gm/sign-in", data={"credential": game["ENGLAND"], "csrf_token": csrf(client, "/gm")})
    assert "not the GM credential" in client.get("/gm").text or r.status_code in (200, 303)
    assert client.post("/gm/games/club/pause", data={"reason": "x", "csrf_token": csrf(client, "/gm")}).status_code == 401
    assert site_gm.games.game("club").status != "paused"


def test_credentials_are_kept_only_as_a_slow_salted_hash(site_gm, game, tmp_path):
    with site_gm.desk.store.connect(write=False) as conn:
        stored = [r[0] for r in conn.execute(text("SELECT hash FROM gm_credentials WHERE game_id='club'"))]
    assert len(stored) == 7
    for h, c in zip(sorted(stored), sorted(game.values())):
        scheme, iterations, salt, digest = h.split("$")
        assert scheme == "pbkdf2_sha256" and int(iterations) >= 20_000 and len(salt) >= 16 and len(digest) == 64
    assert len(set(s.split("$")[2] for s in stored)) == 7  # a salt each
    for c in game.values():
        assert not any(c.split(".", 1)[1] in h for h in stored)
    from gamesmaster.web.security import load_secrets
    secrets = load_secrets(tmp_path / "data")
    doc = (tmp_path / "data" / "web.json").read_text()
    assert secrets.new_gm_credential and secrets.new_gm_credential not in doc and "pbkdf2_sha256$" in doc
    assert cred.check_secret("x", cred.hash_secret("x")) and not cred.check_secret("y", cred.hash_secret("x"))


def test_api_credential_attempts_are_rate_limited(client, game):
    client, game = client, game
    codes = [client.get("/api/games/club/powers/france/orders", headers=bearer(f"3.guess{i}")).status_code
             for i in range(12)]
    assert codes[:10] == [403] * 10 and codes[10:] == [429, 429], codes
    r = client.get("/api/games/club/powers/france/orders", headers=bearer(game["FRANCE"]))
    assert r.status_code == 429 and "too many failed credential attempts" in r.json()["detail"]
    # reading without a credential still works
    assert client.get("/api/games/club").status_code == 200
    # GM-only calls with a wrong credential count too
    assert client.post("/api/games/club/pause", json={}, headers=bearer(GM_CREDENTIAL)).status_code == 429


def test_page_sign_ins_are_rate_limited(client, game, app):
    client, game = client, game
    token = csrf(client, "/games/club/war-room")
    codes = [client.post("/games/club/sign-in", data={"credential": f"3.guess{i}", "csrf_token": token},
                         follow_redirects=False).status_code for i in range(11)]
    assert codes[:10] == [303] * 10 and codes[10] == 429, codes
    r = client.post("/games/club/sign-in", data={"credential": game["FRANCE"], "csrf_token": token})
    assert r.status_code == 429 and "too many failed sign-in attempts" in r.text
    r = client.post("/gm/sign-in", data={"credential": GM_CREDENTIAL, "csrf_token": token})
    assert r.status_code == 429


def test_gm_sign_in_is_rate_limited_and_recovers(app):
    """Ten wrong GM credentials from one address: that address waits; the GM from elsewhere is not locked out."""
    from fastapi.testclient import TestClient
    now = [1000.0]
    app.state.limits = SignInLimits(clock=lambda: now[0])
    with TestClient(app, client=("203.0.113.5", 4000)) as client:
        token = csrf(client, "/gm")
        for i in range(10):
            client.post("/gm/sign-in", data={"credential": f"gm.wrong{i}", "csrf_token": token})
        r = client.post("/gm/sign-in", data={"credential": "gm.wrong-again", "csrf_token": token})
        assert r.status_code == 429 and "try again in" in r.text
        now[0] += 10.5  # an attempt grows back: at this address (6 s) and at the GM credential (10 s)
        r = client.post("/gm/sign-in", data={"credential": "gm.still-wrong", "csrf_token": token})
        assert r.status_code == 200 and "That is not the GM credential" in r.text
    with TestClient(app, client=("198.51.100.7", 4000)) as gm_client:  # the GM, elsewhere, meanwhile
        r = gm_client.post("/gm/sign-in", data={"credential": GM_CREDENTIAL, "csrf_token": csrf(gm_client, "/gm")})
        assert r.status_code == 200 and "Signed in as the gamesmaster" in r.text


def test_the_limits_count_failures_per_address_and_per_credential_guessed():
    now = [0.0]
    limits = SignInLimits(clock=lambda: now[0])
    for i in range(10):  # ten addresses guess player 3 of club, once each
        assert limits.wait(f"10.0.0.{i}", "club:3") == 0
        limits.failed(f"10.0.0.{i}", "club:3")
    assert limits.wait("10.0.0.1", "club:3") > 0  # a failing address is refused at that credential...
    assert limits.wait("10.0.0.1", "club:4") == 0  # ... not at another
    assert limits.wait("10.0.0.99", "club:3") == 0  # an address with no failures is always heard
    for _ in range(10):
        limits.failed("10.0.0.50", "other:1")
    assert limits.wait("10.0.0.50", "club:5") > 0  # an address out of attempts is refused everywhere
    now[0] += 10.0
    assert limits.wait("10.0.0.1", "club:3") == 0
    bucket = RateLimiter(2, 1.0, clock=lambda: now[0], max_keys=3)
    for k in "abcdef":
        bucket.failed(k)
    assert len(bucket._buckets) <= 4  # bounded memory


def test_session_cookie_is_secure_over_https_and_http_only(app, game):
    from fastapi.testclient import TestClient
    with TestClient(app, base_url="https://testserver") as client:
        token = csrf(client, "/games/club/war-room")
        r = client.post("/games/club/sign-in", data={"credential": game["FRANCE"], "csrf_token": token},
                        follow_redirects=False)
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "Secure" in cookie and "SameSite=Lax" in cookie
        value = cookie.split(";")[0].split("=", 1)[1]
        assert value.startswith("s.") and game["FRANCE"] not in cookie and game["FRANCE"].split(".")[1] not in cookie
    

def test_no_secret_in_the_logs(client, game, site_gm, caplog):
    caplog.set_level(logging.DEBUG)
    client, game = client, game
    france_plans(client, game)
    client.get("/api/games/club/powers/england/orders", headers=bearer(game["FRANCE"]))
    client.get("/api/games/club/history/full", headers=bearer(game["FRANCE"]))
    client.post("/api/games/club/pause", json={}, headers=bearer(GM_CREDENTIAL))
    client.post("/gm/sign-in", data={"credential": GM_CREDENTIAL + "x", "csrf_token": csrf(client, "/gm")})
    mail(site_gm, "cat@club.test", f"SIGNON club France {game['FRANCE']}\nA Par-Bur\nLIST")
    mail(site_gm, "cat@club.test", f"SIGNON club France {game['ENGLAND']}\nA Par-Bur")
    raw = EmailMessage()
    raw["From"] = "cat@club.test"
    raw.set_content(f"SIGNON club France {game['FRANCE']}\nPRESS TO ALL\n" + "x" * 10)
    Intake(site_gm, MAIL).receive(raw.as_bytes()[:-3] + b"\xff\xfe", "cat@club.test", ["gm@club.test"])
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    for c in [*game.values(), GM_CREDENTIAL]:
        secret = c.split(".", 1)[1]
        assert secret not in logged, "a credential reached the log"
    with site_gm.desk.store.connect(write=False) as conn:  # nor the mail kept: the inbox and the answers
        kept = repr(conn.execute(text("SELECT body, subject FROM gm_mail_inbox")).all())
        kept += repr([bytes(m[0]) for m in conn.execute(text("SELECT message FROM gm_mail_outbox"))])
    assert "SIGNON club France" in kept
    for c in game.values():
        assert c.split(".", 1)[1] not in kept, "a credential was kept in the mail records"
