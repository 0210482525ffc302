"""Players' accounts: signing up and in by a mailed link (or a password), and the session they sign in to.

An account is an e-mail address, a name and, if its owner wants one, a password kept only
as an Argon2id hash. A sign-in link carries 256 random bits; only their SHA-256 is kept;
it works once, within `LINK_LIFETIME`. The gamesmaster does not send mail itself: a link
is a notification (`store.accounts`) that the mail door's dispatcher mails. Links are
bounded per address (`MailLimits`): every link asked for goes to the address's owner and
stays good until used or expired, so someone asking for links to another's address only
fills that mailbox with links its owner can use, and never locks the owner out.
"""

from __future__ import annotations

import logging
import queue
import re
import secrets
import threading
import time
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Callable, Mapping

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..store.accounts import AccountRecord, AccountRecords, LinkRecord, NewNotice
from ..store.sessions import SessionRecords, SessionSeat
from . import limits
from .credentials import token_id
from .desk import Desk
from .errors import Forbidden, GMError, Limited, NotFound
from .ratelimit import RateLimiter
from .sessions import live_row
from .state import Seat

LINK_LIFETIME = timedelta(minutes=30)
INVITATION_LIFETIME = timedelta(days=7)
LINK_PREFIX = "l."
PASSWORD_CHARS = (10, 200)
EMAIL_CHARS = 254
_EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.\-]{0,251}[A-Za-z0-9])?$")
_LINK = re.compile(r"^l\.[A-Za-z0-9_-]{43}$")
log = logging.getLogger(__name__)
HASHER = PasswordHasher()  # Argon2id, the RFC 9106 low-memory profile (argon2-cffi's default)


@dataclass(frozen=True)
class Account:
    """A player's account as the doors show it."""

    id: int
    ref: str  # the public id the ledgers name
    email: str
    name: str
    has_password: bool
    confirmed: bool


@dataclass(frozen=True)
class LinkUse:
    """What a used link did: the account it signed in, and the game it invites to (if an invitation)."""

    account: Account
    game: str | None


def _account(row: AccountRecord) -> Account:
    return Account(row.id, row.ref, row.email, row.name, bool(row.password_hash), row.confirmed_at is not None)


def email_address(value: object) -> str:
    """An e-mail address as given, checked and in lower case: GMError names the problem."""
    text = limits.clean(value, "the e-mail address", EMAIL_CHARS * 4).strip()
    if not text:
        raise GMError("enter your e-mail address")
    if len(text) > EMAIL_CHARS or "=?" in text or not _EMAIL.match(text):
        raise GMError(f"{text[:80]!r} is not an e-mail address (write it as name@example.org)")
    return text.lower()


def password_text(value: object) -> str:
    """A password as chosen: PASSWORD_CHARS long, any characters but control ones."""
    text = limits.clean(value, "the password", PASSWORD_CHARS[1] * 4)
    if not PASSWORD_CHARS[0] <= len(text) <= PASSWORD_CHARS[1]:
        raise GMError(f"a password has {PASSWORD_CHARS[0]} to {PASSWORD_CHARS[1]} characters")
    return text


class MailLimits:
    """How often sign-in links may be mailed: per address 3 at once, then one every 5 minutes (in memory)."""

    def __init__(self) -> None:
        self.by_address = RateLimiter(3, 1 / 300)

    def take(self, email: str) -> None:
        """Count a link to be mailed to this address, or refuse (Limited) while it has had its share."""
        self.by_address.refuse_if_spent(email, lambda wait: (
            f"a sign-in link was mailed to {email} a moment ago: use it (each works for "
            f"{LINK_LIFETIME.seconds // 60} minutes), or ask again in {wait} seconds"))
        self.by_address.failed(email)


class PasswordGuesses:
    """Wrong passwords per address typed, whoever types them from wherever: 10 at once, then one a minute
    (in memory). A guesser rotating client addresses gets no further; the owner signs in by a mailed link,
    which no count stops."""

    def __init__(self) -> None:
        self.by_email = RateLimiter(10, 1 / 60)

    def check(self, email: str) -> None:
        """Refuse (Limited) while this address has had its share of wrong passwords, before any hash is checked."""
        self.by_email.refuse_if_spent(email, lambda wait: (
            f"too many wrong passwords for {email}: sign in with a mailed link (\"Send me a link\"), "
            f"or try again in {wait} seconds"))

    def wrong(self, email: str) -> None:
        """Count a wrong password for this address."""
        self.by_email.failed(email)


class Errands:
    """Work done after the door has answered, one at a time in a thread of its own (a bounded queue).

    Asking a link for an address looks the address up and, if it is known, writes the link and its mail:
    done while the request waited, a known address took 0.46 ms longer to answer than an unknown one.
    Done here, both answers are the same work: check the address, count it, queue it. An errand waits
    DELAY seconds first, so that it does not run beside the answer of the request that queued it."""

    DELAY = 0.5

    def __init__(self, size: int = 1_000) -> None:
        self.queue: queue.Queue[tuple[float, Callable[[], None]]] = queue.Queue(size)
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def put(self, errand: Callable[[], None]) -> None:
        """Queue an errand; Limited when the queue is full."""
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="gamesmaster-errands", daemon=True)
                self.thread.start()
        try:
            self.queue.put_nowait((time.monotonic() + self.DELAY, errand))
        except queue.Full:
            raise Limited("the gamesmaster has many links to mail just now: ask again in a minute", 60) from None

    def wait(self) -> None:
        """Until every errand queued so far is done (for tests and an orderly stop)."""
        self.queue.join()

    def _run(self) -> None:
        while True:
            due, errand = self.queue.get()
            try:
                time.sleep(max(0.0, due - time.monotonic()))
                errand()
            except Exception:  # noqa: BLE001 - one errand's trouble must not stop the others
                log.exception("an errand (mailing a sign-in link) failed")
            finally:
                self.queue.task_done()


class Accounts:
    """Signing up and in: accounts, mailed links, passwords, and the session an account signs in to."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk
        self.link_limits = MailLimits()  # this gamesmaster's limits on mailing links
        self.password_guesses = PasswordGuesses()  # its count of wrong passwords per address
        self.errands = Errands()  # its work done after the door has answered (mailing links)

    def account(self, account_id: int) -> Account:
        """An account by its id."""
        with self._desk.reading() as rec:
            row = AccountRecords(rec.conn).by_id(account_id)
        if row is None:
            raise Forbidden("that account no longer exists: sign in again")
        return _account(row)

    def sign_up(self, email: str, name: str, base_url: str, *, later: bool = False) -> None:
        """Make an account for an address (unless it has one) and mail it a sign-in link (later: as an
        errand, after the door has answered).

        An address that has an account already gets a sign-in link and nothing else changes,
        so the answer says nothing of whether the address was known. A password is set only
        once signed in by the link: nobody can put a password of theirs on another's address."""
        email = email_address(email)
        name = limits.name(name, "your name")
        if not name:
            raise GMError("enter the name other players will see")
        self.link_limits.take(email)
        self._now_or_later(lambda: self._sign_up(email, name, base_url), later)

    def _sign_up(self, email: str, name: str, base_url: str) -> None:
        now = self._desk.now()
        with self._desk.store.connect() as conn:
            ar = AccountRecords(conn)
            self.mail_link(ar, account_record(ar, email, name, now), base_url, now)

    def request_link(self, email: str, base_url: str, *, later: bool = False) -> None:
        """Mail a sign-in link to an address, if it has an account (the answer is the same if not; later: the
        lookup and the mailing as an errand, so the door does the same work for a known and an unknown one)."""
        email = email_address(email)
        self.link_limits.take(email)
        self._now_or_later(lambda: self._request_link(email, base_url), later)

    def _request_link(self, email: str, base_url: str) -> None:
        now = self._desk.now()
        with self._desk.store.connect() as conn:
            ar = AccountRecords(conn)
            row = ar.by_email(email)
            if row is not None:
                self.mail_link(ar, row, base_url, now)

    def _now_or_later(self, work: Callable[[], None], later: bool) -> None:
        if later:
            self.errands.put(work)
        else:
            work()

    def mail_link(self, ar: AccountRecords, row: AccountRecord, base_url: str, now: datetime,
                  game: str | None = None, title: str = "") -> None:
        """Write a sign-in link for an account (an invitation to `game` if one is named) and queue its mail."""
        token = LINK_PREFIX + secrets.token_urlsafe(32)
        lifetime = INVITATION_LIFETIME if game else LINK_LIFETIME
        ar.add_link(LinkRecord(token_id(token), row.id, "invitation" if game else "sign-in", game, now, now + lifetime))
        url = f"{base_url.rstrip('/')}/account/link?t={token}"
        if game:
            subject = f"An invitation to play in {title or game}"
            text = (f"Hello {row.name},\n\nthe gamesmaster invites you to play in {title or game} ({game}). "
                    f"Open this link to sign in and take your seat:\n\n{url}\n\nThe link works once, for "
                    f"{lifetime.days} days.\n")
        else:
            subject = "Your sign-in link"
            text = (f"Hello {row.name},\n\nopen this link to sign in to the gamesmaster:\n\n{url}\n\nIt works "
                    f"once, for {lifetime.seconds // 60} minutes. If you did not ask for it, do nothing: nobody "
                    "signs in unless the link is opened.\n")
        ar.add_notice(NewNotice(account_id=row.id, game_id=game, kind="invitation" if game else "sign-in",
                                key=f"link:{token_id(token)}", seq=None, subject=subject, text=text, url=None,
                                show=False, mail="queued", created_at=now))

    def use_link(self, token: str) -> LinkUse:
        """Use a mailed link (once, before it expires): the account it signs in, and the game it invites to."""
        if not isinstance(token, str) or not _LINK.match(token):
            raise Forbidden("that is not a sign-in link of this site (copy the whole link from the mail)")
        now = self._desk.now()
        with self._desk.store.connect() as conn:
            ar = AccountRecords(conn)
            link = ar.link(token_id(token))
            if link is None or not ar.use_link(link.id, now):
                raise Forbidden("that link has been used already or has expired: ask for a new one")
            row = ar.by_id(link.account_id)
            if row is None:
                raise Forbidden("that link's account no longer exists")
            if row.confirmed_at is None:
                ar.confirm(row.id, now)
                row = replace(row, confirmed_at=now)
            return LinkUse(_account(row), link.game_id)

    def password_sign_in(self, email: str, password: str) -> Account:
        """The account whose address and password these are (Forbidden, the same way, for any mismatch)."""
        try:
            email = email_address(email)
            given = limits.clean(password, "the password", PASSWORD_CHARS[1] * 4)
        except GMError:
            raise Forbidden("that address and password do not match an account") from None
        self.password_guesses.check(email)
        with self._desk.reading() as rec:
            row = AccountRecords(rec.conn).by_email(email)
        stored = row.password_hash if row is not None else None
        try:
            HASHER.verify(stored or _dummy_hash(), given)
            ok = stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None or stored is None:
            self.password_guesses.wrong(email)
            raise Forbidden("that address and password do not match an account")
        if HASHER.check_needs_rehash(stored):  # stronger parameters since: rehash while the password is at hand
            with self._desk.store.connect() as conn:
                AccountRecords(conn).set_password_hash(row.id, HASHER.hash(given))
        return _account(row)

    def set_password(self, account_id: int, password: str | None) -> None:
        """Set (or with None, remove) an account's password."""
        stored = HASHER.hash(password_text(password)) if password else None
        with self._desk.store.connect() as conn:
            AccountRecords(conn).set_password_hash(account_id, stored)

    def rename(self, account_id: int, name: str) -> None:
        """Change the name an account joins games with (seats already taken keep theirs)."""
        name = limits.name(name, "your name")
        if not name:
            raise GMError("enter the name other players will see")
        with self._desk.store.connect() as conn:
            AccountRecords(conn).rename(account_id, name)

    def attach_account(self, token: str, account_id: int) -> None:
        """Sign a session in to an account: it acts in every seat the account holds (as the records say now)."""
        seats = self.account_seats(account_id)
        now = self._desk.now()
        with self._desk.store.connect() as conn:
            records = SessionRecords(conn)
            row = live_row(records, token, now)
            mine = {**row.seats, **{g: SessionSeat(s.number, s.key) for g, s in seats.items()}}
            records.put(replace(row, seats=mine, account=account_id))

    def purge_links(self) -> int:
        """Forget sign-in links and invitations a day past their expiry; returns how many."""
        with self._desk.store.connect() as conn:
            return AccountRecords(conn).purge_links(self._desk.now() - timedelta(days=1))

    def account_seats(self, account_id: int) -> dict[str, Seat]:
        """The seats an account holds now: {game: Seat} (claimed on the game's record, not since given up)."""
        account = self.account(account_id)
        out: dict[str, Seat] = {}
        with self._desk.reading() as rec:
            for game_id in AccountRecords(rec.conn).games_of(account_id):  # its own games, not every game
                try:
                    state = self._desk.snapshot(rec, game_id)
                except NotFound:
                    continue  # a game deleted since
                for number, ref in state.claims.items():
                    seat = state.seat(int(number))
                    if ref == account.ref and seat is not None and seat.role != "former":
                        out[game_id] = seat
        return out


def account_record(ar: AccountRecords, email: str, name: str, now: datetime) -> AccountRecord:
    """The account of an address, made now (with this name, no password, unconfirmed) if it has none."""
    row = ar.by_email(email)
    if row is None:
        ar.add(ref=secrets.token_hex(8), email=email, name=name, password_hash=None, created_at=now)
        row = ar.by_email(email)
    assert row is not None
    return row


_DUMMY: list[str] = []


def _dummy_hash() -> str:
    """A hash no password matches, checked when an address has no password, so both take as long."""
    if not _DUMMY:
        _DUMMY.append(HASHER.hash(secrets.token_urlsafe(16)))
    return _DUMMY[0]


def index_seats(ar: AccountRecords, game_id: str, claims: Mapping[str, str]) -> None:
    """Note the game in the list of games of each account that claims a seat in it (claims: number -> ref),
    so an account's seats are found by its own games (AccountRecords.games_of), not by reading every game."""
    for ref in set(claims.values()):
        account = ar.by_ref(ref)
        if account is not None:
            ar.add_game(account.id, game_id)
