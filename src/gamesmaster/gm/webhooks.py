"""A game's webhook: its results, deadline warnings and GM notices posted as JSON to a URL the GM sets.

The body is what Discord's and Slack's incoming webhooks both take: `content` (Discord),
`text` (Slack) and `username`; neither embeds nor blocks, which only one of them reads.
Only what every player may already read is posted: the results of an adjudicated phase,
that a deadline is near (not who has ordered), and the GM's notices to everyone; never
orders before the deadline, letters, press not yet public, or votes.

The URL is a secret: anyone holding it may post in the club's channel. The GM sets it (the
console's game page, or `PUT /api/games/{game}/webhook`); it is kept beside the record,
not on it, and shown back only as its scheme and host. A post that fails is tried again,
waiting longer each time (`Backoff`), then given up and counted; the GM's game page shows
how the posts fare. Nothing the webhook does can hold up the game: posts are queued by the
notification pass and sent by a poster in the background (serving.webhook).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum
from typing import Sequence
from urllib.parse import quote, urlsplit

from ..ledger import JSONObject
from ..store.accounts import AccountRecords
from ..store.webhooks import HookRecord, NewPost, PostRecord, WebhookRecords
from .channels import (DEFAULT_WARNINGS, GameNews, read_warning_times, time_left, warning_times, warning_times_in_words,
                       written_warning_times)
from .desk import Desk
from .errors import GMError
from .state import GM

MAX_URL = 500  # Discord's and Slack's webhook URLs are about 120 characters
MAX_CONTENT = 1900  # Discord refuses content over 2,000 characters; Slack takes more
USERNAME = "gamesmaster"


class PostKind(Enum):
    """What a post tells of."""

    RESULTS = "results"
    WARNING = "warning"
    NOTICE = "notice"


def check_url(text: str) -> str:
    """The URL as kept, or GMError saying what is wrong with it (the message never repeats a credential)."""
    url = text.strip()
    if len(url) > MAX_URL:
        raise GMError(f"the webhook URL is {len(url)} characters long: at most {MAX_URL}")
    if any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise GMError("the webhook URL may not hold spaces or control characters")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        raise GMError("the webhook URL cannot be read: write it as https://host/path") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise GMError("the webhook URL must begin with https:// (or http://)")
    if not parts.hostname:
        raise GMError("the webhook URL names no host: write it as https://host/path")
    if parts.username is not None or parts.password is not None:
        # a password in the URL would be shown wherever the URL is: the receiver's own token goes in the path
        raise GMError("the webhook URL may not hold a user name or password (user:password@host)")
    return url


def check_warnings(hours: Sequence[float]) -> tuple[float, ...]:
    """When a webhook warns of each deadline, as kept (channels.warning_times: the players' own rules), or GMError
    saying what is wrong; at least one time (a webhook without warnings is not one of the choices)."""
    if not hours:
        raise GMError("give at least one warning time (hours before the deadline), e.g. 24, 2")
    return warning_times(hours)


def read_warnings(text: str) -> tuple[float, ...]:
    """A webhook's warning times as the GM writes them ('24, 2', '30m'), checked as check_warnings checks them."""
    return check_warnings(read_warning_times(text))


def shown_url(url: str) -> str:
    """The URL as the GM's page shows it: the scheme and host only (its path is the receiver's token)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/…"


@dataclass(frozen=True)
class WebhookStatus:
    """How a game's webhook fares, for the GM: where it points (host only), what went and what did not."""

    shown: str  # scheme://host/… (the rest is a secret)
    set_at: datetime
    delivered: int
    failed: int
    queued: int
    last_ok_at: datetime | None
    last_error: str | None
    last_error_at: datetime | None
    warnings: tuple[float, ...] = DEFAULT_WARNINGS  # hours before a deadline it warns at

    @property
    def warnings_written(self) -> str:
        """When it warns, as the GM writes it: '24, 2, 30m' (before each deadline)."""
        return written_warning_times(self.warnings)

    @property
    def warnings_text(self) -> str:
        """When it warns, in words: '24 hours and 2 hours' (before each deadline)."""
        return warning_times_in_words(self.warnings)

    @classmethod
    def of(cls, hook: HookRecord, queued: int) -> "WebhookStatus":
        """The status of a kept webhook."""
        return cls(shown_url(hook.url), hook.set_at, hook.delivered, hook.failed, queued, hook.last_ok_at,
                   hook.last_error, hook.last_error_at, warnings_of(hook))


def warnings_of(hook: HookRecord) -> tuple[float, ...]:
    """When a kept webhook warns of a deadline (hours before it)."""
    return tuple(hook.warnings) if hook.warnings is not None else DEFAULT_WARNINGS


@dataclass(frozen=True)
class Backoff:
    """When a failed post is tried again: `first` seconds after the first failure, doubling up to `longest`;
    after `tries` tries it is given up."""

    first: float = 30.0
    longest: float = 3600.0
    tries: int = 6

    def next_try(self, tries: int, now: datetime) -> datetime | None:
        """When to try again after `tries` failed tries (None: give up)."""
        if tries >= self.tries:
            return None
        return now + timedelta(seconds=min(self.longest, self.first * 2 ** (tries - 1)))


@dataclass(frozen=True)
class Post:
    """A post due to go: where to, and what."""

    record: PostRecord
    url: str = field(repr=False)  # a secret: kept out of logs and tracebacks

    @property
    def body(self) -> JSONObject:
        """The JSON body."""
        return self.record.body


def body(text: str) -> JSONObject:
    """The JSON both Discord's and Slack's incoming webhooks take, the text cut to what Discord allows."""
    if len(text) > MAX_CONTENT:
        text = text[:MAX_CONTENT - 2].rstrip() + " …"
    return {"content": text, "text": text, "username": USERNAME}


class WebhookChannel:
    """The channel that tells a game's webhook what every player may read: results, warnings, GM notices."""

    name = "webhook"

    def __init__(self, site_url: str | None = None) -> None:
        self.site_url = site_url

    def deliver(self, news: GameNews) -> list[NewPost]:
        """The posts this news makes (none for a game with no webhook)."""
        if not news.hooked:
            return []
        view = news.game
        results = [seq for seq, kind in news.entries if kind in ("phase-adjudicated", "correction")
                   and seq in news.phases]
        # the GM's notices to everyone (never a letter, nor a notice to some powers only), all of a pass in one post
        notices = [news.press[seq] for seq, kind in news.entries if kind == "press" and seq in news.press
                   and news.press[seq].sender == GM and news.press[seq].to is None]
        said = "\n".join(item.text for item in notices)
        out = [self._results(news, seq, said if seq == results[-1] else "") for seq in results]
        if notices and not results:
            out.append(self._post(news, PostKind.NOTICE, f"{notices[0].seq}-{notices[-1].seq}",
                                  f"**{view.title}** ({view.id}): from the gamesmaster\n{said}"))
        warning = self._warning(news)
        if warning is not None:
            out.append(warning)
        return out

    def _post(self, news: GameNews, kind: PostKind, key: str, text: str, *, silent: bool = False) -> NewPost:
        return NewPost(news.game.id, f"webhook:{kind.value}:{news.game.id}:{key}"[:200], body(text), news.now, silent)

    def _link(self, path: str) -> str:
        return f"\n{self.site_url}{path}" if self.site_url else ""

    def _results(self, news: GameNews, seq: int, notices: str) -> NewPost:
        """An adjudicated phase's results: the orders that did not succeed, the next deadline, and the GM's notices
        that came with them."""
        view, phase = news.game, news.phases[seq]
        what = "corrected results" if phase.revision else "results"
        lines = [f"**{view.title}** ({view.id}): {what} of {phase.title}"]
        failed = [r for r in phase.results if r.result != "succeeds"]
        if phase.results:
            lines.append(f"{len(phase.results)} orders, {len(failed)} did not succeed.")
        lines += [f"- {r.power.capitalize()}: {r.order or r.text} {r.result} ({r.reason})" for r in failed[:20]]
        if phase.winner:
            lines.append(f"{phase.winner.capitalize()} wins.")
        if view.phase_title and view.status == "active" and phase.current:
            lines.append(f"Now {view.phase_title}: orders due {view.deadline_text}.")
        if notices:
            lines.append(f"From the gamesmaster:\n{notices}")
        text = "\n".join(lines) + self._link(f"/games/{quote(view.id)}/history?phase={phase.phase}")
        return self._post(news, PostKind.RESULTS, f"{seq}", text)

    def _warning(self, news: GameNews) -> NewPost | None:
        """That the deadline is near, once for each warning time crossed (the latest one crossed); a phase opened
        in this pass keeps it silent: the results just said the deadline."""
        view, now = news.game, news.now
        deadline = view.deadline
        if view.status != "active" or deadline is None or view.phase is None:
            return None
        crossed = [w for w in news.webhook_warnings or () if deadline - timedelta(hours=w) <= now < deadline]
        if not crossed:
            return None
        w = min(crossed)
        left = (deadline - now).total_seconds() / 3600
        text = (f"**{view.title}** ({view.id}): orders for {view.phase_title} are due in {time_left(left)}, "
                f"{view.deadline_text}." + self._link(f"/games/{quote(view.id)}"))
        return self._post(news, PostKind.WARNING, f"{view.phase}:{w:g}", text, silent=news.opened)


class Webhooks:
    """The GM's webhook for a game: setting it, its status, and the posts due to go."""

    backoff = Backoff()

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def set_webhook(self, game_id: str, url: str | None,
                    warnings: Sequence[float] | None = None) -> WebhookStatus | None:
        """Set the game's webhook (None or empty: remove it), warning of each deadline `warnings` hours before it
        (None: 24 and 2); GMError says what is wrong with a URL or a warning time."""
        checked = check_url(url) if url and url.strip() else None
        hours = list(check_warnings(warnings)) if warnings is not None else None
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)  # NotFound for a game that is not
        with self._desk.store.connect() as conn:
            books = WebhookRecords(conn)
            if checked is None:
                books.remove_hook(game_id)
                return None
            books.set_hook(game_id, checked, self._desk.now(), hours)
            # A game no account plays in has no notification cursor yet: it starts at the head (the webhook is
            # told what happens from now on, not the game's past).
            cursors = AccountRecords(conn)
            if cursors.cursor(game_id) is None:
                cursors.put_cursor(game_id, None, state.head_seq)
            hook = books.hook(game_id)
            assert hook is not None
            return WebhookStatus.of(hook, 0)

    def set_webhook_warnings(self, game_id: str, warnings: Sequence[float] | None) -> WebhookStatus:
        """Change when the game's webhook warns of each deadline (hours before it; None: 24 and 2), keeping its URL;
        GMError if the game has no webhook or a time is wrong."""
        hours = list(check_warnings(warnings)) if warnings is not None else None
        with self._desk.reading() as rec:
            self._desk.snapshot(rec, game_id)  # NotFound for a game that is not
        with self._desk.store.connect() as conn:
            books = WebhookRecords(conn)
            if not books.set_warnings(game_id, hours):
                raise GMError(f"{game_id} has no webhook: set its URL first")
            hook = books.hook(game_id)
            assert hook is not None
            return WebhookStatus.of(hook, books.queued(game_id))

    def webhook(self, game_id: str) -> WebhookStatus | None:
        """How the game's webhook fares (None: the GM set none)."""
        with self._desk.reading() as rec:
            books = WebhookRecords(rec.conn)
            hook = books.hook(game_id)
            return WebhookStatus.of(hook, books.queued(game_id)) if hook is not None else None

    def hooked_games(self) -> list[str]:
        """The games whose GM set a webhook."""
        with self._desk.reading() as rec:
            return WebhookRecords(rec.conn).hooked()

    def webhook_posts_due(self, limit: int = 20) -> list[Post]:
        """The posts due now, with where each goes."""
        with self._desk.reading() as rec:
            books = WebhookRecords(rec.conn)
            out = []
            for p in books.due(self._desk.now(), limit):
                hook = books.hook(p.game_id)
                if hook is not None:
                    out.append(Post(p, hook.url))
            return out

    def webhook_posted(self, post: Post, error: str | None, *, final: bool = False) -> None:
        """What became of a post: None delivered; else why not, tried again later unless `final` (a refusal that
        will not change) or tried out."""
        now = self._desk.now()
        with self._desk.store.connect() as conn:
            books = WebhookRecords(conn)
            if error is None:
                books.delivered(post.record, now)
                return
            again = None if final else self.backoff.next_try(post.record.tries + 1, now)
            if again is None:
                books.give_up(post.record, f"given up after {post.record.tries + 1} tries: {error}", now)
            else:
                books.retry(post.record, error, again, now)


__all__ = ["Backoff", "Post", "PostKind", "WebhookChannel", "WebhookStatus", "Webhooks", "body", "check_url",
           "shown_url"]
