"""Players' accounts: accounts, sign-in links, notification settings, notifications; sessions name their account.

Tables defined in gamesmaster/store/accounts.py (and the account column of gm_sessions in
gamesmaster/store/sessions.py).

Revision ID: 0005_accounts
Revises: 0004_sessions
Create Date: 2026-11-23
"""
from alembic import op
import sqlalchemy as sa

revision = "0005_accounts"
down_revision = "0004_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gm_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("ref", sa.String(32), nullable=False, unique=True),
        sa.Column("email", sa.String(320), nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("confirmed_at", sa.DateTime, nullable=True),
    )
    op.create_table(
        "gm_account_links",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
        sa.Column("used_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_gm_account_links_expires", "gm_account_links", ["expires_at"])
    op.create_table(
        "gm_account_settings",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("settings", sa.JSON, nullable=False),
    )
    op.create_table(
        "gm_account_notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("seq", sa.Integer, nullable=True),
        sa.Column("subject", sa.String(300), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("url", sa.String(500), nullable=True),
        sa.Column("show", sa.Boolean, nullable=False),
        sa.Column("mail", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("read_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_gm_account_notices_account", "gm_account_notices", ["account_id", "read_at"])
    op.create_index("ix_gm_account_notices_mail", "gm_account_notices", ["mail"])
    op.create_table(
        "gm_account_cursor",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("ledger_seq", sa.Integer, nullable=False),
    )
    with op.batch_alter_table("gm_sessions") as batch:
        batch.add_column(sa.Column("account", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("gm_sessions") as batch:
        batch.drop_column("account")
    for name in ("gm_account_cursor", "gm_account_notices", "gm_account_settings", "gm_account_links", "gm_accounts"):
        op.drop_table(name)
