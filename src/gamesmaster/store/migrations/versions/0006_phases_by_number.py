"""Published phases are keyed by their place in play, not by their name.

Under Calhamer's rule (seed 004 s17) a retreat phase can be played in more than one
round, each published under the same phase name; the play number tells them apart.
gm_phases is a cache of the ledger: its rows are copied as they are.

Revision ID: 0005_phases_by_number
Revises: 0005_accounts (both were written beside each other; this one runs second)
Create Date: 2026-11-23
"""
from alembic import op
import sqlalchemy as sa

revision = "0005_phases_by_number"
down_revision = "0005_accounts"
branch_labels = None
depends_on = None

COLUMNS = ("game_id", "phase", "revision", "number", "current", "rules", "position", "orders", "results", "next",
           "winner", "civil_disorder", "adjudicated_at", "ledger_seq", "entry_hash")


def _phases(name: str, key: tuple[str, ...], key_name: str) -> None:
    op.create_table(
        name,
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
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
        sa.PrimaryKeyConstraint(*key, name=key_name),
    )


def _rekey(key: tuple[str, ...], key_name: str) -> None:
    cols = ", ".join(COLUMNS)
    _phases("gm_phases_rekeyed", key, key_name)
    op.execute(f"INSERT INTO gm_phases_rekeyed ({cols}) SELECT {cols} FROM gm_phases")
    op.drop_table("gm_phases")
    op.rename_table("gm_phases_rekeyed", "gm_phases")


def upgrade() -> None:
    _rekey(("game_id", "number", "revision"), "pk_gm_phases_by_number")


def downgrade() -> None:
    _rekey(("game_id", "phase", "revision"), "pk_gm_phases_by_name")
