"""The ledger is the record: the game tables become caches of it.

Games, players, orders, pending conditional orders, phases, press and proposals were
tables beside the ledger; now a game's state is folded from its ledger and the store
keeps caches of it (gm_games.state, gm_phases, gm_press) and the credentials' hashes
(gm_credentials). Ledger entries are hashed over their payload's digest, so that a
public copy can seal private entries.

Games recorded before this revision cannot be read by the new code (their ledgers hash
their payloads directly and their receipts name global entry numbers). Nothing is
thrown away: every row of every old table is kept, as JSON, in gm_legacy_rows, before
the old tables are dropped.

Revision ID: 0003_ledger
Revises: 0002_mail
Create Date: 2026-11-23
"""
import json
from datetime import date, datetime

from alembic import op
import sqlalchemy as sa

revision = "0003_ledger"
down_revision = "0002_mail"
branch_labels = None
depends_on = None

OLD_TABLES = ("gm_mail_cursor", "gm_mail_contacts", "gm_ledger", "gm_proposals", "gm_press", "gm_phases",
              "gm_pending", "gm_orders", "gm_players", "gm_games")


def _plain(value: object) -> object:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    return value


def upgrade() -> None:
    conn = op.get_bind()
    legacy = op.create_table(
        "gm_legacy_rows",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("source", sa.String(64), nullable=False),
        sa.Column("row", sa.Text, nullable=False),
    )
    meta = sa.MetaData()
    for name in OLD_TABLES:
        table = sa.Table(name, meta, autoload_with=conn)
        rows = [{"source": name, "row": json.dumps({k: _plain(v) for k, v in r._mapping.items()}, sort_keys=True)}
                for r in conn.execute(sa.select(table))]
        if rows:
            conn.execute(sa.insert(legacy), rows)
    for name in OLD_TABLES:
        op.drop_table(name)

    op.create_table(
        "gm_games",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("phase", sa.String(16), nullable=True),
        sa.Column("deadline", sa.DateTime, nullable=True),
        sa.Column("head_seq", sa.Integer, nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_gm_games_status_deadline", "gm_games", ["status", "deadline"])
    op.create_table(
        "gm_credentials",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("hash", sa.String(200), nullable=False),
    )
    op.create_table(
        "gm_phases",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("phase", sa.String(16), primary_key=True),
        sa.Column("revision", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("current", sa.Boolean, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("position", sa.JSON, nullable=False),
        sa.Column("orders", sa.JSON, nullable=False),
        sa.Column("results", sa.JSON, nullable=False),
        sa.Column("next", sa.JSON, nullable=False),
        sa.Column("winner", sa.String(32), nullable=True),
        sa.Column("civil_disorder", sa.JSON, nullable=False),
        sa.Column("adjudicated_at", sa.DateTime, nullable=False),
        sa.Column("ledger_seq", sa.Integer, nullable=False),
        sa.Column("entry_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "gm_press",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("phase", sa.String(16), nullable=True),
        sa.Column("sent_at", sa.DateTime, nullable=False),
        sa.Column("sender", sa.String(32), nullable=False),
        sa.Column("recipients", sa.JSON, nullable=True),
        sa.Column("anonymous", sa.Boolean, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("ledger_seq", sa.Integer, nullable=False),
    )
    op.create_table(
        "gm_ledger",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("at", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "gm_mail_contacts",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
    )
    op.create_table(
        "gm_mail_cursor",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("ledger_seq", sa.Integer, nullable=False),
        sa.Column("reminded", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    raise RuntimeError("the ledger format changed in 0003: there is no way back (the old rows are in gm_legacy_rows)")
