"""Sign-in sessions kept on the server (the cookie holds only a random token).

Tables defined in gamesmaster/store/sessions.py.

Revision ID: 0004_sessions
Revises: 0003_ledger
Create Date: 2026-11-23
"""
from alembic import op
import sqlalchemy as sa

revision = "0004_sessions"
down_revision = "0003_ledger"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gm_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("gm_key", sa.String(64), nullable=True),
        sa.Column("data", sa.JSON, nullable=False),
    )
    op.create_index("ix_gm_sessions_expires", "gm_sessions", ["expires_at"])


def downgrade() -> None:
    op.drop_table("gm_sessions")
