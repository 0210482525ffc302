"""The ledger's hashing and chain checking, without a database."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest

from gamesmaster.ledger import (GENESIS, Entry, Receipt, canonical, check_chain, commitment, entry_hash, parse_stamp,
                                sha256, stamp)

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
    assert e.hash == entry_hash(e.prev_hash, e.seq, e.kind, e.at, sha256(e.payload_text))
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


def test_a_commitment_depends_on_every_part_and_the_salt():
    base = commitment("S1901M", "FRANCE", 1, ["A Par-Bur"], None, "00")
    assert base != commitment("S1901M", "FRANCE", 1, ["A Par-Pic"], None, "00")
    assert base != commitment("F1901M", "FRANCE", 1, ["A Par-Bur"], None, "00")
    assert base != commitment("S1901M", "FRANCE", 2, ["A Par-Bur"], None, "00")
    assert base != commitment("S1901M", "FRANCE", 1, ["A Par-Bur"], "if A Par - Bur succeeds: A Bur H", "00")
    assert base != commitment("S1901M", "FRANCE", 1, ["A Par-Bur"], None, "01")


def test_receipt_text_round_trip():
    text = str(Receipt("club", "S1901M", "FRANCE", 2, "b" * 64))
    assert text == "club/S1901M/FRANCE/2:" + "b" * 64
    assert Receipt.parse(text) == Receipt("club", "S1901M", "FRANCE", 2, "b" * 64)
    assert Receipt.parse("  club/s1901m/france/2:" + "B" * 64) == Receipt("club", "S1901M", "FRANCE", 2, "b" * 64)
    for bad in ("nonsense", "club#14:" + "a" * 64 + ":" + "b" * 64, "club/S1901M/FRANCE/x:" + "b" * 64,
                "club/S1901M/FRANCE/2:" + "b" * 63, "x" * 500):
        with pytest.raises(ValueError, match="not a receipt"):
            Receipt.parse(bad)


def test_a_sealed_entry_still_links_and_hashes():
    entries = chain(4)
    sealed = [entries[0], entries[1].seal(), entries[2], entries[3]]
    assert sealed[1].payload is None and sealed[1].payload_digest == sha256(entries[1].payload_text)
    assert check_chain(sealed) == []
    doc = sealed[1].as_dict()
    assert "payload" not in doc and doc["payload_sha256"] == sha256(entries[1].payload_text)
    assert Entry.from_dict(doc) == sealed[1]
    forged = Entry.from_dict({**doc, "payload_sha256": "0" * 64})
    assert [p.seq for p in check_chain([entries[0], forged, entries[2], entries[3]])] == [2]


def test_an_archive_entry_that_is_not_one_is_named():
    for doc, words in (({"at": "x"}, "lacks its 'seq'"), ({"seq": "1", "at": "", "kind": "", "prev_hash": "", "hash": ""},
                                                          "not a whole number"),
                       ({"seq": 1, "at": "", "kind": "", "prev_hash": "", "hash": ""}, "neither a payload")):
        with pytest.raises(ValueError, match=words):
            Entry.from_dict(doc)
