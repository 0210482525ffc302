"""The gamesmaster: running a game from sign-up to the last season, on the record.

`Gamesmaster(store, clock)` is the one way in for every door (console commands, the web
site, e-mail, the live table); it returns the typed views of gm.views. A game's ledger
is its record: gm.fold says what each entry means, gm.verify replays and audits it.
See docs/gm.md for the GM's guide.

This package's namespace is everything a door may use (tests/test_layers.py holds the
doors to `from ..gm import X` with X in `__all__`): the service, its views, the values of
the game the views carry (rules' own types, defined once there), and the functions that
answer a door's question about the game, so that a rule is written once, here or below.
"""

from ..rules import (Build, Convoy, Disband, Dislodgement, Hold, Location, Move, Order, Phase, Position, Reading,
                     Remove, Retreat, RuleOptions, Support, Terrain, Unit, UnitOrder, UnitType, Variant, Waive)
from ..config import GM_CREDENTIAL as GM_CREDENTIAL_VARIABLE
from ..config import Config, ConfigError, Env, MailSettings, Paths, SiteSettings, TestHooks, hostport
from ..store import data_dir, default_url  # where games are kept, for the processes that open the store
from .analysis import MAX_BOARD_CHARS, Analysed, BoardError, analyse, fresh_board
from .archive import Document, export_game, import_game, import_sample, play_sample, read_document
from .backup import backup, restore
from .board import Board, drawn_png
from .bots import BotPolicy
from .catalogue import FixedRule, VariantChoice, choices, default_victory, players_line, power_named, rule_lines, rules_for, value_key
from .catalogue import variant as variant_named
from .club import LEAGUE_CHARS, SORTS, PlayerRecord, Reliability, SeatPlayer, SortKey, Standing
from .credentials import (VERIFIED, check_secret, fingerprint, hash_secret, is_key, is_token, new_secret,
                          split_credential)
from .errors import Forbidden, GMError, Limited, NotFound, Refused, StoreError
from .fates import BOUNCE, CUT, DISLODGED, DISRUPTED, NO_CONVOY, VOID, Fate, fates
from .games import GAME_ID
from .limits import BACKUP_BYTES, ORDERS_CHARS, bad_character
from .live import LABELS, LiveConfig, press_closed
from .mailroom import (MAIL_KEY_CHARS, AccountRecord, MailBooks, MailDeliveryRecord, MailKind, Mailroom, NoticeRecord,
                       OutboxRecord, game_address)
from .notices import KINDS, NoticeSettings
from .ratelimit import RateLimiter
from .ratings import SHOWN_AFTER, Rating
from ..ledger import Entry as LedgerEntry
from .reading import GameHead, History, parse_phase
from .rules_page import RuleLine, RulesPage, RunningLine, rules_page
from .record import verify_archive
from .report import (correction as report_correction, final as report_final, games as report_games,
                     history as report_history, phase_title, processed as report_processed, source_words,
                     standby_note, status as report_status, submission as report_submission,
                     undelivered as report_undelivered, verify as report_verify, warnings_and_conditional)
from .savedgame import describe as describe_import, export_saved_game, import_saved_game, is_saved_game
from .scoring import SYSTEMS, ScoringName, by_player, describe_scoring, score_board
from .service import Gamesmaster
from .settings import RuleSpec, Schedule, Settings, end_setting, parse_duration, parse_movement, parse_time, show_time
from .standings import Line
from .state import GM, Dispute, Ending, Proposal, Seat
from .submissions import legal_orders_in, read_order
from .table import LiveTable
from .webhooks import WebhookStatus, read_warnings
from .rooms import NotCommanded, acting_power
from .views import (AS_DOCUMENT, AS_RECORD, GM_SEAT, NOT_WRITTEN, OMIT_NONE, Answer, AwaitingGM, CentreChart,
                    ChartSeries, Checking, CommandedPower, Correction, Created, GMRoom, GameHistory, GamePage, GameView,
                    LedgerHead, LegalOrders, OrderOption, OrderResult, OrdersOnRecord, OrdersSource, OrdersUsed,
                    PhaseLink, PhaseRecord, PhaseResult, PowerResults, PowerStatus, PressItem, Processed, ProposalShown,
                    PublishedPhase, QuestionAnswer, QuestionView, Receipt, ReceiptCheck, RecordAnswered, RecordEntry,
                    SeatView, Submission, UnitOptions, VerifyReport, WarRoom, plain, plain_object)
from .worker import run as run_worker

__all__ = [
    # the settings, read once from the environment (gamesmaster.config)
    "GM_CREDENTIAL_VARIABLE", "Config", "ConfigError", "Env", "MailSettings", "Paths", "SiteSettings", "TestHooks",
    "hostport",
    # the service, its errors and where its store is kept
    "Gamesmaster", "GMError", "Forbidden", "Limited", "NotFound", "Refused", "StoreError", "data_dir", "default_url",
    # the views it answers with
    "Answer", "Checking", "Correction", "Created", "GameView", "LedgerHead", "LegalOrders", "OrderResult",
    "OrdersOnRecord", "PhaseRecord", "PhaseResult", "PowerStatus", "PressItem", "Processed", "QuestionAnswer",
    "QuestionView", "SeatView", "GM_SEAT", "ProposalShown", "Receipt", "ReceiptCheck", "RecordEntry", "Submission", "VerifyReport",
    "plain", "plain_object", "LedgerEntry", "WarRoom", "GMRoom", "GamePage", "RecordAnswered", "CommandedPower",
    "UnitOptions", "OrderOption", "CentreChart", "ChartSeries", "NotCommanded", "acting_power", "NOT_WRITTEN",
    "OMIT_NONE", "AS_RECORD", "AS_DOCUMENT", "OrdersSource", "PowerResults", "PublishedPhase", "GameHistory",
    "PhaseLink", "History", "WebhookStatus", "read_warnings", "VariantChoice", "AwaitingGM", "OrdersUsed", "RulesPage", "RuleLine",
    "RunningLine", "FixedRule", "rules_page",
    "GM", "Seat", "Dispute", "Ending", "Proposal", "GameHead", "Board", "Fate", "Analysed", "LiveConfig", "LABELS",
    "PlayerRecord", "Reliability", "SeatPlayer", "Standing", "Rating", "Line", "NoticeSettings", "BotPolicy",
    # the game's values the views carry (rules' types)
    "Build", "Convoy", "Disband", "Dislodgement", "Hold", "Location", "Move", "Order", "Phase", "Position", "Reading", "Remove",
    "Retreat", "RuleOptions", "Support", "Terrain", "Unit", "UnitOrder", "UnitType", "Variant", "Waive",
    # the game's settings, and reading what a GM or player writes for them
    "RuleSpec", "Schedule", "Settings", "ScoringName", "SYSTEMS", "SORTS", "SortKey", "KINDS", "GAME_ID",
    "end_setting", "parse_duration", "parse_movement", "parse_time", "show_time", "parse_phase", "phase_title",
    "source_words", "describe_scoring", "by_player", "score_board", "choices", "rule_lines", "rules_for",
    "value_key", "variant_named", "players_line", "default_victory", "power_named",
    # the questions a door asks of the game
    "read_order", "legal_orders_in", "fates", "BOUNCE", "CUT", "DISLODGED", "DISRUPTED", "NO_CONVOY", "VOID",
    "analyse", "fresh_board", "BoardError", "drawn_png", "press_closed", "LiveTable", "SHOWN_AFTER",
    # credentials, limits and the mail door's books
    "VERIFIED", "check_secret", "fingerprint", "hash_secret", "is_key", "is_token", "new_secret", "split_credential",
    "RateLimiter", "MAX_BOARD_CHARS", "LEAGUE_CHARS", "ORDERS_CHARS", "BACKUP_BYTES", "bad_character",
    "Mailroom", "MailBooks", "MAIL_KEY_CHARS", "AccountRecord", "NoticeRecord", "OutboxRecord", "game_address", "MailDeliveryRecord",
    "MailKind",
    # the console's words for the views
    "report_correction", "report_final", "report_games", "report_history", "report_processed", "report_status",
    "report_submission", "report_undelivered", "report_verify", "standby_note", "warnings_and_conditional",
    # whole games in and out, and the worker
    "Document", "read_document", "export_game", "import_game", "import_sample", "play_sample", "verify_archive",
    "backup", "restore", "describe_import", "export_saved_game", "import_saved_game", "is_saved_game", "run_worker",
]
