"""The gamesmaster: running a game from sign-up to the last season, on the record.

`Gamesmaster(store, clock)` is the one way in for every door (console commands, and
later the web site and e-mail). See docs/gm.md for the GM's guide.
"""

from .errors import Forbidden, GMError, NotFound, Refused
from .service import Gamesmaster, answer_orders, concerned_powers
from .settings import Schedule, Settings
from .views import Answer, Correction, Created, Processed, Receipt, Submission, VerifyReport

__all__ = ["Gamesmaster", "GMError", "Forbidden", "NotFound", "Refused", "Schedule", "Settings", "Answer",
           "Correction", "Created", "Processed", "Receipt", "Submission", "VerifyReport", "answer_orders",
           "concerned_powers"]
