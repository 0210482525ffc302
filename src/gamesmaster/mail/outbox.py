"""Outgoing mail: composed, queued in the database, then delivered through the relay.

Every mail the gamesmaster sends is first a row of the outbox table (written in the
same transaction as whatever caused it: the answer with the received mail's record, the
results with the dispatch cursor). `Sender.send_due()` delivers queued mail through the
configured SMTP relay; a failure is logged and the mail tried again later, waiting
twice as long each time (up to `retry_max`). A mail the relay refuses outright (5xx)
is tried `permanent_tries` times and then held as 'failed' for the GM to see and retry
(`gamesmaster mail outbox --retry`); no mail is ever deleted.
"""

from __future__ import annotations


import logging
import secrets
import smtplib
import socket
import ssl
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import policy as _policy
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, getaddresses, make_msgid
from typing import Callable, Sequence

from ..gm import MailBooks, Mailroom, OutboxRecord
from . import headers
from .config import MailConfig

log = logging.getLogger(__name__)

SMTP_POLICY = _policy.SMTP  # CRLF line ends, as SMTP wants them (smtplib sends bytes as they are)
STALE_CLAIM = timedelta(minutes=10)  # a mail 'sending' for this long was claimed by a sender that died


@dataclass(frozen=True)
class Attachment:
    filename: str
    content: bytes
    maintype: str = "image"
    subtype: str = "png"


def compose(config: MailConfig, to: Sequence[str], subject: str, body: str, *, now: datetime,
            attachments: Sequence[Attachment] = (), in_reply_to: str | None = None, auto: str = "auto-generated",
            game: str | None = None, idstring: str | None = None, references: Sequence[str] = ()) -> EmailMessage:
    """A mail from the gamesmaster (Auto-Submitted, so other robots do not answer it).

    Whatever came from a received mail (the addressee, the subject, the message answered
    and the thread it belongs to) is checked by `mail.headers` first; an address that is
    not plainly one is refused (ValueError), a message id that is not plainly one is left
    out. An answer's References are the thread's and then the message answered, so mail
    programs thread it under that message. `idstring` goes into the Message-ID, for answers
    to find what they answer (a results mail names its game and entry)."""
    recipients = [headers.address(a) for a in to]
    if not recipients or None in recipients:
        raise ValueError(f"not a mailbox address: {next((a for a in to if not headers.address(a)), '')[:80]!r}")
    msg = EmailMessage()
    sender = config.game_address(game) if game else config.address
    msg["From"] = formataddr((config.name, sender))
    msg["To"] = ", ".join(r for r in recipients if r is not None)  # (there is none: refused above)
    msg["Subject"] = headers.subject(subject)
    msg["Date"] = format_datetime(now)
    if idstring:  # short, so that no mail client folds it when it quotes it in In-Reply-To
        msg["Message-ID"] = f"<{idstring}.{secrets.token_hex(6)}@{config.domain or 'localhost'}>"
    else:
        msg["Message-ID"] = make_msgid("gamesmaster", domain=config.domain or None)
    msg["Auto-Submitted"] = auto
    msg["X-Gamesmaster"] = game or "gamesmaster"
    answered = headers.message_id(in_reply_to)
    if answered:
        thread = [i for i in (headers.message_id(r) for r in references) if i and i != answered]
        msg["In-Reply-To"] = answered
        if len(thread) >= headers.REFERENCES_KEPT:  # the thread's first message and its latest
            thread = thread[:1] + thread[-(headers.REFERENCES_KEPT - 2):]
        msg["References"] = " ".join([*thread, answered])
    msg.set_content(body if body.endswith("\n") else body + "\n", charset="utf-8")
    for a in attachments:
        msg.add_attachment(a.content, maintype=a.maintype, subtype=a.subtype, filename=a.filename)
    written = msg.as_bytes(policy=SMTP_POLICY).split(b"\r\n\r\n", 1)[0].decode("ascii", "replace")
    names = [line.split(":", 1)[0].lower() for line in written.split("\r\n") if line and not line[0].isspace()]
    if sorted(names) != sorted(k.lower() for k in msg.keys()) or names.count("reply-to"):
        raise ValueError("a header of this mail would not be written as given: not sent")
    return msg


def queue(books: MailBooks, config: MailConfig, msg: EmailMessage, *, kind: str, now: datetime,
          game: str | None = None, key: str | None = None) -> int | None:
    """Put a composed mail in the outbox (in the caller's transaction); None if `key` is queued already."""
    recipients = [addr for _, addr in getaddresses([str(msg["To"])]) if addr]
    return books.queue(created_at=now, kind=kind, game_id=game, key=key, sender=config.address,
                       recipients=recipients, subject=str(msg["Subject"]), message=msg.as_bytes(policy=SMTP_POLICY))


class Sender:
    """Delivers due mail from the outbox through the relay; safe to run in several processes."""

    def __init__(self, mailroom: Mailroom, config: MailConfig, clock: Callable[[], datetime]) -> None:
        self.mailroom = mailroom
        self.config = config
        self.clock = clock
        self.lock = threading.Lock()

    def _connect(self) -> smtplib.SMTP:
        c = self.config
        if c.relay_tls == "ssl":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(c.relay_host, c.relay_port, timeout=c.relay_timeout,
                                                  context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(c.relay_host, c.relay_port, timeout=c.relay_timeout)
            if c.relay_tls == "starttls":
                smtp.starttls(context=ssl.create_default_context())
        if c.relay_user:
            smtp.login(c.relay_user, c.relay_password or "")
        return smtp

    def relay_problem(self, timeout: float = 5.0) -> str | None:
        """Why the relay cannot be reached now (None: it answers), for the mail door's start-up message."""
        probe = Sender(self.mailroom, self.config.with_(relay_timeout=min(self.config.relay_timeout, timeout)),
                       self.clock)  # its own, so that the sending loop's settings are never touched
        try:
            _close(probe._connect())
            return None
        except (OSError, smtplib.SMTPException) as exc:
            return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__

    def send_due(self, limit: int = 200) -> dict[str, int]:
        """One pass: claim and deliver every mail that is due. Returns counts: sent, retry, failed."""
        counts = {"sent": 0, "retry": 0, "failed": 0}
        with self.lock:
            now = self.clock()
            with self.mailroom.open() as books:
                due = books.due(now, now - STALE_CLAIM, limit)
            if not due:
                return counts
            smtp: smtplib.SMTP | None = None
            try:
                for row in due:
                    with self.mailroom.open() as books:
                        if not books.claim(row, self.clock()):
                            continue  # another sender has it
                        mail = books.mail(row.id)
                    assert mail is not None
                    error, permanent = None, False
                    try:
                        if smtp is None:
                            smtp = self._connect()
                        refused = smtp.sendmail(mail.sender, list(mail.recipients), mail.message)
                        if refused:  # some recipients refused: the others have it; say so, do not resend
                            log.warning("mail %s: refused for %s", mail.id, refused)
                    except smtplib.SMTPRecipientsRefused as exc:
                        codes = [code for code, _ in exc.recipients.values()]
                        error = "recipients refused: " + "; ".join(f"{a}: {c} {m.decode(errors='replace')}"
                                                                   for a, (c, m) in exc.recipients.items())
                        permanent = all(500 <= c < 600 for c in codes)
                    except smtplib.SMTPResponseException as exc:
                        error = f"{exc.smtp_code} {exc.smtp_error.decode(errors='replace') if isinstance(exc.smtp_error, bytes) else exc.smtp_error}"
                        permanent = 500 <= exc.smtp_code < 600
                        _close(smtp)
                        smtp = None
                    except (OSError, smtplib.SMTPException) as exc:
                        error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                        _close(smtp)
                        smtp = None
                    self._record(mail, error, permanent, counts)
            finally:
                _close(smtp)
        return counts

    def _record(self, mail: OutboxRecord, error: str | None, permanent: bool, counts: dict[str, int]) -> None:
        now = self.clock()
        attempts = mail.attempts + 1
        with self.mailroom.open() as books:
            if error is None:
                books.sent(mail.id, attempts, now)
                counts["sent"] += 1
                log.info("mail %s (%s) sent to %s", mail.id, mail.kind, ", ".join(mail.recipients))
                return
            if permanent and attempts >= self.config.permanent_tries:
                books.failed(mail.id, attempts, error)
                counts["failed"] += 1
                log.error("mail %s to %s refused %d times, held as failed (gamesmaster mail outbox --retry %s): %s",
                          mail.id, ", ".join(mail.recipients), attempts, mail.id, error)
                return
            wait = min(self.config.retry_base * 2 ** (attempts - 1), self.config.retry_max)
            books.retry_later(mail.id, attempts, error, now + timedelta(seconds=wait))
            counts["retry"] += 1
            log.warning("mail %s to %s not sent (try %d, next in %.0f s): %s", mail.id,
                        ", ".join(mail.recipients), attempts, wait, error)


def _close(smtp: smtplib.SMTP | None) -> None:
    if smtp is not None:
        try:
            smtp.quit()
        except (OSError, smtplib.SMTPException, socket.error):
            try:
                smtp.close()
            except OSError:
                pass


def retry(mailroom: Mailroom, mail_ids: Sequence[int] | None, now: datetime) -> int:
    """Queue failed (or waiting) mail to be sent at the next pass; None: every failed mail."""
    with mailroom.open() as books:
        return books.retry(mail_ids, now)
