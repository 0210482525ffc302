"""Issue 22: `gamesmaster serve` as the Quick start runs it, with no relay for outgoing mail. It says so at
start-up, naming the setting to fix, and the site, over real HTTP, never says a sign-in link is on its way."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import time
import urllib.parse
import urllib.request

from test_serve import serve_argv, start

from gamesmaster.gm import Gamesmaster
from gamesmaster.store import Store
from gamesmaster.store.db import default_url


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_without_a_relay_says_so_and_promises_no_mail(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAMESMASTER_")}
    relay = _closed_port()
    env.update(HOME=str(tmp_path), PYTHONUNBUFFERED="1", GAMESMASTER_SMTP_RELAY=f"127.0.0.1:{relay}",
               GAMESMASTER_MAIL_INTERVAL="0.3")
    argv = serve_argv(["--port", "0", "--data", str(tmp_path / "data"), "--smtp-port", str(_closed_port()),
                       "--web-processes", "1", "--no-demo"])
    server, base = start(argv, env)
    try:
        out = server.output
        assert f"Mail out: no relay answers at 127.0.0.1:{relay}" in out
        assert "set GAMESMASTER_SMTP_RELAY=HOST:PORT" in out
        assert "Questions to the GM: shown on the GM console; set GAMESMASTER_GM_EMAIL" in out
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

        def sign_up(url: str, email: str) -> str:
            page = browser.open(base + "/account", timeout=30).read().decode()
            token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
            data = urllib.parse.urlencode({"email": email, "name": "Ann", "csrf_token": token}).encode()
            return browser.open(base + url, data, timeout=30).read().decode()

        page = sign_up("/account/sign-up", "ann@players.test")
        assert "is on its way" not in page and "has not delivered any mail yet" in page
        store = Store(default_url(tmp_path / "data"))
        try:
            deadline = time.monotonic() + 60
            while not Gamesmaster(store).mailroom.mail_trouble().failing:  # until the sender has tried the relay
                assert time.monotonic() < deadline, server.output
                time.sleep(0.1)
        finally:
            store.dispose()
        page = sign_up("/account/send-link", "ann@players.test")
        assert "is on its way" not in page and "mail is not going out just now" in page
    finally:
        code = server.stop(sig=signal.SIGTERM)
    assert code == 0, server.output
