"""What may go into a header of a mail the gamesmaster sends, when any of it came from a mail received.

A received mail's headers are hostile until shown otherwise: a Message-ID, a Subject or
an address can carry a line break, or an RFC 2047 encoded word that the mail library
decodes into one when it writes the header out again, and so add headers (a Reply-To)
or text of the sender's choosing to the gamesmaster's answer. Everything taken from a
received mail into an answer goes through these functions: a message id or an address
is used only if it is of the plain, strict form, and a subject is reduced to one line of
printable text with no encoded word left in it.
"""

from __future__ import annotations

import re

_MSG_ID = re.compile(r"^<[\x21-\x3b\x3d\x3f-\x7e]{1,244}>$")  # printable ASCII, no space, no < or >
_ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.\-]{0,251}[A-Za-z0-9])?$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0080-\u009f\u2028\u2029\ud800-\udfff]")
SUBJECT_CHARS = 200


def message_id(value: str | None) -> str | None:
    """A received Message-ID fit to quote in In-Reply-To and References, or None."""
    if not value:
        return None
    value = value.strip()
    if not _MSG_ID.match(value) or "=?" in value or value.count("@") > 1:
        return None
    return value


def message_ids(value: str | None) -> list[str]:
    """The message ids an In-Reply-To or References header names (at most 20, each fit to quote)."""
    found = re.findall(r"<[^<>\s]{1,244}>", value or "")[-20:]
    return [m for m in (message_id(x) for x in found) if m]


_RESULTS_ID = re.compile(r"^<results\.([a-z0-9_\-]{1,64})\.(\d{1,12})\.[0-9a-f]{1,32}@[^<>]*>$")


def results_idstring(game: str, seq: int) -> str:
    """What a results mail's Message-ID carries: the game and the ledger entry of the results."""
    return f"results.{game}.{seq}"


def results_answered(ids: list[str], game: str) -> int | None:
    """The ledger entry of the latest results of this game a mail answers (by In-Reply-To or References)."""
    seqs = [int(m.group(2)) for m in (_RESULTS_ID.match(x) for x in ids) if m and m.group(1) == game]
    return max(seqs) if seqs else None


REFERENCES_KEPT = 8  # of a long thread: its first message and the latest ones


def references(value: str | None, in_reply_to: str | None = None) -> tuple[str, ...]:
    """The thread a received mail belongs to (its References, or else its In-Reply-To), as message ids fit to
    quote: each checked as `message_id` is (any other is left out), the first and the latest kept."""
    ids = [m for m in (message_id(t) for t in (value or "")[:20_000].split()) if m]
    if not ids:
        parent = message_id(in_reply_to)
        ids = [parent] if parent else []
    ids = list(dict.fromkeys(ids))
    if len(ids) > REFERENCES_KEPT:
        ids = ids[:1] + ids[-(REFERENCES_KEPT - 1):]
    return tuple(ids)


def address(value: str | None) -> str | None:
    """A plain mailbox address (local@domain, ASCII, no encoded word), or None."""
    if not value:
        return None
    value = value.strip()
    if len(value) > 254 or "=?" in value or not _ADDRESS.match(value):
        return None
    return value


def subject(value: str | None) -> str:
    """A subject as one line of printable text, no encoded word in it, at most SUBJECT_CHARS characters."""
    text = _CONTROL.sub(" ", value or "")
    text = " ".join(text.split())
    while "=?" in text:  # an encoded word would be decoded again when the header is written
        text = text.replace("=?", "= ?")
    return text[:SUBJECT_CHARS]


def safe(value: str) -> bool:
    """Whether a header value as written out holds no line break or control character."""
    return not _CONTROL.search(value)
