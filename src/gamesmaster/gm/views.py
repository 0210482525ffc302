"""What the gamesmaster's calls return: plain values every door (console, web, mail) can show."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Answer:
    """The answer to one written order: accepted as the canonical order, or why not."""

    text: str
    status: str  # accepted, invalid
    order: str | None
    message: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Receipt:
    """Proof of a submission: the ledger entry that records it and the hash of the orders."""

    game: str
    seq: int
    entry_hash: str
    orders_hash: str

    def __str__(self) -> str:
        return f"{self.game}#{self.seq}:{self.entry_hash}:{self.orders_hash}"


@dataclass(frozen=True)
class Submission:
    """A power's orders as received: the answer order by order, the warnings and the receipt."""

    game: str
    phase: str
    phase_title: str
    power: str
    author: str  # player or standby
    channel: str
    entered_by: str
    answers: tuple[Answer, ...]
    warnings: tuple[str, ...]
    conditional: tuple[str, ...]  # one line per clause, as filed
    receipt: Receipt
    deadline: datetime | None
    deadline_text: str
    processed: tuple[str, ...] = ()  # phases processed early as a result

    def as_dict(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["receipt"] = str(self.receipt)
        doc["deadline"] = self.deadline.isoformat() if self.deadline else None
        return doc


@dataclass(frozen=True)
class Created:
    """A new game: its id and each player's credential (shown this once)."""

    game: str
    credentials: dict[str, str]  # player name -> credential
    powers: dict[str, str] = field(default_factory=dict)  # player name -> power, once drawn
    seed: int | None = None


@dataclass(frozen=True)
class Processed:
    """One phase adjudicated (or a deadline extended by the grace period)."""

    game: str
    phase: str
    action: str  # adjudicated, grace, waiting (for the GM to choose removals)
    next_phase: str | None
    deadline: datetime | None
    civil_disorder: tuple[str, ...] = ()
    ended: dict[str, Any] | None = None
    results: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class Correction:
    """A corrected phase: what changed."""

    game: str
    phase: str
    reason: str
    differences: tuple[str, ...]
    next_phase: str | None


@dataclass(frozen=True)
class VerifyReport:
    """What `verify` found: every problem, with the ledger entry it breaks."""

    game: str
    entries: int
    phases_replayed: int
    receipts_checked: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems
