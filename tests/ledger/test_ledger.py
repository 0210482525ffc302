"""The ledger's hashing and chain checking, without a database."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest

from gamesmaster.ledger import (GENESIS, Entry, canonical, check_chain, entry_hash, orders_hash, parse_receipt,
                                parse_stamp, receipt_text, stamp)

T = datetime(2024, 5, 7, 21, 0, tzinfo=timezone.utc)


def chain(n: int) -> list[Entry]:
    out: list[Entry] = []
    for i in range(n):
        out.append(Entry.make(out[-1] if out else None, "orders-submitted", {"i": i, "orders": ["A Par-Bur"]}, T))
    return out


def test_canonical_is_sorted_and_compact():
    assert canonical({"b": 1, "a": [1, "é"]}) == '{"a":[1,"é"],"b":1}'


def test_stamp_round_trip_and_needs_a_zone():
    assert stamp(T) == "2024-05-07T21:00:00.000000Z"
    assert parse_stamp(stamp(T)) == T
    with pytest.raises(ValueError):
        stamp(datetime(2024, 1, 1))


def test_entries_link_and_hash():
    entries = chain(3)
    assert entries[0].prev_hash == GENESIS and entries[0].seq == 1
    assert entries[1].prev_hash == entries[0].hash
    e = entries[2]
    assert e.hash == entry_hash(e.prev_hash, e.seq, e.kind, e.at, e.payload_text)
    assert check_chain(entries) == []


def test_changed_payload_is_found():
    entries = chain(3)
    entries[1] = replace(entries[1], payload_text=entries[1].payload_text.replace("Bur", "Pic"))
    problems = check_chain(entries)
    assert [p.seq for p in problems] == [2]
    assert "altered" in str(problems[0])


def test_missing_and_reordered_entries_are_found():
    entries = chain(4)
    gap = check_chain(entries[:1] + entries[2:])
    assert gap[0].seq == 3 and "entry 2 missing" in gap[0].message
    swapped = check_chain([entries[0], entries[2], entries[1], entries[3]])
    assert {p.seq for p in swapped} >= {2, 3}


def test_orders_hash_depends_on_every_order_and_the_conditional_part():
    base = orders_hash("S1901M", "FRANCE", ["A Par-Bur"])
    assert base != orders_hash("S1901M", "FRANCE", ["A Par-Pic"])
    assert base != orders_hash("F1901M", "FRANCE", ["A Par-Bur"])
    assert base != orders_hash("S1901M", "FRANCE", ["A Par-Bur"], "if A Par - Bur succeeds: A Bur H")


def test_receipt_text_round_trip():
    text = receipt_text("club", 14, "a" * 64, "b" * 64)
    assert parse_receipt(text) == ("club", 14, "a" * 64, "b" * 64)
    with pytest.raises(ValueError):
        parse_receipt("nonsense")
