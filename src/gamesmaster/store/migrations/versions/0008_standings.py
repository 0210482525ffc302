"""The standings cache: each player's line in each game (gamesmaster/store/schema.py, gm_standings).

A cache of the ledgers like gm_phases; the table starts empty, and the first reading of the
standings writes the lines of the games recorded before it existed (docs/standings.md).

Revision ID: 0008_standings
Revises: 0007_account_games
Create Date: 2026-11-26
"""
from alembic import op
import sqlalchemy as sa

revision = "0008_standings"
down_revision = "0007_account_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gm_standings",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("player", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(240), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("powers", sa.JSON, nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("rank", sa.Integer, nullable=True),
        sa.Column("ordered", sa.Integer, nullable=False),
        sa.Column("missed", sa.Integer, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("replacement", sa.Boolean, nullable=False),
        sa.Column("ended_at", sa.String(40), nullable=True),
        sa.Column("leagues", sa.JSON, nullable=False),
    )
    op.create_index("ix_gm_standings_key", "gm_standings", ["key"])


def downgrade() -> None:
    op.drop_index("ix_gm_standings_key", "gm_standings")
    op.drop_table("gm_standings")
