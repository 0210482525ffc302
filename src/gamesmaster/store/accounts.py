"""Players' accounts beside the record: who they are, their sign-in links, settings and notifications.

An account is a person, not a seat: its seats are on each game's ledger (`seat-claimed`
entries name the account by its `ref`, a random public id; the e-mail address never goes
on a ledger). Sign-in links are kept only as the SHA-256 of their token. Notifications
are what the site shows a player (with an unread count) and what the mail door mails
them. Migration 0005_accounts creates the tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Index,
    Integer,
    String,
    Table,
    Text,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection

from ..ledger import JSONObject
from .schema import AnyRow, UTCDateTime, metadata, record

accounts = Table(
    "gm_accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ref", String(32), nullable=False, unique=True),  # the public id the ledgers name
    Column("email", String(320), nullable=False, unique=True),  # lower case
    Column("name", String(200), nullable=False),
    Column("password_hash", String(200), nullable=True),  # Argon2id, or none: sign in by mailed link only
    Column("created_at", UTCDateTime, nullable=False),
    Column("confirmed_at", UTCDateTime, nullable=True),  # when a mailed link was first used
)

links = Table(
    "gm_account_links", metadata,
    Column("id", String(64), primary_key=True),  # SHA-256 of the link's token
    Column("account_id", Integer, nullable=False),
    Column("purpose", String(16), nullable=False),  # sign-in, invitation
    Column("game_id", String(64), nullable=True),  # an invitation's game
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("used_at", UTCDateTime, nullable=True),
)
Index("ix_gm_account_links_expires", links.c.expires_at)

settings = Table(
    "gm_account_settings", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("game_id", String(64), primary_key=True),
    Column("settings", JSON, nullable=False),
)

notices = Table(
    "gm_account_notices", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, nullable=False),
    Column("game_id", String(64), nullable=True),
    Column("kind", String(16), nullable=False),  # results, warning, press, vote, sign-in, invitation
    Column("key", String(200), nullable=False, unique=True),  # what caused it, so it is made once
    Column("seq", Integer, nullable=True),  # the ledger entry it is about
    Column("subject", String(300), nullable=False),
    Column("text", Text, nullable=False),
    Column("url", String(500), nullable=True),
    Column("show", Boolean, nullable=False),  # shown on the site (a sign-in link is not)
    Column("mail", String(8), nullable=False),  # no, queued, done
    Column("created_at", UTCDateTime, nullable=False),
    Column("read_at", UTCDateTime, nullable=True),
)
Index("ix_gm_account_notices_account", notices.c.account_id, notices.c.read_at)
Index("ix_gm_account_notices_mail", notices.c.mail)

games = Table(  # so an account's seats are found without reading every game on the site
    "gm_account_games", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("game_id", String(64), primary_key=True),  # a game it claimed a seat in (given up since or not)
)

cursors = Table(
    "gm_account_cursor", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("ledger_seq", Integer, nullable=False),  # entries up to here have been told every channel
    # {channel: seq}: a channel told up to there already, past the cursor (a mail door's cursor merged in by
    # migration 0010): that channel is not told those entries again; None once the cursor has passed them all
    Column("ahead", JSON, nullable=True),
)


@dataclass(frozen=True)
class AccountRecord:
    """A player's account as kept."""

    id: int
    ref: str  # the public id the ledgers name
    email: str  # lower case
    name: str
    password_hash: str | None  # none: signs in by mailed link only
    created_at: datetime
    confirmed_at: datetime | None  # when a mailed link was first used


@dataclass(frozen=True)
class LinkRecord:
    """A mailed sign-in link or invitation, kept by its token's hash."""

    id: str  # SHA-256 of the link's token
    account_id: int
    purpose: str  # sign-in, invitation
    game_id: str | None  # an invitation's game
    created_at: datetime
    expires_at: datetime
    used_at: datetime | None = None


@dataclass(frozen=True)
class SettingsRecord:
    """An account's notification settings for one game, as kept (None: a part never set)."""

    mail: tuple[str, ...] | None  # the kinds that also come by mail
    warnings: tuple[float, ...] | None  # hours before the deadline


@dataclass(frozen=True)
class NewNotice:
    """A notification to be made: for whom, about what, and whether it is shown and mailed."""

    account_id: int
    game_id: str | None
    kind: str  # results, warning, press, vote, sign-in, invitation
    key: str  # what caused it, so it is made once
    seq: int | None  # the ledger entry it is about
    subject: str
    text: str
    url: str | None
    show: bool  # shown on the site (a sign-in link is not)
    mail: str  # no, queued, done
    created_at: datetime


@dataclass(frozen=True)
class NoticeRecord(NewNotice):
    """A notification as kept: what was made, its id, and when it was read."""

    id: int
    read_at: datetime | None


def _settings(doc: JSONObject) -> SettingsRecord:
    mail, warnings = doc.get("mail"), doc.get("warnings")
    return SettingsRecord(tuple(str(k) for k in mail) if isinstance(mail, list) else None,
                          tuple(float(h) for h in warnings if isinstance(h, (int, float)))
                          if isinstance(warnings, list) else None)


def _settings_doc(value: SettingsRecord) -> JSONObject:
    doc: JSONObject = {}
    if value.mail is not None:
        doc["mail"] = list(value.mail)
    if value.warnings is not None:
        doc["warnings"] = list(value.warnings)
    return doc


def _account(r: AnyRow | None) -> AccountRecord | None:
    return record(AccountRecord, r) if r is not None else None


class AccountRecords:
    """The account tables in one open transaction."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    # -- accounts ----------------------------------------------------------------------------

    def by_email(self, email: str) -> AccountRecord | None:
        """An account by its (lower-case) address."""
        return _account(self.conn.execute(select(accounts).where(accounts.c.email == email)).first())

    def by_id(self, account_id: int) -> AccountRecord | None:
        """An account by its row id."""
        return _account(self.conn.execute(select(accounts).where(accounts.c.id == account_id)).first())

    def by_ref(self, ref: str) -> AccountRecord | None:
        """An account by the public id the ledgers name."""
        return _account(self.conn.execute(select(accounts).where(accounts.c.ref == ref)).first())

    def add(self, *, ref: str, email: str, name: str, password_hash: str | None, created_at: datetime) -> int:
        """A new account (unconfirmed); its row id."""
        q = insert(accounts).values(ref=ref, email=email, name=name, password_hash=password_hash,
                                    created_at=created_at)
        return int(self.conn.execute(q.returning(accounts.c.id)).scalar_one())

    def confirm(self, account_id: int, at: datetime) -> None:
        """Mark an account confirmed: a link mailed to its address was used."""
        self.conn.execute(update(accounts).where(accounts.c.id == account_id).values(confirmed_at=at))

    def set_password_hash(self, account_id: int, password_hash: str | None) -> None:
        """Keep a new password hash for an account (None: it signs in by mailed link only)."""
        self.conn.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash))

    def rename(self, account_id: int, name: str) -> None:
        """Change an account's name."""
        self.conn.execute(update(accounts).where(accounts.c.id == account_id).values(name=name))

    # -- sign-in links ---------------------------------------------------------------------------

    def add_link(self, link: LinkRecord) -> None:
        """Keep a link (its token's hash)."""
        self.conn.execute(insert(links).values(id=link.id, account_id=link.account_id, purpose=link.purpose,
                                               game_id=link.game_id, created_at=link.created_at,
                                               expires_at=link.expires_at, used_at=link.used_at))

    def link(self, link_id: str) -> LinkRecord | None:
        """A link by its token's hash."""
        r = self.conn.execute(select(links).where(links.c.id == link_id)).first()
        return record(LinkRecord, r) if r is not None else None

    def use_link(self, link_id: str, now: datetime) -> bool:
        """Mark a link used, if it is unused and unexpired: True for the one request that does so."""
        q = update(links).where(and_(links.c.id == link_id, links.c.used_at.is_(None), links.c.expires_at > now))
        return bool(self.conn.execute(q.values(used_at=now)).rowcount)

    def purge_links(self, before: datetime) -> int:
        """Forget links that expired before this time."""
        return int(self.conn.execute(delete(links).where(links.c.expires_at < before)).rowcount or 0)

    # -- settings ------------------------------------------------------------------------------

    def settings(self, account_id: int, game_id: str) -> SettingsRecord | None:
        """An account's notification settings for a game, if it has set them."""
        r = self.conn.execute(select(settings.c.settings).where(
            and_(settings.c.account_id == account_id, settings.c.game_id == game_id))).first()
        return _settings(dict(r[0])) if r is not None else None

    def put_settings(self, account_id: int, game_id: str, value: SettingsRecord) -> None:
        """Write an account's settings for a game."""
        doc = _settings_doc(value)
        key = and_(settings.c.account_id == account_id, settings.c.game_id == game_id)
        if self.conn.execute(update(settings).where(key).values(settings=doc)).rowcount == 0:
            self.conn.execute(insert(settings).values(account_id=account_id, game_id=game_id, settings=doc))

    # -- notifications ---------------------------------------------------------------------------

    def add_game(self, account_id: int, game_id: str) -> None:
        """Note that an account claimed a seat in a game (once)."""
        present = select(games.c.game_id).where(and_(games.c.account_id == account_id, games.c.game_id == game_id))
        if self.conn.execute(present).first() is None:
            self.conn.execute(insert(games).values(account_id=account_id, game_id=game_id))

    def games_of(self, account_id: int) -> list[str]:
        """The games an account has claimed a seat in (whether it holds it still is on each game's record)."""
        q = select(games.c.game_id).where(games.c.account_id == account_id).order_by(games.c.game_id)
        return [str(r.game_id) for r in self.conn.execute(q)]

    def has_notice(self, key: str) -> bool:
        """Whether a notification with this key was made already."""
        return self.conn.execute(select(notices.c.id).where(notices.c.key == key)).first() is not None

    def add_notice(self, notice: NewNotice) -> int | None:
        """A new notification (None if its key exists already)."""
        if self.has_notice(notice.key):
            return None
        q = insert(notices).values(
            account_id=notice.account_id, game_id=notice.game_id, kind=notice.kind, key=notice.key, seq=notice.seq,
            subject=notice.subject, text=notice.text, url=notice.url, show=notice.show, mail=notice.mail,
            created_at=notice.created_at)
        return int(self.conn.execute(q.returning(notices.c.id)).scalar_one())

    def notices(self, account_id: int, limit: int = 50) -> list[NoticeRecord]:
        """An account's notifications shown on the site, newest first."""
        q = (select(notices).where(and_(notices.c.account_id == account_id, notices.c.show.is_(True)))
             .order_by(notices.c.id.desc()).limit(limit))
        return [record(NoticeRecord, r) for r in self.conn.execute(q)]

    def shown(self, account_id: int) -> int:
        """How many notifications an account has been shown on the site, read or not (its own numbering's last)."""
        q = select(func.count()).select_from(notices).where(and_(
            notices.c.account_id == account_id, notices.c.show.is_(True)))
        return int(self.conn.execute(q).scalar() or 0)

    def shown_id(self, account_id: int, number: int) -> int | None:
        """The id of an account's `number`-th notification shown on the site (1 the first; None past the last)."""
        if number < 1:
            return None
        q = (select(notices.c.id).where(and_(notices.c.account_id == account_id, notices.c.show.is_(True)))
             .order_by(notices.c.id).offset(number - 1).limit(1))
        return self.conn.execute(q).scalar()

    def unread(self, account_id: int) -> int:
        """How many of an account's notifications shown on the site are unread."""
        q = select(func.count()).select_from(notices).where(and_(
            notices.c.account_id == account_id, notices.c.show.is_(True), notices.c.read_at.is_(None)))
        return int(self.conn.execute(q).scalar() or 0)

    def mark_read(self, account_id: int, now: datetime, upto: int | None = None) -> int:
        """Mark an account's notifications read (up to an id, or all)."""
        cond = and_(notices.c.account_id == account_id, notices.c.read_at.is_(None))
        if upto is not None:
            cond = and_(cond, notices.c.id <= upto)
        return int(self.conn.execute(update(notices).where(cond).values(read_at=now)).rowcount or 0)

    def to_mail(self, limit: int = 200) -> list[NoticeRecord]:
        """Notifications waiting to be mailed, oldest first."""
        q = select(notices).where(notices.c.mail == "queued").order_by(notices.c.id).limit(limit)
        return [record(NoticeRecord, r) for r in self.conn.execute(q)]

    def mailed(self, notice_id: int, *, forget_text: bool = False) -> bool:
        """Mark a notification mailed (forget_text: its text held a link, kept now only in the outbox):
        True for the one pass that does so."""
        q = update(notices).where(and_(notices.c.id == notice_id, notices.c.mail == "queued"))
        q = q.values(mail="done", text="(mailed)") if forget_text else q.values(mail="done")
        return bool(self.conn.execute(q).rowcount)
    # -- the one cursor of a game's news ---------------------------------------------------------

    def cursor(self, game_id: str) -> int | None:
        """The last ledger entry of a game that has been told every channel (None: the game was never read)."""
        return self.conn.execute(select(cursors.c.ledger_seq).where(cursors.c.game_id == game_id)).scalar()

    def ahead(self, game_id: str) -> dict[str, int]:
        """The channels told of a game past its cursor already, and up to which entry (only after an upgrade)."""
        return (self.cursor_and_ahead(game_id) or (0, {}))[1]

    def cursor_and_ahead(self, game_id: str) -> tuple[int, dict[str, int]] | None:
        """The cursor and the channels ahead of it, in one read (None: the game was never read)."""
        row = self.conn.execute(select(cursors.c.ledger_seq, cursors.c.ahead).where(cursors.c.game_id == game_id)).first()
        if row is None:
            return None
        return int(row.ledger_seq), {str(k): int(v) for k, v in (row.ahead or {}).items()}

    def put_cursor(self, game_id: str, old: int | None, seq: int, ahead: dict[str, int] | None = None) -> bool:
        """Move a game's cursor from `old` (None: new) to `seq`, keeping what `ahead` says is still ahead of it;
        False if another pass moved it first."""
        still = {k: v for k, v in (ahead or {}).items() if v > seq} or None
        if old is None:
            if self.cursor(game_id) is not None:
                return False
            self.conn.execute(insert(cursors).values(game_id=game_id, ledger_seq=seq, ahead=still))
            return True
        q = update(cursors).where(and_(cursors.c.game_id == game_id, cursors.c.ledger_seq == old))
        return bool(self.conn.execute(q.values(ledger_seq=seq, ahead=still)).rowcount)
