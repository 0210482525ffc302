"""One cursor for a game's news: the mail door's cursor (gm_mail_cursor) merged into the channels' one.

The mail channel now decides what to mail in the same pass as the site and the webhook, after
the one cursor (gm_account_cursor), and keeps its decisions in gm_mail_deliveries for the mail
door to render. Nothing may be mailed twice or lost on the way, so each game's two cursors are
merged thus:

- only the mail cursor: it becomes the game's cursor (the site and webhook had not read the game);
- the mail cursor ahead: the cursor stays, and `ahead` says the mail channel was told up to the
  mail cursor already;
- the mail cursor behind: the cursor goes back to it, and `ahead` says the site and the webhook
  were told up to where they were.

The reminders of the current phase already queued in the outbox are kept as decided mail (state
'done'), so that the mail channel does not remind those players again.

Revision ID: 0010_one_cursor
Revises: 0009_webhooks
Create Date: 2026-11-26
"""
from datetime import datetime, timezone

from alembic import op
import sqlalchemy as sa

revision = "0010_one_cursor"
down_revision = "0009_webhooks"
branch_labels = None
depends_on = None

CHANNELS_BUT_MAIL = ("site", "webhook")  # gm.notices.SiteChannel.name, gm.webhooks.WebhookChannel.name


def _cursors() -> sa.TableClause:
    return sa.table("gm_account_cursor", sa.column("game_id", sa.String), sa.column("ledger_seq", sa.Integer),
                    sa.column("ahead", sa.JSON))


def upgrade() -> None:
    with op.batch_alter_table("gm_account_cursor") as batch:
        batch.add_column(sa.Column("ahead", sa.JSON, nullable=True))
    deliveries = op.create_table(
        "gm_mail_deliveries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("player", sa.Integer, nullable=True),
        sa.Column("seqs", sa.JSON, nullable=False),
        sa.Column("phase", sa.String(16), nullable=True),
        sa.Column("power", sa.String(32), nullable=True),
        sa.Column("batch", sa.String(32), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_gm_mail_deliveries_state", "gm_mail_deliveries", ["state"])
    conn = op.get_bind()
    cursors = _cursors()
    mine = {str(r.game_id): int(r.ledger_seq) for r in conn.execute(sa.select(cursors.c.game_id, cursors.c.ledger_seq))}
    reminded: dict[str, set[str]] = {}
    mail_cursors = sa.table("gm_mail_cursor", sa.column("game_id", sa.String), sa.column("ledger_seq", sa.Integer),
                            sa.column("reminded", sa.JSON))
    for row in conn.execute(sa.select(mail_cursors)):
        game, mailed = str(row.game_id), int(row.ledger_seq)
        reminded[game] = {str(p) for p in (row.reminded or {})}
        told = mine.get(game)
        if told is None:
            conn.execute(sa.insert(cursors).values(game_id=game, ledger_seq=mailed, ahead=None))
        elif mailed > told:
            conn.execute(sa.update(cursors).where(cursors.c.game_id == game).values(ahead={"mail": mailed}))
        elif mailed < told:
            conn.execute(sa.update(cursors).where(cursors.c.game_id == game).values(
                ledger_seq=mailed, ahead={name: told for name in CHANNELS_BUT_MAIL}))
    kept = []
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    outbox = sa.table("gm_mail_outbox", sa.column("key", sa.String), sa.column("recipients", sa.JSON))
    for row in conn.execute(sa.select(outbox).where(outbox.c.key.like("%reminder:%"))):
        for key in str(row.key).split("+"):  # a digest's key joins the keys of what it holds
            parts = key.split(":")
            if parts[0] != "reminder" or len(parts) < 5 or not parts[-1].isdigit():
                continue
            game, phase, power = ":".join(parts[1:-3]), parts[-3], parts[-2]
            if phase in reminded.get(game, ()):
                kept.append({"game_id": game, "key": key, "kind": "reminder",
                             "address": str((row.recipients or [""])[0]), "player": int(parts[-1]),
                             "seqs": [], "phase": phase, "power": power, "batch": "0010_one_cursor",
                             "state": "done", "created_at": now})
    if kept:
        op.bulk_insert(deliveries, list({k["key"]: k for k in kept}.values()))
    op.drop_table("gm_mail_cursor")


def downgrade() -> None:
    op.create_table(
        "gm_mail_cursor",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("gm_games.id"), primary_key=True),
        sa.Column("ledger_seq", sa.Integer, nullable=False),
        sa.Column("reminded", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    conn = op.get_bind()
    cursors = _cursors()
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    rows = [{"game_id": str(r.game_id), "ledger_seq": int((r.ahead or {}).get("mail", r.ledger_seq)), "reminded": {},
             "updated_at": now} for r in conn.execute(sa.select(cursors))]
    if rows:
        op.bulk_insert(sa.table("gm_mail_cursor", sa.column("game_id", sa.String), sa.column("ledger_seq", sa.Integer),
                                sa.column("reminded", sa.JSON), sa.column("updated_at", sa.DateTime)), rows)
    op.drop_index("ix_gm_mail_deliveries_state", "gm_mail_deliveries")
    op.drop_table("gm_mail_deliveries")
    with op.batch_alter_table("gm_account_cursor") as batch:
        batch.drop_column("ahead")
