"""The gamesmaster: every call that runs a game, from sign-up to the last season.

`Gamesmaster(store, clock)` is the one way in for every door (the console, the web site,
e-mail, the live table). Its parts each take one concern, and all stand on the same
`Transaction` (gm.tx): setting games up, taking orders, deadlines and adjudication,
corrections, press and votes, questions to the GM, replacement players, looking at games, the
record, players' accounts with their seats and notifications, and the mail door's books.
Nothing here knows which door a request came through except by the `channel` it is
given, which goes on the record.
"""

from __future__ import annotations

from .analysis import Analysis
from .board import Boards
from .bots import Bots
from .corrections import Corrections
from .deadlines import Deadlines
from .disputes import Disputes
from .games import Games
from .mailroom import MailDesk
from .notices import Notifications
from .players import Players
from .press import Press
from .questions import Questions
from .reading import Reading
from .record import Record
from .rooms import Rooms
from .sessions import Sessions
from .submissions import Submissions


class Gamesmaster(Games, Submissions, Deadlines, Corrections, Press, Questions, Players, Analysis, Boards, Reading, Record, Sessions,
                  Rooms, Bots, Notifications, MailDesk, Disputes):
    """Runs games kept in a Store; `clock` returns the time now (aware UTC), for tests a fake."""
