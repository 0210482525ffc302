"""The site's secrets, sessions and CSRF tokens.

- Sessions are kept on the server (gm.sessions): the cookie holds only a random token
  (HTTP-only, SameSite=Lax, and Secure when the request came over https, directly or
  through a proxy uvicorn trusts with --proxy-headers). A player's credential is used once,
  to sign in; signing out ends the sign-in for every copy of the cookie, and so does
  replacing the credential. The GM's sign-in holds while the GM credential is the one it
  was made with: a new GM credential ends every GM session.
- The GM credential is a site-wide secret; only its salted PBKDF2 hash is kept, in
  `web.json` in the data directory (or it is given by $GAMESMASTER_GM_CREDENTIAL).
- Every POST form carries a CSRF token: a signed-in session's own, kept with it on the
  server; a visitor who has not signed in gets one in a cookie of its own (gm_csrf), and the
  form must send it back. Nothing is written to the store for a visitor who only reads, so
  reading pages costs no write and a crawler cannot fill the sessions table. The JSON API
  takes credentials in the Authorization header only (never from cookies), so it needs no token.
"""

from __future__ import annotations

import hmac
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..gm import (GM_CREDENTIAL_VARIABLE, VERIFIED, RateLimiter, check_secret, fingerprint, hash_secret, is_key, new_secret,
                  SiteSettings, split_credential)

WEB_FILE = "web.json"
GM_ENV = GM_CREDENTIAL_VARIABLE
SESSION_COOKIE = "gm_session"
CSRF_COOKIE = "gm_csrf"
BROWSER_COOKIE = "gm_browser"  # the browser's key (gm.keys): kept when the session ends, so its keys on records hold
SESSION_MAX_AGE = 14 * 24 * 3600
BROWSER_MAX_AGE = 400 * 24 * 3600
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"


@dataclass
class SiteSecrets:
    """The GM credential's hash; `new_gm_credential` is set (in plain text) only when it was
    generated just now, to be shown once."""

    gm_hash: str
    new_gm_credential: str | None = None
    path: Path | None = None

    def check_gm(self, credential: str | None) -> bool:
        """Whether a credential is the GM's (checked the slow way once per process, then remembered)."""
        if not credential or len(credential) > 200:
            return False
        credential = credential.strip()
        if self.known_gm(credential):
            return True
        if check_secret(credential, self.gm_hash):
            VERIFIED.add("(site)", credential, 0, self.gm_key)
            return True
        return False

    def known_gm(self, credential: str) -> bool:
        """Whether this process has already found this credential to be the GM's (no slow check needed)."""
        return VERIFIED.get("(site)", credential.strip()) == (0, self.gm_key)

    @property
    def gm_key(self) -> str:
        """The fingerprint a GM session keeps of the GM credential it was made with."""
        return fingerprint(self.gm_hash)

    @classmethod
    def for_testing(cls, gm_credential: str) -> SiteSecrets:
        return cls(hash_secret(gm_credential))


def new_gm_credential() -> str:
    return "gm." + new_secret()


def env_gm_hash(credential: str) -> str:
    """The hash of a GM credential given by $GAMESMASTER_GM_CREDENTIAL: its salt is derived from the
    credential, so every web process and every restart computes the same hash (and GM sessions, which
    keep its fingerprint, hold across them) while a new credential still gives a new one. Nothing of
    it is stored."""
    salt = hmac.new(credential.encode(), b"gamesmaster GM credential salt", "sha256").hexdigest()[:16]
    return hash_secret(credential, salt=salt)


def load_secrets(directory: Path, *, renew_gm: bool = False, site: SiteSettings | None = None) -> SiteSecrets:
    """The site's secrets from DIRECTORY/web.json, created (mode 0600) on first use.

    The settings' GM credential ($GAMESMASTER_GM_CREDENTIAL), when set, is the GM credential (nothing about it is
    stored)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / WEB_FILE
    doc: dict[str, Any] = {}
    if path.exists():
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            doc = {}
    changed = False
    if doc.pop("session_key", None) is not None:  # cookies once signed with it; sessions are on the server now
        changed = True
    fresh = None
    env = (site or SiteSettings.from_environ()).gm_credential or ""
    if env:
        gm_hash = env_gm_hash(env)
    else:
        if renew_gm or not isinstance(doc.get("gm_credential_hash"), str):
            fresh = new_gm_credential()
            doc["gm_credential_hash"] = hash_secret(fresh)
            changed = True
        gm_hash = doc["gm_credential_hash"]
    if changed:
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
        os.replace(tmp, path)
    return SiteSecrets(gm_hash, fresh, path)


# -- sessions --------------------------------------------------------------------------


class WebSession(dict[str, Any]):
    """A visitor's session: the site's small data (CSRF token, flash messages) as a dict, and what the
    gamesmaster's session record says of it (the games it is signed in to, whether it is the GM's).

    The cookie holds only the session's random token; everything else stays on the server."""

    def __init__(self, token: str | None, data: dict[str, Any], games: tuple[str, ...] = (),
                 gm_key: str | None = None, visitor_csrf: str | None = None, account: int | None = None) -> None:
        super().__init__(data)
        self.token = token
        self.account = account  # the player's account signed in to, if any (gm.accounts)
        self.games = games
        self.gm_key = gm_key
        self.saved = dict(data)
        self.new = token is None
        self.visitor_csrf = visitor_csrf  # the CSRF token the gm_csrf cookie brought, for a visitor with no session
        self.visitor_csrf_new = False  # made for this answer: the cookie is to be set
        self.browser_key: str | None = None  # the gm_browser cookie's key (gm.keys), if it brought one
        self.browser_key_new = False  # made for this answer: the cookie is to be set

    def acting_token(self, make_key: Any) -> str | None:
        """The token a door acts with: 's.TOKEN.KEY', the session's token and this browser's key (made now
        if the browser has none), so that what it does is proved by the browser's key on the record."""
        if self.token is None:
            return None
        if self.browser_key is None:
            self.browser_key, self.browser_key_new = make_key(), True
        return f"{self.token}.{self.browser_key}"

    def ensure_token(self, make: Any) -> str:
        """The session's token, made now if the visitor has none yet."""
        if self.token is None:
            self.token = make()
        return self.token

    def renew(self, make: Any) -> tuple[str | None, str]:
        """A new token for a session about to sign in (a token known before sign-in is never trusted after):
        (the old token, the new)."""
        old, self.token, self.new = self.token, make(), True
        if "csrf" not in self:  # the forms already open keep working once signed in
            self["csrf"] = self.visitor_csrf or secrets.token_urlsafe(24)
        self.saved = dict(self)  # written with the new token
        return old, self.token

    @property
    def dirty(self) -> bool:
        """Whether the data changed since it was read."""
        return dict(self) != self.saved


def web_session(request: Request) -> WebSession:
    """The request's session as SessionMiddleware made it (Starlette types request.session as a plain dict)."""
    session = request.session
    if not isinstance(session, WebSession):
        raise RuntimeError("SessionMiddleware is not installed: request.session is not a WebSession")
    return session


class SessionMiddleware:
    """Server-side sessions through the gamesmaster: request.session is a WebSession; the cookie holds a token."""

    def __init__(self, app: ASGIApp, gm: Any, max_age: int = SESSION_MAX_AGE) -> None:
        self.app = app
        self.gm = gm
        self.max_age = max_age

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        token = _cookie(scope, SESSION_COOKIE)
        found = None
        if token and len(token) <= 100:
            try:
                found = await run_in_threadpool(self.gm.sessions.session, token)
            except Exception:  # noqa: BLE001 - the store away: a fresh session, the page says what is wrong
                found = None
        visitor = _cookie(scope, CSRF_COOKIE)
        visitor = visitor if visitor and _CSRF_SHAPE.fullmatch(visitor) else None
        if found is None:
            session = WebSession(None, {}, visitor_csrf=visitor)
        else:
            session = WebSession(token, dict(found.data), tuple(sorted(found.seats)), found.gm_key, visitor,
                                 found.account)
        browser = _cookie(scope, BROWSER_COOKIE)
        session.browser_key = browser if is_key(browser) else None
        scope["session"] = session
        had_cookie = bool(token)
        secure = scope.get("scheme") == "https"

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                flags = "; Path=/; HttpOnly; SameSite=Lax" + ("; Secure" if secure else "")
                if session.dirty and (session.token is not None or dict(session)):
                    tok = session.ensure_token(self.gm.sessions.new_session_token)
                    await run_in_threadpool(self.gm.sessions.save_session, tok, dict(session))
                if session.token is not None and (session.new or session.token != token):
                    headers.append((b"set-cookie",
                                    f"{SESSION_COOKIE}={session.token}; Max-Age={self.max_age}{flags}".encode()))
                elif had_cookie and found is None:
                    headers.append((b"set-cookie", f"{SESSION_COOKIE}=; Max-Age=0{flags}".encode()))
                if session.browser_key_new and session.browser_key:
                    headers.append((b"set-cookie", f"{BROWSER_COOKIE}={session.browser_key}; "
                                                   f"Max-Age={BROWSER_MAX_AGE}{flags}".encode()))
                if session.visitor_csrf_new and session.visitor_csrf:
                    headers.append((b"set-cookie", f"{CSRF_COOKIE}={session.visitor_csrf}{flags}".encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_wrapper)


def _cookie(scope: Scope, name: str) -> str | None:
    headers: list[tuple[bytes, bytes]] = scope.get("headers", [])  # ASGI's raw headers
    for key, value in headers:
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                k, _, v = part.strip().partition("=")
                if k == name:
                    return v
    return None


def is_gm(request: Any) -> bool:
    """Whether the request's session signed in as the gamesmaster with the GM credential in force now."""
    session = request.scope.get("session")
    secrets_ = request.app.state.secrets
    return isinstance(session, WebSession) and session.gm_key is not None and session.gm_key == secrets_.gm_key


def player_token(request: Any, game: str) -> str | None:
    """The token to act with in a game ('s.TOKEN.KEY', see WebSession.acting_token), if the session is signed in to it."""
    session = request.scope.get("session")
    if not isinstance(session, WebSession) or game not in session.games:
        return None
    return session.acting_token(request.app.state.gm.sessions.new_browser_key)


_CSRF_SHAPE = re.compile(r"[A-Za-z0-9_-]{32}")


def csrf_token(session: dict[str, Any]) -> str:
    """The CSRF token for the forms of a page: a stored session's own (made on first use), or for a
    visitor without one, the token of the gm_csrf cookie (made now, and the cookie set, if it has none)."""
    token = session.get("csrf")
    if isinstance(token, str):
        return token
    if isinstance(session, WebSession):
        if session.visitor_csrf is None:
            session.visitor_csrf, session.visitor_csrf_new = secrets.token_urlsafe(24), True
        if session.token is not None:  # a stored session (a message kept for the next page) adopts it
            session["csrf"] = session.visitor_csrf
        return session.visitor_csrf
    token = secrets.token_urlsafe(24)
    session["csrf"] = token
    return token


def csrf_ok(session: dict[str, Any], sent: str | None) -> bool:
    """Whether a form's token is the session's (or, for a visitor without one, the gm_csrf cookie's)."""
    token = session.get("csrf")
    if not isinstance(token, str) and isinstance(session, WebSession) and not session.visitor_csrf_new:
        token = session.visitor_csrf
    return isinstance(token, str) and isinstance(sent, str) and hmac.compare_digest(token, sent)


# -- rate limiting of credential attempts ---------------------------------------------------


class SignInLimits:
    """Failed credential attempts, limited so that guessing is slow and nobody is locked out.

    Failures are counted per client address (10 at once, then one every 6 seconds) and per
    credential being guessed (a game's player number, or the GM credential: 10 at once, then
    one every 10 seconds). A request is refused (429) before its credential is checked only
    when its own address has run out, or when the credential it names has run out and its
    address has failed too: a player at an address with no failures is always heard, and a
    signed-in session or a credential already checked is never limited at all (the doors do
    not consult the limits for those)."""

    def __init__(self, clock: Any = None) -> None:
        self.by_address = RateLimiter(10, 1 / 6, clock)
        self.by_target = RateLimiter(10, 1 / 10, clock)

    def wait(self, address: str | None, target: str | None = None) -> int:
        """0 if a credential from this address for this target may be checked now, else the seconds to wait."""
        addr = f"addr:{address or '-'}"
        if not self.by_address.allowed(addr):
            return self.by_address.retry_after(addr)
        if target and not self.by_target.allowed(target) and self.by_address.failing(addr):
            return self.by_target.retry_after(target)
        return 0

    def failed(self, address: str | None, target: str | None = None) -> None:
        """Count a failed attempt against the address and the credential it named."""
        self.by_address.failed(f"addr:{address or '-'}")
        if target:
            self.by_target.failed(target)


def target_of(game: str | None, credential: str | None) -> str | None:
    """The limiter's name for the credential an attempt names: 'GAME:NUMBER', or 'gm'."""
    if not credential:
        return None
    parts = split_credential(credential)
    if parts and game:
        return f"{game}:{parts[0]}"
    return "gm" if credential.strip().startswith("gm.") else None
