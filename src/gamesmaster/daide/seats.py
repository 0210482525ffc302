"""Who a DAIDE connection is: a bot's seat at the table, its passcode, and the orders it has given this phase.

DAIDE adds orders (`SUB`) a few at a time and keeps each until it is replaced, where the
gamesmaster takes each submission as a power's complete set. A `Seated` bot therefore
keeps its `book`: the orders the gamesmaster accepted from it this phase, by unit; each
`SUB` changes the book and the whole book is submitted. The passcode is the one `HLO`
gives the bot, with which `IAM` reconnects it from the address it played from; it lives
only as long as this door process. The seat's credential is its real key: `NME` with it
takes the seat back from anywhere, after a restart too.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field

from .board import Written

# A credential written into a bot's name or version string: NUMBER.SECRET (gm.credentials).
CREDENTIAL = re.compile(r"(?<![\w.])(\d{1,6}\.[A-Za-z0-9_-]{16,64})(?![\w.])")
MAX_NAME = 60


def new_passcode() -> int:
    """A passcode for IAM: a random DAIDE integer (1..8191)."""
    return 1 + secrets.randbelow(8191)


def credential_in(*texts: str) -> tuple[str | None, str]:
    """A credential found in the texts, and the first text without it (the bot's own name)."""
    found = None
    cleaned = []
    for t in texts:
        m = CREDENTIAL.search(t)
        if m and found is None:
            found = m.group(1)
            t = (t[:m.start()] + t[m.end():])
        cleaned.append(" ".join(t.split()))
    name = (cleaned[0] if cleaned else "")[:MAX_NAME] or "bot"
    return found, name


@dataclass
class Seated:
    """A bot's seat: the power it orders for, the credential it orders with, and its book of orders."""

    number: int  # the seat's player number in the game
    name: str  # the seat's name on the record
    credential: str
    power: str | None  # None until a forming game's lot is drawn
    role: str  # player or standby
    passcode: int = field(default_factory=new_passcode)
    client: object | None = None  # the connection playing it now (None while disconnected)
    book: dict[str, Written] = field(default_factory=dict)
    book_phase: str | None = None
    due: int | None = None  # builds (>0) or removals (<0) due this adjustment phase, once asked
    go: bool = True  # DAIDE's go flag: complete orders mark the power ready unless the bot said NOT (GOF)
    loaded: str | None = None  # the phase whose orders on record were read into the book
    version: str = ""  # the bot's version, as it gave it (for the summary at the end)
    bot: str = ""  # the bot's name, as it gave it in NME (the summary names the power's player by it)
    receipt: str | None = None  # the receipt of the set last submitted, until the bot is told it
    instead_of: str | None = None  # a stand-by's: the player it stands in for (another player means a replacement)
    home: str | None = None  # the address its bot last played from: the only one IAM takes the seat from
    issued: bool = False  # the door made the seat (and its credential): the bot is told the credential once

    def book_for(self, phase: str) -> dict[str, Written]:
        """The book for a phase (a new phase starts an empty one)."""
        if self.book_phase != phase:
            self.book, self.book_phase, self.due, self.go = {}, phase, None, True
        return self.book
