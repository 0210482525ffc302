"""The mail door's books, kept by the gamesmaster: mail received, the outbox, players' addresses, mail decided on.

None of this is on a game's ledger (store.mailbox keeps it beside the record). The mail
door reaches it only here: `Mailroom.open()` is one transaction on the books, so that a
mail is queued in the same transaction as whatever caused it (the answer with the
received mail's record, the mail the mail channel decided on (gm.mailing) with its mark as
rendered, a notification's mail with its mark as mailed). Every read returns the store's typed records.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, Iterator, Sequence

from ..store import Connection, Store
from ..store.accounts import AccountRecord, AccountRecords, NoticeRecord
from ..store.mailbox import (KEY_CHARS as MAIL_KEY_CHARS, ContactRecord, DueMail, InboxRecord, MailDeliveryRecord,
                             MailKind, MailRecords, OutboxLine, OutboxRecord)

__all__ = ["Mailroom", "MailBooks", "MailTrouble", "game_address", "MAIL_KEY_CHARS", "AccountRecord", "ContactRecord", "DueMail",
           "InboxRecord", "MailDeliveryRecord", "MailKind", "NoticeRecord", "OutboxLine", "OutboxRecord"]


def game_address(address: str, game: str) -> str:
    """A game's own address, from the gamesmaster's: gm@club.example -> gm+GAME@club.example."""
    local, _, domain = address.rpartition("@")
    return f"{local}+{game}@{domain}"


class MailBooks:
    """The mail door's books in one open transaction."""

    def __init__(self, conn: Connection) -> None:
        self._mail = MailRecords(conn)
        self._accounts = AccountRecords(conn)

    # -- mail received ----------------------------------------------------------------------

    def received_under(self, source_key: str) -> InboxRecord | None:
        """The mail recorded under its source's own key (an IMAP message's), if it was received before."""
        return self._mail.inbox_by_key(source_key)

    def record_received(self, *, received_at: datetime, source: str, source_key: str | None, message_id: str | None,
                        sender: str | None, recipients: Sequence[str], subject: str | None, size: int, body: str,
                        notes: Sequence[str], game_id: str | None) -> int:
        """Record a mail as received, before anything is done about it; its id."""
        return self._mail.add_inbox(received_at=received_at, source=source, source_key=source_key,
                                    message_id=message_id, sender=sender, recipients=recipients, subject=subject,
                                    size=size, body=body, notes=notes, game_id=game_id)

    def settle_received(self, inbox_id: int, status: str, *, reply_id: int | None = None,
                        error: str | None = None) -> None:
        """Say what became of a mail received: answered (by the mail reply_id), ignored or failed (error: why)."""
        self._mail.settle_inbox(inbox_id, status, reply_id=reply_id, error=error)

    # -- the outbox -------------------------------------------------------------------------

    def queue(self, *, created_at: datetime, kind: str, game_id: str | None, key: str | None, sender: str,
              recipients: Sequence[str], subject: str, message: bytes) -> int | None:
        """Put a mail in the outbox, to be sent now; its id (None: a mail with this key was queued already)."""
        if key is not None and self._mail.queued(key):
            return None
        return self._mail.add_outbox(created_at=created_at, kind=kind, game_id=game_id, key=key, sender=sender,
                                     recipients=recipients, subject=subject, message=message)

    def due(self, now: datetime, stale_before: datetime, limit: int) -> list[DueMail]:
        """Mail to send now: queued and due, or claimed before stale_before by a sender that never finished."""
        return self._mail.due(now, stale_before, limit)

    def claim(self, mail: DueMail, now: datetime) -> bool:
        """Take a due mail for sending, unless another sender took it since it was found due."""
        return self._mail.claim(mail.id, mail.status, mail.claimed_at, now)

    def mail(self, mail_id: int) -> OutboxRecord | None:
        """A mail of the outbox, whole."""
        return self._mail.mail(mail_id)

    def sent(self, mail_id: int, attempts: int, now: datetime) -> None:
        """A mail the relay took, at the attempts-th try."""
        self._mail.mark_sent(mail_id, attempts, now)

    def failed(self, mail_id: int, attempts: int, error: str) -> None:
        """A mail the relay refused for good: held as failed, for the GM to see and retry."""
        self._mail.mark_failed(mail_id, attempts, error)

    def retry_later(self, mail_id: int, attempts: int, error: str, at: datetime) -> None:
        """A mail not sent at this try: queued again, to be tried at `at`."""
        self._mail.retry_later(mail_id, attempts, error, at)

    def retry(self, mail_ids: Iterable[int] | None, now: datetime) -> int:
        """Queue failed mail (None), or these failed or waiting mails, to be sent now; how many."""
        wanted = None if mail_ids is None else set(mail_ids)
        n = 0
        for line in self._mail.outbox(["failed", "queued"], limit=100000):
            if (wanted is None and line.status == "failed") or (wanted is not None and line.id in wanted):
                self._mail.requeue(line.id, now)
                n += 1
        return n

    def outbox(self, statuses: Iterable[str] | None = None, limit: int = 100) -> list[OutboxLine]:
        """The outbox (of these statuses only, if given), newest first."""
        return self._mail.outbox(statuses, limit)

    def outbox_counts(self) -> dict[str, int]:
        """How many mails the outbox holds in each status."""
        return self._mail.outbox_counts()

    # -- players' addresses ------------------------------------------------------------------

    def contacts(self, game_id: str) -> dict[int, ContactRecord]:
        """The players' addresses in a game, by player number."""
        return self._mail.contacts(game_id)

    def set_contact(self, game_id: str, player: int, address: str, now: datetime, source: str) -> str | None:
        """Record a player's address (source: mail or gm); the address it replaces (None if new or the same)."""
        return self._mail.set_contact(game_id, player, address, now, source)

    # -- the mail the mail channel decided on -------------------------------------------------

    def mail_due(self, limit: int) -> list[MailDeliveryRecord]:
        """The mail the mail channel decided on and the door has not rendered yet, oldest first."""
        return self._mail.mail_due(limit)

    def mail_done(self, ids: Sequence[int]) -> bool:
        """Mark decided mail rendered (in this transaction's outbox): False if another door took some first."""
        return self._mail.mail_done(ids)

    # -- players' notifications ------------------------------------------------------------------

    def notices_to_mail(self) -> list[NoticeRecord]:
        """The notifications marked for mail and not yet mailed, oldest first."""
        return self._accounts.to_mail()

    def account(self, account_id: int) -> AccountRecord | None:
        """An account, for its address."""
        return self._accounts.by_id(account_id)

    def notice_mailed(self, notice_id: int, *, forget_text: bool = False) -> bool:
        """Mark a notification mailed (forget_text: it held a link, kept now only in the outbox): True for the one
        pass that does so."""
        return self._accounts.mailed(notice_id, forget_text=forget_text)


@dataclass(frozen=True)
class MailTrouble:
    """What the GM (and a page about to promise a mail) needs to know of mail not delivered."""

    waiting: tuple[OutboxLine, ...]  # tried and not taken by the relay, to be tried again (newest first)
    failed: tuple[OutboxLine, ...]  # refused for good, held for the GM (newest first)
    sent: int  # mails the relay has taken, ever
    last_sent_at: datetime | None

    @property
    def undelivered(self) -> tuple[OutboxLine, ...]:
        """Every mail the relay has not taken although it was tried, newest first."""
        return tuple(sorted(self.waiting + self.failed, key=lambda m: m.id, reverse=True))

    @property
    def failing(self) -> bool:
        """Whether mail is not going out now: a mail was tried and not taken, and none has been taken since."""
        oldest = min((m.created_at for m in self.waiting), default=None)
        return oldest is not None and (self.last_sent_at is None or self.last_sent_at < oldest)

    @property
    def error(self) -> str | None:
        """The latest reason a mail was not taken."""
        return next((m.last_error for m in self.undelivered if m.last_error), None)

    @property
    def since(self) -> datetime | None:
        """When the oldest undelivered mail was queued."""
        return min((m.created_at for m in self.undelivered), default=None)


class Mailroom:
    """The mail door's way to its books in a store, and the mail that has not gone out, for the GM."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @contextmanager
    def open(self, write: bool = True) -> Iterator[MailBooks]:
        """One transaction on the books: committed when the block ends, rolled back on an exception."""
        with self.store.connect(write) as conn:
            yield MailBooks(conn)

    def mail_trouble(self, limit: int = 50) -> MailTrouble:
        """Mail the relay has not taken (tried at least once), for the GM's console and before promising a mail."""
        with self.open(write=False) as books:
            pending = books.outbox(["queued", "sending", "failed"], limit)
            last = books.outbox(["sent"], 1)
            sent = books.outbox_counts().get("sent", 0)
        waiting = tuple(m for m in pending if m.status != "failed" and m.attempts > 0)
        failed = tuple(m for m in pending if m.status == "failed")
        return MailTrouble(waiting, failed, sent, last[0].sent_at if last else None)
