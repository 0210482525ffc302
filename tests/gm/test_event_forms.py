"""An event built in code is the event its ledger entry reads back as: equal, alike in every type and key order,
writing the same bytes. `Transaction.record` folds the event it is given (it no longer reads the entry back), so
this is what keeps the state a change leaves the state every later fold of the ledger makes.

Every class in EVENTS is built from generated values of each field's type in the forms code hands over (lists
for tuples, words for kinds, kinds in text fields, mappings with their keys out of order, nested values of every
form), and every event the played games record is checked as production code built it."""

from __future__ import annotations

import types
from collections import abc
from dataclasses import fields
from datetime import datetime, timezone
from enum import Enum
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest

from eventforms import read_back_differs, unlike
from gamesmaster.gm import Gamesmaster
from gamesmaster.gm.archive import play_sample
from gamesmaster.gm.events import (ABSENT, EVENTS, Absent, DrawVote, EndingKind, Event, EventError, LiveChanged,
                                   Paused, Payload, PhaseOpened, Press, ResultKind, ResultLine,
                                   parse_payload)
from gamesmaster.gm.tx import Transaction
from gamesmaster.ledger import Entry, JSONValue

NOW = datetime(2030, 1, 7, 12, tzinfo=timezone.utc)


def examples(hint: Any) -> list[Any]:
    """Values of a field's type in the forms code may build them, each to be normalised on construction."""
    origin = get_origin(hint)
    if hint is Any or hint is object or hint == JSONValue:  # JSON of any form: tuples, kinds, keys out of order inside
        return [{"b": (1, 2.5, None), "a": {"d": ResultKind.FAILS, "c": [True, "x"]}}, ("x", EndingKind.DRAW), "text", 3]
    if hint is str:
        return ["Paris", EndingKind.VICTORY]  # a kind handed to a text field is written, and read, as its word
    if hint is bool:
        return [True, False]
    if hint is int:
        return [7, 0]
    if hint is float:
        return [2.5, 3]  # a whole number stays one
    if hint is type(None):
        return [None]
    if origin is Union or origin is types.UnionType:
        return [value for option in get_args(hint) if option is not Absent for value in examples(option)]
    if isinstance(hint, type) and issubclass(hint, ResultLine):
        built = ResultLine(power="FRANCE", text="A Par-Bur", order="A PAR - BUR", result="succeeds",  # type: ignore[arg-type]
                           reason="moved", notes=["read it"])  # type: ignore[arg-type]
        return [built, built.to_payload()]
    if isinstance(hint, type) and issubclass(hint, Enum):
        first = next(iter(hint))
        return [first.value, first]  # a kind given as its word is read as the kind
    if origin in (tuple, abc.Sequence):
        items = examples(get_args(hint)[0])
        return [list(items), tuple(reversed(items)), []]
    if origin in (dict, abc.Mapping):
        values = examples(get_args(hint)[1])
        return [{"b": values[0], "a": values[-1], EndingKind.DRAW: values[0]}, {}]
    if origin is Literal:
        return list(get_args(hint))
    raise AssertionError(f"no examples of {hint!r}: give its type some above")


def built(cls: type[Event]) -> list[Event]:
    """Events of a class made from every example of each field (the n-th of each at once), optional fields left
    out as well as given."""
    hints = get_type_hints(cls)
    names = [f.name for f in fields(cls) if f.name != "more"]
    per_field = {name: examples(hints[name]) for name in names}
    made = []
    for n in range(max(len(v) for v in per_field.values())):
        kwargs = {name: values[n % len(values)] for name, values in per_field.items()}
        if cls.OPEN:
            kwargs["more"] = {"zeta": (1, 2), "alpha": {"y": EndingKind.DRAW, "x": None}}
        made.append(cls(**kwargs))
    optional = {f.name for f in fields(cls) if f.default is ABSENT}
    made.append(cls(**{name: values[0] for name, values in per_field.items() if name not in optional}))
    return made


def recorded(event: Event) -> Entry:
    """The entry record writes for an event (the first of a ledger: its kind and payload are what matter)."""
    return Entry.following(0, "", event.KIND.value, event.to_payload(), NOW)


@pytest.mark.parametrize("cls", EVENTS, ids=lambda c: c.__name__)
def test_every_event_class_built_in_code_is_the_event_its_entry_reads_back_as(cls):
    events = built(cls)
    assert len(events) >= 3
    for event in events:
        assert read_back_differs(event, recorded(event)) is None


@pytest.mark.parametrize("cls", EVENTS, ids=lambda c: c.__name__)
def test_an_event_class_that_kept_what_code_gave_it_would_be_caught(cls, monkeypatch):
    """The check above can fail: with normalising switched off, each class's built events differ from their entries."""
    monkeypatch.setattr(Payload, "__post_init__", lambda self: None)
    differences = [read_back_differs(event, recorded(event)) for event in built(cls)]
    assert any(differences), cls


def test_a_value_no_entry_could_read_back_is_refused_when_the_event_is_built():
    with pytest.raises(EventError, match="a draw-vote entry's 'proposal' is True, not a whole number"):
        DrawVote(proposal=True, power="FRANCE", yes=True, by="GM")
    with pytest.raises(EventError, match="a draw-vote entry's 'yes' is 1, not true or false"):
        DrawVote(proposal=1, power="FRANCE", yes=1, by="GM")  # type: ignore[arg-type]
    with pytest.raises(EventError, match="'remaining_seconds' holds <object .*, which JSON cannot hold"):
        Paused(phase="S1901M", remaining_seconds=object(), reason="")  # type: ignore[arg-type]
    with pytest.raises(EventError, match="a phase-opened entry lacks its 'phase': it is ABSENT"):
        PhaseOpened(phase=ABSENT, deadline=None)  # type: ignore[arg-type]
    with pytest.raises(EventError, match="a result's 'result' is 'won', not one of"):
        ResultLine(power="FRANCE", text="", order=None, result="won", reason="")  # type: ignore[arg-type]
    with pytest.raises(EventError, match="a live entry's more is .*, not an object of keys other than its fields'"):
        LiveChanged(action="start", phase=None, state={}, more={"phase": "S1901M"})


def test_an_event_built_in_code_holds_what_the_ledger_gives():
    press = Press(sender="FRANCE", to=["GERMANY"], anonymous=False, text="Hello", phase="S1901M",  # type: ignore[arg-type]
                  by={"power": "FRANCE", "proof": {"use": 2, "key": ("k", 1)}})
    assert press.to == ("GERMANY",)
    assert list(press.by) == ["power", "proof"] and press.by["proof"] == {"key": ["k", 1], "use": 2}
    assert list(press.by["proof"]) == ["key", "use"]  # keys in the order the canonical payload has them
    line = ResultLine(power="FRANCE", text="", order=None, result="fails", reason="", notes=["x"])  # type: ignore[arg-type]
    assert line.result is ResultKind.FAILS and line.notes == ("x",)
    assert unlike(line, ResultLine.from_payload(line.to_payload())) is None
    # a payload made in code is read as the JSON it writes (a forged entry, in a test of verify, is made so)
    made = parse_payload("key-added", {"player": 2, "key": {"salt": "s", "anchor": ("a", 1)}, "by": "GM"})
    assert list(made.key) == ["anchor", "salt"] and made.key["anchor"] == ["a", 1]
    assert read_back_differs(made, recorded(made)) is None


def _played(gm: Gamesmaster, monkeypatch) -> list[tuple[Event, Entry]]:
    """Every event recorded while the game is played, as its production call site built it, with its entry."""
    seen: list[tuple[Event, Entry]] = []
    record = Transaction.record

    def keep(tx: Transaction, event: Event) -> Entry:
        entry = record(tx, event)
        seen.append((event, entry))
        return entry
    monkeypatch.setattr(Transaction, "record", keep)
    return seen


def test_every_event_the_played_games_record_is_the_event_its_entry_reads_back_as(sqlite_store, clock, monkeypatch):
    from test_events import _many_kinds
    gm = Gamesmaster(sqlite_store, clock)
    seen = _played(gm, monkeypatch)
    play_sample(gm)
    _many_kinds(gm)
    for event, entry in seen:
        assert read_back_differs(event, entry) is None
    classes = {type(event) for event, _ in seen}
    assert len(classes) >= 32, sorted(c.__name__ for c in classes)
