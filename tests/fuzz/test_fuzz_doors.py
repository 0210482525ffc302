"""Fuzzing the site's doors: the e-mail handler (random MIME through the intake) and the JSON API
(random methods, paths, headers and bodies against the FastAPI app in process).

Every input gets an answer (an HTTP status below 500; a mail answered or ignored, never
'failed'), and an input that is refused leaves the games as they were (ledger, orders,
press, game rows). Budget: the "fuzz" profile (GAMESMASTER_FUZZ_EXAMPLES, docs/fuzzing.md).
"""

from __future__ import annotations

import hashlib
import json
import string
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import text

from gamesmaster.gm import Gamesmaster
from gamesmaster.mail.config import MailConfig
from gamesmaster.mail.intake import Intake
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock
from gamesmaster.web.security import SignInLimits, SiteSecrets

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
GM_CREDENTIAL = "gm.fuzz-credential-0123456789"
MAIL = MailConfig(address="gm@club.test", accept_any=True)
PROFILE = settings(settings.get_profile("fuzz"), suppress_health_check=list(HealthCheck))


class Site:
    """One store with one running game, shared by the examples of a test (each example checks
    the state before and after itself)."""

    def __init__(self) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="gm-fuzz-")
        self.store = Store(f"sqlite:///{Path(self.dir.name) / 'gm.db'}")
        self.clock = FakeClock(datetime(2030, 5, 6, 12, tzinfo=timezone.utc))
        self.gm = Gamesmaster(self.store, clock=self.clock)
        c = self.gm.create_game("club", players=NAMES, seed=1, settings={"press": "full"})
        self.creds = {c.powers[n]: s for n, s in c.credentials.items()}
        self.powers = sorted(self.creds)

    def state(self) -> dict[str, str]:
        out = {}
        with self.store.connect(write=False) as conn:
            for table, order in (("gm_games", "id"), ("gm_players", "id"), ("gm_orders", "power"),
                                 ("gm_pending", "power"), ("gm_press", "id"), ("gm_phases", "phase"),
                                 ("gm_proposals", "id")):
                rows = conn.execute(text(f"SELECT * FROM {table} ORDER BY {order}")).all()
                out[table] = hashlib.sha256(repr(rows).encode()).hexdigest()
            out["ledger"] = str(conn.execute(text("SELECT count(*) FROM gm_ledger")).scalar_one())
            out["ledger_kinds"] = repr(conn.execute(text("SELECT kind FROM gm_ledger ORDER BY seq")).all())
        return out

    def close(self) -> None:
        self.store.dispose()
        self.dir.cleanup()


@pytest.fixture(scope="module")
def site():
    s = Site()
    yield s
    s.close()


# -- the e-mail handler ----------------------------------------------------------------------

ORDER_WORDS = ["A", "F", "Par", "Bur", "Lon", "Nth", "Mun", "Kie", "S", "C", "H", "-", "to", "Build", "Waive",
               "WITHDRAW", "LIST", "READY", "STATUS", "HISTORY", "PRESS TO ALL", "ENDPRESS", "DRAW", "VOTE YES",
               "RESIGN", "HELP", "SIGNOFF", "ORDERS S1901M", "next season:", "if", "otherwise:", "England:"]
lines = st.one_of(st.lists(st.sampled_from(ORDER_WORDS), max_size=6).map(" ".join),
                  st.text(alphabet=string.printable + "éü—\u200b\x00\u202e", max_size=40))
charsets = st.sampled_from(["utf-8", "us-ascii", "latin-1", "utf-16", "x-unknown", "", "utf-8\"; x=\"", "koi8-r"])
encodings = st.sampled_from(["7bit", "8bit", "base64", "quoted-printable", "x-uuencode", "binary", "bogus"])
ctypes = st.sampled_from(["text/plain", "text/html", "multipart/mixed", "multipart/alternative", "application/pdf",
                          "message/rfc822", "text/enriched", "multipart/signed", "garbage", ""])


@st.composite
def mails(draw, creds: dict[str, str]) -> tuple[bytes, bool]:
    """(raw mail, whether it carries a valid credential)."""
    valid = draw(st.booleans()) and draw(st.booleans())
    power = draw(st.sampled_from(sorted(creds)))
    credential = creds[power] if valid else draw(st.sampled_from(["1.wrong", "99.x", "", "gm.nope", creds[power][:-2] + "zz"]))
    body_lines = [f"SIGNON club {draw(st.sampled_from([power, 'France', '', 'Atlantis']))} {credential}"] \
        if draw(st.booleans()) or valid else []
    body_lines += draw(st.lists(lines, max_size=8))
    body = "\n".join(body_lines)
    if draw(st.integers(0, 9)) == 0:  # raw bytes, not even MIME
        return draw(st.binary(max_size=300)) + body.encode("utf-8", "replace"), valid
    headers = {"From": draw(st.sampled_from(["ann@club.test", "Ann <ann@club.test>", "", "<>", "not an address",
                                             "=?utf-8?b?QW5u?= <ann@club.test>", "a@b@c", "mailer-daemon@club.test"])),
               "To": draw(st.sampled_from(["gm@club.test", "gm+club@club.test", "", "x@elsewhere.test"])),
               "Subject": draw(st.text(max_size=30)),
               "Content-Type": f"{draw(ctypes)}; charset={draw(charsets)}" +
                               (f"; boundary=\"{draw(st.text(alphabet=string.ascii_letters + '-=_', max_size=12))}\""
                                if draw(st.booleans()) else ""),
               "Content-Transfer-Encoding": draw(encodings)}
    if draw(st.booleans()):
        headers["Auto-Submitted"] = draw(st.sampled_from(["auto-replied", "no"]))
    head = "".join(f"{k}: {v}\r\n".replace("\n", " ").replace("\r ", "\r\n") if False else
                   f"{k}: {str(v).replace(chr(13), ' ').replace(chr(10), ' ')}\r\n" for k, v in headers.items())
    payload = body.encode(draw(st.sampled_from(["utf-8", "latin-1", "utf-16"])), "replace")
    if draw(st.booleans()):  # a multipart body with random parts around the orders
        boundary = "b0und"
        parts = [payload] + [draw(st.binary(max_size=80)) for _ in range(draw(st.integers(0, 3)))]
        rng_order = draw(st.permutations(range(len(parts))))
        payload = b"".join(b"--" + boundary.encode() + b"\r\nContent-Type: " + draw(ctypes).encode() +
                           b"\r\n\r\n" + parts[i] + b"\r\n" for i in rng_order) + \
            (b"--" + boundary.encode() + b"--\r\n" if draw(st.booleans()) else b"")
        head = head.replace("Content-Type:", "X-Old-Type:") + f"Content-Type: multipart/mixed; boundary={boundary}\r\n"
    return head.encode("utf-8", "replace") + b"\r\n" + payload, valid


_SITE_FOR_MAIL: list[Site] = []


def _mail_site() -> Site:
    if not _SITE_FOR_MAIL:
        _SITE_FOR_MAIL.append(Site())
    return _SITE_FOR_MAIL[0]


@pytest.fixture(scope="module", autouse=True)
def _close_mail_site():
    yield
    while _SITE_FOR_MAIL:
        _SITE_FOR_MAIL.pop().close()


@PROFILE
@given(st.data())
def test_the_mail_handler_answers_every_mail_and_refused_mail_changes_nothing(data) -> None:
    site = _mail_site()
    raw, valid = data.draw(mails(site.creds))
    before = site.state()
    envelope = data.draw(st.sampled_from(["ann@club.test", None, "", "<>"]))
    got = Intake(site.gm, MAIL).receive(raw, envelope, ["gm@club.test"])
    assert got.status in ("answered", "ignored"), (got.status, got.reply)
    if got.status == "answered":
        assert got.reply.strip() and got.reply_id
    if not valid:
        assert site.state() == before, "a mail without a valid credential changed the game"


# -- the JSON API ----------------------------------------------------------------------------

SEGMENTS = ["games", "club", "nogame", "powers", "france", "england", "atlantis", "orders", "check", "options",
            "ready", "press", "proposals", "votes", "1", "0", "-1", "99999999999999999999", "position", "results",
            "S1901M", "X9999Q", "history", "rules", "map.svg", "map.png", "me", "players", "start", "process",
            "extend", "pause", "resume", "replace", "correct", "verify", "draw", "record", "catalogue", "..", "%00",
            "%2e%2e", "ü", "a" * 300, ""]
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                      st.text(max_size=30), st.sampled_from(["A Par-Bur", "F Lon-Nth\nA Lvp-Yor", "S1901M", "FRANCE",
                                                             "draw", "web", "2030-01-01T00:00:00", "72h"]))
json_body = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["orders", "phase", "channel", "text", "to", "power", "ready", "kind", "yes",
                                     "hours", "until", "reason", "id", "players", "rules", "settings", "name", "x"]),
                    inner, max_size=5)), max_leaves=12)


@st.composite
def requests_(draw, creds: dict[str, str]):
    method = draw(st.sampled_from(["GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"]))
    path = "/api/" + "/".join(draw(st.lists(st.sampled_from(SEGMENTS), min_size=0, max_size=6)))
    if draw(st.booleans()):
        path += "?" + draw(st.sampled_from(["phase=S1901M", "phase=%ff", "receipt=x", "results=maybe", "a=" + "b" * 50]))
    headers = {}
    who = draw(st.sampled_from(["none", "player", "bad", "gm", "garbage"]))
    if who == "player":
        headers["Authorization"] = "Bearer " + creds[draw(st.sampled_from(sorted(creds)))]
    elif who == "bad":
        headers["Authorization"] = draw(st.sampled_from(["Bearer 1.nope", "Basic abc", "Bearer", "Bearer " + "x" * 300]))
    elif who == "gm":
        headers["Authorization"] = "Bearer " + GM_CREDENTIAL
    elif who == "garbage":
        headers["Authorization"] = draw(st.text(alphabet=string.printable.replace("\n", "").replace("\r", ""), max_size=40))
    kind = draw(st.sampled_from(["json", "raw", "none", "form"]))
    body = None
    if kind == "json":
        body = json.dumps(draw(json_body)).encode()
        headers["Content-Type"] = draw(st.sampled_from(["application/json", "text/plain", "application/json; charset=latin-1"]))
    elif kind == "raw":
        body = draw(st.binary(max_size=200))
        headers["Content-Type"] = draw(st.sampled_from(["application/json", "multipart/form-data; boundary=x", "", "x/y"]))
    elif kind == "form":
        body = b"orders=A+Par-Bur&csrf_token=x"
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    return method, path, headers, body, who


@pytest.fixture(scope="module")
def api(site):
    from fastapi.testclient import TestClient

    from gamesmaster.web.app import create_app
    app = create_app(site.gm, SiteSecrets.for_testing(GM_CREDENTIAL))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield site, app, client


def test_the_json_api_answers_every_request_without_a_500_and_refusals_change_nothing(api) -> None:
    site, app, client = api

    @PROFILE
    @given(requests_(site.creds))
    def one(req) -> None:
        method, path, headers, body, who = req
        app.state.limits = SignInLimits()  # each example starts with fresh limits
        before = site.state()
        r = client.request(method, path, headers=headers, content=body)
        assert r.status_code < 500, (method, path, r.status_code, r.text[:300])
        if r.status_code >= 400:
            if method != "HEAD" and r.request.url.path.startswith("/api/"):  # ('/api/../x' is sent as '/x')
                assert r.headers.get("content-type", "").startswith("application/json"), (path, r.status_code)
                assert isinstance(r.json().get("detail"), str) and r.json()["detail"]
            after = site.state()
            if r.status_code == 409:  # a refusal of orders is put on the record: nothing else changes
                assert {k: v for k, v in after.items() if not k.startswith("ledger")} == \
                    {k: v for k, v in before.items() if not k.startswith("ledger")}
            else:
                assert after == before, (method, path, r.status_code, r.text[:200])

    one()
