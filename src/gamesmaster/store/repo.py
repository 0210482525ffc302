"""Reading and writing the record inside one transaction.

Everything the gamesmaster keeps goes through `Records`; the ledger is append-only here:
there is a method to add an entry and none to change or remove one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection

from ..ledger import Entry
from . import schema as t


def _row(r: Any) -> dict[str, Any] | None:
    return dict(r._mapping) if r is not None else None


class Records:
    """The tables of the record, in one open transaction."""

    def __init__(self, conn: Connection, postgresql: bool) -> None:
        self.conn = conn
        self.postgresql = postgresql

    # -- games -------------------------------------------------------------------------

    def game(self, game_id: str, lock: bool = False) -> dict[str, Any] | None:
        """A game's row; lock=True holds it for this transaction (FOR UPDATE on PostgreSQL)."""
        q = select(t.games).where(t.games.c.id == game_id)
        if lock and self.postgresql:
            q = q.with_for_update()
        return _row(self.conn.execute(q).first())

    def claim_due(self, now: datetime, skip: Iterable[str] = ()) -> dict[str, Any] | None:
        """One active game whose deadline has passed, locked; locked ones are skipped."""
        q = (select(t.games).where(and_(t.games.c.status == "active", t.games.c.deadline.is_not(None),
                                        t.games.c.deadline <= now))
             .order_by(t.games.c.deadline, t.games.c.id).limit(1))
        skip = list(skip)
        if skip:
            q = q.where(t.games.c.id.not_in(skip))
        if self.postgresql:
            q = q.with_for_update(skip_locked=True)
        return _row(self.conn.execute(q).first())

    def games(self) -> list[dict[str, Any]]:
        """Every game row, by id."""
        return [dict(r._mapping) for r in self.conn.execute(select(t.games).order_by(t.games.c.created_at, t.games.c.id))]

    def insert_game(self, **values: Any) -> None:
        """Add a game row."""
        values.setdefault("head_seq", 0)
        values.setdefault("head_hash", "")
        self.conn.execute(insert(t.games).values(**values))

    def update_game(self, game_id: str, **values: Any) -> None:
        """Change columns of a game row."""
        self.conn.execute(update(t.games).where(t.games.c.id == game_id).values(**values))

    # -- players -----------------------------------------------------------------------

    def players(self, game_id: str) -> list[dict[str, Any]]:
        """A game's players and stand-bys."""
        q = select(t.players).where(t.players.c.game_id == game_id).order_by(t.players.c.id)
        return [dict(r._mapping) for r in self.conn.execute(q)]

    def insert_player(self, **values: Any) -> int:
        """Add a player; returns its id."""
        values.setdefault("ready", False)
        values.setdefault("missed", 0)
        values.setdefault("rank", 0)
        result = self.conn.execute(insert(t.players).values(**values).returning(t.players.c.id))
        return int(result.scalar_one())

    def update_player(self, player_id: int, **values: Any) -> None:
        """Change columns of a player row."""
        self.conn.execute(update(t.players).where(t.players.c.id == player_id).values(**values))

    def reset_ready(self, game_id: str) -> None:
        """Clear every power's ready mark (a new phase begins)."""
        self.conn.execute(update(t.players).where(t.players.c.game_id == game_id).values(ready=False))

    # -- orders ------------------------------------------------------------------------

    def orders(self, game_id: str, phase: str | None = None) -> list[dict[str, Any]]:
        """Orders on record for a game (one phase, or all)."""
        q = select(t.orders).where(t.orders.c.game_id == game_id)
        if phase is not None:
            q = q.where(t.orders.c.phase == phase)
        return [dict(r._mapping) for r in self.conn.execute(q.order_by(t.orders.c.phase, t.orders.c.power, t.orders.c.author))]

    def put_orders(self, **values: Any) -> None:
        """Record a power's orders, replacing that author's earlier set for the phase."""
        key = and_(t.orders.c.game_id == values["game_id"], t.orders.c.phase == values["phase"],
                   t.orders.c.power == values["power"], t.orders.c.author == values["author"])
        self.conn.execute(delete(t.orders).where(key))
        self.conn.execute(insert(t.orders).values(**values))

    def delete_orders(self, game_id: str, phase: str, power: str | None = None, author: str | None = None) -> None:
        """Withdraw orders on record."""
        q = delete(t.orders).where(and_(t.orders.c.game_id == game_id, t.orders.c.phase == phase))
        if power is not None:
            q = q.where(t.orders.c.power == power)
        if author is not None:
            q = q.where(t.orders.c.author == author)
        self.conn.execute(q)

    # -- conditional orders waiting for their season -------------------------------------

    def pending(self, game_id: str) -> list[dict[str, Any]]:
        """Conditional orders filed for a later phase."""
        q = select(t.pending).where(t.pending.c.game_id == game_id).order_by(t.pending.c.power)
        return [dict(r._mapping) for r in self.conn.execute(q)]

    def put_pending(self, **values: Any) -> None:
        """File conditional orders."""
        self.conn.execute(delete(t.pending).where(and_(t.pending.c.game_id == values["game_id"],
                                                       t.pending.c.power == values["power"])))
        self.conn.execute(insert(t.pending).values(**values))

    def delete_pending(self, game_id: str, power: str | None = None, filed_phase: str | None = None) -> None:
        """Drop filed conditional orders."""
        q = delete(t.pending).where(t.pending.c.game_id == game_id)
        if power is not None:
            q = q.where(t.pending.c.power == power)
        if filed_phase is not None:
            q = q.where(t.pending.c.filed_phase == filed_phase)
        self.conn.execute(q)

    # -- adjudicated phases --------------------------------------------------------------

    def phases(self, game_id: str, current_only: bool = True) -> list[dict[str, Any]]:
        """Adjudicated phases of a game (the current revision of each, or every revision)."""
        q = select(t.phases).where(t.phases.c.game_id == game_id)
        if current_only:
            q = q.where(t.phases.c.current.is_(True))
        return [dict(r._mapping) for r in self.conn.execute(q.order_by(t.phases.c.number, t.phases.c.revision))]

    def insert_phase(self, **values: Any) -> None:
        """Record an adjudicated phase."""
        self.conn.execute(insert(t.phases).values(**values))

    def supersede_phase(self, game_id: str, phase: str) -> None:
        """Mark a phase's current revision as corrected."""
        self.conn.execute(update(t.phases).where(and_(t.phases.c.game_id == game_id, t.phases.c.phase == phase))
                          .values(current=False))

    # -- press ---------------------------------------------------------------------------

    def press(self, game_id: str) -> list[dict[str, Any]]:
        """A game's press, in order."""
        q = select(t.press).where(t.press.c.game_id == game_id).order_by(t.press.c.id)
        return [dict(r._mapping) for r in self.conn.execute(q)]

    def insert_press(self, **values: Any) -> int:
        """Add a press item; returns its id."""
        result = self.conn.execute(insert(t.press).values(**values).returning(t.press.c.id))
        return int(result.scalar_one())

    # -- draws and concessions -------------------------------------------------------------

    def proposals(self, game_id: str) -> list[dict[str, Any]]:
        """A game's draw and concession proposals."""
        q = select(t.proposals).where(t.proposals.c.game_id == game_id).order_by(t.proposals.c.id)
        return [dict(r._mapping) for r in self.conn.execute(q)]

    def insert_proposal(self, **values: Any) -> int:
        """Add a proposal; returns its id."""
        result = self.conn.execute(insert(t.proposals).values(**values).returning(t.proposals.c.id))
        return int(result.scalar_one())

    def update_proposal(self, proposal_id: int, **values: Any) -> None:
        """Change a proposal (votes, status)."""
        self.conn.execute(update(t.proposals).where(t.proposals.c.id == proposal_id).values(**values))

    # -- the ledger --------------------------------------------------------------------------

    def last_entry(self, game_id: str) -> Entry | None:
        q = select(t.ledger).where(t.ledger.c.game_id == game_id).order_by(t.ledger.c.seq.desc()).limit(1)
        r = self.conn.execute(q).first()
        return _entry(r) if r is not None else None

    def append(self, game_id: str, kind: str, payload: Any, when: datetime) -> Entry:
        """Add an entry at the end of a game's ledger (the game's row must be locked)."""
        entry = Entry.make(self.last_entry(game_id), kind, payload, when)
        self.conn.execute(insert(t.ledger).values(game_id=game_id, seq=entry.seq, at=entry.at, kind=entry.kind,
                                                  payload=entry.payload_text, prev_hash=entry.prev_hash,
                                                  hash=entry.hash))
        self.update_game(game_id, head_seq=entry.seq, head_hash=entry.hash)
        return entry

    def import_entry(self, game_id: str, entry: Entry) -> None:
        """Copy an entry from an archive as it is (import only)."""
        self.conn.execute(insert(t.ledger).values(game_id=game_id, seq=entry.seq, at=entry.at, kind=entry.kind,
                                                  payload=entry.payload_text, prev_hash=entry.prev_hash,
                                                  hash=entry.hash))

    def entry(self, game_id: str, seq: int) -> Entry | None:
        """One ledger entry by its sequence number."""
        r = self.conn.execute(select(t.ledger).where(and_(t.ledger.c.game_id == game_id, t.ledger.c.seq == seq))).first()
        return _entry(r) if r is not None else None

    def entries(self, game_id: str) -> list[Entry]:
        """The whole ledger of a game, in order."""
        q = select(t.ledger).where(t.ledger.c.game_id == game_id).order_by(t.ledger.c.seq)
        return [_entry(r) for r in self.conn.execute(q)]



def _entry(r: Any) -> Entry:
    m = r._mapping
    return Entry(int(m["seq"]), m["at"], m["kind"], m["payload"], m["prev_hash"], m["hash"])
