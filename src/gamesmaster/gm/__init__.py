"""The gamesmaster: running a game from sign-up to the last season, on the record.

`Gamesmaster(store, clock)` is the one way in for every door (console commands, the web
site, e-mail, the live table); it returns the typed views of gm.views. A game's ledger
is its record: gm.fold says what each entry means, gm.verify replays and audits it.
See docs/gm.md for the GM's guide.
"""

from ..config import GM_CREDENTIAL as GM_CREDENTIAL_VARIABLE
from ..config import Config, ConfigError, Env, MailSettings, Paths, SiteSettings, TestHooks, hostport
from ..store import data_dir, default_url  # where games are kept, for the processes that open the store
from .errors import Forbidden, GMError, NotFound, Refused, StoreError
from .service import Gamesmaster
from .settings import RuleSpec, Schedule, Settings
from .state import GM, Seat
from .views import (Answer, Checking, Correction, Created, GameView, LegalOrders, OrderResult, OrdersOnRecord,
                    PhaseRecord, PhaseResult, PowerStatus, PressItem, Processed, Receipt, ReceiptCheck, RecordEntry,
                    Submission, VerifyReport)

__all__ = ["GM_CREDENTIAL_VARIABLE", "Config", "ConfigError", "Env", "MailSettings", "Paths", "SiteSettings", "TestHooks", "hostport",
           "Gamesmaster", "GMError", "Forbidden", "NotFound", "Refused", "StoreError", "data_dir", "default_url",
           "RuleSpec", "Schedule", "Settings", "GM", "Seat",
           "Answer", "Checking", "Correction", "Created", "GameView", "LegalOrders", "OrderResult", "OrdersOnRecord",
           "PhaseRecord", "PhaseResult", "PowerStatus", "PressItem", "Processed", "Receipt", "ReceiptCheck",
           "RecordEntry", "Submission", "VerifyReport"]
