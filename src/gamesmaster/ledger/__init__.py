"""The ledger: an append-only chain of a game's events, each entry holding the hash of the last.

Pure functions only (no storage): the store keeps the entries, the gamesmaster writes
them, and `check_chain` walks a list of them and names every entry that does not hold.

An entry's hash is SHA-256 over, one per line: the previous entry's hash, the entry's
sequence number, its kind, its time (ISO 8601 UTC, as stored) and its payload as
canonical JSON (sorted keys, no spaces, UTF-8). The first entry's previous hash is 64
zeros. A player's receipt names an entry (by sequence number and hash) and the hash of
the orders it records, so the player can later show what was sent and when.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping, Sequence

GENESIS = "0" * 64


def canonical(payload: Any) -> str:
    """The one written form of a JSON value: sorted keys, no spaces, UTF-8 as it is."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def sha256(text: str) -> str:
    """The hex SHA-256 of a text's UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stamp(when: datetime) -> str:
    """A time as the ledger writes it: UTC, microseconds, 'Z' ('2024-05-07T21:00:00.000000Z')."""
    if when.tzinfo is None:
        raise ValueError("ledger times must be timezone-aware")
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_stamp(text: str) -> datetime:
    """Read a ledger time back as an aware UTC datetime."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def entry_hash(prev_hash: str, seq: int, kind: str, at: str, payload_text: str) -> str:
    """The hash of an entry, from its fields as stored."""
    return sha256("\n".join((prev_hash, str(seq), kind, at, payload_text)))


def orders_hash(phase: str, power: str, orders: Sequence[str], conditional: str | None = None) -> str:
    """The hash of one power's set of orders for a phase (what a receipt proves)."""
    doc: dict[str, Any] = {"phase": phase, "power": power, "orders": list(orders)}
    if conditional:
        doc["conditional"] = conditional
    return sha256(canonical(doc))


@dataclass(frozen=True)
class Entry:
    """One ledger entry as stored."""

    seq: int
    at: str
    kind: str
    payload_text: str
    prev_hash: str
    hash: str

    @property
    def payload(self) -> Any:
        """The payload as a JSON value."""
        return json.loads(self.payload_text)

    @classmethod
    def make(cls, prev: "Entry | None", kind: str, payload: Any, when: datetime) -> "Entry":
        """The entry that follows prev (None: the first) with this kind, payload and time."""
        seq = prev.seq + 1 if prev else 1
        prev_hash = prev.hash if prev else GENESIS
        at = stamp(when)
        text = canonical(payload)
        return cls(seq, at, kind, text, prev_hash, entry_hash(prev_hash, seq, kind, at, text))

    def as_dict(self) -> dict[str, Any]:
        """The entry for an archive: every stored field."""
        return {"seq": self.seq, "at": self.at, "kind": self.kind, "payload": self.payload_text,
                "prev_hash": self.prev_hash, "hash": self.hash}

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> "Entry":
        """An entry from an archive (as_dict's form)."""
        payload = doc["payload"]
        if not isinstance(payload, str):
            payload = canonical(payload)
        return cls(int(doc["seq"]), str(doc["at"]), str(doc["kind"]), payload, str(doc["prev_hash"]), str(doc["hash"]))


@dataclass(frozen=True)
class Problem:
    """An entry that does not hold, and why."""

    seq: int
    message: str

    def __str__(self) -> str:
        return f"ledger entry {self.seq}: {self.message}"


def check_chain(entries: Iterable[Entry]) -> list[Problem]:
    """Every break in a chain: a gap or repeat in the numbering, a wrong link, a wrong hash."""
    problems: list[Problem] = []
    prev: Entry | None = None
    expected = 1
    for entry in entries:
        if entry.seq != expected:
            if entry.seq > expected:
                missing = f"entry {expected}" if entry.seq == expected + 1 else f"entries {expected}-{entry.seq - 1}"
                problems.append(Problem(entry.seq, f"{missing} missing: the chain jumps from {expected - 1} to {entry.seq}"))
            else:
                problems.append(Problem(entry.seq, f"out of order: comes after entry {expected - 1}"))
        want_prev = prev.hash if prev else GENESIS
        if entry.prev_hash != want_prev:
            problems.append(Problem(entry.seq, "does not link to the entry before it (its previous-hash is "
                                    f"{entry.prev_hash[:12]}..., the entry before hashes to {want_prev[:12]}...)"))
        try:
            json.loads(entry.payload_text)
            canonical_ok = canonical(json.loads(entry.payload_text)) == entry.payload_text
        except ValueError:
            canonical_ok = False
        if not canonical_ok:
            problems.append(Problem(entry.seq, "its payload is not canonical JSON: it was edited"))
        recomputed = entry_hash(entry.prev_hash, entry.seq, entry.kind, entry.at, entry.payload_text)
        if recomputed != entry.hash:
            problems.append(Problem(entry.seq, f"its contents do not match its hash ({entry.kind}): the entry was altered"))
        prev = entry
        expected = max(expected, entry.seq) + 1
    return problems


def receipt_text(game: str, seq: int, entry_hash_: str, orders_hash_: str) -> str:
    """A receipt in one line: 'GAME#SEQ:ENTRYHASH:ORDERSHASH'."""
    return f"{game}#{seq}:{entry_hash_}:{orders_hash_}"


def parse_receipt(text: str) -> tuple[str, int, str, str]:
    """Read a receipt line back: (game, seq, entry hash, orders hash)."""
    try:
        head, entry_h, orders_h = text.strip().rsplit(":", 2)
        game, seq = head.rsplit("#", 1)
        return game, int(seq), entry_h.lower(), orders_h.lower()
    except ValueError:
        raise ValueError(f"not a receipt: {text!r} (expected GAME#SEQ:ENTRYHASH:ORDERSHASH)") from None
