"""The site and the mail door on one gamesmaster, for the account tests: sign up, read the mailed link
from the relay sink, sign in, and the GM's helpers."""

from __future__ import annotations

import re

from mailhelp import Mailroom
from sitetools import csrf, site_client
from webtools import GM_CREDENTIAL

from gamesmaster.web.app import create_app
from gamesmaster.web.security import SiteSecrets

SITE = "http://testserver"
LINK = re.compile(r"(https?://\S+/account/link\?t=(l\.[A-Za-z0-9_-]{43}))")


class Site:
    """A gamesmaster with its mail door (background passes) and the website on it, seen through test clients."""

    def __init__(self, tmp_path, **config) -> None:  # noqa: ANN001, ANN003
        self.room = Mailroom(tmp_path, site_url=SITE, **config)
        self.gm, self.clock, self.sink = self.room.gm, self.room.clock, self.room.sink
        self.app = create_app(self.gm, SiteSecrets.for_testing(GM_CREDENTIAL))
        self.app.state.site_url = SITE

    def client(self):
        """A browser of its own (cookies of its own)."""
        return site_client(self.app)

    def post(self, client, url: str, data: dict, page: str = "/account"):
        """Post a form with the CSRF token of `page`, following redirects."""
        return client.post(url, data={**data, "csrf_token": csrf(client, page)}, follow_redirects=True)

    def link(self, address: str, count: int = 1, subject: str = "Your sign-in link") -> str:
        """The token of the count-th link mailed to an address (waiting for the mail to arrive)."""
        self.gm.accounts.errands.wait()  # the site makes the link after it has answered
        self.room.server.wake()
        mail = self.sink.wait(address, subject, count)[count - 1]
        m = LINK.search(mail.text)
        assert m, mail.text
        assert m.group(1).startswith(SITE + "/account/link?t=")
        return m.group(2)

    def sign_up(self, address: str, name: str):
        """A new player signs up and in by the mailed link; returns the signed-in client."""
        c = self.client()
        r = self.post(c, "/account/sign-up", {"email": address, "name": name})
        # a site that has never delivered a mail does not promise one (docs/mail.md, "What the GM sees")
        assert r.status_code == 200 and ("is on its way" in r.text or "has not delivered any mail yet" in r.text), \
            r.text[:500]
        token = self.link(address)
        r = self.post(c, "/account/link", {"t": token}, page=f"/account/link?t={token}")
        assert r.status_code == 200 and f"Signed in as {name}" in r.text, r.text[:800]
        return c

    def gm_client(self):
        c = self.client()
        r = self.post(c, "/gm/sign-in", {"credential": GM_CREDENTIAL}, page="/gm")
        assert "Signed in as the gamesmaster" in r.text
        return c

    def stop(self) -> None:
        self.room.stop()
