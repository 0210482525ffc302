"""How much the gamesmaster takes from anyone, and which characters: one rule for every door.

Every text that comes from outside (orders, press, names, titles, reasons) goes through
`clean`: it must fit its limit and hold no NUL, no other control character but tab and
line breaks, and no lone surrogate (which no database can store). The limits are the
same on SQLite and PostgreSQL, and each refusal names what was wrong.
"""

from __future__ import annotations

import re

from ..rules.conditional import pieces
from .errors import GMError

ORDERS_LINES = 300  # a set of orders, conditional parts included (a power has at most 34 units)
ORDERS_COUNT = 300  # orders and headings as the reader splits them (';' separates orders as a line break does)
ORDERS_CHARS = 30_000
PRESS_CHARS = 20_000
NAME_CHARS = 200  # a player's or a game's name
REASON_CHARS = 2_000  # a GM's reason, a correction's explanation
RECEIPT_CHARS = 300
DOCUMENT_BYTES = 16 * 1024 * 1024  # an archive, a saved game or a public record read in (a long game is 2-3 MB)
BACKUP_BYTES = 2 * 1024 * 1024 * 1024  # a whole site's backup

_BAD = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def clean(value: object, what: str, limit: int, *, lines: int | None = None) -> str:
    """A text taken from outside, checked: GMError names the problem (too long, a character refused)."""
    if not isinstance(value, str):
        raise GMError(f"{what} must be text")
    if len(value) > limit:
        raise GMError(f"{what} is too long: at most {limit:,} characters, this has {len(value):,}")
    kind = bad_character(value)
    if kind is not None:
        raise GMError(f"{what} holds {kind}: remove it and send again")
    if lines is not None and value.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1 > lines:
        raise GMError(f"{what} has too many lines: at most {lines}")
    return value


def bad_character(text: str) -> str | None:
    """The first character no text from outside may hold, named with its position (None if there is none)."""
    bad = _BAD.search(text)
    if bad is None:
        return None
    ch = bad.group(0)
    kind = ("a NUL character" if ch == "\x00" else
            "a character that is half of a UTF-16 pair (a lone surrogate)" if "\ud800" <= ch <= "\udfff" else
            f"the control character U+{ord(ch):04X}")
    return f"{kind} at position {bad.start() + 1}"


def orders_text(value: object) -> str:
    """A set of orders as sent: counted as the reader splits them, so ';' and CR count as line feeds do."""
    text = clean(value, "the orders", ORDERS_CHARS, lines=ORDERS_LINES)
    count = len(pieces(text))
    if count > ORDERS_COUNT:
        raise GMError(f"the orders hold too many orders: at most {ORDERS_COUNT} (one a line or separated by ';', "
                      f"headings included), these hold {count:,}")
    return text


def name(value: object, what: str = "a name") -> str:
    """A player's name or a game's title, its spaces tidied."""
    text = " ".join(clean(value, what, NAME_CHARS * 4).split())
    if len(text) > NAME_CHARS:
        raise GMError(f"{what} is too long: at most {NAME_CHARS} characters")
    return text


def reason(value: object, what: str = "the reason") -> str:
    """A GM's reason or note."""
    return clean(value, what, REASON_CHARS)
