"""Reading and writing the record inside one transaction, in typed records.

The ledger is append-only here: there is a method to add an entry and none to change
or remove one. The other tables are caches of the ledger (see schema.py); the
gamesmaster rewrites them from what the ledger says.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Iterable, Sequence

from sqlalchemy import and_, bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection

from ..ledger import Entry
from . import schema as t


@dataclass(frozen=True)
class GameRow:
    """A game as the games table caches it: the columns the site queries, and the whole state."""

    id: str
    title: str
    status: str
    variant: str
    phase: str | None
    deadline: datetime | None
    head_seq: int
    head_hash: str
    state: str  # canonical JSON of the state folded from the ledger up to head_seq
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class RowHead:
    """Where a game's row stands: the ledger entry its state is at, and when the game was made."""

    seq: int
    hash: str
    created_at: datetime


@dataclass(frozen=True)
class PhaseRow:
    """One published revision of a phase (a correction adds a revision and supersedes the last)."""

    game_id: str
    phase: str
    revision: int
    number: int
    current: bool
    rules: Any
    position: Any
    orders: Any
    results: Any
    next: Any
    winner: str | None
    civil_disorder: Any
    adjudicated_at: datetime
    ledger_seq: int
    entry_hash: str


@dataclass(frozen=True)
class PressRow:
    """One press release, letter or GM notice."""

    game_id: str
    number: int
    phase: str | None
    sent_at: datetime
    sender: str
    recipients: Any  # a list of powers, or None for everyone
    anonymous: bool
    text: str
    ledger_seq: int


def _entry(r: Any) -> Entry:
    m = r._mapping
    return Entry(int(m["seq"]), m["at"], m["kind"], m["payload"], m["prev_hash"], m["hash"])


def _values(row: object) -> dict[str, Any]:
    """A row's columns as a statement's parameters: field by field, not copied (dataclasses.asdict copies each
    value deeply, a game's whole state text included, on every write)."""
    return {f.name: getattr(row, f.name) for f in fields(row)}  # type: ignore[arg-type]  # rows are dataclasses


# The statements every request or change runs, built once: a statement built afresh is walked for SQLAlchemy's
# compiled-statement cache key on each call (about a tenth of a millisecond), one built once is keyed once.
_GAME = select(t.games).where(t.games.c.id == bindparam("game_id"))
_GAME_LOCKED = _GAME.with_for_update()
_HEAD_HASH = select(t.games.c.head_hash).where(t.games.c.id == bindparam("game_id"))
_HEAD = select(t.games.c.head_seq, t.games.c.head_hash, t.games.c.created_at).where(t.games.c.id == bindparam("game_id"))
_HEAD_LOCKED = _HEAD.with_for_update()
_PUT_GAME = update(t.games).where(t.games.c.id == bindparam("row_id"))
_CREDENTIAL = select(t.credentials.c.hash).where(and_(t.credentials.c.game_id == bindparam("game_id"),
                                                      t.credentials.c.player == bindparam("player")))
_LAST_ENTRY = (select(t.ledger).where(t.ledger.c.game_id == bindparam("game_id"))
               .order_by(t.ledger.c.seq.desc()).limit(1))


class Records:
    """The tables of the record, in one open transaction."""

    def __init__(self, conn: Connection, postgresql: bool) -> None:
        self.conn = conn
        self.postgresql = postgresql

    # -- games -------------------------------------------------------------------------

    def game(self, game_id: str, lock: bool = False) -> GameRow | None:
        """A game's row; lock=True holds it for this transaction (FOR UPDATE on PostgreSQL)."""
        r = self.conn.execute(_GAME_LOCKED if lock and self.postgresql else _GAME, {"game_id": game_id}).first()
        return t.record(GameRow, r) if r is not None else None

    def head(self, game_id: str, lock: bool = False) -> RowHead | None:
        """Where a game's row is (its ledger head, and when it was made), without its state; lock as game()."""
        r = self.conn.execute(_HEAD_LOCKED if lock and self.postgresql else _HEAD, {"game_id": game_id}).first()
        return RowHead(r.head_seq, r.head_hash, r.created_at) if r is not None else None

    def head_hash(self, game_id: str) -> str | None:
        """The ledger head a game's row is at (None: no such game), without reading the game."""
        return self.conn.execute(_HEAD_HASH, {"game_id": game_id}).scalar()

    def game_ids(self, status: str | None = None) -> list[str]:
        """Every game's id (or those of one status: forming, active, paused, finished), oldest first."""
        q = select(t.games.c.id).order_by(t.games.c.created_at, t.games.c.id)
        if status is not None:
            q = q.where(t.games.c.status == status)
        return [r.id for r in self.conn.execute(q)]

    def games(self) -> list[GameRow]:
        """Every game's row, oldest first."""
        return [t.record(GameRow, r) for r in self.conn.execute(select(t.games).order_by(t.games.c.created_at, t.games.c.id))]

    def claim_due(self, now: datetime, skip: Iterable[str] = (), count: int = 1) -> list[GameRow]:
        """Up to count active games whose deadline has passed, the earliest first, locked; locked ones are skipped."""
        q = (select(t.games).where(and_(t.games.c.status == "active", t.games.c.deadline.is_not(None),
                                        t.games.c.deadline <= now))
             .order_by(t.games.c.deadline, t.games.c.id).limit(count))
        skip = list(skip)
        if skip:
            q = q.where(t.games.c.id.not_in(skip))
        if self.postgresql:
            q = q.with_for_update(skip_locked=True)
        return [t.record(GameRow, r) for r in self.conn.execute(q)]

    # Statements here take their values as parameters, not .values(): SQLAlchemy then compiles each
    # statement once and reuses it, where .values() builds and keys a new statement every call.

    def put_game(self, row: GameRow, new: bool = False) -> None:
        """Write a game's row (insert it when new)."""
        values = _values(row)
        if new:
            self.conn.execute(insert(t.games), values)
        else:
            values.pop("id")
            values.pop("created_at")
            self.conn.execute(_PUT_GAME, {**values, "row_id": row.id})

    # -- credentials ---------------------------------------------------------------------

    def credential(self, game_id: str, player: int) -> str | None:
        """The stored hash of a player's credential."""
        return self.conn.execute(_CREDENTIAL, {"game_id": game_id, "player": player}).scalar()

    def credentials(self, game_id: str) -> dict[int, str]:
        """Every stored credential hash of a game, by player number."""
        q = select(t.credentials).where(t.credentials.c.game_id == game_id)
        return {int(r.player): r.hash for r in self.conn.execute(q)}

    def put_credential(self, game_id: str, player: int, stored_hash: str) -> None:
        """Store (or replace) a player's credential hash."""
        key = and_(t.credentials.c.game_id == game_id, t.credentials.c.player == player)
        self.conn.execute(delete(t.credentials).where(key))
        self.conn.execute(insert(t.credentials), {"game_id": game_id, "player": player, "hash": stored_hash})

    # -- published phases ----------------------------------------------------------------

    def phases(self, game_id: str, current_only: bool = True, after: int = 0) -> list[PhaseRow]:
        """Published phases of a game (the current revision of each, or every revision), in play order; after: only
        those published by ledger entries after that one."""
        q = select(t.phases).where(t.phases.c.game_id == game_id)
        if after:
            q = q.where(t.phases.c.ledger_seq > after)
        if current_only:
            q = q.where(t.phases.c.current.is_(True))
        return [t.record(PhaseRow, r) for r in self.conn.execute(q.order_by(t.phases.c.number, t.phases.c.revision))]

    def phase_at(self, game_id: str, seq: int) -> PhaseRow | None:
        """The published phase recorded by ledger entry seq."""
        q = select(t.phases).where(and_(t.phases.c.game_id == game_id, t.phases.c.ledger_seq == seq))
        r = self.conn.execute(q).first()
        return t.record(PhaseRow, r) if r is not None else None

    def insert_phase(self, row: PhaseRow) -> None:
        """Record a published phase."""
        self.conn.execute(insert(t.phases), _values(row))

    def supersede_phase(self, game_id: str, number: int) -> None:
        """Mark the current revision of the phase played `number`th as corrected."""
        self.conn.execute(update(t.phases).where(and_(t.phases.c.game_id == game_id, t.phases.c.number == number))
                          .values(current=False))

    # -- press ---------------------------------------------------------------------------

    def press(self, game_id: str, after: int = 0) -> list[PressRow]:
        """A game's press, in order (after: only what ledger entries after that one recorded)."""
        q = select(t.press).where(t.press.c.game_id == game_id)
        if after:
            q = q.where(t.press.c.ledger_seq > after)
        q = q.order_by(t.press.c.number)
        return [t.record(PressRow, r) for r in self.conn.execute(q)]

    def insert_press(self, rows: Sequence[PressRow]) -> None:
        """Add press items (in one statement)."""
        if rows:
            self.conn.execute(insert(t.press), [_values(row) for row in rows])

    # -- rebuilding the caches ------------------------------------------------------------

    def clear_caches(self, game_id: str) -> None:
        """Drop a game's cached phases and press (before they are written again from the ledger)."""
        self.conn.execute(delete(t.phases).where(t.phases.c.game_id == game_id))
        self.conn.execute(delete(t.press).where(t.press.c.game_id == game_id))

    # -- the ledger --------------------------------------------------------------------------

    def last_entry(self, game_id: str) -> Entry | None:
        """The newest entry of a game's ledger."""
        r = self.conn.execute(_LAST_ENTRY, {"game_id": game_id}).first()
        return _entry(r) if r is not None else None

    def append(self, game_id: str, entries: Sequence[Entry]) -> None:
        """Add entries at the end of a game's ledger (in order, the first following the last; one statement)."""
        if entries:
            self.conn.execute(insert(t.ledger), [
                {"game_id": game_id, "seq": e.seq, "at": e.at, "kind": e.kind, "payload": e.payload_text,
                 "prev_hash": e.prev_hash, "hash": e.hash} for e in entries])

    def entry(self, game_id: str, seq: int) -> Entry | None:
        """One ledger entry by its sequence number."""
        r = self.conn.execute(select(t.ledger).where(and_(t.ledger.c.game_id == game_id, t.ledger.c.seq == seq))).first()
        return _entry(r) if r is not None else None

    def entries(self, game_id: str, after: int = 0, upto: int | None = None, kinds: Iterable[str] | None = None) -> list[Entry]:
        """A game's ledger in order: the entries after `after` (and up to `upto`), of some kinds only if given."""
        q = select(t.ledger).where(and_(t.ledger.c.game_id == game_id, t.ledger.c.seq > after))
        if upto is not None:
            q = q.where(t.ledger.c.seq <= upto)
        if kinds is not None:
            q = q.where(t.ledger.c.kind.in_(list(kinds)))
        return [_entry(r) for r in self.conn.execute(q.order_by(t.ledger.c.seq))]
