"""Each game's webhook (the URL the GM set, a secret kept off the ledger) and the posts waiting for it.

Revision ID: 0009_webhooks
Revises: 0008_standings
Create Date: 2026-11-26
"""
from alembic import op
import sqlalchemy as sa


revision = "0009_webhooks"
down_revision = "0008_standings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gm_webhooks",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("set_at", sa.DateTime, nullable=False),
        sa.Column("delivered", sa.Integer, nullable=False),
        sa.Column("failed", sa.Integer, nullable=False),
        sa.Column("last_ok_at", sa.DateTime, nullable=True),
        sa.Column("last_error", sa.String(300), nullable=True),
        sa.Column("last_error_at", sa.DateTime, nullable=True),
    )
    op.create_table(
        "gm_webhook_posts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("body", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("next_at", sa.DateTime, nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
    )
    op.create_index("ix_gm_webhook_posts_next", "gm_webhook_posts", ["state", "next_at"])


def downgrade() -> None:
    op.drop_index("ix_gm_webhook_posts_next", "gm_webhook_posts")
    op.drop_table("gm_webhook_posts")
    op.drop_table("gm_webhooks")
