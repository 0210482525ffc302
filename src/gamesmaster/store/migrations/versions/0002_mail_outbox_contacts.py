"""The mail door: players' addresses, mail received, the outbox of mail to send, the dispatch cursor.

Tables defined in gamesmaster/mail/tables.py.

Revision ID: 0002_mail
Revises: 0001
Create Date: 2024-06-01
"""
from alembic import op
import sqlalchemy as sa

revision = "0002_mail"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gm_mail_contacts",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("gm_players.id"), primary_key=True),
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), nullable=False),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
    )
    op.create_index("ix_gm_mail_contacts_game", "gm_mail_contacts", ["game_id"])
    op.create_table(
        "gm_mail_inbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("received_at", sa.DateTime, nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("source_key", sa.String(200), nullable=True, unique=True),
        sa.Column("message_id", sa.String(500), nullable=True),
        sa.Column("sender", sa.String(320), nullable=True),
        sa.Column("recipients", sa.JSON, nullable=False),
        sa.Column("subject", sa.Text, nullable=True),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("notes", sa.JSON, nullable=False),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reply_id", sa.Integer, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
    )
    op.create_table(
        "gm_mail_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("key", sa.String(200), nullable=True, unique=True),
        sa.Column("sender", sa.String(320), nullable=False),
        sa.Column("recipients", sa.JSON, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("message", sa.LargeBinary, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", sa.DateTime, nullable=False),
        sa.Column("claimed_at", sa.DateTime, nullable=True),
        sa.Column("sent_at", sa.DateTime, nullable=True),
        sa.Column("last_error", sa.Text, nullable=True),
    )
    op.create_index("ix_gm_mail_outbox_due", "gm_mail_outbox", ["status", "next_attempt_at"])
    op.create_table(
        "gm_mail_cursor",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("ledger_seq", sa.Integer, nullable=False),
        sa.Column("reminded", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    for table in ("gm_mail_cursor", "gm_mail_outbox", "gm_mail_inbox", "gm_mail_contacts"):
        op.drop_table(table)
