"""The site's secrets, sessions and CSRF tokens.

- The session secret (random, generated into the data directory on first start) signs
  the session cookie: HTTP-only, SameSite=Lax, and Secure when the request came over
  https (directly, or through a proxy uvicorn trusts with --proxy-headers).
- The GM credential is a site-wide secret; only its salted PBKDF2 hash is kept, in
  `web.json` in the data directory (or it is given by $GAMESMASTER_GM_CREDENTIAL).
- Every POST form carries the session's CSRF token; the JSON API takes credentials in
  the Authorization header only (never from cookies), so it needs no token.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..gm import credentials as cred

WEB_FILE = "web.json"
GM_ENV = "GAMESMASTER_GM_CREDENTIAL"
SESSION_COOKIE = "gm_session"
SESSION_MAX_AGE = 14 * 24 * 3600
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"


@dataclass
class SiteSecrets:
    """The session-signing key and the GM credential's hash; `new_gm_credential` is set
    (in plain text) only when it was generated just now, to be shown once."""

    session_key: str
    gm_hash: str
    new_gm_credential: str | None = None
    path: Path | None = None

    def check_gm(self, credential: str | None) -> bool:
        if not credential:
            return False
        return cred.check_secret(credential.strip(), self.gm_hash)

    @classmethod
    def for_testing(cls, gm_credential: str) -> "SiteSecrets":
        return cls(secrets.token_urlsafe(32), cred.hash_secret(gm_credential))


def new_gm_credential() -> str:
    return "gm." + cred.new_secret()


def load_secrets(directory: Path, *, renew_gm: bool = False) -> SiteSecrets:
    """The site's secrets from DIRECTORY/web.json, created (mode 0600) on first use.

    $GAMESMASTER_GM_CREDENTIAL, when set, is the GM credential (nothing about it is stored)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / WEB_FILE
    doc: dict[str, Any] = {}
    if path.exists():
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            doc = {}
    changed = False
    if not isinstance(doc.get("session_key"), str) or len(doc["session_key"]) < 32:
        doc["session_key"] = secrets.token_urlsafe(48)
        changed = True
    fresh = None
    env = os.environ.get(GM_ENV, "").strip()
    if env:
        gm_hash = cred.hash_secret(env)
    else:
        if renew_gm or not isinstance(doc.get("gm_credential_hash"), str):
            fresh = new_gm_credential()
            doc["gm_credential_hash"] = cred.hash_secret(fresh)
            changed = True
        gm_hash = doc["gm_credential_hash"]
    if changed:
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
        os.replace(tmp, path)
    return SiteSecrets(doc["session_key"], gm_hash, fresh, path)


# -- sessions --------------------------------------------------------------------------


class SessionMiddleware:
    """Signed cookie sessions (itsdangerous): scope["session"] is a dict; Secure over https."""

    def __init__(self, app: Any, secret_key: str, max_age: int = SESSION_MAX_AGE) -> None:
        self.app = app
        self.signer = URLSafeTimedSerializer(secret_key, salt="gamesmaster-session")
        self.max_age = max_age

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        initial: dict[str, Any] = {}
        raw = _cookie(scope, SESSION_COOKIE)
        if raw:
            try:
                data = self.signer.loads(raw, max_age=self.max_age)
                if isinstance(data, dict):
                    initial = data
            except (BadSignature, ValueError):
                initial = {}
        scope["session"] = dict(initial)
        had_cookie = bool(raw)
        secure = scope.get("scheme") == "https"

        async def send_wrapper(message: dict) -> None:
            if message["type"] == "http.response.start":
                session = scope["session"]
                headers = list(message.get("headers", []))
                flags = "; Path=/; HttpOnly; SameSite=Lax" + ("; Secure" if secure else "")
                if session and session != initial:
                    value = self.signer.dumps(session)
                    headers.append((b"set-cookie", f"{SESSION_COOKIE}={value}; Max-Age={self.max_age}{flags}".encode()))
                elif not session and had_cookie:
                    headers.append((b"set-cookie", f"{SESSION_COOKIE}=; Max-Age=0{flags}".encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_wrapper)


def _cookie(scope: dict, name: str) -> str | None:
    for key, value in scope.get("headers", []):
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                k, _, v = part.strip().partition("=")
                if k == name:
                    return v
    return None


def csrf_token(session: dict[str, Any]) -> str:
    """The session's CSRF token (made on first use)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def csrf_ok(session: dict[str, Any], sent: str | None) -> bool:
    token = session.get("csrf")
    return isinstance(token, str) and isinstance(sent, str) and hmac.compare_digest(token, sent)


# -- rate limiting of credential attempts ---------------------------------------------------


class RateLimiter:
    """Failed credential attempts, limited per key with a token bucket (in memory).

    Each key (a client address, or a game) holds `burst` tokens, refilled at `rate` tokens a
    second; every failed attempt takes one. A key with no token left is refused (HTTP 429)
    before its credential is even checked, until a token has grown back. Limits are kept
    per process: with N web processes a client gets at most N times the burst.
    """

    def __init__(self, burst: float, rate: float, clock: Any = None, max_keys: int = 100_000) -> None:
        import threading
        import time
        self.burst, self.rate = float(burst), float(rate)
        self.clock = clock or time.monotonic
        self.max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _level(self, key: str, now: float) -> float:
        tokens, since = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - since) * self.rate)

    def allowed(self, key: str) -> bool:
        """Whether an attempt from KEY may be checked now (at least one token left)."""
        with self._lock:
            return self._level(key, self.clock()) >= 1.0

    def failed(self, key: str) -> None:
        """Take a token from KEY for a failed attempt."""
        with self._lock:
            now = self.clock()
            if len(self._buckets) >= self.max_keys:  # bounded memory: forget the full buckets
                self._buckets = {k: v for k, v in self._buckets.items() if self._level(k, now) < self.burst}
                if len(self._buckets) >= self.max_keys:  # still full: keep the newest half
                    newest = sorted(self._buckets.items(), key=lambda kv: kv[1][1])[-(self.max_keys // 2):]
                    self._buckets = dict(newest)
            self._buckets[key] = (max(0.0, self._level(key, now) - 1.0), now)

    def retry_after(self, key: str) -> int:
        """Seconds until KEY has a token again."""
        with self._lock:
            level = self._level(key, self.clock())
        return max(1, int((1.0 - level) / self.rate + 0.999)) if level < 1.0 else 0


class SignInLimits:
    """The site's limits on failed credential attempts: per client address (10 at once, then
    one every 6 seconds) and per game (30 at once, then one every 2 seconds, whoever tries)."""

    def __init__(self, clock: Any = None) -> None:
        self.by_address = RateLimiter(10, 1 / 6, clock)
        self.by_game = RateLimiter(30, 1 / 2, clock)

    def keys(self, address: str | None, game: str | None) -> list[tuple[RateLimiter, str]]:
        keys = [(self.by_address, f"addr:{address or '-'}")]
        if game:
            keys.append((self.by_game, f"game:{game}"))
        return keys

    def check(self, address: str | None, game: str | None = None) -> int:
        """0 if an attempt may be made now, else the seconds to wait."""
        return max((lim.retry_after(k) for lim, k in self.keys(address, game) if not lim.allowed(k)), default=0)

    def failed(self, address: str | None, game: str | None = None) -> None:
        for lim, k in self.keys(address, game):
            lim.failed(k)
