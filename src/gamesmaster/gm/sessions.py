"""Sign-in sessions: a credential is checked (slowly, on purpose) once, at sign-in; a token serves after.

A session token reads 's.' and 43 random characters. The gamesmaster keeps only its
SHA-256 (store.sessions), with the seats it signed in as: for each game, the player's
number and the fingerprint of the credential used. Wherever a credential is taken, a
session token is taken too (`desk.acting`); it holds for a game only while that player
still holds the same credential, so replacing a credential (or the player) ends every
session opened with it. Sessions last `LIFETIME` from their creation.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal, Mapping

from ..ledger import JSONObject, fingerprint
from ..store.sessions import SessionRecords, SessionRow, SessionSeat
from .credentials import TOKEN_PREFIX, VERIFIED, is_token, token_id, token_key
from .desk import Actor, Desk, identify, no_key_words
from .keys import CREDENTIAL, SESSION, Secret, find, live, new_key
from .tx import Transaction
from .errors import Forbidden, GMError
from .state import Seat
from .events import KeyAdded

LIFETIME = timedelta(days=14)


# A game's seat in a session is the store's SessionSeat as it is (player, credential fingerprint): gm has
# nothing to add to it. The Session is gm's own: what the doors are told of a row, without the row's key
# (the token's hash) or its creation time.
@dataclass(frozen=True)
class Session:
    """A sign-in session: the games it is signed in to, whether it is the GM's, and the site's data."""

    seats: Mapping[str, SessionSeat]
    gm_key: str | None
    data: JSONObject
    expires_at: datetime
    account: int | None = None


def _session(row: SessionRow) -> Session:
    return Session(dict(row.seats), row.gm_key, dict(row.data), row.expires_at, row.account)


class Sessions:
    """Sessions for the doors: open, read, sign in to a game, sign out, end."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def new_session_token(self) -> str:
        """A fresh token (nothing is stored until the session is saved)."""
        return TOKEN_PREFIX + secrets.token_urlsafe(32)

    def new_browser_key(self) -> str:
        """A fresh browser key: the secret a browser's session keys are derived from (gm.keys); never stored."""
        return secrets.token_urlsafe(32)

    def session(self, token: str | None) -> Session | None:
        """The session a token opens (None: unknown, ended or expired)."""
        if not is_token(token):
            return None
        with self._desk.reading() as rec:
            row = SessionRecords(rec.conn).get(token_id(token))
        if row is None or row.expires_at <= self._desk.now():
            return None
        return _session(row)

    def save_session(self, token: str, data: JSONObject | None = None, *, gm_key: str | None | Literal[False] = False) -> Session:
        """Create or update a session's data (and its GM mark: a fingerprint, None to drop it, False to keep)."""
        if not is_token(token):
            raise GMError("not a session token")
        now = self._desk.now()
        with self._desk.store.connect() as conn:
            records = SessionRecords(conn)
            row = live_row(records, token, now)
            if data is not None:
                row = replace(row, data=dict(data))
            if gm_key is not False:
                row = replace(row, gm_key=gm_key)
            records.put(row)
            return _session(row)

    def sign_in(self, token: str, game_id: str, credential: str) -> Seat:
        """Check a player's credential (the one slow check) and sign the session in to that game as that seat."""
        if is_token(credential):
            raise Forbidden("sign in with the credential you were given, not with a session")
        with self._desk.transaction(game_id) as tx:
            seat, secret = identify(tx.rec, tx.state, credential, now=tx.now)
            give_key(tx, seat, secret, token, "sign-in")
            records = SessionRecords(tx.rec.conn)
            row = live_row(records, token, tx.now)
            seats = dict(row.seats)
            seats[game_id] = SessionSeat(seat.number, seat.key)
            records.put(replace(row, seats=seats))
        return seat

    def cannot_act(self, game_id: str, credential: str) -> str | None:
        """Why a signed-in seat can act on nothing from this browser (no key of it on the record), or None."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            seat, secret = identify(rec, state, credential, now=self._desk.now())
        if not state.keyed or live(state, seat.number, secret):
            return None
        return no_key_words(state, seat)

    def renew_session(self, token: str | None, data: JSONObject) -> str:
        """A new token for a session (its sign-ins and GM mark carried over, the old token ended): a token
        that was known before a sign-in is never the one trusted after it."""
        new = self.new_session_token()
        now = self._desk.now()
        with self._desk.store.connect() as conn:
            records = SessionRecords(conn)
            old = records.get(token_id(token)) if is_token(token) else None
            if old is not None and old.expires_at > now:
                records.delete(old.id)
                records.put(SessionRow(token_id(new), now, now + LIFETIME, old.seats, old.gm_key, dict(data), old.account))
            else:
                records.put(SessionRow(token_id(new), now, now + LIFETIME, {}, None, dict(data)))
        return new

    def sign_out(self, token: str, game_id: str | None = None) -> None:
        """Sign a session out of one game (or end it: game None)."""
        if not is_token(token):
            return
        with self._desk.store.connect() as conn:
            records = SessionRecords(conn)
            row = records.get(token_id(token))
            if row is None:
                return
            if game_id is None:
                records.delete(row.id)
                return
            seats = {g: v for g, v in row.seats.items() if g != game_id}
            records.put(replace(row, seats=seats))

    def credential_known(self, game_id: str, credential: str) -> bool:
        """Whether a credential (or a session token) needs no slow check: a session, or one this process checked."""
        return is_token(credential) or VERIFIED.get(game_id, credential.strip()) is not None

    def purge_sessions(self) -> int:
        """Forget expired sessions; returns how many."""
        with self._desk.store.connect() as conn:
            return SessionRecords(conn).purge(self._desk.now())


def give_key(tx: Transaction, seat: Seat, credential: Secret | None, token: str, how: str) -> None:
    """Put on the record a key for the browser a session token comes from, proved by the seat's credential
    (nothing if the browser has one for the seat already, or the token carries no browser key)."""
    key = token_key(token) if is_token(token) else None
    if key is None or credential is None or credential.kind != CREDENTIAL or not tx.state.keyed:
        return  # a game from before keys stays as it was
    browser = Secret(key, SESSION)
    if find(tx.state, seat.number, browser) is not None:
        return
    proved = Actor(seat, None, credential).signed(tx.state)
    tx.record(KeyAdded(player=seat.number, how=how, key=new_key(browser, seat.number), by=proved))


def live_row(records: SessionRecords, token: str, now: datetime) -> SessionRow:
    """A token's session row, or a fresh one if it has none (or it expired)."""
    row = records.get(token_id(token))
    if row is None or row.expires_at <= now:
        row = SessionRow(token_id(token), now, now + LIFETIME, {}, None, {})
    return row


def gm_key(stored_hash: str) -> str:
    """The fingerprint a GM session keeps of the GM credential's stored hash."""
    return fingerprint(stored_hash)
