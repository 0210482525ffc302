"""What tells an event built in code from the one the ledger gives back for it.

`Transaction.record` folds the event it was given, not its entry read back: every event class
normalises itself on construction (gm.events). These checks hold it to that, in
tests/gm/test_event_forms.py and, through tests/conftest.py, on every event any test records.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from gamesmaster.gm.events import Event, parse_event
from gamesmaster.ledger import Entry, canonical


def unlike(built: Any, read: Any, where: str = "the event") -> str | None:
    """Where two values differ in anything a fold could tell apart: a type, a value, a key's place; None if nowhere."""
    if type(built) is not type(read):
        return (f"{where}: {type(built).__name__} {built!r} was built, the ledger gives "
                f"{type(read).__name__} {read!r}")
    if isinstance(built, dict):
        if list(built) != list(read):
            return f"{where}: keys {list(built)} were built, the ledger gives them as {list(read)}"
        return next((d for k in built if (d := unlike(built[k], read[k], f"{where}[{k!r}]"))), None)
    if isinstance(built, (list, tuple)):
        if len(built) != len(read):
            return f"{where}: {len(built)} items were built, the ledger gives {len(read)}"
        return next((d for n, (b, r) in enumerate(zip(built, read)) if (d := unlike(b, r, f"{where}[{n}]"))), None)
    if is_dataclass(built):
        return next((d for f in fields(built)
                     if (d := unlike(getattr(built, f.name), getattr(read, f.name), f"{where}.{f.name}"))), None)
    if built != read:
        return f"{where}: {built!r} was built, the ledger gives {read!r}"
    return None


def read_back_differs(event: Event, entry: Entry) -> str | None:
    """How the event recorded as this entry differs from the event the entry reads back as (None: it does not)."""
    back = parse_event(entry)
    if canonical(back.to_payload()) != entry.payload_text:
        return f"{type(event).__name__} read back writes other bytes than its entry holds"
    difference = unlike(event, back, type(event).__name__)
    if difference is None and event != back:  # unlike looks at everything == does: this would be a hole in it
        return f"{type(event).__name__}: built and read back are not equal, though alike in every part"
    return difference
