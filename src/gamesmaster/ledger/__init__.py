"""The ledger: an append-only chain of a game's events, each entry holding the hash of the last.

Pure functions only (no storage): the store keeps the entries, the gamesmaster writes
them, and `check_chain` walks a list of them and names every entry that does not hold.

An entry's hash is SHA-256 over, one per line: the previous entry's hash, the entry's
sequence number, its kind, its time (ISO 8601 UTC, as stored) and the SHA-256 of its
payload as canonical JSON (sorted keys, no spaces, UTF-8). Hashing the payload's digest
rather than the payload lets a public copy of the ledger seal an entry that must stay
private (a letter between two powers) and still be checked link by link: the sealed
entry shows its payload's digest instead of the payload. The first entry's previous
hash is 64 zeros.

A submission of orders is committed to by `commitment`: the hash of the phase, the
power, the power's own submission number, the orders and a random salt. While a phase
is open everyone may see each power's commitment, and the power holds a receipt
(`Receipt`: game, phase, power, number, commitment) that names nothing of anyone
else's activity; once the phase is published the submission's payload, salt included,
is public, so anyone can recompute the commitment and find it in the chain.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping, Sequence

GENESIS = "0" * 64

# A JSON value, as the ledger's payloads and the documents made from them hold them.
JSONValue = None | bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"]
JSONObject = dict[str, JSONValue]
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


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


def entry_hash(prev_hash: str, seq: int, kind: str, at: str, payload_digest: str) -> str:
    """The hash of an entry, from its fields as stored and its payload's digest."""
    return sha256("\n".join((prev_hash, str(seq), kind, at, payload_digest)))


def new_salt() -> str:
    """A fresh random salt (32 hex digits) that keeps a committed text from being guessed."""
    return secrets.token_hex(16)


def commitment(phase: str, power: str, number: int, orders: Sequence[str], conditional: str | None, salt: str) -> str:
    """The hash a power commits to with its submission number `number` of a phase."""
    return sha256(canonical({"phase": phase, "power": power, "number": number, "orders": list(orders),
                             "conditional": conditional, "salt": salt}))


def fingerprint(stored_hash: str) -> str:
    """What the ledger records of a credential: the hash of its stored (salted, slow) hash."""
    return sha256("credential\n" + stored_hash)


@dataclass(frozen=True)
class Entry:
    """One ledger entry as stored; `payload_text` is None in a public copy that seals it."""

    seq: int
    at: str
    kind: str
    payload_text: str | None
    prev_hash: str
    hash: str
    sealed_digest: str | None = None  # a sealed entry's payload digest (payload_text is then None)

    @property
    def sealed(self) -> bool:
        """True when this copy of the entry holds only its payload's digest."""
        return self.payload_text is None

    @property
    def payload_digest(self) -> str:
        """The SHA-256 of the canonical payload (what the entry's hash covers)."""
        if self.payload_text is not None:
            return sha256(self.payload_text)
        assert self.sealed_digest is not None  # every way an entry is made gives it its text or its digest
        return self.sealed_digest

    @property
    def payload(self) -> Any:
        """The payload as a JSON value (None for a sealed entry)."""
        return None if self.payload_text is None else json.loads(self.payload_text)

    @classmethod
    def make(cls, prev: "Entry | None", kind: str, payload: Any, when: datetime) -> "Entry":
        """The entry that follows prev (None: the first) with this kind, payload and time."""
        return cls.following(prev.seq if prev else 0, prev.hash if prev else GENESIS, kind, payload, when)

    @classmethod
    def following(cls, head_seq: int, head_hash: str, kind: str, payload: Any, when: datetime) -> "Entry":
        """The entry after the one numbered head_seq with hash head_hash (0 and GENESIS: the first)."""
        seq = head_seq + 1
        prev_hash = head_hash if head_seq else GENESIS
        at = stamp(when)
        text = canonical(payload)
        return cls(seq, at, kind, text, prev_hash, entry_hash(prev_hash, seq, kind, at, sha256(text)))

    def seal(self) -> "Entry":
        """This entry with its payload replaced by its digest (for a public copy)."""
        return Entry(self.seq, self.at, self.kind, None, self.prev_hash, self.hash, self.payload_digest)

    def as_dict(self) -> JSONObject:
        """The entry for an archive: every stored field (a sealed one: the digest for the payload)."""
        doc: JSONObject = {"seq": self.seq, "at": self.at, "kind": self.kind, "prev_hash": self.prev_hash,
                                     "hash": self.hash}
        if self.payload_text is None:
            doc["payload_sha256"] = self.payload_digest
        else:
            doc["payload"] = self.payload_text
        return doc

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> "Entry":
        """An entry from an archive (as_dict's form); ValueError names what is missing or wrong."""
        try:
            seq = doc["seq"]
            if not isinstance(seq, int) or isinstance(seq, bool):
                raise ValueError(f"seq {seq!r} is not a whole number")
            fields = {k: doc[k] for k in ("at", "kind", "prev_hash", "hash")}
        except KeyError as exc:
            raise ValueError(f"an entry lacks its {exc.args[0]!r}") from None
        for key, value in fields.items():
            if not isinstance(value, str):
                raise ValueError(f"entry {seq}: {key} is not text")
        if "payload" in doc:
            payload = doc["payload"]
            if not isinstance(payload, str):  # written out as JSON: its canonical text (the hash says if it holds)
                try:
                    payload = canonical(payload)
                except (TypeError, ValueError):
                    raise ValueError(f"entry {seq}: its payload is not JSON") from None
            return cls(seq, fields["at"], fields["kind"], payload, fields["prev_hash"], fields["hash"])
        digest = doc.get("payload_sha256")
        if not isinstance(digest, str) or not _HEX64.match(digest):
            raise ValueError(f"entry {seq}: neither a payload nor a payload digest")
        return cls(seq, fields["at"], fields["kind"], None, fields["prev_hash"], fields["hash"], digest)


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
        if entry.payload_text is not None and not _is_canonical(entry.payload_text):
            problems.append(Problem(entry.seq, "its payload is not canonical JSON: it was edited"))
        recomputed = entry_hash(entry.prev_hash, entry.seq, entry.kind, entry.at, entry.payload_digest)
        if recomputed != entry.hash:
            problems.append(Problem(entry.seq, f"its contents do not match its hash ({entry.kind}): the entry was altered"))
        prev = entry
        expected = max(expected, entry.seq) + 1
    return problems


def _is_canonical(text: str) -> bool:
    try:
        return canonical(json.loads(text)) == text
    except ValueError:
        return False


@dataclass(frozen=True)
class Receipt:
    """Proof of one submission, naming only the submitting power's own activity.

    Written 'GAME/PHASE/POWER/NUMBER:COMMITMENT' (e.g. 'club/S1901M/FRANCE/2:9f3a...'):
    the power's NUMBERth set of orders for PHASE, committed to by COMMITMENT.
    """

    game: str
    phase: str
    power: str
    number: int
    commitment: str

    def __str__(self) -> str:
        return f"{self.game}/{self.phase}/{self.power}/{self.number}:{self.commitment}"

    @classmethod
    def parse(cls, text: str) -> "Receipt":
        """Read a receipt back; ValueError says what a receipt looks like."""
        text = str(text).strip()
        if text[:8].lower() == "receipt:":  # pasted as the answers print it: "Receipt: club/S1901M/..."
            text = text[8:].strip()
        m = _RECEIPT.match(text) if len(text) < 400 else None
        if not m:
            raise ValueError(f"not a receipt: {str(text)[:80]!r} (a receipt reads GAME/PHASE/POWER/NUMBER:COMMITMENT, "
                             "e.g. club/S1901M/FRANCE/2:9f3a...)")
        # Game ids are lowercase: a capital is a phone keyboard's, not another game's.
        return cls(m.group(1).lower(), m.group(2).upper(), m.group(3).upper(), int(m.group(4)), m.group(5).lower())


_RECEIPT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_-]{0,63})/([SFWsfw]\d{1,5}[MRAmra])/([A-Za-z][A-Za-z_-]{0,31})/(\d{1,6})"
                      r":([0-9a-fA-F]{64})$")
