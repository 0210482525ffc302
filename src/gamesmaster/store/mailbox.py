"""The mail door's tables: players' addresses, mail received, the outbox, the mail the channel decided on.

They live in the gamesmaster's database beside the record (migration
0002_mail_outbox_contacts creates them); nothing here is part of a game's ledger. The
outbox is the durable queue of every mail the gamesmaster sends: a row is written before
anything is sent and is never deleted, only marked sent (or failed, for the GM to see).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, Iterable, Sequence

from sqlalchemy import (JSON, Column, ForeignKey, Index, Integer, LargeBinary, String, Table, Text, and_, func,
                        insert, or_, select, update)
from sqlalchemy.engine import Connection

from .schema import AnyRow, UTCDateTime, metadata, record

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

KEY_CHARS = 200  # the longest key of a mail in the outbox or of a decided one: what it is, so it is made once

outbox = Table(
    "gm_mail_outbox", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created_at", UTCDateTime, nullable=False),
    Column("kind", String(16), nullable=False),  # reply, results, press, reminder, notice
    Column("game_id", String(64), nullable=True),
    Column("key", String(KEY_CHARS), nullable=True, unique=True),  # what caused it, so it is queued once
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

deliveries = Table(
    "gm_mail_deliveries", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), nullable=False),
    Column("key", String(KEY_CHARS), nullable=False, unique=True),  # what it tells of, to whom: decided once
    Column("kind", String(16), nullable=False),  # a MailKind
    Column("address", String(320), nullable=False),
    Column("player", Integer, nullable=True),  # the seat's number (None: the GM's own address)
    Column("seqs", JSON, nullable=False),  # the ledger entries it tells of
    Column("phase", String(16), nullable=True),  # a reminder's phase
    Column("power", String(32), nullable=True),  # a reminder's power
    Column("batch", String(32), nullable=False),  # the pass that decided it: one pass's mail to one address is one
    Column("state", String(8), nullable=False),  # queued; done (in the outbox); silent (kept only as decided)
    Column("created_at", UTCDateTime, nullable=False),
)
Index("ix_gm_mail_deliveries_state", deliveries.c.state)


@dataclass(frozen=True)
class ContactRecord:
    """A player's address in a game: where results, press and reminders are mailed."""

    game_id: str
    player: int  # the player's number in the game
    address: str
    updated_at: datetime
    source: str  # mail (signed on by mail) or gm (set by the GM)


@dataclass(frozen=True)
class InboxRecord:
    """A mail received, as recorded before anything was done about it."""

    id: int
    received_at: datetime
    source: str  # smtp, imap, pipe
    source_key: str | None  # IMAP: 'uidvalidity:uid@host/user/folder'
    message_id: str | None
    sender: str | None  # where the answer goes
    recipients: tuple[str, ...]
    subject: str | None
    size: int
    body: str  # the text read (quotes, signature and attachments left out)
    notes: tuple[str, ...]  # what was left out and why
    game_id: str | None  # the game named by the address (+tag), if any
    status: str  # received, answered, ignored, failed
    reply_id: int | None
    error: str | None


@dataclass(frozen=True)
class OutboxLine:
    """A mail of the outbox as the GM's list shows it (without the message itself)."""

    id: int
    created_at: datetime
    kind: str  # reply, results, press, reminder, notice
    game_id: str | None
    recipients: tuple[str, ...]
    subject: str
    status: str  # queued, sending, sent, failed
    attempts: int
    next_attempt_at: datetime
    sent_at: datetime | None
    last_error: str | None


@dataclass(frozen=True)
class OutboxRecord(OutboxLine):
    """A mail of the outbox, whole: the line, what caused it, the envelope and the message as sent."""

    key: str | None  # what caused it, so it is queued once
    sender: str  # envelope sender
    message: bytes  # the whole RFC 5322 message
    claimed_at: datetime | None


@dataclass(frozen=True)
class DueMail:
    """A mail due to be sent, and how it stands, for a sender to claim it."""

    id: int
    status: str  # queued, or sending (claimed by a sender that never finished)
    claimed_at: datetime | None


class MailKind(Enum):
    """What a mail the mail channel decided on tells of (the outbox's kind is its `outbox_kind`)."""

    RESULTS = "results"  # an adjudicated (or corrected) phase; seqs: its entry, then the GM's notices that came with it
    PRESS = "press"  # a letter or a release; seqs: its entry
    NOTICE = "notice"  # the GM's notices of one pass; seqs: theirs
    WELCOME = "welcome"  # the GM's notices of the pass the game began in, with the player's power and address
    REMINDER = "reminder"  # orders due soon and none sent (phase and power say which)
    QUESTION = "question"  # to the GM: players' questions of one pass; seqs: theirs
    GM_DECISION = "gm-decision"  # to the GM: a phase waits for the GM's decision; seqs: the entry that said so

    @property
    def outbox_kind(self) -> str:
        """The kind the outbox and the GM's list show (a welcome is a notice there)."""
        return "notice" if self is MailKind.WELCOME else self.value


@dataclass(frozen=True)
class NewMail:
    """A mail the mail channel decided on, to be kept in the pass's transaction and rendered by the mail door."""

    game_id: str
    key: str  # what it tells of, to whom: so it is decided once
    kind: MailKind
    address: str
    player: int | None  # the seat's number (None: the GM's own address)
    seqs: tuple[int, ...]  # the ledger entries it tells of
    batch: str  # the pass that decided it
    created_at: datetime
    phase: str | None = None  # a reminder's phase
    power: str | None = None  # a reminder's power
    silent: bool = False  # keep the key only: its news was told otherwise (a reminder the results made late)


@dataclass(frozen=True)
class MailDeliveryRecord(NewMail):
    """A kept mail waiting for the mail door, with its id."""

    id: int = 0


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in value or ())


def _inbox(r: AnyRow) -> InboxRecord:
    return record(InboxRecord, r, recipients=_strings(r.recipients), notes=_strings(r.notes))


def _delivery(r: AnyRow) -> MailDeliveryRecord:
    return record(MailDeliveryRecord, r, kind=MailKind(r.kind), seqs=tuple(int(x) for x in r.seqs or ()),
                  silent=r.state == "silent")


class MailRecords:
    """The mail tables in one open transaction (like gamesmaster.store.Records)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    # -- contacts ------------------------------------------------------------------------

    def contacts(self, game_id: str) -> dict[int, ContactRecord]:
        """The players' addresses of a game, by player number."""
        q = select(contacts).where(contacts.c.game_id == game_id)
        return {int(r.player): record(ContactRecord, r) for r in self.conn.execute(q)}

    def set_contact(self, game_id: str, player: int, address: str, now: datetime, source: str) -> str | None:
        """Record a player's address; returns the address it replaces (None if new or the same)."""
        key = and_(contacts.c.game_id == game_id, contacts.c.player == player)
        old: str | None = self.conn.execute(select(contacts.c.address).where(key)).scalar()
        if old is None:
            self.conn.execute(insert(contacts).values(game_id=game_id, player=player, address=address,
                                                      updated_at=now, source=source))
            return None
        if old.lower() == address.lower():
            return None
        self.conn.execute(update(contacts).where(key).values(address=address, updated_at=now, source=source))
        return old

    # -- inbox -----------------------------------------------------------------------------

    def inbox_by_key(self, key: str) -> InboxRecord | None:
        """The mail received under a source's own key (an IMAP message's), if recorded already."""
        r = self.conn.execute(select(inbox).where(inbox.c.source_key == key)).first()
        return _inbox(r) if r is not None else None

    def add_inbox(self, *, received_at: datetime, source: str, source_key: str | None, message_id: str | None,
                  sender: str | None, recipients: Sequence[str], subject: str | None, size: int, body: str,
                  notes: Sequence[str], game_id: str | None) -> int:
        """Record a mail just received (status 'received'); its id."""
        q = insert(inbox).values(received_at=received_at, source=source, source_key=source_key, message_id=message_id,
                                 sender=sender, recipients=list(recipients), subject=subject, size=size, body=body,
                                 notes=list(notes), game_id=game_id, status="received")
        return int(self.conn.execute(q.returning(inbox.c.id)).scalar_one())

    def settle_inbox(self, inbox_id: int, status: str, *, reply_id: int | None = None,
                     error: str | None = None) -> None:
        """Say what became of a mail received: answered (by reply_id), ignored or failed (error: why)."""
        q = update(inbox).where(inbox.c.id == inbox_id).values(status=status, reply_id=reply_id, error=error)
        self.conn.execute(q)

    def inbox(self, limit: int = 50) -> list[InboxRecord]:
        """The mail received, newest first."""
        return [_inbox(r) for r in self.conn.execute(select(inbox).order_by(inbox.c.id.desc()).limit(limit))]

    # -- outbox ----------------------------------------------------------------------------

    def queued(self, key: str) -> bool:
        """Whether a mail with this key was queued already."""
        return self.conn.execute(select(outbox.c.id).where(outbox.c.key == key)).first() is not None

    def add_outbox(self, *, created_at: datetime, kind: str, game_id: str | None, key: str | None, sender: str,
                   recipients: Sequence[str], subject: str, message: bytes) -> int:
        """Queue a mail to be sent now; its id."""
        q = insert(outbox).values(created_at=created_at, kind=kind, game_id=game_id, key=key, sender=sender,
                                  recipients=list(recipients), subject=subject, message=message, status="queued",
                                  attempts=0, next_attempt_at=created_at)
        return int(self.conn.execute(q.returning(outbox.c.id)).scalar_one())

    def due(self, now: datetime, stale_before: datetime, limit: int) -> list[DueMail]:
        """Mail to send now: queued and due, or claimed by a sender that never finished."""
        q = (select(outbox.c.id, outbox.c.status, outbox.c.claimed_at)
             .where(or_(and_(outbox.c.status == "queued", outbox.c.next_attempt_at <= now),
                        and_(outbox.c.status == "sending", outbox.c.claimed_at <= stale_before)))
             .order_by(outbox.c.next_attempt_at, outbox.c.id).limit(limit))
        return [record(DueMail, r) for r in self.conn.execute(q)]

    def claim(self, mail_id: int, status: str, claimed_at: datetime | None, now: datetime) -> bool:
        """Take a mail for sending, unless another sender took it first."""
        cond = and_(outbox.c.id == mail_id, outbox.c.status == status)
        cond = and_(cond, outbox.c.claimed_at.is_(None) if claimed_at is None else outbox.c.claimed_at == claimed_at)
        return self.conn.execute(update(outbox).where(cond).values(status="sending", claimed_at=now)).rowcount == 1

    def mail(self, mail_id: int) -> OutboxRecord | None:
        """A mail of the outbox, whole."""
        r = self.conn.execute(select(outbox).where(outbox.c.id == mail_id)).first()
        return record(OutboxRecord, r, recipients=_strings(r.recipients)) if r is not None else None

    def mark_sent(self, mail_id: int, attempts: int, now: datetime) -> None:
        """A mail the relay took."""
        self.conn.execute(update(outbox).where(outbox.c.id == mail_id).values(
            status="sent", sent_at=now, attempts=attempts, claimed_at=None))

    def mark_failed(self, mail_id: int, attempts: int, error: str) -> None:
        """A mail the relay refused for good: held for the GM to see (and retry)."""
        self.conn.execute(update(outbox).where(outbox.c.id == mail_id).values(
            status="failed", attempts=attempts, last_error=error, claimed_at=None))

    def retry_later(self, mail_id: int, attempts: int, error: str, at: datetime) -> None:
        """A mail not sent this time: queued again, to be tried at `at`."""
        self.conn.execute(update(outbox).where(outbox.c.id == mail_id).values(
            status="queued", attempts=attempts, last_error=error, claimed_at=None, next_attempt_at=at))

    def requeue(self, mail_id: int, at: datetime) -> None:
        """Queue a mail (failed, or waiting) to be sent at `at`, its tries and last error kept."""
        self.conn.execute(update(outbox).where(outbox.c.id == mail_id).values(
            status="queued", next_attempt_at=at, claimed_at=None))

    def outbox(self, statuses: Iterable[str] | None = None, limit: int = 100) -> list[OutboxLine]:
        """The outbox (of these statuses only, if given), newest first."""
        q = select(outbox.c.id, outbox.c.created_at, outbox.c.kind, outbox.c.game_id, outbox.c.recipients,
                   outbox.c.subject, outbox.c.status, outbox.c.attempts, outbox.c.next_attempt_at,
                   outbox.c.sent_at, outbox.c.last_error)
        if statuses is not None:
            q = q.where(outbox.c.status.in_(list(statuses)))
        rows = self.conn.execute(q.order_by(outbox.c.id.desc()).limit(limit))
        return [record(OutboxLine, r, recipients=_strings(r.recipients)) for r in rows]

    def outbox_counts(self) -> dict[str, int]:
        """How many mails the outbox holds in each status."""
        q = select(outbox.c.status, func.count()).group_by(outbox.c.status)
        return {s: int(n) for s, n in self.conn.execute(q)}

    # -- the mail the channel decided on ------------------------------------------------------

    def keep_mail(self, mail: NewMail) -> bool:
        """Keep a decided mail for the door (False: its key was kept before)."""
        if self.conn.execute(select(deliveries.c.id).where(deliveries.c.key == mail.key)).first() is not None:
            return False
        self.conn.execute(insert(deliveries).values(
            game_id=mail.game_id, key=mail.key, kind=mail.kind.value, address=mail.address, player=mail.player,
            seqs=list(mail.seqs), phase=mail.phase, power=mail.power, batch=mail.batch,
            state="silent" if mail.silent else "queued", created_at=mail.created_at))
        return True

    def mail_due(self, limit: int) -> list[MailDeliveryRecord]:
        """Decided mail the door has not rendered yet, oldest first."""
        q = select(deliveries).where(deliveries.c.state == "queued").order_by(deliveries.c.id).limit(limit)
        return [_delivery(r) for r in self.conn.execute(q)]

    def mail_done(self, ids: Sequence[int]) -> bool:
        """Mark decided mail rendered into the outbox: True if every one was still waiting (else another door took
        some, and the caller rolls back)."""
        if not ids:
            return True
        q = update(deliveries).where(and_(deliveries.c.id.in_(list(ids)), deliveries.c.state == "queued"))
        return int(self.conn.execute(q.values(state="done")).rowcount or 0) == len(set(ids))
