"""Notifications for players with accounts: results, deadline warnings, press received, votes opened.

Each player sets, per game, which of these also come by mail and how long before the
deadline to be warned (`NoticeSettings`); the site shows every one, with an unread count.
A pass (`notify`) reads each game's ledger once, after the game's one cursor, and hands
what it read to every channel (gm.channels): the site's (`SiteChannel`, here) makes the
players' notifications, the mail channel (gm.mailing) the mail to players who play by mail,
the webhook's (gm.webhooks) its posts; in one transaction their deliveries are kept (each
with a unique key, so none is made twice) and the cursor moves. Deadline warnings depend on
the clock, not on the ledger, and are looked for at every pass. The mail door's dispatcher
runs a pass and then renders and sends what was kept for mail; the site runs one for a
player's games when it looks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Iterable
from urllib.parse import quote

from ..config import MailSettings
from ..store import Conflict
from ..store.accounts import AccountRecords, NewNotice, SettingsRecord
from ..store.mailbox import MailRecords
from ..store.webhooks import WebhookRecords
from .channels import (DEFAULT_WARNINGS, Channel, GameNews, Herald, Holder, read_warning_times, time_left,
                       written_warning_times)
from .errors import GMError
from .accounts import Accounts
from .desk import Desk
from .mailing import MailChannel
from .reading import Reading, kept_view
from .state import GM
from .views import GameView, PhaseResult, PressItem
from .webhooks import WebhookChannel, warnings_of

log = logging.getLogger(__name__)

KINDS = ("results", "warnings", "press", "votes")  # what may come by mail as well


@dataclass(frozen=True)
class Notice:
    """A notification as the site shows it, numbered among the account's own (1 its first): an id from one
    counter for the whole site would tell by its gaps how many others got in between."""

    number: int
    game_id: str | None
    kind: str
    subject: str
    text: str
    url: str | None
    created_at: datetime
    read_at: datetime | None

    @property
    def read(self) -> bool:
        """Whether the player has marked it read."""
        return self.read_at is not None


@dataclass(frozen=True)
class NoticeSettings:
    """A player's choices for one game: what also comes by mail, and when to be warned of the deadline."""

    mail: tuple[str, ...] = KINDS
    warnings: tuple[float, ...] = DEFAULT_WARNINGS  # hours before the deadline, while orders are due

    @property
    def warnings_text(self) -> str:
        """The warning times as a player writes them, and parse() reads them back: '24, 2, 30m'."""
        return written_warning_times(self.warnings)

    def to_record(self) -> SettingsRecord:
        """As stored."""
        return SettingsRecord(self.mail, self.warnings)

    @classmethod
    def from_record(cls, stored: SettingsRecord | None) -> "NoticeSettings":
        """Read what to_record stored (the defaults if nothing was; every kind if the kinds were not)."""
        if stored is None or (stored.mail is None and stored.warnings is None):
            return cls()
        return cls(tuple(k for k in (KINDS if stored.mail is None else stored.mail) if k in KINDS),
                   stored.warnings or ())

    @classmethod
    def parse(cls, mail: Iterable[str], warnings: str) -> "NoticeSettings":
        """From a form: the kinds ticked, and the warning times as '24, 2' (hours; '30m' for minutes)."""
        return cls(tuple(k for k in KINDS if k in set(mail)), read_warning_times(warnings))


class _Moved(Exception):
    """Another pass moved the cursor first."""


class Notifications:
    """Making, listing and reading notifications; each player's settings for them."""

    def __init__(self, desk: Desk, accounts: Accounts, games: Reading) -> None:
        self._desk = desk
        self._accounts = accounts
        self._games = games

    @property
    def channels(self) -> tuple[Channel, ...]:
        """Where each pass's news goes: the site (with the mail it marks), mail, and the game's webhook."""
        return (SiteChannel(), MailChannel(self._desk.mail), WebhookChannel(self._desk.site_url))

    def mail_by(self, settings: MailSettings) -> None:
        """Decide what to mail by these settings (the mail door's: its reminder time, the GM's own address)."""
        self._desk.mail = settings

    def notice_settings(self, account_id: int, game_id: str) -> NoticeSettings:
        """An account's settings for a game (the defaults until changed)."""
        with self._desk.reading() as rec:
            return NoticeSettings.from_record(AccountRecords(rec.conn).settings(account_id, game_id))

    def set_notice_settings(self, account_id: int, game_id: str, value: NoticeSettings) -> None:
        """Change an account's settings for a game it plays in."""
        if game_id not in self._accounts.account_seats(account_id):
            raise GMError(f"you hold no seat in {game_id}")
        with self._desk.store.connect() as conn:
            AccountRecords(conn).put_settings(account_id, game_id, value.to_record())

    def notices(self, account_id: int, limit: int = 50) -> list[Notice]:
        """An account's notifications, newest first."""
        with self._desk.reading() as rec:
            ar = AccountRecords(rec.conn)
            rows, total = ar.notices(account_id, limit), ar.shown(account_id)
        return [Notice(total - i, r.game_id, r.kind, r.subject, r.text, r.url, r.created_at, r.read_at)
                for i, r in enumerate(rows)]

    def unread(self, account_id: int) -> int:
        """How many of an account's notifications are unread."""
        with self._desk.reading() as rec:
            return AccountRecords(rec.conn).unread(account_id)

    def mark_read(self, account_id: int, upto: int | None = None) -> int:
        """Mark an account's notifications read (up to its own number `upto`, or all)."""
        with self._desk.store.connect() as conn:
            ar = AccountRecords(conn)
            last = None  # every one
            if upto is not None and upto <= ar.shown(account_id):
                last = ar.shown_id(account_id, upto) or 0  # 0: none (there is no notification 0)
            return ar.mark_read(account_id, self._desk.now(), last)

    def notify(self, game_ids: Iterable[str] | None = None) -> int:
        """One pass over every game (or these): make the notifications due. Returns how many were made."""
        made = 0
        # A player's look reads its own games only: the badge is polled by every signed-in page.
        heads = self._games.heads() if game_ids is None else self._games.heads_of(game_ids)
        for head in heads:
            try:
                made += self._notify_game(head.id, head.head_seq)
            except (_Moved, Conflict):
                continue  # another pass made them
            except Exception:  # noqa: BLE001 - one game's trouble must not stop the others' notifications
                log.exception("notifications for game %s: this pass failed; it is tried again at the next", head.id)
        return made

    def _notify_game(self, game_id: str, head_seq: int) -> int:
        """Read one game's news once, after its cursor; keep what every channel made of it, moving the cursor."""
        with self._desk.reading() as rec:
            ar = AccountRecords(rec.conn)
            where = ar.cursor_and_ahead(game_id)
            cursor, ahead = where if where is not None else (None, {})
            if cursor is not None:
                state = self._desk.snapshot(rec, game_id)
                hook = WebhookRecords(rec.conn).hook(game_id)
                webhook_warnings = warnings_of(hook) if hook is not None else None
                contacts = {n: c.address for n, c in MailRecords(rec.conn).contacts(game_id).items()}
                holders = []
                for number, ref in state.claims.items():
                    seat, account = state.seat(int(number)), ar.by_ref(ref)
                    if seat is not None and seat.role != "former" and account is not None:
                        holders.append(Holder(seat, account, NoticeSettings.from_record(ar.settings(account.id, game_id)),
                                              contacts.get(seat.number, "").lower() == account.email))
        if cursor is None or not (state.claims or webhook_warnings is not None or contacts or self._desk.mail.gm_email):
            # A game first read starts at its head (turning a channel on for an old game does not tell its whole
            # history); one no channel tells anyone of moves on, so that an address given later is not told the past
            if cursor is not None and head_seq <= cursor:
                return 0
            with self._desk.store.connect() as conn:
                if not AccountRecords(conn).put_cursor(game_id, cursor, head_seq):
                    raise _Moved(game_id)
            return 0
        if head_seq > cursor:
            changes = self._games.changes(game_id, cursor)
            news = GameNews(changes.game, tuple(holders), changes.entries, changes.phases, changes.press, self._desk.now(),
                            webhook_warnings, contacts)
        else:  # only the clock moved: the game as the snapshot read above has it
            news = GameNews(kept_view(self._desk.memo, state), tuple(holders), (), {}, {}, self._desk.now(),
                            webhook_warnings, contacts)
        made = [d for channel in self.channels for d in channel.deliver(_after(news, ahead.get(channel.name)))]
        if not made and head_seq <= cursor:
            return 0
        with self._desk.store.connect() as conn:
            ar = AccountRecords(conn)
            if head_seq > cursor and not ar.put_cursor(game_id, cursor, head_seq, ahead):
                raise _Moved(game_id)
            return Herald(ar, WebhookRecords(conn), MailRecords(conn)).keep(made)


def _after(news: GameNews, told: int | None) -> GameNews:
    """The news without the entries a channel was told already (told: up to which; only after an upgrade)."""
    return news if told is None else replace(news, entries=tuple(e for e in news.entries if e[0] > told))


class SiteChannel:
    """The site's channel: each player's notifications (some marked for mail too, by the player's choice)."""

    name = "site"

    def deliver(self, news: GameNews) -> list[NewNotice]:
        """The notifications this news makes for the players with accounts."""
        view, holders, now = news.game, list(news.holders), news.now
        made: list[NewNotice] = []
        results: dict[int, int] = {}  # account -> where in `made` its last results notification of this pass is
        notices: list[PressItem] = []  # the GM's notices of this pass: one notification, not one each
        for seq, kind in news.entries:
            if kind in ("phase-adjudicated", "correction") and seq in news.phases:
                for h in holders:
                    results[h.account.id] = len(made)
                    made.append(self._results(view, news.phases[seq], h, now))
            elif kind == "press" and seq in news.press and news.press[seq].sender == GM:
                notices.append(news.press[seq])
            elif kind == "press" and seq in news.press:
                made += [n for h in holders if (n := self._press(view, news.press[seq], h, now)) is not None]
            elif kind == "draw-proposed":
                made += self._votes(view, holders, now)
        if news.entries:
            self._gm_notices(view, notices, holders, made, results, now, news.started)
        return made + self._warnings(view, holders, now, news.opened)

    def _notice(self, view: GameView, h: Holder, kind: str, key: str, subject: str, text: str, url: str,
                now: datetime, seq: int | None = None) -> NewNotice:
        mail_kind = {"warning": "warnings", "vote": "votes"}.get(kind, kind)
        # the mail channel mails the seat's results and press (and the GM's notice of a vote) to its mail address:
        # where that is the account's own, the notification is not mailed a second time
        mailed = mail_kind in h.settings.mail and not (h.mailed_as_contact and kind in ("results", "press", "vote"))
        return NewNotice(account_id=h.account.id, game_id=view.id, kind=kind, key=key[:200], seq=seq,
                         subject=subject[:300], text=text, url=url, show=True,
                         mail="queued" if mailed else "no", created_at=now)

    def _results(self, view: GameView, phase: PhaseResult, h: Holder, now: datetime) -> NewNotice:
        mine = set(h.seat.acts_for())
        failed = [r for r in phase.results if r.power in mine and r.result != "succeeds"]
        text = f"{phase.title} is adjudicated."
        if mine:
            text += (f" {len(failed)} of your orders did not succeed." if failed else " Your orders all succeeded.")
        if view.phase_title and view.status == "active":
            text += f" Now {view.phase_title}: orders due {view.deadline_text}."
        what = "corrected results" if phase.revision else "results"
        return self._notice(view, h, "results", f"results:{view.id}:{phase.seq}:{h.account.id}",
                            f"{view.id}: {what} of {phase.title}", text,
                            f"/games/{quote(view.id)}/history?phase={phase.phase}", now, phase.seq)

    def _press(self, view: GameView, item: PressItem, h: Holder, now: datetime) -> NewNotice | None:
        powers = set(h.seat.acts_for())  # a player of two powers (a stand-by, a successor) reads for each
        if item.sender != GM and item.sender in powers:
            return None  # one's own letter
        if item.to is not None and not powers & set(item.to):
            return None
        sender = "anonymous" if item.anonymous else item.sender.capitalize()
        to = "to you" if item.to else "to everyone"
        text = item.text if len(item.text) <= 600 else item.text[:600] + " ..."
        return self._notice(view, h, "press", f"press:{view.id}:{item.seq}:{h.account.id}",
                            f"{view.id}: press from {sender} {to}", text,
                            f"/games/{quote(view.id)}/war-room#press", now, item.seq)

    def _gm_notices(self, view: GameView, items: list[PressItem], holders: list[Holder], made: list[NewNotice],
                    results: dict[int, int], now: datetime, started: bool = False) -> None:
        """The GM's notices of a pass: added to the results they came with (made[results[account]]), else made
        as one notification (started: the game began in this pass, so it names the player's power and war room)."""
        for h in holders:
            mine = [i for i in items if i.to is None or set(i.to) & set(h.seat.acts_for())]
            if not mine:
                continue
            text = "\n".join(i.text for i in mine)
            if h.account.id in results:
                at = results[h.account.id]
                made[at] = replace(made[at], text=made[at].text + "\n\nFrom the gamesmaster:\n" + text)
                continue
            subject, url = f"{view.id}: notice from the gamesmaster", f"/games/{quote(view.id)}"
            powers = "/".join(p.capitalize() for p in h.seat.acts_for())
            if started and powers:
                subject, url = f"{view.id}: the game begins; you play {powers}", f"/games/{quote(view.id)}/war-room"
                text = (f"{h.seat.name}, you play {powers}. {view.phase_title}: orders due {view.deadline_text}. "
                        "Give your orders in your war room (the link below).\n\n" + text)
            made.append(self._notice(view, h, "press", f"notice:{view.id}:{mine[0].seq}-{mine[-1].seq}:{h.account.id}",
                                     subject, text, url, now, mine[-1].seq))

    def _votes(self, view: GameView, holders: list[Holder], now: datetime) -> list[NewNotice]:
        out = []
        for h in holders:
            for power in h.seat.acts_for():
                for pr in view.proposals:
                    if power not in pr.votes:
                        what = "a draw" if pr.kind == "draw" else "a concession"
                        out.append(self._notice(
                            view, h, "vote", f"vote:{view.id}:{pr.id}:{h.account.id}",
                            f"{view.id}: a vote on {what} (proposal {pr.id})",
                            f"{pr.proposer.capitalize()} proposes {what}: "
                            + ", ".join(p.capitalize() for p in pr.powers) + ". Your vote is asked.",
                            f"/games/{quote(view.id)}/war-room#votes", now))
        return out

    def _warnings(self, view: GameView, holders: list[Holder], now: datetime, opened: bool = False) -> list[NewNotice]:
        """Deadline warnings crossed now; opened: the phase opened in this pass, so a warning time already passed
        (24 hours before the deadline of a 24-hour phase) is kept silent: the results just said the deadline."""
        deadline = view.deadline
        if view.status != "active" or deadline is None or view.phase is None:
            return []
        out = []
        for h in holders:
            due = [p for p in h.seat.acts_for() if view.power(p).to_order and not view.power(p).ordered]
            crossed = [w for w in h.settings.warnings if deadline - timedelta(hours=w) <= now < deadline]
            if not due or not crossed:
                continue
            w = min(crossed)  # the latest warning time passed: one warning, not one for each time passed
            left = (deadline - now).total_seconds() / 3600
            made = self._notice(
                view, h, "warning", f"warning:{view.id}:{view.phase}:{w:g}:{h.account.id}",
                f"{view.id}: orders due in {time_left(left)} ({view.phase_title})",
                f"No orders yet from {', '.join(p.capitalize() for p in due)} for {view.phase_title}. "
                f"They are due {view.deadline_text}; a power that sends none is in civil disorder.",
                f"/games/{quote(view.id)}/war-room", now)
            # made silent, not skipped: its key is then taken, so no later pass makes it either
            out.append(replace(made, show=False, mail="no") if opened else made)
        return out
