"""The gamesmaster's record: games, players, orders, phases, press, proposals, ledger.

Revision ID: 0001
Revises:
Create Date: 2024-01-01
"""
from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gm_games",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("phase", sa.String(16), nullable=True),
        sa.Column("position", sa.JSON, nullable=True),
        sa.Column("deadline", sa.DateTime, nullable=True),
        sa.Column("paused_remaining", sa.Float, nullable=True),
        sa.Column("flags", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("head_seq", sa.Integer, nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_gm_games_due", "gm_games", ["status", "deadline"])
    op.create_table(
        "gm_players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("power", sa.String(32), nullable=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("standby_for", sa.String(32), nullable=True),
        sa.Column("credential", sa.String(200), nullable=False),
        sa.Column("ready", sa.Boolean, nullable=False),
        sa.Column("missed", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_gm_players_game", "gm_players", ["game_id"])
    op.create_table(
        "gm_orders",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("phase", sa.String(16), primary_key=True),
        sa.Column("power", sa.String(32), primary_key=True),
        sa.Column("author", sa.String(16), primary_key=True),
        sa.Column("texts", sa.JSON, nullable=False),
        sa.Column("conditional", sa.Text, nullable=True),
        sa.Column("channel", sa.String(32), nullable=False),
        sa.Column("entered_by", sa.String(200), nullable=False),
        sa.Column("orders_hash", sa.String(64), nullable=False),
        sa.Column("ledger_seq", sa.Integer, nullable=False),
        sa.Column("submitted_at", sa.DateTime, nullable=False),
        sa.Column("note", sa.JSON, nullable=True),
    )
    op.create_table(
        "gm_pending",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("power", sa.String(32), primary_key=True),
        sa.Column("filed_phase", sa.String(16), nullable=False),
        sa.Column("texts", sa.JSON, nullable=False),
        sa.Column("condition", sa.Text, nullable=False),
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
        sa.Column("adjudicated_at", sa.DateTime, nullable=False),
        sa.Column("ledger_seq", sa.Integer, nullable=False),
    )
    op.create_table(
        "gm_press",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), nullable=False),
        sa.Column("phase", sa.String(16), nullable=True),
        sa.Column("sent_at", sa.DateTime, nullable=False),
        sa.Column("sender", sa.String(32), nullable=False),
        sa.Column("recipients", sa.JSON, nullable=True),
        sa.Column("anonymous", sa.Boolean, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("ledger_seq", sa.Integer, nullable=False),
    )
    op.create_index("ix_gm_press_game", "gm_press", ["game_id"])
    op.create_table(
        "gm_proposals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("proposer", sa.String(32), nullable=False),
        sa.Column("powers", sa.JSON, nullable=False),
        sa.Column("votes", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_gm_proposals_game", "gm_proposals", ["game_id"])
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


def downgrade() -> None:
    for table in ("gm_ledger", "gm_proposals", "gm_press", "gm_phases", "gm_pending", "gm_orders",
                  "gm_players", "gm_games"):
        op.drop_table(table)
