"""Sign-in sessions kept on the server: the cookie (or an API token) holds only a random token.

A row is keyed by the SHA-256 of the token, so a copy of the database gives nobody a way
in. It says which seat of which game the session signed in as (and the fingerprint of
the credential it signed in with, so that replacing the credential ends the session),
whether it signed in as the gamesmaster (with the fingerprint of the GM credential, so
that a new GM credential ends it), and the site's small session data (the CSRF token,
messages for the next page). Migration 0004_sessions creates the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping

from sqlalchemy import JSON, Column, Index, Integer, String, Table, delete, insert, select, update
from sqlalchemy.engine import Connection

from ..ledger import JSONObject
from .schema import UTCDateTime, metadata, record

sessions = Table(
    "gm_sessions", metadata,
    Column("id", String(64), primary_key=True),  # SHA-256 of the token
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("seats", JSON, nullable=False),  # {game: {"player": n, "key": fingerprint}}
    Column("gm_key", String(64), nullable=True),  # fingerprint of the GM credential signed in with
    Column("data", JSON, nullable=False),  # the site's own: CSRF token, flash messages
    Column("account", Integer, nullable=True),  # the account signed in to (gm_accounts.id), if any
)
Index("ix_gm_sessions_expires", sessions.c.expires_at)


@dataclass(frozen=True)
class SessionSeat:
    """The seat a session signed in as in one game: the player's number and the fingerprint of its credential."""

    player: int
    key: str


@dataclass(frozen=True)
class SessionRow:
    """One sign-in session."""

    id: str  # SHA-256 of the token
    created_at: datetime
    expires_at: datetime
    seats: Mapping[str, SessionSeat]  # by game
    gm_key: str | None
    data: JSONObject  # the site's own: CSRF token, flash messages
    account: int | None = None


class SessionRecords:
    """The sessions table in one open transaction."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def get(self, session_id: str) -> SessionRow | None:
        """A session by its id (the token's hash)."""
        r = self.conn.execute(select(sessions).where(sessions.c.id == session_id)).first()
        if r is None:
            return None
        seats = {str(g): SessionSeat(int(v["player"]), str(v["key"])) for g, v in (r.seats or {}).items()}
        return record(SessionRow, r, seats=seats, data=dict(r.data or {}))

    def put(self, row: SessionRow) -> None:
        """Write a session (insert or replace)."""
        values: dict[str, Any] = {
            "id": row.id, "created_at": row.created_at, "expires_at": row.expires_at, "gm_key": row.gm_key,
            "data": row.data, "account": row.account,
            "seats": {g: {"player": s.player, "key": s.key} for g, s in row.seats.items()}}
        if self.conn.execute(update(sessions).where(sessions.c.id == row.id).values(**values)).rowcount == 0:
            self.conn.execute(insert(sessions).values(**values))

    def delete(self, session_id: str) -> None:
        """End a session."""
        self.conn.execute(delete(sessions).where(sessions.c.id == session_id))

    def purge(self, now: datetime) -> int:
        """Remove the sessions that have expired; returns how many."""
        return int(self.conn.execute(delete(sessions).where(sessions.c.expires_at <= now)).rowcount or 0)
