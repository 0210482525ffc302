"""What every part of the gamesmaster stands on: the clock, transactions, and who is acting.

`Desk` is the core each of the `Gamesmaster`'s services is built with (games, orders,
deadlines, corrections, press and votes, players, the record, ...): each opens a
`Transaction` on one game through its desk's `transaction()` and finds out who is asking
through `acting()`. One desk is shared by all the services of a gamesmaster, so that they
share its memo of game states.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, Iterator

from ..config import MailSettings, TestHooks
from ..ledger import fingerprint
from ..rules import PositionError
from ..rules.position import power_id
from ..store import Records, Store
from ..store.sessions import SessionRecords
from . import credentials as cred
from . import keys
from .errors import Forbidden, NotFound
from .memo import Memo
from .state import GM, PLAYER, STANDBY, GameState, Seat
from .tx import Transaction, missing, rebuild, state_of

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The time now, UTC."""
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class Actor:
    """Who makes a request for a power: its player, its called stand-by, or the GM (seat None), and the secret
    the request was made with (what proves the action on the record, gm.keys)."""

    seat: Seat | None
    power: str | None
    secret: keys.Secret | None = None

    @property
    def is_gm(self) -> bool:
        """True for the gamesmaster."""
        return self.seat is None

    @property
    def author(self) -> str:
        """Whose orders these are: the player's (also when the GM enters them) or the stand-by's."""
        return STANDBY if self.seat is not None and self.seat.role == STANDBY else PLAYER

    @property
    def entered_by(self) -> str:
        """The name the record gives the person who acted."""
        return GM if self.seat is None else self.seat.name

    @property
    def by(self) -> object:
        """What the ledger records of the credential used: the player and its fingerprint, or 'GM'."""
        return GM if self.seat is None else {"player": self.seat.number, "key": self.seat.key}

    def signed(self, state: GameState) -> object:
        """`by` for an action that spends one use of the actor's key: the player, the fingerprint and the proof.

        In a game whose record keeps keys, a request whose secret gives no live key of the seat is
        refused: a session made outside the record (a forged row, link, password or claim) has none."""
        if self.seat is None:
            return GM
        made = keys.proof(state, self.seat.number, self.secret)
        if made is None and state.keyed:
            raise Forbidden(no_key_words(state, self.seat))
        return {**self.by, "proof": made} if made is not None else self.by  # type: ignore[dict-item]


def no_key_words(state: GameState, seat: Seat) -> str:
    """Why a seat's request can prove nothing on the record, and what to do."""
    return (f"this sign-in holds no key on the record of {state.id} for {seat.name}: enter the seat's credential "
            f"once in the war room of {state.id} (the ID.SECRET shown when you took the seat, or given you by the "
            "gamesmaster; lost it, ask the gamesmaster to issue a new one), and act again")


def power_of(state: GameState, name: str) -> str:
    """A power's id from a name as written ('france', 'FRA'); NotFound names the problem."""
    try:
        return power_id(state.variant, name)
    except PositionError as exc:
        raise NotFound(str(exc)) from None


def authenticate(rec: Records, state: GameState, credential: str | None, *, now: datetime | None = None) -> Seat:
    """The seat a credential (or a session token) belongs to (see `identify`)."""
    return identify(rec, state, credential, now=now)[0]


def identify(rec: Records, state: GameState, credential: str | None, *,
             now: datetime | None = None) -> tuple[Seat, keys.Secret | None]:
    """The seat a credential (or a session token) belongs to, and the secret it proves actions with.

    A credential is checked against its stored hash and the record's fingerprint of it,
    the slow way once per process (`credentials.VERIFIED` remembers it after). A session
    token holds while the seat it signed in as keeps the credential it signed in with."""
    if not credential:
        raise Forbidden("a credential is needed (the secret each player was given when the game was set up)")
    if cred.is_token(credential):
        key = cred.token_key(credential)
        return (_session_seat(rec, state, credential, now or utc_now()),
                keys.Secret(key, keys.SESSION) if key else None)
    parts = cred.split_credential(credential)
    seat = state.seat(parts[0]) if parts else None
    if parts and seat is not None and seat.role != "former":
        secret = keys.Secret(parts[1], keys.CREDENTIAL)
        known = cred.VERIFIED.get(state.id, credential)
        if known is not None and known == (seat.number, seat.key):
            return seat, secret
        stored = rec.credential(state.id, seat.number)
        if stored is not None and fingerprint(stored) == seat.key and cred.check_secret(parts[1], stored):
            cred.VERIFIED.add(state.id, credential, seat.number, seat.key)
            return seat, secret
    raise Forbidden(f"the credential is not valid for game {state.id}")


def _session_seat(rec: Records, state: GameState, token: str, now: datetime) -> Seat:
    row = SessionRecords(rec.conn).get(cred.token_id(token))
    if row is None or row.expires_at <= now:
        raise Forbidden("your sign-in has ended (signed out, or expired): sign in again with your credential")
    mine = row.seats.get(state.id)
    if not mine:
        raise Forbidden(f"this sign-in is not for game {state.id}: sign in to it with your credential")
    seat = state.seat(mine.player)
    if seat is None or seat.role == "former" or seat.key != mine.key:
        raise Forbidden(f"your sign-in to {state.id} has ended: the credential you signed in with was replaced "
                        "(or another player now holds the seat); sign in again")
    return seat


def acting(rec: Records, state: GameState, power: str | None, credential: str | None, by_gm: bool, *,
           now: datetime | None = None) -> Actor:
    """Who acts, and for which power (None with by_gm and no power: the GM as such)."""
    if by_gm:
        return Actor(None, power_of(state, power) if power is not None else None)
    seat, secret = identify(rec, state, credential, now=now)
    mine = seat.acts_for()
    if power is None:
        if not mine:
            raise Forbidden(f"{seat.name} plays no power in {state.id}")
        return Actor(seat, mine[0], secret)
    pw = power_of(state, power)
    if pw not in mine:
        raise Forbidden(f"this credential is {seat.name}'s, who does not play {pw.capitalize()} in {state.id}")
    return Actor(seat, pw, secret)


class Desk:
    """The store, the clock and the way into a game's record, shared by every service of the gamesmaster."""

    def __init__(self, store: Store, clock: Clock | None = None, *, hooks: TestHooks | None = None,
                 site_url: str | None = None, mail: MailSettings | None = None) -> None:
        self.store = store
        self.clock = clock or utc_now
        self.memo = Memo()
        self.site_url = site_url  # the site's public address, for links in what the channels send
        self.hooks = hooks or TestHooks.from_environ()  # the fault tests' pause before an adjudication commits
        # what the mail channel decides by (the reminder time, the GM's own address): every process that runs a
        # pass moves the one cursor, so each reads them from the same settings
        self.mail = mail or MailSettings()

    @property
    def place(self) -> str:
        """Where the games are kept: the store's URL, its password hidden."""
        return self.store.display_url

    def close(self) -> None:
        """Let go of the store's connections (the process is done with this gamesmaster)."""
        self.store.dispose()

    def now(self) -> datetime:
        """The time now (aware UTC), from the clock the gamesmaster was given."""
        now = self.clock()
        if now.tzinfo is None:
            raise ValueError("the clock must return timezone-aware datetimes")
        return now.astimezone(timezone.utc)

    @contextmanager
    def transaction(self, game_id: str, *, create: bool = False) -> Iterator[Transaction]:
        """One change to one game, in one database transaction; its entries are written when the block ends."""
        now = self.now()
        with self.store.connect() as conn:
            tx = Transaction(Records(conn, self.store.is_postgresql), game_id, now, create=create,
                             known=self.memo.latest(game_id), hooks=self.hooks)
            yield tx
            tx.finish()
        self.memo.keep(tx.state)  # committed: the next reader starts from here

    @contextmanager
    def reading(self) -> Iterator[Records]:
        """A read-only look at the store."""
        with self.store.connect(write=False) as conn:
            yield Records(conn, self.store.is_postgresql)

    def snapshot(self, rec: Records, game_id: str) -> GameState:
        """A game's state as its row caches it (this process's copy when the ledger head is the same)."""
        head = rec.head_hash(game_id)
        state = self.memo.state(game_id, head) if head is not None else None
        if state is None:
            row = rec.game(game_id)
            if row is None:
                raise missing(rec, game_id)
            state = state_of(row, self.memo.latest(game_id))
            self.memo.keep(state)
        return state

    def rebuild(self, game_id: str) -> GameState:
        """Rewrite a game's caches from its ledger (the repair for what `verify` finds in the tables)."""
        with self.store.connect() as conn:
            rec = Records(conn, self.store.is_postgresql)
            if rec.game(game_id, lock=True) is None and rec.last_entry(game_id) is None:
                raise missing(rec, game_id)
            state = rebuild(rec, game_id, self.now())
        self.memo.forget(game_id)
        return state
