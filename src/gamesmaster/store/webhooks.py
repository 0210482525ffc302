"""Each game's webhook beside the record: the URL the GM set, how its posts fared, and the posts waiting.

The URL is a secret (whoever has it may post in the club's channel): it is kept here, never
on the ledger, which players may read. A post waits in gm_webhook_posts until it is
delivered or given up, and stays there marked so, with a unique key so the same news is
queued once; the hook's row keeps the counts, the last error and the warning times for the GM. Migrations
0009_webhooks and 0011_webhook_warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import JSON, Column, Index, Integer, String, Table, Text, and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from ..ledger import JSONObject
from .schema import UTCDateTime, metadata, record

hooks = Table(
    "gm_webhooks", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("url", Text, nullable=False),
    Column("set_at", UTCDateTime, nullable=False),
    Column("delivered", Integer, nullable=False),  # posts the receiver took (a 2xx)
    Column("failed", Integer, nullable=False),  # posts given up (tried out, refused, or the queue full)
    Column("last_ok_at", UTCDateTime, nullable=True),
    Column("last_error", String(300), nullable=True),
    Column("last_error_at", UTCDateTime, nullable=True),
    Column("warnings", JSON, nullable=True),  # hours before a deadline it warns at (null: the default; 0011)
)

posts = Table(
    "gm_webhook_posts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), nullable=False),
    Column("key", String(200), nullable=False, unique=True),  # what it tells of, so it is queued once
    Column("body", JSON, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("tries", Integer, nullable=False),
    Column("next_at", UTCDateTime, nullable=False),
    # queued; sent; failed (given up); silent (its news was told otherwise: kept only so it is not made again)
    Column("state", String(8), nullable=False),
)
Index("ix_gm_webhook_posts_next", posts.c.state, posts.c.next_at)


@dataclass(frozen=True)
class HookRecord:
    """A game's webhook as kept."""

    game_id: str
    url: str = field(repr=False)  # a secret: kept out of logs and tracebacks
    set_at: datetime
    delivered: int
    failed: int
    last_ok_at: datetime | None
    last_error: str | None
    last_error_at: datetime | None
    warnings: list[float] | None = None  # hours before a deadline it warns at, as the GM set them (None: the default)


@dataclass(frozen=True)
class NewPost:
    """A post to be queued for a game's webhook."""

    game_id: str
    key: str
    body: JSONObject
    created_at: datetime
    silent: bool = False  # keep the key only: the news was told otherwise (a warning the results made late)


@dataclass(frozen=True)
class PostRecord:
    """A queued post: its id, how often it was tried, and when it is next due."""

    id: int
    game_id: str
    key: str
    body: JSONObject
    created_at: datetime
    tries: int
    next_at: datetime


class WebhookRecords:
    """The webhooks' tables in one open transaction."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def hook(self, game_id: str) -> HookRecord | None:
        """A game's webhook (None: the GM set none)."""
        row = self.conn.execute(select(hooks).where(hooks.c.game_id == game_id)).first()
        return record(HookRecord, row) if row is not None else None

    def hooked(self) -> list[str]:
        """The games that have a webhook."""
        return [str(g) for g in self.conn.execute(select(hooks.c.game_id).order_by(hooks.c.game_id)).scalars()]

    def set_hook(self, game_id: str, url: str, now: datetime, warnings: list[float] | None = None) -> None:
        """Set (or change) a game's webhook: a new URL starts with clean counts and an empty queue."""
        self.remove_hook(game_id)
        self.conn.execute(insert(hooks).values(game_id=game_id, url=url, set_at=now, delivered=0, failed=0,
                                               warnings=warnings))

    def set_warnings(self, game_id: str, warnings: list[float] | None) -> bool:
        """Change when a game's webhook warns of a deadline (its URL, counts and queue as they are); False: no hook."""
        done = self.conn.execute(update(hooks).where(hooks.c.game_id == game_id).values(warnings=warnings))
        return bool(done.rowcount)

    def remove_hook(self, game_id: str) -> None:
        """No webhook for the game any more; what waited for the old URL is dropped with it."""
        self.conn.execute(delete(posts).where(posts.c.game_id == game_id))
        self.conn.execute(delete(hooks).where(hooks.c.game_id == game_id))

    def queued(self, game_id: str) -> int:
        """How many posts wait for a game's webhook."""
        q = select(func.count()).select_from(posts).where(and_(posts.c.game_id == game_id, posts.c.state == "queued"))
        return int(self.conn.execute(q).scalar() or 0)

    def queue(self, post: NewPost, bound: int) -> bool:
        """Queue a post (False: its key was queued before, or the game's queue holds `bound` already: then the post
        is counted as failed, so the GM sees what was lost)."""
        if self.conn.execute(select(posts.c.id).where(posts.c.key == post.key)).first() is not None:
            return False
        if self.hook(post.game_id) is None:
            return False  # the GM removed the webhook since the pass read the game
        if not post.silent and self.queued(post.game_id) >= bound:
            self.failed(post.game_id, f"queue full ({bound} posts waiting): a post was dropped", post.created_at)
            return False
        self.conn.execute(insert(posts).values(game_id=post.game_id, key=post.key, body=post.body,
                                               created_at=post.created_at, tries=0, next_at=post.created_at,
                                               state="silent" if post.silent else "queued"))
        return True

    def due(self, now: datetime, limit: int) -> list[PostRecord]:
        """The posts due now, oldest first."""
        q = (select(posts).where(and_(posts.c.state == "queued", posts.c.next_at <= now))
             .order_by(posts.c.next_at, posts.c.id).limit(limit))
        return [record(PostRecord, r) for r in self.conn.execute(q)]

    def delivered(self, post: PostRecord, now: datetime) -> None:
        """The receiver took the post."""
        if self._settle(post, "sent"):
            self.conn.execute(update(hooks).where(hooks.c.game_id == post.game_id)
                              .values(delivered=hooks.c.delivered + 1, last_ok_at=now))

    def retry(self, post: PostRecord, error: str, next_at: datetime, now: datetime) -> None:
        """The post failed this time; it is tried again at next_at."""
        q = update(posts).where(and_(posts.c.id == post.id, posts.c.state == "queued", posts.c.tries == post.tries))
        if self.conn.execute(q.values(tries=post.tries + 1, next_at=next_at)).rowcount:
            self.conn.execute(update(hooks).where(hooks.c.game_id == post.game_id)
                              .values(last_error=error[:300], last_error_at=now))

    def give_up(self, post: PostRecord, error: str, now: datetime) -> None:
        """The post is dropped, counted as failed, with why."""
        if self._settle(post, "failed"):
            self.failed(post.game_id, error, now)

    def _settle(self, post: PostRecord, state: str) -> bool:
        """Mark a queued post sent or failed (False: another poster settled it first)."""
        q = update(posts).where(and_(posts.c.id == post.id, posts.c.state == "queued", posts.c.tries == post.tries))
        return bool(self.conn.execute(q.values(state=state, tries=post.tries + 1)).rowcount)

    def failed(self, game_id: str, error: str, now: datetime) -> None:
        """Count a post lost for a game's webhook, and say why."""
        self.conn.execute(update(hooks).where(hooks.c.game_id == game_id)
                          .values(failed=hooks.c.failed + 1, last_error=error[:300], last_error_at=now))
