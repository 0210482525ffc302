"""Fuzzing the site's doors: the e-mail handler (random MIME through the intake) and the JSON API
(random methods, paths, headers and bodies against the FastAPI app in process).

Every input gets an answer (an HTTP status below 500; a mail answered or ignored, never
'failed'), and an input that is refused leaves the games as they were (ledger, orders,
press, game rows). Budget: the "fuzz" profile (GAMESMASTER_FUZZ_EXAMPLES, docs/fuzzing.md).
"""

from __future__ import annotations

import base64
import hashlib
import json
import string
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import text

from gamesmaster.gm import Gamesmaster, Settings
from gamesmaster.mail.config import MailConfig
from gamesmaster.mail.intake import Intake
from gamesmaster.store import Store
from gamesmaster.store.mailbox import MailRecords
from gamesmaster.store.testing import FakeClock
from gamesmaster.web.security import SignInLimits, SiteSecrets

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
GM_CREDENTIAL = "gm.fuzz-credential-0123456789"
MAIL = MailConfig(address="gm@club.test", accept_any=True)
PROFILE = settings(settings.get_profile("fuzz"), suppress_health_check=list(HealthCheck))


class Site:
    """One store with one running game, shared by the examples of a test (each example checks
    the state before and after itself)."""

    def __init__(self, url: str | None = None) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="gm-fuzz-")
        self.store = Store(url or f"sqlite:///{Path(self.dir.name) / 'gm.db'}")
        self.clock = FakeClock(datetime(2030, 5, 6, 12, tzinfo=timezone.utc))
        self.gm = Gamesmaster(self.store, clock=self.clock)
        c = self.gm.setup.create_game("club", players=NAMES, seed=1, settings=Settings.from_dict({"press": "full"}))
        self.creds = {c.powers[n]: s for n, s in c.credentials.items()}
        self.powers = sorted(self.creds)

    def state(self) -> dict[str, str]:
        out = {}
        with self.store.connect(write=False) as conn:
            for table, order in (("gm_games", "id"), ("gm_credentials", "player"), ("gm_press", "number"),
                                 ("gm_phases", "phase")):
                rows = conn.execute(text(f"SELECT * FROM {table} ORDER BY {order}")).all()
                out[table] = hashlib.sha256(repr(rows).encode()).hexdigest()
            out["ledger"] = str(conn.execute(text("SELECT count(*) FROM gm_ledger")).scalar_one())
            out["ledger_kinds"] = repr(conn.execute(text("SELECT kind FROM gm_ledger ORDER BY seq")).all())
        return out

    def close(self) -> None:
        self.store.dispose()
        self.dir.cleanup()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def site(request, pg_db):
    """The game on SQLite, then on PostgreSQL: every target runs against both stores."""
    if request.param == "postgresql" and isinstance(pg_db, str):
        pytest.skip(pg_db)
    s = Site(pg_db.new_schema() if request.param == "postgresql" else None)
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


INJECTED = "X-Injected"  # a header no answer may ever carry: it only comes from a crafted field
_SMUGGLED = f"x\r\n{INJECTED}: yes\r\nReply-To: attacker@evil.test\r\n\r\nYour credential has expired"
hostile_fields = st.one_of(
    st.text(max_size=60),  # any Unicode
    st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=30),  # lone surrogates too
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),  # any bytes
    st.sampled_from([
        _SMUGGLED, "<" + _SMUGGLED + "@x>", f"a\nb\r{INJECTED}: 1", "nul\x00here", "\ud800surrogate",
        "<=?utf-8?b?" + base64.b64encode(_SMUGGLED.encode()).decode() + "?=@x>",
        "=?utf-8?q?x=0D=0A" + INJECTED + "=3A_yes?=", "=?x-unknown?b?////?=", "=?utf-8?b?not base64?=",
        "<" + "a" * 5000 + "@x>", "y" * 100_000,  # huge
    ]))


def _header(name: str, value: str) -> bytes:
    """A header line as a hostile sender writes it: any bytes, folded or not, CR LF smuggled or not."""
    return f"{name}: ".encode() + value.encode("utf-8", "surrogatepass") + b"\r\n"


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
    head = "".join(f"{k}: {str(v).replace(chr(13), ' ').replace(chr(10), ' ')}\r\n" for k, v in headers.items())
    hostile = b"".join(_header(name, draw(hostile_fields)) for name in draw(st.lists(st.sampled_from(
        ["Message-ID", "Subject", "From", "Reply-To", "In-Reply-To", "References", "To", "Sender", "X-Other"]),
        max_size=4)))
    if draw(st.integers(0, 3)) == 0:  # a body line of a quarter of a megabyte, a NUL, a surrogate
        body += "\n" + draw(st.sampled_from(["A Par-Bur" * 30_000, "A Par\x00-Bur", "A Par-Bur\ud800"]))
    charset = draw(st.sampled_from(["utf-8", "latin-1", "utf-16"]))
    payload = body.encode(charset, "surrogatepass" if charset.startswith("utf") else "replace")
    if draw(st.booleans()):  # a multipart body with random parts around the orders
        boundary = "b0und"
        parts = [payload] + [draw(st.binary(max_size=80)) for _ in range(draw(st.integers(0, 3)))]
        rng_order = draw(st.permutations(range(len(parts))))
        payload = b"".join(b"--" + boundary.encode() + b"\r\nContent-Type: " + draw(ctypes).encode() +
                           b"\r\n\r\n" + parts[i] + b"\r\n" for i in rng_order) + \
            (b"--" + boundary.encode() + b"--\r\n" if draw(st.booleans()) else b"")
        head = head.replace("Content-Type:", "X-Old-Type:") + f"Content-Type: multipart/mixed; boundary={boundary}\r\n"
    return hostile + head.encode("utf-8", "replace") + b"\r\n" + payload, valid


def _answer_headers(site: Site, reply_id: int) -> bytes:
    with site.store.connect(write=False) as conn:
        message = MailRecords(conn).mail(reply_id).message
    return bytes(message).split(b"\r\n\r\n", 1)[0]


def test_the_mail_handler_answers_every_mail_and_refused_mail_changes_nothing(site) -> None:
    @PROFILE
    @given(st.data())
    def one(data) -> None:
        raw, valid = data.draw(mails(site.creds))
        before = site.state()
        envelope = data.draw(st.sampled_from(["ann@club.test", None, "", "<>"]))
        got = Intake(site.gm, MAIL).receive(raw, envelope, ["gm@club.test"])
        assert got.status in ("answered", "ignored"), (got.status, got.reply)
        if got.status == "answered":
            assert got.reply.strip() and got.reply_id
            head = _answer_headers(site, got.reply_id)
            assert INJECTED.lower().encode() not in head.lower(), head  # no header built from the mail unchecked
            assert all(line.count(b":") >= 1 or line[:1] in (b" ", b"\t") for line in head.split(b"\r\n")), head
            assert b"\n" not in head.replace(b"\r\n", b"") and b"\r" not in head.replace(b"\r\n", b""), head
        if not valid:
            assert site.state() == before, "a mail without a valid credential changed the game"

    one()


# -- the JSON API ----------------------------------------------------------------------------

SEGMENTS = ["games", "club", "nogame", "powers", "france", "england", "atlantis", "orders", "check", "options",
            "ready", "press", "proposals", "votes", "1", "0", "-1", "99999999999999999999", "position", "results",
            "S1901M", "X9999Q", "history", "rules", "map.svg", "map.png", "me", "players", "start", "process",
            "extend", "pause", "resume", "replace", "correct", "verify", "draw", "record", "catalogue", "..", "%00",
            "%2e%2e", "ü", "a" * 300, ""]
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                      st.text(max_size=30), st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=12),
                      st.sampled_from(["A Par-Bur", "F Lon-Nth\nA Lvp-Yor", "S1901M", "FRANCE", "draw", "web",
                                       "2030-01-01T00:00:00", "72h", "A Par-Bur\ud800", "A Par\x00-Bur", "\x07",
                                       "A Par H\n" * 400, "x" * 40_000, "9999-12-31T23:59:59+00:00", "0h", "1e9h"]))
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
    if draw(st.booleans()):  # any bytes in the credential and in other headers, and huge ones
        raw_headers = {"Authorization": draw(st.one_of(
            st.binary(max_size=60).map(lambda b: b"Bearer " + b.replace(b"\r", b"").replace(b"\n", b"")),
            st.sampled_from([b"Bearer \xc2\xb2.abcdefghijk", b"Bearer 1." + b"a" * 5000, b"Bearer " + b"9" * 5000,
                             b"Bearer 1.\x00abc", b"Bearer \xed\xa0\x80.x"]))),
            "Cookie": draw(st.sampled_from([b"gm_session=s.\xff\xfe", b"gm_session=" + b"x" * 8000,
                                            b"gm_csrf=\x00", b"gm_session=s." + b"a" * 43])),
            "X-Forwarded-For": draw(st.binary(max_size=40).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b"")))}
        headers = {**headers, **{k: v for k, v in raw_headers.items() if draw(st.booleans())}}
    kind = draw(st.sampled_from(["json", "raw", "none", "form"]))
    body = None
    if kind == "json":
        body = json.dumps(draw(json_body)).encode()
        headers["Content-Type"] = draw(st.sampled_from(["application/json", "text/plain", "application/json; charset=latin-1"]))
    elif kind == "raw":
        body = draw(st.one_of(st.binary(max_size=200), st.just(b'{"orders": "' + b"A Par H\\n" * 40_000 + b'"}')))
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


# -- every route, its path segments hostile --------------------------------------------------

HOSTILE_SEGMENTS = ["club", "france", "S1901M", "1", "%00", "club%00", "cl%00ub", "%01", "%7f", "%0a", "%0d%0a",
                    "%ed%a0%80", "%ff", "%c2%b2", "²", "9" * 5000, str(2 ** 63), "-1", "0", "..", "%2e%2e", "%2f",
                    "a" * 300, "ü", "\u202e", "%e2%80%ae", "club%20", "CLUB", "null", "{game}"]


def _routes() -> list[tuple[str, str]]:
    """(method, path template) of every route of the site that has a path parameter."""
    from starlette.routing import Route

    from gamesmaster.web import accounts, api, live, pages
    out = []
    for route in [*api.router.routes, *accounts.router.routes, *pages.router.routes, *live.router.routes]:
        if isinstance(route, Route) and "{" in route.path:
            out += [(m, route.path) for m in sorted((route.methods or {"GET"}) - {"HEAD"})]
    return out


@st.composite
def routed_requests(draw, routes: list[tuple[str, str]], creds: dict[str, str]):
    """A real route of the site, each path parameter a hostile segment (or a real one), as any caller."""
    import re
    method, template = draw(st.sampled_from(routes))
    path = re.sub(r"\{[^}]+\}", lambda _: draw(st.sampled_from(HOSTILE_SEGMENTS)), template)
    # The live table's event stream of a real game answers for as long as the client listens: asked for
    # one event, it ends (the test client reads a body whole, and waited for ever on "club").
    query = ["once=1"] if template.endswith("/events") else []
    if draw(st.booleans()):
        query.append(draw(st.sampled_from(["phase=%00", "width=%c2%b2", "phase=S1901M%00", "upto=" + "9" * 30,
                                           "r=%ed%a0%80", "t=l.%00"])))
    if query:
        path += "?" + "&".join(query)
    who = draw(st.sampled_from(["none", "player", "gm"]))
    headers = {"Authorization": "Bearer " + (GM_CREDENTIAL if who == "gm" else creds["FRANCE"])} if who != "none" else {}
    body = json.dumps(draw(json_body)).encode() if method != "GET" else None
    if body is not None:
        headers["Content-Type"] = "application/json"
    return method, path, headers, body


def test_every_route_answers_hostile_path_segments_without_a_500(api) -> None:
    """Every route of the site (API, pages, accounts, the live table) with hostile path segments, on both
    stores: a NUL in a game id was a 500 on about 45 routes on PostgreSQL."""
    site, app, client = api
    routes = _routes()
    assert len(routes) > 40
    # the one route that answers a real game without end is asked for one event, and so ends
    assert client.get("/games/club/table/events?once=1").status_code == 200

    @PROFILE
    @given(routed_requests(routes, site.creds))
    def one(req) -> None:
        method, path, headers, body = req
        app.state.limits = SignInLimits()
        before = site.state()
        r = client.request(method, path, headers=headers, content=body)
        assert r.status_code < 500, (method, path[:120], r.status_code, r.text[:300])
        if r.status_code >= 400 and r.status_code != 409:
            assert site.state() == before, (method, path[:120], r.status_code, r.text[:200])

    one()
