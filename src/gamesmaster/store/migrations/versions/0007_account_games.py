"""The games each account has claimed a seat in, so its seats are found without reading every game.

The notification badge polled by every signed-in page looked for the account's seats in every
game on the site (144 ms a poll with 440 games). gm_account_games lists, per account, the games
it claimed a seat in; the game's record still says whether it holds the seat now. Filled here
from the claims in each game's folded state.

Revision ID: 0007_account_games
Revises: 0005_phases_by_number
Create Date: 2026-11-26
"""
import json

from alembic import op
import sqlalchemy as sa

revision = "0007_account_games"
down_revision = "0005_phases_by_number"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gm_account_games",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(64), primary_key=True),
    )
    conn = op.get_bind()
    accounts = {str(r.ref): int(r.id) for r in conn.execute(sa.text("SELECT id, ref FROM gm_accounts"))}
    rows = set()
    for game in conn.execute(sa.text("SELECT id, state FROM gm_games")):
        try:
            claims = json.loads(game.state).get("claims") or {}
        except (ValueError, AttributeError):
            continue  # a state that does not read: the game's next claim adds its row
        for ref in claims.values() if isinstance(claims, dict) else ():
            if ref in accounts:
                rows.add((accounts[ref], str(game.id)))
    if rows:
        op.bulk_insert(sa.table("gm_account_games", sa.column("account_id", sa.Integer),
                                sa.column("game_id", sa.String)),
                       [{"account_id": a, "game_id": g} for a, g in sorted(rows)])


def downgrade() -> None:
    op.drop_table("gm_account_games")
