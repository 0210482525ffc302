"""The tables of the gamesmaster's record (SQLAlchemy Core).

The Alembic migrations in gamesmaster/store/migrations create these tables; a change
here needs a new migration there.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (JSON, Boolean, Column, DateTime, Float, ForeignKey, Index, Integer, MetaData,
                        String, Table, Text, TypeDecorator)


class UTCDateTime(TypeDecorator):
    """An aware UTC datetime, stored without a zone (as UTC) on every database."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):  # type: ignore[override]
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("times must be timezone-aware")
        return value.astimezone(timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value, dialect):  # type: ignore[override]
        if value is None:
            return None
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return value.replace(tzinfo=timezone.utc)


metadata = MetaData()

games = Table(
    "gm_games", metadata,
    Column("id", String(64), primary_key=True),
    Column("title", String(200), nullable=False),
    Column("status", String(16), nullable=False),  # forming, active, paused, finished
    Column("variant", String(64), nullable=False),
    Column("rules", JSON, nullable=False),  # preset name or {"preset": ..., option: value}
    Column("settings", JSON, nullable=False),
    Column("phase", String(16), nullable=True),
    Column("position", JSON, nullable=True),
    Column("deadline", UTCDateTime, nullable=True),
    Column("paused_remaining", Float, nullable=True),  # seconds left when paused
    Column("flags", JSON, nullable=False),  # per-phase state: grace used, deadlock pending
    Column("result", JSON, nullable=True),
    Column("head_seq", Integer, nullable=False, default=0),  # the last ledger entry
    Column("head_hash", String(64), nullable=False, default=""),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)
Index("ix_gm_games_due", games.c.status, games.c.deadline)

players = Table(
    "gm_players", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("gm_games.id"), nullable=False),
    Column("name", String(200), nullable=False),
    Column("power", String(32), nullable=True),
    Column("role", String(16), nullable=False),  # player, standby, former
    Column("rank", Integer, nullable=False, default=0),
    Column("standby_for", String(32), nullable=True),
    Column("credential", String(200), nullable=False),  # pbkdf2 hash of the secret
    Column("ready", Boolean, nullable=False, default=False),
    Column("missed", Integer, nullable=False, default=0),
    Column("joined_at", UTCDateTime, nullable=False),
)
Index("ix_gm_players_game", players.c.game_id)

orders = Table(
    "gm_orders", metadata,
    Column("game_id", String(64), ForeignKey("gm_games.id"), primary_key=True),
    Column("phase", String(16), primary_key=True),
    Column("power", String(32), primary_key=True),
    Column("author", String(16), primary_key=True),  # player or standby
    Column("texts", JSON, nullable=False),
    Column("conditional", Text, nullable=True),
    Column("channel", String(32), nullable=False),
    Column("entered_by", String(200), nullable=False),
    Column("orders_hash", String(64), nullable=False),
    Column("ledger_seq", Integer, nullable=False),
    Column("submitted_at", UTCDateTime, nullable=False),
    Column("note", JSON, nullable=True),
)

pending = Table(
    "gm_pending", metadata,
    Column("game_id", String(64), ForeignKey("gm_games.id"), primary_key=True),
    Column("power", String(32), primary_key=True),
    Column("filed_phase", String(16), nullable=False),
    Column("texts", JSON, nullable=False),
    Column("condition", Text, nullable=False),
)

phases = Table(
    "gm_phases", metadata,
    Column("game_id", String(64), ForeignKey("gm_games.id"), primary_key=True),
    Column("phase", String(16), primary_key=True),
    Column("revision", Integer, primary_key=True),
    Column("number", Integer, nullable=False),  # the order in which phases were played
    Column("current", Boolean, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("position", JSON, nullable=False),
    Column("orders", JSON, nullable=False),  # {power: {"texts": [...], "source": ...}}
    Column("results", JSON, nullable=False),
    Column("next", JSON, nullable=False),
    Column("winner", String(32), nullable=True),
    Column("adjudicated_at", UTCDateTime, nullable=False),
    Column("ledger_seq", Integer, nullable=False),
)

press = Table(
    "gm_press", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("gm_games.id"), nullable=False),
    Column("phase", String(16), nullable=True),
    Column("sent_at", UTCDateTime, nullable=False),
    Column("sender", String(32), nullable=False),  # a power or GM
    Column("recipients", JSON, nullable=True),  # None: public
    Column("anonymous", Boolean, nullable=False, default=False),
    Column("text", Text, nullable=False),
    Column("ledger_seq", Integer, nullable=False),
)
Index("ix_gm_press_game", press.c.game_id)

proposals = Table(
    "gm_proposals", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("gm_games.id"), nullable=False),
    Column("phase", String(16), nullable=False),
    Column("kind", String(16), nullable=False),  # draw or concession
    Column("proposer", String(32), nullable=False),
    Column("powers", JSON, nullable=False),
    Column("votes", JSON, nullable=False),
    Column("status", String(16), nullable=False),  # open, passed, rejected, lapsed
    Column("created_at", UTCDateTime, nullable=False),
)
Index("ix_gm_proposals_game", proposals.c.game_id)

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
