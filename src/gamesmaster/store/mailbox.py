"""The mail door's tables: players' addresses, mail received, the outbox, the dispatch cursor.

They live in the gamesmaster's database beside the record (migration
0002_mail_outbox_contacts creates them); nothing here is part of a game's ledger. The
outbox is the durable queue of every mail the gamesmaster sends: a row is written before
anything is sent and is never deleted, only marked sent (or failed, for the GM to see).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable

from sqlalchemy import (JSON, Column, ForeignKey, Index, Integer, LargeBinary, String, Table, Text, and_, func,
                        insert, or_, select, update)
from sqlalchemy.engine import Connection

from .schema import UTCDateTime, metadata

contacts = Table(
    "gm_mail_contacts", metadata,
    Column("game_id", String(64), ForeignKey("gm_games.id"), primary_key=True),
    Column("player", Integer, primary_key=True),  # the player's number in the game
    Column("address", String(320), nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("source", String(32), nullable=False),  # mail (signed on by mail) or gm (set by the GM)
)

inbox = Table(
    "gm_mail_inbox", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("received_at", UTCDateTime, nullable=False),
    Column("source", String(16), nullable=False),  # smtp, imap, pipe
    Column("source_key", String(200), nullable=True, unique=True),  # IMAP: 'uidvalidity:uid@host/user/folder'
    Column("message_id", String(500), nullable=True),
    Column("sender", String(320), nullable=True),  # where the answer goes
    Column("recipients", JSON, nullable=False),
    Column("subject", Text, nullable=True),
    Column("size", Integer, nullable=False),
    Column("body", Text, nullable=False),  # the text read (quotes, signature and attachments left out)
    Column("notes", JSON, nullable=False),  # what was left out and why
    Column("game_id", String(64), nullable=True),  # the game named by the address (+tag), if any
    Column("status", String(16), nullable=False),  # received, answered, ignored, failed
    Column("reply_id", Integer, nullable=True),
    Column("error", Text, nullable=True),
)

outbox = Table(
    "gm_mail_outbox", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created_at", UTCDateTime, nullable=False),
    Column("kind", String(16), nullable=False),  # reply, results, press, reminder, notice
    Column("game_id", String(64), nullable=True),
    Column("key", String(200), nullable=True, unique=True),  # what caused it, so it is queued once
    Column("sender", String(320), nullable=False),  # envelope sender
    Column("recipients", JSON, nullable=False),
    Column("subject", Text, nullable=False),
    Column("message", LargeBinary, nullable=False),  # the whole RFC 5322 message as sent
    Column("status", String(16), nullable=False),  # queued, sending, sent, failed
    Column("attempts", Integer, nullable=False),
    Column("next_attempt_at", UTCDateTime, nullable=False),
    Column("claimed_at", UTCDateTime, nullable=True),
    Column("sent_at", UTCDateTime, nullable=True),
    Column("last_error", Text, nullable=True),
)
Index("ix_gm_mail_outbox_due", outbox.c.status, outbox.c.next_attempt_at)

cursors = Table(
    "gm_mail_cursor", metadata,
    Column("game_id", String(64), ForeignKey("gm_games.id"), primary_key=True),
    Column("ledger_seq", Integer, nullable=False),  # ledger entries up to here have been mailed
    Column("reminded", JSON, nullable=False),  # {phase: [powers reminded]}
    Column("updated_at", UTCDateTime, nullable=False),
)


def _rows(result: Any) -> list[dict[str, Any]]:
    return [dict(r._mapping) for r in result]


class MailRecords:
    """The mail tables in one open transaction (like gamesmaster.store.Records)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    # -- contacts ------------------------------------------------------------------------

    def contacts(self, game_id: str) -> dict[int, dict[str, Any]]:
        """The players' addresses of a game, by player number."""
        q = select(contacts).where(contacts.c.game_id == game_id)
        return {r["player"]: r for r in _rows(self.conn.execute(q))}

    def set_contact(self, game_id: str, player: int, address: str, now: datetime, source: str) -> str | None:
        """Record a player's address; returns the address it replaces (None if new or the same)."""
        key = and_(contacts.c.game_id == game_id, contacts.c.player == player)
        old = self.conn.execute(select(contacts.c.address).where(key)).scalar()
        if old is None:
            self.conn.execute(insert(contacts).values(game_id=game_id, player=player, address=address,
                                                      updated_at=now, source=source))
            return None
        if old.lower() == address.lower():
            return None
        self.conn.execute(update(contacts).where(key).values(address=address, updated_at=now, source=source))
        return old

    # -- inbox -----------------------------------------------------------------------------

    def inbox_by_key(self, key: str) -> dict[str, Any] | None:
        r = self.conn.execute(select(inbox).where(inbox.c.source_key == key)).first()
        return dict(r._mapping) if r is not None else None

    def add_inbox(self, **values: Any) -> int:
        return int(self.conn.execute(insert(inbox).values(**values).returning(inbox.c.id)).scalar_one())

    def update_inbox(self, inbox_id: int, **values: Any) -> None:
        self.conn.execute(update(inbox).where(inbox.c.id == inbox_id).values(**values))

    def inbox(self, limit: int = 50) -> list[dict[str, Any]]:
        return _rows(self.conn.execute(select(inbox).order_by(inbox.c.id.desc()).limit(limit)))

    # -- outbox ----------------------------------------------------------------------------

    def queued(self, key: str) -> bool:
        return self.conn.execute(select(outbox.c.id).where(outbox.c.key == key)).first() is not None

    def add_outbox(self, **values: Any) -> int:
        values.setdefault("status", "queued")
        values.setdefault("attempts", 0)
        values.setdefault("next_attempt_at", values["created_at"])
        return int(self.conn.execute(insert(outbox).values(**values).returning(outbox.c.id)).scalar_one())

    def due(self, now: datetime, stale_before: datetime, limit: int) -> list[dict[str, Any]]:
        """Mail to send now: queued and due, or claimed by a sender that never finished."""
        q = (select(outbox.c.id, outbox.c.status, outbox.c.claimed_at)
             .where(or_(and_(outbox.c.status == "queued", outbox.c.next_attempt_at <= now),
                        and_(outbox.c.status == "sending", outbox.c.claimed_at <= stale_before)))
             .order_by(outbox.c.next_attempt_at, outbox.c.id).limit(limit))
        return _rows(self.conn.execute(q))

    def claim(self, mail_id: int, status: str, claimed_at: datetime | None, now: datetime) -> bool:
        """Take a mail for sending, unless another sender took it first."""
        cond = and_(outbox.c.id == mail_id, outbox.c.status == status)
        cond = and_(cond, outbox.c.claimed_at.is_(None) if claimed_at is None else outbox.c.claimed_at == claimed_at)
        return self.conn.execute(update(outbox).where(cond).values(status="sending", claimed_at=now)).rowcount == 1

    def mail(self, mail_id: int) -> dict[str, Any] | None:
        r = self.conn.execute(select(outbox).where(outbox.c.id == mail_id)).first()
        return dict(r._mapping) if r is not None else None

    def update_outbox(self, mail_id: int, **values: Any) -> None:
        self.conn.execute(update(outbox).where(outbox.c.id == mail_id).values(**values))

    def outbox(self, statuses: Iterable[str] | None = None, limit: int = 100) -> list[dict[str, Any]]:
        q = select(outbox.c.id, outbox.c.created_at, outbox.c.kind, outbox.c.game_id, outbox.c.recipients,
                   outbox.c.subject, outbox.c.status, outbox.c.attempts, outbox.c.next_attempt_at,
                   outbox.c.sent_at, outbox.c.last_error)
        if statuses is not None:
            q = q.where(outbox.c.status.in_(list(statuses)))
        return _rows(self.conn.execute(q.order_by(outbox.c.id.desc()).limit(limit)))

    def outbox_counts(self) -> dict[str, int]:
        q = select(outbox.c.status, func.count()).group_by(outbox.c.status)
        return {s: int(n) for s, n in self.conn.execute(q)}

    # -- the dispatch cursor ----------------------------------------------------------------

    def cursor(self, game_id: str) -> dict[str, Any] | None:
        r = self.conn.execute(select(cursors).where(cursors.c.game_id == game_id)).first()
        return dict(r._mapping) if r is not None else None

    def put_cursor(self, game_id: str, old_seq: int | None, seq: int, reminded: dict[str, Any], now: datetime) -> bool:
        """Move a game's cursor from old_seq (None: no cursor yet) to seq; False if another dispatcher moved it."""
        if old_seq is None:
            if self.cursor(game_id) is not None:
                return False
            self.conn.execute(insert(cursors).values(game_id=game_id, ledger_seq=seq, reminded=reminded, updated_at=now))
            return True
        q = (update(cursors).where(and_(cursors.c.game_id == game_id, cursors.c.ledger_seq == old_seq))
             .values(ledger_seq=seq, reminded=reminded, updated_at=now))
        return self.conn.execute(q).rowcount == 1
