"""When a game's webhook warns of the deadline: the hours before it the GM chose (null: the default, 24 and 2).

Revision ID: 0011_webhook_warnings
Revises: 0010_one_cursor
Create Date: 2026-11-27
"""
from alembic import op
import sqlalchemy as sa

revision = "0011_webhook_warnings"
down_revision = "0010_one_cursor"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("gm_webhooks") as batch:  # SQLite alters a table by copying it
        batch.add_column(sa.Column("warnings", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("gm_webhooks") as batch:
        batch.drop_column("warnings")
