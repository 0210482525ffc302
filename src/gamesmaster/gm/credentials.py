"""Players' secret credentials: shown once, stored only as a salted PBKDF2 hash.

A credential reads 'ID.SECRET': ID says which player row to check, SECRET is 128 random
bits. Because the secret is random and long, the hash is there so that a copy of the
database gives nobody a way in; the iteration count is modest on purpose.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import TypeGuard

# What the record and a session keep of a stored hash; the web door's GM sessions keep it too.
from ..ledger import fingerprint as fingerprint

ITERATIONS = 20_000


def new_secret() -> str:
    """A fresh random secret (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def hash_secret(secret: str, iterations: int = ITERATIONS, *, salt: str | None = None) -> str:
    """'pbkdf2_sha256$ITERATIONS$SALT$HASH' for a secret (a fresh random salt unless one is given, in hex)."""
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", secret.encode(), bytes.fromhex(salt), iterations).hex()
    return f"pbkdf2_sha256${iterations}${salt}${digest}"


def check_secret(secret: str, stored: str) -> bool:
    """Whether a secret matches a stored hash (in constant time)."""
    try:
        scheme, iterations, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "pbkdf2_sha256":
        return False
    got = hashlib.pbkdf2_hmac("sha256", secret.encode(), bytes.fromhex(salt), int(iterations)).hex()
    return hmac.compare_digest(got, digest)


_CREDENTIAL = re.compile(r"^([0-9]{1,6})\.([A-Za-z0-9_-]{8,64})$")


def split_credential(credential: str) -> tuple[int, str] | None:
    """(player number, secret) from 'NUMBER.SECRET', or None if it is not of that form (ASCII digits only)."""
    m = _CREDENTIAL.match(str(credential).strip()) if len(str(credential)) <= 100 else None
    return (int(m.group(1)), m.group(2)) if m else None


# -- session tokens and the credentials already checked -------------------------------------------

TOKEN_PREFIX = "s."


def is_token(credential: object) -> TypeGuard[str]:
    """Whether a credential is a session token ('s.' and random characters)."""
    return isinstance(credential, str) and credential.startswith(TOKEN_PREFIX) and 10 < len(credential) <= 100


def token_id(token: str) -> str:
    """What the store keeps of a session token: its SHA-256 (of 's.' and the token's random part: a key
    part after it, see `token_key`, is the browser's own and is never stored)."""
    return hashlib.sha256(".".join(token.split(".")[:2]).encode("utf-8", "replace")).hexdigest()


_KEY = re.compile(r"^[A-Za-z0-9_-]{32,64}$")


def token_key(token: str) -> str | None:
    """The key part of a session token as a door passes it ('s.TOKEN.KEY'): the secret the browser's
    session keys on the games' records are derived from (gm.keys), or None if it has none."""
    parts = token.split(".")
    return parts[2] if len(parts) == 3 and _KEY.match(parts[2]) else None


def is_key(text: object) -> bool:
    """Whether a text has the shape of a browser's key (32 to 64 URL-safe characters)."""
    return isinstance(text, str) and bool(_KEY.match(text))


class Verified:
    """Credentials this process has checked the slow way, so that each is checked so only once.

    Keyed by an HMAC of (game, credential) under a key that lives only in this process's
    memory; the value is the player's number and the fingerprint of the stored hash that
    matched, so a credential replaced since no longer passes. Bounded: the oldest entries
    are forgotten first."""

    def __init__(self, size: int = 20_000) -> None:
        self.key = secrets.token_bytes(32)
        self.size = size
        self.known: dict[bytes, tuple[int, str]] = {}

    def digest(self, game: str, credential: str) -> bytes:
        """The cache key of a credential in a game."""
        return hmac.new(self.key, f"{game}\n{credential}".encode("utf-8", "replace"), hashlib.sha256).digest()

    def get(self, game: str, credential: str) -> tuple[int, str] | None:
        """(player number, key fingerprint) of a credential checked before, if any."""
        return self.known.get(self.digest(game, credential))

    def add(self, game: str, credential: str, player: int, key: str) -> None:
        """Remember a credential that held."""
        if len(self.known) >= self.size:
            for old in list(self.known)[: self.size // 4]:
                self.known.pop(old, None)
        self.known[self.digest(game, credential)] = (player, key)


VERIFIED = Verified()
