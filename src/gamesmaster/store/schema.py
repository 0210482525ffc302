"""The tables of the gamesmaster's record (SQLAlchemy Core).

The Alembic migrations in gamesmaster/store/migrations create these tables; a change
here needs a new migration there.
"""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, Unpack

from sqlalchemy import JSON, Boolean, Column, DateTime, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text, TypeDecorator
from sqlalchemy.engine import Dialect, Row

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

R = TypeVar("R", bound="DataclassInstance")
AnyRow: TypeAlias = "Row[Unpack[tuple[Any, ...]]]"  # a result row of any columns


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime, stored without a zone (as UTC) on every database."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("times must be timezone-aware")
        return value.astimezone(timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value: datetime | str | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return value.replace(tzinfo=timezone.utc)


def record(cls: type[R], row: AnyRow, **given: Any) -> R:
    """A typed record of a row: its columns named as the record's fields (those given are taken as given)."""
    m = row._mapping
    return cls(**{f.name: given[f.name] if f.name in given else m[f.name] for f in fields(cls)})


metadata = MetaData()

# The ledger is the record; every other table here is a cache of what the ledger says,
# which `gamesmaster verify` rebuilds from the ledger and compares row by row. The one
# exception is a credential's stored hash (gm_credentials): the ledger holds only its
# fingerprint, so that a copy of the ledger lets nobody sign in.

games = Table(
    "gm_games", metadata,
    Column("id", String(64), primary_key=True),
    Column("title", String(200), nullable=False),
    Column("status", String(16), nullable=False),  # forming, active, paused, finished
    Column("variant", String(64), nullable=False),
    Column("phase", String(16), nullable=True),
    Column("deadline", UTCDateTime, nullable=True),
    Column("head_seq", Integer, nullable=False),  # the ledger entry the state below is at
    Column("head_hash", String(64), nullable=False),
    Column("state", Text, nullable=False),  # the game folded from its ledger, as canonical JSON
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)
Index("ix_gm_games_status_deadline", games.c.status, games.c.deadline)

credentials = Table(
    "gm_credentials", metadata,
    Column("game_id", String(64), ForeignKey("gm_games.id"), primary_key=True),
    Column("player", Integer, primary_key=True),  # the player's number in the game
    Column("hash", String(200), nullable=False),  # pbkdf2 hash of the secret
)

phases = Table(
    "gm_phases", metadata,
    Column("game_id", String(64), ForeignKey("gm_games.id"), primary_key=True),
    Column("phase", String(16), nullable=False),
    Column("revision", Integer, primary_key=True),
    # the order in which phases were played: a retreat phase played in two rounds (Calhamer) has two
    Column("number", Integer, primary_key=True),
    Column("current", Boolean, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("position", JSON, nullable=False),
    Column("orders", JSON, nullable=False),  # {power: {"texts": [...], "source": ..., "seq": ..., "commitment": ...}}
    Column("results", JSON, nullable=False),
    Column("next", JSON, nullable=False),
    Column("winner", String(32), nullable=True),
    Column("civil_disorder", JSON, nullable=False),
    Column("adjudicated_at", UTCDateTime, nullable=False),
    Column("ledger_seq", Integer, nullable=False),
    Column("entry_hash", String(64), nullable=False),
)

press = Table(
    "gm_press", metadata,
    Column("game_id", String(64), ForeignKey("gm_games.id"), primary_key=True),
    Column("number", Integer, primary_key=True),  # the game's own numbering of its press
    Column("phase", String(16), nullable=True),
    Column("sent_at", UTCDateTime, nullable=False),
    Column("sender", String(32), nullable=False),  # a power or GM
    Column("recipients", JSON, nullable=True),  # None: public
    Column("anonymous", Boolean, nullable=False),
    Column("text", Text, nullable=False),
    Column("ledger_seq", Integer, nullable=False),
)

ledger = Table(
    "gm_ledger", metadata,
    Column("game_id", String(64), ForeignKey("gm_games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("at", String(32), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("payload", Text, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
)

# Each player's line in each game (gm.standings folds it from the game's ledger; store.standings.Line).
standings = Table(
    "gm_standings", metadata,
    Column("game_id", String(64), ForeignKey("gm_games.id"), primary_key=True),
    Column("player", Integer, primary_key=True),
    Column("key", String(240), nullable=False),  # the account's ref, or "name:" and the seat's name
    Column("name", String(200), nullable=False),
    Column("title", String(200), nullable=False),
    Column("status", String(16), nullable=False),
    Column("powers", JSON, nullable=False),
    Column("outcome", String(16), nullable=False),
    Column("score", Float, nullable=True),
    Column("rank", Integer, nullable=True),
    Column("ordered", Integer, nullable=False),
    Column("missed", Integer, nullable=False),
    Column("left", Boolean, nullable=False),
    Column("replacement", Boolean, nullable=False),
    Column("ended_at", String(40), nullable=True),
    Column("leagues", JSON, nullable=False),
)
Index("ix_gm_standings_key", standings.c.key)
