"""The GM's console session holds across web processes and restarts when the GM credential is
given by $GAMESMASTER_GM_CREDENTIAL (each process used to hash it with a salt of its own, so a
session made on one process was refused by the other, and by every process after a restart)."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request

from .procs import web

SIGN_IN_FORM = 'id="gm-sign-in"'


def _get(url: str, cookie: str) -> str:
    req = urllib.request.Request(url, headers={"Cookie": cookie})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.read().decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def _sign_in(base: str, credential: str) -> str:
    """Sign in to the GM console through its form; returns the session cookie ('gm_session=...')."""
    with urllib.request.urlopen(f"{base}/gm", timeout=30) as r:
        page = r.read().decode()
        csrf_cookie = next(h.split(";")[0] for h in r.headers.get_all("Set-Cookie") if h.startswith("gm_csrf="))
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    body = urllib.parse.urlencode({"credential": credential, "csrf_token": token}).encode()
    req = urllib.request.Request(f"{base}/gm/sign-in", data=body, headers={"Cookie": csrf_cookie})
    try:
        urllib.request.build_opener(_NoRedirect).open(req, timeout=30)
        raise AssertionError("the sign-in did not redirect")
    except urllib.error.HTTPError as exc:
        assert exc.code == 303, exc.code
        return next(h.split(";")[0] for h in exc.headers.get_all("Set-Cookie") if h.startswith("gm_session="))


def test_a_gm_session_holds_on_both_processes_and_after_a_restart(url_for, tmp_path):
    url = url_for("sqlite")
    data = tmp_path / "data"
    procs = []
    try:
        a, base_a = web(url, data)
        b, base_b = web(url, data)
        procs += [a, b]
        cookie = _sign_in(base_a, "gm.deploy-test-credential-0123")
        pages = [_get(f"{(base_a, base_b)[i % 2]}/gm", cookie) for i in range(20)]
        assert [SIGN_IN_FORM in p for p in pages] == [False] * 20
        a.stop()
        b.stop()
        c, base_c = web(url, data)
        procs.append(c)
        assert SIGN_IN_FORM not in _get(f"{base_c}/gm", cookie)
        c.stop()
        # a new GM credential ends the session, as a new generated one does
        d, base_d = web(url, data, {"GAMESMASTER_GM_CREDENTIAL": "gm.another-test-credential-456"})
        procs.append(d)
        assert SIGN_IN_FORM in _get(f"{base_d}/gm", cookie)
    finally:
        for p in procs:
            p.stop()
