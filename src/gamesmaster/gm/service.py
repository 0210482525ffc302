"""The gamesmaster: every call that runs a game, from sign-up to the last season.

`Gamesmaster(store, clock)` is the one way in for every door (the console, the web site,
e-mail, the live table). It builds its services, each one concern, and exposes them:
`gm.setup` sets games up, `gm.orders` takes orders, `gm.deadlines` adjudicates and moves
deadlines, `gm.games` shows games, `gm.record` keeps and checks the record, and so on
(the attributes below). Every service is built with the one shared `Desk` (the store, the
clock and `Transaction`s, gm.tx) and, by name in its constructor, with the other services
it calls, so that what a service depends on shows where it is made. Nothing here knows
which door a request came through except by the `channel` it is given, which goes on the
record.
"""

from __future__ import annotations

from typing import Self

from ..config import Config, MailSettings, TestHooks
from ..store import Store, default_url
from .accounts import Accounts
from .board import Boards
from .bots import Bots
from .club import Club
from .corrections import Corrections
from .deadlines import Deadlines
from .desk import Clock, Desk
from .disputes import Disputes
from .games import Setup
from .joining import Joining
from .mailroom import Mailroom
from .notices import Notifications
from .players import Players
from .press import Press
from .questions import Questions
from .reading import Reading
from .rooms import Rooms
from .record import Record
from .sessions import Sessions
from .submissions import Submissions
from .table import LiveTable
from .webhooks import Webhooks


class Gamesmaster:
    """Runs games kept in a Store; `clock` returns the time now (aware UTC), for tests a fake."""

    def __init__(self, store: Store, clock: Clock | None = None, *, hooks: TestHooks | None = None,
                 site_url: str | None = None, mail: MailSettings | None = None) -> None:
        desk = Desk(store, clock, hooks=hooks, site_url=site_url, mail=mail)
        self.desk = desk  # the store, the clock, transactions and the memo every service shares
        self.games = Reading(desk)  # looking at games: a game, the games, results, history, changes
        self.rooms = Rooms(desk)  # a page's whole view in one look: the war room, the GM's room
        self.setup = Setup(desk)  # creating games, signing players up, drawing the powers
        self.orders = Submissions(desk)  # taking each power's orders and answering them
        self.deadlines = Deadlines(desk)  # adjudicating at the deadline, extending, pausing, resuming
        self.corrections = Corrections(desk)  # the GM's corrections of a published phase
        self.press = Press(desk)  # press, proposals and votes, draws
        self.questions = Questions(desk)  # questions to the GM and the answers
        self.players = Players(desk)  # new credentials, replacement players, resignations
        self.bots = Bots(desk)  # bots in seats and as stand-bys
        self.boards = Boards(desk, self.games)  # the board of any season, and boards to analyse
        self.record = Record(desk)  # the public record, receipts, archives and verification
        self.disputes = Disputes(desk)  # a player disputing a set of orders sent in its name
        self.sessions = Sessions(desk)  # the site's signed-in sessions
        self.accounts = Accounts(desk)  # accounts, sign-in links and passwords
        self.club = Club(desk)  # standings, ladder, leagues, players' records
        self.joining = Joining(desk, self.accounts, self.club, self.setup, self.games)  # open games and seats
        self.notices = Notifications(desk, self.accounts, self.games)  # notifications to players with accounts
        self.webhooks = Webhooks(desk)  # the GM's webhook for a game and the posts due to go
        self.live = LiveTable(desk, self.setup, self.orders)  # a live club evening's table: its clock and periods
        self.mailroom = Mailroom(store)  # the mail door's books

    @classmethod
    def open(cls, url: str | None = None, *, migrate: bool = True, clock: Clock | None = None,
             config: Config | None = None) -> Self:
        """The gamesmaster on the store at url (None: the settings' database, $GAMESMASTER_DATABASE_URL, else SQLite
        in the data directory); config: the settings read where the process started (default: the environment's).

        StoreError names what is wrong with the URL or the database."""
        paths = config.paths if config is not None else None
        return cls(Store(url or default_url(paths=paths), migrate=migrate), clock,
                   hooks=config.hooks if config is not None else None,
                   site_url=config.site.site_url if config is not None else None,
                   mail=config.mail if config is not None else None)

    def close(self) -> None:
        """Let go of the store's connections (the process is done with this gamesmaster)."""
        self.desk.close()
