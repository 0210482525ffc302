"""Sign-in sessions kept on the server: the cookie (or an API token) holds only a random token.

A row is keyed by the SHA-256 of the token, so a copy of the database gives nobody a way
in. It says which seat of which game the session signed in as (and the fingerprint of
the credential it signed in with, so that replacing the credential ends the session),
whether it signed in as the gamesmaster (with the fingerprint of the GM credential, so
that a new GM credential ends it), and the site's small session data (the CSRF token,
messages for the next page). Migration 0004_sessions creates the table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column, Index, Integer, String, Table, delete, insert, select, update
from sqlalchemy.engine import Connection

from .schema import UTCDateTime, metadata

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
class SessionRow:
    """One sign-in session."""

    id: str
    created_at: datetime
    expires_at: datetime
    seats: Any
    gm_key: str | None
    data: Any
    account: int | None = None


class SessionRecords:
    """The sessions table in one open transaction."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def get(self, session_id: str) -> SessionRow | None:
        """A session by its id (the token's hash)."""
        r = self.conn.execute(select(sessions).where(sessions.c.id == session_id)).first()
        return SessionRow(**{k: r._mapping[k] for k in SessionRow.__dataclass_fields__}) if r is not None else None

    def put(self, row: SessionRow) -> None:
        """Write a session (insert or replace)."""
        values = asdict(row)
        if self.conn.execute(update(sessions).where(sessions.c.id == row.id).values(**values)).rowcount == 0:
            self.conn.execute(insert(sessions).values(**values))

    def delete(self, session_id: str) -> None:
        """End a session."""
        self.conn.execute(delete(sessions).where(sessions.c.id == session_id))

    def purge(self, now: datetime) -> int:
        """Remove the sessions that have expired; returns how many."""
        return int(self.conn.execute(delete(sessions).where(sessions.c.expires_at <= now)).rowcount or 0)
