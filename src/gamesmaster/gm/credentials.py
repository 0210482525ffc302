"""Players' secret credentials: shown once, stored only as a salted PBKDF2 hash.

A credential reads 'ID.SECRET': ID says which player row to check, SECRET is 128 random
bits. Because the secret is random and long, the hash is there so that a copy of the
database gives nobody a way in; the iteration count is modest on purpose.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ITERATIONS = 20_000


def new_secret() -> str:
    """A fresh random secret (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def hash_secret(secret: str, iterations: int = ITERATIONS) -> str:
    """'pbkdf2_sha256$ITERATIONS$SALT$HASH' for a secret."""
    salt = secrets.token_hex(8)
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


def split_credential(credential: str) -> tuple[int, str] | None:
    """(player id, secret) from 'ID.SECRET', or None if it is not of that form."""
    head, dot, secret = str(credential).strip().partition(".")
    if not dot or not head.isdigit() or not secret:
        return None
    return int(head), secret
