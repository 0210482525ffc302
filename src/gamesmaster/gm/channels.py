"""Where news of a game goes: the `Channel` seam, fed by one reader of the ledger.

One pass (`Herald`, run by `Gamesmaster.notices.notify`) reads each game's ledger once, after
the game's one cursor (gm_account_cursor), into a `GameNews`: the entries and what they
published (results, press), the game as it stands, the seats that accounts hold, the
addresses players play by mail from, the time. It hands that to every channel; each answers
with what it wants kept (`Delivery`): the site its players' notifications (`NewNotice`, some
also marked for mail), the mail channel the mail it decided on (`NewMail`: what, to whom,
which entries), the webhook its posts (`NewPost`). The mail door renders and sends what the
mail channel and the site marked for mail; the poster sends the posts in the background.
The cursor moves and every channel's deliveries are written in one transaction, so nothing
is told twice or lost, with several passes at once or a crash between the two. Deadline
warnings and reminders depend on the clock, not on the ledger: every pass asks the
channels, with no entries, and unique keys keep each one single. A game first read starts
at its head: turning on a channel for an old game does not tell its whole history.

A new channel is a class with a `name` and `deliver(news)`, listed in `Notifications.channels`;
what it delivers is one of the `Delivery` kinds, or a new one the herald learns to keep.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol, Sequence

from ..store.accounts import AccountRecord, AccountRecords, NewNotice
from ..store.mailbox import MailRecords, NewMail
from ..store.webhooks import NewPost, WebhookRecords
from .errors import GMError
from .state import Seat
from .views import GameView, PhaseResult, PressItem

if TYPE_CHECKING:
    from .notices import NoticeSettings

Delivery = NewNotice | NewMail | NewPost  # what a channel asks to be kept: a notification, a mail, a webhook's post
QUEUE_BOUND = 50  # posts that may wait for one game's webhook; past it a post is dropped, and counted failed


@dataclass(frozen=True)
class Holder:
    """A seat held by an account, with the account's settings for the game's notifications."""

    seat: Seat
    account: AccountRecord
    settings: NoticeSettings  # what the player chose for the game
    mailed_as_contact: bool = False  # the seat's mail address is the account's: the mail channel mails it there


@dataclass(frozen=True)
class GameNews:
    """What one pass read of one game: the new entries (none: only the clock moved) and the game after them."""

    game: GameView
    holders: tuple[Holder, ...]  # the seats accounts hold
    entries: tuple[tuple[int, str], ...]  # (seq, kind) of the entries after the cursor
    phases: Mapping[int, PhaseResult]  # the phases those entries published, by entry
    press: Mapping[int, PressItem]  # the press those entries recorded, as the GM sees it: channels filter
    now: datetime
    # when the game's webhook warns of a deadline, in hours before it (None: the GM set no webhook)
    webhook_warnings: tuple[float, ...] | None
    contacts: Mapping[int, str] = field(default_factory=dict)  # the address of each seat played by mail, by number

    @property
    def hooked(self) -> bool:
        """The GM set a webhook for the game."""
        return self.webhook_warnings is not None

    @property
    def opened(self) -> bool:
        """A phase opened in this pass: the results (or the game's start) just said its deadline."""
        return any(kind in ("phase-adjudicated", "game-started") for _, kind in self.entries)

    @property
    def started(self) -> bool:
        """The game began in this pass."""
        return any(kind == "game-started" for _, kind in self.entries)


DEFAULT_WARNINGS = (24.0, 2.0)  # hours before a deadline a player, or a webhook, is warned unless told otherwise
WARNING_HOURS = (0.25, 168.0)  # a warning at least a quarter of an hour, at most a week, before the deadline
MAX_WARNINGS = 4


def warning_times(hours: Iterable[float]) -> tuple[float, ...]:
    """Deadline warning times (hours before a deadline) as kept: each from a quarter of an hour to a week, to the
    thousandth of an hour, the latest first and each once, at most four (GMError names a wrong one)."""
    return _kept([_within(value, f"{value:g}") for value in hours])


def read_warning_times(text: str) -> tuple[float, ...]:
    """Warning times as a player or the GM writes them: '24, 2' (hours) or '30m' (minutes); empty: none."""
    parts = [p.strip().lower() for p in str(text).replace(";", ",").split(",") if p.strip()]
    if len(parts) > MAX_WARNINGS * 2:
        raise GMError(f"at most {MAX_WARNINGS} warning times")
    hours = []
    for part in parts:
        try:
            value = float(part[:-1]) / 60 if part.endswith("m") else float(part.rstrip("h"))
        except ValueError:
            raise GMError(f"warning time {part[:20]!r}: hours before the deadline, e.g. 24, 2 or 30m") from None
        hours.append(_within(value, repr(part[:20])))  # named as written
    return _kept(hours)


def _within(value: float, said: str) -> float:
    if not WARNING_HOURS[0] <= value <= WARNING_HOURS[1]:  # NaN fails this too
        raise GMError(f"warning time {said}: from 15 minutes to {WARNING_HOURS[1]:.0f} hours")
    return value


def _kept(hours: Iterable[float]) -> tuple[float, ...]:
    kept = {round(h, 3) for h in hours}
    if len(kept) > MAX_WARNINGS:
        raise GMError(f"at most {MAX_WARNINGS} warning times")
    return tuple(sorted(kept, reverse=True))


def written_warning_times(hours: Iterable[float]) -> str:
    """Warning times as read_warning_times reads them back: '24, 2, 30m'."""
    return ", ".join(f"{h:g}" if h >= 1 else f"{round(h * 60, 1):g}m" for h in hours)


def warning_times_in_words(hours: Iterable[float]) -> str:
    """Warning times in words, exactly: '24 hours, 2.5 hours and 30 minutes' (before each deadline)."""
    said = [f"{h:g} hour{'' if h == 1 else 's'}" if h >= 1 else f"{round(h * 60, 1):g} minutes" for h in hours]
    return " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)


def time_left(hours: float) -> str:
    """How long until a deadline, as a warning says it: '24 hours', '45 minutes'."""
    return f"{hours:.0f} hours" if hours >= 1.5 else f"{hours * 60:.0f} minutes"


class Channel(Protocol):
    """A way news reaches people: given a pass's news of a game, what to keep for it."""

    name: str

    def deliver(self, news: GameNews) -> Sequence[Delivery]:
        """The deliveries this news makes (each with a unique key: one made before is not made again)."""
        ...


class Herald:
    """Writes what the channels made of a pass's news, in the transaction that moves the game's cursor."""

    def __init__(self, accounts: AccountRecords, webhooks: WebhookRecords, mail: MailRecords) -> None:
        self.accounts, self.webhooks, self.mail = accounts, webhooks, mail

    def keep(self, deliveries: Sequence[Delivery]) -> int:
        """Write each delivery not made before; returns how many were."""
        made = 0
        for d in deliveries:
            if isinstance(d, NewNotice):
                made += self.accounts.add_notice(d) is not None
            elif isinstance(d, NewMail):
                made += self.mail.keep_mail(d)
            else:
                made += self.webhooks.queue(d, QUEUE_BOUND)
        return made


__all__ = ["Channel", "Delivery", "GameNews", "Herald", "Holder", "QUEUE_BOUND", "time_left"]
