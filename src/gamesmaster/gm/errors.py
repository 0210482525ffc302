"""What the gamesmaster says when it cannot do what was asked: each message names the problem."""

from __future__ import annotations

# The database being out of reach is the store's to say; the doors catch it here, from gm,
# so that none of them needs to know the store.
from ..store import StoreError as StoreError


class GMError(Exception):
    """A request the gamesmaster refuses; the message says why (for the player or the GM)."""


class NotFound(GMError):
    """No such game, power, player or proposal."""


class Forbidden(GMError):
    """The credential does not allow this (wrong power, unknown or missing secret)."""


class Refused(GMError):
    """Orders refused (late, or for a phase already published); the refusal is on the record."""

    def __init__(self, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.seq = seq


class Limited(GMError):
    """Asked too often just now (mailing sign-in links): try again after `retry_after` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
